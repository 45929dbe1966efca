"""The log's entry kinds: one tagged union, each kind's receipt a frozen Pydantic model.

Pure (the standard library and Pydantic): the writers (``server/usecases``) build these models and
store their ``dump()``; the readers (``rollbook log verify``, the exports, the presenters, the API's
schemas) parse a stored receipt back with ``receipt_of`` and read its fields by name. ``KINDS`` and
``RECEIPTS`` are derived from ``Entry``, the union discriminated on the entry's ``kind``.

What is stored does not change (docs/server.md, "The receipt log"): an entry's hash covers the stored JSON
(``server/chain.py``), so a model never adds, drops or converts a value:

- ``strict``: a value of another JSON type is refused, never coerced (``1`` is no ``true``);
- ``extra="allow"``: a field this module does not name (an older or a newer writer's) is kept;
- ``dump()`` writes exactly the fields given (``exclude_unset``): a field a writer did not set, or
  an old entry did not hold, stays absent, and ``dump(receipt_of(kind, stored)) == stored``
  (``tests/test_entries.py`` checks it over old logs and over every kind the server writes).

A roll's receipt (``roll``, ``reroll``) is the rules engine's, by system and kind (the play layer's
own models describe it: ``play.schema``); here it names the fields the log adds to it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self, Union, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model

__all__ = [
    "KINDS",
    "RECEIPTS",
    "Logged",
    "Entry",
    "Receipt",
    "ValidationError",
    "dump",
    "entry_name",
    "entry_of",
    "receipt_of",
]


class Receipt(BaseModel):
    """What every kind's receipt shares: frozen, strict, and open to fields it does not name."""

    model_config = ConfigDict(frozen=True, strict=True, extra="allow", populate_by_name=True)

    def dump(self) -> dict[str, Any]:
        """The receipt as stored: the fields given, by their JSON names, nothing added."""
        return self.model_dump(by_alias=True, exclude_unset=True)

    @classmethod
    def of(cls, receipt: Any) -> Self:
        """A stored receipt read as this model (``ValidationError`` when it is not one)."""
        return cls.model_validate(receipt)


def dump(receipt: Receipt) -> dict[str, Any]:
    return receipt.dump()


Json = Any  # a JSON value kept as it is (a sheet, an action, a rules request or result …)
Obj = dict[str, Any]


# --- rolls and changes --------------------------------------------------------------------------


class RollReceipt(Receipt):
    """``roll`` and ``reroll``: the rules receipt of the chronicle's system (``system``, ``kind``,
    ``request``, ``faces``, ``result`` …) and what the server adds: the grant or baseline it was
    made under (A-2), the turn (A-3), the fair dice (F-6), the combat chain (V20-17, T-4, T-5), the
    contest or extended action it is a side or a step of (TR-3, TR-4), the hunger frenzy test a Rouse
    offers (V5-10), the scenario's tag (S-3)."""

    system: str
    kind: str | None = None
    request: Obj | None = None
    faces: list[Json] | None = None
    result: Json = None
    action: Obj | None = None
    pool: Obj | None = None
    authority: Obj | None = None
    turn: Obj | None = None
    fair: Obj | None = None
    exchange: Obj | None = None
    rerolls: list[Obj] | None = None
    contest: Obj | None = None
    extended: Obj | None = None
    frenzy_test: Obj | None = None
    solo: Json = None
    attack: Obj | None = None  # a V20 dodge's: the attack it answers, its successes left (V20-20)
    table_rules: list[str] | None = None  # TR-1: the table rules it was resolved under
    effects: list[Json] | None = None  # what the roll changed on the sheet (the entry's, repeated)
    power: Json = None  # V5-9: the power rolled or used (its discipline, power, Rouse checks)
    rouses: list[Json] | None = None  # V5-9: the Rouse checks a power paid, each a rules receipt
    rouse: Json = None  # V5-5: the Rouse check of a Blood Surge, its rules receipt


