"""Core data model: inputs, rankings with tie policies, judged rankings, score matrices."""

from .inputs import Qrels, Run
from .scorematrix import ScoreMatrix

__all__ = ["Qrels", "Run", "ScoreMatrix"]
