"""The home page: create a chronicle, join one with its invitation, sign in with a token, sign out."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from rollbook.present import forms, labels
from rollbook.rules.base import RuleError
from rollbook.server import auth, tx
from rollbook.server.auth import COOKIE_NAME
from rollbook.server.deps import database
from rollbook.server.ratelimit import spend_signin
from rollbook.server.usecases import chronicles, solo
from rollbook.web import keychain
from rollbook.web.deps import Db, Posted, VisitorLang, page_router
from rollbook.web.errors import alert_into
from rollbook.web.respond import INVITATION_COOKIE, LANG_COOKIE, page, see_other, with_invitation

router = page_router()

SYSTEM_ORDER = ("v5", "v20", "tiers", "rollunder")


def home_page(
    request: Request,
    lang: str,
    *,
    held=None,
    errors=None,
    values=None,
    status: int = 200,
    invitation: str = "",
    db=None,
) -> HTMLResponse:
    """The home page (``db``: the page's one read, where ``held`` was read)."""
    systems = sorted(
        chronicles.system_ids(),
        key=lambda s: SYSTEM_ORDER.index(s) if s in SYSTEM_ORDER else len(SYSTEM_ORDER),
    )
    held = held or []
    alone: set[int] = set()
    if held:  # a solo chronicle's link opens its solo table, at the passage reached (S-5)
        with (db or database(request)).read() as session:
            alone = solo.solo_chronicles(session, [member.chronicle_id for member, _ in held])
    return page(
        request,
        "home.html",
        lang,
        status=status,
        held=held,
        alone=alone,
        systems=[(s, labels.system_name(s, lang)) for s in systems],
        errors=errors or {},
        values=values or {},
        invitation_link=invitation,
    )


def _refusals_on_home(request: Request, form_id: str, lang: str, form: dict | None = None) -> None:
    alert_into(request, form_id, lang, lambda errors: home_page(request, lang, errors=errors, values=form))


@router.get("/", response_class=HTMLResponse)
def home(request: Request, db: Db, lang: VisitorLang) -> Response:
    """The home page: every chronicle this browser holds (the keychain), then create, join, sign in;
    drawn from one read."""
    with db.one_read() as db:
        return home_page(request, lang, held=keychain.members(db, request), db=db)


@router.get("/join", response_class=HTMLResponse)
def join_link(request: Request, db: Db, lang: VisitorLang) -> Response:
    """An invitation link, ``/join#CODE``: the code rides in the fragment, which the browser never
    sends, so no access log records it; the page's script fills the join form
    from it (``static/table.js``), then a name and one tap. Drawn from one read."""
    with db.one_read() as db:
        return home_page(request, lang, held=keychain.members(db, request), invitation="#", db=db)


@router.get("/join/{invitation}", response_class=HTMLResponse)
def invitation_link(request: Request, invitation: str, db: Db, lang: VisitorLang) -> Response:
    """An older invitation link (the code in the path, so in an access log's line): still answered so
    links sent before ``/join#CODE`` keep working; no page makes one any more. Drawn from one read."""
    with db.one_read() as db:
        return home_page(
            request,
            lang,
            held=keychain.members(db, request),
            values={"invitation": invitation},
            invitation=invitation,
            db=db,
        )


def _with_session(session, token: str) -> dict:
    member, opened = keychain.session_for(session, token)
    return {"chronicle_id": member.chronicle_id, "session": opened}


@router.post("/chronicles")
def create_chronicle(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "create", lang, form)
    difficulty = forms.int_field(form, "difficulty")

    def work(s):
        created = chronicles.create_chronicle(
            s,
            name=str(form.get("name", "")).strip() or "—",
            system=str(form.get("system", "")),
            mode=str(form.get("mode", "strict")),
            language=str(form.get("language", lang)),
            storyteller=str(form.get("storyteller", "")).strip() or "Storyteller",
            difficulty=difficulty,
        )
        return {**created, **_with_session(s, created["token"])}

    created = tx.run(db, work)
    cid = created["chronicle"]["id"]
    response = see_other(f"/chronicles/{cid}")
    with_invitation(request, response, created["invitation"], cid)
    keychain.show_new_key(request, response, cid, created["token"])
    return keychain.add(request, response, cid, created["session"])


@router.post("/join")
def join(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "join", lang, form)
    spend_signin(request, str(form.get("invitation", "")).strip())  # 429 beyond the budgets
    name = str(form.get("name", "")).strip()
    if not name:
        raise RuleError("missing_field", field="name")

    def work(s):
        joined = chronicles.join(s, invitation=str(form.get("invitation", "")).strip(), name=name)
        return {**joined, **_with_session(s, joined["token"])}

    joined = tx.run(db, work)
    cid = joined["chronicle"]["id"]
    response = see_other(f"/chronicles/{cid}")
    keychain.show_new_key(request, response, cid, joined["token"])
    return keychain.add(request, response, cid, joined["session"])


@router.post("/signin")
def signin(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "signin", lang)
    token = str(form.get("token", "")).strip()
    spend_signin(request, token)  # 429 beyond the budgets
    opened = tx.run(db, lambda s: _with_session(s, token))
    return keychain.add(
        request, see_other(f"/chronicles/{opened['chronicle_id']}"), opened["chronicle_id"], opened["session"]
    )


@router.post("/signout")
def signout(request: Request, db: Db) -> Response:
    """Leave this browser: every session it holds is closed on the server and every cookie the server
    set is cleared: the single token, the keychain, and each chronicle's shown key
    and invitation (path-scoped cookies this request does not carry, so each chronicle's path is named).
    No ``Clear-Site-Data``: it would clear the cookies of every site under the same registrable domain."""
    held = keychain.read(request)
    old_token = keychain.legacy(request)
    tokens = [*held.values(), *([old_token] if old_token else [])]

    def work(s):
        chronicle_ids = set(held)
        for token in tokens:
            member = auth.authenticate(s, token)
            if member is not None:
                chronicle_ids.add(member.chronicle_id)
            keychain.close(s, token)
        return {"chronicles": sorted(chronicle_ids)}

    left = tx.run(db, work)
    response = see_other("/")
    response.delete_cookie(COOKIE_NAME, path="/")
    response.delete_cookie(keychain.KEYS_COOKIE, path="/")
    response.delete_cookie(LANG_COOKIE, path="/")
    for chronicle_id in left["chronicles"]:
        keychain.key_saved(response, chronicle_id)
        response.delete_cookie(INVITATION_COOKIE, path=f"/chronicles/{chronicle_id}")
    return response


@router.post("/chronicles/{chronicle_id}/signout")
def signout_of(request: Request, chronicle_id: int, db: Db) -> Response:
    """Sign out of one chronicle: its session closed on the server; the others stay open."""
    token = keychain.token_for(request, chronicle_id)
    if token is not None:

        def close(s: Session) -> dict[str, object]:
            keychain.close(s, token)
            return {}

        tx.run(db, close)
    response = keychain.drop(request, see_other("/"), chronicle_id)
    keychain.key_saved(response, chronicle_id)
    return response
