"""V5 compulsions (seed 001; SPEC V5-14): the Beast's urges the Storyteller calls after a messy
critical or a bestial failure, and the dice they cost while they last.

Seed 001: "either result may call for a compulsion … a compulsion is a separate test, not something
the dice resolver writes on the sheet". So nothing here is written by a roll: the Storyteller calls a
compulsion for a character (a log entry, ``server.usecases.compulsions``), it lasts until the end of
the scene or until the Storyteller ends it (another entry), and while it lasts each test of that
character carries its penalty as a coded pool modifier (``{"source": "compulsion", …}``), which
``rollbook log verify`` recomputes from the log (``systems.v5.ledger``).

Book (V5 core p. 208 for the general compulsions, the clan chapters for the clans' and the later
books for the other clans; values and sources in docs/book-sources.md, "V5 — compulsions"):

- most compulsions cost two dice on every action that does not serve them (``unless_serving``);
  whether an action serves the compulsion is the Storyteller's to say (A-1: the test's
  ``serves_compulsion`` is an edge, a player asks for it);
- Brujah Rebellion, Tremere Perfectionism and Lasombra Ruthlessness cost two dice on every roll,
  Banu Haqim Judgment three;
- Gangrel Feral Impulses cost three dice on pools with Manipulation or Intelligence, Malkavian
  Delusion two on pools with Dexterity, Manipulation, Composure or Wits (whatever the action);
- Caitiff and thin-bloods have no clan compulsion (the Storyteller may still call a general one);
  ghouls and mortals have no Beast, hence no compulsion (V5-12).

Readings (where the book leaves the arithmetic to the table):
- the penalty applies to tests (Attribute pools); Rouse checks, Willpower, Remorse and frenzy rolls
  are not the actions a compulsion hinders (V5-9 keeps them apart too);
- Perfectionism's smaller penalty on a repeated action is the Storyteller's to grant (the test's
  ``modifier``); the engine applies the full two dice;
- a penalty never takes a pool below one die (as V5 impairment, ``systems.v5.play``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from rollbook.play.common import JsonObject
from rollbook.rules.base import RuleError

UNTIL = ("scene", "ended")  # until the end of the scene, or until the Storyteller ends it


@dataclass(frozen=True, slots=True)
class Compulsion:
    dice: int  # the penalty, in dice (negative)
    attributes: tuple[str, ...] = ()  # only pools built with one of these Attributes
    unless_serving: bool = (
        False  # lifted on an action that serves the compulsion (A-1: the Storyteller's say)
    )


COMPULSIONS: dict[str, Compulsion] = {
    # the Beast's general compulsions (V5 core p. 208)
    "hunger": Compulsion(-2, unless_serving=True),
    "dominance": Compulsion(-2, unless_serving=True),
    "harm": Compulsion(-2, unless_serving=True),
    "paranoia": Compulsion(-2, unless_serving=True),
    # the clans' (core book clans, then the later books')
    "rebellion": Compulsion(-2),  # Brujah: every roll, until they go against orders or expectations
    "feral_impulses": Compulsion(-3, attributes=("manipulation", "intelligence")),  # Gangrel, one scene
    "delusion": Compulsion(-2, attributes=("dexterity", "manipulation", "composure", "wits")),  # Malkavian
    "cryptophilia": Compulsion(-2, unless_serving=True),  # Nosferatu
    "obsession": Compulsion(-2, unless_serving=True),  # Toreador
    "perfectionism": Compulsion(-2),  # Tremere: every pool
    "arrogance": Compulsion(-2, unless_serving=True),  # Ventrue
    "judgment": Compulsion(-3),  # Banu Haqim: every roll
    "morbidity": Compulsion(-2, unless_serving=True),  # Hecata
    "ruthlessness": Compulsion(-2),  # Lasombra: every roll, until the failed action succeeds
    "transgression": Compulsion(-2, unless_serving=True),  # the Ministry
    "tempting_fate": Compulsion(-2, unless_serving=True),  # Ravnos
    "affective_empathy": Compulsion(-2, unless_serving=True),  # Salubri
    "covetousness": Compulsion(-2, unless_serving=True),  # Tzimisce
}
GENERAL = ("hunger", "dominance", "harm", "paranoia")

# clan (folded, see ``clan_id``) -> its compulsion; None: the clan has none
CLAN_COMPULSIONS: dict[str, str | None] = {
    "brujah": "rebellion",
    "gangrel": "feral_impulses",
    "malkavian": "delusion",
    "nosferatu": "cryptophilia",
    "toreador": "obsession",
    "tremere": "perfectionism",
    "ventrue": "arrogance",
    "banu_haqim": "judgment",
    "hecata": "morbidity",
    "lasombra": "ruthlessness",
    "ministry": "transgression",
    "ravnos": "tempting_fate",
    "salubri": "affective_empathy",
    "tzimisce": "covetousness",
    "caitiff": None,
    "thin_blood": None,
}
# older or other names a sheet may carry for the same clans (fr/es spellings fold to the same ids)
CLAN_ALIASES = {
    "assamite": "banu_haqim",
    "assamites": "banu_haqim",
    "banu_haquim": "banu_haqim",
    "the_ministry": "ministry",
    "followers_of_set": "ministry",
    "setite": "ministry",
    "setites": "ministry",
    "ministere": "ministry",
    "ministerio": "ministry",
    "giovanni": "hecata",
    "thinblood": "thin_blood",
    "thin_blooded": "thin_blood",
    "sang_clair": "thin_blood",
    "sangre_debil": "thin_blood",
    "duskborn": "thin_blood",
    "caitiffs": "caitiff",
}
NO_BEAST = ("ghoul", "mortal")  # V5-12


def clan_id(clan: str) -> str:
    """A sheet's clan as typed, folded: accents and case dropped, words joined by ``_``, a leading
    "clan" dropped ("Banu Haqim" -> ``banu_haqim``, "Clan Tremere" -> ``tremere``)."""
    text = unicodedata.normalize("NFKD", str(clan)).encode("ascii", "ignore").decode().casefold()
    words = "".join(c if c.isalnum() else " " for c in text).split()
    if words[:1] == ["clan"]:
        words = words[1:]
    folded = "_".join(words)
    return CLAN_ALIASES.get(folded, folded)


def choose(clan: str, creature: str, compulsion: str | None) -> str:
    """The compulsion the Storyteller calls: ``compulsion`` when named, else the clan's. Refused for
    a creature without a Beast, an unknown compulsion, or a clan without one when none is named."""
    if creature in NO_BEAST:
        raise RuleError("no_compulsion_for_creature", creature=creature)  # V5-12
    if compulsion is not None:
        if compulsion not in COMPULSIONS:
            raise RuleError("bad_choice", field="compulsion", value=compulsion, choices=sorted(COMPULSIONS))
        return compulsion
    folded = "thin_blood" if creature == "thin_blood" else clan_id(clan)
    found = CLAN_COMPULSIONS.get(folded)
    if found is None:  # Caitiff, thin-bloods, a clan the lists do not know: the Storyteller names one
        raise RuleError("no_clan_compulsion", clan=clan or "-", choices=list(GENERAL))
    return found


def check_until(until: str) -> str:
    if until not in UNTIL:
        raise RuleError("bad_choice", field="until", value=until, choices=list(UNTIL))
    return until


def penalty(compulsion: str, kind: str, attributes: tuple[str, ...], serves: bool) -> int:
    """The dice a compulsion costs a roll (0 or negative): tests only (Reading); a scoped compulsion
    by the pool's Attributes; the others unless the action serves the compulsion."""
    found = COMPULSIONS.get(compulsion)
    if found is None or kind != "test":
        return 0
    if found.attributes:
        return found.dice if any(name in found.attributes for name in attributes) else 0
    if found.unless_serving and serves:
        return 0
    return found.dice


def modifier(
    in_force: JsonObject | None, kind: str, attributes: tuple[str, ...], serves: bool
) -> JsonObject | None:
    """The pool's modifier line for the compulsion in force (``{"compulsion": id, "called": seq}``),
    or None when it costs this roll nothing."""
    if not in_force:
        return None
    dice = penalty(str(in_force.get("compulsion")), kind, attributes, serves)
    if dice == 0:
        return None
    return {
        "source": "compulsion",
        "dice": dice,
        "compulsion": in_force.get("compulsion"),
        "called": in_force.get("called"),
    }


__all__ = [
    "CLAN_COMPULSIONS",
    "COMPULSIONS",
    "GENERAL",
    "UNTIL",
    "Compulsion",
    "check_until",
    "choose",
    "clan_id",
    "modifier",
    "penalty",
]
