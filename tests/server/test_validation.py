"""One mapping from Pydantic's errors to stable codes (``rollbook.validation.rule_error``), the
same for the resolve contract, the game logic's models and the JSON API."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rollbook.rules.base import RuleError
from rollbook.validation import rule_error


class Colour(Enum):
    RED = "red"


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=5)] = "a"
    kind: Literal["test", "soak"] = "test"
    colour: Colour = Colour.RED
    dice: Annotated[int, Field(ge=1, le=30)] = 1
    slug: Annotated[str, Field(pattern=r"^[a-z_]+$")] = "a"
    count: int = 0
    checked: int = 0

    @field_validator("checked")
    @classmethod
    def _checked(cls, value: int) -> int:
        if value == 13:
            raise RuleError("unlucky")
        return value


def first(data: dict, what: str = "request") -> RuleError:
    with pytest.raises(ValidationError) as invalid:
        Sample.model_validate(data)
    return rule_error(invalid.value.errors(include_url=False), what)


@pytest.mark.parametrize(
    "data, code, params",
    [
        ({"extra": 1}, "unknown_field", {"field": "extra"}),
        ({"kind": "jump"}, "bad_choice", {"field": "kind", "value": "jump", "choices": "'test' or 'soak'"}),
        ({"colour": "blue"}, "bad_choice", {"field": "colour", "value": "blue", "choices": "'red'"}),
        ({"dice": 0}, "out_of_range", {"field": "dice", "value": 0, "low": 1, "high": None}),
        ({"dice": 31}, "out_of_range", {"field": "dice", "value": 31, "low": None, "high": 30}),
        ({"slug": "A b"}, "bad_name", {"field": "slug", "value": "A b"}),
        ({"name": ""}, "blank_text", {"field": "name"}),
        ({"name": "toolong"}, "too_long", {"field": "name", "most": 5}),
        ({"checked": 13}, "unlucky", {"field": "checked"}),
    ],
)
def test_each_pydantic_error_has_its_code(data, code, params):
    refused = first(data)
    assert (refused.code, refused.params) == (code, params)


def test_wrong_type_names_the_field_and_pydantic_s_reason():
    refused = first({"count": "three"})
    assert refused.code == "wrong_type" and refused.params["field"] == "count" and refused.params["detail"]


def test_a_missing_field_and_the_object_itself():
    class Needs(BaseModel):
        kind: str

    with pytest.raises(ValidationError) as invalid:
        Needs.model_validate({})
    assert rule_error(invalid.value.errors(include_url=False)).params == {"field": "kind"}
    with pytest.raises(ValidationError) as invalid:
        Needs.model_validate("not an object")
    assert rule_error(invalid.value.errors(include_url=False), "sheet").params["field"] == "sheet"
    with pytest.raises(ValidationError) as invalid:
        Needs.model_validate_json("{")
    assert rule_error(invalid.value.errors(include_url=False)).code == "invalid_json"
    assert rule_error([]).code == "invalid_request"


def test_the_api_answers_the_same_codes(client, make_table):
    """FastAPI's RequestValidationError goes through the same mapping (its "body"/"query" prefix dropped)."""
    table = make_table("v20")
    cases = [
        (client.patch(table.base, headers=table.st, json={"mode": "wild"}), "bad_choice", "mode"),
        (client.patch(table.base, headers=table.st, json={"colour": "red"}), "unknown_field", "colour"),
        (client.get(f"{table.base}/log", headers=table.st, params={"limit": 0}), "out_of_range", "limit"),
        (client.post("/api/join", json={"name": "x"}), "missing_field", "invitation"),
    ]
    for response, code, field in cases:
        body = response.json()
        assert (response.status_code, body["code"], body["params"]["field"]) == (422, code, field), body
        assert body["errors"]  # Pydantic's own list stays in the problem for clients that want it
