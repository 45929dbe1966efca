"""The table's authority on the pages (SPEC A-1 … A-4): the Storyteller grants (as asked or
changed) or refuses an ask, a player withdraws one; the scene and turn bar; standing grants; the
actions a character takes this turn.

With htmx a decision answers the new cards for the top of the feed and the queue out of band; the
scene bar answers itself. Without JavaScript each answers a 303 back to the page.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response

from rollbook.present import authority, forms
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.models import Caller
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import grants, log, scenes
from rollbook.web import table
from rollbook.web.deps import Db, Dice, Lang, Posted, Reader, page_router
from rollbook.web.errors import alert_into
from rollbook.web.respond import fragment, is_htmx, see_other
from rollbook.web.routes.chronicle import chronicle_page
from rollbook.web.sheetpage import sheet_page

router = page_router()


def _panel(db, member: Caller, lang: str, state: table.Table) -> authority.Panel:
    return authority.panel(db, member, lang, state.chronicle, state.characters, state.members)


def _after_decision(
    request: Request, db, member: Caller, lang: str, chronicle_id: int, entries: list[dict]
) -> Response:
    """The decision's entries as cards on top of the feed, and the queue again (out of band)."""
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{entries[-1]['seq']}")
    state = table.load(db, member, lang, feed=False)
    with db.read() as session:
        followed = log.followed_up(session, member, [e["seq"] for e in entries])
        revealed = table.revealed_seeds(session, member)
    viewer = table.viewer_of(member, state.chronicle, lang)
    cards = list(
        reversed(
            table.cards_for(
                entries, viewer, state.characters, followed, state.chronicle["system"], revealed=revealed
            )
        )
    )
    return fragment(
        request,
        "_after_decision.html",
        lang,
        cards=cards,
        p=_panel(db, member, lang, state),
        chronicle=state.chronicle,
        me=state.me,
        errors={},
    )


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/grant")
def grant(
    request: Request,
    chronicle_id: int,
    ask_id: int,
    db: Db,
    member: Reader,
    lang: Lang,
    form: Posted,
    dice: Dice,
) -> Response:
    """Grant an ask as asked, or (``changed``) with the edges of the form."""
    alert_into(
        request,
        f"ask-{ask_id}",
        lang,
        lambda errors: chronicle_page(request, db, member, lang, errors=errors),
    )
    edges = None
    if authority.ticked(form.get("changed")):
        with db.read() as session:
            ask = authority_cases.get_ask(session, member, ask_id)
            system = table.load(db, member, lang, feed=False).chronicle["system"]
        edges = authority.granted_edges(system, ask["kind"], ask["asked"], form)
    result = tx.run(db, lambda s: grants.grant(s, member, ask_id, edges=edges, source=dice))
    return _after_decision(request, db, member, lang, chronicle_id, [result["grant"], result["entry"]])


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/refuse")
def refuse(
    request: Request, chronicle_id: int, ask_id: int, db: Db, member: Reader, lang: Lang, form: Posted
) -> Response:
    alert_into(
        request,
        f"ask-{ask_id}",
        lang,
        lambda errors: chronicle_page(request, db, member, lang, errors=errors),
    )
    reason = str(form.get("reason", "")).strip()
    result = tx.run(db, lambda s: grants.refuse(s, member, ask_id, reason=reason))
    return _after_decision(request, db, member, lang, chronicle_id, [result["entry"]])


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/withdraw")
def withdraw(
    request: Request, chronicle_id: int, ask_id: int, db: Db, member: Reader, lang: Lang
) -> Response:
    alert_into(
        request,
        f"ask-{ask_id}",
        lang,
        lambda errors: chronicle_page(request, db, member, lang, errors=errors),
    )
    result = tx.run(db, lambda s: grants.withdraw(s, member, ask_id))
    return _after_decision(request, db, member, lang, chronicle_id, [result["entry"]])


# --- scenes and turns ---------------------------------------------------------------------------


