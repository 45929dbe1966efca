"""Refusals on the pages, rendered as HTML by exception handlers (as ``app/app.py`` installs the
API's problem+json handlers): a route raises ``ProblemError`` or ``RuleError`` and never catches it.

- A page route (``PageRoute``) that changes something first says where its refusal goes:
  ``alert_into(request, form_id, lang, full_page)``: with htmx, the problem's sentence into the
  form's ``role="alert"`` element (``<form id>-alert``); without JavaScript, the whole page again
  with the message in place and the form as it was posted. ``on_refusal(request, render)`` for
  anything else (the odds box shows its refusal in place).
- Otherwise the refusal is the error page (or, with htmx, the alert fragment).
- Requests of the JSON API keep their problem+json answers: the handlers are the API's for any
  route that is not a page.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from rollbook.i18n import N_, translate
from rollbook.present import contests, exchange, labels
from rollbook.rules.base import RuleError
from rollbook.server.problems import ProblemError, from_rule_error, problem_body
from rollbook.web.respond import FieldMessage, fragment, is_htmx, lang_of, page

Refusal = Callable[[Exception], Response]
# refusals whose sentence does not say which trait it is about ("this trait is rated 2"): the form names it
TRAIT_NAMED = ("specialty_rating_too_low",)
# the refusals of an exchange's step, which name kinds of roll (follows_*: rolls only, so V20's "Damage roll")
FOLLOW_CODES = ("follows_not_for_kind", "follows_wrong_kind", "follows_required", "follows_conflict")
# refusals naming a kind of roll by its code ("Un jet de type skill demande Balles tirées."): the page says
# the kind as its tab does, in quotes (no raw code)
KIND_SENTENCES = {
    "field_required": N_("“{kind}” needs {field}."),
    "field_not_for_kind": N_("{field} does not apply to “{kind}”."),
}


# a contest's sides as the contest form's legends name them (TR-3)
CONTEST_SIDES = {"attacker": N_("Attacker"), "defender": N_("Defender")}


class PageRoute(APIRoute):
    """A route of the web pages: its refusals are HTML (``install_page_handlers``)."""


def problem_of(error: Exception) -> ProblemError:
    if isinstance(error, ProblemError):
        return error
    if isinstance(error, RuleError):
        return from_rule_error(error)
    raise error


def error_detail(error: Exception, lang: str, request: Request | None = None) -> tuple[int, str]:
    """(status, the problem's sentence in the reader's language); a ``field`` it names is the form's
    label ("Missing field Damage."), not the schema's id."""
    problem = problem_of(error)
    params = dict(problem.params or {})
    if isinstance(params.get("field"), str) and params["field"]:
        params["field"] = labels.field_param(params["field"], lang)
    if problem.code == "storyteller_only" and isinstance(params.get("action"), str):  # "(reveal)" in words
        params["action"] = labels.action(params["action"], lang)
    if isinstance(params.get("power"), str):  # "Corps létal", not the id "lethal_body"
        params["power"] = _power_words(request, params.get("trait"), params["power"], lang)
    if isinstance(params.get("trait"), str):  # "Presencia", not the id "presence"
        params["trait"] = labels.trait(params["trait"].rsplit(".", 1)[-1], lang)
    if isinstance(params.get("effect"), str):  # a card's effect ("advantage"), in words
        params["effect"] = labels.choice(params["effect"], lang, "effect")
    if problem.code == "extended_over" and isinstance(params.get("state"), str):  # TR-4: "target reached"
        params["state"] = translate(contests.STATUS.get(params["state"], params["state"]), lang)
    if problem.code == "contest_side_rolled" and params.get("side") in CONTEST_SIDES:  # TR-3: "the attacker"
        params["side"] = translate(CONTEST_SIDES[params["side"]], lang).lower()
    if problem.code in FOLLOW_CODES:  # "Tirada de daño", not the code "damage"
        for key in ("kind", "follows", "allowed"):
            if isinstance(params.get(key), str):
                params[key] = exchange.roll_kind("v20", params[key], lang)
            elif isinstance(params.get(key), (list, tuple)):
                params[key] = ", ".join(exchange.roll_kind("v20", str(name), lang) for name in params[key])
    if isinstance(params.get("fields"), (list, tuple)):  # "Choose only one of Skill, Discipline."
        params["fields"] = ", ".join(labels.field_param(str(name), lang) for name in params["fields"])
    if problem.code in KIND_SENTENCES and isinstance(params.get("kind"), str):
        system = getattr(request.state, "rollbook_system", "") if request is not None else ""
        kind = exchange.roll_kind(system or "", params["kind"], lang)
        return problem.status, translate(
            KIND_SENTENCES[problem.code], lang, kind=kind, field=params.get("field", "")
        )
    body = problem_body(problem.status, problem.code, lang, params)
    if problem.code in TRAIT_NAMED and isinstance(params.get("trait"), str):  # which trait
        return problem.status, translate(
            N_("{trait}: {message}"), lang, trait=params["trait"], message=body["detail"]
        )
    return problem.status, _elided(body["detail"], [params.get("trait"), params.get("power")], lang)


