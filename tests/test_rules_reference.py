"""The rules reference, docs/rules.md: one entry per rule id, and every rule id the code cites has one.

The reference is the repository's own list of rule ids: an entry is an anchor ``<a id="V20-7"></a>``
followed by its heading ``### V20-7 — …``. This module reads nothing outside the repository: the ids
and their prefixes (``V20``, ``V5``, ``T``, ``R``, ``A``, ``F``, ``TR``, ``S``) are derived from the
reference itself.

How a citation is found, and the false positives left out on purpose:

- **In prose** (comments, docstrings, strings, templates, catalogues, Markdown): an id-shaped token,
  capital letters (then digits), a hyphen and a number, not glued to a word or a hyphen before it:
  ``V20-7``, ``TR-2``, ``S-9``. The shorthand ``V20-16/17/18`` and ``V20-1…12`` cites each number
  it names. Tokens of that shape whose prefix is no rule prefix are the names of standards or
  arithmetic — ``SHA-256``, ``UTF-8``, ``UTF-16``, ``AES-256``, "seq N-1" — and are listed in
  ``NOT_RULE_PREFIXES``; any other prefix (``V21-3``, ``RT-2``) fails the test, so a mistyped
  prefix is caught rather than ignored.
- **In identifiers** (test names, constants), split on ``_``: a prefix word followed by a number
  word, ``test_V20_7_…``, ``test_TR_3_TR_4_…``, ``SPEC_V20_15``; the system words also in lower
  case (``…_v20_16``, ``spec_v20_15``). A single-letter prefix in lower case is not a citation
  there (``test_a_5_mb_body_is_413`` is about five megabytes, ``t_3_rats`` a name). And a prefix
  glued to its number, in either case, as any word but the first: ``test_T8_…``, ``test_A4_…``,
  ``…_s4``, ``…_f7``, ``…_tr4``. The first word is left out (``r20``, ``s3``, ``F401`` — a ruff
  code in a ``noqa`` comment — are names, not citations); ``V20``/``V5`` glued to a number would be
  the system's name, so only the prefixes that end in a letter are read glued.
- Ids are written in capitals in prose; a lower-case ``v20-7`` is not read as a citation.

This file holds unknown ids on purpose (the checker's own checks below), so the scan of ``tests/``
leaves it out.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rollbook.contract import resolve_text
from rollbook.fair.seeds import faces_for
from rollbook.rules.table import TABLE_RULES
from rollbook.solo.check import MAX_STATES
from rollbook.solo.load import MAX_BYTES, MAX_DEPTH, MAX_NODES
from rollbook.systems.v5.sheet import ROUSE_REROLL_LEVEL, SURGE_DICE
from rollbook.systems.v20 import rules as rules_v20
from rollbook.systems.v20.odds import source_table
from rollbook.systems.v20.render import difficulty_name
from rollbook.systems.v20.rules import BLOOD_BY_GENERATION, HEALTH_LEVELS
from rollbook.systems.v20.sheet import TRAIT_MAX_BY_GENERATION

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "docs" / "rules.md"
CITING_SUFFIXES = (".py", ".html", ".js", ".po")
THIS_FILE = Path(__file__).resolve()

# Prefixes of id-shaped tokens that are no rule: SHA-256, UTF-8 / UTF-16, AES-256, "seq N-1".
NOT_RULE_PREFIXES = frozenset({"SHA", "UTF", "AES", "N"})

ID_SHAPE = re.compile(r"(?P<prefix>[A-Z][A-Z0-9]*)-(?P<number>[1-9][0-9]*)")
ANCHOR = re.compile(r'<a id="(?P<id>[^"]+)"></a>')
HEADING = re.compile(r"### (?P<id>\S+) — \S")
PROSE_ID = re.compile(
    r"(?<![\w-])(?P<prefix>[A-Z][A-Z0-9]*)-(?P<number>[0-9]+)"
    r"(?P<more>(?:(?:/|…|\.\.\.?)[0-9]+)*)(?![\w-])"
)
MORE_NUMBER = re.compile(r"[0-9]+")
DIGIT = re.compile(r"[0-9]")
IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
INDEX_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\(#(?P<fragment>[^)]+)\)")
FILE_LINK = re.compile(r"\]\((?P<target>[^)#:]+)(?:#[^)]*)?\)")


# --- the reference -------------------------------------------------------------------------------


def reference_entries(text: str) -> dict[str, int]:
    """Rule id -> line number of its anchor. Each anchor is followed by the heading of the same id;
    an anchor or a heading alone, or an id twice, is an error."""
    lines = text.splitlines()
    entries: dict[str, int] = {}
    problems = []
    for number, line in enumerate(lines, start=1):
        anchor = ANCHOR.fullmatch(line)
        heading = HEADING.match(line)
        if anchor and ID_SHAPE.fullmatch(anchor["id"]):
            rule = anchor["id"]
            following = lines[number] if number < len(lines) else ""
            following_heading = HEADING.match(following)
            if following_heading is None or following_heading["id"] != rule:
                problems.append(f"line {number}: anchor {rule} is not followed by '### {rule} — …'")
            if rule in entries:
                problems.append(f"line {number}: {rule} has two entries")
            entries[rule] = number
        elif heading and not ANCHOR.fullmatch(lines[number - 2] if number > 1 else ""):
            problems.append(f"line {number}: heading {heading['id']} has no anchor on the line before")
    if problems:
        raise AssertionError("\n".join(problems))
    return entries


def prefix_of(rule: str) -> str:
    return rule.rsplit("-", 1)[0]


@dataclass(frozen=True)
class Citations:
    """What a scan found: (place, id) for each citation of a rule prefix, and (place, token) for each
    id-shaped token whose prefix is neither a rule prefix nor a known non-rule one."""

    ids: list[tuple[str, str]]
    unknown_prefixes: list[tuple[str, str]]


class Scanner:
    """Finds rule citations in text, given the rule prefixes (from the reference)."""

    def __init__(self, prefixes: Iterable[str]) -> None:
        self.prefixes = frozenset(prefixes)
        self.lower_words = {p.lower(): p for p in self.prefixes if p[-1].isdigit()}  # v20, v5
        glued = sorted((p for p in self.prefixes if not p[-1].isdigit()), key=len, reverse=True)
        self.glued = re.compile(rf"(?i)(?P<prefix>{'|'.join(glued)})(?P<number>[0-9]+)")

    def prose(self, line: str) -> Iterator[tuple[str | None, str]]:
        """(id, token) of each id-shaped token; id None when its prefix is no rule prefix."""
        for found in PROSE_ID.finditer(line):
            prefix = found["prefix"]
            if prefix not in self.prefixes:
                yield None, found[0]
                continue
            yield f"{prefix}-{int(found['number'])}", found[0]
            for number in MORE_NUMBER.findall(found["more"]):
                yield f"{prefix}-{int(number)}", found[0]

    def identifiers(self, line: str) -> Iterator[str]:
        for identifier in IDENTIFIER.findall(line):
            words = [word for word in identifier.split("_") if word]
            for position, word in enumerate(words):
                following = words[position + 1] if position + 1 < len(words) else ""
                prefix = word if word in self.prefixes else self.lower_words.get(word)
                if prefix is not None and following.isdigit():
                    yield f"{prefix}-{int(following)}"
                    continue
                glued = self.glued.fullmatch(word)
                if glued and position > 0:
                    yield f"{glued['prefix'].upper()}-{int(glued['number'])}"

    def scan(self, text: str, where: str) -> Citations:
        ids: list[tuple[str, str]] = []
        unknown: list[tuple[str, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not DIGIT.search(line):
                continue  # every citation holds a number
            place = f"{where}:{number}"
            for rule, token in self.prose(line):
                if rule is not None:
                    ids.append((place, rule))
                elif prefix_of(token) not in NOT_RULE_PREFIXES:
                    unknown.append((place, token))
            ids += [(place, rule) for rule in self.identifiers(line)]
        return Citations(ids, unknown)


def unresolved(citations: Citations, entries: Iterable[str]) -> list[str]:
    """One line per citation with no entry, and per id-shaped token of an unknown prefix."""
    known = set(entries)
    lines = [
        f"{place}: {rule} has no entry in docs/rules.md" for place, rule in citations.ids if rule not in known
    ]
    lines += [
        f"{place}: {token}: not a rule prefix (a new non-rule name goes in NOT_RULE_PREFIXES)"
        for place, token in citations.unknown_prefixes
    ]
    return lines


def files_under(*roots: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(
        path
        for root in roots
        for path in root.rglob("*")
        if path.is_file() and path.suffix in suffixes and path.resolve() != THIS_FILE
    )


def scan_files(scanner: Scanner, paths: Iterable[Path]) -> Citations:
    ids: list[tuple[str, str]] = []
    unknown: list[tuple[str, str]] = []
    for path in paths:
        found = scanner.scan(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
        ids += found.ids
        unknown += found.unknown_prefixes
    return Citations(ids, unknown)


@pytest.fixture(scope="module")
def reference() -> str:
    return REFERENCE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def entries(reference: str) -> dict[str, int]:
    return reference_entries(reference)


@pytest.fixture(scope="module")
def scanner(entries: dict[str, int]) -> Scanner:
    return Scanner({prefix_of(rule) for rule in entries})


# --- every citation resolves -----------------------------------------------------------------------


def test_every_rule_id_cited_in_src_and_tests_has_an_entry(scanner: Scanner, entries: dict[str, int]) -> None:
    paths = files_under(REPO / "src", REPO / "tests", suffixes=CITING_SUFFIXES)
    citations = scan_files(scanner, paths)
    assert len(citations.ids) > 1000  # the scan reads the code: ~1,500 citations when this was written
    problems = unresolved(citations, entries)
    assert not problems, "\n".join(problems)


def test_every_rule_id_cited_in_the_docs_and_the_bench_has_an_entry(
    scanner: Scanner, entries: dict[str, int]
) -> None:
    paths = [
        REPO / "README.md",
        *files_under(REPO / "docs", suffixes=(".md",)),
        *files_under(REPO / "bench", suffixes=(".md", ".py")),
    ]
    problems = unresolved(scan_files(scanner, paths), entries)
    assert not problems, "\n".join(problems)


def test_the_scanner_reports_an_unknown_id_and_leaves_the_false_positives_out() -> None:
    scanner = Scanner({"V20", "V5", "TR", "T", "R", "A", "F", "S"})
    entries = [f"V20-{n}" for n in range(1, 22)] + ["V5-8", "TR-2", "T-2", "T-5", "A-1", "A-4", "S-4", "F-7"]
    synthetic = "\n".join(
        [
            "# V20-7: a 10 counts twice; V20-99 is no rule; TR-2 and S-11 and T-9",  # line 1
            "seed = hashlib.sha256(b)  # SHA-256, UTF-8, UTF-16, AES-256; the seq N-1 entry",  # line 2
            "import x  # noqa: F401",  # line 3
            "def test_V5_8_a_reroll(): ...  def test_T5_soak_as_T2(): ...  def test_v20_99_x(): ...",  # line 4
            "def test_a_5_mb_body_is_413(): ...  r20 = s3 = t_3_rats = 1",  # line 5
            "def test_a_fight_s4_s12(): ...  def test_A4_V20_13_offers(): ...  def test_x_f7(): ...",  # line 6
            "See V20-16/17/18 and V20-1…25; V21-3 is a typo; HMAC-SHA256 is a name",  # line 7
        ]
    )
    found = scanner.scan(synthetic, "synthetic")
    assert unresolved(found, entries) == [
        "synthetic:1: V20-99 has no entry in docs/rules.md",
        "synthetic:1: S-11 has no entry in docs/rules.md",
        "synthetic:1: T-9 has no entry in docs/rules.md",
        "synthetic:4: V20-99 has no entry in docs/rules.md",
        "synthetic:6: S-12 has no entry in docs/rules.md",
        "synthetic:7: V20-25 has no entry in docs/rules.md",
        "synthetic:7: V21-3: not a rule prefix (a new non-rule name goes in NOT_RULE_PREFIXES)",
    ]
    by_line = defaultdict(list)
    for place, rule in found.ids:
        by_line[int(place.rsplit(":", 1)[1])].append(rule)
    assert by_line[1] == ["V20-7", "V20-99", "TR-2", "S-11", "T-9"]
    assert 2 not in by_line and 3 not in by_line and 5 not in by_line
    assert by_line[4] == ["V5-8", "T-5", "T-2", "V20-99"]
    assert by_line[6] == ["S-4", "S-12", "A-4", "V20-13", "F-7"]
    assert by_line[7] == ["V20-16", "V20-17", "V20-18", "V20-1", "V20-25"]


# --- the reference itself --------------------------------------------------------------------------


def test_every_entry_is_a_rule_id_numbered_from_one_without_a_gap(entries: dict[str, int]) -> None:
    """The reference's ids are the rule ids: each shaped PREFIX-N, and each prefix numbered 1 … n
    in order (an id skipped or invented in the middle shows as a gap or a step back)."""
    numbers: dict[str, list[int]] = defaultdict(list)
    for rule in entries:  # in the order of the page
        shape = ID_SHAPE.fullmatch(rule)
        assert shape, rule
        numbers[shape["prefix"]].append(int(shape["number"]))
    assert set(numbers) == {"V20", "V5", "T", "R", "A", "F", "TR", "S"}
    for prefix, seen in numbers.items():
        assert seen == list(range(1, len(seen) + 1)), f"{prefix}: {seen}"


def test_every_entry_says_what_the_engine_does(reference: str, entries: dict[str, int]) -> None:
    """An entry is more than its heading: at least a sentence of plain words."""
    for rule in entries:
        body = reference.split(f'<a id="{rule}"></a>', 1)[1].split("<a id=", 1)[0]
        prose = [
            line
            for line in body.splitlines()
            if line and not line.startswith(("###", "{", "→", "```", "|", "*In the code:*"))
        ]
        assert len(" ".join(prose).split()) >= 12, rule


def test_each_system_section_holds_only_its_own_ids(reference: str) -> None:
    section = None
    prefixes_by_section: dict[str, set[str]] = defaultdict(set)
    for line in reference.splitlines():
        if line.startswith("## "):
            section = line
        anchor = ANCHOR.fullmatch(line)
        if anchor and ID_SHAPE.fullmatch(anchor["id"]):
            assert section is not None, anchor["id"]
            prefixes_by_section[section].add(prefix_of(anchor["id"]))
    assert all(len(prefixes) == 1 for prefixes in prefixes_by_section.values()), prefixes_by_section


def test_the_index_links_every_entry_and_only_entries(reference: str, entries: dict[str, int]) -> None:
    index = reference.split("## Index", 1)[1].split("\n## ", 1)[0]
    linked = [link["fragment"] for link in INDEX_LINK.finditer(index) if ID_SHAPE.fullmatch(link["fragment"])]
    assert linked == list(entries)
    for link in INDEX_LINK.finditer(index):
        assert link["text"] == link["fragment"] or not ID_SHAPE.fullmatch(link["fragment"])


def test_every_link_of_the_reference_leads_somewhere(reference: str, entries: dict[str, int]) -> None:
    anchors = {anchor["id"] for anchor in ANCHOR.finditer(reference)}
    for link in INDEX_LINK.finditer(reference):
        assert link["fragment"] in anchors, link[0]
    for link in FILE_LINK.finditer(reference):
        assert (REFERENCE.parent / link["target"]).exists(), link[0]


def test_each_file_an_entry_points_to_cites_its_rule(
    reference: str, entries: dict[str, int], scanner: Scanner
) -> None:
    """An entry's "In the code" line names modules that cite the entry's id (so a module renamed, or a
    rule moved elsewhere, shows here)."""
    pointed = 0
    cited_in: dict[Path, set[str]] = {}
    for rule in entries:
        body = reference.split(f'<a id="{rule}"></a>', 1)[1].split("<a id=", 1)[0]
        for line in body.splitlines():
            if line.startswith("*In the code:*"):
                for link in FILE_LINK.finditer(line):
                    path = (REFERENCE.parent / link["target"]).resolve()
                    if path not in cited_in:
                        found = scanner.scan(path.read_text(encoding="utf-8"), path.name)
                        cited_in[path] = {cited for _, cited in found.ids}
                    assert rule in cited_in[path], f"{rule}: {link['target']} does not cite it"
                    pointed += 1
    assert pointed > 100


def test_architecture_links_the_reference() -> None:
    assert "](rules.md)" in (REPO / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


# --- the worked examples are the engine's answers ----------------------------------------------


def examples(reference: str) -> Iterator[tuple[str, str, dict]]:
    """(entry id, request line, expected fields) for each request of each ``resolve`` block."""
    rule = None
    block: list[str] | None = None
    for line in reference.splitlines():
        heading = HEADING.match(line)
        if heading:
            rule = heading["id"]
        if line == "```resolve":
            block = []
        elif line == "```" and block is not None:
            assert len(block) % 2 == 0 and block, f"{rule}: a request without its → line"
            for request, answer in zip(block[::2], block[1::2], strict=True):
                assert answer.startswith("→ ") and not request.startswith("→"), f"{rule}: {request}"
                yield str(rule), request, json.loads(answer.removeprefix("→ "))
            block = None
        elif block is not None:
            block.append(line)


def contains(expected: object, actual: object) -> bool:
    """Every field of ``expected`` is in ``actual`` with that value (nested objects likewise)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and contains(value, actual[key]) for key, value in expected.items()
        )
    return expected == actual


