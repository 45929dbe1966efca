"""Characters: a new character, the sheet page, its roll and change forms (htmx tabs), the odds of
the roll the form describes, and sheet edits."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook import play
from rollbook.i18n import N_, translate
from rollbook.play import authority as edges_of
from rollbook.present import authority, forms, labels
from rollbook.present.preview import preview
from rollbook.rules.base import RuleError
from rollbook.server.access import STORYTELLER
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import characters, rolls
from rollbook.web import redraws, sheetform, sheetpatch, table
from rollbook.web.deps import Asked, Db, PageAccess, Posted, Signed, page_router
from rollbook.web.errors import error_detail, on_refusal
from rollbook.web.respond import fragment, is_htmx, see_other
from rollbook.web.sheetpage import character_or_404, new_character_page, sheet_context, sheet_page

router = page_router()


@router.get("/chronicles/{chronicle_id}/characters/new", response_class=HTMLResponse)
def new_character(request: Request, db: Db, signed: Signed) -> Response:
    """The new character's page, drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        return new_character_page(request, db, member, lang, row=row)


@router.post("/chronicles/{chronicle_id}/characters")
def add_character(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    """A new character: the form read as the chronicle's game's against the chronicle the write locks
    (its one write, the member found in it)."""
    signed.refused_into(
        "character",
        lambda member, lang, errors: new_character_page(
            request, db, member, lang, errors=errors, values=form
        ),
    )

    def sheet(chronicle) -> tuple[str, dict]:
        signed.knows(chronicle)
        blank = play.new_sheet(chronicle.system, {"name": "—"})
        patch = sheetpatch.without_nulls(sheetpatch.patch_from_form(chronicle.system, form, blank, None))
        name = str(patch.get("name", "")).strip()
        if not name:
            raise RuleError("missing_field", field="name")
        return name, patch

    def work(s, member) -> dict:
        fields: dict[str, Any] = {}
        if member.role == STORYTELLER:
            owner = str(form.get("owner", "")).strip()
            fields["owner"] = int(owner) if owner.isdigit() else None
        return characters.add_character(s, member, resolve=sheet, **fields)

    created = signed.write(db, work, form)
    return see_other(f"/chronicles/{chronicle_id}/characters/{created['id']}")


@router.get("/chronicles/{chronicle_id}/characters/{character_id}", response_class=HTMLResponse)
def character_sheet(request: Request, character_id: int, db: Db, signed: Signed) -> Response:
    """The sheet page: its reader found first thing in its one read (``PageAccess.read_in``)."""
    kind, change = request.query_params.get("kind"), request.query_params.get("change")
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        return sheet_page(request, db, member, lang, character_id, kind=kind, change=change, row=row)


def _sheet_form(
    request: Request,
    db,
    signed: PageAccess,
    chronicle_id: int,
    character_id: int,
    choice: str,
    template: str,
    anchor: str,
) -> Response:
    """The roll or change form for the ``kind`` or ``change`` asked (``choice``): the fragment htmx
    swaps in when a tab is picked, or without htmx the sheet with that tab chosen; drawn from one
    read transaction that finds its reader first (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        character = character_or_404(state, character_id)
        asked: dict[str, Any] = {choice: request.query_params.get(choice)}
        context = sheet_context(db, state, character, member, lang, **asked)
        if not is_htmx(request):
            sheet = f"/chronicles/{chronicle_id}/characters/{character_id}"
            return see_other(f"{sheet}?{choice}={context[choice]}#{anchor}")
        return fragment(request, template, lang, **context)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/roll-form", response_class=HTMLResponse)
def roll_form(request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed) -> Response:
    """The roll form for one kind of roll (htmx swaps it in when a tab is picked)."""
    return _sheet_form(request, db, signed, chronicle_id, character_id, "kind", "_roll_form.html", "roll")


@router.get(
    "/chronicles/{chronicle_id}/characters/{character_id}/roll-form/redrawn", response_class=HTMLResponse
)
def roll_form_redrawn(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, values: Asked
) -> Response:
    """A-1: the open roll form redrawn when a standing grant starts or ends — what the
    player chose is kept, every edge starts from the new baseline (what now applies without asking).
    Drawn from one read transaction that finds its reader first (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        character = character_or_404(state, character_id)
        system, kind = state.chronicle["system"], str(values.get("kind", ""))
        with db.read() as session:
            read = authority_cases.sheet_state(session, member, state.row, character, kind)
        kept = {name: value for name, value in values.items() if not edges_of.is_edge(system, kind, name)}
        kept.update(
            {name: value for name, value in read["baseline"].items() if edges_of.is_edge(system, kind, name)}
        )
        context = sheet_context(db, state, character, member, lang, values=kept, kind=kind, read=read)
        return fragment(request, "_roll_form.html", lang, **context)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/parts/{part}", response_class=HTMLResponse)
def sheet_part(request: Request, character_id: int, part: str, db: Db, signed: Signed) -> Response:
    """One part of the sheet page drawn again, which a live entry redraws (``web.redraws``): the
    tags, the compulsion, the traits, the limits per turn, the Storyteller's actions this turn. Drawn
    from one read transaction that finds its reader first (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        template = redraws.SHEET_PARTS.get(part)
        if template is None:
            raise ProblemError(404, "not_found", path=request.url.path)
        state = table.load(db, member, lang, feed=False, row=row)
        character = character_or_404(state, character_id)
        context = sheet_context(db, state, character, member, lang)
        return fragment(request, template, lang, chronicle=state.chronicle, **context)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/change-form", response_class=HTMLResponse)
def change_form(request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed) -> Response:
    return _sheet_form(
        request, db, signed, chronicle_id, character_id, "change", "_change_form.html", "changes"
    )


def _odds_refusal(request: Request, lang: str):
    def render(error: Exception) -> Response:
        if getattr(error, "code", None) == "missing_field":
            # a field not filled in yet is not an error: say what the odds wait for
            name = str((getattr(error, "params", None) or {}).get("field", "")).rsplit(".", 1)[-1]
            prompt = translate(N_("Fill in “{field}” to see the odds."), lang, field=labels.field(name, lang))
            return fragment(
                request, "_odds.html", lang, odds=None, odds_error="", pool_text="", odds_prompt=prompt
            )
        _status, text = error_detail(error, lang, request)
        return fragment(request, "_odds.html", lang, odds=None, odds_error=text, pool_text="")

    return render


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/odds", response_class=HTMLResponse)
def odds(request: Request, character_id: int, db: Db, signed: Signed, values: Asked) -> Response:
    """The exact odds of the roll the form describes (htmx asks on every change, before rolling),
    drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        on_refusal(request, _odds_refusal(request, lang))
        state = table.load(db, member, lang, feed=False, row=row)
        character_or_404(state, character_id)
        system = state.chronicle["system"]
        kind = str(values.get("kind", ""))
        action = forms.parse_form(forms.schema_for(system, "actions", kind), values, kind)
        with db.read() as session:  # the chronicle, the character, its standing grants: read once
            reads = authority_cases.roll_reads(session, member, character_id)
        offers = authority.offers_for(db, member, character_id, action, reads)
        action = authority.offer_action(offers, values.get("offer"), action)
        hidden = authority.ticked(values.get("hidden"))
        with (
            db.read() as session
        ):  # A-1, TR-1, seed 001: the request the roll would make (rolls.odds_request)
            made = rolls.odds_request(session, member, character_id, action, hidden=hidden, reads=reads)
    asking = bool(made.asked)
    # the odds as asked (if the Storyteller grants it) and, when it asks, as things stand
    view, pool_text = preview(**made.preview(), lang=lang)
    baseline_view = preview(**made.preview(baseline=True), lang=lang)[0] if asking else None
    return fragment(
        request,
        "_odds.html",
        lang,
        odds=view,
        odds_error="",
        pool_text=pool_text,
        baseline_odds=baseline_view,
        asking=asking and member.role != STORYTELLER,
        asked_text=authority.edges_text(system, made.asked, lang),
        offers=offers,
        offer=str(values.get("offer", "")),
        gm=authority.storyteller_word(system, lang),
        button_label=authority.roll_button(system, lang, asking=asking, role=member.role),
    )


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/sheet")
def edit_sheet(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    """A sheet edited: the form read against the chronicle and the character the edit locks (its one
    write, the member found in it)."""
    signed.refused_into(
        "sheet",
        lambda member, lang, errors: sheet_page(
            request, db, member, lang, character_id, errors=errors, values=form
        ),
    )

    def fields(chronicle, character) -> dict[str, Any]:
        signed.knows(chronicle)
        member = signed.member
        editable = sheetform.editable_keys(chronicle.system, member.role, False)
        patch = sheetpatch.patch_from_form(chronicle.system, form, character.sheet or {}, editable)
        found: dict[str, Any] = {"patch": patch}
        new_name = patch.get("name")
        if isinstance(new_name, str) and new_name.strip() and new_name != character.name:
            found["name"] = new_name.strip()
        if member.role == STORYTELLER and "standing_difficulty" in form:
            found["difficulty"] = forms.int_field(form, "standing_difficulty")
        return found

    given: dict[str, Any] = {"version": forms.int_field(form, "version")}
    base = _base(form)
    if base is not None:  # only what this editor changed, applied on the sheet as it is now
        given["base"] = base
    signed.write(
        db,
        lambda s, member: characters.edit_character(s, member, character_id, resolve=fields, **given),
        form,
    )
    return see_other(f"/chronicles/{chronicle_id}/characters/{character_id}")


def _base(form) -> dict | None:
    """The sheet the editor was drawn from (its hidden ``base`` field), or None."""
    import json

    try:
        base = json.loads(str(form.get("base") or ""))
    except ValueError:
        return None
    return base if isinstance(base, dict) else None


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/remove")
def remove_character(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    """The Storyteller removes a character from the table (logged; its rolls stay in the log)."""
    signed.refused_into(
        "remove",
        lambda member, lang, errors: sheet_page(request, db, member, lang, character_id, errors=errors),
    )
    signed.write(db, lambda s, member: characters.remove_character(s, member, character_id), form)
    return see_other(f"/chronicles/{chronicle_id}")
