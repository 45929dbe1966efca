"""The table's authority in the log (SPEC A-1, A-2): what ``rollbook log verify`` checks besides
the hash chain and the receipts' arithmetic.

Pure (standard library and ``rollbook.play.authority``): ``AuthorityLedger.check(entry)`` is
called on every readable entry, in log order, and returns the problems it finds:

- an ask is a player's, for the character it names, and asks something;
- each ask is decided at most once (grant, refusal or withdrawal), by the Storyteller (a
  withdrawal by the player who asked, or by the Storyteller when the asker was removed — after that
  removal's entry — or the character changed hands: issue 31 point 7), and the decision repeats what
  was asked; a grant "as asked" granted exactly that;
- a roll that names a grant (``receipt["authority"]["grant"]``) follows that grant, uses it once,
  is for the ask's character, rolls exactly the action the grant composed (the player's part, the
  baseline, the edges granted: recomputed here) and is hidden exactly when the grant says so;
- a player's roll without a grant carries no edge beyond its recorded baseline, and the standing
  grants it names were in force and set those values.

Rolls logged before the authority rules (no ``authority`` stamp) are not checked here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.play import authority
from rollbook.rules.base import RuleError

DECISIONS = {"grant": ("as_asked", "changed"), "refusal": ("refused",), "withdrawal": ("withdrawn",)}


@dataclass
class _Ask:
    seq: int
    character: Any
    member: Any
    kind: Any
    player: Any
    asked: Any
    decided_by: int | None = None


@dataclass
class _Grant:
    seq: int
    ask: _Ask
    granted: Any
    action: Any
    hidden: Any
    baseline: Any
    used_by: int | None = None


def _taken_once(record: Any, taken_by: str, seq: int, what: str) -> list[str]:
    """An ask is decided, a grant used, by one entry only: the first takes it, a second is a problem."""
    first = getattr(record, taken_by)
    if first is not None:
        return [f"{what} twice (entries {first} and {seq})"]
    setattr(record, taken_by, seq)
    return []


@dataclass
class AuthorityLedger:
    asks: dict[int, _Ask] = field(default_factory=dict)  # by the ask's seq
    grants: dict[int, _Grant] = field(default_factory=dict)  # by the grant's seq
    standing: dict[int, dict] = field(default_factory=dict)  # by the standing grant's id
    removed: set = field(default_factory=set)  # members removed so far (``member_removed``)

    def check(self, entry: dict) -> list[str]:
        kind = entry.get("kind")
        receipt = entry.get("receipt")
        if not isinstance(receipt, dict):
            return []
        if kind == "ask":
            return self._ask(entry, receipt)
        if kind == "member_removed":
            self.removed.add(receipt.get("member"))
            return []
        if kind in DECISIONS:
            return self._decision(entry, receipt, kind)
        if kind == "standing_grant":
            self.standing[receipt.get("standing")] = {"edges": receipt.get("edges") or {}, "ended": None,
                                                      "character": receipt.get("character")}
            return []
        if kind == "standing_end":
            return self._end(entry, [receipt.get("standing")])
        if kind == "scene_close":
            return self._end(entry, receipt.get("standing_ended") or [])
        if kind == "roll" and isinstance(receipt.get("authority"), dict):
            return self._roll(entry, receipt)
        return []

    # --- entries ------------------------------------------------------------------------------

    def _ask(self, entry: dict, receipt: dict) -> list[str]:
        actor = entry.get("actor") or {}
        problems = []
        if actor.get("role") != "player":
            problems.append("an ask made by someone other than a player")
        if receipt.get("character") != entry.get("character") or actor.get("character") != entry.get("character"):
            problems.append("an ask for another character than its entry names")
        if not receipt.get("asked"):
            problems.append("an ask that asks nothing")
        self.asks[entry["seq"]] = _Ask(entry["seq"], receipt.get("character"), actor.get("member"), receipt.get("kind"),
                                       receipt.get("player"), receipt.get("asked"))
        return problems

    def _decision(self, entry: dict, receipt: dict, kind: str) -> list[str]:
        ask = self.asks.get(receipt.get("ask_seq"))
        if ask is None:
            return [f"a {kind} of an unknown ask (entry {receipt.get('ask_seq')})"]
        problems = _taken_once(ask, "decided_by", entry["seq"], f"ask {ask.seq} decided")
        actor = entry.get("actor") or {}
        if kind == "withdrawal":
            cause = receipt.get("cause")
            for_them = actor.get("role") == "storyteller" and (
                cause == "owner_changed" or (cause == "member_removed" and ask.member in self.removed))
            if actor.get("member") != ask.member and not for_them:
                problems.append(f"ask {ask.seq} withdrawn by someone other than who asked")
        elif actor.get("role") != "storyteller":
            problems.append(f"ask {ask.seq} decided by someone other than the Storyteller")
        if receipt.get("decision") not in DECISIONS[kind]:
            problems.append(f"a {kind} whose decision is {receipt.get('decision')!r}")
        if receipt.get("asked") != ask.asked or receipt.get("character") != ask.character:
            problems.append(f"the decision on ask {ask.seq} does not repeat what was asked")
        if kind == "grant":
            if receipt.get("decision") == "as_asked" and receipt.get("granted") != ask.asked:
                problems.append(f"ask {ask.seq} granted 'as asked' with other edges")
            self.grants[entry["seq"]] = _Grant(entry["seq"], ask, receipt.get("granted"), receipt.get("action"),
                                               receipt.get("hidden"), receipt.get("baseline"))
        return problems

    def _end(self, entry: dict, ids: list) -> list[str]:
        problems = []
        for standing_id in ids:
            found = self.standing.get(standing_id)
            if found is None:
                problems.append(f"ends standing grant {standing_id}, never set")
            elif found["ended"] is not None:
                problems.append(f"ends standing grant {standing_id} again (ended by entry {found['ended']})")
            else:
                found["ended"] = entry["seq"]
        return problems

    def _roll(self, entry: dict, receipt: dict) -> list[str]:
        stamp = receipt["authority"]
        system = receipt.get("system")
        hidden = entry.get("visibility") == "hidden"
        if "grant" in stamp:
            return self._granted_roll(entry, receipt, stamp, system, hidden)
        if (entry.get("actor") or {}).get("role") != "player":
            return []
        problems = []
        base = stamp.get("baseline")
        if not isinstance(base, dict):
            return ["a player's roll without its baseline"]
        try:
            extra = authority.asked_edges(system, receipt.get("action") or {}, base, hidden=hidden)
        except (RuleError, KeyError, TypeError):
            return ["a player's roll whose action cannot be read"]
        if extra:
            problems.append(f"a player's roll sets {', '.join(sorted(extra))} without a grant")
        expected: dict = {}
        used = [self.standing.get(i) for i in stamp.get("standing") or []]
        for standing_id, found in zip(stamp.get("standing") or [], used):
            if found is None or found["ended"] is not None:
                problems.append(f"uses standing grant {standing_id}, not in force")
        ordered = sorted((f for f in used if f is not None), key=lambda f: f["character"] is not None)
        for found in ordered:
            expected.update(found["edges"])
        for name, value in expected.items():
            if name in base and base[name] != value:
                problems.append(f"baseline {name} is not what the standing grants set")
        return problems

    def _granted_roll(self, entry: dict, receipt: dict, stamp: dict, system: Any, hidden: bool) -> list[str]:
        grant = self.grants.get(stamp.get("grant"))
        if grant is None:
            return [f"a roll under an unknown grant (entry {stamp.get('grant')})"]
        problems = _taken_once(grant, "used_by", entry["seq"], f"grant {grant.seq} used")
        if entry.get("character") != grant.ask.character:
            problems.append(f"a roll under grant {grant.seq} for another character")
        if receipt.get("action") != grant.action:
            problems.append(f"the roll's action is not what grant {grant.seq} granted")
        if bool(grant.hidden) != hidden:
            problems.append(f"the roll's visibility is not what grant {grant.seq} granted")
        try:
            composed, composed_hidden = authority.compose(system, grant.ask.player, grant.baseline or {},
                                                          grant.granted or {})
        except (RuleError, KeyError, TypeError, AttributeError):
            return problems + [f"grant {grant.seq} cannot be recomposed from its ask"]
        if composed != grant.action or composed_hidden != bool(grant.hidden):
            problems.append(f"grant {grant.seq} does not compose to the action it names")
        return problems
