"""What every request line of the resolve contract carries; each system's ``Line`` extends it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class LineBase(BaseModel):
    """Fields every request line may carry."""

    model_config = {"extra": "forbid", "strict": True, "frozen": True}

    system: str
    id: str | int | float | bool | None = None

    def request_fields(self, *left_out: str) -> dict[str, Any]:
        """The line's fields as keyword arguments of its rules request: ``system``, ``id`` and the
        fields ``left_out`` (faces, rerolls…) dropped, lists as tuples."""
        dropped = {"system", "id", *left_out}
        return {
            name: tuple(value) if isinstance(value, list) else value
            for name, value in self.model_dump().items()
            if name not in dropped
        }
