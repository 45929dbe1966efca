"""A scenario checked before play (SPEC S-4): every fault at once, each at its place.

``check_text(text)`` -> ``Report(scenario | None, faults)``; ``check(scenario, source)`` the faults
of a scenario the schema took. A fault is a code and params (translated by the ``solo`` domain,
``i18n.messages_solo``, or by the play layer's own messages for a sheet's refusal) at a dotted path
with its line:

- the schema's (``unknown_key``, ``missing_key``, ``bad_value``) and a key given twice (``duplicate_key``);
- ``dangling_link``: a ``goto`` or outcome naming no passage (and ``start``); ``unknown_npc``;
- ``unreachable_passage``: no path from ``start`` reaches it;
- ``no_way_out`` / ``fight_no_way_out``: no ending can be reached from a passage (a loop with no
  exit), or from any way out of a fight;
- ``missing_language`` / ``extra_language``: a text lacks a language the file lists, or has one it
  does not list (S-4: "a language missing for a passage another of its passages has");
- a sheet or a trait the play layer refuses (``unknown_trait``, ``trait_not_possessed``,
  ``unknown_weapon``, a sheet's own refusals): the pregenerated character and each NPC are validated by
  ``play.new_sheet`` as any sheet; each check's and attack's roll by ``play.preview`` on the sheet
  that rolls it (the pregenerated character's for the player's);
- ``flag_never_set``: a choice requires a flag nothing sets;
- S-9, beyond S-4: ``no_choice_left``: some playthrough reaches a passage with the flags it has set so
  far such that every choice is hidden by its flags or costs Willpower (which the player may have spent:
  a choice that costs some is never counted on), so the player could choose nothing; ``fight_loop``: a
  fight's ``win``, ``lose`` or ``flee`` leads, through fights only, back into the same fight (a fight
  entered with the player already down is lost at once: the engine would go round for ever);
  ``scenario_too_complex`` when the playthroughs to explore pass ``MAX_STATES``.

A wrong ``start`` is its one fault: the passages it leaves unreachable are not listed one by one.

Pure: play, rules and the scenario's own modules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from rollbook import play
from rollbook.rules.base import RuleError
from rollbook.solo import actions
from rollbook.solo.format import LANGUAGES, Attack, Passage, Scenario, SheetData, Text
from rollbook.solo.load import Fault, FormatInvalid, Source, Unreadable, parse, read
from rollbook.solo.steps import JsonObject


@dataclass(frozen=True)
class Report:
    scenario: Scenario | None
    faults: tuple[Fault, ...]


def check_text(text: str | bytes) -> Report:
    """Read, validate and check a scenario file; ``Unreadable`` when it is no YAML mapping at all."""
    source = read(text)
    try:
        scenario = parse(source)
    except FormatInvalid as invalid:
        return Report(None, (*source.duplicates, *invalid.faults))
    return Report(scenario, (*source.duplicates, *check(scenario, source)))


def _texts(scenario: Scenario) -> Iterator[tuple[str, Text]]:
    """Every text of the scenario with its place."""
    yield "title", scenario.title
    if scenario.summary is not None:
        yield "summary", scenario.summary
    for npc_id, npc in scenario.npcs.items():
        yield f"npcs.{npc_id}.name", npc.name
        if npc.shown_as is not None:
            yield f"npcs.{npc_id}.shown_as", npc.shown_as
    for passage_id, passage in scenario.passages.items():
        yield f"passages.{passage_id}.text", passage.text
        for index, choice in enumerate(passage.choices or ()):
            yield f"passages.{passage_id}.choices.{index}.text", choice.text


def _languages(scenario: Scenario, source: Source) -> list[Fault]:
    listed = set(scenario.languages)
    faults = []
    for path, text in _texts(scenario):
        for lang in LANGUAGES:
            if lang in listed and lang not in text:
                faults.append(source.fault("missing_language", path, language=lang))
            elif lang not in listed and lang in text:
                faults.append(
                    source.fault("extra_language", path, language=lang, languages=scenario.languages)
                )
    return faults


def _graph(scenario: Scenario, source: Source) -> list[Fault]:
    faults = []
    passages = scenario.passages
    for passage_id, passage in passages.items():
        for place, goto in passage.links():
            if goto not in passages:
                faults.append(source.fault("dangling_link", f"passages.{passage_id}.{place}", goto=goto))
    if scenario.start not in passages:  # its one fault: every passage would be "unreachable" besides
        return [source.fault("dangling_link", "start", goto=scenario.start), *faults]
    reached = _reach([scenario.start], lambda p: [g for _, g in passages[p].links()], passages)
    faults.extend(
        source.fault("unreachable_passage", f"passages.{passage_id}", passage=passage_id)
        for passage_id in passages
        if passage_id not in reached
    )
    # A way out: a path to an ending (walk the links backwards from every ending).
    before: dict[str, list[str]] = {p: [] for p in passages}
    for passage_id, passage in passages.items():
        for _, goto in passage.links():
            if goto in before:
                before[goto].append(passage_id)
    out = _reach(
        [p for p, passage in passages.items() if passage.ending is not None], lambda p: before[p], passages
    )
    for passage_id, passage in passages.items():
        if passage_id in out or passage_id not in reached:
            continue
        code = "fight_no_way_out" if passage.fight is not None else "no_way_out"
        faults.append(source.fault(code, f"passages.{passage_id}", passage=passage_id))
    return faults


MAX_STATES = 50_000  # (passage, flags set) pairs explored by ``_stuck`` before giving up (S-9)


def _stuck(scenario: Scenario, source: Source) -> list[Fault]:
    """S-9: every (passage, flags set so far) a playthrough can reach, explored from the start; a passage
    of choices where, in one of them, no choice is both shown (its flags) and free (no Willpower cost)
    is a fault, with the flags of the first such state found. Only the flags some choice reads count."""
    passages = scenario.passages
    read = {
        flag
        for p in passages.values()
        for c in p.choices or ()
        for flag in (c.requires_flag, c.unless_flag)
        if flag is not None
    }

    def with_flags(flags: frozenset[str], *names: str | None) -> frozenset[str]:
        kept = {name for name in names if name is not None and name in read}
        return flags | kept if kept - flags else flags

    first = (scenario.start, with_flags(frozenset(), passages[scenario.start].sets_flag))
    seen = {first}
    todo = [first]
    found: dict[str, Fault] = {}
    while todo:
        if len(seen) > MAX_STATES:
            return [*found.values(), source.fault("scenario_too_complex", "passages", most=MAX_STATES)]
        passage_id, flags = todo.pop()
        passage = passages[passage_id]
        if passage.choices is not None:
            shown = [
                choice
                for choice in passage.choices
                if (choice.requires_flag is None or choice.requires_flag in flags)
                and (choice.unless_flag is None or choice.unless_flag not in flags)
            ]
            if passage_id not in found and not any(choice.willpower_cost == 0 for choice in shown):
                found[passage_id] = source.fault(
                    "no_choice_left",
                    f"passages.{passage_id}.choices",
                    passage=passage_id,
                    flags=sorted(flags) or ["—"],
                )
            ways = [(choice.goto, choice.sets_flag) for choice in shown]
        else:
            ways = [(goto, None) for _, goto in passage.links()]
        for goto, flag in ways:
            if goto in passages:
                state = (goto, with_flags(flags, flag, passages[goto].sets_flag))
                if state not in seen:
                    seen.add(state)
                    todo.append(state)
    return list(found.values())


def _fight_loops(scenario: Scenario, source: Source) -> list[Fault]:
    """S-9: a fight whose result leads back into the same fight through fights only, no other passage
    between (the engine decides a fight entered with a side already down at once: it would loop)."""
    passages = scenario.passages
    fights = {pid: p.fight for pid, p in passages.items() if p.fight is not None}

    def into(fight_id: str) -> list[str]:
        fight = fights[fight_id]
        return [goto for goto in (fight.win, fight.lose, fight.flee) if goto in fights]

    faults = []
    for fight_id, fight in fights.items():
        for name in ("win", "lose", "flee"):
            goto = getattr(fight, name)
            if goto in fights and fight_id in _reach([goto], into, fights):
                faults.append(
                    source.fault(
                        "fight_loop", f"passages.{fight_id}.fight.{name}", passage=fight_id, goto=goto
                    )
                )
    return faults


def _reach(starts: list[str], nexts: Callable[[str], list[str]], passages: Mapping[str, object]) -> set[str]:
    seen: set[str] = set()
    todo = [p for p in starts if p in passages]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(p for p in nexts(current) if p in passages and p not in seen)
    return seen


def _refused(source: Source, path: str, refused: RuleError) -> Fault:
    return source.fault(refused.code, path, **refused.params)


def _sheet(system: str, source: Source, path: str, data: SheetData) -> JsonObject | Fault:
    """A sheet validated as any sheet the chronicle takes in (``play.new_sheet``, Strict: V20-19), or its fault."""
    try:
        return play.new_sheet(system, data, role="storyteller", mode=actions.MODE)
    except RuleError as refused:
        field = refused.params.get("field")
        return _refused(source, f"{path}.{field}" if isinstance(field, str) and field else path, refused)


def _rolls(
    scenario: Scenario, source: Source, player: JsonObject | None, npcs: dict[str, JsonObject]
) -> list[Fault]:
    faults: list[Fault] = []

    def roll(
        sheet: JsonObject | None,
        path: str,
        traits: list[str],
        difficulty: int,
        specialty: str | None = None,
        modifier: int = 0,
    ) -> None:
        if sheet is None:
            return  # the sheet's own fault is reported
        try:
            action = actions.roll_action(
                scenario.system, sheet, traits, difficulty, specialty=specialty, modifier=modifier
            )
            actions.preview(scenario.system, sheet, action)
        except RuleError as refused:
            where = "specialty" if refused.code in ("unknown_specialty", "specialty_untrained") else "traits"
            faults.append(_refused(source, f"{path}.{where}", refused))

    def attack(sheet: JsonObject | None, path: str, chosen: Attack) -> None:
        if sheet is None:
            return
        try:
            actions.preview(scenario.system, sheet, actions.attack_action(chosen))
            actions.weapon_of(scenario.system, sheet, chosen)
        except RuleError as refused:
            faults.append(
                _refused(source, f"{path}.{'weapon' if 'weapon' in refused.code else 'traits'}", refused)
            )

    for npc_id, npc in scenario.npcs.items():
        attack(npcs.get(npc_id), f"npcs.{npc_id}.attack", npc.attack)
    for passage_id, passage in scenario.passages.items():
        base = f"passages.{passage_id}"
        if passage.check is not None:
            check = passage.check
            roll(
                player,
                f"{base}.check",
                check.traits,
                check.difficulty,
                specialty=check.specialty,
                modifier=check.modifier,
            )
        if passage.extended is not None:
            roll(player, f"{base}.extended", passage.extended.traits, passage.extended.difficulty)
        if passage.fight is not None:
            for index, npc_id in enumerate(passage.fight.npcs):
                if npc_id not in scenario.npcs:
                    faults.append(source.fault("unknown_npc", f"{base}.fight.npcs.{index}", npc=npc_id))
            for index, chosen in enumerate(passage.fight.attacks):
                attack(player, f"{base}.fight.attacks.{index}", chosen)
    return faults


def _flags(scenario: Scenario, source: Source) -> list[Fault]:
    passages = scenario.passages.items()
    set_somewhere = {p.sets_flag for _, p in passages} | {
        c.sets_flag for _, p in passages for c in p.choices or ()
    }
    faults = []
    for passage_id, passage in passages:
        for index, choice in enumerate(passage.choices or ()):
            if choice.requires_flag is not None and choice.requires_flag not in set_somewhere:
                faults.append(
                    source.fault(
                        "flag_never_set",
                        f"passages.{passage_id}.choices.{index}.requires_flag",
                        flag=choice.requires_flag,
                    )
                )
    faults.extend(
        source.fault("flag_never_set", f"npcs.{npc_id}.revealed_by", flag=npc.revealed_by)
        for npc_id, npc in scenario.npcs.items()
        if npc.revealed_by is not None and npc.revealed_by not in set_somewhere
    )
    return faults


def check(scenario: Scenario, source: Source) -> list[Fault]:
    """The faults of a scenario the schema took (S-4), in the order of the file's lines."""
    player = _sheet(scenario.system, source, "pregenerated", scenario.pregenerated)
    faults = [] if isinstance(player, dict) else [player]
    npcs: dict[str, JsonObject] = {}
    for npc_id in scenario.npcs:
        sheet = _sheet(scenario.system, source, f"npcs.{npc_id}.sheet", npc_sheet(scenario, npc_id))
        if isinstance(sheet, dict):
            npcs[npc_id] = sheet
        else:
            faults.append(sheet)
    graph = _graph(scenario, source)
    faults += graph
    faults += _fight_loops(scenario, source)
    if not any(fault.path == "start" for fault in graph):
        faults += _stuck(scenario, source)
    faults += _languages(scenario, source)
    faults += _rolls(scenario, source, player if isinstance(player, dict) else None, npcs)
    faults += _flags(scenario, source)
    return sorted(faults, key=lambda fault: (fault.line or 0, fault.path))


def npc_sheet(scenario: Scenario, npc_id: str) -> SheetData:
    """An NPC's sheet as the chronicle stores it (named in the scenario's first language when its sheet has no
    name). S-10: an NPC ``shown_as`` another name bears that name, its sheet's own name too, so the chronicle
    spoils nothing the story hides (``usecases.solo`` renames it when the story reveals it)."""
    npc = scenario.npcs[npc_id]
    if npc.shown_as is not None:
        return {**npc.sheet, "name": npc.shown_as.get(scenario.languages[0], npc_id)}
    return {"name": npc.name.get(scenario.languages[0], npc_id), **npc.sheet}


def passage_of(scenario: Scenario, passage_id: str) -> Passage:
    return scenario.passages[passage_id]


__all__ = ["FormatInvalid", "Report", "Unreadable", "check", "check_text", "npc_sheet", "passage_of"]
