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
from rollbook.play.systems import system_ids
from rollbook.rules.base import RuleError
from rollbook.server.usecases.checks import DIFFICULTY_KINDS

SETTINGS = "settings"
ROLLS = ("roll", "reroll", "quick_roll")


@dataclass
class BaselineLedger:
    mode: Any = "strict"
    difficulty: Any = None
    # the rule ids in force (sorted), or what a malformed settings entry recorded (matched by no roll)
    table_rules: object = field(default_factory=list)
    characters: dict = field(default_factory=dict)  # character id -> standing difficulty
    standing: dict = field(default_factory=dict)  # standing grant id -> {"character", "edges"} (in force)
    logged: bool = False  # a settings entry, or a receipt recording its table rules, was seen
    system: Any = None  # the game system, as the log's receipts name it
    contests: dict = field(
        default_factory=dict
    )  # TR-3: declaration seq -> {"sides", "rolled": side -> result}
    extended: dict = field(default_factory=dict)  # TR-4: declaration seq -> {"declared", "results"}

    def check(self, entry: dict) -> list[str]:
        kind = entry.get("kind")
        receipt = entry.get("receipt")
        if not isinstance(receipt, dict):
            return []
        if kind == SETTINGS:
            return self._settings(entry, receipt)
        if kind == "standing_grant":
            self.standing[receipt.get("standing")] = {
                "character": receipt.get("character"),
                "edges": receipt.get("edges") or {},
            }
        elif kind == "standing_end":
            self.standing.pop(receipt.get("standing"), None)
        elif kind == "scene_close":
            for ended in receipt.get("standing_ended") or []:
                self.standing.pop(ended, None)
        elif kind in ("ask", "grant"):
            return self._baseline(entry, receipt, receipt.get("kind") if kind == "ask" else None)
        elif kind == "contest":
            self.contests[entry.get("seq")] = {"declared": receipt, "rolled": {}, "seqs": {}}
        elif kind == "extended":
            self.extended[entry.get("seq")] = {"declared": receipt, "results": []}
        elif kind == "contest_result":
            return self._contest_result(entry, receipt)
        elif kind in ROLLS:
            if isinstance(receipt.get("system"), str):
                self.system = receipt["system"]
            return self._roll(entry, receipt, kind) + self._part_of(entry, receipt)
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
        self.table_rules = (
            sorted(rules) if isinstance(rules, list) and all(isinstance(r, str) for r in rules) else rules
        )
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
            problems.append(
                f"resolved under table rules {_words(recorded)}, not those in force ({_words(self.table_rules)})"
            )
        request = receipt.get("request")
        if isinstance(request, dict):
            if "table_rules" in request and request["table_rules"] != self.table_rules:
                problems.append(
                    f"its request's table rules {_words(request['table_rules'])} are not those in force "
                    f"({_words(self.table_rules)})"
                )
            if kind != "reroll" and "mode" in request and request["mode"] != self.mode:
                problems.append(f"resolved in {request['mode']} mode while the chronicle is {self.mode}")
        stamp = receipt.get("authority")
        if (
            kind == "roll"
            and isinstance(stamp, dict)
            and "grant" not in stamp
            and (entry.get("actor") or {}).get("role") == "player"
        ):
            problems += self._expected(
                entry, stamp.get("baseline"), receipt.get("kind"), receipt.get("system")
            )
        return problems

    def _baseline(self, entry: dict, receipt: dict, kind: Any) -> list[str]:
        if not self.logged:
            return []
        if kind is None:  # a grant: the kind of the action it composed
            kind = (
                (receipt.get("action") or {}).get("kind") if isinstance(receipt.get("action"), dict) else None
            )
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
        grants = sorted(
            ((found["character"] is not None, grant_id), found)
            for grant_id, found in self.standing.items()
            if found["character"] in (None, character) and isinstance(grant_id, int)
        )
        for _, found in grants:
            values.update(found["edges"])
        if "difficulty" in values and kind not in DIFFICULTY_KINDS.get(system, ()):
            values.pop("difficulty")
        try:
            expected = authority.baseline(system, kind, values)
        except (RuleError, KeyError, TypeError, AttributeError):
            return []
        wrong = sorted(name for name in set(base) | set(expected) if base.get(name) != expected.get(name))
        return [
            f"baseline {name} is {base.get(name)!r}, the log says {expected.get(name)!r}" for name in wrong
        ]

    # --- TR-3, TR-4: the rolls of a declared contest or extended action -------------------------

    def _part_of(self, entry: dict, receipt: dict) -> list[str]:
        """A contest's side or an extended action's roll: the roll declared, for the character declared,
        once per side, and (extended) the running total its receipt states."""
        from rollbook.rules import contests as rules_contests

        note = receipt.get("contest")
        if isinstance(note, dict):
            found = self.contests.get(note.get("of"))
            side = note.get("side")
            if (
                found is None
                or side not in ("attacker", "defender")
                or entry.get("refers_to") != note.get("of")
            ):
                return [f"a contest roll of an unknown contest (entry {note.get('of')})"]
            declared = found["declared"].get(side) or {}
            problems = []
            if side in found["rolled"]:
                problems.append(f"the {side} of contest {note.get('of')} rolled twice")
            if receipt.get("action") != declared.get("action") or entry.get("character") != declared.get(
                "character"
            ):
                problems.append(f"the {side}'s roll is not the one contest {note.get('of')} declared")
            found["rolled"][side] = receipt.get("result")
            found["seqs"][side] = entry.get("seq")
            return problems
        note = receipt.get("extended")
        if isinstance(note, dict):
            found = self.extended.get(note.get("of"))
            if found is None or entry.get("refers_to") != note.get("of"):
                return [f"a roll of an unknown extended action (entry {note.get('of')})"]
            declared = found["declared"]
            problems = []
            if receipt.get("action") != declared.get("action") or entry.get("character") != declared.get(
                "character"
            ):
                problems.append(f"the roll is not the one extended action {note.get('of')} declared")
            found["results"].append(receipt.get("result"))
            try:
                state = rules_contests.extended(
                    declared.get("game"), declared.get("target"), declared.get("max_rolls"), found["results"]
                )
            except (RuleError, KeyError, TypeError, AttributeError):
                return problems + [f"extended action {note.get('of')} cannot be followed to this roll"]
            expected = {"of": note.get("of"), "roll": len(found["results"]), **state.plain()}
            if note != expected:
                problems.append(
                    f"the running total of extended action {note.get('of')} is not what its rolls make"
                )
            return problems
        return []

    def _contest_result(self, entry: dict, receipt: dict) -> list[str]:
        from rollbook.rules import contests as rules_contests

        found = self.contests.get(receipt.get("contest"))
        if found is None or set(found["rolled"]) != {"attacker", "defender"}:
            return [f"a contest result before both sides of contest {receipt.get('contest')} rolled"]
        try:
            outcome = rules_contests.contest(
                found["declared"].get("game"), found["rolled"]["attacker"], found["rolled"]["defender"]
            )
        except (RuleError, KeyError, TypeError, AttributeError):
            return [f"contest {receipt.get('contest')} cannot be recomputed"]
        expected = {
            "contest": receipt.get("contest"),
            "game": found["declared"].get("game"),
            "winner": outcome["winner"],
            "margin": outcome["margin"],
            "tie": outcome["tie"],
            **{
                side: {
                    "character": found["declared"][side]["character"],
                    "roll": found["seqs"][side],
                    **outcome[side],
                }
                for side in ("attacker", "defender")
            },
        }
        return (
            []
            if receipt == expected
            else [f"the result of contest {receipt.get('contest')} is not what its rolls make"]
        )


def _system_of(kind: str, base: dict) -> str | None:
    """The game system of an ask or grant (their receipts do not name it): the one whose kind has
    exactly these edges."""
    for system in system_ids():
        try:
            if kind in authority.action_models(system) and set(authority.baseline(system, kind, {})) <= set(
                base
            ) <= set(authority.edge_fields(system, kind)):
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
    (A-2), the baseline in force (A-5) and the V5 compulsions in force (seed 001)."""
    from rollbook.server.compulsion_ledger import CompulsionLedger
    from rollbook.server.ledger import AuthorityLedger

    return Ledgers((AuthorityLedger(), BaselineLedger(), CompulsionLedger()))


__all__ = ["BaselineLedger", "Ledgers", "verify_ledger"]
