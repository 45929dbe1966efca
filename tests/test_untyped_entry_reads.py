"""No untyped read of a log entry's payload outside the entry models (``rollbook.entries``): a
receipt is read through its kind's model (``receipt_of``), not as a dict by string keys.

A ratchet: ``ALLOWED`` is the count of untyped reads left in ``src/rollbook``; it may only go down
(lower it when a reader moves to the models; the test fails when the count rises, and when it falls
without ``ALLOWED`` following, so the bar stays where the code is).

What counts as an untyped read, found in the syntax tree: ``X["key"]`` or ``X.get("key", …)`` with a
string key, where ``X`` is an entry or its receipt: ``….receipt``, ``…["receipt"]``, a name
``entry``/``receipt`` or ending in ``_entry``/``_receipt``, or ``(one of these or {})``."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from rollbook.systems import ROOMS

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rollbook"
MODELS = SOURCE / "entries.py"
# The pure core makes the rules receipts a roll entry carries and reads its own output (``rules``,
# ``play``, ``odds``, ``contract``); ``interop`` reads other tools' files, whose entries are no log's.
NOT_ENTRIES = ("rules/", "play/", "odds/", "contract/", "interop/")
ALLOWED = 0  # none left; 643 when the ratchet was put in (165 distinct keys); only ever lowered


def _is_payload(node: ast.expr) -> bool:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _is_payload(node.values[0])
    if isinstance(node, ast.Attribute):
        return node.attr == "receipt"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "receipt"
    if isinstance(node, ast.Name):
        name = node.id
        return name in ("entry", "receipt") or name.endswith(("_entry", "_receipt"))
    return False


def _key(node: ast.AST) -> str | None:
    """The string key of an untyped read at ``node``, else None."""
    if isinstance(node, ast.Subscript) and _is_payload(node.value):
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            return node.slice.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and _is_payload(node.func.value)
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def room_of(name: str) -> str:
    """A module's path, a shipped system's as if in its room (``systems/v5/play.py`` -> ``play/…``,
    ``rollbook.systems.ROOMS``)."""
    parts = name.split("/")
    if len(parts) == 3 and parts[0] == "systems" and parts[2][:-3] in ROOMS:
        return f"{ROOMS[parts[2][:-3]]}/{parts[1]}_{parts[2]}"
    return name


def untyped_reads(root: Path = SOURCE) -> Counter[tuple[str, str]]:
    """(module, key) -> how many untyped reads of ``key`` the module makes."""
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted(root.rglob("*.py")):
        if path == MODELS or room_of(str(path.relative_to(root))).startswith(NOT_ENTRIES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            key = _key(node)
            if key is not None and not _is_store(node):
                found[(str(path.relative_to(root)), key)] += 1
    return found


def _is_store(node: ast.AST) -> bool:
    return isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load)


def test_untyped_entry_reads_only_go_down():
    found = untyped_reads()
    count = sum(found.values())
    assert count <= ALLOWED, (
        f"{count} untyped reads of log entries (allowed {ALLOWED}): read the receipt through "
        f"rollbook.entries.receipt_of; new ones: {sorted(found)[:20]}"
    )
    assert count == ALLOWED, f"{count} untyped reads left: lower ALLOWED to {count}"


def test_the_counter_finds_what_it_names(tmp_path):
    (tmp_path / "m.py").write_text(
        "a = entry['kind']\n"
        "b = entry.receipt.get('result')\n"
        "c = (row.receipt or {}).get('system')\n"
        "d = view['receipt']['faces']\n"
        "e = first_receipt['action']\n"
        "f = other['kind']\n"  # not an entry
        "entry['x'] = 1\n"  # a store, not a read
        "g = receipt.get(name)\n",  # no string key
        encoding="utf-8",
    )
    found = untyped_reads(tmp_path)
    assert sorted(key for _, key in found) == ["action", "faces", "kind", "result", "system"]
