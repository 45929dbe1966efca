"""The table's authority in the log (SPEC A-1, A-2): what ``rollbook log verify`` checks besides
the hash chain and the receipts' arithmetic.

Pure (standard library, ``rollbook.play.authority`` and the systems' play modules): ``AuthorityLedger.check(entry)`` is
called on every readable entry, in log order, and returns the problems it finds:

- an ask is a player's, for the character it names, and asks something;
- each ask is decided at most once (grant, refusal or withdrawal), by the Storyteller (a
  withdrawal by the player who asked, or by the Storyteller when the asker was removed — after that
  removal's entry — or the character changed hands), and the decision repeats what
  was asked; a grant "as asked" granted exactly that;
- a roll that names a grant (``receipt["authority"]["grant"]``) follows that grant, uses it once,
  is for the ask's character, rolls exactly the action the grant composed (the player's part, the
  baseline, the edges granted: recomputed here) and is hidden exactly when the grant says so;
- a player's roll without a grant carries no edge beyond its recorded baseline, and the standing
  grants it names were in force and set those values.

Rolls logged before the authority rules (no ``authority`` stamp) are not checked for A-2. Every roll
is checked without a head, so that a forger who recomputed the hash chain
still has to keep these consistent:

- the rules request is the one its action builds (its system's ``REQUEST_FROM_ACTION``: each field the action
  hands to the request unchanged, the V20 specialty, the Willpower the sheet held), so a request
  changed with its result recomputed while the action still says otherwise is caught; the action
  itself is the grant's (A-2 above) or the baseline's;
- the effects are recomputed from the receipt and the sheet's before-values: the entry's effects are
  the receipt's, each effect the receipt implies is there with its arithmetic (V20 Willpower spent,
  Tiers ammunition and Essence, V5 Hunger read), and each resource's before-value is the after-value
  of the character's previous effect on it (an effect edited or removed breaks that chain);
- a ``sheet_edit`` records every field it changes, before and after: a resource it sets goes on from
  its after-value (its before-value checked against the chain), one it touches otherwise restarts,
  and every other resource of the character is carried through it (a ``removal`` ends them all).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.entries import (
    AskReceipt,
    GrantReceipt,
    Logged,
    MemberRemovedReceipt,
    Receipt,
    RefusalReceipt,
    RollReceipt,
    SceneCloseReceipt,
    SheetEditReceipt,
    StandingEndReceipt,
    StandingGrantReceipt,
    ValidationError,
    WithdrawalReceipt,
)
from rollbook.play import authority
from rollbook.play.common import Mismatch, modifier_dice
from rollbook.play.systems import SystemModule, system_module
from rollbook.rules.base import RuleError

DECISIONS = {"grant": ("as_asked", "changed"), "refusal": ("refused",), "withdrawal": ("withdrawn",)}
Decision = GrantReceipt | RefusalReceipt | WithdrawalReceipt


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
    # keyed by what the entries name (a seq, an id): looked up with whatever a later receipt names
    asks: dict[object, _Ask] = field(default_factory=dict)  # by the ask's seq
    grants: dict[object, _Grant] = field(default_factory=dict)  # by the grant's seq
    standing: dict[object, dict] = field(default_factory=dict)  # by the standing grant's id
    removed: set = field(default_factory=set)  # members removed so far (``member_removed``)

    sheets: dict[tuple, Any] = field(
        default_factory=dict
    )  # (character, resource, weapon or card) -> last after-value
    last_seq: int | None = None

    def check(self, line: dict) -> list[str]:
        try:
            entry = Logged.of(line)
        except ValidationError:  # no entry of the log: the chain's checks say so
            return []
        if self.last_seq is not None and entry.seq != self.last_seq + 1:
            self.sheets.clear()  # an entry not shown (a player's export) may have moved any resource
        self.last_seq = entry.seq
        try:
            receipt = entry.read()
        except (KeyError, ValidationError):  # not a receipt of its kind: chain.kind_problems says so
            return []
        if receipt is None:
            return []
        problems = self._sheet(entry, receipt)
        return problems + self._authority(entry, receipt)

    def _authority(self, entry: Logged, receipt: Receipt) -> list[str]:
        if isinstance(receipt, AskReceipt):
            return self._ask(entry, receipt)
        if isinstance(receipt, MemberRemovedReceipt):
            self.removed.add(receipt.member)
            return []
        if isinstance(receipt, Decision):
            return self._decision(entry, receipt, entry.kind)
        if isinstance(receipt, StandingGrantReceipt):
            self.standing[receipt.standing] = {
                "edges": receipt.edges or {},
                "ended": None,
                "character": receipt.character,
            }
            return []
        if isinstance(receipt, StandingEndReceipt):
            return self._end(entry, [receipt.standing])
        if isinstance(receipt, SceneCloseReceipt):
            return self._end(entry, receipt.standing_ended or [])
        if entry.kind == "roll" and isinstance(receipt, RollReceipt) and isinstance(receipt.authority, dict):
            return self._roll(entry, receipt, receipt.authority)
        return []

    # --- a roll's request and effects, from its action and the sheet ---

    def _sheet(self, entry: Logged, receipt: Receipt) -> list[str]:
        character = entry.character
        if entry.kind == "removal":  # the character left the table: its chains end
            for key in [key for key in self.sheets if key[0] == character]:
                del self.sheets[key]
            return []
        if isinstance(receipt, SheetEditReceipt):
            return self._edited(character, receipt.changes)
        problems: list[str] = []
        if isinstance(receipt, RollReceipt):  # a roll or a reroll
            problems += request_problems(receipt, entry.stored)
            problems += effect_problems(entry, receipt)
        if entry.kind == "roll" and isinstance(receipt, RollReceipt):
            problems += self._read_from_sheet(character, receipt)
        for effect in entry.effects or []:
            if not isinstance(effect, dict) or "resource" not in effect:
                continue
            # the item it names: a weapon's ammunition (Tiers), a card (roll-under R-6), each its own chain
            key = (character, effect.get("resource"), effect.get("weapon", effect.get("card")))
            if key in self.sheets and self.sheets[key] != effect.get("before"):
                problems.append(
                    f"{effect.get('resource')} was {self.sheets[key]!r} after the character's last "
                    f"change, but this entry says it was {effect.get('before')!r} before"
                )
            self.sheets[key] = effect.get("after")
        return problems

    def _edited(self, character: Any, changes: Any) -> list[str]:
        """A sheet edit records every field it changes, before and after (``changes``): each
        resource it set follows on from its after-value (its before-value checked against the chain),
        each it touched otherwise restarts, every other resource is carried through."""
        fields = [c for c in changes if isinstance(c, dict)] if isinstance(changes, list) else None
        problems: list[str] = []
        for key in [key for key in self.sheets if key[0] == character]:
            _, resource, item = key
            if fields is None:
                del self.sheets[key]
                continue
            path, home = resource_path(resource, item)
            touched = [c for c in fields if str(c.get("field")).split(".")[0] == home]
            if not touched:
                continue  # not changed by this edit: the chain goes on
            exact = [c for c in touched if c.get("field") == path]
            if path is None or len(exact) != 1 or not _count(exact[0].get("after")):
                del self.sheets[key]  # changed in a way the chain cannot follow: it restarts
                continue
            before = exact[0].get("before")
            if _count(before) and before != self.sheets[key]:
                problems.append(
                    f"{resource} was {self.sheets[key]!r} after the character's last change, but this "
                    f"sheet edit says it was {before!r} before"
                )
            self.sheets[key] = exact[0]["after"]
        return problems

    # --- entries ------------------------------------------------------------------------------

    def _ask(self, entry: Logged, receipt: AskReceipt) -> list[str]:
        actor = entry.actor or {}
        problems = []
        if actor.get("role") != "player":
            problems.append("an ask made by someone other than a player")
        if receipt.character != entry.character or actor.get("character") != entry.character:
            problems.append("an ask for another character than its entry names")
        if not receipt.asked:
            problems.append("an ask that asks nothing")
        problems += _asked_pool(receipt)
        self.asks[entry.seq] = _Ask(
            entry.seq,
            receipt.character,
            actor.get("member"),
            receipt.kind,
            receipt.player,
            receipt.asked,
        )
        return problems

    def _decision(self, entry: Logged, receipt: Decision, kind: str) -> list[str]:
        ask = self.asks.get(receipt.ask_seq)
        if ask is None:
            return [f"a {kind} of an unknown ask (entry {receipt.ask_seq})"]
        problems = _taken_once(ask, "decided_by", entry.seq, f"ask {ask.seq} decided")
        actor = entry.actor or {}
        if isinstance(receipt, WithdrawalReceipt):
            cause = receipt.cause
            for_them = actor.get("role") == "storyteller" and (
                cause == "owner_changed" or (cause == "member_removed" and ask.member in self.removed)
            )
            if actor.get("member") != ask.member and not for_them:
                problems.append(f"ask {ask.seq} withdrawn by someone other than who asked")
        elif actor.get("role") != "storyteller":
            problems.append(f"ask {ask.seq} decided by someone other than the Storyteller")
        if receipt.decision not in DECISIONS[kind]:
            problems.append(f"a {kind} whose decision is {receipt.decision!r}")
        if receipt.asked != ask.asked or receipt.character != ask.character:
            problems.append(f"the decision on ask {ask.seq} does not repeat what was asked")
        if isinstance(receipt, GrantReceipt):
            if receipt.decision == "as_asked" and receipt.granted != ask.asked:
                problems.append(f"ask {ask.seq} granted 'as asked' with other edges")
            self.grants[entry.seq] = _Grant(
                entry.seq,
                ask,
                receipt.granted,
                receipt.action,
                receipt.hidden,
                receipt.baseline,
            )
        return problems

    def _end(self, entry: Logged, ids: list) -> list[str]:
        problems = []
        for standing_id in ids:
            found = self.standing.get(standing_id)
            if found is None:
                problems.append(f"ends standing grant {standing_id}, never set")
            elif found["ended"] is not None:
                problems.append(f"ends standing grant {standing_id} again (ended by entry {found['ended']})")
            else:
                found["ended"] = entry.seq
        return problems

    def _roll(self, entry: Logged, receipt: RollReceipt, stamp: dict) -> list[str]:
        system = receipt.system
        hidden = entry.visibility == "hidden"
        if "grant" in stamp:
            return self._granted_roll(entry, receipt, stamp, system, hidden)
        if (entry.actor or {}).get("role") != "player":
            return []
        problems = []
        base = stamp.get("baseline")
        if not isinstance(base, dict):
            return ["a player's roll without its baseline"]
        try:
            extra = authority.asked_edges(system, receipt.action or {}, base, hidden=hidden)
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

    def _granted_roll(
        self, entry: Logged, receipt: RollReceipt, stamp: dict, system: str, hidden: bool
    ) -> list[str]:
        grant = self.grants.get(stamp.get("grant"))
        if grant is None:
            return [f"a roll under an unknown grant (entry {stamp.get('grant')})"]
        problems = _taken_once(grant, "used_by", entry.seq, f"grant {grant.seq} used")
        if entry.character != grant.ask.character:
            problems.append(f"a roll under grant {grant.seq} for another character")
        if receipt.action != grant.action:
            problems.append(f"the roll's action is not what grant {grant.seq} granted")
        if bool(grant.hidden) != hidden:
            problems.append(f"the roll's visibility is not what grant {grant.seq} granted")
        try:
            composed, composed_hidden = authority.compose(
                system, grant.ask.player, grant.baseline or {}, grant.granted or {}
            )
        except (RuleError, KeyError, TypeError, AttributeError):
            return problems + [f"grant {grant.seq} cannot be recomposed from its ask"]
        if composed != grant.action or composed_hidden != bool(grant.hidden):
            problems.append(f"grant {grant.seq} does not compose to the action it names")
        return problems

    def _read_from_sheet(self, character: Any, receipt: RollReceipt) -> list[str]:
        """The sheet's values a request read (its system's ``sheet_reads``: V20 current Willpower, V5
        Hunger) are what the character's previous effect on them left (the request rebuilt from the
        sheet's stored values)."""
        request: dict = receipt.request or {}
        module = _module(receipt.system)
        problems = []
        for resource, value in module.sheet_reads(request) if module is not None else ():
            key = (character, resource, None)
            if key in self.sheets and self.sheets[key] != value:
                problems.append(
                    f"the request read a {_READ_WORDS.get(resource, resource)} of {value!r} but the "
                    f"character's last change left {self.sheets[key]!r}"
                )
        return problems


