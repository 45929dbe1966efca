"""The solo chronicle on the server (SPEC S-1 … S-5): a chronicle whose Storyteller is a scenario.

- ``start``: a new chronicle (Strict, V20) with two members: the scenario's Storyteller (its key is
  never handed out: the engine acts as it) and the player (their key is the answer's ``token``);
  the player's character (the scenario's pregenerated one, or their own sheet, validated as any
  sheet) and the NPCs (the Storyteller's characters); a ``solo_start`` entry naming the scenario
  and its SHA-256; then the start passage. The player's ``client_seed`` (F-2), if given, is the one
  the scenario's rolls draw under (they are the Storyteller's rolls: F-3 takes the roller's seed).
- ``state``: the passage in the reader's language, the choices offered (the odds of each roll before
  it is made, ``rollbook.odds``), the health track, blood and Willpower, each NPC's track, the
  entries since the player's last choice (the receipts), the extended action's progress.
- ``act``: one choice of the player, in the caller's one transaction: ``solo.story.act``'s steps
  performed through the chronicle's own use cases — the rolls (``rolls.perform_roll``: the combat
  chain, fair dice, per-turn limits), the player's changes (``characters.adjust``), the scenes and
  turns (``scenes``) — and the solo entries (``solo.steps``). Progress is the log (S-5): the state is
  replayed from the entries every time, nothing is stored beside them.
"""

from __future__ import annotations

from functools import lru_cache

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from rollbook import settings
from rollbook.dice import DiceSource
from rollbook.entries import Logged, SoloChoiceReceipt, SoloPassageReceipt, SoloStartReceipt
from rollbook.i18n import normalize
from rollbook.i18n.messages import error_message
from rollbook.odds import odds_for
from rollbook.rules.base import RuleError
from rollbook.server.access import PLAYER, STORYTELLER, find_chronicle, lock_chronicle
from rollbook.server.models import Caller, Character, Chronicle, LogEntry, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry
from rollbook.server.usecases import characters, chronicles, fairness, rolls, scenes, solo_guard
from rollbook.server.usecases.log import entries_after
from rollbook.server.views import character_view, entry_export
from rollbook.solo import actions, fight, story
from rollbook.solo.check import check_text, npc_sheet
from rollbook.solo.format import Scenario
from rollbook.solo.library import hosted, shipped
from rollbook.solo.load import Fault
from rollbook.solo.steps import PLAYER as WHO_PLAYER
from rollbook.solo.steps import (
    SOLO_CHOICE,
    SOLO_KINDS,
    SOLO_PASSAGE,
    SOLO_START,
    Adjust,
    Arrive,
    Choose,
    Done,
    Roll,
    Scene,
    drive,
)
from rollbook.solo.system import solo_system
from rollbook.solo.text import fault_line, heal_label, label, npc_name, pick, traits_label

RECENT = 60  # entries since the last choice shown with the state (a fight turn is about a dozen)


@lru_cache(maxsize=16)
def _checked(raw: bytes) -> tuple[Scenario | None, tuple[Fault, ...]]:
    """A scenario file read and checked (S-4, S-9), once per content (the shell's cache; the pure check is
    not); a file that is no scenario at all is its one fault."""
    try:
        report = check_text(raw)
    except RuleError as unreadable:
        return None, (Fault(unreadable.code, "", dict(unreadable.params)),)
    return report.scenario, report.faults


def _usable(raw: bytes) -> Scenario:
    scenario, faults = _checked(raw)
    if faults or scenario is None:  # S-4: a scenario with a fault is refused before play
        first = faults[0] if faults else None
        raise ProblemError(422, "scenario_invalid", count=len(faults), first=first.path if first else "")
    return scenario


