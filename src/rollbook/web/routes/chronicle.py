"""The chronicle's page (the table: members, characters, the feed), its settings, its invitation."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.i18n import N_, translate
from rollbook.play.quick import is_quick_edge
from rollbook.present import authority, contests, forms, labels
from rollbook.present.words import words
from rollbook.server.access import STORYTELLER
from rollbook.server.models import Caller, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import chronicles
from rollbook.server.usecases import members as member_cases
from rollbook.server.usecases import rolls as rolls_cases
from rollbook.web import keychain, presence, redraws, table
from rollbook.web.deps import Db, Dice, Posted, Signed, page_router
from rollbook.web.errors import alert_response, on_refusal
from rollbook.web.guard import origin_of
from rollbook.web.once import once
from rollbook.web.respond import INVITATION_COOKIE, fragment, is_htmx, page, see_other, with_invitation

router = page_router()


def chronicle_page(
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
    """The chronicle page, drawn from one read transaction (``row``: the chronicle's, read in it)."""
    with db.one_read() as db:  # the page drawn from one read transaction
        return page(
            request,
            "chronicle.html",
            lang,
            status=status,
            **chronicle_context(request, db, member, lang, errors=errors, values=values, row=row),
        )


def chronicle_context(
    request: Request,
    db,
    member: Caller,
    lang: str,
    *,
    errors=None,
    values=None,
    feed: bool = True,
    row: Chronicle | None = None,
) -> dict[str, Any]:
    """What the chronicle page draws, for this member in their language (``row``: ``table.load``'s)."""
    state = table.load(db, member, lang, feed=feed, row=row)
    with db.read() as session:  # the scene, the asks, the standing grants (of the chronicle read)
        authority_state = authority_cases.table_state(session, member, state.row)
    return dict(
        t=state,
        me=state.me,
        errors=errors or {},
        people=presence.people(db, member, state),  # who is online
        values=values or {},
        invitation=shown_invitation(request, db, member),
        new_key=keychain.new_key(request),
        base_url=origin_of(request.scope),  # the proxy's scheme and host with ROLLBOOK_TRUST_PROXY
        quick=quick_form(db, member, lang, state.chronicle),
        system_name=labels.system_name(state.chronicle["system"], lang),
        p=authority.panel(
            db, member, lang, state.chronicle, state.characters, state.members, authority_state
        ),
        fs=table.fair_state(db, member, state.reveals),
        cp=contests.panel(state.chronicle, state.characters, member.role == "storyteller", lang),
    )


@router.get("/chronicles/{chronicle_id}/parts/{part}", response_class=HTMLResponse)
def chronicle_part(request: Request, part: str, db: Db, signed: Signed) -> Response:
    """One part of the chronicle page drawn again, which a live entry redraws (``web.redraws``), from
    one read transaction that finds its reader first (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        template = redraws.CHRONICLE_PARTS.get(part)
        if template is None:
            raise ProblemError(404, "not_found", path=request.url.path)
        context = chronicle_context(request, db, member, lang, feed=False, row=row)
        return fragment(request, template, lang, chronicle=context["t"].chronicle, **context)


def shown_invitation(request: Request, db, member: Caller) -> str | None:
    """The invitation this browser holds for the Storyteller, while it is still the one in force (a
    removal replaces it: a stale code is not shown as if it worked)."""
    held = request.cookies.get(INVITATION_COOKIE)
    if member.role != STORYTELLER or not held:
        return None
    with db.read() as session:
        return held if member_cases.invitation_current(session, member, held) else None


@router.get("/chronicles/{chronicle_id}", response_class=HTMLResponse)
def chronicle(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    """The table page: its reader found first thing in its one read (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        return chronicle_page(request, db, member, lang, row=row)


def _on_the_table(request: Request, db, values: dict | None = None):
    """A refusal's page without JavaScript: the chronicle page again, the message in place."""
    return lambda member, lang, errors: chronicle_page(
        request, db, member, lang, errors=errors, values=values
    )


@router.post("/chronicles/{chronicle_id}/settings")
def chronicle_settings(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into("settings", _on_the_table(request, db, form))
    changes: dict[str, Any] = {"difficulty": forms.int_field(form, "difficulty")}
    if form.get("mode"):
        changes["mode"] = str(form["mode"])
    if form.get("language"):
        changes["language"] = str(form["language"])
    if str(form.get("name", "")).strip():
        changes["name"] = str(form["name"]).strip()
    signed.write(db, lambda s, member: chronicles.update_chronicle(s, member, **changes))
    return see_other(f"/chronicles/{chronicle_id}")


@router.post("/chronicles/{chronicle_id}/invitation")
def new_invitation(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    created = signed.write(db, chronicles.new_invitation)
    return with_invitation(
        request, see_other(f"/chronicles/{chronicle_id}#invitation"), created["invitation"], chronicle_id
    )


@router.post("/chronicles/{chronicle_id}/key-saved")
def key_saved(chronicle_id: int, db: Db, signed: Signed) -> Response:
    """The member saved their access key: it is no longer shown (the reader checked in one read)."""
    with db.read() as session:
        signed.member_in(session)
    return keychain.key_saved(see_other(f"/chronicles/{chronicle_id}#key-title"), chronicle_id)


@router.post("/chronicles/{chronicle_id}/key")
def new_key(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    """A new access key (every older key and session is revoked, this browser's session renewed)."""

    def work(s, member):
        key = member_cases.rotate_key(s, member)["token"]
        return {"key": key, "session": keychain.session_for(s, key)[1]}

    made = signed.write(db, work)
    response = see_other(f"/chronicles/{chronicle_id}#key-title")
    keychain.show_new_key(request, response, chronicle_id, made["key"])
    return keychain.add(request, response, chronicle_id, made["session"])


@router.post("/chronicles/{chronicle_id}/members/{member_id}/remove")
def remove_member(request: Request, chronicle_id: int, member_id: int, db: Db, signed: Signed) -> Response:
    """The Storyteller removes a member: their keys and sessions revoked, logged; the invitation
    replaced, the new one shown on this page."""
    signed.refused_into("people", _on_the_table(request, db))
    removed = signed.write(db, lambda s, member: member_cases.remove_member(s, member, member_id))
    return with_invitation(
        request, see_other(f"/chronicles/{chronicle_id}#invitation"), removed["invitation"], chronicle_id
    )


# --- quick rolls: dice without a sheet ---------------------------------------------------------------

QUICK_LABELS = {
    "pool": N_("Dice"),
    "hunger": N_("Hunger"),
    "difficulty": N_("Difficulty"),
    "skill": N_("Skill"),
    "bonus": N_("Bonus"),
    "malus": N_("Malus"),
    "level": N_("Level"),
    "action": N_("Declared action"),
    "advantage": N_("Advantage"),
    "disadvantage": N_("Disadvantage"),
}
QUICK_DEFAULTS = {
    "pool": 6,
    "hunger": 0,
    "difficulty": None,
    "skill": 50,
    "bonus": 0,
    "malus": 0,
    "level": 10,
}


def quick_form(db, member: Caller, lang: str, chronicle: dict) -> dict:
    """The quick roll's fields in the game's terms, and whether this member may use it."""
    system = chronicle["system"]
    with db.read() as session:
        allowed = rolls_cases.quick_rolls_allowed(session, chronicle["id"])
    fields = []
    for name in rolls_cases.QUICK_FIELDS.get(system, ()):
        if member.role != STORYTELLER and is_quick_edge(system, name):
            continue  # the Storyteller's (the standing values apply to a player's quick roll)
        widget = (
            "checkbox" if name in ("advantage", "disadvantage") else "text" if name == "action" else "number"
        )
        default = QUICK_DEFAULTS.get(name)
        if name == "difficulty" and words(system).QUICK_STANDING_DIFFICULTY:
            default = chronicle.get("difficulty") or 6
        fields.append(
            {"name": name, "label": translate(QUICK_LABELS[name], lang), "widget": widget, "value": default}
        )
    return {"fields": fields, "allowed": allowed, "usable": allowed or member.role == STORYTELLER}


def _quick_values(system: str, form: dict[str, Any]) -> dict[str, Any]:
    """The quick roll's form as the game's ``QUICK_FIELDS``."""
    values: dict[str, Any] = {}
    for name in rolls_cases.QUICK_FIELDS.get(system, ()):
        if name in ("advantage", "disadvantage"):
            if str(form.get(name, "")).lower() in ("on", "true", "1"):
                values[name] = True
        elif name == "action":
            values[name] = str(form.get(name, "")).strip()
        else:
            number = forms.int_field(form, name)
            if number is not None:
                values[name] = number
    return values


@router.post("/chronicles/{chronicle_id}/quick")
def quick_roll(
    request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted, dice: Dice
) -> Response:
    """A quick roll (no sheet), through the one roll path's ``quick_roll``: the member found and the
    form read as the chronicle's game's (``checks.Resolve``) in the roll's one write; the answer
    drawn from one read."""

    def again(errors: dict[str, str]) -> Response:
        return chronicle_page(request, db, signed.member, signed.lang(), errors=errors, values=form)

    on_refusal(request, lambda error: alert_response(request, error, signed.lang(), "quick", again))
    hidden = str(form.get("hidden", "")).lower() in ("on", "true", "1")

    def values(chronicle, _character) -> dict[str, Any]:
        signed.knows(chronicle)
        return _quick_values(chronicle.system, form)

    result = once(
        request,
        db,
        signed.member_in,
        form,
        lambda s: rolls_cases.quick_roll(s, signed.member, values, hidden=hidden, source=dice),
    )
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{result['entry']['seq']}")
    with db.one_read() as db:  # the answer drawn from one read transaction
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
    card = table.cards_for(
        [result["entry"]],
        table.viewer_of(signed.member, state.chronicle, lang),
        state.characters,
        {},
        state.chronicle["system"],
    )[0]
    return fragment(
        request, "_after_quick.html", lang, card=card, chronicle=state.chronicle, me=state.me, errors={}
    )


@router.post("/chronicles/{chronicle_id}/quick-setting")
def quick_setting(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    """The Storyteller allows or forbids the players' quick rolls."""
    signed.refused_into("quick", _on_the_table(request, db))
    given = form.get("allowed", "")
    if isinstance(given, list):  # the hidden "off" and the ticked box's "on": the box says
        given = given[-1]
    allowed = str(given).lower() in ("on", "true", "1")
    signed.write(db, lambda s, member: rolls_cases.set_quick_rolls(s, member, allowed))
    return see_other(f"/chronicles/{chronicle_id}#quick-title")
