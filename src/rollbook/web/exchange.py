"""The combat chain on the pages (SPEC V20-17, T-4, T-5; ``server.usecases.exchange``): an exchange
shows as one card, the attack's, with its later steps (dodge, damage, soak, the wounds in their
effects) inside it; the next step is offered as a button to whoever may take it (the attacker's
player rolls damage, the defender's player — or the Storyteller for an NPC — sees "Soak 4 lethal").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook import play
from rollbook.i18n import N_, translate
from rollbook.server.usecases.exchange import chained_kinds, next_steps
from rollbook.web import labels

# The roll kinds whose label differs from the change of the same name ("damage": take damage).
ROLL_KINDS = {"damage": N_("Damage roll")}
LOCATIONS = ("head", "torso", "arms", "legs")
ROLL_ENTRY_KINDS = ("roll", "reroll")


def roll_kind(system: str, kind: str, lang: str) -> str:
    """A kind of roll in words (the sheet's tabs, a card's title)."""
    if kind in ROLL_KINDS and system == "v20":
        return translate(ROLL_KINDS[kind], lang)
    return labels.kind(system, kind, lang)


def attack_kinds(system: str) -> frozenset[str]:
    """The kinds of roll that open an exchange (a step may follow them; they follow nothing): V20 test, Tiers skill."""
    chains = play.system_module(system).CHAINS
    return chained_kinds(system) - frozenset(chains)


def target_choices(system: str, kind: str, attacker: int, characters: list) -> list[tuple[int, str]]:
    """The roll form's targets for an attack: every other character of the chronicle (names are public)."""
    if kind not in attack_kinds(system):
        return []
    return [(c.id, c.name) for c in characters if c.id != attacker]


def root_of(entry: dict) -> int | None:
    """The seq of the exchange's first step, for an entry of a chain (None: not part of one)."""
    receipt = entry.get("receipt")
    if not isinstance(receipt, dict) or entry.get("redacted"):
        return None
    stored = receipt.get("exchange")
    if isinstance(stored, dict):
        return stored.get("opened") or entry["seq"]
    return None


@dataclass
class Offer:
    """A next step as a button: posted to ``/chronicles/{c}/entries/{seq}/follow``."""

    seq: int
    kind: str
    label: str
    character: int | None  # the character who takes it (None: the viewer picks among ``choices``)
    choices: list[tuple[int, str]] = field(default_factory=list)
    weapons: list[tuple[str, str]] = field(default_factory=list)  # V20 damage: ("", unarmed), (name, name)
    locations: list[tuple[str, str]] = field(default_factory=list)  # Tiers soak: body locations

    @property
    def dom_id(self) -> str:
        return f"follow-{self.seq}-{self.kind}"


def _may_act(viewer, character) -> bool:
    return character is not None and (viewer.storyteller or character.owner == viewer.member_id)


def offers(system: str, mode: str, entry: dict, viewer, characters: list) -> list[Offer]:
    """The next steps of a chain after ``entry`` this viewer may take (``characters``: the table's
    rows, with the sheets the viewer may open)."""
    rows = {c.id: c for c in characters}
    lang = viewer.lang
    out = []
    receipt = entry.get("receipt") or {}
    for step in next_steps(system, entry):
        kind, takes = step["kind"], step["takes"]
        character = rows.get(step["character"]) if step["character"] is not None else None
        choices: list[tuple[int, str]] = []
        if step["character"] is None:  # no target named: the viewer's characters other than the attacker
            attacker = (receipt.get("exchange") or {}).get("attacker", entry.get("character"))
            choices = [(c.id, c.name) for c in characters if c.id != attacker and _may_act(viewer, c)]
            if not choices:
                continue
        elif not _may_act(viewer, character):
            continue
        offer = Offer(entry["seq"], kind, _label(system, mode, kind, takes, receipt, character, lang),
                      step["character"], choices)
        if system == "v20" and kind == "damage" and character is not None and character.sheet:
            offer.weapons = [("", translate(N_("unarmed"), lang))] + [
                (w["name"], w["name"]) for w in character.sheet.get("weapons") or []]
        if system == "tiers" and kind == "soak":
            armour = list(((character.sheet or {}).get("armor") or {}) if character is not None else {})
            names = armour + [name for name in LOCATIONS if name not in armour]
            offer.locations = [(name, labels.trait(name, lang)) for name in names]
        out.append(offer)
    return out


def _label(system: str, mode: str, kind: str, takes: dict, receipt: dict, character, lang: str) -> str:
    if system == "v20" and kind == "soak":
        levels, damage_type = takes["levels"], takes.get("damage_type") or "bashing"
        if character is not None and character.sheet:  # the defender's own soak (a bullet bashes a vampire)
            try:
                shown = play.preview(system, character.sheet, {"kind": "soak"}, mode=mode, role="storyteller",
                                     follows=receipt)["request"]
                levels, damage_type = shown["damage"], shown["damage_type"]
            except play.RuleError:
                pass
        return translate(N_("Soak {levels} {damage_type}"), lang, levels=levels,
                         damage_type=labels.choice(damage_type, lang, "damage_type"))
    if system == "v20" and kind == "damage":
        return translate(N_("Roll damage"), lang)
    if system == "tiers" and kind == "dodge":
        return translate(N_("Dodge (attack tier {tier})"), lang, tier=takes["attack_tier"])
    if system == "tiers" and kind == "soak":
        return translate(N_("Soak (attack tier {tier})"), lang, tier=takes["attack_tier"])
    return roll_kind(system, kind, lang)
