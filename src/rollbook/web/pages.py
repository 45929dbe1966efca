"""The pages of the web table (server-rendered, made live with htmx and server-sent events).

Every route reads or changes state through the server's use cases (``rollbook.server.usecases``)
in one transaction (``Database.read()`` / ``tx.run``), so nothing lives in the browser: a reload re-renders
everything from the server. Forms work without JavaScript (POST, then a 303 redirect); with htmx
the same routes answer fragments: the new receipt goes on top of the feed and the sheet's
resources are swapped out of band. A refusal is the server's problem ``detail`` in the form's
``role="alert"`` element (``<form id>-alert``), in the reader's language.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from rollbook.i18n import LANGUAGES, N_, normalize, translate
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.auth import COOKIE_NAME
from rollbook.server.usecases import characters, chronicles, log, rolls
from rollbook.server.views import member_view
from rollbook.server.deps import dice_source, optional_member
from rollbook.server.models import Member
from rollbook.server.problems import ProblemError, from_rule_error, pick_language, problem_body
from rollbook.web import forms, labels, sheetform, table
from rollbook.web.present import GOALS, identity, rating_groups, specialties
from rollbook.web.preview import preview, reroll_advice
from rollbook.web.templating import render

router = APIRouter(include_in_schema=False)

LANG_COOKIE = "rollbook_lang"
INVITATION_COOKIE = "rollbook_invitation"
YEAR = 365 * 24 * 3600


# --- language, identity, responses -----------------------------------------------------------

def lang_of(request: Request, chronicle_language: str | None = None) -> str:
    """``?lang=``, then the ``rollbook_lang`` cookie, then the chronicle's language, then
    ``Accept-Language``; en, fr or es."""
    asked = request.query_params.get("lang")
    if asked and asked.lower()[:2] in LANGUAGES:
        return normalize(asked)
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGUAGES:
        return cookie
    if chronicle_language in LANGUAGES:
        return chronicle_language  # type: ignore[return-value]
    return pick_language(None, request.headers.get("accept-language"))


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _lang_links(request: Request) -> dict[str, str]:
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    links = {}
    for code in LANGUAGES:
        links[code] = request.url.path + "?" + urlencode({**params, "lang": code})
    return links


def page(request: Request, template: str, lang: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("member", getattr(request.state, "rollbook_member", None))
    body = render(template, lang, request=request, path=request.url.path, lang_links=_lang_links(request),
                  htmx=is_htmx(request), **context)
    response = HTMLResponse(body, status_code=status)
    asked = request.query_params.get("lang")
    if asked and asked.lower()[:2] in LANGUAGES:
        response.set_cookie(LANG_COOKIE, asked.lower()[:2], max_age=YEAR, samesite="lax", path="/")
    return response


def fragment(request: Request, template: str, lang: str, *, status: int = 200,
             headers: dict[str, str] | None = None, **context: Any) -> HTMLResponse:
    body = render(template, lang, request=request, htmx=True, **context)
    return HTMLResponse(body, status_code=status, headers=headers)


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def problem_of(error: Exception) -> ProblemError:
    if isinstance(error, ProblemError):
        return error
    if isinstance(error, RuleError):
        return from_rule_error(error)
    raise error


def error_detail(error: Exception, lang: str) -> tuple[int, str]:
    """(status, the problem's sentence in the reader's language); a ``field`` it names is the form's
    label ("Missing field Damage."), not the schema's id."""
    problem = problem_of(error)
    params = dict(problem.params or {})
    if isinstance(params.get("field"), str) and params["field"]:
        params["field"] = labels.field_param(params["field"], lang)
    body = problem_body(problem.status, problem.code, lang, params)
    return problem.status, body["detail"]


def alert_response(request: Request, error: Exception, lang: str, form_id: str,
                   full_page: Callable[[dict[str, str]], Response]) -> Response:
    """A refusal: into the form's ``role="alert"`` element (htmx), or the whole page again with the
    message in place and the form as it was posted."""
    status, text = error_detail(error, lang)
    if is_htmx(request):
        return fragment(request, "_alert.html", lang, status=status, message=text,
                        headers={"HX-Retarget": f"#{form_id}-alert", "HX-Reswap": "innerHTML"})
    response = full_page({form_id: text})
    response.status_code = status
    return response


def member_or_none(request: Request) -> Member | None:
    try:
        return optional_member(request)
    except Exception:  # noqa: BLE001 - a broken cookie is no member
        return None


