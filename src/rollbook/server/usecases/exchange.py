"""The combat chain on the server (SPEC V20-17, T-4, T-5): one exchange is several log entries, each
roll following the one before it (``refers_to``), the receipt followed handed to the play layer
(``play.perform(..., follows=receipt)``): nothing of it is typed in.

- ``target``: the attack (the first step) may name the character it is aimed at; every later step of
  the exchange carries it (``receipt["exchange"]``: ``attacker``, ``target``, ``opened``: the seq of
  the first step).
- Whose step it is: the attacker's side (V20 damage) is rolled for the character that rolled the step
  it follows, or for the exchange's attacker when it follows a dodge (V20-20); the defender's side (dodge, soak) for the exchange's target (or, when the attack named
  none, for any other character), and a soak after a dodge for the one who dodged. Who may act for
  that character is ``access.may_act_for``'s rule (the owner, or the Storyteller — an NPC's
  defence is the Storyteller's).
- One step follows each entry once; a step may not follow a hidden roll the member may not see (it
  is not found: 404), and a step that follows a hidden roll is hidden too until it is revealed.
- A step may not follow a roll of a scene that is closed (409 ``exchange_scene_closed``, A-3); a
  step's ``target`` is checked as an attack's (a character of this chronicle, not the attacker).
- The play layer refuses a step out of order (``follows_wrong_kind``, ``attack_missed``, …).

``next_steps`` lists what may follow an entry (the web's buttons): the kind, the character, and the
numbers the step takes from the receipt (levels and damage type, attack tier).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.entries import Logged, RollReceipt
from rollbook.server.access import STORYTELLER, find_entry
from rollbook.server.models import Caller, Character, LoggedEntry, Scene
from rollbook.server.problems import ProblemError
from rollbook.server.views import follow_ups, rerolled_by, revealed_by

# The defender's side of an exchange; every other chained kind (V20 damage) is the attacker's.
DEFENCE_KINDS = frozenset({"dodge", "soak"})
ROLL_KINDS = ("roll", "reroll")


def chained_kinds(system: str) -> frozenset[str]:
    """Every kind of roll that some step of the chain follows (an attack, a damage roll, a dodge)."""
    return frozenset(kind for kinds in play.system_module(system).CHAINS.values() for kind in kinds)


def step_kinds(system: str, followed_kind: str) -> list[str]:
    """The kinds of roll that may follow a roll of ``followed_kind`` (``CHAINS`` read backwards)."""
    return [kind for kind, kinds in play.system_module(system).CHAINS.items() if followed_kind in kinds]


@dataclass(frozen=True)
class Followed:
    """The entry a step follows, checked: its receipt (for the play layer), its visibility, the exchange."""

    seq: int
    receipt: dict
    hidden: bool
    exchange: dict


def _exchange_of(entry: LoggedEntry) -> dict:
    stored = RollReceipt.of(entry.receipt).exchange
    exchange = dict(stored) if isinstance(stored, dict) else {"attacker": entry.character_id, "target": None}
    if exchange.get("opened") is None:
        exchange["opened"] = entry.seq
    exchange["follows"] = entry.seq  # in the receipt, so the entry's hash covers the link (refers_to)
    return exchange


def check_target(
    session: Session, member: Caller, character: Character, kind: str, system: str, target: int | None
) -> None:
    """An attack's target: a character of this chronicle, not the attacker; only on a roll a step may follow."""
    if target is None:
        return
    if kind not in chained_kinds(system) or kind in DEFENCE_KINDS:
        raise ProblemError(422, "target_not_for_kind", kind=kind)
    _check_aimed_at(session, member, character, target)


def _check_aimed_at(session: Session, member: Caller, attacker: Character, target: int) -> None:
    """A target is a character of the attacker's chronicle, still at the table, other than the attacker."""
    found = session.get(Character, target)
    if found is None or found.chronicle_id != member.chronicle_id or found.removed_at is not None:
        raise ProblemError(404, "character_not_found", character=target)
    if found.id == attacker.id:
        raise ProblemError(422, "target_is_attacker", character=attacker.name)


def _scene_closed(session: Session, entry: LoggedEntry) -> int | None:
    """The number of the scene the entry was rolled in, when that scene is closed now (A-3: an
    exchange does not outlive its scene); None when it was rolled outside a scene or the scene runs."""
    scene = session.scalars(
        select(Scene)
        .where(
            Scene.chronicle_id == entry.chronicle_id,
            Scene.opened_seq < entry.seq,
            or_(Scene.closed_seq.is_(None), Scene.closed_seq > entry.seq),
        )
        .order_by(Scene.opened_seq.desc())
        .limit(1)
    ).first()
    return scene.number if scene is not None and scene.closed_seq is not None else None


