"""Rolls and their follow-ups: a roll named by traits (the server builds the pool from the stored
sheet and rolls the dice), the V5 Willpower reroll, and the Storyteller's standing difficulty."""

from __future__ import annotations

import copy

from sqlalchemy.orm import Session

from rollbook import play
from rollbook.dice import DiceSource
from rollbook.server.access import STORYTELLER, find_entry, lock_character, lock_chronicle, may_act_for
from rollbook.server.chain import plain
from rollbook.server.models import Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, save_sheet
from rollbook.server.usecases.checks import (
    DIFFICULTY_KINDS, DIFFICULTY_SYSTEMS, dice_or_secure, performed_parts, reject_faces,
)
from rollbook.server.views import character_view, entry_view, rerolled_by

ROLL_KINDS = ("roll", "reroll")


def standing_difficulty(chronicle_difficulty: int | None, character_difficulty: int | None) -> int | None:
    """The character's standing difficulty, else the chronicle's."""
    return character_difficulty if character_difficulty is not None else chronicle_difficulty


def apply_standing_difficulty(system: str, standing: int | None, action: dict, role: str) -> dict:
    """The Storyteller's standing difficulty is the difficulty of a player's roll; a player asking
    for another one is refused. The Storyteller may name any difficulty; when they name none the
    standing one applies. (Pure: the web's odds preview applies it too.)"""
    if standing is None or system not in DIFFICULTY_SYSTEMS:
        return action
    if action.get("kind") not in DIFFICULTY_KINDS[system]:
        return action  # e.g. a Rouse check or a soak roll: no difficulty to set
    if "difficulty" in action:
        if role != STORYTELLER and action["difficulty"] != standing:
            raise ProblemError(403, "difficulty_locked", difficulty=standing)
        return action
    return {**action, "difficulty": standing}


def roll(session: Session, member: Member, character_id: int, action: dict, *, hidden: bool = False,
         source: DiceSource | None = None) -> dict:
    """A roll named by traits: the server builds it from the stored sheet, rolls ``source``
    (default ``SecureDice()``), stores the new sheet and appends the receipt, all in the caller's
    one transaction."""
    reject_faces(action)
    if hidden and member.role != STORYTELLER:
        raise ProblemError(403, "hidden_storyteller_only")
    chronicle = lock_chronicle(session, member.chronicle_id)
    character = lock_character(session, member, character_id)
    may_act_for(member, character)
    standing = standing_difficulty(chronicle.difficulty, character.difficulty)
    action = apply_standing_difficulty(chronicle.system, standing, copy.deepcopy(action), member.role)
    performed = play.perform(chronicle.system, copy.deepcopy(character.sheet), action, mode=chronicle.mode,
                             role=member.role, source=dice_or_secure(source))
    sheet, receipt, effects = performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    entry = append_entry(session, chronicle, kind="roll", actor=actor_of(member, character),
                         visibility="hidden" if hidden else "public", receipt=receipt or {},
                         character_id=character.id, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}


def reroll(session: Session, member: Member, seq: int, action: dict, *, source: DiceSource | None = None) -> dict:
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
    character = lock_character(session, member, original.character_id)
    may_act_for(member, character)
    performed = play.perform_followup(
        chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(original.receipt), copy.deepcopy(action),
        mode=chronicle.mode, role=member.role, source=dice_or_secure(source))
    sheet, receipt, effects = performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    entry = append_entry(session, chronicle, kind="reroll", actor=actor_of(member, character),
                         visibility=original.visibility, receipt=receipt or {}, character_id=character.id,
                         refers_to=seq, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}
