"""Reading a chronicle for one viewer: members, characters, the latest log entries as cards.

Everything is read in one read transaction through the server's use cases
(``rollbook.server.usecases``): the web never queries the models.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook import interop
from rollbook.entries import Logged, QuickRollReceipt, RollReceipt, SeedRevealReceipt
from rollbook.play.systems import reads_compulsion
from rollbook.present import authority, exchange, fairness
from rollbook.present.present import Card, Viewer, card
from rollbook.present.sheetview import willpower_current
from rollbook.present.table_face import table_face
from rollbook.server.access import find_chronicle
from rollbook.server.models import Caller, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import authority as authority_cases
from rollbook.server.usecases import characters as characters_cases
from rollbook.server.usecases import (
    chronicles,
    log,
)
from rollbook.server.usecases import (
    compulsions as compulsions_cases,
)
from rollbook.server.usecases import (
    fairness as fairness_cases,
)
from rollbook.server.usecases.checks import DIFFICULTY_SYSTEMS
from rollbook.server.views import member_view
from rollbook.web import redraws

FEED_SIZE = 60
EXCHANGE_READ = 200  # the entries read after an exchange's first step to find its later steps


@dataclass
class CharacterRow:
    id: int
    name: str
    owner: int | None
    difficulty: int | None
    version: int
    sheet: dict | None  # only when the viewer may open it
    may_open: bool
    trait_names: dict = field(default_factory=dict)  # homebrew traits as typed, by id (the sheet's names)


@dataclass
class Table:
    chronicle: dict
    row: Chronicle  # the chronicle's row as ``load`` read it: what reads more in the same read is given it
    me: dict
    members: list[dict]
    characters: list[CharacterRow]
    cards: list[Card] = field(default_factory=list)  # newest first
    head: int = 0
    compulsions: dict = field(
        default_factory=dict
    )  # character id -> its badge (``TableFace.badge``: seed 001)
    reveals: list[tuple[int, SeedRevealReceipt]] | None = (
        None  # read with the feed (``fairness.seed_reveals``)
    )

    def character(self, character_id: int) -> CharacterRow | None:
        return next((c for c in self.characters if c.id == character_id), None)

    def characters_of(self, member_id: int | None) -> list[CharacterRow]:
        return [c for c in self.characters if c.owner == member_id]

    @property
    def npcs(self) -> list[CharacterRow]:
        return [c for c in self.characters if c.owner is None]

    @property
    def standing_field(self) -> bool:
        """Whether the chronicle's rolls take a standing difficulty (its settings offer one)."""
        return self.chronicle["system"] in DIFFICULTY_SYSTEMS

    @property
    def importable(self) -> bool:
        """Whether a format holds the chronicle's system, so a sheet of it may be imported."""
        return self.chronicle["system"] in interop.EXPORTS.values()


def _row(view: dict) -> CharacterRow:
    return CharacterRow(
        view["id"],
        view["name"],
        view["owner"],
        view["difficulty"],
        view["version"],
        view["sheet"],
        view["may_open"],
        view.get("trait_names") or {},
    )


def _characters(session, member: Caller) -> list[CharacterRow]:
    return [_row(view) for view in characters_cases.roster(session, member)]


def roster_rows(session, member: Caller) -> list[CharacterRow]:
    """The chronicle's characters as this member sees them, in a read the caller holds."""
    return _characters(session, member)


def followed_up(session, member: Caller, seqs: list[int]) -> dict[int, int]:
    """seq of a roll -> seq of the reroll that followed it up (V5-8: follow the latest receipt)."""
    return log.followed_up(session, member, seqs)


def last_actions(db, member: Caller, character_id: int) -> list[dict]:
    """The actions of this member's latest rolls for the character, newest first (``log.last_actions``)."""
    with db.read() as session:
        return log.last_actions(session, member, character_id)