class NotAllowed(Exception):
    def __init__(self, problem: ProblemError) -> None:
        super().__init__(problem.code)
        self.problem = problem


def member_of(request: Request, chronicle_id: int) -> Member:
    member = member_or_none(request)
    if member is None:
        raise NotAllowed(ProblemError(401, "unauthorized"))
    if member.chronicle_id != chronicle_id:
        raise NotAllowed(ProblemError(403, "wrong_chronicle"))
    return member


def refused_page(request: Request, error: Exception, lang: str) -> Response:
    problem = error.problem if isinstance(error, NotAllowed) else problem_of(error)
    status, text = error_detail(problem, lang)
    if is_htmx(request):
        return fragment(request, "_alert.html", lang, status=status, message=text)
    return page(request, "error.html", lang, status=status, message=text, status_code=status)


def db_of(request: Request):
    return request.app.state.db


async def form_of(request: Request) -> dict[str, Any]:
    """The posted form; repeated names (checkboxes) become lists."""
    data = await request.form()
    out: dict[str, Any] = {}
    for key in data.keys():
        values = data.getlist(key)
        out[key] = values if len(values) > 1 else values[0]
    return out


async def reader_of(request: Request, chronicle_id: int) -> tuple[Member, str]:
    """The signed-in member of this chronicle and their language (both read in the threadpool);
    raises ``NotAllowed``."""
    member = await run_in_threadpool(member_of, request, chronicle_id)
    return member, await run_in_threadpool(_chronicle_lang, request, member)


async def show(request: Request, chronicle_id: int, build: Callable[[Member, str], Any],
               done: Callable[[Any, str], Response] | None = None) -> Response:
    """A page or fragment for a member: ``build(member, lang)`` in the threadpool, then
    ``done(built, lang)`` (or what ``build`` returned, when there is no ``done``). Any refusal, of
    the reader or while building, is ``refused_page``."""
    lang = lang_of(request)
    try:
        member, lang = await reader_of(request, chronicle_id)
        built = await run_in_threadpool(build, member, lang)
    except (NotAllowed, ProblemError, RuleError) as error:
        return refused_page(request, error, lang)
    return done(built, lang) if done is not None else built


Refusal = Callable[[Exception, Member, str], Response]


async def act(request: Request, chronicle_id: int, work: Callable[[Member, str], Response],
              refusal: Refusal) -> Response:
    """A change made by a member: a reader who may not is ``refused_page``; then
    ``work(member, lang)`` in the threadpool answers, and a problem or rule error it raises goes to
    ``refusal(error, member, lang)``."""
    lang = lang_of(request)
    try:
        member, lang = await reader_of(request, chronicle_id)
    except NotAllowed as error:
        return refused_page(request, error, lang)
    try:
        return await run_in_threadpool(work, member, lang)
    except (ProblemError, RuleError) as error:
        return refusal(error, member, lang)


def alert_in(request: Request, form_id: str, full_page: Callable[[Member, str, dict[str, str]], Response]) -> Refusal:
    """The usual refusal of a change: ``alert_response`` into the form ``form_id``, with
    ``full_page(member, lang, errors)`` as the page without JavaScript."""
    def refusal(error: Exception, member: Member, lang: str) -> Response:
        return alert_response(request, error, lang, form_id, lambda errors: full_page(member, lang, errors))
    return refusal


# --- home: create, join, sign in ------------------------------------------------------------

@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    member = await run_in_threadpool(member_or_none, request)
    chronicle = None
    if member is not None:
        def read():
            with db_of(request).read() as session:
                return chronicles.chronicle_info(session, member)
        chronicle = await run_in_threadpool(read)
    lang = lang_of(request)
    return home_page(request, lang, member=member, chronicle=chronicle)


def home_page(request: Request, lang: str, *, member=None, chronicle=None, errors=None, values=None,
              status: int = 200) -> HTMLResponse:
    order = ("v5", "v20", "tiers", "rollunder")
    systems = sorted(chronicles.system_ids(), key=lambda s: order.index(s) if s in order else len(order))
    return page(request, "home.html", lang, status=status, member=member, chronicle=chronicle,
                systems=[(s, labels.system_name(s, lang)) for s in systems], errors=errors or {},
                values=values or {})