def library() -> dict[str, bytes]:
    """The scenarios on offer, by id: the shipped ones, then the host's folder's (S-10: ``ROLLBOOK_SOLO_SCENARIOS``;
    a host file named as a shipped one is not taken). Only those that pass the check are played (S-4, S-9)."""
    found = dict(shipped())
    for name, raw in hosted(settings.current().solo_scenarios).items():
        found.setdefault(name, raw)
    return found


def hosted_refusals(lang: str = "en") -> list[str]:
    """S-10: the host's scenarios refused, one line each (the file, then the checker's message): a file that
    is no scenario, has faults (its first, and how many), is not named after its ``id``, or takes a shipped
    one's name. Logged when the server starts (``app.app``)."""
    folder = settings.current().solo_scenarios
    lines = []
    taken = shipped()
    for name, raw in hosted(folder).items():
        where = f"{folder}/{name}.yaml"
        try:
            report = check_text(raw)
        except RuleError as unreadable:
            lines.append(f"{where}: {error_message(unreadable.code, lang, unreadable.params)}")
            continue
        if report.faults:
            more = f" (+{len(report.faults) - 1})" if len(report.faults) > 1 else ""
            lines.append(f"{where}: {fault_line(report.faults[0], lang)}{more}")
        elif name in taken or (report.scenario is not None and report.scenario.id != name):
            lines.append(f"{where}: {error_message('scenario_id_not_file', lang, {'scenario': name})}")
    return lines


def _digest(raw: bytes) -> str:
    from hashlib import sha256

    return sha256(raw).hexdigest()


def scenario_list(lang: str) -> list[dict]:
    """The shipped scenarios that pass the check: id, title and summary in ``lang``, languages."""
    found = []
    for raw in library().values():
        scenario, faults = _checked(raw)
        if scenario is None or faults:
            continue
        found.append(
            {
                "id": scenario.id,
                "title": pick(scenario.title, lang, scenario),
                "summary": pick(scenario.summary, lang, scenario) if scenario.summary else "",
                "languages": list(scenario.languages),
                "digest": _digest(raw),
                "pregenerated": scenario.pregenerated,
            }
        )
    return found


def _scenario(scenario_id: str | None, raw: bytes | None = None) -> tuple[Scenario, str]:
    """A shipped scenario by id, or the one ``raw`` holds (``rollbook solo FILE``), checked (S-4)."""
    if raw is None:
        raw = library().get(scenario_id or "")
        if raw is None:
            raise ProblemError(404, "scenario_unknown", scenario=scenario_id)
    scenario = _usable(raw)
    if scenario_id is not None and scenario.id != scenario_id:
        raise ProblemError(404, "scenario_unknown", scenario=scenario_id)
    return scenario, _digest(raw)


# --- start -----------------------------------------------------------------------------------


def start(
    session: Session,
    *,
    scenario: str | None = None,
    language: str = "en",
    player: str = "Player",
    sheet: dict | None = None,
    client_seed: str | None = None,
    source: DiceSource | None = None,
    raw: bytes | None = None,
) -> dict:
    """A new solo chronicle of a shipped scenario (or of the file ``raw``: the terminal's); the answer
    holds the player's token (shown once) and the first state."""
    chosen, digest = _scenario(scenario, raw)
    language = normalize(language)
    title = pick(chosen.title, language, chosen)
    made = chronicles.create_chronicle(
        session,
        name=title[:200],
        system=chosen.system,
        mode="strict",
        language=language,
        storyteller=title[:200],
    )
    storyteller = session.get_one(Member, made["member"]["id"])
    joined = chronicles.join(session, invitation=made["invitation"], name=player)
    member = session.get_one(Member, joined["member"]["id"])
    if client_seed is not None:  # F-2: the player's seed, under which the scenario's rolls draw
        fairness.set_client_seed(session, storyteller, client_seed)
    own = dict(sheet if sheet is not None else chosen.pregenerated)
    name = str(own.get("name") or chosen.pregenerated.get("name") or player)
    hero = characters.add_character(session, storyteller, name=name, sheet=own, owner=member.id)
    npcs = {}
    for npc_id in chosen.npcs:
        npc = npc_sheet(chosen, npc_id)
        npcs[npc_id] = characters.add_character(
            session, storyteller, name=npc["name"], sheet=npc, owner=None
        )["id"]
    chronicle = lock_chronicle(session, made["chronicle"]["id"])
    append_entry(
        session,
        chronicle,
        kind=SOLO_START,
        actor=actor_of(storyteller),
        visibility="public",
        receipt=SoloStartReceipt(scenario=chosen.id, digest=digest, player=hero["id"], npcs=npcs),
    )
    table = _Table(session, chronicle, chosen, storyteller, member, source)
    table.drive(story.begin(chosen, table.sheets()))
    return {
        "chronicle": made["chronicle"],
        "member": joined["member"],
        "token": joined["token"],
        "state": state(session, member, language, raw=raw),
    }


