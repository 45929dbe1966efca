"""Table rules, contests and extended actions on the pages (SPEC TR-1 … TR-4, A-5): the cards of
their log entries in words, the buttons each viewer may press (a side's roll, the next roll of an
extended action), a roll's note (which side, the running total and rolls left), and the
Storyteller's panel (table rules in force, declaring a contest or an extended action)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.entries import (
    ContestReceipt,
    ContestResultReceipt,
    ExtendedReceipt,
    RollReceipt,
    SettingsReceipt,
    StepNotes,
)
from rollbook.i18n import N_, labelled, translate, translate_n
from rollbook.i18n.messages_rules import TABLE_RULE_NAMES
from rollbook.present import labels
from rollbook.rules.contests import PARTS
from rollbook.rules.table import declared

KINDS = ("settings", "contest", "contest_result", "extended")

STATUS: dict[object, str] = {  # looked up with what a receipt holds
    "going": N_("going on"),
    "reached": N_("target reached"),
    "botched": N_("botch: every success gathered is lost"),
    "bestial": N_("bestial failure: the action ends"),
    "out_of_rolls": N_("no rolls left"),
}


@dataclass
class Button:
    action: str  # where the form posts
    label: str
    side: str = ""


@dataclass
class Option:
    value: str
    label: str
    checked: bool = False


@dataclass
class Panel:
    storyteller: bool
    system: str
    characters: list[Option] = field(default_factory=list)
    rules: list[Option] = field(default_factory=list)
    ability_field: str = "ability"  # V20 names an Ability, V5 a Skill
    usable: bool = False  # contests and extended actions exist for V20 and V5 only
    side_difficulty: bool = False  # TR-3: a side rolls against a difficulty of its own (the part's)


def rule_name(rule_id: str, lang: str) -> str:
    """TR-2: a table rule in words, by its id (the id itself for a rule without words)."""
    name = TABLE_RULE_NAMES.get(rule_id)
    return translate(name, lang) if name else rule_id


def rule_words(rules, lang: str) -> str:
    return ", ".join(rule_name(r, lang) for r in rules) or translate(N_("none"), lang)


def roll_words(action: dict, lang: str) -> str:
    """A declared roll: "Dexterity + Firearms, difficulty 7"."""
    traits = [
        labels.trait(str(action[name]), lang)
        for name in ("attribute", "ability", "skill", "discipline")
        if action.get(name)
    ]
    text = " + ".join(traits) or labels.kind("", str(action.get("kind", "")), lang)
    if action.get("difficulty") is not None:
        text += " · " + translate(N_("difficulty {d}"), lang, d=action["difficulty"])
    return text


def describe_entry(kind: str, receipt: dict, lang: str) -> tuple[str, str]:
    """(title, line) of a settings, contest, contest result or extended action entry."""
    if kind == "settings":
        settings = SettingsReceipt.of(receipt)
        if "character" in settings.model_fields_set:  # one character's standing difficulty
            value = settings.difficulty
            return (
                translate(N_("Standing difficulty of {name}"), lang, name=f"#{settings.character}"),
                str(value) if value is not None else translate(N_("none"), lang),
            )
        parts = [
            translate(N_("mode: {mode}"), lang, mode=labels.choice(str(settings.mode), lang, "mode")),
            translate(
                N_("standing difficulty: {d}"),
                lang,
                d=settings.difficulty if settings.difficulty is not None else translate(N_("none"), lang),
            ),
            translate(N_("table rules: {rules}"), lang, rules=rule_words(settings.table_rules or [], lang)),
        ]
        return translate(N_("The Storyteller's settings"), lang), " · ".join(parts)
    if kind == "contest":
        declared = ContestReceipt.of(receipt)
        a, d = declared.attacker, declared.defender
        title = translate(
            N_("Contest: {attacker} against {defender}"), lang, attacker=a.name or "", defender=d.name or ""
        )
        line = " — ".join(labelled(side.name or "", roll_words(side.action, lang), lang) for side in (a, d))
        return title, line
    if kind == "contest_result":
        return contest_result_words(receipt, lang)
    if kind == "extended":
        extended = ExtendedReceipt.of(receipt)
        title = translate(N_("Extended action: {name}"), lang, name=extended.name or "")
        line = (
            roll_words(extended.action, lang)
            + " · "
            + translate_n("{n} success to gather", "{n} successes to gather", extended.target, lang)
        )
        if extended.max_rolls:
            line += " · " + translate(N_("at most {n} rolls"), lang, n=extended.max_rolls)
        return title, line
    return "", ""


def contest_result_words(receipt: dict, lang: str, names: dict | None = None) -> tuple[str, str]:
    """TR-3: both sides and the margin; a tie is the defender's."""
    names = names or {}
    result = ContestResultReceipt.of(receipt)
    sides = {}
    for side, part in (("attacker", result.attacker), ("defender", result.defender)):
        name = names.get(part.character, f"#{part.character}")
        text = translate_n("{name}: {n} success", "{name}: {n} successes", part.successes, lang, name=name)
        if part.botch:
            text += " (" + translate(N_("botch"), lang) + ")"
        if part.messy:
            text += " (" + translate(N_("Messy Critical"), lang) + ")"
        if part.bestial:
            text += " (" + translate(N_("Bestial Failure"), lang) + ")"
        sides[side] = (name, text)
    if result.tie:
        title = translate(N_("Contest tied: {name} holds (nothing changes)"), lang, name=sides["defender"][0])
    else:
        winner = sides[result.winner or "defender"][0]
        title = translate(
            N_("{name} wins the contest by {margin}"), lang, name=winner, margin=result.margin or 0
        )
    return title, " — ".join(text for _, text in sides.values())


