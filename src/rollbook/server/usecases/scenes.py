"""Scenes and turns (SPEC A-3, A-4): the Storyteller opens a scene, starts and advances its turns
and closes it, each a log entry; per-turn limits count within the running turn (V20-18 blood,
V20-9 Willpower warning, T-3 reload); the Storyteller declares a character's actions for the turn
and the roll form offers the multiple-action difficulty and split pool (V20-13).

A scene has no running turn until the first ``advance_turn`` (turn 1): outside a running turn
per-turn limits bound each action alone. Closing a scene ends its scene-long standing grants.
"""

from __future__ import annotations

import copy

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.entries import ActionsReceipt, SceneCloseReceipt, SceneOpenReceipt, TurnReceipt
from rollbook.play import turns
from rollbook.server.access import STORYTELLER, find_character, lock_chronicle, present, require_storyteller
from rollbook.server.chain import plain
from rollbook.server.models import Caller, Character, Chronicle, LogEntry, Scene, StandingGrant
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, save_sheet
from rollbook.server.tx import now
from rollbook.server.usecases import fairness
from rollbook.server.usecases.checks import check_name
from rollbook.server.views import entry_view

USAGE_KINDS = ("roll", "reroll", "adjust")  # entries whose effects count toward a turn's limits


def scene_view(scene: Scene | None) -> dict | None:
    if scene is None:
        return None
    return {
        "id": scene.id,
        "number": scene.number,
        "name": scene.name,
        "turn": scene.turn,
        "running": scene.turn >= 1 and scene.closed_seq is None,
        "turn_seq": scene.turn_seq,
        "opened_seq": scene.opened_seq,
        "closed_seq": scene.closed_seq,
        "created_at": scene.created_at,
    }


_OPEN_SCENE = select(Scene).where(Scene.chronicle_id == bindparam("chronicle"), Scene.closed_seq.is_(None))


def open_scene_of(session: Session, chronicle_id: int) -> Scene | None:
    """The chronicle's open scene (at most one: a partial unique index), or None."""
    return session.scalars(_OPEN_SCENE, {"chronicle": chronicle_id}).first()


def running_turn(session: Session, chronicle_id: int) -> Scene | None:
    """The open scene when its turns have started (A-3), else None."""
    scene = open_scene_of(session, chronicle_id)
    return scene if scene is not None and scene.turn >= 1 else None


def current_scene(session: Session, member: Caller) -> dict:
    """The open scene (or None) and what a member needs for the scene bar."""
    return {"scene": scene_view(open_scene_of(session, member.chronicle_id))}


def open_scene(session: Session, member: Caller, *, name: str = "") -> dict:
    """The Storyteller opens a scene (A-3); refused while another is open."""
    require_storyteller(member, "open_scene")
    chronicle = lock_chronicle(session, member.chronicle_id)
    if name:
        check_name(name)
    if open_scene_of(session, chronicle.id) is not None:
        raise ProblemError(409, "scene_already_open")
    number = (
        session.scalar(select(func.max(Scene.number)).where(Scene.chronicle_id == chronicle.id)) or 0
    ) + 1
    entry = append_entry(
        session,
        chronicle,
        kind="scene_open",
        actor=actor_of(member),
        visibility="public",
        receipt=SceneOpenReceipt(scene=number, name=name),
    )
    scene = Scene(
        chronicle_id=chronicle.id,
        number=number,
        name=name,
        turn=0,
        turn_seq=None,
        opened_seq=entry.seq,
        closed_seq=None,
        created_at=now(),
    )
    session.add(scene)
    session.flush()
    return {"scene": scene_view(scene), "entry": entry_view(entry, member)}


def _locked_open_scene(session: Session, member: Caller) -> tuple[Chronicle, Scene]:
    chronicle = lock_chronicle(session, member.chronicle_id)
    scene = open_scene_of(session, chronicle.id)
    if scene is None:
        raise ProblemError(409, "no_open_scene")
    return chronicle, scene


