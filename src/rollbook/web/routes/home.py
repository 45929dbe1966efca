"""The home page: create a chronicle, join one with its invitation, sign in with a token, sign out."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.auth import COOKIE_NAME
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import chronicles
from rollbook.web import forms, labels
from rollbook.web.deps import Db, Posted, Visitor, VisitorLang, page_router
from rollbook.web.errors import alert_into
from rollbook.web.respond import INVITATION_COOKIE, page, see_other, with_invitation, with_token

router = page_router()

SYSTEM_ORDER = ("v5", "v20", "tiers", "rollunder")


def home_page(request: Request, lang: str, *, member=None, chronicle=None, errors=None, values=None,
              status: int = 200) -> HTMLResponse:
    systems = sorted(chronicles.system_ids(),
                     key=lambda s: SYSTEM_ORDER.index(s) if s in SYSTEM_ORDER else len(SYSTEM_ORDER))
    return page(request, "home.html", lang, status=status, member=member, chronicle=chronicle,
                systems=[(s, labels.system_name(s, lang)) for s in systems], errors=errors or {},
                values=values or {})


def _refusals_on_home(request: Request, form_id: str, lang: str, form: dict | None = None) -> None:
    alert_into(request, form_id, lang, lambda errors: home_page(request, lang, errors=errors, values=form))


@router.get("/", response_class=HTMLResponse)
def home(request: Request, db: Db, member: Visitor, lang: VisitorLang) -> Response:
    chronicle = None
    if member is not None:
        with db.read() as session:
            chronicle = chronicles.chronicle_info(session, member)
    return home_page(request, lang, member=member, chronicle=chronicle)


@router.post("/chronicles")
def create_chronicle(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "create", lang, form)
    difficulty = forms.int_field(form, "difficulty")
    created = tx.run(db, lambda s: chronicles.create_chronicle(
        s, name=str(form.get("name", "")).strip() or "—", system=str(form.get("system", "")),
        mode=str(form.get("mode", "strict")), language=str(form.get("language", lang)),
        storyteller=str(form.get("storyteller", "")).strip() or "Storyteller", difficulty=difficulty))
    response = see_other(f"/chronicles/{created['chronicle']['id']}")
    return with_token(with_invitation(response, created["invitation"]), created["token"])


@router.post("/join")
def join(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "join", lang, form)
    name = str(form.get("name", "")).strip()
    if not name:
        raise RuleError("missing_field", field="name")
    joined = tx.run(db, lambda s: chronicles.join(s, invitation=str(form.get("invitation", "")).strip(), name=name))
    response = see_other(f"/chronicles/{joined['chronicle']['id']}")
    response.delete_cookie(INVITATION_COOKIE, path="/")
    return with_token(response, joined["token"])


@router.post("/signin")
def signin(request: Request, db: Db, form: Posted, lang: VisitorLang) -> Response:
    _refusals_on_home(request, "signin", lang)
    token = str(form.get("token", "")).strip()
    with db.read() as session:
        member = chronicles.sign_in(session, token)
    if member is None:
        raise ProblemError(401, "token_invalid")
    return with_token(see_other(f"/chronicles/{member.chronicle_id}"), token)


@router.post("/signout")
def signout() -> Response:
    response = see_other("/")
    response.delete_cookie(COOKIE_NAME, path="/")
    response.delete_cookie(INVITATION_COOKIE, path="/")
    return response