def test_the_reference_has_worked_examples_for_the_dice_rules(reference: str) -> None:
    with_examples = {rule for rule, _, _ in examples(reference)}
    assert len(list(examples(reference))) > 80
    for rule in (
        "V20-4",
        "V20-7",
        "V20-9",
        "V5-2",
        "V5-6",
        "V5-8",
        "T-2",
        "T-5",
        "R-3",
        "R-7",
        "TR-2",
        "TR-4",
    ):
        assert rule in with_examples


def test_every_worked_example_is_what_the_engine_answers(reference: str) -> None:
    wrong = []
    for rule, request, expected in examples(reference):
        answer, _ = resolve_text(request)
        if not contains(expected, answer):
            wrong.append(
                f"{rule}: {request}\n  expected {json.dumps(expected)}\n  answered {json.dumps(answer)}"
            )
    assert not wrong, "\n".join(wrong)


def test_the_example_check_fails_on_a_wrong_number() -> None:
    answer, ok = resolve_text('{"system":"v20","faces":[1,2,4]}')
    assert ok and contains({"outcome": "botch", "ones": 1}, answer)
    assert not contains({"outcome": "failure"}, answer)
    assert not contains({"auto_sources": {"willpower": 1}}, answer)


# --- the tables are the code's ---------------------------------------------------------------------