# --- the table a solo chronicle is -----------------------------------------------------------


def _entries(session: Session, chronicle_id: int) -> list[dict]:
    """What the state is replayed from (S-5): the solo entries and the rolls of checks and extended actions."""
    rows = session.scalars(
        select(LogEntry)
        .where(
            LogEntry.chronicle_id == chronicle_id, or_(LogEntry.kind.in_(SOLO_KINDS), LogEntry.kind == "roll")
        )
        .order_by(LogEntry.seq)
    )
    return [entry_export(row) for row in rows]


class _Table:
    """One solo chronicle while the engine acts on it: the members, the characters, the scenario."""

    def __init__(
        self,
        session: Session,
        chronicle: Chronicle,
        scenario: Scenario,
        storyteller: Caller,
        player: Caller,
        source: DiceSource | None,
        replayed: story.State | None = None,
    ) -> None:
        self.session, self.chronicle, self.scenario = session, chronicle, scenario
        self.storyteller, self.player, self.source = storyteller, player, source
        self.state = replayed or story.replay(_entries(session, chronicle.id))
        self.characters = {WHO_PLAYER: session.get_one(Character, self.state.player)}  # made at the start
        self.characters.update({npc: session.get_one(Character, cid) for npc, cid in self.state.npcs.items()})
        self.last_choice = self.state.last_choice
        self.passage = self.state.passage

    def sheets(self) -> dict:
        return {who: character.sheet for who, character in self.characters.items()}

    def drive(self, steps) -> None:
        with solo_guard.engine_acting(self.session, self.chronicle.id):  # its steps pass the guard (S-8)
            drive(steps, self.perform)

    def _done(self, entry: dict | None) -> Done:
        if entry is None:
            return Done(None, {}, self.sheets())
        made = Logged.of(entry)
        return Done(made.seq, made.stored or {}, self.sheets())

    def perform(self, step) -> Done:
        session, chronicle = self.session, self.chronicle
        if isinstance(step, Choose):
            entry = append_entry(
                session,
                chronicle,
                kind=SOLO_CHOICE,
                actor=actor_of(self.player),
                visibility="public",
                receipt=SoloChoiceReceipt(passage=step.passage, option=step.option),
            )
            self.last_choice = entry.seq
            return Done(entry.seq, entry.receipt, self.sheets())
        if isinstance(step, Roll):
            target = self.characters[step.target].id if step.target else None
            part_of = (self.last_choice, "solo", step.tag) if step.tag else None
            made = rolls.perform_roll(
                session,
                chronicle,
                self.characters[step.who],
                self.storyteller,
                step.action,
                hidden=False,
                role=STORYTELLER,
                stamp={"scenario": self.scenario.id},
                source=self.source,
                follows=step.follows,
                target=target,
                part_of=part_of,
            )
            return self._done(made["entry"])
        if isinstance(step, Adjust):
            by = self.storyteller if step.by == "storyteller" else self.player
            made = characters.adjust(session, by, self.characters[step.who].id, step.change)
            return self._done(made["entry"])
        if isinstance(step, Scene):
            return self._scene(step)
        assert isinstance(step, Arrive)
        entry = append_entry(
            session,
            chronicle,
            kind=SOLO_PASSAGE,
            actor=actor_of(self.storyteller),
            visibility="public",
            receipt=SoloPassageReceipt(
                passage=step.passage, came_from=step.came_from, flags=list(step.flags), ending=step.ending
            ),
        )
        self.passage = step.passage
        self._reveal_names(step.flags)
        if step.ending is not None:  # S-7: an ending reveals the seeds its rolls used (F-5, F-7, F-8)
            fairness.rotate_seed(
                session,
                chronicle,
                actor_of(self.storyteller),
                only_if_used=True,
                reveal_hidden=True,
                revealer=self.storyteller,
            )
        return Done(entry.seq, entry.receipt, self.sheets())

    def _reveal_names(self, flags: tuple[str, ...]) -> None:
        """S-10: an NPC whose ``revealed_by`` flag the story sets now takes its true name in the chronicle."""
        for npc_id, npc in self.scenario.npcs.items():
            if npc.shown_as is not None and npc.revealed_by is not None and npc.revealed_by in flags:
                true_name = npc.name.get(self.scenario.languages[0], npc_id)
                characters.edit_character(  # the sheet's name too: a later fight's scene is named after it
                    self.session,
                    self.storyteller,
                    self.characters[npc_id].id,
                    patch={"name": true_name},
                    name=true_name,
                )

    def _scene(self, step: Scene) -> Done:
        if step.op == "open":  # the fight's scene and its first turn
            scenes.open_scene(self.session, self.storyteller, name=step.name)
            made = scenes.advance_turn(self.session, self.storyteller)
        elif step.op == "turn":
            made = scenes.advance_turn(self.session, self.storyteller)
        else:
            made = scenes.close_scene(self.session, self.storyteller)  # F-5: the seed its rolls used revealed
        for character in self.characters.values():
            self.session.refresh(character)
        return self._done(made.get("entry"))