def _with_token(response: Response, token: str) -> Response:
    response.set_cookie(COOKIE_NAME, token, max_age=YEAR, httponly=True, samesite="lax", path="/")
    return response


@router.post("/chronicles")
async def create_chronicle(request: Request) -> Response:
    form = await form_of(request)
    lang = lang_of(request)
    try:
        difficulty = forms.int_field(form, "difficulty")
        created = await run_in_threadpool(tx.run, db_of(request), lambda s: chronicles.create_chronicle(
            s, name=str(form.get("name", "")).strip() or "—", system=str(form.get("system", "")),
            mode=str(form.get("mode", "strict")), language=str(form.get("language", lang)),
            storyteller=str(form.get("storyteller", "")).strip() or "Storyteller", difficulty=difficulty))
    except (ProblemError, RuleError) as error:
        return alert_response(request, error, lang, "create",
                              lambda errors: home_page(request, lang, errors=errors, values=form))
    response = see_other(f"/chronicles/{created['chronicle']['id']}")
    response.set_cookie(INVITATION_COOKIE, created["invitation"], max_age=YEAR, httponly=True, samesite="lax", path="/")
    return _with_token(response, created["token"])


@router.post("/join")
async def join(request: Request) -> Response:
    form = await form_of(request)
    lang = lang_of(request)
    try:
        name = str(form.get("name", "")).strip()
        if not name:
            raise RuleError("missing_field", field="name")
        joined = await run_in_threadpool(tx.run, db_of(request), lambda s: chronicles.join(
            s, invitation=str(form.get("invitation", "")).strip(), name=name))
    except (ProblemError, RuleError) as error:
        return alert_response(request, error, lang, "join",
                              lambda errors: home_page(request, lang, errors=errors, values=form))
    response = see_other(f"/chronicles/{joined['chronicle']['id']}")
    response.delete_cookie(INVITATION_COOKIE, path="/")
    return _with_token(response, joined["token"])


@router.post("/signin")
async def signin(request: Request) -> Response:
    form = await form_of(request)
    lang = lang_of(request)
    token = str(form.get("token", "")).strip()

    def check():
        with db_of(request).read() as session:
            return chronicles.sign_in(session, token)

    member = await run_in_threadpool(check)
    if member is None:
        return alert_response(request, ProblemError(401, "token_invalid"), lang, "signin",
                              lambda errors: home_page(request, lang, errors=errors))
    return _with_token(see_other(f"/chronicles/{member.chronicle_id}"), token)


@router.post("/signout")
async def signout(request: Request) -> Response:
    response = see_other("/")
    response.delete_cookie(COOKIE_NAME, path="/")
    response.delete_cookie(INVITATION_COOKIE, path="/")
    return response


# --- the chronicle page -----------------------------------------------------------------------

def chronicle_page(request: Request, member: Member, lang: str, *, errors=None, values=None,
                   status: int = 200) -> HTMLResponse:
    state = table.load(db_of(request), member, lang)
    return page(request, "chronicle.html", lang, status=status, t=state, me=state.me, errors=errors or {},
                values=values or {}, invitation=request.cookies.get(INVITATION_COOKIE)
                if member.role == "storyteller" else None,
                system_name=labels.system_name(state.chronicle["system"], lang))


@router.get("/chronicles/{chronicle_id}", response_class=HTMLResponse)
async def chronicle(request: Request, chronicle_id: int) -> Response:
    lang = lang_of(request)
    try:
        member = await run_in_threadpool(member_of, request, chronicle_id)
        return await run_in_threadpool(lambda: chronicle_page(request, member, _chronicle_lang(request, member)))
    except (NotAllowed, ProblemError, RuleError) as error:
        return refused_page(request, error, lang)


def _chronicle_lang(request: Request, member: Member) -> str:
    """The reader's language on a chronicle's pages (the chronicle's own language as a default)."""
    if request.query_params.get("lang") or request.cookies.get(LANG_COOKIE) in LANGUAGES:
        return lang_of(request)
    with db_of(request).read() as session:
        return lang_of(request, chronicles.chronicle_info(session, member)["language"])


