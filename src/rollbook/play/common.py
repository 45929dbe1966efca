"""Shared pieces of the play layer: strict models, error conversion, merging, effects, receipts.

Pure: imports only pydantic, the standard library and the rules core. Nothing here holds an
English sentence meant for players; refusals are ``RuleError(code, **params)`` and receipts
carry codes and numbers (``rollbook.i18n.messages_play`` has the English msgids of the new codes).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol, TypeVar, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from rollbook.rules.base import Faces, RuleError, to_plain

# A plain JSON object as the play layer reads and writes it (a sheet, an action, a receipt, a pool):
# string keys, JSON values (whose shape each system's models and receipts define).
JsonObject = dict[str, Any]

ROLES = ("storyteller", "player")
MODES = ("strict", "casual")
Mode = Literal["strict", "casual"]  # a chronicle's mode, one of ``MODES``
_T = TypeVar("_T")
STORYTELLER = "storyteller"


@dataclass(frozen=True)
class Performed:
    """What ``perform`` / ``perform_followup`` / ``adjust`` hand back to the server."""

    sheet: JsonObject  # the new sheet (plain JSON)
    receipt: JsonObject | None  # what goes into the log
    effects: tuple[JsonObject, ...]  # e.g. {"resource": "willpower", "before": 3, "after": 2}


class DiceSystem(Protocol):
    """What ``dice.roll`` draws with: the sides of the dice a request still needs after ``faces``
    (empty when it needs none), then the result of the request on every face drawn."""

    def needed(self, request: Any, faces: Faces, /) -> Any: ...

    def resolve(self, request: Any, faces: Faces, /) -> Any: ...


@dataclass(frozen=True)
class Prepared:
    """A roll built from the sheet, every refusal made and no die drawn yet (what ``preview`` shows
    and ``perform`` then draws for): the rules ``request`` and the ``pool`` description, exactly as
    the receipt records them under ``"request"`` and ``"pool"``; the ``system`` to draw with (a
    ``needed``/``resolve`` pair for ``dice.roll``); and what the apply step needs besides."""

    request: Any
    pool: JsonObject
    system: DiceSystem
    context: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class Recorded:
    """What the receipt of one kind of roll (or change) records beyond the keys every receipt has: the
    rules dataclasses stored under ``"request"`` and ``"result"`` of a roll, and further keys with
    their types (``always`` present, or present only ``sometimes``). Each play module lists one per
    action kind (``ROLL_RECORDS``) and one per change kind that records more than its effects
    (``CHANGE_RECORDS``); ``play.schema`` describes the receipts of the API from them."""

    request: type | None = None
    result: type | None = None
    always: Mapping[str, Any] = field(default_factory=dict)
    sometimes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resource:
    """A track or rating a player checks between rolls (a play module's ``resources(sheet)``: Discord's
    ``/sheet``), in codes and numbers: its name (``hunger``, ``willpower``…), how its numbers read
    (``shape``: ``ratio`` "a/b", ``rating`` "a", ``experience`` (available, earned), ``humanity``
    (rating, stains), ``blood_pool`` (current, max, per turn), ``damage`` (bashing, lethal, aggravated,
    the wound penalty, None: incapacitated)) and the numbers (None: not on the sheet)."""

    name: str
    shape: str
    numbers: tuple[int | None, ...]


@dataclass(frozen=True)
class Follows:
    """What a roll of the combat chain records of the receipt it follows (``follows_note``)."""

    system: str
    kind: str


class Model(BaseModel):
    """Every sheet, action and change: unknown fields refused, strict JSON types."""

    model_config = ConfigDict(extra="forbid", strict=True)


def by_kind(*models: type[Model]) -> dict[str, type[Model]]:
    """An ``ACTIONS`` / ``CHANGES`` / ``FOLLOWUPS`` table: each model under the one value of its ``kind``."""
    return {get_args(model.model_fields["kind"].annotation)[0]: model for model in models}


def _not_blank(value: str) -> str:
    if not value.strip():
        raise RuleError("blank_text")
    return value


# A trait id: lower-case snake case ("dexterity", "animal_ken", "two_weapons").
TraitName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
# A name typed by people (a character, a specialty, a weapon, a card): 1–100 characters, not blank.
Label = Annotated[str, StringConstraints(min_length=1, max_length=100), AfterValidator(_not_blank)]
Short = Annotated[str, StringConstraints(max_length=200)]
# A character's name on its sheet: as long as the API's ``CharacterCreate.name``
Name = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_not_blank)]
Text = Annotated[str, StringConstraints(max_length=20000)]


def rating(low: int, high: int, default: int | None = None) -> Any:
    """A Field for an integer rating within [low, high]."""
    if default is None:
        return Field(ge=low, le=high)
    return Field(default, ge=low, le=high)


class Experience(Model):
    """Experience points: ``total`` ever awarded and ``spent``; available = total − spent."""

    total: int = Field(0, ge=0)
    spent: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _spent_within_total(self) -> Experience:
        if self.spent > self.total:
            raise RuleError(
                "out_of_range", field="experience.spent", value=self.spent, low=0, high=self.total
            )
        return self

    @property
    def available(self) -> int:
        return self.total - self.spent

    def awarded(self, amount: int) -> Experience:
        """After an award: ``amount`` more points in total."""
        return Experience(total=self.total + amount, spent=self.spent)

    def paid(self, cost: int) -> Experience:
        """After a spend of ``cost`` points (the caller has checked they are available)."""
        return Experience(total=self.total, spent=self.spent + cost)


class Identity(Model):
    """What every sheet starts with: its system (each sheet fixes it), the character's name, the player,
    the concept (a player may edit the descriptive fields, ``PLAYER_FIELDS``)."""

    system: str
    name: Name
    player: Short = ""
    concept: Short = ""


# --- changes every system offers ------------------------------------------------------------------


class SpendWillpower(Model):
    """Spend Willpower outside a roll (e.g. to resist); a roll's own spend goes on the action."""

    kind: Literal["spend_willpower"]
    amount: int = rating(1, 10, 1)


