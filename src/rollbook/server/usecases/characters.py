"""Characters and their sheets: add, list, read, edit; adjustments (resources and experience)."""

from __future__ import annotations

import copy
from collections.abc import Callable

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.entries import AdjustReceipt, RemovalReceipt, SheetEditReceipt
from rollbook.play.common import changed_paths, merge
from rollbook.server.access import (
    REMOVED_KIND,
    STORYTELLER,
    find_character,
    find_member,
    lock_character,
    lock_chronicle,
    may_act_for,
    present,
    require_storyteller,
)
from rollbook.server.chain import is_rules_receipt, plain
from rollbook.server.models import Caller, Character, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, save_sheet, sheet_changed
from rollbook.server.tx import now
from rollbook.server.usecases import compulsions, scenes, solo_guard
from rollbook.server.usecases.checks import (
    UNSET,
    Resolve,
    check_character_count,
    check_difficulty,
    check_name,
    check_sheet_size,
    performed_parts,
    reject_faces,
    resolved,
)
from rollbook.server.usecases.chronicles import log_settings
from rollbook.server.views import character_view, entry_view, roster_view


def _held(session: Session, chronicle_id: int, owner: int | None, member: Caller) -> tuple[int, bool]:
    """The live characters a new one counts against, and whether they are the Storyteller's (theirs
    and the NPCs) rather than a player's own."""
    storytellers = owner is None or (member.role == STORYTELLER and owner == member.id)
    if storytellers:
        mine = or_(Character.owner_id.is_(None), Character.owner_id == member.id)
    else:
        mine = Character.owner_id == owner
    held = (
        session.scalar(
            select(func.count())
            .select_from(Character)
            .where(Character.chronicle_id == chronicle_id, Character.removed_at.is_(None), mine)
        )
        or 0
    )
    return held, storytellers


def add_character(
    session: Session,
    member: Caller,
    *,
    name: str = "",
    sheet: dict | None = None,
    owner: int | None = UNSET,
    difficulty: int | None = None,
    resolve: Callable[[Chronicle], tuple[str, dict]] | None = None,
) -> dict:
    """A player adds a character for themselves; the Storyteller for anyone (``owner``) or an NPC
    (``owner=None``). The sheet is validated by the game logic. ``resolve``: a page's form, read as
    the chronicle's game's against the chronicle locked here -> (the name, the sheet)."""
    if resolve is None:
        check_name(name)
    chronicle = lock_chronicle(session, member.chronicle_id)
    if resolve is not None:
        name, sheet = resolve(chronicle)
        check_name(name)
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
    sheet = {"name": name, **copy.deepcopy(sheet or {})}  # the sheet's own name defaults to the character's
    validated = play.new_sheet(
        chronicle.system,
        sheet,
        role=member.role,  # a player's holds no card
        mode=chronicle.mode,
    )  # V20-19: Strict refuses a trait above the Generation's maximum
    check_sheet_size(validated)  # bounded sheets, bounded characters per member
    check_character_count(*_held(session, chronicle.id, owner, member))
    stamp = now()
    character = Character(
        chronicle_id=chronicle.id,
        owner_id=owner,
        name=name,
        sheet=plain(validated),
        version=1,
        difficulty=difficulty,
        created_at=stamp,
        updated_at=stamp,
    )
    session.add(character)
    session.flush()
    if difficulty is not None:  # a character's standing difficulty is said in the log
        log_settings(session, chronicle, member, ["difficulty"], character)
    return character_view(character)


def list_characters(session: Session, member: Caller) -> list[dict]:
    """The Storyteller sees every character; a player sees their own."""
    query = (
        select(Character)
        .where(Character.chronicle_id == member.chronicle_id, present())
        .order_by(Character.id)
    )
    if member.role != STORYTELLER:
        query = query.where(Character.owner_id == member.id)
    return [character_view(row) for row in session.scalars(query)]


def roster(session: Session, member: Caller) -> list[dict]:
    """Every character of the chronicle as the table shows it (``views.roster_view``): names for
    all, sheets only for those the member may open."""
    query = (
        select(Character)
        .where(Character.chronicle_id == member.chronicle_id, present())
        .order_by(Character.id)
    )
    return [roster_view(row, member) for row in session.scalars(query)]


