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
from rollbook.server.models import Caller
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import grants, log, scenes
from rollbook.web import table
from rollbook.web.deps import Db, Dice, PageAccess, Posted, Signed, page_router
from rollbook.web.respond import fragment, is_htmx, see_other
from rollbook.web.routes.chronicle import chronicle_page
from rollbook.web.sheetpage import sheet_page

router = page_router()


def _panel(db, member: Caller, lang: str, state: table.Table, read: dict | None = None) -> authority.Panel:
    return authority.panel(db, member, lang, state.chronicle, state.characters, state.members, read)


def _after_decision(
    request: Request, db, signed: PageAccess, chronicle_id: int, entries: list[dict]
) -> Response:
    """The decision's entries as cards on top of the feed, and the queue again (out of band), drawn
    from one read after the write (the chronicle's row read once there: ``PageAccess.answer_in``)."""
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{entries[-1]['seq']}")
    with db.one_read() as db:
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        with db.read() as session:
            followed = log.followed_up(session, member, [e["seq"] for e in entries])
            revealed = table.revealed_seeds(session, member)
            read = authority_cases.table_state(session, member, row)
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
            p=_panel(db, member, lang, state, read),
            chronicle=state.chronicle,
            me=state.me,
            errors={},
        )


def _on_the_table(request: Request, db, values: dict | None = None):
    """A refusal's page without JavaScript: the chronicle page again, the message in place."""
    return lambda member, lang, errors: chronicle_page(
        request, db, member, lang, errors=errors, values=values
    )


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/grant")
def grant(
    request: Request, chronicle_id: int, ask_id: int, db: Db, signed: Signed, form: Posted, dice: Dice
) -> Response:
    """Grant an ask as asked, or (``changed``) with the edges of the form, read against the ask and
    the chronicle the grant locks (its one write)."""
    signed.refused_into(f"ask-{ask_id}", _on_the_table(request, db))

    def edges(chronicle, ask) -> dict:
        signed.knows(chronicle)
        return authority.granted_edges(chronicle.system, ask.kind, ask.asked, form)

    changed = edges if authority.ticked(form.get("changed")) else None
    result = signed.write(db, lambda s, member: grants.grant(s, member, ask_id, edges=changed, source=dice))
    return _after_decision(request, db, signed, chronicle_id, [result["grant"], result["entry"]])


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/refuse")
def refuse(
    request: Request, chronicle_id: int, ask_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    signed.refused_into(f"ask-{ask_id}", _on_the_table(request, db))
    reason = str(form.get("reason", "")).strip()
    result = signed.write(db, lambda s, member: grants.refuse(s, member, ask_id, reason=reason))
    return _after_decision(request, db, signed, chronicle_id, [result["entry"]])


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/withdraw")
def withdraw(request: Request, chronicle_id: int, ask_id: int, db: Db, signed: Signed) -> Response:
    signed.refused_into(f"ask-{ask_id}", _on_the_table(request, db))
    result = signed.write(db, lambda s, member: grants.withdraw(s, member, ask_id))
    return _after_decision(request, db, signed, chronicle_id, [result["entry"]])


# --- scenes and turns ---------------------------------------------------------------------------


def _scene_change(request: Request, chronicle_id: int, db, signed: PageAccess, work) -> Response:
    """A change of the scene bar: its one write, then (htmx) the bar drawn from one read."""
    signed.refused_into("scene", _on_the_table(request, db))
    signed.write(db, work)
    if not is_htmx(request):
        return see_other(request.headers.get("referer") or f"/chronicles/{chronicle_id}")
    with db.one_read() as db:
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        with db.read() as session:
            read = authority_cases.table_state(session, member, row)
        p = _panel(db, member, lang, state, read)
        return fragment(
            request, "_scene_bar.html", lang, p=p, chronicle=state.chronicle, errors={}, oob=False
        )


@router.post("/chronicles/{chronicle_id}/scenes")
def open_scene(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    name = str(form.get("name", "")).strip()
    return _scene_change(
        request, chronicle_id, db, signed, lambda s, member: scenes.open_scene(s, member, name=name)
    )


@router.post("/chronicles/{chronicle_id}/scene/turns")
def advance_turn(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    return _scene_change(request, chronicle_id, db, signed, scenes.advance_turn)


@router.post("/chronicles/{chronicle_id}/scene/close")
def close_scene(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    return _scene_change(request, chronicle_id, db, signed, scenes.close_scene)


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
def set_standing(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into("standing", _on_the_table(request, db, form))
    character = forms.int_field(form, "character")
    edges = {str(form.get("edge", "")): standing_value(str(form.get("value", "")))}
    scene = authority.ticked(form.get("scene"))
    try:
        signed.write(
            db,
            lambda s, member: authority_cases.set_standing(
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
def end_standing(request: Request, chronicle_id: int, standing_id: int, db: Db, signed: Signed) -> Response:
    signed.refused_into("standing", _on_the_table(request, db))
    signed.write(db, lambda s, member: authority_cases.end_standing(s, member, standing_id))
    return see_other(f"/chronicles/{chronicle_id}#standing")


# --- multiple actions (A-4) -------------------------------------------------------------------------


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/actions")
def declare_actions(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    signed.refused_into(
        "actions",
        lambda member, lang, errors: sheet_page(request, db, member, lang, character_id, errors=errors),
    )
    count = forms.int_field(form, "actions", 1, low=1, high=10)
    signed.write(db, lambda s, member: scenes.declare_actions(s, member, character_id, count))
    return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}#roll-title")
