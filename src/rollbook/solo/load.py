"""Reading a scenario file (SPEC S-1): YAML (PyYAML's safe loader: no tags, no code) into plain data,
with the line of every value, so each fault names its place (``passages.alley.check.outcomes.botch``,
line 42).

``read(text)`` -> ``Source(data, lines, duplicates)``; a text that is no YAML mapping raises
``Unreadable(code, **params)`` (the CLI's one line, exit 2). ``parse(source)`` -> the ``Scenario``,
or ``FormatInvalid`` with the schema's faults, each at its place. ``load(text)`` does both.

S-9: the loader reads plain YAML within bounds, so a hostile file is refused promptly: at most
``MAX_BYTES``; no value nested deeper than ``MAX_DEPTH`` (counted while the file is composed, before
any recursion could overflow); at most ``MAX_NODES`` values once every alias is expanded (a
"billion laughs" is refused before it is expanded); no tag but the core schema's. A YAML syntax
error is one code per kind of mistake (``yaml_indentation``, ``yaml_tab`` …) so every language says
it, placed at the line at fault (an indentation slip is found by the parser lines later).

Pure: PyYAML and Pydantic only.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TypedDict

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from rollbook.rules.base import RuleError
from rollbook.solo.format import Scenario

# S-9's bounds. The sample (three languages, five endings) is 52 KB, 7 values deep, ~4,000 values.
MAX_BYTES = 256 * 1024
MAX_DEPTH = 32
MAX_NODES = 100_000
# the core schema's tags (and the merge key): a ``!!binary``, ``!!set``, ``!!python/…`` or local tag is refused
PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "seq", "map", "merge", "timestamp")
)


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


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader whose composer refuses a value nested deeper than ``MAX_DEPTH`` (S-9)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                line = parent.start_mark.line + 1 if parent is not None else 0
                raise Unreadable("scenario_too_deep", most=MAX_DEPTH, line=line)
            composed: yaml.Node | None = super().compose_node(parent, index)
            return composed
        finally:
            self.depth -= 1


def _measure(root: yaml.Node) -> None:
    """S-9: the document once its aliases are expanded, measured without expanding it (each node's
    size counted once, an alias adding its target's size): at most ``MAX_NODES`` values, nested at
    most ``MAX_DEPTH`` deep (an alias inside itself is infinitely deep), only plain tags."""
    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}

    def size(node: yaml.Node, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise Unreadable("scenario_too_deep", most=MAX_DEPTH, line=node.start_mark.line + 1)
        known = sizes.get(id(node))
        if known is not None and depth + heights[id(node)] <= MAX_DEPTH:
            return known
        if node.tag not in PLAIN_TAGS:
            raise Unreadable("scenario_yaml_tag", tag=node.tag, line=node.start_mark.line + 1)
        total, height = 1, 0
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            children = []
        for child in children:
            total += size(child, depth + 1)
            height = max(height, heights[id(child)] + 1)
            if total > MAX_NODES:
                raise Unreadable("scenario_too_many_values", most=MAX_NODES)
        sizes[id(node)] = total
        heights[id(node)] = height
        return total

    size(root, 1)


# PyYAML's problems (English sentences) -> the codes every language says (S-9, ``messages_solo``)
_YAML_PROBLEMS = (
    ("expected <block end>", "yaml_indentation"),
    ("mapping values are not allowed", "yaml_colon"),
    ("cannot start any token", "yaml_tab"),
    ("could not find expected ':'", "yaml_colon_missing"),
    ("found undefined alias", "yaml_alias_undefined"),
    ("unknown escape character", "yaml_escape"),
    ("found unexpected end of stream", "yaml_unclosed"),
    ("expected ',' or ']'", "yaml_unclosed"),
    ("expected ',' or '}'", "yaml_unclosed"),
    ("found duplicate anchor", "yaml_anchor_twice"),
    ("but found '<stream end>'", "yaml_unclosed"),
)


def _indent(line: str) -> int | None:
    """A line's indentation, None for a blank or comment line."""
    stripped = line.lstrip(" ")
    return None if not stripped.strip() or stripped.startswith("#") else len(line) - len(stripped)


def _misindented(text: str, error: yaml.MarkedYAMLError) -> int:
    """The 0-based line an indentation slip is on. PyYAML notices it where the block should have ended,
    often lines after the slip: the line at fault is, of the lines involved (where the error was
    found, the block it fails to line up with, the block's parent), the one whose indentation the
    file uses least (a slip is the odd one out)."""
    assert error.problem_mark is not None
    lines = text.splitlines()
    found = error.problem_mark.line
    if found >= len(lines) or _indent(lines[found]) is None:
        return found
    column = _indent(lines[found]) or 0
    stop, lowest, lowest_line = None, None, None
    for number in range(found - 1, -1, -1):
        indent = _indent(lines[number])
        if indent is None:
            continue
        if indent <= column:
            stop = number
            break
        if lowest is None or indent <= lowest:
            lowest, lowest_line = indent, number
    if stop is None or _indent(lines[stop]) == column:
        return found
    counts: dict[int, int] = {}
    for line in lines:
        indent = _indent(line)
        if indent is not None:
            counts[indent] = counts.get(indent, 0) + 1
    candidates = [found, stop] + ([lowest_line] if lowest_line is not None else [])
    return min(candidates, key=lambda number: counts.get(_indent(lines[number]) or 0, 0))


def _not_yaml(text: str, error: yaml.YAMLError) -> Unreadable:
    problem = str(getattr(error, "problem", "") or error)
    code = next((code for words, code in _YAML_PROBLEMS if words in problem), "yaml_syntax")
    mark = getattr(error, "problem_mark", None)
    line = mark.line + 1 if mark is not None else 0
    if code == "yaml_indentation" and isinstance(error, yaml.MarkedYAMLError) and mark is not None:
        line = _misindented(text, error) + 1
    return Unreadable(code, line=line, detail=problem)  # detail: PyYAML's own words, for --json


def read(text: str | bytes) -> Source:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:
        raise Unreadable("scenario_too_big", most=MAX_BYTES)
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("scenario_not_utf8") from None
    loader = _BoundedLoader(decoded)
    try:
        node = loader.get_single_node()
        if node is not None:
            _measure(node)  # S-9: before anything walks the aliases' expansion
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as error:
        raise _not_yaml(decoded, error) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict) or node is None:
        raise Unreadable("scenario_not_a_mapping")
    lines: dict[str, int] = {}
    duplicates: list[Fault] = []
    _walk(node, "", lines, duplicates)
    return Source(data, lines, tuple(duplicates), hashlib.sha256(raw).hexdigest())


