"""A system is registered once: every branch on a system id (``system == "v5"``, ``chronicle.system in
("v20", "v5")``, ``result["system"] != "tiers"``…) outside the systems' own modules (a module of
its system's package: ``systems/v5/play.py``, ``systems/tiers/rules.py``, ``systems/v5/cli_roll.py``, ``systems/v5/odds_plain.py``) and the
registries (``play/systems.py``, ``rules/__init__.py``) is found, and there is none: what a face or
a use case needs of a system belongs in its module, behind the ``SystemModule`` interface
(``rollbook.play.systems``), never in an ``if``. The web's templates likewise: a template asks what
the view passes (``standing_field``, ``t.importable``, ``cp.side_difficulty``…) or includes the
template named for its system (``_resources_v5.html``), never ``{% if system == "v5" %}``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rollbook.play.systems import SYSTEM_IDS

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rollbook"


def own(name: str) -> bool:
    """A module of a shipped system's own package (``systems/v5/words.py``: ``rollbook.systems.<id>``)."""
    parts = name.split("/")
    return len(parts) > 2 and parts[0] == "systems" and parts[1] in SYSTEM_IDS


REGISTRIES = {"play/systems.py", "rules/__init__.py"}
TEMPLATES = PACKAGE / "web" / "templates"
_ID = r"[\"'](?:" + "|".join(re.escape(s) for s in SYSTEM_IDS) + r")[\"']"
# ``system == "v5"``, ``cp.system != 'v20'``, ``chronicle.system in ("v20", "v5")``, ``"v5" == system``
TEMPLATE_BRANCH = re.compile(
    r"system\s*(?:==|!=|\bnot\s+in\b|\bin\b)\s*[(\[]?\s*"
    + _ID
    + r"|"
    + _ID
    + r"\s*(?:==|!=|\bnot\s+in\b|\bin\b)\s*[\w.]*system\b"
)


def _ids(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in SYSTEM_IDS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(
            isinstance(e, ast.Constant) and e.value in SYSTEM_IDS for e in node.elts
        )
    return False


def _names_a_system(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and "system" in sub.id.lower():
            return True
        if isinstance(sub, ast.Attribute) and "system" in sub.attr.lower():
            return True
        if isinstance(sub, ast.Constant) and sub.value == "system":
            return True
    return False


def branch_lines(root: Path = PACKAGE) -> list[str]:
    """``module:line`` of each comparison of a system with system ids (the module's relative path)."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in REGISTRIES or own(name):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare) or len(node.ops) != 1:
                continue
            if not isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                continue
            left, right = node.left, node.comparators[0]
            if (_ids(right) and _names_a_system(left)) or (_ids(left) and _names_a_system(right)):
                found.append(f"{name}:{node.lineno}")
    return sorted(found, key=lambda place: (place.rpartition(":")[0], int(place.rpartition(":")[2])))


def branches(root: Path = PACKAGE) -> dict[str, int]:
    """Module (relative path) -> its comparisons of a system with system ids."""
    found: dict[str, int] = {}
    for place in branch_lines(root):
        name = place.rpartition(":")[0]
        found[name] = found.get(name, 0) + 1
    return found


def test_no_branch_on_a_system_id_outside_the_systems_and_the_registry():
    found = branch_lines()
    assert found == [], (
        f"{len(found)} branches on a system id outside the systems' own modules and the registry "
        f"(move what the face needs behind ``SystemModule``): {', '.join(found)}"
    )


def test_the_count_sees_a_branch(tmp_path):
    (tmp_path / "face.py").write_text('def f(system):\n    return 1 if system == "v5" else 2\n')
    (tmp_path / "other.py").write_text('def g(chronicle):\n    return chronicle.system in ("v20", "v5")\n')
    (tmp_path / "systems" / "v5").mkdir(parents=True)
    (tmp_path / "systems" / "v5" / "play.py").write_text(
        'def h(system):\n    return system == "v5"\n'
    )  # its own
    (tmp_path / "kinds.py").write_text('def k(kind):\n    return kind == "test"\n')
    assert branches(tmp_path) == {"face.py": 1, "other.py": 1}
    assert branch_lines(tmp_path) == ["face.py:2", "other.py:2"]


def template_branch_lines(root: Path = TEMPLATES) -> list[str]:
    """``template:line`` of each comparison of a system with system ids in a template."""
    found: list[str] = []
    for path in sorted(root.rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found.extend(
                f"{path.relative_to(root).as_posix()}:{number}" for _ in TEMPLATE_BRANCH.finditer(line)
            )
    return found


def test_no_template_branches_on_a_system_id():
    found = template_branch_lines()
    assert found == [], (
        f"{len(found)} template branches on a system id (pass the template what the system's module "
        f"says, or include the template named for the system): {', '.join(found)}"
    )


def test_the_template_count_sees_a_branch(tmp_path):
    (tmp_path / "a.html").write_text(
        "{% if system == \"v5\" %}x{% endif %}\n{% if cp.system != 'v20' %}y{% endif %}\n"
        '{% if chronicle.system in ("v20", "v5") %}z{% endif %}\n{% if "tiers" == t.system %}w{% endif %}\n'
    )
    (tmp_path / "b.html").write_text(
        '{% for code, name in systems %}{% if values.get("system") == code %}s{% endif %}{% endfor %}\n'
        '{% if kind == "v5" %}k{% endif %}{% include ["_resources_" ~ system ~ ".html", "o.html"] %}\n'
    )
    assert template_branch_lines(tmp_path) == ["a.html:1", "a.html:2", "a.html:3", "a.html:4"]