class QuickRollReceipt(Receipt):
    """``quick_roll``: dice without a sheet (``play.quick``): the values asked, the rules request,
    faces and result; ``fair`` (F-6) when the dice were fair."""

    quick: Obj
    sheet: None
    request: Obj
    faces: list[Json]
    result: Json
    fair: Obj | None = None
    table_rules: list[str] | None = None  # TR-1


class AdjustReceipt(Receipt):
    """``adjust``: a change without dice: the rules receipt of a change that rolls (``system`` …), or
    the change asked, its effects and its result; ``turn`` (A-3)."""

    system: str | None = None
    kind: str | None = None
    change: Obj | None = None
    effects: list[Json] | None = None
    result: Json = None
    turn: Obj | None = None


class RevealReceipt(Receipt):
    """``reveal``: the hidden entry shown to every member, by seq and hash."""

    reveals: int
    entry_hash: str


class StepNotes(Receipt):
    """A roll's notes of the step it takes, read alone (``RollReceipt``'s fields of these names, no
    ``system`` needed): a contest's side (TR-3), an extended action's roll (TR-4), a hunger frenzy
    test (V5-10)."""

    contest: Obj | None = None
    extended: Obj | None = None
    frenzy_test: Obj | None = None


# --- asks and grants (A-1, A-2) -------------------------------------------------------------------


class AskReceipt(Receipt):
    """``ask``: a player's roll that sets an edge, waiting for the Storyteller (A-1)."""

    ask: int
    character: int
    kind: str
    player: Obj
    asked: Obj
    baseline: Obj | None = None
    standing: Json = None
    pool: Json = None
    follows: int | None = None
    target: int | None = None


class _Decision(Receipt):
    ask: int
    ask_seq: int
    character: int | None
    decision: str
    asked: Obj


class GrantReceipt(_Decision):
    """``grant``: the ask granted, as asked or changed; the action the roll makes (A-2)."""

    granted: Obj
    baseline: Obj | None = None
    action: Obj | None = None
    hidden: bool | None = None


class RefusalReceipt(_Decision):
    """``refusal``: the ask refused, nothing rolled."""

    reason: str | None = None


class WithdrawalReceipt(_Decision):
    """``withdrawal``: the ask taken back, by its asker or (``cause``) with its asker or character."""

    cause: str | None = None


class StandingGrantReceipt(Receipt):
    """``standing_grant``: edges granted to every roll of one character or all (A-2), for a scene."""

    standing: int
    character: int | None
    edges: Obj
    scene: int | None = None


class StandingEndReceipt(Receipt):
    """``standing_end``: a standing grant ended."""

    standing: int
    character: int | None


class SettingsReceipt(Receipt):
    """``settings``: the Storyteller's baseline in force after a change (A-5, TR-1): the chronicle's
    mode, difficulty and table rules, or (``character``) one character's standing difficulty."""

    mode: str | None = None
    difficulty: int | None = None
    table_rules: list[str] | None = None
    character: int | None = None
    changed: list[str] | None = None


# --- scenes and turns (A-3, A-4) ------------------------------------------------------------------


class SceneOpenReceipt(Receipt):
    scene: int
    name: str | None = None


class Cleared(Receipt):
    """A character's per-turn resources cleared when a turn begins: the change and its effects (A-3)."""

    character: int
    change: Obj | None = None
    effects: list[Json] | None = None


class TurnReceipt(Receipt):
    """``turn``: a new turn; ``new_turn`` the per-turn resources cleared (each character's change)."""

    scene: int
    turn: int
    new_turn: list[Cleared] | None = None


class SceneCloseReceipt(Receipt):
    scene: int
    turns: int | None = None
    standing_ended: list[int] | None = None


class ActionsReceipt(Receipt):
    """``actions``: how many actions a character takes this turn (A-4)."""

    scene: int
    turn: int
    character: int
    actions: int


# --- characters and members -----------------------------------------------------------------------


class SheetEditReceipt(Receipt):
    """``sheet_edit`` (hidden: its owner's and the Storyteller's): each field's before and after."""

    character: int
    owner: int | None = None
    changes: list[Obj]