def viewer_of(member: Caller, chronicle: dict, lang: str) -> Viewer:
    return Viewer(
        member_id=member.id,
        role=member.role,
        chronicle_id=member.chronicle_id,
        mode=chronicle["mode"],
        lang=lang,
    )


def revealed_seeds(session, member: Caller) -> dict[str, bytes]:
    """The chronicle's revealed server seeds, by commitment (F-5): what a card's fairness state needs."""
    return fairness_cases.revealed_seeds(session, member.chronicle_id)


def fair_state(db, member: Caller, reveals: list[tuple[int, SeedRevealReceipt]] | None = None) -> dict:
    """The chronicle page's fair-dice panel: the commitment in use, the member's client seed, the
    revealed seeds (``usecases.fairness.fair_state``; never the seed in use; ``reveals``: the
    ``Table``'s, read in the same read)."""
    with db.read() as session:
        return fairness_cases.fair_state(session, member, reveals)


def cards_for(
    entries: list[dict],
    viewer: Viewer,
    characters: list[CharacterRow],
    followed: dict[int, int],
    system: str,
    goal: str = "win",
    revealed: dict[str, bytes] | None = None,
) -> list[Card]:
    """The entries (oldest first) as cards; the steps of an exchange go inside its first step's card
    (when it is among them), which offers the next step (``present.exchange``). ``revealed``: the seeds
    revealed so far (``revealed_seeds``), for each roll's fairness state (F-6)."""
    names = {c.id: c.name for c in characters}
    owners = {c.id: c.owner for c in characters}
    willpower = {c.id: willpower_current(system, c.sheet) for c in characters if c.sheet is not None}
    trait_names = {c.id: c.trait_names for c in characters if c.trait_names}
    cards: list[Card] = []
    by_seq: dict[int, Card] = {}
    last: dict[int, tuple[dict, Card]] = {}  # an exchange's (or a card's) last entry, and its card
    drawn: list[tuple[dict, Card]] = []  # each entry with its card (whose root was read once)
    for entry in entries:
        made = card(
            entry,
            viewer,
            characters=names,
            followed=followed,
            willpower=willpower,
            owners=owners,
            goal=goal,
            chronicle_system=system,
            trait_names=trait_names,
        )
        made.fair = fairness.badge(entry, revealed or {}, viewer.lang)
        drawn.append((entry, made))
        by_seq[made.seq] = made
        if made.root is not None and made.root != made.seq and made.root in by_seq:
            by_seq[made.root].steps.append(made)
        else:
            cards.append(made)
        last[made.root if made.root in by_seq else made.seq] = (entry, made)
    for top in cards:
        latest, latest_card = last.get(top.seq, (None, None))
        if latest is not None and latest_card is not None and latest_card.kind in exchange.ROLL_ENTRY_KINDS:
            top.offers = exchange.offers(system, viewer.mode, latest, viewer, characters)
        if top.root == top.seq:  # what the exchange's odds were, beside what happened
            chain = [e for e, c in drawn if c.seq == top.seq or c.root == top.seq]
            top.expected = exchange.expected_view(system, chain, viewer.lang)
    return cards


def exchange_card(
    db, member: Caller, lang: str, root: int, read: tuple[dict, list[CharacterRow]] | None = None
) -> tuple[dict, Card | None]:
    """The whole card of the exchange whose first step is entry ``root`` (None when this viewer does
    not see that entry), and the chronicle (``read``: the chronicle and its characters, as the caller
    read them in the same read)."""
    with db.read() as session:
        if read is None:
            chronicle = chronicles.chronicle_info(session, member)
            characters = _characters(session, member)
        else:
            chronicle, characters = read
        entries = [
            e
            for e in log.entries_after(session, member, root - 1, EXCHANGE_READ)
            if e["seq"] == root or exchange.root_of(e) == root
        ]
        followed = followed_up(session, member, [e["seq"] for e in entries])
        revealed = revealed_seeds(session, member)
    if not entries or entries[0]["seq"] != root or entries[0].get("redacted"):
        return chronicle, None
    made = cards_for(
        entries,
        viewer_of(member, chronicle, lang),
        characters,
        followed,
        chronicle["system"],
        revealed=revealed,
    )
    return chronicle, made[0]


