"""Chronicles and the people in them: create, join, invitations, settings, members.

A-5: whatever a receipt's baseline depends on — the chronicle's mode, its standing difficulty, its
table rules (TR-1), a character's standing difficulty — changes only through a ``settings`` entry of
the log made by the Storyteller (``log_settings``), so ``rollbook log verify`` reads the baseline in
force from the log (``server.baselines``). A chronicle created with the defaults (strict, no
standing difficulty, no table rules) logs nothing at creation: the verifier starts from them."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.entries import SettingsReceipt
from rollbook.i18n import LANGUAGES
from rollbook.rules.base import RuleError
from rollbook.rules.table import check_table_rules
from rollbook.server import auth
from rollbook.server.access import PLAYER, STORYTELLER, find_chronicle, lock_chronicle, require_storyteller
from rollbook.server.models import Caller, Character, Chronicle, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry, log_head
from rollbook.server.tx import now
from rollbook.server.usecases.checks import (
    MODES,
    UNSET,
    check_choice,
    check_difficulty,
    check_name,
)
from rollbook.server.views import chronicle_view, member_view


def system_ids() -> list[str]:
    """The game systems a chronicle can use."""
    return sorted(play.system_ids())


SETTINGS = "settings"  # the log entry that changes a baseline's settings
DEFAULT_SETTINGS: dict[str, object] = {
    "mode": "strict",
    "difficulty": None,
    "table_rules": [],
}  # what a log starts from


def settings_of(chronicle: Chronicle) -> dict:
    """The chronicle's settings a receipt's baseline depends on (A-5)."""
    return {
        "mode": chronicle.mode,
        "difficulty": chronicle.difficulty,
        "table_rules": list(chronicle.table_rules or []),
    }


def log_settings(
    session: Session,
    chronicle: Chronicle,
    storyteller: Caller,
    changed: list[str],
    character: Character | None = None,
) -> None:
    """A-5: the Storyteller's ``settings`` entry — the chronicle's settings in force after the change
    (or, with ``character``, that character's standing difficulty) and what changed."""
    if character is None:
        receipt = SettingsReceipt(**settings_of(chronicle), changed=changed)
    else:
        receipt = SettingsReceipt(character=character.id, difficulty=character.difficulty, changed=changed)
    append_entry(
        session,
        chronicle,
        kind=SETTINGS,
        actor=actor_of(storyteller),
        visibility="public",
        receipt=receipt,
        character_id=None if character is None else character.id,
    )


def checked_table_rules(system: str, table_rules: object) -> list[str]:
    """TR-1: the canonical list of table rules for a chronicle of ``system`` (422 on an unknown id)."""
    try:
        return list(check_table_rules(system, table_rules))
    except RuleError as refused:
        raise ProblemError(422, refused.code, **refused.params) from None


def create_chronicle(
    session: Session,
    *,
    name: str,
    system: str,
    mode: str = "strict",
    language: str = "en",
    storyteller: str = "Storyteller",
    difficulty: int | None = None,
    table_rules: list[str] | tuple[str, ...] = (),
) -> dict:
    """A new chronicle; its creator is the Storyteller. Returns the token and the invitation code
    (shown once: only their hashes are stored). Settings other than the defaults are logged (A-5)."""
    check_name(name)
    check_name(storyteller)
    check_choice("system", system, system_ids())
    check_choice("mode", mode, MODES)
    check_choice("language", language, LANGUAGES)
    check_difficulty(system, difficulty)
    rules = checked_table_rules(system, table_rules)
    invitation = auth.new_invitation()
    stamp = now()
    chronicle = Chronicle(
        name=name,
        system=system,
        mode=mode,
        language=language,
        difficulty=difficulty,
        table_rules=rules,
        invitation_hash=auth.digest(invitation),
        created_at=stamp,
    )
    session.add(chronicle)
    session.flush()
    member = Member(chronicle_id=chronicle.id, name=storyteller, role=STORYTELLER, created_at=stamp)
    session.add(member)
    session.flush()
    changed = [key for key, value in settings_of(chronicle).items() if value != DEFAULT_SETTINGS[key]]
    if changed:  # the log starts from the defaults; anything else is said in it
        log_settings(session, chronicle, member, changed)
    token = auth.issue(session, member, auth.KEY)["token"]
    return {
        "chronicle": chronicle_view(chronicle),
        "member": member_view(member),
        "token": token,
        "invitation": invitation,
    }


def join(session: Session, *, invitation: str, name: str) -> dict:
    """A player joins with the invitation code and gets their own token."""
    check_name(name)
    chronicle = session.scalars(
        select(Chronicle).where(Chronicle.invitation_hash == auth.digest(invitation))
    ).first()
    if chronicle is None:
        raise ProblemError(404, "invitation_invalid")
    name = free_name(session, lock_chronicle(session, chronicle.id).id, name)
    member = Member(chronicle_id=chronicle.id, name=name, role=PLAYER, created_at=now())
    session.add(member)
    session.flush()
    token = auth.issue(session, member, auth.KEY)["token"]
    return {"chronicle": chronicle_view(chronicle), "member": member_view(member), "token": token}


def free_name(session: Session, chronicle_id: int, name: str) -> str:
    """A name no one at the table has yet: a second "Julien" joins as "Julien (2)" (names compared
    without case and extra spaces). The caller holds the chronicle's lock."""

    def folded(text: str) -> str:
        return " ".join(text.split()).casefold()

    taken = {
        folded(n) for n in session.scalars(select(Member.name).where(Member.chronicle_id == chronicle_id))
    }
    if folded(name) not in taken:
        return name
    plain_name = " ".join(name.split())
    n = 2
    while folded(f"{plain_name} ({n})") in taken:
        n += 1
    return f"{plain_name} ({n})"


def new_invitation(session: Session, member: Caller) -> dict:
    """The Storyteller replaces the invitation code (the old one stops working)."""
    require_storyteller(member, "new_invitation")
    chronicle = lock_chronicle(session, member.chronicle_id)
    invitation = auth.new_invitation()
    chronicle.invitation_hash = auth.digest(invitation)
    session.flush()
    return {"chronicle": chronicle_view(chronicle), "invitation": invitation}


def whoami(session: Session, member: Caller) -> dict:
    return {"member": member_view(member), "chronicle": chronicle_view(find_chronicle(session, member))}


def chronicle_info(session: Session, member: Caller, chronicle_id: int | None = None) -> dict:
    """The chronicle, with the head of its log (``log_head``: seq and entry_hash)."""
    return info_of(session, find_chronicle(session, member, chronicle_id))


def info_of(session: Session, chronicle: Chronicle) -> dict:
    """``chronicle_info`` of the chronicle's row as the caller read it (a page that reads more of
    the row in the same transaction: ``web.table.load``)."""
    view = chronicle_view(chronicle)
    view["log_head"] = log_head(session, chronicle.id)
    return view


def chronicle_language(session: Session, member: Caller) -> tuple[str, str]:
    """The language of the member's chronicle (the pages' default language) and its system (whose
    words the pages use: a Storyteller or a game master): two columns."""
    language, system = session.execute(
        select(Chronicle.language, Chronicle.system).where(Chronicle.id == member.chronicle_id)
    ).one()
    return language, system


def update_chronicle(
    session: Session,
    member: Caller,
    *,
    name: str = UNSET,
    mode: str = UNSET,
    language: str = UNSET,
    difficulty: int | None = UNSET,
    table_rules: list[str] = UNSET,
) -> dict:
    """The Storyteller renames the chronicle, switches mode or language, sets the standing difficulty
    (``None`` clears it) or the table rules in force (TR-1). A change of mode, standing difficulty or
    table rules is a ``settings`` entry of the log, in the same transaction (A-5)."""
    require_storyteller(member, "update_chronicle")
    chronicle = lock_chronicle(session, member.chronicle_id)
    before = settings_of(chronicle)
    if table_rules is not UNSET:
        chronicle.table_rules = checked_table_rules(chronicle.system, table_rules)
    if name is not UNSET:
        check_name(name)
        chronicle.name = name
    if mode is not UNSET:
        check_choice("mode", mode, MODES)
        chronicle.mode = mode
    if language is not UNSET:
        check_choice("language", language, LANGUAGES)
        chronicle.language = language
    if difficulty is not UNSET:
        check_difficulty(chronicle.system, difficulty)
        chronicle.difficulty = difficulty
    session.flush()
    changed = [key for key, value in settings_of(chronicle).items() if value != before[key]]
    if changed:
        log_settings(session, chronicle, member, changed)
    return chronicle_view(chronicle)


def list_members(session: Session, member: Caller) -> list[dict]:
    rows = session.scalars(
        select(Member)
        .where(Member.chronicle_id == member.chronicle_id, Member.removed_at.is_(None))
        .order_by(Member.id)
    )
    return [member_view(row) for row in rows]