def _scene_answer(request: Request, db, member: Caller, lang: str, chronicle_id: int) -> Response:
    if not is_htmx(request):
        return see_other(request.headers.get("referer") or f"/chronicles/{chronicle_id}")
    state = table.load(db, member, lang, feed=False)
    p = _panel(db, member, lang, state)
    return fragment(request, "_scene_bar.html", lang, p=p, chronicle=state.chronicle, errors={}, oob=False)


def _scene_change(request: Request, chronicle_id: int, db, member: Caller, lang: str, work) -> Response:
    alert_into(
        request, "scene", lang, lambda errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    tx.run(db, work)
    return _scene_answer(request, db, member, lang, chronicle_id)


@router.post("/chronicles/{chronicle_id}/scenes")
def open_scene(
    request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang, form: Posted
) -> Response:
    name = str(form.get("name", "")).strip()
    return _scene_change(
        request, chronicle_id, db, member, lang, lambda s: scenes.open_scene(s, member, name=name)
    )


@router.post("/chronicles/{chronicle_id}/scene/turns")
def advance_turn(request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang) -> Response:
    return _scene_change(request, chronicle_id, db, member, lang, lambda s: scenes.advance_turn(s, member))


@router.post("/chronicles/{chronicle_id}/scene/close")
def close_scene(request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang) -> Response:
    return _scene_change(request, chronicle_id, db, member, lang, lambda s: scenes.close_scene(s, member))


# --- standing grants ------------------------------------------------------------------------------


def standing_value(text: str) -> Any:
    """A standing grant's value as typed: a whole number, yes / no, or a word (a task, dice)."""
    text = text.strip()
    if text.lstrip("+-").isdigit():
        return int(text)
    if text.lower() in authority.YES:
        return True
    if text.lower() in authority.NO:
        return False
    if not text:
        raise RuleError("missing_field", field="value")
    return text


@router.post("/chronicles/{chronicle_id}/standing")
def set_standing(
    request: Request, chronicle_id: int, db: Db, member: Reader, lang: Lang, form: Posted
) -> Response:
    alert_into(
        request,
        "standing",
        lang,
        lambda errors: chronicle_page(request, db, member, lang, errors=errors, values=form),
    )
    character = forms.int_field(form, "character")
    edges = {str(form.get("edge", "")): standing_value(str(form.get("value", "")))}
    scene = authority.ticked(form.get("scene"))
    try:
        tx.run(
            db,
            lambda s: authority_cases.set_standing(
                s, member, edges=edges, character_id=character, scene=scene
            ),
        )
    except RuleError as error:  # a plain sentence, not the schema's "Input should be a valid integer"
        if error.code != "wrong_type":
            raise
        edge, value = next(iter(edges.items()))
        detail = str((error.params or {}).get("detail", ""))
        code = "not_a_boolean" if "boolean" in detail else "not_an_integer"
        raise RuleError(code, field=edge, value=str(form.get("value", "")).strip() or value) from None
    return see_other(f"/chronicles/{chronicle_id}#standing")


@router.post("/chronicles/{chronicle_id}/standing/{standing_id}/end")
def end_standing(
    request: Request, chronicle_id: int, standing_id: int, db: Db, member: Reader, lang: Lang
) -> Response:
    alert_into(
        request, "standing", lang, lambda errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    tx.run(db, lambda s: authority_cases.end_standing(s, member, standing_id))
    return see_other(f"/chronicles/{chronicle_id}#standing")


# --- multiple actions (A-4) -------------------------------------------------------------------------


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/actions")
def declare_actions(
    request: Request, chronicle_id: int, character_id: int, db: Db, member: Reader, lang: Lang, form: Posted
) -> Response:
    alert_into(
        request,
        "actions",
        lang,
        lambda errors: sheet_page(request, db, member, lang, character_id, errors=errors),
    )
    count = forms.int_field(form, "actions", 1, low=1, high=10)
    tx.run(db, lambda s: scenes.declare_actions(s, member, character_id, count))
    return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}#roll-title")
