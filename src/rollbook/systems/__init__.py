"""The systems the package ships, one package each (``rollbook.systems.<id>``): everything about a
system (its rules, sheet, actions, odds, receipts' views, words, commands) behind the interfaces the
core rooms define (``rollbook.rules.SystemRules``, ``rollbook.play.systems.SystemModule``…). Each module
belongs to the room its name says (``ROOMS``: ``rules.py`` and ``contests.py`` to the pure rules,
``play.py`` and ``sheet.py`` to play, ``words.py`` to presentation, ``cli_roll.py`` to the CLI…) and
imports what that room may. The core names no system's code: its registries find a system's module by
its dotted name (``rollbook.play.systems.own_module``) from the shipped ids (``SYSTEM_IDS``)."""

from __future__ import annotations

# The systems the package ships, each a package here, in the order the faces list them: declared once,
# here (``rollbook.play.systems.SYSTEM_IDS`` and the rules' registry read it; a test checks it names
# the packages). Standard library only: the pure rules core reads it too.
SHIPPED: tuple[str, ...] = ("v20", "v5", "tiers", "rollunder")

# a system's module name -> the room (top-level package of ``rollbook``) whose layer it belongs to
ROOMS: dict[str, str] = {
    "rules": "rules",
    "contests": "rules",
    "table_rules": "rules",
    "play": "play",
    "sheet": "play",
    "changes": "play",
    "quick": "play",
    "turns": "play",
    "compulsions": "play",
    "powers": "play",
    "odds": "odds",
    "odds_exchange": "odds",
    "odds_chart": "odds",
    "odds_classes": "odds",
    "odds_plain": "odds",
    "odds_rerolls": "odds",
    "render": "render",
    "contract": "contract",
    "words": "present",
    "exchange": "present",
    "present": "present",
    "exchange_odds": "server",
    "cli_roll": "cli",
    "cli_odds": "cli",
    "cli_exchange": "cli",
    "messages": "i18n",
    "api": "app",
    "web_routes": "web",
    "ledger": "server",
    "solo": "solo",
    "interop": "interop",
}