def get_character(session: Session, member: Caller, character_id: int) -> dict:
    character = find_character(session, member, character_id)
    may_act_for(member, character)
    return character_view(character)


def edit_character(
    session: Session,
    member: Caller,
    character_id: int,
    *,
    patch: dict | None = None,
    name: str = UNSET,
    difficulty: int | None = UNSET,
    owner: int | None = UNSET,
    version: int | None = None,
    base: dict | None = None,
    resolve: Callable[[Chronicle, Character], dict] | None = None,
) -> dict:
    """Edit a sheet (the game logic decides what each role may change), rename, or — Storyteller
    only — set the character's standing difficulty or owner. ``version``: refuse if the sheet moved.

    ``base``: the sheet as the editor was drawn from (instead of ``version``): only what the patch
    changes from ``base`` is applied, on the current sheet — a roll that spent Willpower meanwhile
    stays spent — unless the same field changed meanwhile to something else (409
    ``edit_conflict`` naming it). Every edit is a ``sheet_edit`` entry of the log: who changed which
    field from what to what (numbers also as effects), hidden from every player but the character's
    owner (a player sees ratings of their own characters only)."""
    chronicle, character = lock_character(session, member, character_id)
    may_act_for(member, character)
    if resolve is not None:  # a page's form, read against the rows locked here: patch, name, difficulty
        fields = resolve(chronicle, character)
        patch = fields.get("patch", patch)
        name, difficulty = fields.get("name", name), fields.get("difficulty", difficulty)
    solo_guard.check_player_move(session, chronicle, member)  # S-7, S-8
    if base is None and version is not None and version != character.version:
        raise ProblemError(409, "version_conflict", current=character.version, given=version)
    if member.role != STORYTELLER and (difficulty is not UNSET or owner is not UNSET):
        raise ProblemError(
            403,
            "storyteller_only",
            action="difficulty" if difficulty is not UNSET else "owner",
            role=member.role,
        )
    before = copy.deepcopy(character.sheet)
    old_name = character.name
    if patch and base is not None:
        patch = _merged_patch(base, patch, character.sheet)
    if patch:
        edited = play.edit_sheet(
            chronicle.system,
            copy.deepcopy(character.sheet),
            copy.deepcopy(patch),
            role=member.role,
            mode=chronicle.mode,
        )  # V20-19
        if sheet_changed(character, edited):
            check_sheet_size(edited)
            save_sheet(session, character, edited)
    if name is not UNSET:
        check_name(name)
        character.name = name
    old_difficulty = character.difficulty
    if difficulty is not UNSET:
        check_difficulty(chronicle.system, difficulty)
        character.difficulty = difficulty
    if owner is not UNSET:
        if owner is not None:
            find_member(session, chronicle.id, owner)
        if owner != character.owner_id and character.owner_id is not None:
            # the former owner's pending asks on it are withdrawn
            from rollbook.server.usecases.grants import withdraw_pending

            withdraw_pending(
                session, chronicle, member, character.owner_id, "owner_changed", character_id=character.id
            )
        character.owner_id = owner
    if name is not UNSET or difficulty is not UNSET or owner is not UNSET:
        if not patch:  # a change outside the sheet still moves the version
            save_sheet(session, character, character.sheet)
        session.flush()
    changes = [
        {"field": path, "before": _at(before, path), "after": _at(character.sheet, path)}
        for path in changed_paths(before, character.sheet)
        if path != "name"
    ]
    if character.name != old_name:
        changes.insert(0, {"field": "name", "before": old_name, "after": character.name})
    if character.difficulty != old_difficulty:  # the character's standing difficulty, in the log
        log_settings(session, chronicle, member, ["difficulty"], character)
    if changes:
        effects = [
            {"resource": c["field"], "before": c["before"], "after": c["after"]}
            for c in changes
            if _number(c["before"]) and _number(c["after"])
        ]
        # a sheet's values are its owner's and the Storyteller's (views.private_reader)
        append_entry(
            session,
            chronicle,
            kind="sheet_edit",
            actor=actor_of(member, character),
            visibility="hidden",
            receipt=SheetEditReceipt(character=character.id, owner=character.owner_id, changes=changes),
            character_id=character.id,
            effects=effects,
        )
    return character_view(character)