def _solo_of(
    session: Session, member: Caller, chronicle_id: int | None = None, raw: bytes | None = None
) -> _Table:
    chronicle = find_chronicle(session, member, chronicle_id)
    replayed = story.replay(_entries(session, chronicle.id))
    if replayed.scenario is None:
        raise ProblemError(409, "not_a_solo_chronicle")
    raw = raw if raw is not None else library().get(replayed.scenario)
    if raw is None:
        raise ProblemError(404, "scenario_unknown", scenario=replayed.scenario)
    if _digest(raw) != replayed.digest:  # S-5: the story resumed is the story begun
        raise ProblemError(409, "scenario_changed", scenario=replayed.scenario)
    scenario = _usable(raw)
    # a solo chronicle has its Storyteller and its player from its start (``begin``): the first of each
    storyteller = session.scalars(
        select(Member)
        .where(Member.chronicle_id == chronicle.id, Member.role == STORYTELLER)
        .order_by(Member.id)
        .limit(1)
    ).one()
    player: Caller = (
        member
        if member.role == PLAYER
        else session.scalars(
            select(Member)
            .where(Member.chronicle_id == chronicle.id, Member.role == PLAYER)
            .order_by(Member.id)
            .limit(1)
        ).one()
    )
    return _Table(session, chronicle, scenario, storyteller, player, None, replayed)


# --- act ---------------------------------------------------------------------------------------