@router.post("/chronicles/{chronicle_id}/settings")
async def chronicle_settings(request: Request, chronicle_id: int) -> Response:
    form = await form_of(request)

    def work(member: Member, lang: str) -> Response:
        changes: dict[str, Any] = {"difficulty": forms.int_field(form, "difficulty")}
        if form.get("mode"):
            changes["mode"] = str(form["mode"])
        if form.get("language"):
            changes["language"] = str(form["language"])
        if str(form.get("name", "")).strip():
            changes["name"] = str(form["name"]).strip()
        tx.run(db_of(request), lambda s: chronicles.update_chronicle(s, member, **changes))
        return see_other(f"/chronicles/{chronicle_id}")

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return chronicle_page(request, member, lang, errors=errors, values=form)

    return await act(request, chronicle_id, work, alert_in(request, "settings", again))


@router.post("/chronicles/{chronicle_id}/invitation")
async def new_invitation(request: Request, chronicle_id: int) -> Response:
    lang = lang_of(request)
    try:
        member = await run_in_threadpool(member_of, request, chronicle_id)
        created = await run_in_threadpool(tx.run, db_of(request), lambda s: chronicles.new_invitation(s, member))
    except (NotAllowed, ProblemError, RuleError) as error:
        return refused_page(request, error, lang)
    response = see_other(f"/chronicles/{chronicle_id}#invitation")
    response.set_cookie(INVITATION_COOKIE, created["invitation"], max_age=YEAR, httponly=True, samesite="lax", path="/")
    return response


# --- the live feed (server-sent events) -------------------------------------------------------

def _sse(event: str, data: str, event_id: int | None = None) -> bytes:
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"event: {event}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return ("\n".join(lines) + "\n\n").encode("utf-8")


def live_html(request: Request, lang: str, item: dict[str, Any], member: Member) -> str:
    return render("_live.html", lang, request=request, htmx=True, item=item, me=member_view(member),
                  chronicle=item["chronicle"])


@router.get("/chronicles/{chronicle_id}/live")
async def live(request: Request, chronicle_id: int) -> Response:
    """``text/event-stream``: one ``entry`` event per new log entry, its data the card's HTML as
    this member may see it, in their language (htmx's SSE extension puts it on top of the feed)."""
    lang = lang_of(request)
    try:
        member, lang = await reader_of(request, chronicle_id)
    except (NotAllowed, ProblemError) as error:
        problem = error.problem if isinstance(error, NotAllowed) else error
        return Response(status_code=problem.status)
    try:
        after = forms.int_field(dict(request.query_params), "after", 0, low=0) or 0
        character_id = forms.int_field(dict(request.query_params), "character", None, low=1)
    except RuleError:
        return Response(status_code=422)
    last_event = request.headers.get("last-event-id", "").strip()
    if last_event.isdigit():
        after = max(after, int(last_event))
    db = db_of(request)
    hub = request.app.state.hub

    async def stream():
        subscription = hub.subscribe(member.chronicle_id)
        last = after
        idle = 0.0
        try:
            yield b"retry: 1000\n\n"
            while True:
                if await request.is_disconnected():
                    return
                items = await run_in_threadpool(table.render_after, db, member, lang, last, 50, character_id)
                for seq, item in items:
                    html = await run_in_threadpool(live_html, request, lang, item, member)
                    yield _sse("entry", html, seq)
                    last = seq
                if items:
                    idle = 0.0
                    continue
                woke = await subscription.wait(hub.poll_interval)
                if not woke:
                    idle += hub.poll_interval
                    if idle >= 15:
                        idle = 0.0
                        yield b": keep-alive\n\n"
        except asyncio.CancelledError:
            raise
        finally:
            hub.unsubscribe(subscription)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# --- characters: new, sheet page, edit --------------------------------------------------------

def _character_or_404(state: table.Table, character_id: int) -> table.CharacterRow:
    found = state.character(character_id)
    if found is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    if not found.may_open:
        raise ProblemError(403, "not_your_character")
    return found


def new_character_page(request: Request, member: Member, lang: str, *, errors=None, values=None,
                       status: int = 200) -> HTMLResponse:
    from rollbook.play import new_sheet

    state = table.load(db_of(request), member, lang, feed=False)
    system = state.chronicle["system"]
    sheet = new_sheet(system, {"name": "—"})
    sheet["name"] = ""
    if values:
        sheet = _sheet_from_values(system, sheet, values)
    sections = sheetform.sections(system, sheet, lang, None, creating=not values)
    return page(request, "character_new.html", lang, status=status, t=state, me=state.me, sections=sections,
                errors=errors or {}, values=values or {}, system_name=labels.system_name(system, lang))