class RemovalReceipt(Receipt):
    """``removal`` (hidden: its owner's and the Storyteller's): the character and its last sheet."""

    character: int
    name: str | None = None
    owner: int | None = None
    version: int | None = None
    sheet: Obj | None = None


class MemberRemovedReceipt(Receipt):
    member: int
    name: str | None = None
    role: str | None = None
    characters: list[int] | None = None


class SheetImportReceipt(Receipt):
    """``sheet_import``: another tool's sheet read: its format, the counts, homebrew names (no rating)."""

    character: int
    owner: int | None = None
    origin: Obj | None = None
    counts: Obj | None = None
    homebrew: list[str] | None = None


class SheetExportReceipt(Receipt):
    character: int
    owner: int | None = None
    format: str
    version: int | None = None


class QuickSettingReceipt(Receipt):
    """``quick_setting``: the Storyteller allows or forbids the players' quick rolls."""

    allowed: bool


class CompulsionReceipt(Receipt):
    """``compulsion``: the Storyteller calls a compulsion on a character (V5)."""

    character: int
    compulsion: str
    until: str | None = None
    scene: int | None = None
    roll: int | None = None
    dice: Json = None
    attributes: list[str] | None = None
    unless_serving: Json = None


class CompulsionEndReceipt(Receipt):
    character: int
    compulsion: str
    called: int
    reason: str | None = None


# --- provably fair dice (F-1 … F-8) ---------------------------------------------------------------


class SeedCommitReceipt(Receipt):
    algorithm: str
    commitment: str
    stream: str | None = None


class ClientSeedReceipt(Receipt):
    member: int
    client_seed: str


class SeedRevealReceipt(Receipt):
    """``seed_reveal``: the seed behind a commitment, and how many rolls drew from it (F-8)."""

    algorithm: str
    commitment: str
    seed: str
    stream: str | None = None
    rolls: int | None = None
    last_nonce: int | None = None


class SeedAbandonReceipt(Receipt):
    """``seed_abandon``: a server seed the operator's secret no longer opens, given up unrevealed: the
    rolls under it stay pending for good (F-1; how many drew from it, F-8)."""

    algorithm: str
    commitment: str
    stream: str
    rolls: int
    last_nonce: int
    cause: Literal["unreadable"]


class DiceReceipt(Receipt):
    """A rules receipt as the fair dice read it, whatever its entry's kind (a roll, a change that
    rolls, the receipt a quick roll stands for: ``play.quick.rules_receipt``): its system, whether it
    has a request, and the fairness records (F-6) of its own draw and of its follow-ups (V5-8), as
    stored: ``rollbook.fair`` checks their shape itself (``fair_record_malformed``,
    ``fair_cannot_replay``)."""

    system: str
    request: Json = None
    fair: Json = None
    rerolls: Json = None


# --- contests and extended actions (TR-3, TR-4) ---------------------------------------------------


class DeclaredSide(Receipt):
    """One side of a contest as declared: its character (and name) and the roll it makes."""

    character: int
    name: str | None = None
    action: Obj


class ContestReceipt(Receipt):
    """``contest``: its two sides, each a character and its action (no ``system``: not a rules receipt)."""

    game: str
    attacker: DeclaredSide
    defender: DeclaredSide


class SideOutcome(Receipt):
    """One side in a contest's result: its character, its roll's seq, and what the side scored (TR-3)."""

    character: int
    roll: int
    successes: int
    botch: bool | None = None  # V20
    messy: bool | None = None  # V5
    bestial: bool | None = None  # V5


class ContestResultReceipt(Receipt):
    """``contest_result``: both sides' rolls, the winner, the margin (TR-3)."""

    contest: int
    game: str
    winner: str | None
    margin: Json = None
    tie: bool | None = None
    attacker: SideOutcome
    defender: SideOutcome


class ExtendedReceipt(Receipt):
    """``extended``: a character's roll repeated until ``target`` successes, in at most ``max_rolls`` (TR-4)."""

    game: str
    character: int
    name: str | None = None
    action: Obj
    target: int
    max_rolls: int | None = None


