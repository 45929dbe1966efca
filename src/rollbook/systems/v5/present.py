"""V5 at the table on the pages: compulsions (seed 001, V5-14) — the cards of their log
entries in words, the badge of a compulsion in force (on the table's list of characters and on the
sheet), the Storyteller's "call the compulsion" button on a messy critical's or bestial failure's card,
and the sheet's panel to call or end one. Words in the ``v5`` catalogue. The core finds it as V5's face
at the table (``present.table_face.TableFace``: its part ``present``), never by importing it."""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.entries import CompulsionEndReceipt, CompulsionReceipt, RollReceipt
from rollbook.i18n import N_, translate
from rollbook.present import labels
from rollbook.present.contests import Button, Option
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import compulsions as rules

KINDS = ("compulsion", "compulsion_end")
BEAST_OUTCOMES = ("messy_critical", "bestial_failure")

NAMES = {
    "hunger": N_("Hunger"),
    "dominance": N_("Dominance"),
    "harm": N_("Harm"),
    "paranoia": N_("Paranoia"),
    "rebellion": N_("Rebellion"),
    "feral_impulses": N_("Feral Impulses"),
    "delusion": N_("Delusion"),
    "cryptophilia": N_("Cryptophilia"),
    "obsession": N_("Obsession"),
    "perfectionism": N_("Perfectionism"),
    "arrogance": N_("Arrogance"),
    "judgment": N_("Judgment"),
    "morbidity": N_("Morbidity"),
    "ruthlessness": N_("Ruthlessness"),
    "transgression": N_("Transgression"),
    "tempting_fate": N_("Tempting Fate"),
    "affective_empathy": N_("Affective Empathy"),
    "covetousness": N_("Covetousness"),
}
UNTIL: dict[object, str] = {  # looked up with what a receipt holds
    "scene": N_("until the end of the scene"),
    "ended": N_("until the Storyteller ends it"),
}


@dataclass
class Badge:
    """A compulsion in force, in words."""

    name: str
    effect: str
    until: str
    called: int | None
    character: int | None
    compulsion: str = ""

    def in_force(self) -> dict:
        """What ``play.preview`` takes of it (the odds of a roll under it)."""
        return {"compulsion": self.compulsion, "called": self.called}


@dataclass
class SheetPanel:
    """The sheet's compulsion panel: the badge (when one is in force), and for the Storyteller the
    call form (when none is) or the end button."""

    storyteller: bool
    action: str
    badge: Badge | None = None
    choices: list[Option] = field(default_factory=list)
    until: list[Option] = field(default_factory=list)


def name(compulsion: str, lang: str) -> str:
    return translate(NAMES[compulsion], lang) if compulsion in NAMES else compulsion


def effect_words(compulsion: str, lang: str) -> str:
    """ "−3 dice to Manipulation and Intelligence pools", "−2 dice to every roll", "−2 dice to actions
    that do not serve it"."""
    shape = rules.COMPULSIONS.get(compulsion)
    if shape is None:
        return ""
    dice = f"{shape.dice:+d}".replace("-", "−")
    if shape.attributes:
        traits = ", ".join(labels.trait(a, lang) for a in shape.attributes)
        return translate(N_("{dice} dice to pools with {traits}"), lang, dice=dice, traits=traits)
    if shape.unless_serving:
        return translate(N_("{dice} dice to actions that do not serve it"), lang, dice=dice)
    return translate(N_("{dice} dice to every roll"), lang, dice=dice)


def badge(found: dict | None, lang: str) -> Badge | None:
    """A compulsion in force (``usecases.compulsions.in_force``) as a badge."""
    if not found:
        return None
    compulsion = str(found.get("compulsion"))
    return Badge(
        name=name(compulsion, lang),
        effect=effect_words(compulsion, lang),
        until=translate(UNTIL.get(found.get("until"), UNTIL["ended"]), lang),
        called=found.get("called"),
        character=found.get("character"),
        compulsion=compulsion,
    )


def describe_entry(kind: str, receipt: dict, lang: str, characters: dict) -> tuple[str, str]:
    """(title, line) of a compulsion called or ended."""
    if kind == "compulsion":
        called = CompulsionReceipt.of(receipt)
        who = characters.get(called.character, f"#{called.character}")
        title = translate(
            N_("Compulsion for {name}: {compulsion}"),
            lang,
            name=who,
            compulsion=name(called.compulsion, lang),
        )
        line = (
            effect_words(called.compulsion, lang)
            + " · "
            + translate(UNTIL.get(called.until, UNTIL["ended"]), lang)
        )
        if called.roll:
            line += " · " + translate(N_("after roll #{seq}"), lang, seq=called.roll)
        return title, line
    ended = CompulsionEndReceipt.of(receipt)
    who = characters.get(ended.character, f"#{ended.character}")
    compulsion = ended.compulsion
    return (
        translate(
            N_("Compulsion of {name} ended: {compulsion}"), lang, name=who, compulsion=name(compulsion, lang)
        ),
        "",
    )


