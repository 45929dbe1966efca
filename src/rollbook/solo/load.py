"""Reading a scenario file (SPEC S-1): YAML (PyYAML's safe loader: no tags, no code) into plain data,
with the line of every value, so each fault names its place (``passages.alley.check.outcomes.botch``,
line 42).

``read(text)`` -> ``Source(data, lines, duplicates)``; a text that is no YAML mapping raises
``Unreadable(code, **params)`` (the CLI's one line, exit 2). ``parse(source)`` -> the ``Scenario``,
or ``FormatInvalid`` with the schema's faults, each at its place. ``load(text)`` does both.

Pure: PyYAML and Pydantic only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TypedDict

import yaml
from pydantic import ValidationError

from rollbook.rules.base import RuleError
from rollbook.solo.format import Scenario

MAX_BYTES = 2 * 1024 * 1024  # a scenario is prose: two megabytes is a novel


class Unreadable(RuleError):
    """The file is no scenario at all (not YAML, not a mapping, too big)."""


class FaultJson(TypedDict):
    code: str
    path: str
    params: dict[str, object]
    line: int | None


@dataclass(frozen=True)
class Fault:
    """One problem of a scenario (S-4): a code and its params (translated by the ``solo`` domain,
    ``i18n.messages_solo``), its place as a dotted path, and its line when the file says it."""

    code: str
    path: str
    params: dict[str, object] = field(default_factory=dict)
    line: int | None = None

    def plain(self) -> FaultJson:
        return {"code": self.code, "path": self.path, "params": dict(self.params), "line": self.line}


class FormatInvalid(Exception):
    def __init__(self, faults: list[Fault]) -> None:
        super().__init__(faults[0].code if faults else "format_invalid")
        self.faults = faults


@dataclass(frozen=True)
class Source:
    data: dict[object, object]  # the file's top mapping, as YAML has it
    lines: dict[str, int]
    duplicates: tuple[Fault, ...] = ()
    digest: str = ""

    def line(self, path: str) -> int | None:
        """The line of ``path``, else of its nearest parent the file has."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path.rpartition(".")[0]
        return None

    def fault(self, code: str, path: str, **params: object) -> Fault:
        return Fault(code, path, params, self.line(path))


def _walk(node: yaml.Node, path: str, lines: dict[str, int], duplicates: list[Fault]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = str(key.value)
            child = f"{path}.{name}" if path else name
            if name in seen:  # PyYAML keeps the last silently: a second passage of one id is a fault
                duplicates.append(Fault("duplicate_key", child, {"key": name}, key.start_mark.line + 1))
            seen.add(name)
            lines[child] = key.start_mark.line + 1
            _walk(value, child, lines, duplicates)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, f"{path}.{index}" if path else str(index), lines, duplicates)


def read(text: str | bytes) -> Source:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:
        raise Unreadable("scenario_too_big", most=MAX_BYTES)
    try:
        decoded = raw.decode("utf-8")
        loader = yaml.SafeLoader(decoded)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except UnicodeDecodeError:
        raise Unreadable("scenario_not_yaml", line=0, detail="utf-8") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise Unreadable(
            "scenario_not_yaml",
            line=mark.line + 1 if mark else 0,
            detail=str(getattr(error, "problem", "") or error),
        ) from None
    if node is None or not isinstance(data, dict):  # no node: no document, data None
        raise Unreadable("scenario_not_a_mapping")
    lines: dict[str, int] = {}
    duplicates: list[Fault] = []
    _walk(node, "", lines, duplicates)
    return Source(data, lines, tuple(duplicates), hashlib.sha256(raw).hexdigest())


# Pydantic's error types -> the format's codes (the few a hand-written file meets; any other is bad_value)
_ERROR_CODES = {"extra_forbidden": "unknown_key", "missing": "missing_key"}


def _place(loc: tuple[int | str, ...]) -> str:
    # a validator's own error (a passage with two bodies) has no field: it is the object's
    return ".".join(str(part) for part in loc if not (isinstance(part, str) and part.startswith("function-")))


def parse(source: Source) -> Scenario:
    try:
        return Scenario.model_validate(source.data)
    except ValidationError as invalid:
        faults = []
        for error in invalid.errors(include_url=False):
            path = _place(error["loc"])
            code = _ERROR_CODES.get(error["type"], "bad_value")
            params = {"detail": error["msg"]} if code == "bad_value" else {}
            if code == "unknown_key":
                params["key"] = path.rpartition(".")[2]
            faults.append(source.fault(code, path, **params))
        raise FormatInvalid(faults) from None


def load(text: str | bytes) -> tuple[Scenario, Source]:
    source = read(text)
    return parse(source), source