def _power_words(request: Request | None, discipline: object, power_id: str, lang: str) -> str:
    """A power of the game's list in the reader's language, found under its own Discipline when the
    refusal pairs it with another one; a homebrew power as it was typed."""
    from rollbook.play.powers import known

    system = str(getattr(request.state, "rollbook_system", "") or "v5") if request is not None else "v5"
    lists = known(system)
    owner = discipline if isinstance(discipline, str) and power_id in lists.get(discipline, {}) else None
    owner = owner or next((name for name, listed in lists.items() if power_id in listed), None)
    return labels.power(system, owner, power_id, lang) if owner else power_id


_VOWELS = tuple("AÀÂEÉÈÊËIÎÏOÔUÙÛYaàâeéèêëiîïoôuùûy")


def _elided(text: str, words: list[object], lang: str) -> str:
    """French elides "de" before a name that starts with a vowel: "d'Auspex", never "de Auspex"."""
    if lang != "fr":
        return text
    for word in words:
        if isinstance(word, str) and word.startswith(_VOWELS):
            text = text.replace(f"de {word}", f"d'{word}")
    return text


# refusals whose code alone says which field of the roll form they are about: the
# bullets declared, the gun whose magazine is empty (T-3)
FIELD_OF_CODE = {"bullets_exceed_magazine": "bullets", "magazine_empty": "weapon"}


def error_field(error: Exception) -> str:
    try:
        problem = problem_of(error)
    except Exception:
        return ""
    value = (problem.params or {}).get("field")
    return value if isinstance(value, str) and value else FIELD_OF_CODE.get(problem.code, "")


def alert_response(
    request: Request,
    error: Exception,
    lang: str,
    form_id: str,
    full_page: Callable[[dict[str, str]], Response],
) -> Response:
    """A refusal: into the form's ``role="alert"`` element (htmx), or the whole page again with the
    message in place and the form as it was posted. The message names its field (``data-field``):
    ``table.js`` moves it next to that field, marks the field invalid, and focuses it."""
    status, text = error_detail(error, lang, request)
    message = FieldMessage(text)
    message.field = error_field(error)
    if is_htmx(request):
        return fragment(
            request,
            "_alert.html",
            lang,
            status=status,
            message=message,
            headers={"HX-Retarget": f"#{form_id}-alert", "HX-Reswap": "innerHTML"},
        )
    response = full_page({form_id: message})
    response.status_code = status
    return response


def on_refusal(request: Request, render: Refusal) -> None:
    """How this request's refusal is shown (called in the threadpool: it may read the database)."""
    request.state.rollbook_refusal = render


def alert_into(
    request: Request, form_id: str, lang: str, full_page: Callable[[dict[str, str]], Response]
) -> None:
    """The usual refusal of a change: ``alert_response`` into the form ``form_id``, with
    ``full_page(errors)`` as the page without JavaScript."""
    on_refusal(request, lambda error: alert_response(request, error, lang, form_id, full_page))


def refused_page(request: Request, error: Exception, lang: str) -> Response:
    status, text = error_detail(error, lang, request)
    if is_htmx(request):
        return fragment(request, "_alert.html", lang, status=status, message=text)
    return page(request, "error.html", lang, status=status, message=text, status_code=status)


def is_page(request: Request) -> bool:
    return isinstance(request.scope.get("route"), PageRoute)


async def _page_refusal(request: Request, error: Exception) -> Response:
    render = getattr(request.state, "rollbook_refusal", None)
    lang = getattr(request.state, "rollbook_lang", None) or lang_of(request)
    if render is not None:
        try:
            return await run_in_threadpool(render, error)
        except (ProblemError, RuleError):  # the form's page cannot be drawn for this reader (another's
            pass  # character, another chronicle's, a missing one): the refusal is the error page
    return refused_page(request, error, lang)


def install_page_handlers(app: FastAPI) -> None:
    """Page refusals as HTML; every other route keeps the handler the app had (problem+json)."""
    for kind in (ProblemError, RuleError):
        api_handler = app.exception_handlers[kind]

        async def handler(request: Request, error: Exception, api_handler=api_handler) -> Response:
            if is_page(request):
                return await _page_refusal(request, error)
            return await api_handler(request, error)

        app.add_exception_handler(kind, handler)
