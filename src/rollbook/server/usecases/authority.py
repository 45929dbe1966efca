"""The table's authority (SPEC A-1, A-2): a player's roll that carries an edge becomes an *ask*;
the Storyteller's standing grants; what a roll's baseline is.

- ``plan_roll``: a roll request cut along A-1 (``rollbook.play.authority.split``) against the
  baseline (each edge's default, the standing difficulty, the standing grants of the character and
  of the whole group). The Storyteller's own rolls carry their edges directly; a player's roll that
  asks nothing is rolled at once; a player's roll that asks something is an ask (when the request
  says ``ask``) or refused with ``grant_required`` (never silently applied).
- ``make_ask``: the ask's row and its log entry (kind ``ask``), shown live to the Storyteller by the
  live feed like every entry. The decisions (grant, change, refusal, withdrawal) are in
  ``usecases.grants``.
- standing grants: set (kind ``standing_grant``) and end (``standing_end``), for one character or
  the group, until ended or for the open scene (``usecases.scenes.close_scene`` ends those).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Row, bindparam, or_, select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.entries import AskReceipt, StandingEndReceipt, StandingGrantReceipt
from rollbook.play import authority, catalogue, turns
from rollbook.rules.base import RuleError
from rollbook.server.access import (
    STORYTELLER,
    find_character,
    find_chronicle,
    lock_chronicle,
    may_act_for,
    require_storyteller,
)
from rollbook.server.models import Ask, Caller, Character, Chronicle, Grant, Scene, StandingGrant
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry
from rollbook.server.tx import now
from rollbook.server.usecases.checks import DIFFICULTY_KINDS, reject_faces
from rollbook.server.usecases.scenes import declared_actions, open_scene_of, running_turn, scene_view
from rollbook.server.views import character_view, entry_view

# --- standing values: the baseline of a roll -------------------------------------------------


def active_standing(session: Session, chronicle_id: int, character_id: int | None = None) -> list[Row]:
    """The standing grants in force, oldest first: the group's and (with ``character_id``) the
    character's; all of them when ``character_id`` is None. Plain rows (a ``StandingGrant``'s columns)."""
    if character_id is not None:
        return list(session.execute(_STANDING_FOR, {"chronicle": chronicle_id, "character": character_id}))
    return list(session.execute(_STANDING_ALL, {"chronicle": chronicle_id}))


# The grants in force as plain rows (Core: read here, never changed through them; ending one is
# ``end_standing``'s or ``close_scene``'s own look-up).
_GRANTS = StandingGrant.__table__
_STANDING_ALL = (
    select(_GRANTS)
    .where(_GRANTS.c.chronicle_id == bindparam("chronicle"), _GRANTS.c.ended_seq.is_(None))
    .order_by(_GRANTS.c.id)
)
_STANDING_FOR = (
    select(_GRANTS)
    .where(
        _GRANTS.c.chronicle_id == bindparam("chronicle"),
        _GRANTS.c.ended_seq.is_(None),
        or_(_GRANTS.c.character_id.is_(None), _GRANTS.c.character_id == bindparam("character")),
    )
    .order_by(_GRANTS.c.id)
)


class Standing(Protocol):
    """What a character's standing values read of it: its row, or a page's view of the row its read
    holds (``web.table.CharacterRow``)."""

    @property
    def id(self) -> int: ...

    @property
    def difficulty(self) -> int | None: ...


def standing_values(
    session: Session, chronicle: Chronicle, character: Standing, in_force: list[Row] | None = None
) -> tuple[dict, list[int]]:
    """A-1: the Storyteller's standing values for a character's rolls, weakest first: the chronicle's
    standing difficulty, the character's, the group's standing grants, the character's own (a
    later one overrides an earlier one). Returns (edge -> value, the standing grant ids used).
    ``in_force``: every standing grant of the chronicle in force (``active_standing``), when the
    caller read them in this transaction already; else the character's and the group's are read."""
    values: dict = {}
    difficulty = character.difficulty if character.difficulty is not None else chronicle.difficulty
    if difficulty is not None:
        values["difficulty"] = difficulty
    if in_force is None:
        grants = list(session.execute(_STANDING_FOR, {"chronicle": chronicle.id, "character": character.id}))
    else:  # _STANDING_FOR's rows among them: the group's and this character's
        grants = [g for g in in_force if g.character_id is None or g.character_id == character.id]
    grants.sort(key=lambda grant: (grant.character_id is not None, grant.id))
    for grant in grants:
        values.update(grant.edges)
    return values, [grant.id for grant in grants]


def _standing_for_kind(system: str, kind: str, values: dict) -> dict:
    """The standing difficulty applies to the kinds that take one (a Rouse check or a soak has none)."""
    if "difficulty" in values and kind not in DIFFICULTY_KINDS.get(system, ()):
        values = {k: v for k, v in values.items() if k != "difficulty"}
    return values


def baseline_for(
    session: Session,
    chronicle: Chronicle,
    character: Standing,
    kind: str,
    in_force: list[Row] | None = None,
) -> tuple[dict, list[int]]:
    """The baseline of a roll of ``kind`` for this character (``play.authority.baseline`` over the
    standing values) and the standing grant ids it used (``in_force``: ``standing_values``')."""
    values, used = standing_values(session, chronicle, character, in_force)
    values = _standing_for_kind(chronicle.system, kind, values)
    return authority.baseline(chronicle.system, kind, values), used


def quick_baseline(session: Session, chronicle: Chronicle, kind: str) -> dict:
    """A-1 for dice without a sheet (a quick roll): the baseline of a roll of ``kind`` from the
    chronicle's standing difficulty and the group's standing grants (no character's own)."""
    values: dict = {} if chronicle.difficulty is None else {"difficulty": chronicle.difficulty}
    for grant in active_standing(session, chronicle.id):
        if grant.character_id is None:
            values.update(grant.edges)
    return authority.baseline(chronicle.system, kind, _standing_for_kind(chronicle.system, kind, values))


# --- a roll request, cut along A-1 --------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What to do with a roll request: ``asked`` empty -> roll ``action`` (``hidden``) now;
    otherwise a player's ask. ``stamp`` goes into the roll's receipt (``authority``)."""

    split: authority.Split
    baseline: dict
    standing: list[int]
    action: dict
    hidden: bool
    asked: dict
    stamp: dict


def _action_kind(system: str, action: object) -> str:
    """The action's kind, once its shape is one the play layer takes: no faces, an object, a kind of
    roll the system knows (else the play layer's own refusal: bad_choice / missing_field)."""
    reject_faces(action)
    if not isinstance(action, dict):
        raise ProblemError(422, "not_an_object", field="action")
    kind = action.get("kind")
    if not isinstance(kind, str) or kind not in authority.action_models(system):
        authority.split(system, action)  # refuses it (``parse_kind``)
        raise AssertionError("unreachable: the play layer refuses an action of no known kind")
    return kind


def plan_roll(
    session: Session,
    chronicle: Chronicle,
    character: Character,
    member: Caller,
    action: object,  # as requested: ``_action_kind`` refuses what is not an action
    *,
    hidden: bool = False,
    in_force: list[Row] | None = None,
) -> Plan:
    """A-1: the request against the baseline. The Storyteller's edges apply as given (what they do
    not name comes from the baseline); a player's edges are ``asked``. ``in_force``: the standing
    grants in force for the character (``active_standing``'s), when the caller read them already."""
    kind = _action_kind(chronicle.system, action)
    base, standing = baseline_for(session, chronicle, character, kind, in_force)
    # the catalogue's one check of every action: what it asks beyond the baseline
    decision = catalogue.decide(chronicle.system, action, base, role=member.role, hidden=hidden)
    cut = decision.split
    assert cut is not None  # a roll's decision carries its split
    if member.role == STORYTELLER:
        return Plan(cut, base, standing, decision.action, decision.hidden, {}, {})
    stamp = {
        "baseline": base,
        "standing": standing,
        **cards_stamp(chronicle.system, character.sheet, decision.action),
    }
    return Plan(cut, base, standing, decision.action, decision.hidden, decision.asked, stamp)


def cards_stamp(system: str, sheet: dict, action: dict) -> dict:
    """``{"cards": [...]}``: the cards a roll plays and their effects, for its authority stamp (a card
    is the Storyteller's gift, R-6: what it adds shows beside the baseline); empty
    when it plays none."""
    module = play.system_module(system)
    if not isinstance(action, dict) or not action.get("cards"):
        return {}
    played = module.played_cards(sheet, action["cards"])
    return {} if played is None else {"cards": played}


def refuse_unasked(plan: Plan) -> None:
    """A-1: an edge a player sends without asking is refused, never silently applied."""
    raise ProblemError(403, "grant_required", edges=sorted(plan.asked))


# --- asks ---------------------------------------------------------------------------------------


def ask_view(ask: Ask, grant: Grant | None = None, character: Character | None = None) -> dict:
    status = (
        "pending"
        if grant is None
        else (
            "refused"
            if grant.decision == "refused"
            else "withdrawn"
            if grant.decision == "withdrawn"
            else "granted"
        )
    )
    view = {
        "id": ask.id,
        "chronicle": ask.chronicle_id,
        "character": ask.character_id,
        "member": ask.member_id,
        "kind": ask.kind,
        "player": ask.player,
        "asked": ask.asked,
        "seq": ask.seq,
        "created_at": ask.created_at,
        "status": status,
        "decision": None,
    }
    if character is not None:
        view["character_name"] = character.name
    if grant is not None:
        view["decision"] = {
            "decision": grant.decision,
            "edges": grant.edges,
            "seq": grant.seq,
            "roll_seq": grant.roll_seq,
            "by": grant.member_id,
            "created_at": grant.created_at,
        }
    return view


def make_ask(
    session: Session,
    chronicle: Chronicle,
    character: Character,
    member: Caller,
    plan: Plan,
    *,
    follows: int | None = None,
    followed: dict | None = None,
    target: int | None = None,
) -> dict:
    """A-1: the player's request waits for the Storyteller. Every refusal the roll would meet if it
    were granted as asked is made now (``play.preview`` under the Storyteller's authority), so the
    Storyteller only sees rolls that can be made. The ask is a log entry (A-2). A step of the combat
    chain keeps the seq it ``follows`` (and an attack its ``target``) in the ask's entry: the grant
    rolls it as that step (``usecases.exchange``)."""
    preview = play.preview(
        chronicle.system,
        copy.deepcopy(character.sheet),
        plan.action,
        mode=chronicle.mode,
        role=STORYTELLER,
        follows=followed,
        table_rules=chronicle.table_rules or (),
    )
    chain = {key: value for key, value in (("follows", follows), ("target", target)) if value is not None}
    ask = Ask(
        chronicle_id=chronicle.id,
        character_id=character.id,
        member_id=member.id,
        kind=plan.split.kind,
        player=plan.split.player,
        asked=plan.asked,
        seq=0,
        created_at=now(),
    )
    session.add(ask)
    session.flush()
    # F-7: a hidden ask is hidden too (what it would roll is the hidden roll's secret); its
    # public part says only that an ask was made, and the player who asked reads it (views.private_reader)
    entry = append_entry(
        session,
        chronicle,
        kind="ask",
        actor=actor_of(member, character),
        visibility="hidden" if plan.hidden else "public",
        receipt=AskReceipt(
            ask=ask.id,
            character=character.id,
            kind=plan.split.kind,
            player=plan.split.player,
            asked=plan.asked,
            baseline=plan.baseline,
            standing=plan.standing,
            pool=preview["pool"],
            **chain,
        ),
        character_id=character.id,
    )
    ask.seq = entry.seq
    session.flush()
    return {
        "ask": ask_view(ask, None, character),
        "entry": entry_view(entry, member),
        "character": character_view(character),
    }


def find_ask(session: Session, member: Caller, ask_id: int) -> tuple[Ask, Grant | None]:
    """An ask of the member's chronicle with its decision; a player reaches only their own asks."""
    ask = session.scalars(
        select(Ask).where(Ask.id == ask_id, Ask.chronicle_id == member.chronicle_id)
    ).first()
    if ask is None or (member.role != STORYTELLER and ask.member_id != member.id):
        raise ProblemError(404, "ask_not_found", ask=ask_id)
    grant = session.scalars(select(Grant).where(Grant.ask_id == ask.id)).first()
    return ask, grant


def _for_reader(view: dict, ask: Ask, grant: Grant | None, member: Caller) -> dict:
    """F-7: what the Storyteller granted for a hidden roll (another difficulty, …) is the hidden roll's
    secret: the player who asked reads that it was granted, not the edges."""
    hidden = bool((ask.asked or {}).get("hidden")) or bool(
        ((grant.edges if grant else None) or {}).get("hidden")
    )
    if grant is not None and hidden and member.role != STORYTELLER and isinstance(view.get("decision"), dict):
        view["decision"] = {**view["decision"], "edges": None}
    return view


def get_ask(session: Session, member: Caller, ask_id: int) -> dict:
    ask, grant = find_ask(session, member, ask_id)
    return _for_reader(ask_view(ask, grant, session.get(Character, ask.character_id)), ask, grant, member)


def list_asks(session: Session, member: Caller, *, status: str | None = None, limit: int = 100) -> list[dict]:
    """The chronicle's asks, newest first (a player's own only); ``status="pending"``: the queue."""
    return [view for view, _character in _asks(session, member, status, limit)]


def _asks(session: Session, member: Caller, status: str | None, limit: int) -> list[tuple[dict, Character]]:
    """``list_asks``' views, each with its character's row, read in the same statement."""
    query = (
        select(Ask, Grant, Character)
        .outerjoin(Grant, Grant.ask_id == Ask.id)
        .join(Character, Character.id == Ask.character_id)
        .where(Ask.chronicle_id == member.chronicle_id)
    )
    if member.role != STORYTELLER:
        query = query.where(Ask.member_id == member.id)
    if status == "pending":
        query = query.where(Grant.id.is_(None))
    elif status is not None:
        raise ProblemError(422, "bad_choice", field="status", value=status, choices=["pending"])
    rows = session.execute(query.order_by(Ask.id.desc()).limit(limit)).all()
    return [
        (_for_reader(ask_view(ask, grant, character), ask, grant, member), character)
        for ask, grant, character in rows
    ]


# --- standing grants ----------------------------------------------------------------------------


def standing_view(grant: StandingGrant | Row[Any]) -> dict:  # the ORM row, or ``active_standing``'s
    return {
        "id": grant.id,
        "chronicle": grant.chronicle_id,
        "character": grant.character_id,
        "scene": grant.scene_id,
        "edges": grant.edges,
        "seq": grant.seq,
        "ended_seq": grant.ended_seq,
        "created_at": grant.created_at,
    }


def list_standing(session: Session, member: Caller, in_force: list[Row] | None = None) -> list[dict]:
    """The standing grants in force (every member sees them: they are said at the table).
    ``in_force``: ``active_standing``'s rows, when the caller read them in this transaction."""
    grants = list(active_standing(session, member.chronicle_id) if in_force is None else in_force)
    # a removed character's grant keeps the character's name: the roster no longer lists it
    ids = {grant.character_id for grant in grants if grant.character_id is not None}
    rows = (
        session.execute(select(Character.id, Character.name).where(Character.id.in_(ids))).all()
        if ids
        else []
    )
    names = {row[0]: row[1] for row in rows}
    return [{**standing_view(grant), "character_name": names.get(grant.character_id)} for grant in grants]


def set_standing(
    session: Session, member: Caller, *, edges: dict, character_id: int | None = None, scene: bool = False
) -> dict:
    """A-1: the Storyteller grants edges ahead, for one character or every character (``None``),
    until ended or (``scene``) until the open scene closes. A log entry (A-2)."""
    require_storyteller(member, "standing_grant")
    chronicle = lock_chronicle(session, member.chronicle_id)
    checked = authority.check_edges(chronicle.system, None, edges)
    if not checked:
        raise ProblemError(422, "nothing_granted")
    character = find_character(session, member, character_id) if character_id is not None else None
    scene_row = open_scene_of(session, chronicle.id) if scene else None
    if scene and scene_row is None:
        raise ProblemError(409, "no_open_scene")
    grant = StandingGrant(
        chronicle_id=chronicle.id,
        character_id=character_id,
        scene_id=scene_row.id if scene_row is not None else None,
        edges=checked,
        seq=0,
        ended_seq=None,
        created_at=now(),
    )
    session.add(grant)
    session.flush()
    entry = append_entry(
        session,
        chronicle,
        kind="standing_grant",
        actor=actor_of(member, character),
        visibility="public",
        receipt=StandingGrantReceipt(
            standing=grant.id,
            character=character_id,
            edges=checked,
            scene=scene_row.number if scene_row is not None else None,
        ),
        character_id=character_id,
    )
    grant.seq = entry.seq
    session.flush()
    return {"standing": standing_view(grant), "entry": entry_view(entry, member)}


def end_standing(session: Session, member: Caller, standing_id: int) -> dict:
    """The Storyteller ends a standing grant (a log entry, A-2)."""
    require_storyteller(member, "standing_end")
    chronicle = lock_chronicle(session, member.chronicle_id)
    grant = session.scalars(
        select(StandingGrant).where(
            StandingGrant.id == standing_id, StandingGrant.chronicle_id == chronicle.id
        )
    ).first()
    if grant is None:
        raise ProblemError(404, "standing_not_found", standing=standing_id)
    if grant.ended_seq is not None:
        raise ProblemError(409, "standing_ended", standing=standing_id, seq=grant.ended_seq)
    entry = append_entry(
        session,
        chronicle,
        kind="standing_end",
        actor=actor_of(member),
        visibility="public",
        receipt=StandingEndReceipt(standing=grant.id, character=grant.character_id),
        character_id=grant.character_id,
    )
    grant.ended_seq = entry.seq
    session.flush()
    return {"standing": standing_view(grant), "entry": entry_view(entry, member)}


# --- multiple actions (A-4) ---------------------------------------------------------------------


@dataclass(frozen=True)
class RollReads:
    """The rows a roll form's reads share, read once (``roll_reads``): the chronicle, the character
    (one the member may act for) and the standing grants in force for it."""

    chronicle: Chronicle
    character: Character
    in_force: list[Row]


def roll_reads(session: Session, member: Caller, character_id: int) -> RollReads:
    """The chronicle, the character (``may_act_for``) and its standing grants in force, read once for
    ``multiple_action_offers``, ``roll_plan`` and ``rolls.odds_request`` in the same transaction."""
    character = find_character(session, member, character_id)
    may_act_for(member, character)
    chronicle = find_chronicle(session, member)
    return RollReads(chronicle, character, active_standing(session, chronicle.id, character.id))


def multiple_action_offers(
    session: Session, member: Caller, character_id: int, action: dict, reads: RollReads | None = None
) -> dict:
    """A-4, V20-13: for a character the Storyteller declared several actions for in the running
    turn, each action's raised difficulty and share of the split pool, from the roll at its baseline
    (no offers when fewer than two actions are declared, or for rolls the helper does not cover).
    An offer is rolled only as an ask the Storyteller grants. ``reads``: ``roll_reads``', when the
    caller read them in this transaction."""
    reads = reads or roll_reads(session, member, character_id)
    chronicle, character = reads.chronicle, reads.character
    declared = declared_actions(session, running_turn(session, chronicle.id), character.id)
    kind = _action_kind(chronicle.system, action)  # a roll the rules accept, offers or not
    base, _ = baseline_for(session, chronicle, character, kind, reads.in_force)
    cut = authority.split(chronicle.system, action, base)
    if not declared or declared < 2 or kind not in turns.MULTIPLE_ACTION_KINDS.get(chronicle.system, ()):
        return {"actions": declared, "offers": []}
    at_baseline, _ = authority.compose(chronicle.system, cut.player, base, {})
    preview = play.preview(
        chronicle.system, copy.deepcopy(character.sheet), at_baseline, mode=chronicle.mode, role=STORYTELLER
    )
    offers = turns.multiple_actions(
        chronicle.system,
        kind,
        preview["pool"],
        difficulty=base["difficulty"],
        required=base["required"],
        actions=declared,
    )
    return {"actions": declared, "offers": offers}


# --- reads for the web table ----------------------------------------------------------------------


def roll_plan(
    session: Session,
    member: Caller,
    character_id: int,
    action: dict,
    *,
    hidden: bool = False,
    reads: RollReads | None = None,
) -> dict:
    """What a roll request would do, changing nothing (the roll form's odds and its button): the
    edges it asks (empty: it is rolled at once), the action as asked, the action at the baseline
    (what applies without asking), the baseline itself. ``reads``: ``roll_reads``', when the caller
    read them in this transaction."""
    reads = reads or roll_reads(session, member, character_id)
    chronicle, character = reads.chronicle, reads.character
    plan = plan_roll(session, chronicle, character, member, action, hidden=hidden, in_force=reads.in_force)
    at_baseline, _ = authority.compose(chronicle.system, plan.split.player, plan.baseline, {})
    return {
        "asked": plan.asked,
        "action": plan.action,
        "hidden": plan.hidden,
        "at_baseline": at_baseline,
        "baseline": plan.baseline,
        "standing": plan.standing,
    }


def table_state(session: Session, member: Caller, chronicle: Chronicle | None = None) -> dict:
    """The authority's part of the table for the web page: the open scene, the asks waiting (the
    Storyteller's queue; a player's own), the standing grants in force. ``chronicle``: its row, when
    the caller read it in this transaction."""
    chronicle = chronicle if chronicle is not None else find_chronicle(session, member)
    scene = open_scene_of(session, chronicle.id)
    return _table_state(session, member, chronicle, scene, active_standing(session, chronicle.id))


def sheet_state(
    session: Session, member: Caller, chronicle: Chronicle, character: Standing, kind: str
) -> dict:
    """A sheet page's authority, each row read once: ``table_state``'s, the baseline edges of the
    character's rolls of ``kind`` (A-1: the roll form starts from them) and the actions declared for
    it in the running turn (A-4). ``chronicle`` and ``character``: as the caller read them in this
    transaction (the character one of the chronicle's, at the table)."""
    scene = open_scene_of(session, chronicle.id)
    in_force = active_standing(session, chronicle.id)
    state = _table_state(session, member, chronicle, scene, in_force)
    known = kind in authority.action_models(chronicle.system)
    state["kind"] = kind  # whose baseline it holds
    state["baseline"] = baseline_for(session, chronicle, character, kind, in_force)[0] if known else {}
    state["declared"] = declared_actions(session, scene, character.id)  # none unless a turn runs
    return state


def _table_state(
    session: Session, member: Caller, chronicle: Chronicle, scene: Scene | None, in_force: list[Row]
) -> dict:
    asks = []
    # the queue with each ask's character, in one statement (``_asks``): what each would roll, as
    # asked and at the baseline (the odds on the queue)
    for ask, character in _asks(session, member, "pending", 100):
        asks.append(ask)
        base, _ = baseline_for(session, chronicle, character, ask["kind"], in_force)
        try:
            ask["action"], _ = authority.compose(chronicle.system, ask["player"], base, ask["asked"])
            ask["at_baseline"], _ = authority.compose(chronicle.system, ask["player"], base, {})
        except RuleError:  # a standing value changed since: the Storyteller still sees the ask
            ask["action"] = ask["at_baseline"] = None
    return {"scene": scene_view(scene), "asks": asks, "standing": list_standing(session, member, in_force)}
