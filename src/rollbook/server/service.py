"""The service layer: plain functions taking a SQLAlchemy ``Session`` (and, for members, the
``Member`` a token opened). The JSON API and the web pages both call these; neither commits:
the caller owns the transaction (``Database.write()`` / ``run()`` / ``idempotent()``).

Every state change follows one pattern, in one transaction:

1. lock the chronicle row, then the character row (``SELECT ... FOR UPDATE`` on PostgreSQL; on
   SQLite the transaction began with ``BEGIN IMMEDIATE`` and already holds the write lock);
2. call the pure game logic (``rollbook.play``) on the stored sheet, with the dice source the caller
   passes (``source=``; ``SecureDice()`` when none is given: the app passes the one its
   ``create_app(dice=...)`` factory makes, ``SecureDice`` unless a test gave another);
3. write the new sheet with ``UPDATE ... WHERE id = :id AND version = :v`` (0 rows -> the
   whole transaction is retried by ``run``);
4. append the receipt to the chronicle's hash-chained log (seq = last + 1 under the chronicle
   lock; ``UNIQUE (chronicle_id, seq)`` refuses a duplicate whatever happens).

Refusals raise ``ProblemError`` (server) or ``RuleError`` (rules; see ``problems.rule_status``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from importlib import import_module
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from rollbook.dice import DiceSource, SecureDice
from rollbook.rules.base import RuleError, check_range
from rollbook.server import auth
from rollbook.server.chain import GENESIS_HASH, canonical, entry_hash, plain
from rollbook.server.models import Character, Chronicle, IdempotencyRecord, LogEntry, Member
from rollbook.server.problems import ProblemError

T = TypeVar("T")

STORYTELLER = "storyteller"
PLAYER = "player"
MODES = ("strict", "casual")
LANGUAGES = ("en", "fr", "es")
ROLL_KINDS = ("roll", "reroll")
DIFFICULTY_SYSTEMS = {"v20": (2, 10), "v5": (1, 30)}  # systems whose rolls take a standing difficulty
DIFFICULTY_KINDS = {"v20": ("test", "willpower", "virtue"), "v5": ("test", "willpower", "frenzy")}
_UNSET: Any = object()


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- the game logic (another module; imported when first needed) ----------------------------

def play():
    """``rollbook.play``; a 503 problem when it is not installed yet."""
    try:
        return import_module("rollbook.play")
    except ModuleNotFoundError as missing:
        if missing.name not in ("rollbook.play",):
            raise
        raise ProblemError(503, "system_unavailable", system="rollbook.play") from None


def system_ids() -> list[str]:
    """The systems whose game logic is installed (``rollbook.play.<system>``)."""
    from importlib.util import find_spec

    try:
        known = play().SYSTEM_IDS
    except ProblemError:
        return []
    return sorted(system for system in known if find_spec(f"rollbook.play.{system}") is not None)


# --- transactions -----------------------------------------------------------------------------

class StaleSheet(Exception):
    """The conditional UPDATE found another version: the transaction is retried."""


def _retryable(error: Exception) -> bool:
    if isinstance(error, StaleSheet):
        return True
    if isinstance(error, IntegrityError):  # a lost race on a unique key (seq, idempotency key); not a bug
        return "unique" in str(error.orig).lower()
    if isinstance(error, OperationalError):
        sqlstate = getattr(error.orig, "sqlstate", None)
        if sqlstate in ("40001", "40P01", "55P03"):  # serialization failure, deadlock, lock not available
            return True
        return "database is locked" in str(error.orig)
    return False


def run(db, work: Callable[[Session], T], *, attempts: int = 6) -> T:
    """Run ``work(session)`` in a write transaction, retrying the races the database reports."""
    for attempt in range(attempts):
        try:
            with db.write() as session:
                return work(session)
        except Exception as error:  # noqa: BLE001 - filtered just below
            if not _retryable(error):
                raise
            if attempt == attempts - 1:
                raise ProblemError(409, "busy") from error
            time.sleep(random.uniform(0.005, 0.05) * (attempt + 1))
    raise ProblemError(409, "busy")  # pragma: no cover


def fingerprint(method: str, path: str, body: Any) -> str:
    """What a request asks, independent of its JSON formatting."""
    return hashlib.sha256(canonical({"method": method.upper(), "path": path, "body": body})).hexdigest()


def idempotent(db, *, scope: str, key: str | None, request_fingerprint: str,
               work: Callable[[Session], tuple[int, dict]]) -> tuple[int, dict, bool]:
    """Exactly-once execution of a state-changing request: ``(status, body, replayed)``.

    With a key, the response is stored in the same transaction as the change. A retry with the same
    key and the same request returns the stored status and body; the same key with another request
    is refused (422 ``idempotency_key_reused``). Concurrent requests with one key: the loser's
    insert of the key violates ``UNIQUE (scope, key_hash)``, its transaction rolls back (nothing is
    spent) and the retry finds the winner's stored response. Refusals are not stored.
    """
    if key is not None and not (1 <= len(key) <= 255 and key.isprintable()):
        raise ProblemError(400, "idempotency_key_invalid")
    key_hash = auth.digest(key) if key is not None else None

    def attempt(session: Session) -> tuple[int, dict, bool]:
        if key is not None:
            stored = session.scalars(
                select(IdempotencyRecord).where(IdempotencyRecord.scope == scope, IdempotencyRecord.key_hash == key_hash)
            ).first()
            if stored is not None:
                if stored.fingerprint != request_fingerprint:
                    raise ProblemError(422, "idempotency_key_reused")
                return stored.status, _unseal_body(json.loads(stored.body), key), True
        status, body = work(session)
        if key is not None:
            session.add(IdempotencyRecord(
                scope=scope, key_hash=key_hash, fingerprint=request_fingerprint, status=status,
                body=json.dumps(_seal_body(body, key), ensure_ascii=False), created_at=now(),
            ))
            session.flush()
        return status, body, False

    return run(db, attempt)


def _seal_body(body: dict, key: str) -> dict:
    if isinstance(body, dict) and isinstance(body.get("token"), str):
        return {**body, "token": {"sealed": auth.seal(body["token"], key)}}
    return body


def _unseal_body(body: dict, key: str) -> dict:
    if isinstance(body, dict) and isinstance(body.get("token"), dict) and "sealed" in body["token"]:
        return {**body, "token": auth.unseal(body["token"]["sealed"], key)}
    return body


# --- views (plain JSON) -----------------------------------------------------------------------

def chronicle_view(chronicle: Chronicle) -> dict:
    return {
        "id": chronicle.id,
        "name": chronicle.name,
        "system": chronicle.system,
        "mode": chronicle.mode,
        "language": chronicle.language,
        "difficulty": chronicle.difficulty,
        "created_at": chronicle.created_at,
    }


def member_view(member: Member) -> dict:
    return {"id": member.id, "chronicle": member.chronicle_id, "name": member.name, "role": member.role,
            "created_at": member.created_at}


def character_view(character: Character) -> dict:
    return {
        "id": character.id,
        "chronicle": character.chronicle_id,
        "owner": character.owner_id,
        "name": character.name,
        "sheet": character.sheet,
        "version": character.version,
        "difficulty": character.difficulty,
        "created_at": character.created_at,
        "updated_at": character.updated_at,
    }


def entry_export(entry: LogEntry) -> dict:
    """The full entry, as exported and as ``rollbook log verify`` reads it."""
    return {
        "chronicle": entry.chronicle_id,
        "seq": entry.seq,
        "prev_hash": entry.prev_hash,
        "entry_hash": entry.entry_hash,
        "created_at": entry.created_at,
        "kind": entry.kind,
        "actor": entry.actor,
        "visibility": entry.visibility,
        "receipt": entry.receipt,
        "character": entry.character_id,
        "refers_to": entry.refers_to,
        "effects": entry.effects or [],
    }


def entry_view(entry: LogEntry, member: Member, revealed_by: dict[int, int] | None = None) -> dict:
    """An entry as this member may see it: a player sees a hidden entry redacted until revealed."""
    view = entry_export(entry)
    by = (revealed_by or {}).get(entry.seq)
    if entry.visibility == "hidden":
        view["revealed_by"] = by
        if member.role != STORYTELLER and by is None:
            view.update(actor=None, receipt=None, character=None, refers_to=None, effects=[], redacted=True)
    return view


# --- look-ups and locks -----------------------------------------------------------------------

def lock_chronicle(session: Session, chronicle_id: int) -> Chronicle:
    """The chronicle row, locked for this transaction (PostgreSQL ``FOR UPDATE``)."""
    chronicle = session.scalars(
        select(Chronicle).where(Chronicle.id == chronicle_id).with_for_update()
        .execution_options(populate_existing=True)
    ).first()
    if chronicle is None:
        raise ProblemError(404, "chronicle_not_found", chronicle=chronicle_id)
    return chronicle


def lock_character(session: Session, member: Member, character_id: int) -> Character:
    """A character of the member's chronicle, locked (after its chronicle: one lock order)."""
    character = session.scalars(
        select(Character).where(Character.id == character_id, Character.chronicle_id == member.chronicle_id)
        .with_for_update().execution_options(populate_existing=True)
    ).first()
    if character is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    return character


