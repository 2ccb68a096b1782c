"""ranx's JSON files, recorded: what ranx writes (``Qrels.save`` / ``Run.save`` of a few
cases: tied degrees and scores, odd ids, scores that need all 17 digits) and what ranx reads
back (``Qrels.from_file`` / ``Run.from_file``'s ``to_dict()``) from the files irscale writes
(:func:`irscale.io.ranx_json.write_ranx_json`), with ranx's means of the objects irscale's
``to_ranx()`` builds, written to ``tests/fixtures/ranx_json.json``.

ranx builds its objects through numba (typed dicts: seconds each, minutes on a fresh
machine); ``tests/test_io_ranx_json.py`` compares irscale with the record, and asks ranx
again only where another release is installed or ``IRSCALE_REFRESH_ORACLES=1`` asks
(:mod:`tests.oracles.recorded`). ranx's JSON reader is ``orjson.loads`` and its dict
conversion, which keeps every id and value of these cases: the record holds the dicts it
gives. Every file and dict is ranx's own, written by this module::

    PYTHONPATH=src python -m tests.oracles.ranx_json
"""

from __future__ import annotations

import importlib.metadata
import json
import random
import tempfile
from pathlib import Path
from typing import Any

#: The recorded files and dicts.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ranx_json.json"
#: irscale's names of the ranx measures recorded for ``to_ranx()``'s objects.
MEASURES = {"map": "AP", "ndcg@3": "nDCG@3", "precision@2": "P@2"}
#: The judgments and scores of ``to_ranx()``'s objects.
TO_RANX = ({"q1": {"d1": 2, "d2": 1, "d3": 0}, "q2": {"d4": 1, "d1": 1}},
           {"q1": {"d1": 0.5, "d2": 0.9, "d5": 0.1}, "q2": {"d4": 2.0, "d7": 1.0}})
#: The characters of the generated ids (the ids of the former property test).
_ID_CHARS = "abcdefgxyz0123456789_-."


def _generated(seed: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Judgments (degrees −2 to 5, so ties) and scores (doubles of 17 digits within a C
    float's range, and ties) drawn from ``seed``."""
    rng = random.Random(seed)

    def ident() -> str:
        return "".join(rng.choice(_ID_CHARS) for _ in range(rng.randint(1, 6)))

    def nested(value: Any) -> dict:
        return {ident(): {ident(): value() for _ in range(rng.randint(1, 6))}
                for _ in range(rng.randint(1, 4))}

    def score() -> float:
        return rng.choice([0.0, 1.0, rng.uniform(-1.0, 1.0),
                           rng.uniform(-1.0, 1.0) * 10.0 ** rng.randint(-29, 29)])

    return nested(lambda: rng.randint(-2, 5)), nested(score)


def cases() -> list[tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]]:
    """The recorded cases: hand-made ones (tied degrees and scores; ids of digits, dots,
    quotes, backslashes and letters beyond ASCII; the shortest and longest doubles), then
    generated ones."""
    odd = ["007", "1.0", "-", 'a"b', "a\\b", "é", "Ω1"]
    hand = [
        ({"1": {"a": 1, "b": 1, "c": 0, "d": -1}, "2": {"a": 3}},
         {"1": {"a": 0.5, "b": 0.5, "c": 0.5, "e": -0.5}, "2": {"a": 0.0, "z": 0.0}}),
        ({q: {d: i % 3 for i, d in enumerate(odd)} for q in odd[:3]},
         {q: {d: float(i) / 7 for i, d in enumerate(odd)} for q in odd[3:]}),
        ({"q": {"d1": 5, "d2": 0}},
         {"q": {"d1": 0.1 + 0.2, "d2": 1 / 3, "d3": -1e30, "d4": 2.5e-29, "d5": 1e-5,
                "d6": 123456789.12345679, "d7": 1e16, "d8": -0.0}}),
    ]
    return hand + [_generated(seed) for seed in range(6)]


def _plain(mapping: Any, kind: type) -> dict:
    """A ranx (numba) mapping as plain dicts, its values as ``kind``."""
    return {str(q): {str(d): kind(v) for d, v in docs.items()} for q, docs in mapping.items()}


def record() -> dict[str, Any]:
    """ranx's files of every case, its dicts of irscale's files, and its means of the
    objects ``to_ranx()`` builds, with the ranx release."""
    import ranx

    import irscale
    from irscale.io.ranx_json import write_ranx_json

    answers = []
    with tempfile.TemporaryDirectory() as folder:
        for number, (judged, scored) in enumerate(cases()):
            where = Path(folder) / str(number)  # irscale overwrites no file
            where.mkdir()
            ranx.Qrels(judged).save(str(where / "q.json"))
            ranx.Run(scored, name="bm25").save(str(where / "r.json"))
            saved = {"qrels": (where / "q.json").read_text(encoding="utf-8"),
                     "run": (where / "r.json").read_text(encoding="utf-8")}
            write_ranx_json(irscale.read_qrels(judged), where / "iq.json")
            write_ranx_json(irscale.read_run(scored), where / "ir.json")
            read = {"qrels": _plain(ranx.Qrels.from_file(str(where / "iq.json")).to_dict(),
                                    int),
                    "run": _plain(ranx.Run.from_file(str(where / "ir.json")).to_dict(),
                                  float)}
            answers.append({"qrels": judged, "run": scored, "saved": saved, "read": read})
    judged, scored = TO_RANX
    rq, rr = ranx.Qrels(judged), ranx.Run(scored, name="bm25")
    to_ranx = {"qrels": _plain(rq.to_dict(), int), "run": _plain(rr.to_dict(), float),
               "means": {name: float(ranx.evaluate(rq, rr, name)) for name in MEASURES}}
    return {"ranx": importlib.metadata.version("ranx"), "cases": answers,
            "to_ranx": to_ranx}


def load() -> dict[str, Any]:
    """The recorded files and dicts (:data:`FIXTURE`)."""
    with FIXTURE.open(encoding="utf-8") as handle:
        return json.load(handle)


def main() -> None:
    """Record ranx's files and dicts of :func:`cases`."""
    answer = record()
    FIXTURE.write_text(json.dumps(answer, ensure_ascii=False, indent=None,
                                  separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{FIXTURE}: {len(answer['cases'])} cases of ranx {answer['ranx']}")


if __name__ == "__main__":
    main()
