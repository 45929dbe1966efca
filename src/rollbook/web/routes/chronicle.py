"""The chronicle's page (the table: members, characters, the feed), its settings, its invitation."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.server import tx
from rollbook.server.access import STORYTELLER
from rollbook.server.models import Member
from rollbook.server.usecases import chronicles
from rollbook.server.usecases import members as member_cases
from rollbook.web import authority, forms, keychain, labels, table
from rollbook.web.deps import Db, Lang, Posted, Reader, page_router
from rollbook.web.errors import alert_into
from rollbook.web.respond import INVITATION_COOKIE, page, see_other, with_invitation

router = page_router()


def chronicle_page(request: Request, db, member: Member, lang: str, *, errors=None, values=None,
                   status: int = 200) -> HTMLResponse:
    state = table.load(db, member, lang)
    return page(request, "chronicle.html", lang, status=status, t=state, me=state.me, errors=errors or {},
                values=values or {}, invitation=request.cookies.get(INVITATION_COOKIE)
                if member.role == STORYTELLER else None, new_key=keychain.new_key(request),
                base_url=str(request.base_url).rstrip("/"),
                system_name=labels.system_name(state.chronicle["system"], lang),
                p=authority.panel(db, member, lang, state.chronicle, state.characters, state.members),
                fs=table.fair_state(db, member))


@router.get("/chronicles/{chronicle_id}", response_class=HTMLResponse)
def chronicle(request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang) -> Response:
    return chronicle_page(request, db, member, lang)


@router.post("/chronicles/{chronicle_id}/settings")
def chronicle_settings(request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang,
                       form: Posted) -> Response:
    alert_into(request, "settings", lang,
               lambda errors: chronicle_page(request, db, member, lang, errors=errors, values=form))
    changes: dict[str, Any] = {"difficulty": forms.int_field(form, "difficulty")}
    if form.get("mode"):
        changes["mode"] = str(form["mode"])
    if form.get("language"):
        changes["language"] = str(form["language"])
    if str(form.get("name", "")).strip():
        changes["name"] = str(form["name"]).strip()
    tx.run(db, lambda s: chronicles.update_chronicle(s, member, **changes))
    return see_other(f"/chronicles/{chronicle_id}")


@router.post("/chronicles/{chronicle_id}/invitation")
def new_invitation(chronicle_id: int, db: Db, member: Reader) -> Response:
    created = tx.run(db, lambda s: chronicles.new_invitation(s, member))
    return with_invitation(see_other(f"/chronicles/{chronicle_id}#invitation"), created["invitation"], chronicle_id)


@router.post("/chronicles/{chronicle_id}/key-saved")
def key_saved(chronicle_id: int, member: Reader) -> Response:
    """The member saved their access key: it is no longer shown."""
    return keychain.key_saved(see_other(f"/chronicles/{chronicle_id}#key-title"), chronicle_id)


@router.post("/chronicles/{chronicle_id}/key")
def new_key(request: Request, chronicle_id: int, db: Db, member: Reader) -> Response:
    """A new access key (every older key and session is revoked, this browser's session renewed)."""
    def work(s):
        key = member_cases.rotate_key(s, member)["token"]
        return {"key": key, "session": keychain.session_for(s, key)[1]}

    made = tx.run(db, work)
    response = see_other(f"/chronicles/{chronicle_id}#key-title")
    keychain.show_new_key(response, chronicle_id, made["key"])
    return keychain.add(request, response, chronicle_id, made["session"])


@router.post("/chronicles/{chronicle_id}/members/{member_id}/remove")
def remove_member(request: Request, chronicle_id: int, member_id: int, db: Db, member: Reader, lang: Lang) -> Response:
    """The Storyteller removes a member: their keys and sessions revoked, logged."""
    alert_into(request, "people", lang, lambda errors: chronicle_page(request, db, member, lang, errors=errors))
    tx.run(db, lambda s: member_cases.remove_member(s, member, member_id))
    return see_other(f"/chronicles/{chronicle_id}")