def _sheet_from_values(system: str, sheet: dict, values: dict) -> dict:
    """The posted sheet form back on the sheet (to re-render it after a refusal)."""
    try:
        patch = sheetform.patch_from_form(system, values, sheet, None)
    except RuleError:
        return sheet
    from rollbook.play.common import merge

    return merge(sheet, patch)


@router.get("/chronicles/{chronicle_id}/characters/new", response_class=HTMLResponse)
async def new_character(request: Request, chronicle_id: int) -> Response:
    return await show(request, chronicle_id, lambda member, lang: new_character_page(request, member, lang))


@router.post("/chronicles/{chronicle_id}/characters")
async def add_character(request: Request, chronicle_id: int) -> Response:
    form = await form_of(request)

    def work(member: Member, lang: str) -> Response:
        from rollbook.play import new_sheet

        with db_of(request).read() as session:
            system = chronicles.chronicle_info(session, member)["system"]
        blank = new_sheet(system, {"name": "—"})
        patch = sheetform.without_nulls(sheetform.patch_from_form(system, form, blank, None))
        name = str(patch.get("name", "")).strip()
        if not name:
            raise RuleError("missing_field", field="name")
        fields: dict[str, Any] = {"name": name, "sheet": patch}
        if member.role == "storyteller":
            owner = str(form.get("owner", "")).strip()
            fields["owner"] = int(owner) if owner.isdigit() else None
        created = tx.run(db_of(request), lambda s: characters.add_character(s, member, **fields))
        return see_other(f"/chronicles/{chronicle_id}/characters/{created['id']}")

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return new_character_page(request, member, lang, errors=errors, values=form)

    return await act(request, chronicle_id, work, alert_in(request, "character", again))


def sheet_page(request: Request, member: Member, lang: str, character_id: int, *, errors=None, values=None,
               kind: str | None = None, change: str | None = None, status: int = 200) -> HTMLResponse:
    state = table.load(db_of(request), member, lang)
    character = _character_or_404(state, character_id)
    return page(request, "sheet.html", lang, status=status,
                **sheet_context(request, state, character, member, lang, errors=errors, values=values, kind=kind,
                                change=change))


def sheet_context(request: Request, state: table.Table, character: table.CharacterRow, member: Member, lang: str,
                  *, errors=None, values=None, kind: str | None = None, change: str | None = None) -> dict[str, Any]:
    system = state.chronicle["system"]
    sheet = character.sheet or {}
    kinds = forms.action_kinds(system, member.role)
    last = table.last_action(db_of(request), member, character.id) if not values else None
    if kind not in kinds:
        kind = last["kind"] if last and last.get("kind") in kinds else kinds[0]
    elif not values and (last is None or last.get("kind") != kind):
        last = table.last_action(db_of(request), member, character.id, kind=kind)  # this tab's last roll
    changes = forms.change_kinds(system, member.role)
    change = change if change in changes else (changes[0] if changes else None)
    values = values or {}
    editable = sheetform.editable_keys(system, member.role, False)
    edit_values = sheet
    if values and errors and "sheet" in errors:
        edit_values = _sheet_from_values(system, sheet, values)
    standing = character.difficulty if character.difficulty is not None else state.chronicle.get("difficulty")
    return dict(
        t=state, me=state.me, character=character, sheet=sheet, system=system,
        system_name=labels.system_name(system, lang),
        identity=identity(sheet, lang), groups=rating_groups(system, sheet, lang),
        specialties=specialties(sheet, lang),
        kinds=[(k, labels.kind(system, k, lang)) for k in kinds], kind=kind,
        roll_fields=roll_fields(system, kind, sheet, lang, values if values.get("kind") == kind else
                                (last if last and last.get("kind") == kind else None), standing, member.role),
        changes=[(k, labels.kind(system, k, lang)) for k in changes], change=change,
        change_fields=forms.fields_for(system, forms.schema_for(system, "changes", change), sheet, lang,
                                       values if values.get("change") == change else None) if change else [],
        change_nothing=forms.nothing_to_change(change, sheet, lang),
        edit_sections=sheetform.sections(system, edit_values, lang, editable),
        errors=errors or {}, values=values, standing=standing,
        odds=None, odds_error="", pool_text="",
    )