def _module(system: Any) -> SystemModule | None:
    """The play module of a receipt's system, None for a system no registry knows (nothing to check)."""
    try:
        return system_module(system)
    except RuleError:
        return None


_READ_WORDS = {"willpower": "current Willpower", "hunger": "Hunger"}  # a resource a request read

# What a system's checks find (``SystemModule.request_problems``, ``effect_problems``), in words.
_MISMATCH_WORDS = {
    "specialty": "the request's specialty is not the action's",
    "pool_total": "the request's pool is {request} but the pool built from the sheet is {built}",
    "modifier_dice": "the pool adds {added} dice but its action's modifier is {modifier}",
    "willpower_spent": "the Willpower spent is not the receipt's (one point of what the sheet held)",
    "willpower_unspent": "Willpower spent by a roll that spent none",
    "hunger": "the Hunger changed is not the receipt's (from the Hunger the roll read)",
    "ammunition_spent": "the ammunition spent is not the receipt's bullets",
    "ammunition_unfired": "ammunition spent by a roll that fired none",
    "essence_spent": "the Essence spent is not the spell's",
}


def _words(mismatches: list[Mismatch]) -> list[str]:
    return [_MISMATCH_WORDS.get(code, code).format(**numbers) for code, numbers in mismatches]


# The sheet field each resource named by an effect is (the systems' sheets: V20 ``willpower.current``
# and ``blood.current``, Tiers ``essence.current`` and ``wounds.level``; any other resource is its own
# dotted path), and the top-level field it lives under (a weapon's ammunition under ``weapons``).
_RESOURCE_FIELDS = {
    "willpower": "willpower.current",
    "blood": "blood.current",
    "essence": "essence.current",
    "wounds": "wounds.level",
    "experience": None,  # computed from the sheet's experience fields: any change to them restarts it
}


