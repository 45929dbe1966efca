"""An imported sheet validated like any other: the play layer's sheet model is the judge;
before it, the checks it makes one at a time are made over the whole draft, so that a file
with several problems names them all, each at its place in the source.

Each system makes its own (its part of the room's ``check``, ``interop.formats``): V5's (a specialty on
a skill rated 1 or more, every power on a Discipline rated at its level or more), V20's (a specialty on
a trait rated 4 or more, V20-7; no trait above its Generation's maximum, V20-19); the powers are checked
here for both, power by power (``play.powers.check_powers``).
"""

from __future__ import annotations

from rollbook import play
from rollbook.interop.formats import interop_of
from rollbook.interop.report import Reader, Sheet
from rollbook.play.powers import Power, check_powers
from rollbook.rules.base import RuleError


def power_problems(reader: Reader, system: str, powers: list[object], disciplines: dict[str, int]) -> None:
    """Each power of the draft checked as the sheet checks it, a problem at its place for each refused."""
    seen: list[Power] = []
    for index, raw in enumerate(powers):
        where = reader.source_of(f"powers.{index}")
        try:
            power = Power.model_validate(raw, strict=True)
            check_powers(system, [*seen, power], disciplines)
        except RuleError as refused:
            reader.problem(where, refused.code, **plain_params(refused.params))
            continue
        except ValueError:
            reader.problem(where, "import_bad_power")
            continue
        seen.append(power)


def plain_params(params: dict[str, object]) -> dict[str, object]:
    """A refusal's numbers, plain JSON; ``field`` (the messages name it: "{field} must be between …")
    as the rollbook sheet's field."""
    plain: dict[str, object] = {
        k: v for k, v in params.items() if isinstance(v, (str, int, float, bool, type(None)))
    }
    if isinstance(plain.get("field"), str):
        plain["field"] = str(plain["field"]).removeprefix("sheet.")
    return plain


def validated(reader: Reader) -> Sheet | None:
    """The draft as a rollbook sheet (every default filled in), or None with the problems noted."""
    interop_of(reader.system).check(reader)
    if reader.problems:
        return None
    try:
        return play.new_sheet(reader.system, reader.draft)
    except RuleError as refused:
        field = str(refused.params.get("field", ""))
        reader.problem(
            reader.source_of(field.removeprefix("sheet.")), refused.code, **plain_params(refused.params)
        )
        return None
