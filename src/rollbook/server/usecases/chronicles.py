"""Chronicles and the people in them: create, join, invitations, settings, members."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.server import auth
from rollbook.server.access import PLAYER, STORYTELLER, find_chronicle, lock_chronicle, require_storyteller
from rollbook.server.models import Chronicle, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import log_head
from rollbook.server.tx import now
from rollbook.server.usecases.checks import LANGUAGES, MODES, UNSET, check_choice, check_difficulty, check_name
from rollbook.server.views import chronicle_view, member_view


def system_ids() -> list[str]:
    """The game systems a chronicle can use."""
    return sorted(play.SYSTEM_IDS)


def create_chronicle(session: Session, *, name: str, system: str, mode: str = "strict", language: str = "en",
                     storyteller: str = "Storyteller", difficulty: int | None = None) -> dict:
    """A new chronicle; its creator is the Storyteller. Returns the token and the invitation code
    (shown once: only their hashes are stored)."""
    check_name(name)
    check_name(storyteller)
    check_choice("system", system, system_ids())
    check_choice("mode", mode, MODES)
    check_choice("language", language, LANGUAGES)
    check_difficulty(system, difficulty)
    invitation = auth.new_invitation()
    stamp = now()
    chronicle = Chronicle(name=name, system=system, mode=mode, language=language, difficulty=difficulty,
                          invitation_hash=auth.digest(invitation), created_at=stamp)
    session.add(chronicle)
    session.flush()
    member = Member(chronicle_id=chronicle.id, name=storyteller, role=STORYTELLER, created_at=stamp)
    session.add(member)
    session.flush()
    token = auth.issue(session, member, auth.KEY)["token"]
    return {"chronicle": chronicle_view(chronicle), "member": member_view(member), "token": token,
            "invitation": invitation}


def join(session: Session, *, invitation: str, name: str) -> dict:
    """A player joins with the invitation code and gets their own token."""
    check_name(name)
    chronicle = session.scalars(select(Chronicle).where(Chronicle.invitation_hash == auth.digest(invitation))).first()
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

    taken = {folded(n) for n in session.scalars(select(Member.name).where(Member.chronicle_id == chronicle_id))}
    if folded(name) not in taken:
        return name
    plain_name = " ".join(name.split())
    n = 2
    while folded(f"{plain_name} ({n})") in taken:
        n += 1
    return f"{plain_name} ({n})"


def sign_in(session: Session, token: str) -> Member | None:
    """The member a bearer token opens (``None``: it opens nothing)."""
    return auth.authenticate(session, token)


def new_invitation(session: Session, member: Member) -> dict:
    """The Storyteller replaces the invitation code (the old one stops working)."""
    require_storyteller(member, "new_invitation")
    chronicle = lock_chronicle(session, member.chronicle_id)
    invitation = auth.new_invitation()
    chronicle.invitation_hash = auth.digest(invitation)
    session.flush()
    return {"chronicle": chronicle_view(chronicle), "invitation": invitation}


def whoami(session: Session, member: Member) -> dict:
    return {"member": member_view(member), "chronicle": chronicle_view(find_chronicle(session, member))}


def chronicle_info(session: Session, member: Member, chronicle_id: int | None = None) -> dict:
    """The chronicle, with the head of its log (``log_head``: seq and entry_hash)."""
    chronicle = find_chronicle(session, member, chronicle_id)
    view = chronicle_view(chronicle)
    view["log_head"] = log_head(session, chronicle.id)
    return view


def chronicle_language(session: Session, member: Member) -> str:
    """The language of the member's chronicle (one column: the pages' default language)."""
    return session.scalars(select(Chronicle.language).where(Chronicle.id == member.chronicle_id)).one()


def update_chronicle(session: Session, member: Member, *, name: str = UNSET, mode: str = UNSET,
                     language: str = UNSET, difficulty: int | None = UNSET) -> dict:
    """The Storyteller renames the chronicle, switches mode or language, or sets the standing difficulty
    (``None`` clears it)."""
    require_storyteller(member, "update_chronicle")
    chronicle = lock_chronicle(session, member.chronicle_id)
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
    return chronicle_view(chronicle)


def list_members(session: Session, member: Member) -> list[dict]:
    rows = session.scalars(select(Member).where(Member.chronicle_id == member.chronicle_id,
                                                Member.removed_at.is_(None)).order_by(Member.id))
    return [member_view(row) for row in rows]