def act(
    session: Session,
    member: Caller,
    option: str,
    *,
    lang: str = "en",
    chronicle_id: int | None = None,
    source: DiceSource | None = None,
    raw: bytes | None = None,
    passage: str | None = None,
) -> dict:
    """One choice of the player (``option``: an id ``state`` offered), performed in the caller's transaction.
    ``passage``: the passage the player saw (a page's form): refused when the story has moved on since."""
    if member.role != PLAYER:
        raise ProblemError(403, "solo_player_only")
    lock_chronicle(session, member.chronicle_id)  # one act at a time: the replay below is the truth
    table = _solo_of(session, member, chronicle_id, raw)
    table.source = source
    if passage is not None and passage != table.state.passage and not table.state.finished:
        raise ProblemError(409, "solo_passage_moved", passage=table.state.passage or "")
    try:
        steps = story.act(table.scenario, table.state, option, table.sheets())
        table.drive(steps)
    except RuleError as refused:
        status = 409 if refused.code == "solo_finished" else 422
        raise ProblemError(status, refused.code, **refused.params) from None
    return state(session, member, lang, chronicle_id, raw)


# --- state -------------------------------------------------------------------------------------


def _odds(system: str, request: dict | None) -> dict | None:
    """The exact odds of a scenario's roll before it is made (``rollbook.odds``): success, failure,
    botch; its request read back as the system's rules take it (``solo.system.SoloSystem.REQUEST``)."""
    if not request:
        return None
    plain = {**request, "table_rules": tuple(request.get("table_rules") or ())}
    try:
        computed = odds_for(system, solo_system(system).REQUEST(**plain))
    except (RuleError, TypeError):
        return None
    return {"outcomes": computed["outcomes"], "floats": computed["floats"]}


def _preview_odds(system: str, sheet: dict, action: dict) -> dict | None:
    """The odds of a fight's roll before it is made: its request as the play layer builds it (wound
    penalties included), then ``rollbook.odds``; None when the sheet cannot make it."""
    try:
        return _odds(system, actions.preview(system, sheet, action)["request"])
    except RuleError:
        return None


def _option_view(
    option: dict, scenario: Scenario, sheets: dict, lang: str, passage, flags: frozenset[str] = frozenset()
) -> dict:
    kind = option["kind"]
    view = {**option}
    traits = traits_label(list(option.get("traits") or ()), lang)
    if kind == "choice":
        choice = passage.choices[option["index"]]
        text = pick(choice.text, lang, scenario)
        if choice.willpower_cost:
            text = f"{text} {label('option.willpower_cost', lang, cost=choice.willpower_cost)}"
        view["label"] = text
    elif kind in ("check", "extended"):
        view["label"] = label(
            "option.roll_willpower" if option["willpower"] else "option.roll",
            lang,
            traits=traits,
            difficulty=option["difficulty"],
        )
        request = dict(option["request"])
        if option["willpower"]:
            request["willpower"] = True
            request["willpower_current"] = (sheets[WHO_PLAYER].get("willpower") or {}).get("current")
        view["odds"] = _odds(scenario.system, request)
        view.pop("request", None)
    elif kind == "attack":
        target = npc_name(scenario, option["target"], flags, lang)  # S-10: as the story shows it now
        if option.get("weapon"):
            traits = f"{traits} ({option['weapon']})"
        view["label"] = label(
            "option.attack_willpower" if option["willpower"] else "option.attack",
            lang,
            target=target,
            traits=traits,
            difficulty=option["difficulty"],
        )
        attack = passage.fight.attacks[option["attack"]]
        view["odds"] = _preview_odds(
            scenario.system, sheets[WHO_PLAYER], actions.attack_action(attack, willpower=option["willpower"])
        )
    elif kind == "dodge":
        view["label"] = label("option.dodge", lang)
        view["odds"] = _preview_odds(scenario.system, sheets[WHO_PLAYER], dict(fight.DODGE))
    elif kind == "heal":
        view["label"] = heal_label(option["amount"], option["damage_type"], lang)
    elif kind == "flee":
        view["label"] = label("option.flee", lang)
    elif kind == "forgo":  # a check the sheet cannot make: its failure, said on the button
        view["label"] = label("option.forgo", lang)
    else:
        view["label"] = option["id"]
    return view


