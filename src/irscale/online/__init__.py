"""Online evaluation (issue 14): interleaving and multileaving, A/B tests, click logs and
click models. See ``docs/online.md``.
"""

from __future__ import annotations
