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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rollbook.entries import (
    AskReceipt,
    ContestReceipt,
    ContestResultReceipt,
    ExtendedReceipt,
    GrantReceipt,
    Logged,
    QuickRollReceipt,
    RollReceipt,
    SceneCloseReceipt,
    SettingsReceipt,
    StandingEndReceipt,
    StandingGrantReceipt,
    ValidationError,
)
from rollbook.play import authority, systems
from rollbook.play.systems import system_ids
from rollbook.rules.base import RuleError
from rollbook.server.usecases.checks import DIFFICULTY_KINDS

SETTINGS = "settings"
ROLLS = ("roll", "reroll", "quick_roll")
Rolled = RollReceipt | QuickRollReceipt


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
    )  # TR-3: declaration seq -> {"declared", "rolled": side -> result, "seqs": side -> seq}
    extended: dict = field(default_factory=dict)  # TR-4: declaration seq -> {"declared", "results"}

    def check(self, line: dict) -> list[str]:
        try:
            entry = Logged.of(line)
            receipt = entry.read()
        except (KeyError, ValidationError):  # not an entry of its kind: the chain's checks say so
            return []
        if isinstance(receipt, SettingsReceipt):
            return self._settings(entry, receipt)
        if isinstance(receipt, StandingGrantReceipt):
            self.standing[receipt.standing] = {"character": receipt.character, "edges": receipt.edges or {}}
        elif isinstance(receipt, StandingEndReceipt):
            self.standing.pop(receipt.standing, None)
        elif isinstance(receipt, SceneCloseReceipt):
            for ended in receipt.standing_ended or []:
                self.standing.pop(ended, None)
        elif isinstance(receipt, AskReceipt):
            return self._baseline(entry, receipt.baseline, receipt.kind)
        elif isinstance(receipt, GrantReceipt):  # the kind of the action it composed
            return self._baseline(entry, receipt.baseline, (receipt.action or {}).get("kind"))
        elif isinstance(receipt, ContestReceipt):
            self.contests[entry.seq] = {"declared": receipt, "rolled": {}, "seqs": {}}
        elif isinstance(receipt, ExtendedReceipt):
            self.extended[entry.seq] = {"declared": receipt, "results": []}
        elif isinstance(receipt, ContestResultReceipt):
            return self._contest_result(entry, receipt)
        elif isinstance(receipt, Rolled):
            if isinstance(receipt, RollReceipt):
                self.system = receipt.system
            return self._roll(entry, receipt) + (
                self._part_of(entry, receipt) if isinstance(receipt, RollReceipt) else []
            )
        return []

    # --- entries ------------------------------------------------------------------------------

    def _settings(self, entry: Logged, receipt: SettingsReceipt) -> list[str]:
        self.logged = True
        problems = []
        if (entry.actor or {}).get("role") != "storyteller":
            problems.append("a settings entry made by someone other than the Storyteller")
        if "character" in receipt.model_fields_set:
            self.characters[receipt.character] = receipt.difficulty
            return problems
        self.mode = receipt.mode
        self.difficulty = receipt.difficulty
        rules = receipt.table_rules
        self.table_rules = sorted(rules) if rules is not None else rules
        return problems

    def _roll(self, entry: Logged, receipt: Rolled) -> list[str]:
        kind = entry.kind
        recorded = receipt.table_rules
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
        request = receipt.request
        if request is not None:
            if "table_rules" in request and request["table_rules"] != self.table_rules:
                problems.append(
                    f"its request's table rules {_words(request['table_rules'])} are not those in force "
                    f"({_words(self.table_rules)})"
                )
            if kind != "reroll" and "mode" in request and request["mode"] != self.mode:
                problems.append(f"resolved in {request['mode']} mode while the chronicle is {self.mode}")
        stamp = receipt.authority if isinstance(receipt, RollReceipt) else None
        if (
            isinstance(receipt, RollReceipt)
            and kind == "roll"
            and isinstance(stamp, dict)
            and "grant" not in stamp
            and (entry.actor or {}).get("role") == "player"
        ):
            problems += self._expected(entry, stamp.get("baseline"), receipt.kind, receipt.system)
        return problems

    def _baseline(self, entry: Logged, base: Any, kind: Any) -> list[str]:
        """An ask's or a grant's recorded baseline, for the kind it rolls (A-5)."""
        if not self.logged:
            return []
        return self._expected(entry, base, kind, None)

    def _expected(self, entry: Logged, base: Any, kind: Any, system: Any) -> list[str]:
        """A-5: the baseline recorded against the one the log gives for this character and kind."""
        if not isinstance(base, dict) or not isinstance(kind, str):
            return []
        character = entry.character
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

    def _part_of(self, entry: Logged, receipt: RollReceipt) -> list[str]:
        """A contest's side or an extended action's roll: the roll declared, for the character declared,
        once per side, and (extended) the running total its receipt states."""
        from rollbook.rules import contests as rules_contests

        note = receipt.contest
        if note is not None:
            found = self.contests.get(note.get("of"))
            side = note.get("side")
            if found is None or side not in ("attacker", "defender") or entry.refers_to != note.get("of"):
                return [f"a contest roll of an unknown contest (entry {note.get('of')})"]
            contest: ContestReceipt = found["declared"]
            declared = contest.attacker if side == "attacker" else contest.defender
            problems = []
            if side in found["rolled"]:
                problems.append(f"the {side} of contest {note.get('of')} rolled twice")
            if receipt.action != declared.action or entry.character != declared.character:
                problems.append(f"the {side}'s roll is not the one contest {note.get('of')} declared")
            found["rolled"][side] = receipt.result
            found["seqs"][side] = entry.seq
            return problems
        note = receipt.extended
        if note is not None:
            found = self.extended.get(note.get("of"))
            if found is None or entry.refers_to != note.get("of"):
                return [f"a roll of an unknown extended action (entry {note.get('of')})"]
            extended: ExtendedReceipt = found["declared"]
            problems = []
            if receipt.action != extended.action or entry.character != extended.character:
                problems.append(f"the roll is not the one extended action {note.get('of')} declared")
            found["results"].append(receipt.result)
            try:
                state = rules_contests.extended(
                    extended.game, extended.target, extended.max_rolls, found["results"]
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

    def _contest_result(self, entry: Logged, receipt: ContestResultReceipt) -> list[str]:
        from rollbook.rules import contests as rules_contests

        found = self.contests.get(receipt.contest)
        if found is None or set(found["rolled"]) != {"attacker", "defender"}:
            return [f"a contest result before both sides of contest {receipt.contest} rolled"]
        declared: ContestReceipt = found["declared"]
        try:
            outcome = rules_contests.contest(
                declared.game, found["rolled"]["attacker"], found["rolled"]["defender"]
            )
        except (RuleError, KeyError, TypeError, AttributeError):
            return [f"contest {receipt.contest} cannot be recomputed"]
        sides = {"attacker": declared.attacker, "defender": declared.defender}
        expected = {
            "contest": receipt.contest,
            "game": declared.game,
            "winner": outcome["winner"],
            "margin": outcome["margin"],
            "tie": outcome["tie"],
            **{
                side: {"character": sides[side].character, "roll": found["seqs"][side], **outcome[side]}
                for side in ("attacker", "defender")
            },
        }
        return (
            []
            if entry.stored == expected
            else [f"the result of contest {receipt.contest} is not what its rolls make"]
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


class EntryLedger(Protocol):
    """A ledger over one log: each entry in order, its problems in words (none: it is sound)."""

    def check(self, entry: dict) -> list[str]: ...


class SystemLedger(Protocol):
    """What ``rollbook log verify`` checks of a system's own entries (V5's compulsions, seed 001:
    ``systems.v5.ledger``), its part ``ledger``: a new ledger for each log."""

    def new_ledger(self) -> EntryLedger: ...


# each registered system's ledger, system id -> its part (``play.systems.Parts``)
SYSTEM_LEDGERS: Mapping[str, SystemLedger] = systems.Parts("ledger", lambda m: m.LEDGER)


@dataclass
class Ledgers:
    """Several ledgers over one log: each entry to each, their problems together."""

    parts: tuple

    def check(self, entry: dict) -> list[str]:
        return [problem for part in self.parts for problem in part.check(entry)]


def verify_ledger() -> Ledgers:
    """What ``rollbook log verify`` checks beside the chain and the receipts: the table's authority
    (A-2), the baseline in force (A-5) and each system's own entries (``SYSTEM_LEDGERS``: V5's
    compulsions in force, seed 001)."""
    from rollbook.server.ledger import AuthorityLedger

    own = tuple(part.new_ledger() for part in SYSTEM_LEDGERS.values())
    return Ledgers((AuthorityLedger(), BaselineLedger(), *own))


__all__ = ["SYSTEM_LEDGERS", "BaselineLedger", "EntryLedger", "Ledgers", "SystemLedger", "verify_ledger"]