class AwardExperience(Model):
    """Storyteller: experience points awarded (at the end of a session)."""

    kind: Literal["award_experience"]
    amount: int = rating(1, 1000)


class SpendExperience(Model):
    """Raise one trait by one dot at its cost (each system's ``xp_cost``)."""

    kind: Literal["spend_experience"]
    trait: TraitName


def award(sheet: Any, new: Any, amount: int, effects: Effects) -> None:
    """An award of experience points on the new sheet, as an effect."""
    new.experience = sheet.experience.awarded(amount)
    effects.change("experience", sheet.experience.available, new.experience.available)


def check_raise(trait: str, current: int, top: int) -> None:
    """A trait already at its maximum rating cannot be raised with experience."""
    if current + 1 > top:
        raise RuleError("trait_at_maximum", trait=trait, rating=current, maximum=top)


def pay_experience(experience: Experience, cost: int, new_rating: int) -> Experience:
    """The experience after paying ``cost`` for a raise to ``new_rating``; refused beyond what is available."""
    if cost > experience.available:
        raise RuleError("not_enough_xp", cost=cost, points=experience.available, new_rating=new_rating)
    return experience.paid(cost)


def check_within(field: str, value: int, low: int, high: int) -> None:
    """``out_of_range`` unless ``low <= value <= high`` (a rating checked by a sheet's validator)."""
    if not low <= value <= high:
        raise RuleError("out_of_range", field=field, value=value, low=low, high=high)


# --- validation: Pydantic errors become RuleError codes ------------------------------------------


def validation_error(invalid: ValidationError, what: str = "request") -> RuleError:
    """The first problem Pydantic found, as a stable code with the field's dotted path (relative
    to the object validated: a sheet, an action, a change): ``rollbook.validation.rule_error``."""
    from rollbook.validation import rule_error

    errors: list[Mapping[str, Any]] = list(invalid.errors(include_url=False))
    return rule_error(errors, what)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return repr(value)


def parse(model: type[Model], data: Any, what: str = "request") -> Any:
    """Validate plain JSON data with a strict model; every refusal is a RuleError whose ``field``
    is the dotted path inside ``data``."""
    if not isinstance(data, dict):
        raise RuleError("not_an_object", field=what)
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as invalid:
        raise validation_error(invalid, what) from None