# --- the solo chronicle (S-1 … S-7) ---------------------------------------------------------------


class SoloStartReceipt(Receipt):
    scenario: str
    digest: str | None = None
    player: int
    npcs: dict[str, int] | None = None


class SoloChoiceReceipt(Receipt):
    passage: str
    option: Json


class SoloPassageReceipt(Receipt):
    passage: str
    came_from: str | None = Field(None, alias="from")
    flags: list[str] | None = None
    ending: Json = None


# --- an entry as the readers walk the log ---------------------------------------------------------


class Logged(BaseModel):
    """An entry as the log's readers walk it (an export line, the API's entry, a row as a dict): its
    header by name, any other field ignored, and its receipt as stored (``stored``), read as its
    kind's model by ``read()``. ``Logged.of`` refuses (``ValidationError``) what is no entry: no
    ``seq`` or ``kind``, or a header field of another JSON type."""

    model_config = ConfigDict(frozen=True, strict=True, extra="ignore", populate_by_name=True)

    seq: int
    kind: str
    stored: Json = Field(None, alias="receipt")
    chronicle: int | None = None
    actor: Obj | None = None
    character: int | None = None
    refers_to: int | None = None
    visibility: str | None = None
    effects: list[Json] | None = None
    redacted: bool | None = None
    created_at: str | None = None
    revealed_by: int | None = None

    @classmethod
    def of(cls, entry: Any) -> Logged:
        return cls.model_validate(entry)

    def read(self) -> Receipt | None:
        """The receipt as its kind's model, None when there is none (redacted) (``KeyError``: no such
        kind; ``ValidationError``: a receipt not of its kind)."""
        return None if self.stored is None else receipt_of(self.kind, self.stored)


class ExportLine(BaseModel):
    """A line of an exported log as ``rollbook log verify`` reads it before it checks it
    (``server/chain.py``): its place in the log (``seq``, an integer: else it is no entry), and what it
    states of its chain as it states it, of whatever JSON type (the verifier checks them: a hash of
    another type is a mismatch, a ``redacted`` other than ``true`` a problem), its receipt as stored.
    Its header is ``Logged``'s (``Logged.of`` refuses a line whose header is of another type)."""

    model_config = ConfigDict(frozen=True, strict=True, extra="ignore")

    seq: int
    entry_hash: Json = None
    content_hash: Json = None
    redacted: Json = None
    stored: Json = Field(None, alias="receipt")

    @classmethod
    def of(cls, line: Any) -> ExportLine:
        return cls.model_validate(line)


# --- the rules results a roll carries (``result``: ``rollbook.render``'s views read them) -----------
# The rules engine's receipts (``rules.*``) as stored: lists for its tuples, read by name. A view
# parses the result it shows with its system's models; a field it does not read is kept, unchecked.


class RulesReceipt(Receipt):
    """A receipt of the rules engine, as a roll or a change stores it: it names its system (the log's
    own payloads, a reveal's, a grant's …, name none)."""

    system: str


class RulesResult(Receipt):
    """What every rules result names: the system that resolved it, and (most) its kind."""

    system: str
    kind: str | None = None


class V20TestResult(RulesResult):
    """A V20 test (V20-1 … V20-15): no ``kind``; every number V20-14 explains."""

    pool: int
    requested_difficulty: int
    evaluated_difficulty: int
    difficulty: int
    mode: str
    requested_required: int
    required: int
    untrained: str | None
    untrained_penalty: int
    specialty: bool
    faces: list[int]
    ones: int
    specialty_tens: int
    rolled_successes: int
    cancelled: int
    willpower_success: int
    power_successes: int
    auto_successes: int
    successes: int
    outcome: str
    degree: str | None = None
    table_rules: list[str] | None = None
    reroll_limit: int | None = None
    rerolled: int = 0


class V20DamageResult(RulesResult):
    """A V20 damage roll (V20-17)."""

    pool: int
    damage_type: str
    faces: list[int]
    levels: int
    difficulty: int
    outcome: str | None = None
    auto_sources: dict[str, int] | None = None  # V20-21: Potence's levels, never rolled


