"""Saved rolls on the sheet page: the member's named rolls of the character
(drawn into ``#saved-rolls`` when the page loads), one tap to roll one again, a name to save the roll
form as it stands, and a delete. Plain routes over ``server.usecases.saved_rolls``: a repeat is an
ordinary roll (an edge in it is asked), through the pages' exactly-once path (``web.once``)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.entries import Logged
from rollbook.present import authority, forms
from rollbook.server.usecases import log, saved_rolls
from rollbook.web import table
from rollbook.web.deps import Db, Dice, Posted, Signed, page_router
from rollbook.web.respond import fragment, is_htmx, see_other
from rollbook.web.sheetpage import character_or_404, hidden_asked, parsed_form, sheet_page

router = page_router()


def _panel(
    request: Request,
    db,
    member,
    lang: str,
    chronicle_id: int,
    character_id: int,
    *,
    saved_name: str = "",
    message: str = "",
) -> HTMLResponse:
    with db.read() as session:
        found = saved_rolls.list_saved(session, member, character_id)
    return fragment(
        request,
        "_saved_rolls.html",
        lang,
        saved=found,
        cid=chronicle_id,
        character_id=character_id,
        saved_name=saved_name,
        message=message,
    )


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/saved", response_class=HTMLResponse)
def saved_panel(request: Request, db: Db, signed: Signed, chronicle_id: int, character_id: int) -> Response:
    """Drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, _row = signed.read_in(db)
        return _panel(request, db, member, lang, chronicle_id, character_id)


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/saved")
def save(
    request: Request, db: Db, signed: Signed, form: Posted, chronicle_id: int, character_id: int
) -> Response:
    """Save the roll form as it stands under a name (the form's fields come with ``hx-include``),
    read as the chronicle's game's in the save's one write; the panel drawn from one read."""
    signed.refused_into("save-roll", _sheet_again(request, db, character_id, form))
    hidden = hidden_asked(form)
    name = str(form.get("saved_name", ""))

    def action(chronicle, _character) -> dict:
        signed.knows(chronicle)
        return parsed_form(chronicle.system, form)[1]

    signed.write(db, lambda s, member: saved_rolls.save(s, member, character_id, name, action, hidden=hidden))
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}#saved-rolls")
    with db.one_read() as db:
        return _panel(request, db, signed.member, signed.lang(db), chronicle_id, character_id)


def _sheet_again(request: Request, db, character_id: int, form: dict):
    """A refusal of the roll form's save without JavaScript: the sheet page again, what was typed kept."""
    kind = str(form.get("kind", ""))
    return lambda member, lang, errors: sheet_page(
        request, db, member, lang, character_id, errors=errors, values=form, kind=kind
    )


@router.post("/chronicles/{chronicle_id}/saved/{saved_id}/roll")
def repeat(
    request: Request, db: Db, signed: Signed, form: Posted, dice: Dice, chronicle_id: int, saved_id: int
) -> Response:
    """One tap: the saved roll rolled again (or asked again), its one write; its card on top of the
    feed, drawn from one read."""
    signed.refused_into(
        f"saved-{saved_id}", lambda _member, _lang, _errors: see_other(f"/chronicles/{chronicle_id}")
    )
    result = signed.write(db, lambda s, member: saved_rolls.repeat(s, member, saved_id, source=dice), form)
    entry = result["entry"]  # the roll's, or the ask's (A-1: an edge in a saved roll is asked)
    logged = Logged.of(entry)
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{logged.seq}")
    with db.one_read() as db:
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        with db.read() as session:
            followed = log.followed_up(session, member, [logged.seq])
            revealed = table.revealed_seeds(session, member)
        viewer = table.viewer_of(member, state.chronicle, lang)
        card = table.cards_for(
            [entry], viewer, state.characters, followed, state.chronicle["system"], revealed=revealed
        )[0]
        character = character_or_404(state, logged.character) if logged.character else None
        p = (
            authority.panel(db, member, lang, state.chronicle, state.characters, state.members)
            if "ask" in result
            else None
        )
        return fragment(
            request,
            "_after_saved.html",
            lang,
            card=card,
            saved_id=saved_id,
            chronicle=state.chronicle,
            me=state.me,
            character=character,
            sheet=character.sheet if character else None,
            system=state.chronicle["system"],
            p=p,
            errors={},
        )


@router.post("/chronicles/{chronicle_id}/saved/{saved_id}/delete")
def delete(
    request: Request, db: Db, signed: Signed, chronicle_id: int, saved_id: int, form: Posted
) -> Response:
    signed.refused_into(
        f"saved-{saved_id}", lambda _member, _lang, _errors: see_other(f"/chronicles/{chronicle_id}")
    )
    character_id = forms.int_field(form, "character", 0, low=0, high=2**31 - 1)  # whose panel to draw again
    signed.write(db, lambda s, member: saved_rolls.delete_saved(s, member, saved_id))
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}#saved-rolls")
    with db.one_read() as db:
        return _panel(request, db, signed.member, signed.lang(db), chronicle_id, character_id)