def roll_note(receipt: RollReceipt | dict, lang: str) -> list[str]:
    """A roll that is a contest's side or an extended action's roll, in words (``receipt``: the roll
    as its model, or its stored notes)."""
    notes = []
    steps = receipt if isinstance(receipt, RollReceipt) else StepNotes.of(receipt)
    contest = steps.contest
    if isinstance(contest, dict):
        template = (
            N_("Contest #{seq}: the attacker's roll")
            if contest.get("side") == "attacker"
            else N_("Contest #{seq}: the defender's roll")
        )
        notes.append(translate(template, lang, seq=contest.get("of")))
    extended = steps.extended
    if isinstance(extended, dict):
        text = translate_n(
            "Extended action #{seq}, roll {roll}: {n} success of {target}",
            "Extended action #{seq}, roll {roll}: {n} successes of {target}",
            extended.get("total") or 0,
            lang,
            seq=extended.get("of"),
            roll=extended.get("roll"),
            target=extended.get("target"),
        )
        # TR-4: rolls left are counted while the action goes on; once over, its end says why
        if extended.get("rolls_left") is not None and extended.get("status", "going") == "going":
            text += " · " + translate(N_("rolls left: {n}"), lang, n=extended["rolls_left"])
        text += " · " + translate(STATUS.get(extended.get("status"), N_("going on")), lang)
        if extended.get("complications"):
            text += " · " + translate(
                N_("complications (Messy Criticals): {n}"), lang, n=extended["complications"]
            )
        notes.append(text)
    return notes


def buttons(
    kind: str,
    seq: int,
    receipt: dict,
    chronicle_id: int,
    *,
    storyteller: bool,
    member_id: int,
    owners: dict,
    lang: str,
    taken: frozenset[tuple[int, str]] = frozenset(),
) -> list[Button]:
    """The rolls this viewer may make from a declaration's card: each side they may act for that has
    not rolled (TR-3), the next roll while the extended action goes on (TR-4; ``taken``: it is over)."""

    def may_act(character) -> bool:
        return storyteller or (owners.get(character) is not None and owners.get(character) == member_id)

    if kind == "contest":
        declared = ContestReceipt.of(receipt)
        return [
            Button(
                f"/chronicles/{chronicle_id}/contests/{seq}/roll",
                translate(N_("Roll for {name}"), lang, name=part.name or ""),
                side,
            )
            for side, part in (("attacker", declared.attacker), ("defender", declared.defender))
            if may_act(part.character) and (seq, side) not in taken
        ]
    if kind == "extended":
        extended = ExtendedReceipt.of(receipt)
        if may_act(extended.character) and (seq, "") not in taken:
            return [
                Button(
                    f"/chronicles/{chronicle_id}/extended/{seq}/roll",
                    translate(N_("Next roll for {name}"), lang, name=extended.name or ""),
                )
            ]
    return []


def panel(chronicle: dict, characters: list, storyteller: bool, lang: str) -> Panel:
    """The Storyteller's panel: the table rules (TR-1) and the declarations (TR-3, TR-4)."""
    system = chronicle["system"]
    in_force = set(chronicle.get("table_rules") or [])
    part = PARTS.get(system)  # the system's part of contests (TR-3, TR-4), if it has one
    return Panel(
        storyteller=storyteller,
        system=system,
        usable=part is not None,
        ability_field=part.ABILITY_FIELD if part is not None else "ability",
        side_difficulty=part is not None and part.SIDE_DIFFICULTY,
        characters=[Option(str(c.id), c.name) for c in characters],
        rules=[  # TR-2: every rule declared for the system
            Option(rule.id, rule_name(rule.id, lang), rule.id in in_force) for rule in declared(system)
        ],
    )


__all__ = [
    "Button",
    "KINDS",
    "Panel",
    "buttons",
    "contest_result_words",
    "describe_entry",
    "panel",
    "roll_note",
    "roll_words",
    "rule_name",
    "rule_words",
]