def followed(
    session: Session, member: Caller, character: Character, kind: str, seq: int, target: int | None = None
) -> Followed:
    """The entry ``seq`` a roll of ``kind`` for ``character`` follows, with every refusal the server
    makes (the play layer makes the rules' own: the order of the steps, a missed attack)."""
    entry = find_entry(session, member, seq)
    hidden = entry.visibility == "hidden" and not revealed_by(session, entry.chronicle_id, [seq])
    if hidden and member.role != STORYTELLER:
        raise ProblemError(404, "entry_not_found", seq=seq)  # a hidden roll is not there for a player
    if entry.kind not in ROLL_KINDS or entry.character_id is None or not isinstance(entry.receipt, dict):
        raise ProblemError(409, "not_a_roll", seq=seq)
    later = rerolled_by(session, entry.chronicle_id, [seq]).get(seq)
    if later is not None:
        raise ProblemError(409, "roll_finished", seq=seq, by=later)
    taken = follow_ups(session, entry.chronicle_id, "roll", [seq]).get(seq)
    if taken is not None:
        raise ProblemError(409, "step_taken", seq=seq, by=taken)
    closed = _scene_closed(session, entry)
    if closed is not None:
        raise ProblemError(409, "exchange_scene_closed", seq=seq, scene=closed)
    exchange = _exchange_of(entry)
    followed_kind = RollReceipt.of(entry.receipt).kind
    defence = kind in DEFENCE_KINDS
    if defence and followed_kind not in DEFENCE_KINDS:
        defender = exchange.get("target")
        if defender is not None and defender != character.id:
            raise ProblemError(403, "not_the_defender", seq=seq, character=character.name)
        if defender is None and character.id == exchange.get("attacker"):
            raise ProblemError(403, "not_the_defender", seq=seq, character=character.name)
        exchange["target"] = character.id
    elif not defence and followed_kind in DEFENCE_KINDS:  # V20-20: the damage after a dodge
        if character.id != exchange.get("attacker"):
            raise ProblemError(403, "not_your_step", seq=seq, character=character.name)
    elif character.id != entry.character_id:
        raise ProblemError(403, "not_your_step", seq=seq, character=character.name)
    if target is not None:
        if defence or exchange.get("target") not in (None, target):
            raise ProblemError(422, "target_not_for_kind", kind=kind)
        attacker = session.get(Character, exchange.get("attacker")) or character
        _check_aimed_at(session, member, attacker, target)  # as an attack's target
        exchange["target"] = target
    return Followed(seq, dict(entry.receipt), hidden, exchange)


def next_steps(system: str, entry: dict) -> list[dict]:
    """What may follow a roll (an entry as ``views.entry_view`` gives it): ``{"kind", "side",
    "character" (None: the defender is not named yet), "takes": {...}, "follows"}`` for each step the
    rules allow now (``play.preview`` refuses nothing of the followed receipt: an attack that missed, a
    dodged attack offer nothing)."""
    logged = Logged.of(entry)
    roll = roll_of(logged)
    return [] if roll is None else steps_after(system, logged, roll)


def roll_of(logged: Logged) -> RollReceipt | None:
    """The roll an entry holds, which a step may follow (None: an entry of another kind, or redacted)."""
    if logged.kind not in ROLL_KINDS or not isinstance(logged.stored, dict) or logged.redacted:
        return None
    return RollReceipt.of(logged.stored)


def steps_after(system: str, logged: Logged, roll: RollReceipt) -> list[dict]:
    """``next_steps`` of an entry already read: ``logged``, and ``roll``, its receipt (``roll_of``)."""
    exchange = roll.exchange or {"attacker": logged.character, "target": None}
    out = []
    for kind in step_kinds(system, str(roll.kind)):
        takes = _takes(system, kind, logged.stored, roll.result)
        if takes is None:
            continue
        defence = kind in DEFENCE_KINDS
        if defence and roll.kind not in DEFENCE_KINDS:
            character = exchange.get("target")
        elif not defence and roll.kind in DEFENCE_KINDS:  # V20-20: the attacker's damage
            character = exchange.get("attacker")
        else:
            character = logged.character
        out.append(
            {
                "kind": kind,
                "side": "defender" if defence else "attacker",
                "character": character,
                "takes": takes,
                "follows": logged.seq,
            }
        )
    return out


def _takes(system: str, kind: str, receipt: dict, result: Any) -> dict | None:
    """The numbers a step takes from the receipt it follows (``result``: its rules result; the system
    module's ``step_takes``: V20-17, V20-20, T-4, T-5); None when the rules refuse the step; nothing for
    a system without a chain."""
    return play.system_module(system).step_takes(kind, receipt, result or {})