def load(db, member: Caller, lang: str, *, feed: bool = True, row: Chronicle | None = None) -> Table:
    """The chronicle for one viewer, in one read (``row``: the chronicle's, when the caller read it
    there already: a page that found its reader in its read, ``web.deps.PageAccess.read_in``)."""
    with db.read() as session:
        row = row if row is not None else find_chronicle(session, member)
        chronicle = chronicles.info_of(session, row)
        members = chronicles.list_members(session, member)
        characters = _characters(session, member)
        table = Table(
            chronicle=chronicle,
            row=row,
            me=member_view(member),
            members=members,
            characters=characters,
            head=chronicle["log_head"]["seq"],
        )
        face = table_face(chronicle["system"])
        if face is not None and reads_compulsion(
            chronicle["system"]
        ):  # seed 001: a compulsion in force shows beside its character
            table.compulsions = {
                character: face.badge(found, lang)
                for character, found in compulsions_cases.all_in_force(session, member.chronicle_id).items()
            }
        if feed:
            entries = log.entries_after(session, member, max(0, table.head - FEED_SIZE), FEED_SIZE)
            followed = followed_up(session, member, [e["seq"] for e in entries])
            viewer = viewer_of(member, chronicle, lang)
            table.reveals = fairness_cases.seed_reveals(session, member.chronicle_id)
            table.cards = list(
                reversed(
                    cards_for(
                        entries,
                        viewer,
                        characters,
                        followed,
                        chronicle["system"],
                        revealed=fairness_cases.seeds_of(table.reveals),
                    )
                )
            )
    return table


def revealed_rolls(
    db,
    member: Caller,
    reveal: Logged,
    viewer: Viewer,
    characters: list[CharacterRow],
    system: str,
    revealed: dict[str, bytes] | None = None,
) -> list[Card]:
    """The cards of the feed's rolls made under the seed a ``seed_reveal`` entry reveals, drawn again
    with their new fairness state (the live feed replaces them out of band). ``revealed``: the seeds
    revealed (``revealed_seeds``), when the caller read them in the same read."""
    revealed_seed = reveal.read()
    commitment = revealed_seed.commitment if isinstance(revealed_seed, SeedRevealReceipt) else None
    with db.read() as session:
        entries = []
        for e in log.entries_after(session, member, max(0, reveal.seq - FEED_SIZE), FEED_SIZE):
            logged = Logged.of(e)
            if logged.seq >= reveal.seq or logged.redacted or logged.kind not in log.ROLL_ENTRY_KINDS:
                continue  # F-6: only a roll's receipt carries a fair record
            rolled = logged.read()
            fair = rolled.fair if isinstance(rolled, RollReceipt | QuickRollReceipt) else None
            if fair is not None and fair.get("commitment") == commitment:
                entries.append(e)
        followed = followed_up(session, member, [e["seq"] for e in entries])
        revealed = revealed if revealed is not None else revealed_seeds(session, member)
    return [
        card
        for card in cards_for(entries, viewer, characters, followed, system, revealed=revealed)
        if card.root is None or card.root == card.seq
    ]


def held_checks(system: str, sheet: dict, lang: str, role: str) -> list:
    """The roll form's tick-boxes of things the sheet holds (roll-under cards), one per field name, as
    a fresh form draws them: the live feed redraws them out of band when the sheet changes (a card
    granted, removed or used up), so an open form offers what is held now."""
    from rollbook.present import forms

    out, seen = [], set()
    for kind in forms.action_kinds(system, role):
        for f in forms.fields_for(system, forms.schema_for(system, "actions", kind), sheet, lang):
            if f.widget == "checks" and f.name not in seen:
                seen.add(f.name)
                out.append(f)
    return out