def home_of(name: str) -> str:
    return name.split(".")[0]


def resource_path(resource: Any, item: Any) -> tuple[str | None, str]:
    """(the field a sheet edit names for this resource of ``item`` (a weapon, a card, or None), or
    None when none names it alone; the top-level field of the sheet it lives under)."""
    name = str(resource)
    if name.startswith("ammunition."):
        return None, "weapons"
    if item is not None:  # an item of a list (a card): a sheet edit of the list restarts it
        return None, home_of(name)
    return _RESOURCE_FIELDS.get(name, name), home_of(name)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _asked_pool(receipt: AskReceipt) -> list[str]:
    """The pool an ask shows adds the dice asked (or the baseline's): an ask rewritten with its grant
    and roll, its pool left as asked, is caught (A-1)."""
    pool, asked, base = receipt.pool, receipt.asked, receipt.baseline
    if (
        not isinstance(pool, dict)
        or not isinstance(pool.get("modifiers"), list)
        or not pool.get("parts")
        or not isinstance(asked, dict)
    ):
        return []
    modifier = asked.get("modifier", base.get("modifier") if isinstance(base, dict) else None)
    if not isinstance(modifier, int):
        return []
    added = modifier_dice(pool)
    return (
        []
        if added == modifier
        else [f"the ask's pool adds {added} dice but it asks a modifier of {modifier}"]
    )


