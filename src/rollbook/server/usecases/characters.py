"""Characters and their sheets: add, list, read, edit; adjustments (resources and experience)."""

from __future__ import annotations

import copy

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.server.access import (
    STORYTELLER, find_character, find_member, lock_character, lock_chronicle, may_act_for,
)
from rollbook.server.chain import plain
from rollbook.server.models import Character, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, save_sheet
from rollbook.server.tx import now
from rollbook.server.usecases.checks import UNSET, check_difficulty, check_name, performed_parts, reject_faces
from rollbook.server.views import character_view, entry_view, roster_view


def add_character(session: Session, member: Member, *, name: str, sheet: dict, owner: int | None = UNSET,
                  difficulty: int | None = None) -> dict:
    """A player adds a character for themselves; the Storyteller for anyone (``owner``) or an NPC
    (``owner=None``). The sheet is validated by the game logic."""
    check_name(name)
    chronicle = lock_chronicle(session, member.chronicle_id)
    if member.role != STORYTELLER:
        if owner not in (UNSET, None, member.id):
            raise ProblemError(403, "storyteller_only", action="owner", role=member.role)
        if difficulty is not None:
            raise ProblemError(403, "storyteller_only", action="difficulty", role=member.role)
        owner = member.id
    elif owner is UNSET:
        owner = None
    if owner is not None:
        find_member(session, chronicle.id, owner)
    check_difficulty(chronicle.system, difficulty)
    sheet = {"name": name, **copy.deepcopy(sheet)}  # the sheet's own name defaults to the character's
    validated = play.new_sheet(chronicle.system, sheet)
    stamp = now()
    character = Character(chronicle_id=chronicle.id, owner_id=owner, name=name, sheet=plain(validated), version=1,
                          difficulty=difficulty, created_at=stamp, updated_at=stamp)
    session.add(character)
    session.flush()
    return character_view(character)


def list_characters(session: Session, member: Member) -> list[dict]:
    """The Storyteller sees every character; a player sees their own."""
    query = select(Character).where(Character.chronicle_id == member.chronicle_id).order_by(Character.id)
    if member.role != STORYTELLER:
        query = query.where(Character.owner_id == member.id)
    return [character_view(row) for row in session.scalars(query)]


def roster(session: Session, member: Member) -> list[dict]:
    """Every character of the chronicle as the table shows it (``views.roster_view``): names for
    all, sheets only for those the member may open."""
    query = select(Character).where(Character.chronicle_id == member.chronicle_id).order_by(Character.id)
    return [roster_view(row, member) for row in session.scalars(query)]


def get_character(session: Session, member: Member, character_id: int) -> dict:
    character = find_character(session, member, character_id)
    may_act_for(member, character)
    return character_view(character)


def edit_character(session: Session, member: Member, character_id: int, *, patch: dict | None = None,
                   name: str = UNSET, difficulty: int | None = UNSET, owner: int | None = UNSET,
                   version: int | None = None) -> dict:
    """Edit a sheet (the game logic decides what each role may change), rename, or — Storyteller
    only — set the character's standing difficulty or owner. ``version``: refuse if the sheet moved."""
    chronicle = lock_chronicle(session, member.chronicle_id)
    character = lock_character(session, member, character_id)
    may_act_for(member, character)
    if version is not None and version != character.version:
        raise ProblemError(409, "version_conflict", current=character.version, given=version)
    if member.role != STORYTELLER and (difficulty is not UNSET or owner is not UNSET):
        raise ProblemError(403, "storyteller_only", action="difficulty" if difficulty is not UNSET else "owner",
                           role=member.role)
    if patch:
        edited = play.edit_sheet(chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(patch),
                                 role=member.role)
        save_sheet(session, character, edited)
    if name is not UNSET:
        check_name(name)
        character.name = name
    if difficulty is not UNSET:
        check_difficulty(chronicle.system, difficulty)
        character.difficulty = difficulty
    if owner is not UNSET:
        if owner is not None:
            find_member(session, chronicle.id, owner)
        character.owner_id = owner
    if name is not UNSET or difficulty is not UNSET or owner is not UNSET:
        if not patch:  # a change outside the sheet still moves the version
            save_sheet(session, character, character.sheet)
        session.flush()
    return character_view(character)


def adjust(session: Session, member: Member, character_id: int, change: dict) -> dict:
    """Resources and experience: the Storyteller restores, grants and awards; a player spends
    experience, reloads, … (the game logic decides what each role may do). Logged publicly."""
    reject_faces(change, "change")
    chronicle = lock_chronicle(session, member.chronicle_id)
    character = lock_character(session, member, character_id)
    may_act_for(member, character)
    performed = play.adjust(chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(change), role=member.role)
    sheet, receipt, effects = performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    payload = receipt if isinstance(receipt, dict) and isinstance(receipt.get("system"), str) else {
        "change": change, "effects": effects, **({"result": receipt} if receipt else {})}
    entry = append_entry(session, chronicle, kind="adjust", actor=actor_of(member, character), visibility="public",
                         receipt=payload, character_id=character.id, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}