class V20SoakResult(RulesResult):
    """A V20 soak roll (V20-16)."""

    damage: int
    damage_type: str
    soak_pool: int
    faces: list[int]
    soaked: int
    damage_taken: int
    difficulty: int = 6
    outcome: str | None = None


class V5RerollStep(Receipt):
    """A Willpower reroll of a V5 test (V5-8): the normal dice rerolled, their faces before and after."""

    dice: list[int]
    old: list[int]
    new: list[int]


class V5Result(RulesResult):
    """A V5 roll (V5-1 … V5-12): a test, a Rouse check, a Willpower, Remorse or frenzy roll."""

    kind: str
    difficulty: int
    pool: int
    hunger_level: int
    normal: list[int]
    hunger: list[int]
    rerolls: list[V5RerollStep]
    critical_pairs: int
    successes: int
    margin: int
    messy: bool
    bestial: bool
    outcome: str
    rouse_faces: list[int] = []
    hunger_gain: int = 0
    hunger_frenzy_risk: bool = False


class _TiersChain(RulesResult):
    """What every Tiers roll shows of its chain of dice (T-1, T-2)."""

    first_face: int
    base_tier: int
    critical: bool
    rerolls: list[int]
    critical_tiers: int
    critical_lift: int = 0
    success: bool
    outcome: str


class TiersSkillResult(_TiersChain):
    kind: Literal["skill"]
    skill: int
    bonus: int
    effective_skill: int
    tier_before_bullets: int
    bullets: int | None
    multiplier: int
    tier: int

    @property
    def effective(self) -> int:
        return self.effective_skill


class TiersDodgeResult(_TiersChain):
    kind: Literal["dodge"]
    skill: int
    bonus: int
    effective_skill: int
    tier: int
    attack_tier: int
    dodged: bool

    @property
    def effective(self) -> int:
        return self.effective_skill


class TiersSoakResult(_TiersChain):
    kind: Literal["soak"]
    endurance: int
    armor: int
    soak_value: int
    soak_tier: int
    attack_tier: int
    damage: int

    @property
    def effective(self) -> int:
        return self.soak_value


TiersResult = Annotated[TiersSkillResult | TiersDodgeResult | TiersSoakResult, Field(discriminator="kind")]
TIERS_RESULT: TypeAdapter[TiersSkillResult | TiersDodgeResult | TiersSoakResult] = TypeAdapter(TiersResult)


class _RollUnderResult(RulesResult):
    action: str
    task: str
    rolled: bool
    faces: list[int]
    outcome: str
    success: bool
    cards: list[str]


class RollUnderCheckResult(_RollUnderResult):
    """A roll-under check (R-1 … R-6, R-8)."""

    kind: Literal["check"]
    level: int
    bonus: int
    malus: int
    target: int
    advantage: bool
    disadvantage: bool
    keep: str
    kept: int | None
    dropped: list[int]


class RollUnderOpposedResult(_RollUnderResult):
    """A roll-under opposed roll (R-7)."""

    kind: Literal["opposed"]
    dice: str
    sizes: list[int]
    threshold: int
    total: int | None


RollUnderResult = Annotated[RollUnderCheckResult | RollUnderOpposedResult, Field(discriminator="kind")]
ROLLUNDER_RESULT: TypeAdapter[RollUnderCheckResult | RollUnderOpposedResult] = TypeAdapter(RollUnderResult)


# --- the union --------------------------------------------------------------------------------------

