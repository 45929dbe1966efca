"""The combat chain on the pages (SPEC V20-17, T-4, T-5): the next step of an exchange, posted from
its button on the exchange's card (``present.exchange``), rolled through the one roll path
(``usecases.rolls.roll`` with ``follows``). With htmx the answer is the exchange's card, redrawn in
place with the new step; without JavaScript a 303 back to the chronicle."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.i18n import translate
from rollbook.present import exchange, forms
from rollbook.server.access import STORYTELLER
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import characters, rolls
from rollbook.server.usecases import odds as odds_cases
from rollbook.web import table
from rollbook.web.deps import Asked, Db, Dice, Posted, Signed, page_router
from rollbook.web.errors import error_detail, on_refusal
from rollbook.web.respond import fragment, is_htmx, see_other
from rollbook.web.routes.chronicle import chronicle_page

router = page_router()


def step_action(form: dict) -> dict:
    """The step's action from its form: the kind and what the player chooses (weapon, body location);
    what the followed receipt gives is never posted."""
    action: dict = {"kind": str(form.get("kind", ""))}
    for name in ("weapon", "location"):
        value = str(form.get(name, "")).strip()
        if value:
            action[name] = value
    if str(form.get("aimed_at_head", "")).lower() in ("on", "true", "1"):
        action["aimed_at_head"] = True
    return action


@router.post("/chronicles/{chronicle_id}/entries/{seq}/follow")
def follow(
    request: Request, chronicle_id: int, seq: int, db: Db, signed: Signed, form: Posted, dice: Dice
) -> Response:
    """The exchange's next step: its one write (the roll, the member found in it), then with htmx the
    exchange's card redrawn from one read."""
    action = step_action(form)
    form_id = f"follow-{seq}-{action['kind']}"
    signed.refused_into(
        form_id, lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    character_id = forms.int_field(form, "character")
    if character_id is None:
        raise ProblemError(422, "missing_field", field="character")

    def work(s, member) -> dict:
        ask = member.role != STORYTELLER  # a player's step that asks an edge goes to the Storyteller
        return rolls.roll(s, member, character_id, action, follows=seq, ask=ask, source=dice)

    result = signed.write(db, work, form)  # a retried submission rolls once (rollbook.web.once)
    root = exchange.root_of(result["entry"]) or result["entry"]["seq"]
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{root}")
    with db.one_read() as db:
        member, lang, _row = signed.answer_in(db)  # the row in the read's identity map: read once
        chronicle, card = table.exchange_card(db, member, lang, root)
    return fragment(request, "_after_follow.html", lang, card=card, form_id=form_id, chronicle=chronicle)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/exchange-odds", response_class=HTMLResponse)
def exchange_odds(request: Request, character_id: int, db: Db, signed: Signed, values: Asked) -> Response:
    """The odds of the whole exchange before the attack, when the roll form names a target:
    htmx asks on every change of the form, as for the roll's own odds. The roll form's fields make the
    attack; ``exchange_weapon`` (V20: the weapon of the damage roll), ``exchange_location`` (Tiers: the
    body location hit) and ``exchange_dodge`` say the rest. Drawn from one read that finds its reader
    first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        on_refusal(
            request,
            lambda error: fragment(
                request, "_exchange_odds.html", lang, view=None, message=error_detail(error, lang, request)[1]
            ),
        )
        target = forms.int_field(values, "target")
        kind = str(values.get("kind", ""))
        system = row.system
        if target is None or kind != odds_cases.ATTACK_KINDS.get(system):
            return fragment(request, "_exchange_odds.html", lang, view=None, message="")
        action = forms.parse_form(forms.schema_for(system, "actions", kind), values, kind)
        weapon = str(values.get("exchange_weapon", "")).strip() or None
        location = str(values.get("exchange_location", "")).strip() or None
        dodge = forms.truthy(values.get("exchange_dodge", ""))
        with db.read() as session:
            answer = odds_cases.exchange_odds(
                session,
                member,
                attacker=character_id,
                target=target,
                action=action,
                weapon=weapon if odds_cases.takes_weapon(system) else None,  # Tiers: the shot names it
                dodge=dodge,
                location=location,
            )
            name = next((c["name"] for c in characters.roster(session, member) if c["id"] == target), "")
    if answer["odds"] is None:  # the defender's ratings are not this reader's to see
        message = translate(exchange.ODDS_NEED_HIDDEN_RATINGS, lang, name=name)
        return fragment(request, "_exchange_odds.html", lang, view=None, message=message)
    return fragment(
        request, "_exchange_odds.html", lang, view=exchange.exchange_odds_view(answer, name, lang), message=""
    )
