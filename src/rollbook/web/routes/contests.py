"""Table rules, contests and extended actions on the pages (SPEC TR-1, TR-3, TR-4): the Storyteller
sets the table rules and declares; each side rolls its part from the declaration's card, and the
next roll of an extended action likewise. Each answers a 303 back to the card (a refusal: the
chronicle page with the form's alert)."""

from __future__ import annotations

from typing import Any, Literal, overload

from fastapi import Request
from fastapi.responses import Response

from rollbook.rules import contests as rules_contests
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import chronicles, contests
from rollbook.web.deps import Db, Dice, Posted, Signed, page_router
from rollbook.web.live import step_taken
from rollbook.web.respond import see_other
from rollbook.web.routes.chronicle import chronicle_page

router = page_router()


@overload
def _number(form: Any, name: str, *, optional: Literal[False] = False) -> int: ...


@overload
def _number(form: Any, name: str, *, optional: bool) -> int | None: ...


def _number(form: Any, name: str, *, optional: bool = False) -> int | None:
    text = str(form.get(name, "") or "").strip()
    if not text and optional:
        return None
    try:
        return int(text)
    except ValueError:
        raise ProblemError(422, "not_an_integer", field=name, value=text) from None


def _action(system: str, form: Any, prefix: str = "") -> dict:
    """The declared roll from the form: a test of an Attribute and an Ability (V20) or Skill (V5)."""
    action: dict = {"kind": "test", "attribute": str(form.get(f"{prefix}attribute", "")).strip().lower()}
    ability = str(form.get(f"{prefix}ability", "")).strip().lower()
    part = rules_contests.PARTS.get(system)
    if ability:
        action[part.ABILITY_FIELD if part is not None else "ability"] = ability
    if part is not None and part.SIDE_DIFFICULTY:  # TR-3: V20's sides; a V5 side has none
        action["difficulty"] = _number(form, f"{prefix}difficulty")
    return action


def _on_the_table(request: Request, db):
    """A refusal's page without JavaScript: the chronicle page again, the message in place."""
    return lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors)


def _ticked(form: Any, name: str) -> list[str]:
    """The ticked boxes of ``name`` (one box: a string; several: a list; none: absent)."""
    value = form.get(name)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


@router.post("/chronicles/{chronicle_id}/table-rules")
def set_table_rules(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into("table-rules", _on_the_table(request, db))
    rules = _ticked(form, "table_rules")
    signed.write(db, lambda s, member: chronicles.update_chronicle(s, member, table_rules=rules), form)
    return see_other(f"/chronicles/{chronicle_id}#contests")


@router.post("/chronicles/{chronicle_id}/contests")
def declare_contest(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into("contest", _on_the_table(request, db))
    numbers = {side: _number(form, f"{side}_character") for side in ("attacker", "defender")}

    def side(name: str):  # the form's roll of a side, the chronicle's game's (read in the write)
        def read(chronicle) -> dict:
            signed.knows(chronicle)
            return {"character": numbers[name], "action": _action(chronicle.system, form, f"{name}_")}

        return read

    result = signed.write(
        db,
        lambda s, member: contests.declare_contest(
            s, member, attacker=side("attacker"), defender=side("defender")
        ),
        form,
    )
    return see_other(f"/chronicles/{chronicle_id}#entry-{result['contest']['seq']}")


@router.post("/chronicles/{chronicle_id}/contests/{seq}/roll")
def roll_side(
    request: Request, chronicle_id: int, seq: int, db: Db, signed: Signed, form: Posted, dice: Dice
) -> Response:
    signed.refused_into(f"step-{seq}", _on_the_table(request, db))
    side = str(form.get("side", ""))
    result = signed.write(
        db, lambda s, member: contests.roll_contest_side(s, member, seq, side, source=dice), form
    )
    return step_taken(request, db, signed, chronicle_id, result["entry"])


@router.post("/chronicles/{chronicle_id}/extended")
def declare_extended(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into("extended", _on_the_table(request, db))
    character, target = _number(form, "character"), _number(form, "target")
    max_rolls = _number(form, "max_rolls", optional=True)

    def action(chronicle) -> dict:  # the form's roll, the chronicle's game's (read in the write)
        signed.knows(chronicle)
        return _action(chronicle.system, form)

    result = signed.write(
        db,
        lambda s, member: contests.declare_extended(
            s, member, character_id=character, action=action, target=target, max_rolls=max_rolls
        ),
        form,
    )
    return see_other(f"/chronicles/{chronicle_id}#entry-{result['extended']['seq']}")


@router.post("/chronicles/{chronicle_id}/extended/{seq}/roll")
def roll_extended(
    request: Request, chronicle_id: int, seq: int, db: Db, signed: Signed, form: Posted, dice: Dice
) -> Response:
    signed.refused_into(f"step-{seq}", _on_the_table(request, db))
    result = signed.write(db, lambda s, member: contests.roll_extended(s, member, seq, source=dice), form)
    return step_taken(request, db, signed, chronicle_id, result["entry"])
