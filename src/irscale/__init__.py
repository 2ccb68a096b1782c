"""irscale: offline IR evaluation you can trust.

trec_eval-exact measures from TREC files or Python objects, interval scales for measures,
statistical inference for IR experiments and the meta-evaluation of measures and tests.
"""

from . import stats
from .core import Qrels, Run, ScoreMatrix
from .errors import IrscaleError
from .evaluation import Evaluation, evaluate
from .io import read_qrels, read_run, read_runs
from .measures.names import parse_measures
from .stats import (
    anova,
    paired_t,
    pairwise_tests,
    randomization_test,
    topic_set_size,
    tukey_hsd,
)

__version__ = "0.1.0"

__all__ = [
    "Evaluation",
    "IrscaleError",
    "Qrels",
    "Run",
    "ScoreMatrix",
    "__version__",
    "anova",
    "evaluate",
    "paired_t",
    "pairwise_tests",
    "parse_measures",
    "randomization_test",
    "read_qrels",
    "read_run",
    "read_runs",
    "stats",
    "topic_set_size",
    "tukey_hsd",
]
