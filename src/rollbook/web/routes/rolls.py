"""Rolls and what follows them: a roll and an adjustment from the sheet, the V5 Willpower reroll
(with the odds engine's advice), the Storyteller's reveal, and one receipt on its own page.

With htmx each answers fragments: the new card on top of the feed, the card it follows up
replaced, the sheet's resources swapped out of band. Without JavaScript: a 303 back to the page.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.present import authority, exchange, forms
from rollbook.present.present import GOALS
from rollbook.present.preview import reroll_advice
from rollbook.present.words import words
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.access import STORYTELLER
from rollbook.server.models import Caller
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import characters, log, rolls
from rollbook.web import powerform, table
from rollbook.web.deps import Db, Dice, Lang, Posted, Reader, page_router
from rollbook.web.errors import alert_into, error_detail, on_refusal
from rollbook.web.once import once
from rollbook.web.respond import fragment, is_htmx, page, see_other
from rollbook.web.routes.chronicle import chronicle_page
from rollbook.web.sheetpage import character_or_404, hidden_asked, posted_form, sheet_context

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
    member: Caller,
    lang: str,
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
    with db.one_read() as db:  # the answer drawn from one read transaction
        state = table.load(db, member, lang, feed=False)
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


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/rolls")
def roll(
    request: Request,
    chronicle_id: int,
    character_id: int,
    db: Db,
    member: Reader,
    lang: Lang,
    form: Posted,
    dice: Dice,
) -> Response:
    kind, action = posted_form(request, db, member, lang, character_id, form, "roll")
    if kind == "power":  # choosing a power sets its Discipline
        with db.read() as session:
            sheet = characters.get_character(session, member, character_id).get("sheet") or {}
        action = powerform.with_its_discipline(sheet, action)
    action = authority.with_offer(db, member, character_id, action, form.get("offer"))
    hidden = hidden_asked(form)
    # a player's roll that asks for more than what stands is sent to the Storyteller (the
    # form's button says so); the Storyteller's own edges apply directly.
    ask = member.role != STORYTELLER
    target = forms.int_field(form, "target")  # an attack's target: the defender's button (V20-17, T-4)
    result = once(
        request,
        db,
        member,
        form,
        lambda s: rolls.roll(
            s, member, character_id, action, hidden=hidden, ask=ask, source=dice, target=target
        ),
    )
    return _after_change(request, db, member, lang, chronicle_id, character_id, result, "roll", kind=kind)


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/adjustments")
def adjust(
    request: Request, chronicle_id: int, character_id: int, db: Db, member: Reader, lang: Lang, form: Posted
) -> Response:
    change, data = posted_form(request, db, member, lang, character_id, form, "change", "changes")
    result = once(request, db, member, form, lambda s: characters.adjust(s, member, character_id, data))
    return _after_change(request, db, member, lang, chronicle_id, character_id, result, "change", change)


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


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reroll")
def reroll(
    request: Request,
    chronicle_id: int,
    seq: int,
    db: Db,
    member: Reader,
    lang: Lang,
    form: Posted,
    dice: Dice,
) -> Response:
    form_id = f"reroll-{seq}"
    alert_into(
        request, form_id, lang, lambda errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    chosen = _dice_of(form)
    result = tx.run(
        db, lambda s: rolls.reroll(s, member, seq, {"kind": "reroll", "dice": chosen}, source=dice)
    )
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{result['entry']['seq']}")
    state = table.load(db, member, lang, feed=False)
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
def advice(request: Request, seq: int, db: Db, member: Reader, lang: Lang) -> Response:
    """The odds engine's advice for a V5 Willpower reroll: the best dice, and the chance of the
    dice ticked so far."""
    on_refusal(
        request,
        lambda error: fragment(request, "_alert.html", lang, message=error_detail(error, lang, request)[1]),
    )
    goal = request.query_params.get("goal", "win")
    goal = goal if goal in GOALS else "win"
    chosen = _dice_of({"dice": request.query_params.getlist("dice")})
    with db.read() as session:
        entry = log.log_entry(session, member, seq)
    result = (entry.get("receipt") or {}).get("result") or {}
    if result.get("kind") != "test" or not words(result.get("system")).REROLL_KINDS:  # V5-8: V5's tests
        raise ProblemError(409, "not_a_roll", seq=seq)
    return fragment(request, "_advice.html", lang, advice=reroll_advice(result, goal, chosen, lang), seq=seq)


@router.post("/chronicles/{chronicle_id}/entries/{seq}/reveal")
def reveal(request: Request, chronicle_id: int, seq: int, db: Db, member: Reader, lang: Lang) -> Response:
    form_id = f"reveal-{seq}"
    alert_into(
        request, form_id, lang, lambda errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    result = tx.run(db, lambda s: log.reveal(s, member, seq))
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{seq}")
    state = table.load(db, member, lang, feed=False)
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
def entry_page(request: Request, seq: int, db: Db, member: Reader, lang: Lang) -> Response:
    """One receipt on its own page (a permalink to show the table)."""
    state = table.load(db, member, lang, feed=False)
    with db.read() as session:
        entry = log.log_entry(session, member, seq)
    card = None
    if exchange.root_of(entry) == seq:  # the first step of an exchange: the whole exchange (V20-17, T-4, T-5)
        card = table.exchange_card(db, member, lang, seq)[1]
    card = card or _cards(db, member, state, lang, [entry], [seq])[0]
    return page(request, "entry.html", lang, t=state, me=state.me, card=card, chronicle=state.chronicle)
