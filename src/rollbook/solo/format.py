"""The solo chronicle's scenario format (SPEC S-1, S-4): Pydantic v2 models, frozen, unknown keys refused.

THE CONTRACT (docs/solo.md "Format" says the same with an example). A scenario is one YAML file
(JSON is YAML too). Top level:

- ``id``: the scenario's id (lower-case letters, digits, ``-`` and ``_``); ``system``: ``v20``.
- ``title``: text (below); ``summary`` (optional): text; ``languages``: the languages every text of the
  file has, a list of ``fr``, ``es``, ``en`` (S-4: a passage missing one is refused).
- ``start``: the id of the first passage.
- ``pregenerated``: a V20 character sheet, the same JSON the API's character creation takes
  (``POST /api/chronicles/{id}/characters``'s ``sheet``; ``name`` required here).
- ``npcs``: ``{npc id: {name: text, shown_as?: text, revealed_by?: flag, sheet: <a V20 sheet>,
  attack: <attack>}}``; an NPC's ``attack`` defaults to Dexterity + Brawl, unarmed, difficulty 6;
  ``shown_as`` is the name the player sees until the flag ``revealed_by`` is set (S-10).
- ``passages``: ``{passage id: passage}``.

*Text* is a mapping ``{fr: "...", es: "...", en: "..."}`` (YAML's ``|`` keeps paragraphs).
*Trait ids* are the sheet's ids (``dexterity``, ``subterfuge``, ``animal_ken``, ``fortitude``).

A passage has ``text`` and optionally ``sets_flag`` (set when the passage is reached) and
``blood_gain`` (blood restored on arrival by the scenario as Storyteller: the character fed), then
exactly one of:

- ``choices``: a list of ``{text, goto, requires_flag?, unless_flag?, sets_flag?, willpower_cost?}``: the
  player picks one; ``requires_flag`` shows it only once the flag is set, ``unless_flag`` only while
  it is not; ``willpower_cost`` spends that much Willpower (refused without it).
- ``check`` (S-2): ``{traits, difficulty, specialty?, modifier?, willpower_allowed?, outcomes}``:
  one roll of the player's character. ``traits``: ``[attribute, ability]`` (or a Discipline),
  ``[attribute]``, ``[willpower]`` or ``[a virtue]``. ``difficulty``, ``specialty`` and
  ``modifier`` (dice) are the scenario's, as a Storyteller's (A-1: the player adds none);
  ``willpower_allowed`` (default true) lets the player spend Willpower for a success (V20-9).
  ``outcomes``: ``{botch, failure, success, success_2?, success_3?, success_4?, success_5?}`` —
  each a passage id; ``success_N`` is taken when the roll has N successes or more (the highest
  such N), else ``success``.
- ``extended`` (TR-4): ``{traits, difficulty, target, max_rolls, success, failure, botch?}``: rolls of
  the same pool until the successes add up to ``target`` (``success``), or ``max_rolls`` rolls are
  spent (``failure``); a botch goes to ``botch`` (default ``failure``).
- ``fight`` (S-3): ``{npcs, win, lose, flee?, attacks?}``: turn by turn until every NPC is down
  (``win``) or the player's character is (``lose``); ``flee`` (optional) offers leaving the fight
  each turn. ``attacks``: the player's attacks on offer (default: Dexterity + Brawl, unarmed).
  An *attack* is ``{traits: [attribute, ability], weapon?: <a weapon named on the sheet>,
  difficulty?: 6}``.
- ``ending``: ``{kind: good | bitter | dark}``: the chronicle's end.

Flags are plain names (``[a-z][a-z0-9_]*``) the story sets and reads; they start unset.

Pure: Pydantic only. The sheets are validated by ``rollbook.play`` in ``solo.check`` (S-4), not here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from rollbook.i18n import LANGUAGES, LanguageCode

ENDING_KINDS = ("good", "bitter", "dark")
BODIES = ("choices", "check", "extended", "fight", "ending")  # a passage has exactly one

Language = LanguageCode  # a text's language: one of the table's (``i18n.LANGUAGES``)
Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=60)]
Flag = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
TraitId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Words = Annotated[str, StringConstraints(min_length=1, max_length=20000)]
# One text in each language the file has (S-1): which languages a text lacks is solo.check's (S-4).
Text = dict[Language, Words]
# A sheet as the file writes it: any YAML mapping, keys included (``dict[str, ...]`` would refuse a
# number as a key here); ``play.new_sheet`` validates it as any sheet (``solo.check``, S-4).
SheetData = dict[Any, Any]
# where an author reads the sheet's keys (the JSON Schema shows it beside ``pregenerated`` and ``sheet``)
SHEET_HELP = (
    "A V20 character sheet (name, creature, generation, attributes, talents, skills, knowledges, "
    "disciplines, specialties, virtues, humanity, willpower, blood, health, weapons): docs/solo.md, "
    '"Character sheets (V20)"; validated by `rollbook scenario check` as the server validates any sheet.'
)


def is_language(lang: str) -> TypeGuard[Language]:
    return lang in LANGUAGES


class Base(BaseModel):
    """Every part of a scenario: unknown keys refused (a typo is an error, not a silent default), frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Choice(Base):
    text: Text
    goto: Id
    requires_flag: Flag | None = None
    unless_flag: Flag | None = None
    sets_flag: Flag | None = None
    willpower_cost: int = Field(0, ge=0, le=10)