_BY_KIND: dict[str, type[Receipt]] = {
    "roll": RollReceipt,
    "reroll": RollReceipt,
    "quick_roll": QuickRollReceipt,
    "adjust": AdjustReceipt,
    "reveal": RevealReceipt,
    "ask": AskReceipt,
    "grant": GrantReceipt,
    "refusal": RefusalReceipt,
    "withdrawal": WithdrawalReceipt,
    "standing_grant": StandingGrantReceipt,
    "standing_end": StandingEndReceipt,
    "settings": SettingsReceipt,
    "scene_open": SceneOpenReceipt,
    "turn": TurnReceipt,
    "scene_close": SceneCloseReceipt,
    "actions": ActionsReceipt,
    "sheet_edit": SheetEditReceipt,
    "removal": RemovalReceipt,
    "member_removed": MemberRemovedReceipt,
    "sheet_import": SheetImportReceipt,
    "sheet_export": SheetExportReceipt,
    "quick_setting": QuickSettingReceipt,
    "compulsion": CompulsionReceipt,
    "compulsion_end": CompulsionEndReceipt,
    "seed_commit": SeedCommitReceipt,
    "client_seed": ClientSeedReceipt,
    "seed_reveal": SeedRevealReceipt,
    "seed_abandon": SeedAbandonReceipt,
    "contest": ContestReceipt,
    "contest_result": ContestResultReceipt,
    "extended": ExtendedReceipt,
    "solo_start": SoloStartReceipt,
    "solo_choice": SoloChoiceReceipt,
    "solo_passage": SoloPassageReceipt,
}


class EntryBase(BaseModel):
    """An entry of the log as exported and as the API answers it (``views.entry_view``); ``receipt``
    null and ``redacted`` true when a player reads a hidden entry not revealed to them."""

    model_config = ConfigDict(frozen=True, strict=True, extra="forbid")

    chronicle: int
    seq: int
    prev_hash: str
    entry_hash: str
    created_at: str
    actor: Obj | None
    visibility: Literal["public", "hidden"]
    character: int | None = None
    refers_to: int | None = None
    effects: list[Json] = []
    revealed_by: int | None = None
    redacted: bool | None = None
    # a redacted entry: the hash of what it hides, which its entry_hash covers (server/chain.py)
    content_hash: str | None = None
    # each kind's model narrows these two: its ``kind`` (the union's tag) and its receipt's model
    kind: str
    receipt: Receipt | None


def entry_name(kind: str) -> str:
    """The name of a kind's entry model: ``seed_reveal`` -> ``SeedRevealEntry``."""
    return "".join(part.title() for part in kind.split("_")) + "Entry"


def _entry_model(kind: str, receipt: type[Receipt]) -> type[EntryBase]:
    name = entry_name(kind)
    fields: dict[str, Any] = {"kind": (Literal[kind], ...), "receipt": (receipt | None, ...)}
    model: type[EntryBase] = create_model(name, __base__=EntryBase, **fields)
    model.__doc__ = f"The ``{kind}`` entry: {(receipt.__doc__ or '').strip().split(chr(10))[0]}"
    return model


_ENTRY_MODELS = tuple(_entry_model(kind, receipt) for kind, receipt in _BY_KIND.items())
# (valid-type: the union is built from the registered kinds at import; UP007: `X | Y` needs the members written out)
Entry = Annotated[Union[_ENTRY_MODELS], Field(discriminator="kind")]  # type: ignore[valid-type]  # noqa: UP007
ENTRY: TypeAdapter[Any] = TypeAdapter(Entry)

# Derived from the union: each member's ``kind`` and its receipt's model.
RECEIPTS: dict[str, type[Receipt]] = {
    get_args(model.model_fields["kind"].annotation)[0]: next(
        arg for arg in get_args(model.model_fields["receipt"].annotation) if arg is not type(None)
    )
    for model in get_args(get_args(Entry)[0])
}
KINDS: tuple[str, ...] = tuple(RECEIPTS)


def receipt_of(kind: str, receipt: Any) -> Receipt:
    """A stored receipt of ``kind`` as its model (``KeyError``: no such kind; ``ValidationError``: a
    receipt that is not of its kind)."""
    return RECEIPTS[kind].model_validate(receipt)


def entry_of(line: Any) -> EntryBase:
    """An export line (or the API's entry) as its kind's model (``ValidationError`` otherwise)."""
    entry: EntryBase = ENTRY.validate_python(line)
    return entry
