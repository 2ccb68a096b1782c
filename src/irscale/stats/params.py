"""The parameters of the functions of :mod:`irscale.stats`, bound where they are declared
(:mod:`irscale.core.binding`): their domains checked on entry, the rules of when they
apply. ``irscale compare`` chooses among them by ``--test``
(:data:`irscale.cli.compare.PROCEDURES`, a :class:`~irscale.core.binding.Choice`).

Light, as :mod:`irscale.stats.names` (no numpy): the command line reads it before the
statistics are loaded; ``irscale eval`` never loads it (``tests/test_startup_modules.py``).
"""

from __future__ import annotations

from typing import ClassVar

from ..core.binding import Binding, Excludes
from ..core.params import RESAMPLES, RNG_SEED, SIGNIFICANCE, THREADS, Needs, Param
from ..core.records import record
from ..errors import ParameterError, about
from .names import (
    ALTERNATIVE,
    ANOVA_TRANSFORM,
    BASELINE,
    CONVENTION,
    MODEL_NAMES,
    MULTIPLE_CORRECTION,
    RANK_MODELS,
    RESAMPLING_TESTS,
    TEST,
)


@record
class TukeyModels:
    """A model Tukey's HSD follows: a named ANOVA model (:data:`MODEL_NAMES`), a rank
    model (:data:`RANK_MODELS`) or an ANOVA formula over ``topic`` and ``system``
    (``topic + system``: its terms are checked again, in full, where it is fitted)."""

    type: ClassVar[type] = str

    def check(self, value: object, name: str) -> str:
        """``value`` as given, where it names a model or is a formula of topic and system."""
        if isinstance(value, str):
            factors = [factor for term in value.replace(" ", "").split("+")
                       for factor in term.split(":")]
            if value in (*MODEL_NAMES, *RANK_MODELS) or \
                    all(factor in ("topic", "system") for factor in factors):
                return value
        raise about(ParameterError(f"{name}: unknown model {value!r}; choose from "
                                   f"{', '.join((*MODEL_NAMES, *RANK_MODELS))} or a formula "
                                   "such as 'topic + system'", param=name), value)

    def outside(self) -> tuple[str, ...]:
        return ("MD9", "topic+shard")


#: The model of :func:`irscale.stats.tukey_hsd` (``compare --test tukey-hsd --model``).
TUKEY_MODEL = Param("model", TukeyModels(), "topic+system", "model Tukey's HSD follows: "
                    f"{' | '.join((*MODEL_NAMES, *RANK_MODELS))} or a formula", ("--model",))
#: A transform applies to an ANOVA model: a rank model ranks the scores itself.
_RANKED = Excludes((ANOVA_TRANSFORM,), on=TUKEY_MODEL, values=RANK_MODELS,
                   why="a rank test ranks the scores itself")
#: :func:`irscale.stats.tukey.tukey_model`: the model fitted before Tukey's HSD, and the
#: transform of the scores of an ANOVA model.
TUKEY_FIT = Binding((TUKEY_MODEL, ANOVA_TRANSFORM), rules=(_RANKED,))
#: :func:`irscale.stats.tukey_hsd`: the model, its transform and the level.
TUKEY = Binding((TUKEY_MODEL, ANOVA_TRANSFORM, SIGNIFICANCE), rules=(_RANKED,))
#: :func:`irscale.stats.randomized_tukey_hsd`: its resamples, level, threads, p-value
#: convention and seed.
RANDOMIZED_TUKEY = Binding((RESAMPLES, SIGNIFICANCE, THREADS, CONVENTION), takes=(RNG_SEED,))
#: The test of :func:`irscale.stats.pairwise_tests`.
PAIRWISE_TEST = Param("test", TEST, "t", "two-system test", ("--test",))
#: :func:`irscale.stats.pairwise_tests`: the test, the level, the alternative and the
#: baseline; the resamples, the seed and the threads apply to the tests that resample
#: (their ``**options``); the correction (None: none) is checked where it is applied.
PAIRWISE = Binding((PAIRWISE_TEST, SIGNIFICANCE, ALTERNATIVE, BASELINE),
                   rules=(Needs((RESAMPLES, RNG_SEED, THREADS), on=PAIRWISE_TEST,
                                values=RESAMPLING_TESTS),),
                   takes=(MULTIPLE_CORRECTION,))