def roll_fields(system: str, kind: str, sheet: dict, lang: str, values: dict | None, standing: int | None,
                role: str) -> list[forms.FieldView]:
    fields = forms.fields_for(system, forms.schema_for(system, "actions", kind), sheet, lang, values)
    for f in fields:
        if f.name == "difficulty" and standing is not None:
            if role != "storyteller":
                f.value = standing  # the player's own last difficulty would be refused (difficulty_locked)
                f.readonly = True
                f.help = translate(N_("Set by the Storyteller for this character."), lang)
            elif values is None or "difficulty" not in values:
                f.value = standing
        if role != "storyteller" and f.options:
            reserved = forms.storyteller_values(system, kind, f.name)
            f.options = [o for o in f.options if o.value not in reserved]
    return fields


@router.get("/chronicles/{chronicle_id}/characters/{character_id}", response_class=HTMLResponse)
async def character_sheet(request: Request, chronicle_id: int, character_id: int) -> Response:
    kind, change = request.query_params.get("kind"), request.query_params.get("change")
    return await show(request, chronicle_id, lambda member, lang: sheet_page(
        request, member, lang, character_id, kind=kind, change=change))


async def _sheet_form(request: Request, chronicle_id: int, character_id: int, choice: str, template: str,
                      anchor: str) -> Response:
    """The roll or change form for the ``kind`` or ``change`` asked (``choice``): the fragment htmx
    swaps in when a tab is picked, or without htmx the sheet with that tab chosen."""
    asked = request.query_params.get(choice)

    def done(context: dict[str, Any], lang: str) -> Response:
        if not is_htmx(request):
            sheet = f"/chronicles/{chronicle_id}/characters/{character_id}"
            return see_other(f"{sheet}?{choice}={context[choice]}#{anchor}")
        return fragment(request, template, lang, **context)

    def build(member: Member, lang: str) -> dict[str, Any]:
        state = table.load(db_of(request), member, lang, feed=False)
        character = _character_or_404(state, character_id)
        return sheet_context(request, state, character, member, lang, **{choice: asked})

    return await show(request, chronicle_id, build, done)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/roll-form", response_class=HTMLResponse)
async def roll_form(request: Request, chronicle_id: int, character_id: int) -> Response:
    """The roll form for one kind of roll (htmx swaps it in when a tab is picked)."""
    return await _sheet_form(request, chronicle_id, character_id, "kind", "_roll_form.html", "roll")


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/change-form", response_class=HTMLResponse)
async def change_form(request: Request, chronicle_id: int, character_id: int) -> Response:
    return await _sheet_form(request, chronicle_id, character_id, "change", "_change_form.html", "changes")


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/odds", response_class=HTMLResponse)
async def odds(request: Request, chronicle_id: int, character_id: int) -> Response:
    """The exact odds of the roll the form describes (htmx asks on every change, before rolling)."""
    params = request.query_params
    values: dict[str, Any] = {}
    for key in params.keys():  # ticked boxes repeat their name, as in a posted form
        many = params.getlist(key)
        values[key] = many if len(many) > 1 else many[0]

    def work(member: Member, lang: str) -> Response:
        state = table.load(db_of(request), member, lang, feed=False)
        character = _character_or_404(state, character_id)
        system = state.chronicle["system"]
        kind = str(values.get("kind", ""))
        action = forms.parse_form(forms.schema_for(system, "actions", kind), values, kind)
        standing = rolls.standing_difficulty(state.chronicle.get("difficulty"), character.difficulty)
        action = rolls.apply_standing_difficulty(system, standing, action, member.role)
        view, pool_text = preview(system, character.sheet or {}, action, mode=state.chronicle["mode"],
                                  role=member.role, lang=lang)
        return fragment(request, "_odds.html", lang, odds=view, odds_error="", pool_text=pool_text)

    def refusal(error: Exception, member: Member, lang: str) -> Response:
        if getattr(error, "code", None) == "missing_field":
            # a field not filled in yet is not an error: say what the odds wait for
            name = str((getattr(error, "params", None) or {}).get("field", "")).rsplit(".", 1)[-1]
            prompt = translate(N_("Fill in “{field}” to see the odds."), lang, field=labels.field(name, lang))
            return fragment(request, "_odds.html", lang, odds=None, odds_error="", pool_text="", odds_prompt=prompt)
        _status, text = error_detail(error, lang)
        return fragment(request, "_odds.html", lang, odds=None, odds_error=text, pool_text="")

    return await act(request, chronicle_id, work, refusal)


