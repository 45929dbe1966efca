"""Rolls and what follows them: a roll and an adjustment from the sheet, the V5 Willpower reroll
(with the odds engine's advice), the Storyteller's reveal, and one receipt on its own page.

With htmx each answers fragments: the new card on top of the feed, the card it follows up
replaced, the sheet's resources swapped out of band. Without JavaScript: a 303 back to the page.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.entries import AdjustReceipt, Logged, QuickRollReceipt, RollReceipt
from rollbook.present import authority, exchange, forms
from rollbook.present.present import GOALS
from rollbook.present.preview import reroll_advice
from rollbook.present.words import words
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.access import STORYTELLER
from rollbook.server.db import OneRead
from rollbook.server.models import Caller
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import characters, log, rolls
from rollbook.server.usecases.checks import Resolve
from rollbook.web import powerform, table
from rollbook.web.deps import Db, Dice, PageAccess, Posted, Signed, page_router
from rollbook.web.errors import alert_response, error_detail, on_refusal
from rollbook.web.once import once
from rollbook.web.respond import fragment, is_htmx, page, see_other
from rollbook.web.routes.chronicle import chronicle_page
from rollbook.web.sheetpage import character_or_404, hidden_asked, parsed_form, sheet_context, sheet_page

router = page_router()


def _cards(db, member: Caller, state: table.Table, lang: str, entries: list[dict], seqs: list[int]) -> list:
    with db.read() as session:
        followed = log.followed_up(session, member, seqs)
        revealed = table.revealed_seeds(session, member)
    viewer = table.viewer_of(member, state.chronicle, lang)
    return table.cards_for(
        entries, viewer, state.characters, followed, state.chronicle["system"], revealed=revealed
    )


def _after_change(
    request: Request,
    db,
    signed: PageAccess,
    chronicle_id: int,
    character_id: int,
    result: dict,
    form_id: str,
    change: str | None = None,
    kind: str | None = None,
) -> Response:
    """After a roll or an adjustment: the new card on top of the feed and the sheet's resources
    out of band (htmx), or back to the sheet (no JavaScript)."""
    if not is_htmx(request):
        return see_other(
            f"/chronicles/{chronicle_id}/characters/{character_id}#entry-{result['entry']['seq']}"
        )
    with db.one_read() as db:  # the answer drawn from one read transaction, the chronicle's row once
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        character = character_or_404(state, character_id)
        card = _cards(db, member, state, lang, [result["entry"]], [result["entry"]["seq"]])[0]
        context = sheet_context(db, state, character, member, lang, change=change, kind=kind)
        return fragment(
            request,
            "_after_change.html",
            lang,
            card=card,
            form_id=form_id,
            chronicle=state.chronicle,
            asked="ask" in result,
            **{k: v for k, v in context.items() if k not in ("errors",)},
            errors={},
        )


def _sheet_refusal(
    request: Request,
    db,
    signed: PageAccess,
    character_id: int,
    form: dict,
    into: str,
    *,
    kind: str | None = None,
    change: str | None = None,
) -> None:
    """A refusal of the sheet's roll or change form (``sheetpage.parsed_form``'s): into the form with
    htmx, else the sheet page again with what was typed, in the reader's language."""

    def again(errors: dict[str, str]) -> Response:
        lang = signed.lang()
        return sheet_page(
            request,
            db,
            signed.member,
            lang,
            character_id,
            errors=errors,
            values=form,
            kind=kind,
            change=change,
        )

    on_refusal(request, lambda error: alert_response(request, error, signed.lang(), into, again))


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/rolls")
def roll(
    request: Request,
    chronicle_id: int,
    character_id: int,
    db: Db,
    signed: Signed,
    form: Posted,
    dice: Dice,
) -> Response:
    """The sheet's roll form: the member found, the form resolved (against the chronicle's system and
    the character's sheet: ``checks.Resolve``) and the roll made in the roll's one write, as the API's
    roll; its answer drawn from one read."""
    kind = str(form.get("kind", ""))
    _sheet_refusal(request, db, signed, character_id, form, "roll", kind=kind)
    hidden = hidden_asked(form)
    target = forms.int_field(form, "target")  # an attack's target: the defender's button (V20-17, T-4)

    def posted(session) -> Resolve:
        def action(chronicle, character) -> dict:
            signed.knows(chronicle)
            made = parsed_form(chronicle.system, form)[1]
            if kind == "power":  # choosing a power sets its Discipline
                made = powerform.with_its_discipline((character.sheet if character else None) or {}, made)
            return authority.with_offer(  # A-4, read in the write
                OneRead(db, session), signed.member, character_id, made, form.get("offer")
            )

        return action

    # a player's roll that asks for more than what stands is sent to the Storyteller (the
    # form's button says so); the Storyteller's own edges apply directly.
    result = once(
        request,
        db,
        signed.member_in,
        form,
        lambda s: rolls.roll(
            s,
            signed.member,
            character_id,
            posted(s),
            hidden=hidden,
            ask=signed.member.role != STORYTELLER,
            source=dice,
            target=target,
        ),
    )
    return _after_change(request, db, signed, chronicle_id, character_id, result, "roll", kind=kind)


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/adjustments")
def adjust(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    change = str(form.get("change", ""))
    _sheet_refusal(request, db, signed, character_id, form, "change", change=change)

    def data(chronicle, _character) -> dict:
        signed.knows(chronicle)
        return parsed_form(chronicle.system, form, "changes")[1]

    result = once(
        request, db, signed.member_in, form, lambda s: characters.adjust(s, signed.member, character_id, data)
    )
    return _after_change(request, db, signed, chronicle_id, character_id, result, "change", change)


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
            raise RuleError("reroll_bad_index", index=text, number=text) from None
    return out


def _card_refusal(request: Request, db, signed: PageAccess, form_id: str) -> None:
    """A refusal of a card's button: into its form with htmx, else the chronicle page again."""

    def again(errors: dict[str, str]) -> Response:
        return chronicle_page(request, db, signed.member, signed.lang(), errors=errors)

    on_refusal(request, lambda error: alert_response(request, error, signed.lang(), form_id, again))


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reroll")
def reroll(
    request: Request,
    chronicle_id: int,
    seq: int,
    db: Db,
    signed: Signed,
    form: Posted,
    dice: Dice,
) -> Response:
    """The V5 Willpower reroll from a card (V5-8): the member found in the reroll's one write, the
    answer (the new card, the card it follows up) drawn from one read."""
    form_id = f"reroll-{seq}"
    _card_refusal(request, db, signed, form_id)

    def work(session) -> dict:
        member = signed.member_in(session)
        chosen = _dice_of(form)
        return rolls.reroll(session, member, seq, {"kind": "reroll", "dice": chosen}, source=dice)

    result = tx.run(db, work)
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{result['entry']['seq']}")
    with db.one_read() as db:  # the answer drawn from one read transaction, the chronicle's row once
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        with db.read() as session:
            earlier = log.log_entry(session, member, seq)
        card, original = _cards(
            db, member, state, lang, [result["entry"], earlier], [seq, result["entry"]["seq"]]
        )
    character = state.character(result["entry"]["character"]) if result["entry"].get("character") else None
    return fragment(
        request,
        "_after_reroll.html",
        lang,
        card=card,
        original=original,
        form_id=form_id,
        chronicle=state.chronicle,
        me=state.me,
        character=character,
        sheet=(character.sheet if character else None) or {},
        system=state.chronicle["system"],
    )


@router.get("/chronicles/{chronicle_id}/entries/{seq}/advice", response_class=HTMLResponse)
def advice(request: Request, seq: int, db: Db, signed: Signed) -> Response:
    """The odds engine's advice for a V5 Willpower reroll: the best dice, and the chance of the
    dice ticked so far; from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, _row = signed.read_in(db)
        on_refusal(
            request,
            lambda error: fragment(
                request, "_alert.html", lang, message=error_detail(error, lang, request)[1]
            ),
        )
        with db.read() as session:
            entry = log.log_entry(session, member, seq)
    goal = request.query_params.get("goal", "win")
    goal = goal if goal in GOALS else "win"
    chosen = _dice_of({"dice": request.query_params.getlist("dice")})
    rolled = Logged.of(entry).read()  # a roll's, a quick roll's or a change's rules result
    found = rolled.result if isinstance(rolled, RollReceipt | QuickRollReceipt | AdjustReceipt) else None
    result = found if isinstance(found, dict) else {}
    if result.get("kind") != "test" or not words(result.get("system")).REROLL_KINDS:  # V5-8: V5's tests
        raise ProblemError(409, "not_a_roll", seq=seq)
    return fragment(request, "_advice.html", lang, advice=reroll_advice(result, goal, chosen, lang), seq=seq)


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reveal")
def reveal(request: Request, chronicle_id: int, seq: int, db: Db, signed: Signed) -> Response:
    """The Storyteller reveals a hidden roll: the member found in the one write, the answer drawn from
    one read."""
    form_id = f"reveal-{seq}"
    _card_refusal(request, db, signed, form_id)
    result = tx.run(db, lambda s: log.reveal(s, signed.member_in(s), seq))
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{seq}")
    with db.one_read() as db:  # the answer drawn from one read transaction, the chronicle's row once
        member, lang, row = signed.answer_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        card, revealed = _cards(db, member, state, lang, [result["entry"], result["revealed"]], [seq])
    return fragment(
        request,
        "_after_reveal.html",
        lang,
        card=card,
        revealed=revealed,
        form_id=form_id,
        chronicle=state.chronicle,
        me=state.me,
    )


@router.get("/chronicles/{chronicle_id}/entries/{seq}", response_class=HTMLResponse)
def entry_page(request: Request, seq: int, db: Db, signed: Signed) -> Response:
    """One receipt on its own page (a permalink to show the table), drawn from one read transaction
    that finds its reader first (``PageAccess.read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        with db.read() as session:
            entry = log.log_entry(session, member, seq)
        card = None
        if exchange.root_of(entry) == seq:  # an exchange's first step: the whole exchange (V20-17, T-4, T-5)
            card = table.exchange_card(db, member, lang, seq, (state.chronicle, state.characters))[1]
        card = card or _cards(db, member, state, lang, [entry], [seq])[0]
        return page(request, "entry.html", lang, t=state, me=state.me, card=card, chronicle=state.chronicle)
