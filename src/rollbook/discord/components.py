"""The buttons, selects and modals under a Discord message, and what pressing them does.

- under a V5 test (V5-8): "Reroll with Willpower" with the dice the odds engine advises
  (``present.preview.reroll_advice``, as the web card shows it) and a select of the normal dice to
  reroll, numbered from 1 with their faces (``rr``/``rs``: ``rolls.reroll``);
- under an ask (A-1): "Grant", "Grant changed" (a modal of the edges asked) and "Refuse"
  (``grants.grant``/``grants.refuse``): the use cases refuse anyone but the Storyteller, so a
  player's press is answered with that refusal, ephemerally, and nothing is written;
- under an attack (V20-17, T-4, T-5): the next step of the exchange for the defender
  (``exchange.next_steps``; ``rolls.roll`` with ``follows``);
- under a contest (TR-3): each side's roll, for whoever acts for that side
  (``contests.roll_contest_side``: ``cs``); under an extended action and each of its rolls while it
  goes on (TR-4): its next roll (``contests.roll_extended``: ``ex``);
- under a V5 messy critical or bestial failure, the Storyteller's call of the compulsion (``cc``:
  ``compulsions.call``); under a failed Rouse at Hunger 5, the hunger frenzy test (``hf``:
  ``frenzy.hunger_frenzy``), as the web card offers them (the system's ``TableFace.roll_buttons``);
- under the Storyteller's hidden roll, "Reveal" (``rv``: ``log.reveal``). The buttons and their words are
  the web card's (``web.contests.buttons``), offered to every side: the use case checks who presses.

A ``custom_id`` is ``rb:<what>:<numbers…>``; it names entries and asks, never a member: who pressed
is always the interaction's linked member, checked in the write's transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pydantic import ValidationError
from sqlalchemy import select

from rollbook.discord import store
from rollbook.discord.base import (
    EPHEMERAL,
    MESSAGE,
    MODAL,
    Answer,
    Context,
    Invocation,
    acting_for,
    message,
    need_member,
    read,
    write,
)
from rollbook.discord.embeds import card_embed, card_for, fit_all
from rollbook.entries import Logged, Receipt, RollReceipt, entry_of
from rollbook.i18n import N_, translate, translate_n
from rollbook.present import labels
from rollbook.present.contests import buttons as contest_buttons
from rollbook.present.present import Viewer
from rollbook.present.table_face import table_face
from rollbook.server.access import STORYTELLER, find_chronicle
from rollbook.server.models import Character
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import (
    authority,
    characters,
    compulsions,
    contests,
    exchange,
    frenzy,
    grants,
    rolls,
)
from rollbook.server.usecases import log as entries_log

log = logging.getLogger("rollbook.discord")

REROLL = N_("Reroll with Willpower: {dice}")
REROLL_PICK = N_("Or pick the normal dice to reroll")
DIE = N_("Die {n}: {face}")
GRANT = N_("Grant")
GRANT_CHANGED = N_("Grant changed")
REFUSE = N_("Refuse")
REVEAL = N_("Reveal")
CHANGED_TITLE = N_("Grant with changes")
ATTACKS = N_("{attacker} attacks {defender}")
ATTACKS_WITH = N_("{attacker} attacks {defender} with {weapon}")
SUCCESSES = N_("successes: {n}")
TIER = N_("attack tier {n}")
DAMAGE = {  # the sheet's words for damage levels (``embeds.resource_fields``)
    "bashing": ("{n} level of bashing damage", "{n} levels of bashing damage"),
    "lethal": ("{n} level of lethal damage", "{n} levels of lethal damage"),
    "aggravated": ("{n} level of aggravated damage", "{n} levels of aggravated damage"),
}
MOST_REROLLED = 3  # V5-8: up to three normal dice
BUTTON, SELECT, TEXT_INPUT, ROW = 2, 3, 4, 1
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4


def _viewer(lang: str, viewer: dict) -> Viewer:
    return Viewer(
        member_id=viewer["id"],
        role=viewer["role"],
        chronicle_id=viewer["chronicle"],
        mode="strict",
        lang=lang,
    )


def _button(label: str, custom_id: str, style: int = PRIMARY) -> dict:
    return {"type": BUTTON, "style": style, "label": label[:80], "custom_id": custom_id[:100]}


def entry_message(lang: str, entry: dict, viewer: dict, system: str, result: dict) -> tuple[dict, list[dict]]:
    """An entry the viewer just made, as an embed and the action rows under it."""
    characters = {}
    owners = {}
    character = result.get("character")
    if isinstance(character, dict):
        characters[character["id"]] = character["name"]
        owners[character["id"]] = character.get("owner")
    shown = card_for(entry, _viewer(lang, viewer), characters=characters, owners=owners, system=system)
    rows: list[dict] = []
    if shown.can_reroll and not shown.reroll_blocked and shown.normal:
        rows += _reroll_rows(lang, shown)
    ask = result.get("ask")
    if isinstance(ask, dict) and ask.get("status") == "pending":
        rows.append(ask_row(lang, int(ask["id"])))
    # the exchange's next steps (the defender's dodge or soak, V20's damage): whoever presses is
    # checked by the use case (``not_your_step``), as on the web table
    steps = [s for s in exchange.next_steps(system, entry) if s.get("character")]
    if steps:
        rows.append(
            {
                "type": ROW,
                "components": [
                    _button(
                        labels.kind(system, s["kind"], lang),
                        f"rb:st:{shown.seq}:{s['kind']}:{s['character']}",
                        SECONDARY,
                    )
                    for s in steps[:5]
                ],
            }
        )
    rows += _declared_rows(lang, entry, shown.character)
    rows += beast_rows(lang, entry)
    if shown.hidden and not shown.redacted and not shown.revealed_by and viewer["role"] == STORYTELLER:
        # A-1, F-7: the Storyteller's hidden roll, revealed to the table in one press (the channel
        # poster posts the reveal with the roll under it, as the web's live feed redraws it)
        rows.append(
            {"type": ROW, "components": [_button(translate(REVEAL, lang), f"rb:rv:{shown.seq}", SECONDARY)]}
        )
    return card_embed(shown, lang), rows


# the web card's one-tap calls (``TableFace.roll_buttons``, V5's), each as the button's custom_id: the
# compulsion a messy critical or a bestial failure may bring (seed 001), the hunger frenzy test a
# failed Rouse at Hunger 5 offers (V5-10)
CALLS = {"/compulsion/call?": "cc", "/hunger-frenzy?": "hf"}


def beast_rows(lang: str, entry: dict) -> list[dict]:
    """Seed 001, V5-10: under a V5 roll, the Storyteller's calls its card offers them (offered to all:
    the use cases refuse anyone but the Storyteller), ``rb:cc:<seq>:<character>``/``rb:hf:…``."""
    try:
        made = entry_of(entry)
    except ValidationError:  # not an entry of the log's models: nothing to call from it
        return []
    receipt = made.receipt  # each kind's model narrows it to its own receipt's
    if made.kind != "roll" or made.character is None or not isinstance(receipt, Receipt):
        return []
    character, seq = made.character, made.seq
    dumped = receipt.dump()
    face = table_face(dumped.get("system"))
    if face is None:  # the roll's system offers no calls
        return []
    offered = face.roll_buttons(
        dumped,
        seq,
        character,
        0,
        storyteller=True,
        lang=lang,
        effects=made.effects,
    )
    buttons = [
        _button(button.label, f"rb:{code}:{seq}:{character}", DANGER)
        for button in offered
        for path, code in CALLS.items()
        if path in button.action
    ]
    return [{"type": ROW, "components": buttons}] if buttons else []


def ask_row(lang: str, ask_id: int) -> dict:
    """A-1: the Storyteller's answers to an ask (anyone else's press is refused by the use case)."""
    return {
        "type": ROW,
        "components": [
            _button(translate(GRANT, lang), f"rb:g:{ask_id}", SUCCESS),
            _button(translate(GRANT_CHANGED, lang), f"rb:gc:{ask_id}", PRIMARY),
            _button(translate(REFUSE, lang), f"rb:rf:{ask_id}", DANGER),
        ],
    }


SIDES = {"attacker": "a", "defender": "d"}
SIDE_NAMES = {code: side for side, code in SIDES.items()}


def _declared_rows(lang: str, entry: dict, character: str) -> list[dict]:
    """TR-3, TR-4: under a contest, each side's roll; under an extended action and each of its rolls
    while it goes on, the next roll. Offered to all (the use case refuses whoever may not act)."""
    logged = Logged.of(entry)
    kind, seq = logged.kind, logged.seq
    declared = logged.stored or {}  # a contest's or an extended action's, read by ``contest_buttons``
    roll = logged.read() if kind == "roll" else None
    if isinstance(roll, RollReceipt) and roll.extended is not None:  # an extended action's roll: its next
        step = roll.extended
        if step.get("status") != "going" or not isinstance(step.get("of"), int):
            return []
        kind, seq = "extended", step["of"]
        declared = {  # the declaration as the roll carries it (``contests.roll_extended``'s note)
            "game": roll.system,
            "character": logged.character,
            "name": character,
            "action": roll.action or {},
            "target": step.get("target") or 1,
            "max_rolls": None,
        }
    if kind not in ("contest", "extended"):
        return []
    offered = contest_buttons(kind, seq, declared, 0, storyteller=True, member_id=0, owners={}, lang=lang)
    if not offered:
        return []
    return [
        {
            "type": ROW,
            "components": [
                _button(
                    button.label,
                    f"rb:cs:{seq}:{SIDES[button.side]}" if button.side else f"rb:ex:{seq}",
                    PRIMARY,
                )
                for button in offered
            ],
        }
    ]


def _reroll_rows(lang: str, shown) -> list[dict]:
    rows = []
    advice = shown.advice
    if advice is not None and advice.best_dice:
        dice = ", ".join(f"{i + 1} ({face})" for i, face in zip(advice.best_dice, advice.best_faces))
        label = translate(REROLL, lang, dice=dice) + f" · {advice.best}"
        rows.append(
            {
                "type": ROW,
                "components": [
                    _button(label, f"rb:rr:{shown.seq}:{'.'.join(str(i) for i in advice.best_dice)}", PRIMARY)
                ],
            }
        )
    options = [
        {"label": translate(DIE, lang, n=i + 1, face=face), "value": str(i)}
        for i, face in enumerate(shown.normal[:25])
    ]
    rows.append(
        {
            "type": ROW,
            "components": [
                {
                    "type": SELECT,
                    "custom_id": f"rb:rs:{shown.seq}",
                    "placeholder": translate(REROLL_PICK, lang)[:150],
                    "min_values": 1,
                    "max_values": min(MOST_REROLLED, len(options)),
                    "options": options,
                }
            ],
        }
    )
    return rows


def _numbers(parts: list[str]) -> list[int]:
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ProblemError(422, "discord_unknown_interaction", type=":".join(parts)) from None


def answer_of(inv: Invocation, result: dict) -> Answer:
    entry = result["entry"]
    embed, rows = entry_message(inv.locale, entry, result["viewer"], result["system"], result)
    hidden = Logged.of(entry).visibility == "hidden"
    attack = result.get("attack")
    return message(
        attack_words(inv.locale, attack) if isinstance(attack, dict) and not hidden else "",
        embeds=fit_all([embed]),
        components=rows,
        ephemeral=hidden,
        mentions=None if hidden else result.get("mention"),
    )


def viewer_of(member) -> dict:
    return {"id": member.id, "role": member.role, "chronicle": member.chronicle_id}


def acted(session, member, out: dict, inv: Invocation | None = None) -> dict:
    """A use case's answer, with who reads it and the chronicle's system (for the answer's embed);
    with ``inv``, a public attack's defence offered to the defender (``attack_offer``)."""
    done = {**out, "viewer": viewer_of(member), "system": find_chronicle(session, member).system}
    if inv is not None:
        done.update(attack_offer(session, inv, member.chronicle_id, done["system"], done.get("entry")))
    return done


def attack_offer(session, inv: Invocation, chronicle_id: int, system: str, entry) -> dict:
    """V20-17, V20-20, T-4, T-5: when the defender's step (dodge, soak) may follow a public roll, the
    Discord users who act for the defender (its player; an NPC's Storyteller), to be mentioned, and
    what the attack was: the attacker, the weapon, its successes (or damage, or tier)."""
    if not isinstance(entry, dict):
        return {}
    try:
        logged = Logged.of(entry)
    except ValidationError:  # no entry of the log: no roll to defend against
        return {}
    if logged.visibility != "public":
        return {}
    roll = exchange.roll_of(logged)  # a step follows a roll or a reroll only
    if roll is None:
        return {}
    steps = [
        s
        for s in exchange.steps_after(system, logged, roll)
        if s["side"] == "defender" and s.get("character") is not None
    ]
    if not steps:
        return {}
    attacker = (roll.exchange or {}).get("attacker") or logged.character
    defender = steps[0]["character"]
    names = dict(
        session.execute(
            select(Character.id, Character.name).where(
                Character.chronicle_id == chronicle_id, Character.id.in_([attacker, defender])
            )
        ).all()
    )
    # the attack's weapon: as declared, through a dodge, or in a damage roll's pool (V20-17)
    parts = (roll.pool or {}).get("parts")
    weapon = (
        (roll.action or {}).get("weapon")
        or (roll.attack or {}).get("weapon")
        or next((p.get("weapon") for p in parts or [] if isinstance(p, dict) and p.get("weapon")), None)
    )
    if weapon == "unarmed":  # V20-17's punch: no weapon to name
        weapon = None
    return {
        "mention": acting_for(session, inv, chronicle_id, [defender]),
        "attack": {
            "attacker": names.get(attacker, ""),
            "defender": names.get(defender, ""),
            "weapon": str(weapon) if weapon else "",
            "takes": dict(steps[0].get("takes") or {}),
        },
    }


def attack_words(lang: str, attack: dict) -> str:
    """The attack a defence answers, in words: "Nia attacks Bran with knife (successes: 3)"."""
    names = {"attacker": attack.get("attacker", ""), "defender": attack.get("defender", "")}
    head = (
        translate(ATTACKS_WITH, lang, weapon=attack["weapon"], **names)
        if attack.get("weapon")
        else translate(ATTACKS, lang, **names)
    )
    takes = attack.get("takes") or {}
    details = []
    if takes.get("levels"):
        kind = takes.get("damage_type") or "lethal"
        template = DAMAGE.get(kind, DAMAGE["lethal"])
        details.append(translate_n(template[0], template[1], int(takes["levels"]), lang))
    elif takes.get("successes") is not None:
        details.append(translate(SUCCESSES, lang, n=takes["successes"]))
    elif takes.get("attack_tier") is not None:
        details.append(translate(TIER, lang, n=takes["attack_tier"]))
    return head + (f" ({', '.join(details)})" if details else "")


def act(context: Context, inv: Invocation, use_case) -> Answer:
    """A press or a modal of a linked member: ``use_case(session, member)`` written (once per
    interaction), answered with the entry it made; then the message pressed keeps only the steps
    still to take (``settle``)."""

    def work(session, member):
        member = need_member(member)
        return acted(session, member, use_case(session, member), inv)

    answer = answer_of(inv, write(context, inv, work).result)
    return Answer(answer.body, later=lambda: settle(context, inv))


def _taken(custom_id: str) -> Callable[[str], bool]:
    """Which of a message's components the step pressed (``custom_id``) settles: a reroll settles
    both ways of rerolling that roll, a step of the exchange every step of that roll (one follows
    it), an ask's answer (or its modal) the ask's three buttons, a side's or an extended roll the
    button pressed."""
    parts = custom_id.split(":")
    what, seq = (parts[1], parts[2]) if len(parts) >= 3 else ("", "")
    if what in ("rr", "rs"):
        return lambda other: (
            other.startswith((f"rb:rr:{seq}:", f"rb:rs:{seq}")) and other.split(":")[2] == seq
        )
    if what == "st":
        return lambda other: other.startswith(f"rb:st:{seq}:")
    if what in ("g", "rf", "gm"):
        return lambda other: other in (f"rb:g:{seq}", f"rb:gc:{seq}", f"rb:rf:{seq}")
    return lambda other: other == custom_id


def remaining(components: list[dict], custom_id: str) -> list[dict]:
    """A message's action rows without what the press settled (empty rows dropped)."""
    taken = _taken(custom_id)
    rows = []
    for row in components or []:
        kept = [c for c in row.get("components") or [] if not taken(str(c.get("custom_id", "")))]
        if kept:
            rows.append({**row, "components": kept})
    return rows


def settle(context: Context, inv: Invocation) -> None:
    """Messages that stay true: the message whose button (or modal) was used is edited, the step
    done removed from it (a channel webhook's post through that webhook, an answer of the app as
    the bot's message); an ephemeral one is the user's alone and is left. A failure is logged."""
    pressed = inv.message or {}
    custom_id = str(inv.data.get("custom_id", ""))
    if not pressed.get("id") or int(pressed.get("flags") or 0) & EPHEMERAL:
        return
    rows = remaining(pressed.get("components") or [], custom_id)
    if rows == (pressed.get("components") or []):
        return
    try:
        url = None
        if pressed.get("webhook_id") and pressed.get("webhook_id") != inv.application_id:
            with context.db.read() as session:
                channel = store.channel_of(session, inv.channel_id)
                url = store.webhook_url(session, channel.id) if channel is not None else None
        context.rest().edit_message(inv.channel_id, str(pressed["id"]), {"components": rows}, webhook_url=url)
    except Exception as error:  # the step is taken; only the old message still shows its button
        log.warning("rollbook: the pressed Discord message could not be edited (%s)", type(error).__name__)


def pressed(context: Context, inv: Invocation) -> Answer:
    parts = str(inv.data.get("custom_id", "")).split(":")
    what, numbers = (parts[1], parts[2:]) if len(parts) >= 2 and parts[0] == "rb" else ("", [])
    source = context.dice()
    if what in ("rr", "rs"):
        # ``rb:rr:<seq>:<die>.<die>…``: the advised dice (0-based) joined with "."
        named = numbers[:1] + [die for part in numbers[1:] for die in part.split(".") if die]
        seq, *dice = _numbers(named or ["?"])
        if what == "rs":
            dice = _numbers(list(inv.data.get("values") or []))
        return act(
            context,
            inv,
            lambda session, member: rolls.reroll(
                session, member, seq, {"kind": "reroll", "dice": dice}, source=source
            ),
        )
    if what in ("g", "rf"):
        (ask_id,) = _numbers(numbers)
        if what == "g":
            return act(
                context, inv, lambda session, member: grants.grant(session, member, ask_id, source=source)
            )
        return act(context, inv, lambda session, member: grants.refuse(session, member, ask_id))
    if what == "gc":
        (ask_id,) = _numbers(numbers)
        return _changed_modal(context, inv, ask_id)
    if what == "st":
        seq, character_id = _numbers([numbers[0], numbers[2]]) if len(numbers) == 3 else _numbers(["x"])
        kind = numbers[1]
        return act(
            context,
            inv,
            lambda session, member: rolls.roll(
                session, member, character_id, {"kind": kind}, follows=seq, source=source
            ),
        )
    if what == "cs" and len(numbers) == 2 and numbers[1] in SIDE_NAMES:
        (seq,) = _numbers(numbers[:1])
        side = SIDE_NAMES[numbers[1]]
        return act(
            context,
            inv,
            lambda session, member: contests.roll_contest_side(session, member, seq, side, source=source),
        )
    if what in ("cc", "hf") and len(numbers) == 2:
        seq, character_id = _numbers(numbers)
        if what == "cc":
            return act(
                context,
                inv,
                lambda session, member: {
                    **compulsions.call(session, member, character_id, roll=seq),
                    "character": characters.get_character(session, member, character_id),
                },
            )
        return act(
            context,
            inv,
            lambda session, member: frenzy.hunger_frenzy(session, member, character_id, seq, source=source),
        )
    if what == "rv":
        (seq,) = _numbers(numbers)
        return _reveal(context, inv, seq)
    if what == "ex":
        (seq,) = _numbers(numbers)
        return act(
            context, inv, lambda session, member: contests.roll_extended(session, member, seq, source=source)
        )
    raise ProblemError(404, "discord_unknown_interaction", type=str(inv.data.get("custom_id", ""))[:100])


def _reveal(context: Context, inv: Invocation, seq: int) -> Answer:
    """The Storyteller reveals a hidden roll (``log.reveal``): told to them alone with the reveal's
    card; the reveal is left to the channel poster, which posts it with the roll it reveals under it."""

    def work(session, member):
        member = need_member(member)
        return acted(session, member, entries_log.reveal(session, member, seq))

    result = write(context, inv, work, shown=lambda out: []).result
    answer = answer_of(inv, result)
    answer.body["data"]["flags"] = EPHEMERAL
    return Answer(answer.body, later=lambda: settle(context, inv))


def _changed_modal(context: Context, inv: Invocation, ask_id: int) -> Answer:
    """The Storyteller's modal: one field per edge asked, filled with what was asked."""

    def work(session, member):
        member = need_member(member)
        if member.role != STORYTELLER:  # the use case would refuse the grant: say it before the modal
            raise ProblemError(403, "storyteller_only", action="grant", role=member.role)
        return authority.get_ask(session, member, ask_id)

    ask = read(context, inv, work)
    inputs = [
        {
            "type": ROW,
            "components": [
                {
                    "type": TEXT_INPUT,
                    "custom_id": name[:100],
                    "style": 1,
                    "label": labels.field(name, inv.locale)[:45],
                    "value": str(value)[:4000],
                    "required": True,
                }
            ],
        }
        for name, value in list((ask.get("asked") or {}).items())[:5]
    ]
    return Answer(
        {
            "type": MODAL,
            "data": {
                "custom_id": f"rb:gm:{ask_id}",
                "title": translate(CHANGED_TITLE, inv.locale)[:45],
                "components": inputs,
            },
        }
    )


def _edge_value(text: str):
    text = text.strip()
    lowered = text.casefold()
    if lowered in ("true", "yes", "oui", "sí", "si"):
        return True
    if lowered in ("false", "no", "non"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def text_input(
    key: str,
    label: str,
    *,
    required: bool = False,
    paragraph: bool = False,
    placeholder: str = "",
    longest: int = 4000,
) -> dict:
    """One field of a modal, in its own row."""
    field = {
        "type": TEXT_INPUT,
        "custom_id": key[:100],
        "style": 2 if paragraph else 1,
        "label": label[:45],
        "required": required,
        "max_length": longest,
    }
    if placeholder:
        field["placeholder"] = placeholder[:100]
    return {"type": ROW, "components": [field]}


def modal_fields(inv: Invocation) -> dict[str, str]:
    """A submitted modal's fields by their ``custom_id``."""
    return {
        item["custom_id"]: str(item.get("value", ""))
        for row in inv.data.get("components") or []
        for item in row.get("components") or []
        if item.get("custom_id")
    }


def submitted(context: Context, inv: Invocation) -> Answer:
    parts = str(inv.data.get("custom_id", "")).split(":")
    if len(parts) != 3 or parts[:2] != ["rb", "gm"]:
        raise ProblemError(404, "discord_unknown_interaction", type=str(inv.data.get("custom_id", ""))[:100])
    (ask_id,) = _numbers(parts[2:])
    edges = {
        item["custom_id"]: _edge_value(str(item.get("value", "")))
        for row in inv.data.get("components") or []
        for item in row.get("components") or []
        if item.get("custom_id")
    }
    source = context.dice()

    return act(
        context,
        inv,
        lambda session, member: grants.grant(session, member, ask_id, edges=edges, source=source),
    )


__all__ = ["MESSAGE", "acted", "answer_of", "entry_message", "pressed", "submitted"]