def _after_change(request: Request, member: Member, lang: str, chronicle_id: int, character_id: int,
                  result: dict, form_id: str, change: str | None = None) -> Response:
    """After a roll or an adjustment: the new card on top of the feed and the sheet's resources
    out of band (htmx), or back to the sheet (no JavaScript)."""
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}#entry-{result['entry']['seq']}")
    state = table.load(db_of(request), member, lang, feed=False)
    character = _character_or_404(state, character_id)
    with db_of(request).read() as session:
        followed = table.followed_up(session, member, [result["entry"]["seq"]])
    viewer = table.viewer_of(member, state.chronicle, lang)
    card = table.cards_for([result["entry"]], viewer, state.characters, followed, state.chronicle["system"])[0]
    context = sheet_context(request, state, character, member, lang, change=change)
    return fragment(request, "_after_change.html", lang, card=card, form_id=form_id, chronicle=state.chronicle,
                    **{k: v for k, v in context.items() if k not in ("errors",)}, errors={})


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/rolls")
async def roll(request: Request, chronicle_id: int, character_id: int) -> Response:
    form = await form_of(request)
    kind = str(form.get("kind", ""))

    def work(member: Member, lang: str) -> Response:
        with db_of(request).read() as session:
            system = chronicles.chronicle_info(session, member)["system"]
        action = forms.parse_form(forms.schema_for(system, "actions", kind), form, kind)
        hidden = str(form.get("hidden", "")).lower() in ("on", "true", "1")
        source = dice_source(request)
        result = tx.run(db_of(request), lambda s: rolls.roll(s, member, character_id, action, hidden=hidden,
                                                                    source=source))
        return _after_change(request, member, lang, chronicle_id, character_id, result, "roll")

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return sheet_page(request, member, lang, character_id, errors=errors, values=form, kind=kind)

    return await act(request, chronicle_id, work, alert_in(request, "roll", again))


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/adjustments")
async def adjust(request: Request, chronicle_id: int, character_id: int) -> Response:
    form = await form_of(request)
    change = str(form.get("change", ""))

    def work(member: Member, lang: str) -> Response:
        with db_of(request).read() as session:
            system = chronicles.chronicle_info(session, member)["system"]
        data = forms.parse_form(forms.schema_for(system, "changes", change), form, change)
        result = tx.run(db_of(request), lambda s: characters.adjust(s, member, character_id, data))
        return _after_change(request, member, lang, chronicle_id, character_id, result, "change", change)

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return sheet_page(request, member, lang, character_id, errors=errors, values=form, change=change)

    return await act(request, chronicle_id, work, alert_in(request, "change", again))


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/sheet")
async def edit_sheet(request: Request, chronicle_id: int, character_id: int) -> Response:
    form = await form_of(request)

    def work(member: Member, lang: str) -> Response:
        state = table.load(db_of(request), member, lang, feed=False)
        character = _character_or_404(state, character_id)
        system = state.chronicle["system"]
        editable = sheetform.editable_keys(system, member.role, False)
        patch = sheetform.patch_from_form(system, form, character.sheet or {}, editable)
        version = forms.int_field(form, "version")
        fields: dict[str, Any] = {"patch": patch, "version": version}
        new_name = patch.get("name")
        if isinstance(new_name, str) and new_name.strip() and new_name != character.name:
            fields["name"] = new_name.strip()
        if member.role == "storyteller" and "standing_difficulty" in form:
            fields["difficulty"] = forms.int_field(form, "standing_difficulty")
        tx.run(db_of(request), lambda s: characters.edit_character(s, member, character_id, **fields))
        return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}")

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return sheet_page(request, member, lang, character_id, errors=errors, values=form)

    return await act(request, chronicle_id, work, alert_in(request, "sheet", again))


# --- follow-ups: V5 Willpower reroll, reveal ---------------------------------------------------

