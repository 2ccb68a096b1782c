"""Multi-query sessions (:mod:`irscale.measures.sessions`)."""

from __future__ import annotations

from ...core.contexts import ContextInfo, declare_context

SESSIONS = declare_context("sessions", ContextInfo(
    "multi-query sessions: the ranked lists of a session's queries, in order",
    "session", ("sDCG@10", "nsDCG(norm=jarvelin)@10", "U(L=132000)"),
    "irscale session; irscale.text.evaluate_sessions", unit="documents per query",
    whole="session"))
