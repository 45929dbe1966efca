"""An imported sheet validated like any other: the play layer's sheet model is the judge;
before it, the checks it makes one at a time are made here over the whole draft, so that a file
with several problems names them all, each at its place in the source.

- V5: a specialty sits on a skill rated 1 or more; every power on a Discipline rated at its level
  or more, a known power at its level (``play.powers.check_powers``, power by power).
- V20: a specialty on a trait rated 4 or more (V20-7); no trait above its Generation's maximum
  (V20-19: 5 at Generation 8 and above, mortals too; 6 at 7 … 10 at 3).
"""

from __future__ import annotations

from rollbook import play
from rollbook.interop.report import Reader, Sheet
from rollbook.play.powers import Power, check_powers
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import sheet as v5_sheet
from rollbook.systems.v20 import sheet as v20_sheet


def _power_problems(reader: Reader, system: str, powers: list[object], disciplines: dict[str, int]) -> None:
    seen: list[Power] = []
    for index, raw in enumerate(powers):
        where = reader.source_of(f"powers.{index}")
        try:
            power = Power.model_validate(raw, strict=True)
            check_powers(system, [*seen, power], disciplines)
        except RuleError as refused:
            reader.problem(where, refused.code, **_plain_params(refused.params))
            continue
        except ValueError:
            reader.problem(where, "import_bad_power")
            continue
        seen.append(power)


def _plain_params(params: dict[str, object]) -> dict[str, object]:
    """A refusal's numbers, plain JSON; ``field`` (the messages name it: "{field} must be between …")
    as the rollbook sheet's field."""
    plain: dict[str, object] = {
        k: v for k, v in params.items() if isinstance(v, (str, int, float, bool, type(None)))
    }
    if isinstance(plain.get("field"), str):
        plain["field"] = str(plain["field"]).removeprefix("sheet.")
    return plain


def v5_checks(reader: Reader) -> None:
    draft = reader.draft
    skills = draft.get("skills", {})
    for skill in draft.get("specialties", {}):
        if skills.get(skill, 0) < 1 and skill in v5_sheet.SKILLS + tuple(skills):
            reader.problem(reader.source_of(f"specialties.{skill}"), "specialty_untrained", trait=skill)
    _power_problems(reader, "v5", draft.get("powers", []), draft.get("disciplines", {}))


def v20_checks(reader: Reader) -> None:
    draft = reader.draft
    creature = draft.get("creature", "vampire")
    generation = draft.get("generation", v20_sheet.DEFAULT_GENERATION) if creature == "vampire" else None
    top = v20_sheet.TRAIT_MAX_BY_GENERATION.get(generation, 5) if generation is not None else 5
    ratings: dict[str, int] = {}
    for group in ("attributes", "talents", "skills", "knowledges", "disciplines"):
        for trait, value in draft.get(group, {}).items():
            ratings.setdefault(trait, value)
            if value > top:  # V20-19
                reader.problem(
                    reader.source_of(f"{group}.{trait}"),
                    "import_above_generation",
                    trait=trait,
                    rating=value,
                    maximum=top,
                    generation=generation if generation is not None else "-",
                )
    for trait in draft.get("specialties", {}):
        value = ratings.get(trait, 1 if trait in v20_sheet.ATTRIBUTES else 0)
        if trait in draft.get("disciplines", {}) or value < 4:  # V20-7
            reader.problem(
                reader.source_of(f"specialties.{trait}"),
                "specialty_rating_too_low",
                trait=trait,
                rating=value,
            )
    _power_problems(reader, "v20", draft.get("powers", []), draft.get("disciplines", {}))


CHECKS = {"v5": v5_checks, "v20": v20_checks}


def validated(reader: Reader) -> Sheet | None:
    """The draft as a rollbook sheet (every default filled in), or None with the problems noted."""
    CHECKS[reader.system](reader)
    if reader.problems:
        return None
    try:
        return play.new_sheet(reader.system, reader.draft)
    except RuleError as refused:
        field = str(refused.params.get("field", ""))
        reader.problem(
            reader.source_of(field.removeprefix("sheet.")), refused.code, **_plain_params(refused.params)
        )
        return None