def remove_character(session: Session, storyteller: Caller, character_id: int) -> dict:
    """The Storyteller removes a character from the table (a double, a mistake, a dead NPC): a
    ``removal`` entry of the log (who, which, its last sheet), hidden from every player but its owner;
    it is no longer listed or found, and its rolls stay in the log."""
    require_storyteller(storyteller, "remove_character")
    chronicle, character = lock_character(session, storyteller, character_id)
    # its last sheet is its owner's and the Storyteller's (views.private_reader)
    entry = append_entry(
        session,
        chronicle,
        kind=REMOVED_KIND,
        actor=actor_of(storyteller),
        visibility="hidden",
        receipt=RemovalReceipt(
            character=character.id,
            name=character.name,
            owner=character.owner_id,
            version=character.version,
            sheet=character.sheet,
        ),
        character_id=character.id,
    )
    character.removed_at = entry.created_at  # in the removal's transaction: every look-up filters on it
    return {"entry": entry_view(entry, storyteller), "removed": character.id}


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_GONE = None


def _at(sheet, path: str):
    value = sheet
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return _GONE
        value = value[part]
    return copy.deepcopy(value)


def _merged_patch(base: dict, patch: dict, current: dict) -> dict:
    """What the editor changed from the sheet it was drawn from (``base``), as a patch on the current
    sheet; a field changed meanwhile by someone else, to another value, is a conflict."""
    wanted = merge(copy.deepcopy(base), copy.deepcopy(patch))
    out: dict = {}
    for path in changed_paths(base, wanted):
        old, new, now_value = _at(base, path), _at(wanted, path), _at(current, path)
        if now_value != old and now_value != new:
            raise ProblemError(409, "edit_conflict", field=path)
        _put(out, path, new)
    return out


def _put(patch: dict, path: str, value) -> None:
    parts = path.split(".")
    for part in parts[:-1]:
        patch = patch.setdefault(part, {})
    patch[parts[-1]] = value


def adjust(session: Session, member: Caller, character_id: int, change: dict | Resolve) -> dict:
    """Resources and experience: the Storyteller restores, grants and awards; a player spends
    experience, reloads, … (the game logic decides what each role may do). Logged publicly.
    ``change`` may be a ``Resolve`` (a page's form), resolved against the character locked here."""
    if not callable(change):
        reject_faces(change, "change")
    chronicle, character = lock_character(session, member, character_id)
    if callable(change):
        change = resolved(change, chronicle, character)
        reject_faces(change, "change")
    may_act_for(member, character)
    solo_guard.check_player_move(session, chronicle, member)  # S-7, S-8
    scenes.check_change(session, chronicle, change, member.role)  # T-3: a running turn is the Storyteller's
    performed = play.adjust(
        chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(change), role=member.role
    )
    sheet, receipt, effects = performed_parts(performed)
    turn = scenes.check_turn(session, chronicle, character, receipt, effects)  # A-3, V20-18: blood per turn
    if sheet_changed(character, sheet):
        save_sheet(session, character, sheet)
    payload = (
        receipt
        if is_rules_receipt(receipt)  # a change that rolls: its rules receipt
        else {"change": change, "effects": effects, **({"result": receipt} if receipt else {})}
    )
    if turn is not None:
        payload = {**payload, "turn": turn}
    entry = append_entry(
        session,
        chronicle,
        kind="adjust",
        actor=actor_of(member, character),
        visibility="public",
        receipt=AdjustReceipt.model_validate(payload),
        character_id=character.id,
        effects=effects,
    )
    if change.get("kind") == "feed":  # slaking Hunger ends the Hunger compulsion (Book)
        compulsions.end_on_feeding(session, member, chronicle, character, effects)
    return {
        "entry": entry_view(entry, member),
        "character": character_view(character),
        "effects": effects,
        "warnings": (turn or {}).get("warnings", []),
    }