def roll_buttons(
    receipt: dict,
    seq: int,
    character: int | None,
    chronicle_id: int,
    *,
    storyteller: bool,
    lang: str,
    effects: list | tuple = (),
    frenzy_called: bool = False,
) -> list[Button]:
    """Seed 001: on a V5 roll's card whose outcome is a messy critical or a bestial failure, the
    Storyteller's one tap to call the character's compulsion; V5-10: on a failed Rouse at Hunger 5
    (its effects offer the test), the one tap to call the hunger frenzy test, until it is called."""
    roll = RollReceipt.of(receipt)
    result = roll.result if isinstance(roll.result, dict) else {}
    if not storyteller or character is None or roll.system != "v5":
        return []
    buttons = []
    if result.get("outcome") in BEAST_OUTCOMES:
        buttons.append(
            Button(
                f"/chronicles/{chronicle_id}/characters/{character}/compulsion/call?roll={seq}",
                translate(N_("Call the compulsion"), lang),
            )
        )
    if not frenzy_called and any(
        isinstance(e, dict) and e.get("flag") == "hunger_frenzy_risk" and e.get("offers") for e in effects
    ):
        # V5-10: a failed Rouse at Hunger 5 offers the hunger frenzy test, the Storyteller's to call
        buttons.append(
            Button(
                f"/chronicles/{chronicle_id}/characters/{character}/hunger-frenzy?roll={seq}",
                translate(N_("Call the hunger frenzy test"), lang),
            )
        )
    return buttons


def roll_notes(receipt: dict, lang: str) -> list[str]:
    """A hunger frenzy test called after a Rouse at Hunger 5 (V5-10), and a power's Rouse checks, in words."""
    notes = []
    roll = RollReceipt.of(receipt)
    note = roll.frenzy_test
    if isinstance(note, dict):
        notes.append(translate(N_("Hunger frenzy test after the Rouse #{seq}"), lang, seq=note.get("after")))
    power = roll.power
    if isinstance(power, dict):  # the Rouse checks a power paid, with their dice
        faces = [str(max(r.get("faces") or [0])) for r in roll.rouses or []]
        notes.append(
            translate(
                N_("Rouse checks paid for the power: {n} (dice: {faces})"),
                lang,
                n=power.get("rouse_checks", 0),
                faces=", ".join(faces) or "—",
            )
        )
    return notes


def sheet_panel(
    chronicle: dict,
    character_id: int,
    sheet: dict,
    current: Badge | None,
    storyteller: bool,
    lang: str,
    *,
    scene_open: bool,
) -> SheetPanel | None:
    """The sheet's compulsion panel (V5 vampires, thin-bloods included; nothing for ghouls and mortals)."""
    if chronicle.get("system") != "v5" or sheet.get("creature") in rules.NO_BEAST:
        return None
    panel = SheetPanel(
        storyteller=storyteller,
        badge=current,
        action=f"/chronicles/{chronicle['id']}/characters/{character_id}/compulsion",
    )
    if panel.badge is None and not storyteller:
        return None
    if storyteller and panel.badge is None:
        try:
            own = rules.choose(str(sheet.get("clan") or ""), str(sheet.get("creature") or "vampire"), None)
        except RuleError:  # a clan without a compulsion: the Storyteller names a general one
            own = None
        ordered = ([own] if own else []) + [c for c in rules.GENERAL if c != own]
        ordered += sorted((c for c in rules.COMPULSIONS if c not in ordered), key=lambda c: name(c, lang))
        panel.choices = [
            Option(c, f"{name(c, lang)} ({effect_words(c, lang)})", c == (own or "hunger")) for c in ordered
        ]
        # "until the end of the scene" needs a scene open
        panel.until = [
            Option(u, translate(UNTIL[u], lang), u == ("scene" if scene_open else "ended"))
            for u in rules.UNTIL
            if scene_open or u != "scene"
        ]
    return panel


__all__ = [
    "BEAST_OUTCOMES",
    "Badge",
    "KINDS",
    "NAMES",
    "SheetPanel",
    "badge",
    "describe_entry",
    "effect_words",
    "name",
    "roll_buttons",
    "roll_notes",
    "sheet_panel",
]