def kind_of(models: Mapping[str, type[Model]], data: Any, what: str) -> str:
    """The ``kind`` of an action or change, one of ``models``; refused as ``parse_kind`` refuses it."""
    if not isinstance(data, dict):
        raise RuleError("not_an_object", field=what)
    if "kind" not in data:
        raise RuleError("missing_field", field="kind")
    kind = data["kind"]
    if not isinstance(kind, str) or kind not in models:
        raise RuleError("bad_choice", field="kind", value=_jsonable(kind), choices=sorted(models))
    return kind


def parse_kind(models: Mapping[str, type[Model]], data: Any, what: str) -> Any:
    """An action or change: ``kind`` picks the model, the model validates the rest."""
    return parse(models[kind_of(models, data, what)], data, what)


def dump(model: BaseModel) -> JsonObject:
    return model.model_dump(mode="json")


def check_role(role: Any) -> str:
    if role not in ROLES:
        raise RuleError("bad_choice", field="role", value=_jsonable(role), choices=list(ROLES))
    return str(role)


def check_mode(mode: Any) -> Mode:
    if mode not in MODES:
        raise RuleError("bad_choice", field="mode", value=_jsonable(mode), choices=list(MODES))
    return "strict" if mode == "strict" else "casual"


def filled(value: _T | None) -> _T:
    """A sheet's value known to be there: a derived default (e.g. current Willpower: the permanent
    rating), which the sheet's validator fills (``None`` only in the data before it is loaded), or a
    value a check made before guarantees (a firearm's magazine)."""
    assert value is not None, "filled by the sheet's validator or guaranteed by a check before"
    return value


def storyteller_only(role: str, what: str) -> None:
    """Players may not grant, restore or award; the Storyteller may do anything."""
    if role != STORYTELLER:
        raise RuleError("storyteller_only", action=what, role=role)


# --- editing: merge a patch, then find what changed ----------------------------------------------


