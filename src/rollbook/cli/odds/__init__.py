"""`rollbook odds SYSTEM [options]`: exact odds as Rich tables, JSON (SPEC "The odds contract") or a
chart. One sub-command per shipped system, each with only its own options: its package's ``cli_odds``
(``rollbook.systems.<id>.cli_odds``), loaded here by name (``common`` holds the group, the options they
share and the output helpers; a system registered from outside takes its quick roll's values there)."""

from __future__ import annotations

from rollbook.cli.odds.common import odds_app
from rollbook.play.systems import SYSTEM_IDS, own_module

for _system in SYSTEM_IDS:  # each registers its sub-command, in this order, and its exchange's
    own_module(_system, "cli_odds")
    own_module(_system, "cli_exchange")

__all__ = ["odds_app"]