# --- the request a roll's action builds, and the effects its receipt implies ------------------------


def request_problems(receipt: RollReceipt, stored: dict) -> list[str]:
    """The request the receipt's action builds, field by field, against the stored one (the fields
    its system's ``REQUEST_FROM_ACTION`` names), then its system's own checks (``request_problems``,
    on the receipt as stored: the V20 specialty; the pool a V20 or V5 action built, its total and its
    modifier's dice)."""
    action, request = receipt.action, receipt.request
    module = _module(receipt.system)
    if action is None or request is None or module is None:
        return []
    problems = [
        f"the request's {name} is {request[name]!r} but its action says {action[name]!r}"
        for name in module.REQUEST_FROM_ACTION
        if name in action and name in request and action[name] is not None and request[name] != action[name]
    ]
    return problems + _words(module.request_problems(stored))


def effect_problems(entry: Logged, receipt: RollReceipt) -> list[str]:
    """The effects recomputed from the receipt and the sheet's before-values (its system's
    ``effect_problems``, on the receipt as stored: V20 Willpower spent, V5 Hunger, Tiers ammunition
    and Essence)."""
    effects = [e for e in entry.effects or [] if isinstance(e, dict)]
    problems = []
    if "effects" in receipt.model_fields_set and receipt.effects != entry.effects:
        problems.append("the entry's effects are not its receipt's")
    by_resource: dict[Any, list[dict]] = {}
    for effect in effects:
        by_resource.setdefault(effect.get("resource"), []).append(effect)
    module = _module(receipt.system)
    if module is not None:
        problems += _words(module.effect_problems(entry.kind, entry.stored, by_resource))
    return problems