class Outcomes(Base):
    """S-2: each result of a check leads to a passage; successes by degree (``success_N``: N or more)."""

    botch: Id
    failure: Id
    success: Id
    success_2: Id | None = None
    success_3: Id | None = None
    success_4: Id | None = None
    success_5: Id | None = None

    def degrees(self) -> list[tuple[int, str]]:
        """``(successes at least, passage)``, highest first, ending with ``(1, success)``."""
        found = [(n, getattr(self, f"success_{n}")) for n in (5, 4, 3, 2)]
        return [(n, goto) for n, goto in found if goto is not None] + [(1, self.success)]

    def for_result(self, outcome: str | None, successes: int) -> str:
        if outcome == "botch":
            return self.botch
        if outcome != "success":
            return self.failure
        return next(goto for n, goto in self.degrees() if successes >= n)


Traits = Annotated[list[TraitId], Field(min_length=1, max_length=2)]


class Check(Base):
    """One roll of the player's character; what the rules leave to the Storyteller is the scenario's (A-1)."""

    traits: Traits
    difficulty: int = Field(6, ge=2, le=10)
    specialty: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None
    modifier: int = Field(0, ge=-20, le=20)
    willpower_allowed: bool = True
    outcomes: Outcomes


class Extended(Base):
    """An extended action (TR-4): successes add up roll after roll."""

    traits: Traits
    difficulty: int = Field(6, ge=2, le=10)
    target: int = Field(ge=1, le=50)
    max_rolls: int = Field(ge=1, le=20)
    willpower_allowed: bool = True
    success: Id
    failure: Id
    botch: Id | None = None


class Attack(Base):
    """An attack (V20-17): a test of an attribute and a combat ability, the weapon's damage after it."""

    traits: Annotated[list[TraitId], Field(min_length=2, max_length=2)]
    weapon: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None
    difficulty: int = Field(6, ge=2, le=10)


UNARMED = Attack(traits=["dexterity", "brawl"])


class Fight(Base):
    """S-3: the engine runs the NPCs, the dice and the arithmetic; the player chooses each turn."""

    npcs: Annotated[list[Id], Field(min_length=1, max_length=6)]
    win: Id
    lose: Id
    flee: Id | None = None
    attacks: Annotated[list[Attack], Field(min_length=1, max_length=6)] = [UNARMED]


class Ending(Base):
    kind: Literal["good", "bitter", "dark"]


class Passage(Base):
    text: Text
    sets_flag: Flag | None = None
    # blood the story gives on arrival (the character fed): the scenario, as Storyteller, restores it
    # (V20 ``restore`` is the Storyteller's change), never above the sheet's blood pool
    blood_gain: int = Field(0, ge=0, le=20)
    choices: Annotated[list[Choice], Field(min_length=1, max_length=12)] | None = None
    check: Check | None = None
    extended: Extended | None = None
    fight: Fight | None = None
    ending: Ending | None = None

    @model_validator(mode="after")
    def _one_body(self) -> Passage:
        given = [name for name in BODIES if getattr(self, name) is not None]
        if len(given) != 1:  # its own error type: the checker says it in every language (``passage_body``)
            raise PydanticCustomError(
                "passage_body",
                "a passage has exactly one of choices, check, extended, fight, ending; found {found}",
                {"found": given},
            )
        return self

    @property
    def body(self) -> str:
        return next(name for name in BODIES if getattr(self, name) is not None)

    def links(self) -> list[tuple[str, str]]:
        """``(place under the passage, passage id)`` of every passage this one leads to."""
        if self.choices is not None:
            return [(f"choices.{i}.goto", choice.goto) for i, choice in enumerate(self.choices)]
        if self.check is not None:
            outcomes = self.check.outcomes
            return [
                (f"check.outcomes.{name}", getattr(outcomes, name))
                for name in Outcomes.model_fields
                if getattr(outcomes, name) is not None
            ]
        for name, fields in (
            ("extended", ("success", "failure", "botch")),
            ("fight", ("win", "lose", "flee")),
        ):
            body = getattr(self, name)
            if body is not None:
                return [(f"{name}.{field}", getattr(body, field)) for field in fields if getattr(body, field)]
        return []


class Npc(Base):
    name: Text
    # S-10: the name the player sees until the story reveals the true one (``revealed_by``: the flag that
    # reveals it; without one, the true name is never shown); the chronicle's character bears it too
    shown_as: Text | None = None
    revealed_by: Flag | None = None
    sheet: SheetData = Field(description=SHEET_HELP)
    attack: Attack = UNARMED


class Scenario(Base):
    id: Id
    system: Literal["v20"]
    title: Text
    summary: Text | None = None
    languages: Annotated[list[Language], Field(min_length=1, max_length=len(LANGUAGES))]
    start: Id
    pregenerated: SheetData = Field(description=SHEET_HELP)
    npcs: dict[Id, Npc] = Field(default_factory=dict)
    passages: Annotated[dict[Id, Passage], Field(min_length=1)]


def schema() -> dict[str, Any]:
    """The published JSON Schema of a scenario (``rollbook scenario schema``, S-1)."""
    return Scenario.model_json_schema()


__all__ = [
    "BODIES",
    "ENDING_KINDS",
    "LANGUAGES",
    "UNARMED",
    "Attack",
    "Check",
    "Choice",
    "Ending",
    "Extended",
    "Fight",
    "Npc",
    "Outcomes",
    "Passage",
    "Scenario",
    "schema",
]