def takes_step(entry: Logged | dict) -> bool:
    """A roll that takes a step another entry's card offered (a hunger frenzy test, V5-10; an extended
    action's roll, TR-4; a contest's side, TR-3): that card is redrawn with what it still offers.
    ``entry``: read once (``Logged``) by a caller that reads it for more, or as the log gives it."""
    logged = entry if isinstance(entry, Logged) else Logged.of(entry)
    if logged.kind != "roll" or not logged.refers_to:
        return False
    roll = logged.read()
    return isinstance(roll, RollReceipt) and any(
        isinstance(note, dict) for note in (roll.frenzy_test, roll.extended, roll.contest)
    )


def live_item(db, member: Caller, lang: str, entry: dict, character_id: int | None = None) -> dict[str, Any]:
    """What a live card needs for one new entry (the server-sent events): the card, the card it
    follows up or reveals (to replace it), and — on a sheet's page — the sheet's new resources and
    the roll form's tick-boxes of things held. Read in one read transaction, each row once."""
    with db.one_read() as db:
        return live_item_in(db, member, lang, entry, character_id)


def live_item_in(db, member: Caller, lang: str, entry: dict, character_id: int | None) -> dict[str, Any]:
    """``live_item`` read through ``db``, a read the caller holds (``Database.one_read``'s)."""
    logged = Logged.of(entry)
    with db.read() as session:
        found = find_chronicle(session, member)
        chronicle = chronicles.info_of(session, found)
        characters = _characters(session, member)
        refers = logged.refers_to
        followed = followed_up(session, member, [logged.seq] + ([refers] if refers else []))
        revealed = revealed_seeds(session, member)
        earlier = None
        if refers and (logged.kind in ("reveal", "reroll") or takes_step(logged)):
            try:
                earlier = log.log_entry(session, member, refers)
            except ProblemError:  # an entry this viewer may not see
                earlier = None
    viewer = viewer_of(member, chronicle, lang)
    system = chronicle["system"]
    item: dict[str, Any] = {"chronicle": chronicle}
    if earlier is not None:
        key = "revealed" if logged.kind == "reveal" else "original"
        item[key] = cards_for([earlier], viewer, characters, followed, system, revealed=revealed)[0]
    root = exchange.root_of(entry)
    if root is not None and root != logged.seq:  # a step of an exchange: its whole card, redrawn in place
        _, whole = exchange_card(db, member, lang, root, (chronicle, characters))
        if whole is not None:
            item["exchange"] = whole
    item["card"] = cards_for([entry], viewer, characters, followed, system, revealed=revealed)[0]
    if logged.kind == fairness.SEED_REVEAL:  # F-5: the rolls under the seed just revealed, verified in place
        item["refreshed"] = revealed_rolls(db, member, logged, viewer, characters, system, revealed)
    # an ask or a decision redraws the queue; a scene, a turn or a standing grant the scene
    # bar and the standing grants (out of band, for everyone on the page).
    item["queue"] = logged.kind in authority.QUEUE_KINDS
    item["scene"] = logged.kind in authority.SCENE_KINDS
    # a sheet's page has no standing-grants panel; a standing grant that
    # starts or ends redraws its roll form instead, whose edges start from the new baseline.
    item["on_sheet"] = character_id is not None
    item["redraws"] = redraws.for_entry(entry, member.chronicle_id, character_id)
    if item["queue"] or item["scene"]:
        with db.read() as session:
            members = chronicles.list_members(session, member)
            state = authority_cases.table_state(session, member, found)
        item["panel"] = authority.panel(db, member, lang, chronicle, characters, members, state)
    if character_id is not None and logged.character == character_id:
        row = next((c for c in characters if c.id == character_id), None)
        if row is not None and row.sheet is not None:
            item["resources"] = row
            item["checks"] = held_checks(system, row.sheet, lang, member.role)
    return item
