"""Rolls and their follow-ups: a roll named by traits (the server builds the pool from the stored
sheet and rolls the dice; what is the Storyteller's is asked for, SPEC A-1, ``usecases.authority``),
the V5 Willpower reroll, and the Storyteller's standing difficulty (the baseline of a player's roll)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from rollbook import play
from rollbook.dice import DiceSource
from rollbook.entries import QuickRollReceipt, QuickSettingReceipt, RollReceipt
from rollbook.odds import odds_for
from rollbook.play import catalogue, quick, systems
from rollbook.play.common import request_from_plain
from rollbook.server.access import (
    STORYTELLER,
    find_entry,
    lock_character,
    lock_chronicle,
    may_act_for,
)
from rollbook.server.models import Caller, Character, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, save_sheet, sheet_changed
from rollbook.server.usecases import authority, compulsions, exchange, fairness, scenes, solo_guard
from rollbook.server.usecases.checks import Resolve, performed_parts, reject_faces, resolved
from rollbook.server.views import character_view, entry_view, rerolled_by

ROLL_KINDS = ("roll", "reroll")


def standing_difficulty(chronicle_difficulty: int | None, character_difficulty: int | None) -> int | None:
    """The character's standing difficulty, else the chronicle's."""
    return character_difficulty if character_difficulty is not None else chronicle_difficulty


def roll(
    session: Session,
    member: Caller,
    character_id: int,
    action: dict | Resolve,
    *,
    hidden: bool = False,
    ask: bool = False,
    source: DiceSource | None = None,
    follows: int | None = None,
    target: int | None = None,
) -> dict:
    """A roll named by traits: the server builds it from the stored sheet, rolls ``source``
    (default ``SecureDice()``), stores the new sheet and appends the receipt, all in the caller's
    one transaction. A-1: what the rules leave to the Storyteller (difficulty, extra dice, …,
    a hidden roll) comes from the baseline (defaults, standing difficulty, standing grants); a
    player's request that sets any of it otherwise is an ask when ``ask`` is true (the answer then
    has ``"ask"`` and no roll: the roll is made when the Storyteller grants it), else refused
    (403 ``grant_required``).

    The combat chain (``usecases.exchange``): ``follows`` is the seq of the entry this step follows
    (its receipt is handed to the play layer, the new entry ``refers_to`` it); ``target`` the
    character an attack is aimed at. ``action`` may be a ``Resolve``: a face's form, resolved against
    the chronicle and the character locked here (``checks.resolved``)."""
    chronicle, character = lock_character(session, member, character_id)
    action = resolved(action, chronicle, character)  # a page's form, resolved against the rows locked
    may_act_for(member, character)
    solo_guard.check_player_move(session, chronicle, member)  # S-7, S-8
    plan = authority.plan_roll(session, chronicle, character, member, action, hidden=hidden)  # reads it only
    step = _step(session, member, character, chronicle.system, plan.action, follows, target)
    if plan.asked:
        if not ask:
            authority.refuse_unasked(plan)
        return authority.make_ask(
            session,
            chronicle,
            character,
            member,
            plan,
            follows=step.seq if step else None,
            followed=step.receipt if step else None,
            target=target,
        )
    return perform_roll(
        session,
        chronicle,
        character,
        member,
        plan.action,
        hidden=plan.hidden,
        role=member.role,
        stamp=plan.stamp,
        source=source,
        follows=follows,
        target=target,
    )


def _step(
    session: Session,
    member: Caller,
    character: Character,
    system: str,
    action: dict,
    follows: int | None,
    target: int | None,
) -> exchange.Followed | None:
    kind = str(action.get("kind"))
    if follows is None:
        exchange.check_target(session, member, character, kind, system, target)
        return None
    return exchange.followed(session, member, character, kind, follows, target)


def perform_roll(
    session: Session,
    chronicle: Chronicle,
    character: Character,
    actor: Caller,
    action: dict,
    *,
    hidden: bool,
    role: str,
    stamp: dict,
    source: DiceSource | None = None,
    viewer: Caller | None = None,
    follows: int | None = None,
    target: int | None = None,
    part_of: tuple[int | None, str, object] | None = None,  # (None: refers to no entry)
) -> dict:
    """Roll ``action`` (already decided: planned or granted) for ``character`` under ``role``'s
    authority, check the per-turn limits (A-3), store the sheet and log the receipt. ``stamp``
    (A-2: the grant, or the baseline and standing grants a player's roll used) goes into the
    receipt as ``authority``; the running turn as ``turn``. ``actor``: who the log names (the
    player who asked, for a granted roll); ``viewer``: who reads the answer (default the actor).
    ``follows``, ``target``: the combat chain (``roll``); a step that follows a hidden roll is hidden.
    ``part_of``: (seq, key, note) of the declaration a contest's side or an extended action's roll
    belongs to (TR-3, TR-4, ``usecases.contests``): the entry refers to it, the receipt holds the note
    (or what the note, a function, makes of the receipt)."""
    step = _step(session, actor, character, chronicle.system, action, follows, target)
    hidden = hidden or (step is not None and step.hidden)
    # F-3: the actor's client seed, the next nonce; F-7: a hidden roll's from the hidden stream
    dice, fair = fairness.dice_for(session, chronicle, actor, source, hidden=hidden)
    performed = play.perform(
        chronicle.system,
        character.sheet,
        action,
        mode=chronicle.mode,
        role=role,
        source=dice,
        follows=step.receipt if step else None,
        table_rules=chronicle.table_rules or (),  # TR-1: the set in force, in the receipt
        # seed 001: the compulsion in force costs the test its dice
        compulsion=compulsions.for_roll(session, chronicle.id, chronicle.system, character.id),
    )
    sheet, receipt, effects = performed_parts(performed)
    receipt = dict(receipt or {})
    if fair is not None:
        receipt["fair"] = fair.record()  # F-6
    turn = scenes.check_turn(session, chronicle, character, receipt, effects)
    if step is not None:
        receipt["exchange"] = step.exchange
    elif target is not None:
        receipt["exchange"] = {"attacker": character.id, "target": target, "opened": None}
    if stamp:
        receipt["authority"] = stamp
    if turn is not None:
        receipt["turn"] = turn
    refers_to = step.seq if step else None
    if part_of is not None:
        refers_to, key, note = part_of
        receipt[key] = note(receipt) if callable(note) else note
    if sheet_changed(character, sheet):
        save_sheet(session, character, sheet)
    entry = append_entry(
        session,
        chronicle,
        kind="roll",
        actor=actor_of(actor, character),
        visibility="hidden" if hidden else "public",
        receipt=RollReceipt.model_validate(receipt),
        character_id=character.id,
        effects=effects,
        refers_to=refers_to,
    )
    viewer = viewer or actor
    return {
        "entry": entry_view(entry, viewer),
        "character": character_view(character),
        "effects": effects,
        "warnings": (turn or {}).get("warnings", []),
    }


def reroll(
    session: Session, member: Caller, seq: int, action: dict, *, source: DiceSource | None = None
) -> dict:
    """A follow-up on a stored receipt (V5 Willpower reroll, V5-8): the latest receipt of a roll only;
    the game logic refuses what its rules refuse (a card played after the roll, R-6). The new dice
    come from ``source`` (default ``SecureDice()``)."""
    reject_faces(action)
    chronicle = lock_chronicle(session, member.chronicle_id)
    original = find_entry(session, member, seq)
    if original.visibility == "hidden" and member.role != STORYTELLER:
        raise ProblemError(404, "entry_not_found", seq=seq)
    if original.kind not in ROLL_KINDS or original.character_id is None:
        raise ProblemError(409, "not_a_roll", seq=seq)
    later = rerolled_by(session, chronicle.id, [seq]).get(seq)
    if later is not None:
        raise ProblemError(409, "roll_finished", seq=seq, by=later)
    _, character = lock_character(session, member, original.character_id)
    may_act_for(member, character)
    # F-3: a follow-up takes its own nonce; F-7: a hidden roll's from the hidden stream
    dice, fair = fairness.dice_for(session, chronicle, member, source, hidden=original.visibility == "hidden")
    performed = play.perform_followup(
        chronicle.system,
        copy.deepcopy(character.sheet),
        copy.deepcopy(original.receipt),
        copy.deepcopy(action),
        mode=chronicle.mode,
        role=member.role,
        source=dice,
    )
    sheet, receipt, effects = performed_parts(performed)
    receipt = dict(receipt or {})
    rerolls = RollReceipt.of(receipt).rerolls if fair is not None else None
    if fair is not None and rerolls:
        receipt["rerolls"] = [*rerolls[:-1], {**rerolls[-1], "fair": fair.record()}]  # F-6
    turn = scenes.check_turn(session, chronicle, character, receipt, effects)
    if turn is not None:
        receipt["turn"] = turn
    if sheet_changed(character, sheet):
        save_sheet(session, character, sheet)
    entry = append_entry(
        session,
        chronicle,
        kind="reroll",
        actor=actor_of(member, character),
        visibility=original.visibility,
        receipt=RollReceipt.model_validate(receipt),
        character_id=character.id,
        refers_to=seq,
        effects=effects,
    )
    return {
        "entry": entry_view(entry, member),
        "character": character_view(character),
        "effects": effects,
        "warnings": (turn or {}).get("warnings", []),
    }


# --- quick rolls: dice without a sheet -------------------------------------------------

QUICK_KIND = "quick_roll"
QUICK_SETTING = "quick_setting"
QUICK_FIELDS = quick.QUICK_FIELDS  # what a quick roll takes in each game (rollbook.play.quick)


def quick_rolls_allowed(session: Session, chronicle_id: int) -> bool:
    """Whether players may make quick rolls (the Storyteller's latest say in the log; allowed until
    they forbid it). The Storyteller always may."""
    from sqlalchemy import select

    from rollbook.server.models import LogEntry

    latest = session.scalars(
        select(LogEntry)
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind == QUICK_SETTING)
        .order_by(LogEntry.seq.desc())
        .limit(1)
    ).first()
    return True if latest is None else QuickSettingReceipt.of(latest.receipt).allowed


def set_quick_rolls(session: Session, storyteller: Caller, allowed: bool) -> dict:
    """The Storyteller allows or forbids the players' quick rolls (logged)."""
    from rollbook.server.access import require_storyteller

    require_storyteller(storyteller, "quick_rolls")
    chronicle = lock_chronicle(session, storyteller.chronicle_id)
    entry = append_entry(
        session,
        chronicle,
        kind=QUICK_SETTING,
        actor=actor_of(storyteller),
        visibility="public",
        receipt=QuickSettingReceipt(allowed=bool(allowed)),
    )
    return {"entry": entry_view(entry, storyteller), "allowed": bool(allowed)}


def quick_roll_request(
    session: Session, chronicle: Chronicle, member: Caller, values: dict
) -> tuple[dict, Any]:
    """The values and the rules request a quick roll of ``values`` makes (its odds are this request's):
    A-1's baseline (the standing difficulty and the group's standing grants) for a player's, the table
    rules in force (TR-1)."""
    system = chronicle.system
    reject_faces(values)
    allowed = QUICK_FIELDS.get(system, ())
    extra = sorted(set(values) - set(allowed))
    if extra:
        raise ProblemError(422, "field_not_for_system", field=extra[0], system=system)
    if member.role != STORYTELLER:  # the edges are the Storyteller's, with or without a sheet
        base = authority.quick_baseline(session, chronicle, quick.QUICK_KINDS[system])
        decision = catalogue.decide(system, values, base, role=member.role, way="quick", mode=chronicle.mode)
        values = decision.action
        if decision.asked:
            raise ProblemError(403, "grant_required", edges=sorted(decision.asked))
    request = quick.quick_request(system, chronicle.mode, dict(values))
    if chronicle.table_rules and hasattr(
        request, "table_rules"
    ):  # TR-1: a quick roll is resolved under them too
        from dataclasses import replace

        request = replace(request, table_rules=tuple(chronicle.table_rules))
    return values, request


def quick_roll(
    session: Session,
    member: Caller,
    values: dict | Resolve,
    *,
    hidden: bool = False,
    source: DiceSource | None = None,
) -> dict:
    """Dice rolled without a sheet ("6 dice, Hunger 2"): the game's own rules request made from
    ``values`` (``QUICK_FIELDS``), rolled by the server (the chronicle's fair dice when set, F-3) and
    logged as a ``quick_roll`` entry whose receipt says it used no sheet (``"sheet": null``; the rules
    receipt with its faces under ``result``). Nothing is spent. A player's quick roll needs the
    Storyteller's leave (``set_quick_rolls``); a hidden one is the Storyteller's. ``values`` may be a
    ``Resolve`` (a page's form: its fields are the chronicle's game's), resolved against the chronicle
    locked here."""
    from rollbook.dice import roll as roll_dice
    from rollbook.rules import get_system
    from rollbook.rules.base import to_plain

    chronicle = lock_chronicle(session, member.chronicle_id)
    values = resolved(values, chronicle)
    if member.role != STORYTELLER:
        if not quick_rolls_allowed(session, chronicle.id):
            raise ProblemError(403, "storyteller_only", action="quick_roll", role=member.role)
        if hidden:
            raise ProblemError(403, "storyteller_only", action="hidden", role=member.role)
    system = chronicle.system
    allowed = QUICK_FIELDS.get(system, ())
    values, request = quick_roll_request(session, chronicle, member, values)
    dice, fair = fairness.dice_for(session, chronicle, member, source, hidden=hidden)
    faces, result = roll_dice(get_system(system), request, dice)
    receipt: dict = {
        "quick": {"system": system, **{k: values[k] for k in allowed if k in values}},
        "sheet": None,
        "request": to_plain(request),
        "faces": list(faces),
        "result": to_plain(result),
    }
    if fair is not None:
        receipt["fair"] = fair.record()
    entry = append_entry(
        session,
        chronicle,
        kind=QUICK_KIND,
        actor=actor_of(member),
        visibility="hidden" if hidden else "public",
        receipt=QuickRollReceipt.model_validate(receipt),
    )
    return {"entry": entry_view(entry, member), "effects": [], "warnings": []}


# --- odds: the request the roll would make ------------------------------------------------------


@dataclass(frozen=True)
class OddsRequest:
    """What the roll of ``action`` would be, built as ``roll`` builds it (A-1: planned against the
    baseline, the standing difficulty and grants; TR-1: the table rules in force; seed 001: the
    compulsion in force): every face's odds of a roll are this request's (``preview_of``), so the
    odds shown are the odds of the roll made. An action that asks is previewed as asked, under the
    Storyteller's authority (the roll is made so when granted); ``at_baseline``: what applies without
    the ask, under the member's."""

    system: str
    sheet: dict
    mode: str
    role: str
    action: dict
    at_baseline: dict
    asked: dict
    table_rules: tuple[str, ...]
    compulsion: dict | None

    def preview(self, *, baseline: bool = False) -> dict:
        """``play.preview``'s keywords (``present.preview.preview`` takes the same, and ``lang``)."""
        return {
            "system": self.system,
            "sheet": copy.deepcopy(self.sheet),
            "action": self.at_baseline if baseline else self.action,
            "mode": self.mode,
            "role": STORYTELLER if self.asked and not baseline else self.role,
            "table_rules": self.table_rules,
            "compulsion": self.compulsion,
        }


def odds_request(
    session: Session,
    member: Caller,
    character_id: int,
    action: dict,
    *,
    hidden: bool = False,
    reads: authority.RollReads | None = None,
) -> OddsRequest:
    """The roll ``roll`` would make of ``action`` for the character (reads only; ``reads``:
    ``authority.roll_reads``', when the caller read them in this transaction)."""
    reads = reads or authority.roll_reads(session, member, character_id)
    plan = authority.roll_plan(session, member, character_id, action, hidden=hidden, reads=reads)
    chronicle, character = reads.chronicle, reads.character
    return OddsRequest(
        system=chronicle.system,
        sheet=character.sheet or {},
        mode=chronicle.mode,
        role=member.role,
        action=plan["action"],
        at_baseline=plan["at_baseline"],
        asked=plan["asked"],
        table_rules=tuple(chronicle.table_rules or ()),
        compulsion=compulsions.for_roll(session, chronicle.id, chronicle.system, character.id),
    )


def roll_odds(
    session: Session, member: Caller, character_id: int, action: dict, *, hidden: bool = False
) -> dict:
    """The exact odds of the roll ``action`` would make (the odds contract: ``outcomes`` as ``p/q``),
    with the edges it asks, the action as it would be rolled, its rules request and pool. ``odds`` is
    None for a roll the engine gives no odds of (the catalogue's ``odds``: a V20 soak)."""
    made = odds_request(session, member, character_id, action, hidden=hidden)
    built = play.preview(**made.preview())
    kind = str(built.get("kind") or made.action.get("kind"))
    odds = None
    if catalogue.find(made.system, str(made.action.get("kind")), "roll").odds == "preview":
        request = request_from_plain(systems.request_type(made.system, kind), built["request"])
        odds = odds_for(made.system, request)
    return {
        "asked": made.asked,
        "action": made.action,
        "kind": kind,
        "request": built["request"],
        "pool": built.get("pool"),
        "odds": odds,
    }
