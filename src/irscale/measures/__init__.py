"""Measures: the registry, the name parser, and every family (trec_eval's and ours)."""

from . import trec  # noqa: F401  (registers trec_eval's families)
from .base import REGISTRY, EvalContext, Family, MeasureRequest, get_family, register

__all__ = ["REGISTRY", "EvalContext", "Family", "MeasureRequest", "get_family", "register"]
