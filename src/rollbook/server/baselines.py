"""The baseline in force, read from the log itself (SPEC A-5, TR-1): what ``rollbook log verify``
checks of each roll's mode, table rules and baseline, with no ``--head``.

Pure (standard library, ``rollbook.play.authority``): ``BaselineLedger.check(entry)`` is called on
every readable entry, in log order, like ``server.ledger.AuthorityLedger`` (``Ledgers`` runs both).
It follows the settings a baseline depends on as the log says them:

- a log starts from the defaults (``strict``, no standing difficulty, no table rules); each
  ``settings`` entry (``usecases.chronicles.log_settings``) gives the chronicle's settings in force
  after it, or one character's standing difficulty, and is made by the Storyteller;
- the standing grants in force (``standing_grant``, ``standing_end``, a ``scene_close``'s ended ones);
- a roll is resolved in the mode in force (its request's ``mode``) and under the table rules in force
  (the receipt's ``table_rules``, and a V20 request's); a player's roll without a grant, an ask and a
  grant record the baseline the log gives: each edge's default, overlaid by the standing difficulty
  (the character's, else the chronicle's, for the kinds that take one) and the standing grants.

A roll logged before this rule (no ``table_rules`` in its receipt, and no ``settings`` entry or
recorded table rules before it in the log) is not checked here: its chronicle's settings were
never logged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.play import authority
from rollbook.rules.base import RuleError
from rollbook.server.usecases.checks import DIFFICULTY_KINDS

SETTINGS = "settings"
ROLLS = ("roll", "reroll", "quick_roll")


@dataclass
class BaselineLedger:
    mode: Any = "strict"
    difficulty: Any = None
    table_rules: list = field(default_factory=list)
    characters: dict = field(default_factory=dict)  # character id -> standing difficulty
    standing: dict = field(default_factory=dict)  # standing grant id -> {"character", "edges"} (in force)
    logged: bool = False  # a settings entry, or a receipt recording its table rules, was seen
    system: Any = None  # the game system, as the log's receipts name it

    def check(self, entry: dict) -> list[str]:
        kind = entry.get("kind")
        receipt = entry.get("receipt")
        if not isinstance(receipt, dict):
            return []
        if kind == SETTINGS:
            return self._settings(entry, receipt)
        if kind == "standing_grant":
            self.standing[receipt.get("standing")] = {"character": receipt.get("character"),
                                                      "edges": receipt.get("edges") or {}}
        elif kind == "standing_end":
            self.standing.pop(receipt.get("standing"), None)
        elif kind == "scene_close":
            for ended in receipt.get("standing_ended") or []:
                self.standing.pop(ended, None)
        elif kind in ("ask", "grant"):
            return self._baseline(entry, receipt, receipt.get("kind") if kind == "ask" else None)
        elif kind in ROLLS:
            if isinstance(receipt.get("system"), str):
                self.system = receipt["system"]
            return self._roll(entry, receipt, kind)
        return []

    # --- entries ------------------------------------------------------------------------------

    def _settings(self, entry: dict, receipt: dict) -> list[str]:
        self.logged = True
        problems = []
        if (entry.get("actor") or {}).get("role") != "storyteller":
            problems.append("a settings entry made by someone other than the Storyteller")
        if "character" in receipt:
            self.characters[receipt.get("character")] = receipt.get("difficulty")
            return problems
        self.mode = receipt.get("mode")
        self.difficulty = receipt.get("difficulty")
        rules = receipt.get("table_rules")
        self.table_rules = sorted(rules) if isinstance(rules, list) and all(isinstance(r, str) for r in rules) else rules
        return problems

    def _roll(self, entry: dict, receipt: dict, kind: str) -> list[str]:
        recorded = receipt.get("table_rules")
        if recorded is None and not self.logged:
            return []  # a roll from before A-5: its chronicle's settings were never logged
        self.logged = True
        problems = []
        if recorded is None and kind != "quick_roll":
            problems.append("a roll that does not record its table rules")
        elif recorded is not None and recorded != self.table_rules:
            problems.append(f"resolved under table rules {_words(recorded)}, not those in force ({_words(self.table_rules)})")
        request = receipt.get("request")
        if isinstance(request, dict):
            if "table_rules" in request and request["table_rules"] != self.table_rules:
                problems.append(f"its request's table rules {_words(request['table_rules'])} are not those in force "
                                f"({_words(self.table_rules)})")
            if kind != "reroll" and "mode" in request and request["mode"] != self.mode:
                problems.append(f"resolved in {request['mode']} mode while the chronicle is {self.mode}")
        stamp = receipt.get("authority")
        if (kind == "roll" and isinstance(stamp, dict) and "grant" not in stamp
                and (entry.get("actor") or {}).get("role") == "player"):
            problems += self._expected(entry, stamp.get("baseline"), receipt.get("kind"), receipt.get("system"))
        return problems

    def _baseline(self, entry: dict, receipt: dict, kind: Any) -> list[str]:
        if not self.logged:
            return []
        if kind is None:  # a grant: the kind of the action it composed
            kind = (receipt.get("action") or {}).get("kind") if isinstance(receipt.get("action"), dict) else None
        return self._expected(entry, receipt.get("baseline"), kind, None)

    def _expected(self, entry: dict, base: Any, kind: Any, system: Any) -> list[str]:
        """A-5: the baseline recorded against the one the log gives for this character and kind."""
        if not isinstance(base, dict) or not isinstance(kind, str):
            return []
        character = entry.get("character")
        system = system or self.system or _system_of(kind, base)
        values: dict = {}
        standing = self.characters.get(character)
        if standing is None:
            standing = self.difficulty
        if standing is not None and kind in DIFFICULTY_KINDS.get(system, ()):
            values["difficulty"] = standing
        grants = sorted(((found["character"] is not None, grant_id), found) for grant_id, found in self.standing.items()
                        if found["character"] in (None, character) and isinstance(grant_id, int))
        for _, found in grants:
            values.update(found["edges"])
        if "difficulty" in values and kind not in DIFFICULTY_KINDS.get(system, ()):
            values.pop("difficulty")
        try:
            expected = authority.baseline(system, kind, values)
        except (RuleError, KeyError, TypeError, AttributeError):
            return []
        wrong = sorted(name for name in set(base) | set(expected) if base.get(name) != expected.get(name))
        return [f"baseline {name} is {base.get(name)!r}, the log says {expected.get(name)!r}" for name in wrong]


def _system_of(kind: str, base: dict) -> str | None:
    """The game system of an ask or grant (their receipts do not name it): the one whose kind has
    exactly these edges."""
    for system in ("v20", "v5", "tiers", "rollunder"):
        try:
            if (kind in authority.action_models(system) and set(authority.baseline(system, kind, {})) <= set(base)
                    <= set(authority.edge_fields(system, kind))):
                return system
        except (RuleError, KeyError, TypeError, AttributeError):
            continue
    return None


def _words(rules: Any) -> str:
    return ", ".join(rules) if isinstance(rules, list) and rules else "none"


@dataclass
class Ledgers:
    """Several ledgers over one log: each entry to each, their problems together."""

    parts: tuple

    def check(self, entry: dict) -> list[str]:
        return [problem for part in self.parts for problem in part.check(entry)]


def verify_ledger() -> Ledgers:
    """What ``rollbook log verify`` checks beside the chain and the receipts: the table's authority
    (A-2) and the baseline in force (A-5)."""
    from rollbook.server.ledger import AuthorityLedger

    return Ledgers((AuthorityLedger(), BaselineLedger()))


__all__ = ["BaselineLedger", "Ledgers", "verify_ledger"]