def _track(system: str, sheet: dict) -> dict:
    """A character's health track as the chronicle's page shows it, by the scenario's system (V20-16)."""
    health = sheet.get("health") or {}
    damage = sum(health.get(t, 0) for t in ("bashing", "lethal", "aggravated"))
    rules = solo_system(system)
    return {
        "health": {t: health.get(t, 0) for t in ("bashing", "lethal", "aggravated")},
        "damage": damage,
        "level": rules.health_level(damage),
        "wound_penalty": rules.wound_penalty(damage),
        "down": fight.down(system, sheet),
        "blood": sheet.get("blood"),
        "willpower": sheet.get("willpower"),
    }


def state(
    session: Session,
    member: Caller,
    lang: str = "en",
    chronicle_id: int | None = None,
    raw: bytes | None = None,
) -> dict:
    """The solo chronicle as the player sees it now, in ``lang`` (S-5: replayed from the log)."""
    lang = normalize(lang)
    table = _solo_of(session, member, chronicle_id, raw)
    scenario, now = table.scenario, table.state
    sheets = table.sheets()
    passage = story.passage_of(scenario, now)
    choices = [
        _option_view(option, scenario, sheets, lang, passage, now.flags)
        for option in story.options(scenario, now, sheets)
    ]
    npcs = []
    if passage is not None and passage.fight is not None:
        for npc_id in passage.fight.npcs:
            npcs.append(
                {
                    "id": npc_id,
                    "name": npc_name(scenario, npc_id, now.flags, lang),
                    "character": table.characters[npc_id].id,
                    **_track(scenario.system, sheets[npc_id]),
                }
            )
    scene = scenes.open_scene_of(session, table.chronicle.id)
    recent = entries_after(session, member, after=(now.last_choice or 1) - 1, limit=RECENT)
    return {
        "chronicle": table.chronicle.id,
        "scenario": {
            "id": scenario.id,
            "title": pick(scenario.title, lang, scenario),
            "languages": list(scenario.languages),
        },
        "language": lang,
        "passage": {
            "id": now.passage,
            "text": pick(passage.text, lang, scenario) if passage else "",
            "kind": passage.body if passage else None,
        },
        "flags": sorted(now.flags),
        "ending": now.ending,
        "finished": now.finished,
        "choices": choices,
        "character": character_view(table.characters[WHO_PLAYER]),
        "track": _track(scenario.system, sheets[WHO_PLAYER]),
        "npcs": npcs,
        "turn": scene.turn if scene is not None else None,
        "cast": {
            str(character.id): character.name
            if who == WHO_PLAYER
            else npc_name(scenario, who, now.flags, lang)
            for who, character in table.characters.items()
        },
        "extended": story.extended_progress(scenario, now),
        "recent": recent,
    }


def solo_chronicles(session: Session, chronicle_ids: list[int]) -> set[int]:
    """Which of these chronicles are solo ones (their log holds a ``solo_start`` entry): one query, for a
    page that lists a browser's chronicles (the home page links a solo one to its solo table)."""
    if not chronicle_ids:
        return set()
    return set(
        session.scalars(
            select(LogEntry.chronicle_id).where(
                LogEntry.kind == SOLO_START, LogEntry.chronicle_id.in_(chronicle_ids)
            )
        )
    )


def resumable(session: Session, raw: bytes) -> Member | None:
    """The player of the latest solo chronicle of this very file (its digest) whose story has not ended
    (``rollbook solo FILE`` resumes it, S-5), or None."""
    digest = _digest(raw)
    starts = session.scalars(select(LogEntry).where(LogEntry.kind == SOLO_START).order_by(LogEntry.id.desc()))
    for entry in starts:
        if SoloStartReceipt.of(entry.receipt).digest != digest:
            continue
        if story.replay(_entries(session, entry.chronicle_id)).finished:
            continue
        return session.scalars(
            select(Member)
            .where(Member.chronicle_id == entry.chronicle_id, Member.role == PLAYER)
            .order_by(Member.id)
        ).first()
    return None