def get_chronicle(session: Session, member: Member, chronicle_id: int | None = None) -> Chronicle:
    if chronicle_id is not None and chronicle_id != member.chronicle_id:
        raise ProblemError(403, "wrong_chronicle")
    chronicle = session.get(Chronicle, member.chronicle_id)
    if chronicle is None:  # pragma: no cover - a member always has its chronicle
        raise ProblemError(404, "chronicle_not_found", chronicle=member.chronicle_id)
    return chronicle


def require_storyteller(member: Member, action: str) -> None:
    if member.role != STORYTELLER:
        raise ProblemError(403, "storyteller_only", action=action, role=member.role)


def may_act_for(member: Member, character: Character) -> None:
    """V: a player acts only for their own characters; the Storyteller for any."""
    if member.role != STORYTELLER and character.owner_id != member.id:
        raise ProblemError(403, "not_your_character")


def save_sheet(session: Session, character: Character, sheet: dict) -> None:
    """``UPDATE characters SET sheet, version = version + 1 WHERE id = :id AND version = :v``."""
    sheet = plain(sheet)
    stamp = now()
    result = session.execute(
        update(Character)
        .where(Character.id == character.id, Character.version == character.version)
        .values(sheet=sheet, version=character.version + 1, updated_at=stamp)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        raise StaleSheet(character.id)
    set_committed_value(character, "sheet", sheet)
    set_committed_value(character, "version", character.version + 1)
    set_committed_value(character, "updated_at", stamp)


def append_entry(session: Session, chronicle: Chronicle, *, kind: str, actor: dict, visibility: str,
                 receipt: dict, character_id: int | None = None, refers_to: int | None = None,
                 effects: list | None = None) -> LogEntry:
    """Append one entry to a chronicle's log. The caller holds the chronicle's lock."""
    last = session.execute(
        select(LogEntry.seq, LogEntry.entry_hash).where(LogEntry.chronicle_id == chronicle.id)
        .order_by(LogEntry.seq.desc()).limit(1)
    ).first()
    seq = last.seq + 1 if last else 1
    prev_hash = last.entry_hash if last else GENESIS_HASH
    created_at = now()
    actor = plain(actor)
    receipt = plain(receipt)
    digest = entry_hash(chronicle=chronicle.id, seq=seq, prev_hash=prev_hash, created_at=created_at, kind=kind,
                        actor=actor, visibility=visibility, receipt=receipt)
    entry = LogEntry(
        chronicle_id=chronicle.id, seq=seq, prev_hash=prev_hash, entry_hash=digest, created_at=created_at,
        kind=kind, actor=actor, visibility=visibility, receipt=receipt, character_id=character_id,
        refers_to=refers_to, effects=plain(list(effects or [])),
    )
    session.add(entry)
    session.flush()
    session.info.setdefault("chronicles", set()).add(chronicle.id)
    return entry


def actor_of(member: Member, character: Character | None = None) -> dict:
    return {"member": member.id, "name": member.name, "role": member.role,
            "character": character.id if character is not None else None}


def reject_faces(value: Any, path: str = "action") -> None:
    """V5-13: a client never sends faces for an online roll, anywhere in its request."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(key, str) and (key == "faces" or key.endswith("_faces")):
                raise ProblemError(422, "faces_not_allowed", field=f"{path}.{key}")
            reject_faces(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            reject_faces(inner, f"{path}[{index}]")


def _rule(call: Callable[[], T]) -> T:
    """Call the game logic; its refusals propagate as RuleError (mapped to 409/422 by the API)."""
    try:
        return call()
    except ModuleNotFoundError as missing:  # a system whose game logic is not installed yet
        if not (missing.name or "").startswith("rollbook.play"):
            raise
        raise ProblemError(503, "system_unavailable", system=missing.name) from None


# --- chronicles and people --------------------------------------------------------------------

def _check_choice(field: str, value: str, choices) -> None:
    if value not in choices:
        raise RuleError("bad_choice", field=field, value=value, choices=list(choices))


def _check_name(name: Any) -> None:
    if not isinstance(name, str) or not name.strip():
        raise RuleError("blank_text", field="name")


def _check_difficulty(system: str, difficulty: int | None) -> None:
    if difficulty is None:
        return
    if system not in DIFFICULTY_SYSTEMS:
        raise RuleError("field_not_for_system", field="difficulty", system=system)
    low, high = DIFFICULTY_SYSTEMS[system]
    check_range("difficulty", difficulty, low, high)


def create_chronicle(session: Session, *, name: str, system: str, mode: str = "strict", language: str = "en",
                     storyteller: str = "Storyteller", difficulty: int | None = None) -> dict:
    """A new chronicle; its creator is the Storyteller. Returns the token and the invitation code
    (shown once: only their hashes are stored)."""
    _check_name(name)
    _check_name(storyteller)
    _check_choice("system", system, system_ids())
    _check_choice("mode", mode, MODES)
    _check_choice("language", language, LANGUAGES)
    _check_difficulty(system, difficulty)
    invitation = auth.new_invitation()
    stamp = now()
    chronicle = Chronicle(name=name, system=system, mode=mode, language=language, difficulty=difficulty,
                          invitation_hash=auth.digest(invitation), created_at=stamp)
    session.add(chronicle)
    session.flush()
    token = auth.new_token()
    member = Member(chronicle_id=chronicle.id, name=storyteller, role=STORYTELLER, token_hash=auth.digest(token),
                    created_at=stamp)
    session.add(member)
    session.flush()
    return {"chronicle": chronicle_view(chronicle), "member": member_view(member), "token": token,
            "invitation": invitation}


def join(session: Session, *, invitation: str, name: str) -> dict:
    """A player joins with the invitation code and gets their own token."""
    _check_name(name)
    chronicle = session.scalars(select(Chronicle).where(Chronicle.invitation_hash == auth.digest(invitation))).first()
    if chronicle is None:
        raise ProblemError(404, "invitation_invalid")
    token = auth.new_token()
    member = Member(chronicle_id=chronicle.id, name=name, role=PLAYER, token_hash=auth.digest(token), created_at=now())
    session.add(member)
    session.flush()
    return {"chronicle": chronicle_view(chronicle), "member": member_view(member), "token": token}


def new_invitation(session: Session, member: Member) -> dict:
    """The Storyteller replaces the invitation code (the old one stops working)."""
    require_storyteller(member, "new_invitation")
    chronicle = lock_chronicle(session, member.chronicle_id)
    invitation = auth.new_invitation()
    chronicle.invitation_hash = auth.digest(invitation)
    session.flush()
    return {"chronicle": chronicle_view(chronicle), "invitation": invitation}


def whoami(session: Session, member: Member) -> dict:
    return {"member": member_view(member), "chronicle": chronicle_view(get_chronicle(session, member))}


def chronicle_info(session: Session, member: Member, chronicle_id: int | None = None) -> dict:
    chronicle = get_chronicle(session, member, chronicle_id)
    head = session.execute(
        select(LogEntry.seq, LogEntry.entry_hash).where(LogEntry.chronicle_id == chronicle.id)
        .order_by(LogEntry.seq.desc()).limit(1)
    ).first()
    view = chronicle_view(chronicle)
    view["log_head"] = {"seq": head.seq, "entry_hash": head.entry_hash} if head else {"seq": 0, "entry_hash": GENESIS_HASH}
    return view


def update_chronicle(session: Session, member: Member, *, name: str = _UNSET, mode: str = _UNSET,
                     language: str = _UNSET, difficulty: int | None = _UNSET) -> dict:
    """The Storyteller renames the chronicle, switches mode or language, or sets the standing difficulty
    (``None`` clears it)."""
    require_storyteller(member, "update_chronicle")
    chronicle = lock_chronicle(session, member.chronicle_id)
    if name is not _UNSET:
        _check_name(name)
        chronicle.name = name
    if mode is not _UNSET:
        _check_choice("mode", mode, MODES)
        chronicle.mode = mode
    if language is not _UNSET:
        _check_choice("language", language, LANGUAGES)
        chronicle.language = language
    if difficulty is not _UNSET:
        _check_difficulty(chronicle.system, difficulty)
        chronicle.difficulty = difficulty
    session.flush()
    return chronicle_view(chronicle)


def list_members(session: Session, member: Member) -> list[dict]:
    rows = session.scalars(select(Member).where(Member.chronicle_id == member.chronicle_id).order_by(Member.id))
    return [member_view(row) for row in rows]


# --- characters -------------------------------------------------------------------------------

def add_character(session: Session, member: Member, *, name: str, sheet: dict, owner: int | None = _UNSET,
                  difficulty: int | None = None) -> dict:
    """A player adds a character for themselves; the Storyteller for anyone (``owner``) or an NPC
    (``owner=None``). The sheet is validated by the game logic."""
    _check_name(name)
    chronicle = lock_chronicle(session, member.chronicle_id)
    if member.role != STORYTELLER:
        if owner not in (_UNSET, None, member.id):
            raise ProblemError(403, "storyteller_only", action="owner", role=member.role)
        if difficulty is not None:
            raise ProblemError(403, "storyteller_only", action="difficulty", role=member.role)
        owner = member.id
    elif owner is _UNSET:
        owner = None
    if owner is not None:
        found = session.scalars(select(Member).where(Member.id == owner, Member.chronicle_id == chronicle.id)).first()
        if found is None:
            raise ProblemError(404, "member_not_found", member=owner)
    _check_difficulty(chronicle.system, difficulty)
    sheet = {"name": name, **copy.deepcopy(sheet)}  # the sheet's own name defaults to the character's
    validated = _rule(lambda: play().new_sheet(chronicle.system, sheet))
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


def get_character(session: Session, member: Member, character_id: int) -> dict:
    character = session.scalars(
        select(Character).where(Character.id == character_id, Character.chronicle_id == member.chronicle_id)
    ).first()
    if character is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    may_act_for(member, character)
    return character_view(character)


def edit_character(session: Session, member: Member, character_id: int, *, patch: dict | None = None,
                   name: str = _UNSET, difficulty: int | None = _UNSET, owner: int | None = _UNSET,
                   version: int | None = None) -> dict:
    """Edit a sheet (the game logic decides what each role may change), rename, or — Storyteller
    only — set the character's standing difficulty or owner. ``version``: refuse if the sheet moved."""
    chronicle = lock_chronicle(session, member.chronicle_id)
    character = lock_character(session, member, character_id)
    may_act_for(member, character)
    if version is not None and version != character.version:
        raise ProblemError(409, "version_conflict", current=character.version, given=version)
    if member.role != STORYTELLER and (difficulty is not _UNSET or owner is not _UNSET):
        raise ProblemError(403, "storyteller_only", action="difficulty" if difficulty is not _UNSET else "owner",
                           role=member.role)
    if patch:
        edited = _rule(lambda: play().edit_sheet(chronicle.system, copy.deepcopy(character.sheet),
                                                 copy.deepcopy(patch), role=member.role))
        save_sheet(session, character, edited)
    if name is not _UNSET:
        _check_name(name)
        character.name = name
    if difficulty is not _UNSET:
        _check_difficulty(chronicle.system, difficulty)
        character.difficulty = difficulty
    if owner is not _UNSET:
        if owner is not None and session.scalars(
            select(Member).where(Member.id == owner, Member.chronicle_id == chronicle.id)
        ).first() is None:
            raise ProblemError(404, "member_not_found", member=owner)
        character.owner_id = owner
    if name is not _UNSET or difficulty is not _UNSET or owner is not _UNSET:
        if not patch:  # a change outside the sheet still moves the version
            save_sheet(session, character, character.sheet)
        session.flush()
    return character_view(character)


# --- rolls ------------------------------------------------------------------------------------

def standing_difficulty(chronicle: Chronicle, character: Character) -> int | None:
    return character.difficulty if character.difficulty is not None else chronicle.difficulty


def apply_standing_difficulty(chronicle: Chronicle, character: Character, action: dict, role: str) -> dict:
    """The Storyteller's standing difficulty (the character's, else the chronicle's) is the
    difficulty of a player's roll; a player asking for another one is refused. The Storyteller
    may name any difficulty; when they name none the standing one applies."""
    standing = standing_difficulty(chronicle, character)
    if standing is None or chronicle.system not in DIFFICULTY_SYSTEMS:
        return action
    if action.get("kind") not in DIFFICULTY_KINDS[chronicle.system]:
        return action  # e.g. a Rouse check or a soak roll: no difficulty to set
    if "difficulty" in action:
        if role != STORYTELLER and action["difficulty"] != standing:
            raise ProblemError(403, "difficulty_locked", difficulty=standing)
        return action
    return {**action, "difficulty": standing}


def _dice(source: DiceSource | None) -> DiceSource:
    return SecureDice() if source is None else source


def _performed_parts(performed) -> tuple[dict, dict | None, list]:
    sheet = performed.sheet
    receipt = performed.receipt
    effects = [plain(effect) for effect in (performed.effects or ())]
    return sheet, receipt, effects


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
    action = apply_standing_difficulty(chronicle, character, copy.deepcopy(action), member.role)
    performed = _rule(lambda: play().perform(chronicle.system, copy.deepcopy(character.sheet), action,
                                             mode=chronicle.mode, role=member.role, source=_dice(source)))
    sheet, receipt, effects = _performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    entry = append_entry(session, chronicle, kind="roll", actor=actor_of(member, character),
                         visibility="hidden" if hidden else "public", receipt=receipt or {},
                         character_id=character.id, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}


def _entry(session: Session, member: Member, seq: int) -> LogEntry:
    entry = session.scalars(
        select(LogEntry).where(LogEntry.chronicle_id == member.chronicle_id, LogEntry.seq == seq)
    ).first()
    if entry is None:
        raise ProblemError(404, "entry_not_found", seq=seq)
    return entry


def _followed_by(session: Session, chronicle_id: int, seq: int, kind: str) -> int | None:
    return session.scalars(
        select(func.min(LogEntry.seq)).where(LogEntry.chronicle_id == chronicle_id, LogEntry.refers_to == seq,
                                             LogEntry.kind == kind)
    ).first()


def reroll(session: Session, member: Member, seq: int, action: dict, *, source: DiceSource | None = None) -> dict:
    """A follow-up on a stored receipt (V5 Willpower reroll, V5-8): the latest receipt of a roll only;
    the game logic refuses what its rules refuse (a card played after the roll, R-6). The new dice
    come from ``source`` (default ``SecureDice()``)."""
    reject_faces(action)
    chronicle = lock_chronicle(session, member.chronicle_id)
    original = _entry(session, member, seq)
    if original.visibility == "hidden" and member.role != STORYTELLER:
        raise ProblemError(404, "entry_not_found", seq=seq)
    if original.kind not in ROLL_KINDS or original.character_id is None:
        raise ProblemError(409, "not_a_roll", seq=seq)
    later = _followed_by(session, chronicle.id, seq, "reroll")
    if later is not None:
        raise ProblemError(409, "roll_finished", seq=seq, by=later)
    character = lock_character(session, member, original.character_id)
    may_act_for(member, character)
    performed = _rule(lambda: play().perform_followup(
        chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(original.receipt), copy.deepcopy(action),
        mode=chronicle.mode, role=member.role, source=_dice(source)))
    sheet, receipt, effects = _performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    entry = append_entry(session, chronicle, kind="reroll", actor=actor_of(member, character),
                         visibility=original.visibility, receipt=receipt or {}, character_id=character.id,
                         refers_to=seq, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}


def adjust(session: Session, member: Member, character_id: int, change: dict) -> dict:
    """Resources and experience: the Storyteller restores, grants and awards; a player spends
    experience, reloads, … (the game logic decides what each role may do). Logged publicly."""
    reject_faces(change, "change")
    chronicle = lock_chronicle(session, member.chronicle_id)
    character = lock_character(session, member, character_id)
    may_act_for(member, character)
    performed = _rule(lambda: play().adjust(chronicle.system, copy.deepcopy(character.sheet), copy.deepcopy(change),
                                            role=member.role))
    sheet, receipt, effects = _performed_parts(performed)
    if plain(sheet) != character.sheet:
        save_sheet(session, character, sheet)
    payload = receipt if isinstance(receipt, dict) and isinstance(receipt.get("system"), str) else {
        "change": change, "effects": effects, **({"result": receipt} if receipt else {})}
    entry = append_entry(session, chronicle, kind="adjust", actor=actor_of(member, character), visibility="public",
                         receipt=payload, character_id=character.id, effects=effects)
    return {"entry": entry_view(entry, member), "character": character_view(character), "effects": effects}


def reveal(session: Session, member: Member, seq: int) -> dict:
    """The Storyteller reveals a hidden roll: a new public entry referencing it (never an update)."""
    require_storyteller(member, "reveal")
    chronicle = lock_chronicle(session, member.chronicle_id)
    target = _entry(session, member, seq)
    if target.visibility != "hidden":
        raise ProblemError(409, "not_hidden", seq=seq)
    earlier = _followed_by(session, chronicle.id, seq, "reveal")
    if earlier is not None:
        raise ProblemError(409, "already_revealed", seq=seq, by=earlier)
    entry = append_entry(session, chronicle, kind="reveal", actor=actor_of(member), visibility="public",
                         receipt={"reveals": seq, "entry_hash": target.entry_hash},
                         character_id=target.character_id, refers_to=seq)
    return {"entry": entry_view(entry, member), "revealed": entry_view(target, member, {seq: entry.seq})}


# --- reading the log --------------------------------------------------------------------------

def _revealed(session: Session, chronicle_id: int, seqs: list[int]) -> dict[int, int]:
    if not seqs:
        return {}
    rows = session.execute(
        select(LogEntry.refers_to, func.min(LogEntry.seq)).where(
            LogEntry.chronicle_id == chronicle_id, LogEntry.kind == "reveal", LogEntry.refers_to.in_(seqs)
        ).group_by(LogEntry.refers_to)
    )
    return {refers: by for refers, by in rows}


def entries_after(session: Session, member: Member, after: int = 0, limit: int = 100) -> list[dict]:
    rows = list(session.scalars(
        select(LogEntry).where(LogEntry.chronicle_id == member.chronicle_id, LogEntry.seq > after)
        .order_by(LogEntry.seq).limit(limit)
    ))
    revealed = _revealed(session, member.chronicle_id, [row.seq for row in rows if row.visibility == "hidden"])
    return [entry_view(row, member, revealed) for row in rows]


def log_page(session: Session, member: Member, *, after: int = 0, limit: int = 100) -> dict:
    """Entries with seq > ``after``, oldest first; ``next`` is the ``after`` of the next page (None at the end)."""
    entries = entries_after(session, member, after, limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    head = chronicle_info(session, member)["log_head"]
    return {"entries": entries, "next": entries[-1]["seq"] if more else None, "head": head}


def log_entry(session: Session, member: Member, seq: int) -> dict:
    entry = _entry(session, member, seq)
    return entry_view(entry, member, _revealed(session, member.chronicle_id, [seq]))


def export_lines(session: Session, member: Member, batch: int = 500) -> Iterator[str]:
    """The whole log as JSON Lines (what ``rollbook log verify`` reads), in seq order."""
    after = 0
    while True:
        entries = entries_after(session, member, after, batch)
        for entry in entries:
            entry.pop("revealed_by", None)
            yield json.dumps(entry, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
        if len(entries) < batch:
            return
        after = entries[-1]["seq"]