def _dice_of(form: dict[str, Any]) -> list[int]:
    raw = form.get("dice", [])
    raw = raw if isinstance(raw, list) else [raw]
    out = []
    for value in raw:
        text = str(value).strip()
        if not text:
            continue
        try:
            out.append(int(text))
        except ValueError:
            raise RuleError("reroll_bad_index", index=text) from None
    return out


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reroll")
async def reroll(request: Request, chronicle_id: int, seq: int) -> Response:
    form = await form_of(request)
    form_id = f"reroll-{seq}"

    def work(member: Member, lang: str) -> Response:
        dice = _dice_of(form)
        source = dice_source(request)
        result = tx.run(db_of(request), lambda s: rolls.reroll(s, member, seq, {"kind": "reroll", "dice": dice},
                                                                      source=source))
        if not is_htmx(request):
            return see_other(f"/chronicles/{chronicle_id}#entry-{result['entry']['seq']}")
        state = table.load(db_of(request), member, lang, feed=False)
        viewer = table.viewer_of(member, state.chronicle, lang)
        with db_of(request).read() as session:
            earlier = log.log_entry(session, member, seq)
            followed = table.followed_up(session, member, [seq, result["entry"]["seq"]])
        card, original = table.cards_for([result["entry"], earlier], viewer, state.characters, followed,
                                         state.chronicle["system"])
        character = state.character(result["entry"]["character"]) if result["entry"].get("character") else None
        return fragment(request, "_after_reroll.html", lang, card=card, original=original, form_id=form_id,
                        chronicle=state.chronicle, me=state.me, character=character,
                        sheet=(character.sheet if character else None) or {}, system=state.chronicle["system"])

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return chronicle_page(request, member, lang, errors=errors)

    return await act(request, chronicle_id, work, alert_in(request, form_id, again))


@router.get("/chronicles/{chronicle_id}/entries/{seq}/advice", response_class=HTMLResponse)
async def advice(request: Request, chronicle_id: int, seq: int) -> Response:
    """The odds engine's advice for a V5 Willpower reroll: the best dice, and the chance of the
    dice ticked so far."""
    goal = request.query_params.get("goal", "win")
    goal = goal if goal in GOALS else "win"

    def work(member: Member, lang: str) -> Response:
        chosen = _dice_of({"dice": request.query_params.getlist("dice")})
        with db_of(request).read() as session:
            entry = log.log_entry(session, member, seq)
        result = (entry.get("receipt") or {}).get("result") or {}
        if result.get("system") != "v5" or result.get("kind") != "test":
            raise ProblemError(409, "not_a_roll", seq=seq)
        return fragment(request, "_advice.html", lang, advice=reroll_advice(result, goal, chosen, lang), seq=seq)

    def refusal(error: Exception, member: Member, lang: str) -> Response:
        _status, text = error_detail(error, lang)
        return fragment(request, "_alert.html", lang, message=text)

    return await act(request, chronicle_id, work, refusal)


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reveal")
async def reveal(request: Request, chronicle_id: int, seq: int) -> Response:
    form_id = f"reveal-{seq}"

    def work(member: Member, lang: str) -> Response:
        result = tx.run(db_of(request), lambda s: log.reveal(s, member, seq))
        if not is_htmx(request):
            return see_other(f"/chronicles/{chronicle_id}#entry-{seq}")
        state = table.load(db_of(request), member, lang, feed=False)
        viewer = table.viewer_of(member, state.chronicle, lang)
        with db_of(request).read() as session:
            followed = table.followed_up(session, member, [seq])
        cards = table.cards_for([result["entry"], result["revealed"]], viewer, state.characters, followed,
                                state.chronicle["system"])
        return fragment(request, "_after_reveal.html", lang, card=cards[0], revealed=cards[1], form_id=form_id,
                        chronicle=state.chronicle, me=state.me)

    def again(member: Member, lang: str, errors: dict[str, str]) -> Response:
        return chronicle_page(request, member, lang, errors=errors)

    return await act(request, chronicle_id, work, alert_in(request, form_id, again))


@router.get("/chronicles/{chronicle_id}/entries/{seq}", response_class=HTMLResponse)
async def entry_page(request: Request, chronicle_id: int, seq: int) -> Response:
    """One receipt on its own page (a permalink to show the table)."""
    def build(member: Member, lang: str) -> tuple[table.Table, Any]:
        state = table.load(db_of(request), member, lang, feed=False)
        with db_of(request).read() as session:
            entry = log.log_entry(session, member, seq)
            followed = table.followed_up(session, member, [seq])
        viewer = table.viewer_of(member, state.chronicle, lang)
        card = table.cards_for([entry], viewer, state.characters, followed, state.chronicle["system"])[0]
        return state, card

    def done(built: tuple[table.Table, Any], lang: str) -> Response:
        state, card = built
        return page(request, "entry.html", lang, t=state, me=state.me, card=card, chronicle=state.chronicle)

    return await show(request, chronicle_id, build, done)