# Pydantic's error types -> the format's codes, each a sentence every language says (its English
# ``msg`` stays in the fault's ``detail`` for --json); a type not listed is ``bad_value`` with the type's id
_ERROR_CODES = {
    "extra_forbidden": "unknown_key",
    "missing": "missing_key",
    "string_pattern_mismatch": "value_pattern",
    "literal_error": "value_not_one_of",
    "dict_type": "expected_mapping",
    "list_type": "expected_list",
    "string_type": "expected_text",
    "int_type": "expected_whole_number",
    "int_parsing": "expected_whole_number",
    "int_from_float": "expected_whole_number",
    "bool_type": "expected_yes_no",
    "bool_parsing": "expected_yes_no",
    "too_short": "too_few_items",
    "too_long": "too_many_items",
    "string_too_short": "text_empty",
    "string_too_long": "text_too_long",
    "greater_than_equal": "out_of_range",
    "less_than_equal": "out_of_range",
    "passage_body": "passage_body",
}


def _place(loc: tuple[int | str, ...]) -> str:
    # a validator's own error (a passage with two bodies) has no field: it is the object's
    return ".".join(str(part) for part in loc if not (isinstance(part, str) and part.startswith("function-")))


def _params(code: str, path: str, error: ErrorDetails) -> dict[str, object]:
    """A fault's params from Pydantic's error: codes and values, no English (the detail is for --json)."""
    context: dict[str, object] = dict(error.get("ctx") or {})
    given = error.get("input")
    shown = given if isinstance(given, (str, int, float, bool)) else ""
    field_name = path.rpartition(".")[2]
    if code == "unknown_key":
        return {"key": field_name}
    if code == "missing_key":
        return {}
    if code == "value_pattern":
        return {"value": shown, "pattern": context.get("pattern", "")}
    if code == "value_not_one_of":
        return {"value": shown, "expected": re.findall(r"'([^']*)'", str(context.get("expected", "")))}
    if code == "out_of_range":
        return {"field": field_name, "value": shown, "low": context.get("ge"), "high": context.get("le")}
    if code == "passage_body":
        found = context.get("found")
        return {"found": list(found) if isinstance(found, list) and found else ["—"]}
    if code in ("too_few_items", "too_many_items", "text_too_long"):
        return {"most": context.get("max_length"), "least": context.get("min_length")}
    if code == "bad_value":
        return {"type": error["type"], "detail": error["msg"]}
    return {"detail": error["msg"]}


def parse(source: Source) -> Scenario:
    try:
        return Scenario.model_validate(source.data)
    except ValidationError as invalid:
        faults = []
        for error in invalid.errors(include_url=False):
            path = _place(error["loc"])
            code = _ERROR_CODES.get(error["type"], "bad_value")
            faults.append(source.fault(code, path, **_params(code, path, error)))
        raise FormatInvalid(faults) from None


def load(text: str | bytes) -> tuple[Scenario, Source]:
    source = read(text)
    return parse(source), source
