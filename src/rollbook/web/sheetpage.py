"""The character pages' contents: a new character's form, the sheet with its roll, change and edit
forms (each form starting from what it was last, so a reload loses nothing)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from rollbook import interop, play
from rollbook.i18n import N_, translate
from rollbook.play.common import merge
from rollbook.present import authority, exchange, forms, labels
from rollbook.present.sheetview import identity, rating_groups, specialties
from rollbook.present.table_face import table_face
from rollbook.present.words import words
from rollbook.render.interop import FORMAT_NAMES
from rollbook.rules.base import RuleError
from rollbook.server.access import STORYTELLER
from rollbook.server.models import Caller, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import log as log_cases
from rollbook.server.usecases import rolls
from rollbook.server.usecases.checks import DIFFICULTY_SYSTEMS
from rollbook.web import sheetform, sheetpatch, table
from rollbook.web.respond import page


def character_or_404(state: table.Table, character_id: int) -> table.CharacterRow:
    found = state.character(character_id)
    if found is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    if not found.may_open:
        raise ProblemError(403, "not_your_character")
    return found


def sheet_from_values(system: str, sheet: dict, values: dict) -> dict:
    """The posted sheet form back on the sheet (to re-render it after a refusal)."""
    try:  # every field that can be read, the others left as they were
        patch = sheetpatch.patch_from_form(system, values, sheet, None, lenient=True)
    except RuleError:
        return sheet
    return merge(sheet, patch)


def new_character_page(
    request: Request,
    db,
    member: Caller,
    lang: str,
    *,
    errors=None,
    values=None,
    status: int = 200,
    row: Chronicle | None = None,
) -> HTMLResponse:
    """The new character's page (``row``: the chronicle's, when the caller read it in the same read)."""
    state = table.load(db, member, lang, feed=False, row=row)
    system = state.chronicle["system"]
    sheet = play.new_sheet(system, {"name": "—"})
    sheet["name"] = ""
    if values:
        sheet = sheet_from_values(system, sheet, values)
    sections = sheetform.sections(
        system, sheet, lang, sheetform.editable_keys(system, member.role, True), creating=not values
    )
    return page(
        request,
        "character_new.html",
        lang,
        status=status,
        t=state,
        me=state.me,
        sections=sections,
        errors=errors or {},
        values=values or {},
        system_name=labels.system_name(system, lang),
    )


def sheet_page(
    request: Request,
    db,
    member: Caller,
    lang: str,
    character_id: int,
    *,
    errors=None,
    values=None,
    kind: str | None = None,
    change: str | None = None,
    status: int = 200,
    row: Chronicle | None = None,
) -> HTMLResponse:
    """The sheet page, drawn from one read transaction (``row``: the chronicle's, read in it)."""
    with db.one_read() as db:  # the page drawn from one read transaction
        state = table.load(db, member, lang, row=row)
        character = character_or_404(state, character_id)
        return page(
            request,
            "sheet.html",
            lang,
            status=status,
            **sheet_context(
                db, state, character, member, lang, errors=errors, values=values, kind=kind, change=change
            ),
        )


def parsed_form(system: str, form: dict, part: str = "actions") -> tuple[str, dict]:
    """The sheet's roll form (``part`` "actions") or change form ("changes") of ``system`` as posted
    -> (its kind, the action or change the server expects)."""
    kind = str(form.get("kind" if part == "actions" else "change", ""))
    return kind, forms.parse_form(forms.schema_for(system, part, kind), form, kind)


def hidden_asked(form: dict) -> bool:
    """The roll form's "hidden" box ticked."""
    return str(form.get("hidden", "")).lower() in ("on", "true", "1")


def export_link(system: str, lang: str) -> tuple[str, str] | None:
    """The format the system's characters export to (``interop.export_format``: the format whose
    module holds the system) and the link's words; None when no format holds them (Tiers, roll-under)."""
    try:
        format = interop.export_format(system)
    except RuleError:
        return None
    return format, translate(
        N_("Export the sheet for {format}"), lang, format=FORMAT_NAMES.get(format, format)
    )


def sheet_context(
    db,
    state: table.Table,
    character: table.CharacterRow,
    member: Caller,
    lang: str,
    *,
    errors=None,
    values=None,
    kind: str | None = None,
    change: str | None = None,
    read: dict | None = None,
) -> dict[str, Any]:
    """What the sheet page draws (``read``: the sheet's authority, ``usecases.authority.sheet_state``,
    when the caller read it in the same read for the kind the page opens on)."""
    system = state.chronicle["system"]
    sheet = character.sheet or {}
    kinds = forms.action_kinds(system, member.role)
    rolled = table.last_actions(db, member, character.id) if not values else []  # read once
    last = log_cases.latest_action(rolled)
    if kind not in kinds and last and last.get("kind") in play.system_module(system).CHAINS:
        # after an exchange the sheet reopens on the roll tab, not on its last step's (Damage,
        # Soak): a step is taken from the card of the roll it follows
        kind = kinds[0]
        last = log_cases.latest_action(rolled, kind)
    elif kind not in kinds:
        kind = last["kind"] if last and last.get("kind") in kinds else kinds[0]
    elif not values and (last is None or last.get("kind") != kind):
        last = log_cases.latest_action(rolled, kind)  # this tab's last roll
    changes = forms.change_kinds(system, member.role)
    change = change if change in changes else (changes[0] if changes else None)
    values = values or {}
    editable = sheetform.editable_keys(system, member.role, False)
    edit_values = sheet
    if values and errors and "sheet" in errors:
        edit_values = sheet_from_values(system, sheet, values)
    standing = rolls.standing_difficulty(state.chronicle.get("difficulty"), character.difficulty)
    authority_state = read if read is not None and read["kind"] == kind else None
    if authority_state is None:
        with db.read() as session:  # what applies without asking; A-4: the actions declared this turn
            authority_state = authority_cases.sheet_state(session, member, state.row, character, kind)
    baseline, declared = authority_state["baseline"], authority_state["declared"]
    fields = roll_fields(
        system,
        kind,
        sheet,
        lang,
        values
        if values.get("kind") == kind
        else (forms.carry_over(last) if last and last.get("kind") == kind else None),
        standing,
        member.role,
    )
    authority.start_from_baseline(
        system, kind, fields, baseline, member.role, lang, posted=values.get("kind") == kind
    )
    p = authority.panel(db, member, lang, state.chronicle, state.characters, state.members, authority_state)
    face = table_face(state.chronicle.get("system"))
    compulsion = (
        face.sheet_panel(
            state.chronicle,
            character.id,
            sheet,  # seed 001: in force, called, ended
            state.compulsions.get(character.id),
            member.role == STORYTELLER,
            lang,
            scene_open=p.scene is not None,
        )
        if face is not None
        else None
    )
    return dict(
        t=state,
        me=state.me,
        character=character,
        sheet=sheet,
        system=system,
        compulsion=compulsion,
        system_name=labels.system_name(system, lang),
        export=export_link(system, lang),
        standing_field=system in DIFFICULTY_SYSTEMS,  # the system's rolls take a standing difficulty
        weapon_from_sheet=words(system).WEAPON_FROM_SHEET,  # an exchange's damage roll names a weapon
        identity=identity(sheet, lang),
        groups=rating_groups(system, sheet, lang),
        specialties=specialties(sheet, lang),
        kinds=[(k, exchange.roll_kind(system, k, lang)) for k in kinds],
        kind=kind,
        target_choices=exchange.target_choices(system, kind, character.id, state.characters),
        target=values.get("target") if values.get("kind") == kind else None,
        roll_fields=fields,
        p=p,
        limits=authority.sheet_limits(system, sheet, lang),
        declared=declared,
        roll_label=authority.roll_button(system, lang, asking=False, role=member.role),
        changes=[(k, labels.kind(system, k, lang)) for k in changes],
        change=change,
        change_fields=forms.fields_for(
            system,
            forms.schema_for(system, "changes", change),
            sheet,
            lang,
            values if values.get("change") == change else None,
        )
        if change
        else [],
        change_nothing=forms.nothing_to_change(change, sheet, lang),
        edit_sections=sheetform.sections(
            system, edit_values, lang, editable, adds_only=member.role != STORYTELLER
        ),
        errors=errors or {},
        values=values,
        standing=standing,
        odds=None,
        odds_error="",
        pool_text="",
    )


def roll_fields(
    system: str, kind: str, sheet: dict, lang: str, values: dict | None, standing: int | None, role: str
) -> list[forms.FieldView]:
    fields = forms.fields_for(system, forms.schema_for(system, "actions", kind), sheet, lang, values)
    for f in fields:
        if f.name == "difficulty" and standing is not None and role == STORYTELLER:
            if values is None or "difficulty" not in values:
                f.value = standing
        if role != STORYTELLER and f.options:
            reserved = forms.storyteller_values(system, kind, f.name)
            f.options = [o for o in f.options if o.value not in reserved]
    forms.mark_exclusive(system, kind, fields, lang)
    return fields
