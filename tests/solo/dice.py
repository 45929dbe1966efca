"""Fixed dice for the solo chronicle's tests: one face per roll (every die of that roll shows it), then a
default face. Shared by the pure engine tests, the API tests (``create_app(dice=...)``) and the CLI's."""

from __future__ import annotations


class ScriptDice:
    """``push(1, 10, 10)``: the next roll's dice all show 1, the two after it 10; then ``default``."""

    name = "given"

    def __init__(self, default: int = 6) -> None:
        self.faces: list[int] = []
        self.default = default

    def push(self, *faces: int) -> ScriptDice:
        self.faces.extend(faces)
        return self

    def __call__(self) -> ScriptDice:  # create_app(dice=...) takes a factory
        return self

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        face = self.faces.pop(0) if self.faces else self.default
        return (min(face, sides),) * n
