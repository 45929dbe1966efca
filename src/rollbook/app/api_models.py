"""The JSON API's request bodies (``api.py`` and the ``api_*`` routers): strict Pydantic models (an
unknown field is refused), and ``Problem``, the schema of every error answer."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rollbook.app.openapi import ActionJSON, ChangeJSON, FollowupJSON, NewSheetJSON, SheetPatchJSON, SystemId
from rollbook.i18n import LanguageCode
from rollbook.server.usecases.checks import NAME_MAX

Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
SmallInt = Annotated[int, Field(ge=-1000, le=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChronicleCreate(Strict):
    name: Name
    system: SystemId
    mode: Literal["strict", "casual"] = "strict"
    language: LanguageCode = "en"
    storyteller: Name = Field("Storyteller", description="The Storyteller's name.")
    difficulty: SmallInt | None = Field(None, description="Standing difficulty of players' rolls (V20, V5).")


class ChronicleUpdate(Strict):
    name: Name | None = None
    mode: Literal["strict", "casual"] | None = None
    language: LanguageCode | None = None
    difficulty: SmallInt | None = Field(None, description="Standing difficulty; null clears it.")


class JoinRequest(Strict):
    invitation: Annotated[str, Field(min_length=1, max_length=200)]
    name: Name


class CharacterCreate(Strict):
    name: Name
    sheet: NewSheetJSON = Field(
        default_factory=dict, description="Checked by the chronicle's system; left out: every default."
    )
    owner: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None,
        description="Storyteller only: the member who plays it (omitted or null: an NPC). A player's "
        "character is always their own.",
    )
    difficulty: SmallInt | None = Field(
        None, description="Storyteller only: this character's standing difficulty."
    )


class CharacterUpdate(Strict):
    patch: SheetPatchJSON | None = Field(
        None, description="Changes to the sheet (a merge patch), checked by the rules."
    )
    name: Name | None = None
    difficulty: SmallInt | None = Field(None, description="Storyteller only; null clears it.")
    owner: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(None, description="Storyteller only.")
    version: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None, description="Refuse the edit (409) unless the sheet is still at this version."
    )


class RollRequest(Strict):
    action: ActionJSON = Field(
        description="What to roll, named by traits (never faces), in the chronicle's system."
    )
    hidden: bool = Field(
        False, description="A hidden roll, revealed later (the Storyteller's call: a player asks)."
    )
    ask: bool = Field(
        False,
        description="A player's roll that sets what the Storyteller sets (difficulty, extra dice, "
        "advantage, a hidden roll, …: SPEC A-1) becomes an ask, answered 202; "
        "without it such a roll is refused (403 grant_required).",
    )
    follows: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None,
        description="The combat chain (V20-17, T-4, T-5): the seq of the log entry this step follows (the "
        "attack a damage roll or a dodge follows, the damage a soak follows). What the step takes "
        "from it (extra dice, damage levels and type, attack tier) is never typed in.",
    )
    target: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None,
        description="An attack's target: the character whose player (or the Storyteller, for an NPC) rolls "
        "the defence.",
    )


class FollowupRequest(Strict):
    action: FollowupJSON = Field(
        description="E.g. the dice of a V5 Willpower reroll (an empty or missing action is "
        "refused: missing_field)."
    )


class AdjustRequest(Strict):
    change: ChangeJSON = Field(description="A change without dice, in the chronicle's system.")


class Problem(BaseModel):
    type: str
    title: str
    status: int
    detail: str
    code: str