def advance_turn(session: Session, member: Caller) -> dict:
    """The Storyteller starts the next turn of the open scene (A-3): turn 1 first. T-3: a Tiers
    character whose turn a reload spent acts again (the sheet's ``turn_spent`` is cleared, each
    clearing listed in the turn's entry)."""
    require_storyteller(member, "advance_turn")
    chronicle, scene = _locked_open_scene(session, member)
    cleared = []
    characters = session.scalars(
        select(Character)
        .where(Character.chronicle_id == chronicle.id, present())
        .order_by(Character.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).all()
    for character in characters:
        change = turns.new_turn_change(chronicle.system, character.sheet)
        if change is None:
            continue
        performed = play.adjust(chronicle.system, copy.deepcopy(character.sheet), change, role=STORYTELLER)
        save_sheet(session, character, performed.sheet)
        cleared.append(
            {
                "character": character.id,
                "change": change,
                "effects": [plain(effect) for effect in performed.effects],
            }
        )
    turn = scene.turn + 1
    entry = append_entry(
        session,
        chronicle,
        kind="turn",
        actor=actor_of(member),
        visibility="public",
        receipt=TurnReceipt.of({"scene": scene.number, "turn": turn, "new_turn": cleared}),
    )
    scene.turn = turn
    scene.turn_seq = entry.seq
    session.flush()
    return {"scene": scene_view(scene), "entry": entry_view(entry, member)}


def close_scene(session: Session, member: Caller) -> dict:
    """The Storyteller closes the open scene (A-3); its scene-long standing grants end with it, and the
    server seed its rolls used is revealed and the next one committed (F-5; ``"rotation"``, None when
    no roll used the seed in use)."""
    require_storyteller(member, "close_scene")
    chronicle, scene = _locked_open_scene(session, member)
    standing = session.scalars(
        select(StandingGrant)
        .where(StandingGrant.scene_id == scene.id, StandingGrant.ended_seq.is_(None))
        .order_by(StandingGrant.id)
    ).all()
    entry = append_entry(
        session,
        chronicle,
        kind="scene_close",
        actor=actor_of(member),
        visibility="public",
        receipt=SceneCloseReceipt(
            scene=scene.number, turns=scene.turn, standing_ended=[grant.id for grant in standing]
        ),
    )
    for grant in standing:
        grant.ended_seq = entry.seq
    scene.closed_seq = entry.seq
    session.flush()
    # F-5: the end of a scene reveals the seed its rolls used and commits the next one.
    rotation = fairness.rotate_seed(session, chronicle, actor_of(member), only_if_used=True)
    return {"scene": scene_view(scene), "entry": entry_view(entry, member), "rotation": rotation}


# --- per-turn limits (A-3) --------------------------------------------------------------------


def turn_usage(session: Session, scene: Scene, character_id: int) -> turns.TurnUsage:
    """What a character used in the running turn: every roll and change logged since it began."""
    rows = session.execute(
        select(LogEntry.receipt, LogEntry.effects)
        .where(
            LogEntry.chronicle_id == scene.chronicle_id,
            LogEntry.character_id == character_id,
            LogEntry.seq > scene.turn_seq,
            LogEntry.kind.in_(USAGE_KINDS),
        )
        .order_by(LogEntry.seq)
    ).all()
    return turns.usage_of((receipt, effects or []) for receipt, effects in rows)


def check_turn(
    session: Session, chronicle: Chronicle, character: Character, receipt: dict | None, effects: list
) -> dict | None:
    """The per-turn limits on a roll or change about to be logged (the caller holds the chronicle's
    lock, so spends in one turn are counted one after the other, A-3): a refusal (``RuleError``)
    for V20-18 blood, else the receipt's ``turn`` stamp (scene, turn, warnings such as V20-9's) when
    a turn runs, else None."""
    scene = running_turn(session, chronicle.id)
    usage = turn_usage(session, scene, character.id) if scene is not None else turns.TurnUsage()
    warnings = turns.check_turn(
        chronicle.system, character.sheet, receipt, effects, usage, running=scene is not None
    )
    if scene is None:
        return None
    return {"scene": scene.number, "turn": scene.turn, "warnings": warnings}


def check_change(session: Session, chronicle: Chronicle, change: dict, role: str) -> None:
    """T-3, A-3: a player's own ``new_turn`` is refused while a turn runs."""
    turns.check_change(
        chronicle.system, change, role, running=running_turn(session, chronicle.id) is not None
    )


# --- multiple actions (A-4) -------------------------------------------------------------------


def declared_actions(session: Session, scene: Scene | None, character_id: int) -> int | None:
    """How many actions the Storyteller declared for the character in the running turn, if any."""
    if scene is None or scene.turn < 1:
        return None
    receipt = session.scalars(
        select(LogEntry.receipt)
        .where(
            LogEntry.chronicle_id == scene.chronicle_id,
            LogEntry.character_id == character_id,
            LogEntry.kind == "actions",
            LogEntry.seq > scene.turn_seq,
        )
        .order_by(LogEntry.seq.desc())
        .limit(1)
    ).first()
    return ActionsReceipt.of(receipt).actions if receipt else None


def declare_actions(session: Session, member: Caller, character_id: int, actions: int) -> dict:
    """A-4: the Storyteller declares how many actions a character takes this turn (1 clears it)."""
    require_storyteller(member, "declare_actions")
    chronicle, scene = _locked_open_scene(session, member)
    if scene.turn < 1:
        raise ProblemError(409, "no_running_turn")
    if not 1 <= actions <= turns.MAX_DECLARED_ACTIONS:
        raise ProblemError(
            422, "out_of_range", field="actions", value=actions, low=1, high=turns.MAX_DECLARED_ACTIONS
        )
    character = find_character(session, member, character_id)
    entry = append_entry(
        session,
        chronicle,
        kind="actions",
        actor=actor_of(member, character),
        visibility="public",
        receipt=ActionsReceipt(scene=scene.number, turn=scene.turn, character=character.id, actions=actions),
        character_id=character.id,
    )
    return {"actions": actions, "scene": scene_view(scene), "entry": entry_view(entry, member)}
