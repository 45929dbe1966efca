"""`rollbook odds SYSTEM [options]`: exact odds as Rich tables, JSON (SPEC "The odds contract") or a
chart. One sub-command per shipped system, each with only its own options (``common`` holds the group,
the options they share and the output helpers; a system registered from outside takes its quick
roll's values there)."""

from __future__ import annotations

from rollbook.cli.odds import exchange, rollunder, tiers, v5, v20  # noqa: F401 - each registers its sub-command, in this order
from rollbook.cli.odds.common import odds_app

__all__ = ["odds_app"]