def merge(base: JsonObject, patch: JsonObject) -> JsonObject:
    """A deep merge on copies: objects merge key by key, anything else replaces; ``null`` removes
    the key (a field with a default goes back to it, a name in a mapping of traits goes away)."""
    out = copy.deepcopy(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


_MISSING = object()


def changed_paths(before: Any, after: Any, prefix: str = "") -> Iterator[str]:
    """Dotted paths of every leaf that differs between two JSON values."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            yield from changed_paths(
                before.get(key, _MISSING), after.get(key, _MISSING), f"{prefix}.{key}" if prefix else str(key)
            )
    elif before != after or type(before) is not type(after):
        yield prefix


# --- effects and receipts --------------------------------------------------------------------


class Effects:
    """The consequences of one call, in order: resource changes and flags (codes and numbers)."""

    def __init__(self) -> None:
        self.items: list[JsonObject] = []

    def change(self, resource: str, before: Any, after: Any, **extra: Any) -> None:
        if before != after:
            self.items.append({"resource": resource, "before": before, "after": after, **extra})

    def flag(self, code: str, **extra: Any) -> None:
        self.items.append({"flag": code, **extra})

    def plain(self) -> list[JsonObject]:
        return copy.deepcopy(self.items)


# The version of the rules (readings and receipt shapes) that resolves a roll, carried by its receipt
# (``rules_version``) so a verifier resolves each receipt by its own version. A
# receipt without one was resolved before versions were recorded: each system's ``verify`` reads it by
# the shape it has (``systems.tiers.play.verify``, ``systems.v20.play.verify`` name the SPEC change of each old reading).
RULES_VERSION = 1


def roll_receipt(
    system: str,
    kind: str,
    action: BaseModel,
    pool: JsonObject,
    request: Any,
    faces: Iterable[int],
    result: Any,
    effects: Effects,
    **extra: Any,
) -> JsonObject:
    """The log entry of a roll: everything ``verify_receipt`` needs, codes and numbers only."""
    receipt = {
        "system": system,
        "rules_version": RULES_VERSION,
        "kind": kind,
        "action": dump(action),
        "pool": pool,
        "request": to_plain(request),
        "faces": list(faces),
        "rerolls": [],
        "result": to_plain(result),
    }
    receipt.update(extra)
    receipt["effects"] = effects.plain()
    return receipt


def change_receipt(system: str, change: BaseModel, effects: Effects, **extra: Any) -> JsonObject:
    """The log entry of a non-roll change (no dice, nothing to recompute)."""
    data = dump(change)
    return {"system": system, "kind": data["kind"], "change": data, **extra, "effects": effects.plain()}


def revalidate(sheet: Model) -> Any:
    """A changed sheet through its own model again (strict), so every check of the sheet still holds."""
    return type(sheet).model_validate(dump(sheet), strict=True)


def performed(new: Model, receipt: JsonObject | None, effects: Effects, *, loaded: Model) -> Performed:
    """What a roll, follow-up or change hands back: the new sheet revalidated, its receipt, its effects.
    A sheet equal to ``loaded``, the sheet it was made from (validated when it was loaded), is not
    validated again: a roll that changes nothing on the sheet no longer pays a second validation;
    validation gives back what it is given once a sheet is valid (tests/play)."""
    checked = new if new == loaded else revalidate(new)
    return Performed(dump(checked), receipt, tuple(effects.plain()))


# --- the combat chain (see ``rollbook.play``'s docstring) ----------------------------------------


def check_chained(action: BaseModel, follows: JsonObject | None, fields: Iterable[str]) -> None:
    """Fields an action takes from the receipt it follows: typed in when it follows none
    (``missing_field``), never typed in as well when it follows one (``follows_conflict``)."""
    for name in fields:
        typed = getattr(action, name)
        if follows is None and typed is None:
            raise RuleError("missing_field", field=name)
        if follows is not None and typed is not None:
            raise RuleError("follows_conflict", field=name, follows=str(follows.get("kind")))


def follows_note(follows: JsonObject | None) -> JsonObject:
    """What a chained roll's receipt says of the receipt it follows (``roll_receipt`` extra)."""
    return {} if follows is None else {"follows": to_plain(Follows(follows["system"], follows["kind"]))}


class Shim:
    """A tiny system object for ``dice.roll``: any ``needed``/``resolve`` pair (e.g. V20 soak)."""

    def __init__(self, needed: Callable[[Any, Faces], Any], resolve: Callable[[Any, Faces], Any]) -> None:
        self.needed = needed
        self.resolve = resolve


def request_from_plain(cls: type, data: Any) -> Any:
    """Rebuild a rules request dataclass from its plain dict (lists back to tuples)."""
    if not isinstance(data, dict):
        raise RuleError("not_an_object", field="request")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    try:
        return cls(**values)
    except TypeError:
        raise RuleError("bad_request", field="request") from None


def replay(request_cls: type, resolve: Callable[[Any, Faces], Any], receipt: JsonObject) -> tuple[Any, Any]:
    """A stored roll again: its request rebuilt from the receipt, resolved on the receipt's faces."""
    request = request_from_plain(request_cls, receipt.get("request"))
    return request, resolve(request, tuple(receipt.get("faces", ())))


# --- what ``rollbook log verify`` checks of a roll beyond its arithmetic (A-2, F-3) ---------------
# Each system module answers with codes and numbers (``Mismatch``); ``server.ledger`` words them.

Mismatch = tuple[str, JsonObject]  # a code ``server.ledger`` words, and the numbers it shows


def pool_mismatches(receipt: JsonObject, *, total: bool) -> list[Mismatch]:
    """A pool the action built from the sheet (V20-1, V5 pools), against the rules request: the
    request's pool is the pool's total (when ``total``), and the dice the pool adds for the action's
    ``modifier`` (the edge, A-1) are that modifier, so a grant rewritten together with its roll's
    action, the pool left as rolled, is caught."""
    action, request, pool = receipt.get("action"), receipt.get("request"), receipt.get("pool")
    if not isinstance(action, dict) or not isinstance(request, dict) or not isinstance(pool, dict):
        return []
    problems: list[Mismatch] = []
    if (
        total
        and "total" in pool
        and isinstance(request.get("pool"), int)
        and request["pool"] != pool["total"]
    ):
        problems.append(("pool_total", {"request": request["pool"], "built": pool["total"]}))
    modifier = action.get("modifier")
    if isinstance(modifier, int) and isinstance(pool.get("modifiers"), list) and pool.get("parts"):
        added = modifier_dice(pool)
        if added != modifier:
            problems.append(("modifier_dice", {"added": added, "modifier": modifier}))
    return problems


def modifier_dice(pool: JsonObject) -> int:
    """The dice a pool adds for its action's ``modifier`` (the edge, A-1), not for a specialty or a cost."""
    return sum(
        m.get("dice", 0) for m in pool["modifiers"] if isinstance(m, dict) and m.get("source") == "modifier"
    )


@dataclass(frozen=True)
class Drawn:
    """One step of the dice a roll drew from its one source (F-3), as its receipt stores it: the rules
    that asked for them (``needed``/``resolve``), the request's type, the stored request and faces
    (plain and unchecked: ``fair.replay`` rebuilds and checks them)."""

    rules: Any
    request: type
    stored_request: Any
    stored_faces: Any


def drawn_once(rules: Any, request: type, receipt: JsonObject) -> tuple[Drawn, ...]:
    """The draws of a roll whose dice are its one request's (``faces``)."""
    return (Drawn(rules, request, receipt.get("request"), receipt.get("faces")),)


def legacy(receipt: JsonObject, field: str) -> bool:
    """A receipt resolved before ``field`` joined its result: no ``rules_version`` and no such field."""
    return receipt.get("rules_version") is None and field not in (receipt.get("result") or {})


def verified(receipt: JsonObject, result: Any, total: int | None) -> list[str]:
    """Problems between a stored roll and its recomputed ``result``: every differing result field, and
    the pool's total unless ``total`` is None."""
    problems = compare(receipt.get("result"), to_plain(result), "result")
    if total is not None and (receipt.get("pool") or {}).get("total") != total:
        problems.append("pool_mismatch:total")
    return problems


def compare(stored: Any, recomputed: Any, label: str) -> list[str]:
    """Problems between a stored plain receipt and the recomputed one (one per differing field)."""
    if not isinstance(stored, dict):
        return [f"{label}:not_an_object"]
    problems = [f"{label}_mismatch:{path}" for path in changed_paths(stored, recomputed)]
    return problems


def quick_number(values: Mapping[str, Any], name: str, default: int) -> int:
    """A quick roll's number (``rollbook.play.quick``): ``values[name]`` (``default`` when absent) as an
    integer; ``not_an_integer`` for a boolean or what is no number."""
    value = values.get(name, default)
    if isinstance(value, bool):
        raise RuleError("not_an_integer", field=name, value=str(value))
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RuleError("not_an_integer", field=name, value=str(value)) from None


def table_rules_of(receipt: Any) -> tuple[str, ...]:
    """The table rules a receipt records (TR-1), or none."""
    rules = receipt.get("table_rules") if isinstance(receipt, dict) else None
    return tuple(rule for rule in rules if isinstance(rule, str)) if isinstance(rules, list) else ()


__all__ = [
    "Drawn",
    "Mismatch",
    "drawn_once",
    "modifier_dice",
    "pool_mismatches",
    "quick_number",
    "table_rules_of",
    "ROLES",
    "MODES",
    "Mode",
    "filled",
    "JsonObject",
    "DiceSystem",
    "by_kind",
    "Performed",
    "Prepared",
    "Recorded",
    "Resource",
    "Follows",
    "Model",
    "TraitName",
    "Label",
    "Short",
    "Text",
    "rating",
    "Experience",
    "Identity",
    "SpendWillpower",
    "AwardExperience",
    "SpendExperience",
    "award",
    "check_raise",
    "pay_experience",
    "check_within",
    "validation_error",
    "parse",
    "parse_kind",
    "kind_of",
    "dump",
    "check_role",
    "check_mode",
    "storyteller_only",
    "merge",
    "changed_paths",
    "Effects",
    "roll_receipt",
    "change_receipt",
    "Shim",
    "request_from_plain",
    "replay",
    "compare",
    "verified",
    "revalidate",
    "performed",
    "check_chained",
    "follows_note",
    "RULES_VERSION",
    "legacy",
]