def entry_tables(reference: str, rule: str) -> list[list[list[str]]]:
    """The Markdown tables of one entry (from its anchor to the next), each a list of rows of cells,
    the header first and the ``|---|`` line left out."""
    text = reference.split(f'<a id="{rule}"></a>', 1)[1].split("<a id=", 1)[0]
    tables: list[list[list[str]]] = []
    previous_was_row = False
    for line in text.splitlines():
        line = line.strip()
        is_row = line.startswith("|") and line.endswith("|")
        if is_row and not set(line) <= set("|-"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if not previous_was_row:
                tables.append([])
            tables[-1].append(cells)
        previous_was_row = is_row
    return tables


def number(cell: str) -> int:
    return int(cell.replace("−", "-"))


def test_V20_15_the_source_table_and_its_names_are_the_engines(reference: str) -> None:
    (table,) = entry_tables(reference, "V20-15")
    rows = [(number(row[0]), row[1], row[2], row[3]) for row in table[1:]]
    names = [
        " / ".join(difficulty_name(row.difficulty, lang) for lang in ("fr", "es", "en"))
        for row in source_table()
    ]
    assert rows == [
        (row.difficulty, name, row.success_text, row.botch_text)
        for row, name in zip(source_table(), names, strict=True)
    ]


def test_V20_16_blood_and_health_tables_are_the_rules(reference: str) -> None:
    blood, health = entry_tables(reference, "V20-16")
    generations, pools, per_turn = blood
    assert {
        number(g): (number(m), number(t))
        for g, m, t in zip(generations[1:], pools[1:], per_turn[1:], strict=True)
    } == BLOOD_BY_GENERATION
    levels, penalties = health
    assert [
        (level.lower(), None if penalty == "cannot act" else number(penalty))
        for level, penalty in zip(levels[1:], penalties[1:], strict=True)
    ] == list(HEALTH_LEVELS)


def test_V20_19_trait_maxima_are_the_sheets(reference: str) -> None:
    ((generations, maxima),) = entry_tables(reference, "V20-19")
    table = dict(zip(generations[1:], (number(m) for m in maxima[1:]), strict=True))
    assert table.pop("8 and above") == 5
    assert {number(g): m for g, m in table.items()} == TRAIT_MAX_BY_GENERATION


def test_V5_10_V5_11_blood_potency_tables_are_the_sheets(reference: str) -> None:
    ((potency, rouse),) = entry_tables(reference, "V5-10")
    ((surge_potency, surge),) = entry_tables(reference, "V5-11")
    assert [number(p) for p in potency[1:]] == [number(p) for p in surge_potency[1:]] == list(range(11))
    assert [0 if level == "–" else number(level) for level in rouse[1:]] == list(ROUSE_REROLL_LEVEL)
    assert [number(dice) for dice in surge[1:]] == list(SURGE_DICE)


def test_F_4_the_known_answer_is_the_engines(reference: str) -> None:
    seed = bytes(range(32))
    faces = ", ".join(str(face) for face in faces_for(seed, 1, "alice", 1, [10] * 5))
    entry = " ".join(reference.split('<a id="F-4"></a>', 1)[1].split("<a id=", 1)[0].split())
    assert f"commitment `{hashlib.sha256(seed).hexdigest()}`" in entry
    assert f'chronicle 1, client seed `"alice"`, nonce 1: five d10 are {faces}.' in entry


def test_TR_2_the_table_rules_listed_are_the_engines_each_with_the_rule_it_replaces(reference: str) -> None:
    entry = reference.split('<a id="TR-2"></a>', 1)[1].split("<a id=", 1)[0]
    listed = {}
    for bullet in re.findall(r"^- `([a-z0-9_.]+)` (.*)$", entry, flags=re.MULTILINE):
        first_link = INDEX_LINK.search(bullet[1])
        assert first_link, bullet
        listed[bullet[0]] = first_link["fragment"]
    assert listed == {rule.id: rule.replaces for rule in TABLE_RULES.values()}


def test_S_9_the_bounds_named_are_the_loaders(reference: str) -> None:
    entry = " ".join(reference.split('<a id="S-9"></a>', 1)[1].split("<a id=", 1)[0].split())
    assert f"the bounds are {MAX_BYTES // 1024} KB per file, values nested at most {MAX_DEPTH} deep" in entry
    assert f"at most {MAX_NODES:,} values once every alias is expanded" in entry
    assert f"pass {MAX_STATES:,} states to explore" in entry


def test_V20_16_V20_17_V20_21_the_combat_examples_are_the_rules() -> None:
    """The numbers of the reference's prose examples of the combat chain, as the rules compute them."""
    # V20-17: a knife (Strength + 1), Strength 3, after an attack with 3 successes: 4 + 2 = 6 dice
    assert rules_v20.damage_pool(strength=3, weapon_damage=1, firearm=False, attack_successes=3) == (4, 2)
    # V20-20: 3 attack successes, 2 dodged: 1 left, no extra damage die
    assert rules_v20.damage_pool(strength=3, weapon_damage=1, firearm=False, attack_successes=3 - 2) == (4, 0)
    # V20-21: Potence 2 on 7, 3, 1, 2, 5, 4: one rolled success + 2 = 3 levels
    damage = rules_v20.resolve_damage(
        rules_v20.DamageRequest(pool=6, damage_type="lethal", potence=2), (7, 3, 1, 2, 5, 4)
    )
    assert damage.levels == 3
    # V20-16: Stamina 2 + Fortitude 1 soak 3 lethal levels with 8, 1, 6: 1 level left (Bruised)
    lethal = rules_v20.SoakRequest(damage=3, damage_type="lethal", stamina=2, fortitude=1)
    soak = rules_v20.resolve_soak(lethal, (8, 1, 6))
    assert (soak.soak_pool, soak.soaked, soak.damage_taken) == (3, 2, 1)
    assert HEALTH_LEVELS[soak.damage_taken - 1][0] == "bruised"
    aggravated = rules_v20.SoakRequest(damage=3, damage_type="aggravated", stamina=2, fortitude=1)
    assert rules_v20.soak_pool(aggravated) == 1
    mortal = rules_v20.SoakRequest(damage=3, damage_type="aggravated", stamina=2, vampire=False)
    assert rules_v20.soak_pool(mortal) == 0
