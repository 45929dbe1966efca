"""Answering a page request: the reader's language, whole pages and htmx fragments, redirects, cookies.

A page is rendered in the reader's language: ``?lang=`` (remembered in the ``rollbook_lang``
cookie), then that cookie, then the chronicle's language, then ``Accept-Language``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from rollbook.i18n import GAME_MASTER_SYSTEMS, LANGUAGES, game_master_words, normalize
from rollbook.server.problems import pick_language
from rollbook.web.templating import render

LANG_COOKIE = "rollbook_lang"
INVITATION_COOKIE = "rollbook_invitation"
YEAR = 365 * 24 * 3600


class FieldMessage(str):
    """A refusal's sentence that knows the field it is about (``field``: the problem's path, e.g.
    ``name``, ``disciplines.obfuscate``): the page puts it next to that field and focuses it."""

    field: str = ""


def lang_of(request: Request, chronicle_language: str | None = None) -> str:
    """``?lang=``, then the ``rollbook_lang`` cookie (the reader's own choice), then ``Accept-Language``
    when it names one of en, fr, es (the reader's browser), then the chronicle's language, then en.
    The reader's language wins on their own screen over the chronicle's."""
    asked = request.query_params.get("lang")
    if asked and asked.lower()[:2] in LANGUAGES:
        return normalize(asked)
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    header = request.headers.get("accept-language")
    if header and any(part.strip().lower()[:2] in LANGUAGES for part in header.split(",")):
        return pick_language(None, header)
    if chronicle_language in LANGUAGES:
        return chronicle_language
    return "en"


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _lang_links(request: Request) -> dict[str, str]:
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    return {code: request.url.path + "?" + urlencode({**params, "lang": code}) for code in LANGUAGES}


def _game_master(request: Request, lang: str, context: dict[str, Any]) -> bool:
    """A page of a Tiers or roll-under chronicle says "MJ" / "DJ": its templates' texts,
    and the refusal's sentence the page shows (``message``, ``odds_error``)."""
    if getattr(request.state, "rollbook_system", None) not in GAME_MASTER_SYSTEMS:
        return False
    for key in ("message", "odds_error"):
        said = context.get(key)
        if isinstance(said, str):
            words = game_master_words(said, lang)
            if isinstance(said, FieldMessage) and said.field:  # a refusal that names its field keeps it
                kept = type(said)(words)
                kept.field = said.field
                words = kept
            context[key] = words
    return True


def page(request: Request, template: str, lang: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("member", getattr(request.state, "rollbook_member", None))
    game_master = _game_master(request, lang, context)
    body = render(
        template,
        lang,
        game_master,
        request=request,
        path=request.url.path,
        lang_links=_lang_links(request),
        htmx=is_htmx(request),
        **context,
    )
    response = HTMLResponse(body, status_code=status)
    asked = request.query_params.get("lang")
    if asked and asked.lower()[:2] in LANGUAGES:
        response.set_cookie(LANG_COOKIE, asked.lower()[:2], max_age=YEAR, samesite="lax", path="/")
    return response


def fragment(
    request: Request,
    template: str,
    lang: str,
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    body = render(template, lang, _game_master(request, lang, context), request=request, htmx=True, **context)
    return HTMLResponse(body, status_code=status, headers=headers)


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def with_invitation(request: Request, response: Response, invitation: str, chronicle_id: int) -> Response:
    """The invitation code, shown to the Storyteller on that chronicle's pages only."""
    from rollbook.web.guard import cookie_secure

    response.set_cookie(
        INVITATION_COOKIE,
        invitation,
        max_age=YEAR,
        httponly=True,
        samesite="lax",
        path=f"/chronicles/{chronicle_id}",
        secure=cookie_secure(request),
    )
    return response
