"""Log entries as cards for the pages and the live feed (one viewer, one language)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rollbook.entries import (
    AdjustReceipt,
    Logged,
    MemberRemovedReceipt,
    QuickRollReceipt,
    QuickSettingReceipt,
    RemovalReceipt,
    RevealReceipt,
    RollReceipt,
    SheetEditReceipt,
)
from rollbook.fair import SEED_COMMIT
from rollbook.i18n import GAME_MASTER_SYSTEMS, N_, game_master_words, labelled, translate
from rollbook.i18n.messages_security import MEMBER_REMOVED
from rollbook.present import authority, contests, exchange, fairness, labels, solo_cards
from rollbook.present.preview import AdviceView, describe_pool, plural, reroll_advice
from rollbook.present.sheetview import power_words
from rollbook.present.table_face import entry_face, table_face
from rollbook.present.titles import roll_title
from rollbook.present.words import words
from rollbook.render import ReceiptView
from rollbook.render import interop as render_interop
from rollbook.render import view as receipt_view
from rollbook.server.views import FollowUps

STORYTELLER = "storyteller"
# What a player reads of a hidden entry they may not open: its kind in words
REDACTED_TITLES = {
    # a redacted roll names no one (it may be the reader's own, granted hidden)
    "roll": N_("A hidden roll"),
    "ask": N_("A hidden ask"),
    "grant": N_("A hidden ask granted"),
    "refusal": N_("A hidden ask refused"),
    "withdrawal": N_("A hidden ask withdrawn"),
    "sheet_edit": N_("A character sheet changed"),
    "removal": N_("A character removed from the table"),
}
GOALS = ("win", "clean", "crit")


@dataclass
class Viewer:
    member_id: int
    role: str
    chronicle_id: int
    mode: str
    lang: str

    @property
    def storyteller(self) -> bool:
        return self.role == STORYTELLER


@dataclass
class Card:
    seq: int
    kind: str
    created_at: str
    time: str
    actor: str = ""
    actor_role: str = ""
    by: str = ""  # who heads the card when it is not the character (the Storyteller's decisions)
    character: str = ""
    player: str = ""  # who played the character then, when it is no longer theirs (removed, given)
    # the Storyteller acted for a player's character: "(by the Storyteller)", not "(Storyteller)" as if
    # the character were the Storyteller's
    for_player: bool = False
    character_id: int | None = None
    hidden: bool = False
    redacted: bool = False
    revealed_by: int | None = None
    refers_to: int | None = None
    followed_by: int | None = None
    title: str = ""
    receipt: ReceiptView | None = None
    extra: list[tuple[str, ReceiptView]] = field(default_factory=list)
    pool: str = ""
    settings: str = ""
    effects: list[str] = field(default_factory=list)
    change: str = ""
    can_reroll: bool = False
    can_reveal: bool = False
    reroll_blocked: str = ""
    normal: list[int] = field(default_factory=list)
    hunger: list[int] = field(default_factory=list)
    advice: AdviceView | None = None
    system: str = ""
    notes: list[str] = field(default_factory=list)  # the grant a roll used, per-turn warnings
    fair: fairness.FairBadge | None = None  # F-6: the roll's fairness state (set by table.cards_for)
    # the combat chain (V20-17, T-4, T-5; present.exchange): the later steps of this card's exchange, the
    # next steps this viewer may take, the seq of the exchange's first step, the attack's target
    steps: list[Card] = field(default_factory=list)
    offers: list = field(default_factory=list)
    root: int | None = None
    target: str = ""
    expected: object | None = None  # present.exchange.ExpectedView, the odds beside what happened
    buttons: list = field(
        default_factory=list
    )  # TR-3, TR-4: a side's roll, an extended action's next (present.contests)

    @property
    def dom_id(self) -> str:
        return f"entry-{self.seq}"


def _time(stamp: str) -> str:
    # "2025-01-31T20:15:03.123456Z" -> "20:15:03" (UTC, as stored)
    return stamp[11:19] if len(stamp) >= 19 else stamp


def effect_text(effect: dict, lang: str) -> str:
    if "flag" in effect:
        text = labels.FLAGS.get(effect["flag"])
        return translate(text, lang) if text else labels.readable(effect["flag"])
    name = labels.resource(str(effect.get("resource", "")), lang)
    before, after = effect.get("before"), effect.get("after")
    if effect.get("weapon"):
        name = f"{name} ({effect['weapon']})"
    text = translate(
        N_("{name}: {before} → {after}"),
        lang,
        name=name,
        before=_value(before, lang),
        after=_value(after, lang),
    )
    if effect.get("cost"):
        text += " (" + translate(N_("{n} XP"), lang, n=effect["cost"]) + ")"
    return text


def _value(value, lang: str = "en") -> str:
    """A value in an effect or a change: nothing (a card played, a field left out) is a dash; a yes or no
    in words ("Tour utilisé : oui → non", not "True → False")."""
    if isinstance(value, bool):
        return translate(N_("yes") if value else N_("no"), lang)
    return "—" if value is None else str(value)


def _settings(system: str, action: dict, roll: RollReceipt, lang: str) -> str:
    """The options a roll was made with, in words (difficulty, specialty, Willpower, …)."""
    parts = []
    result = roll.result or {}
    difficulty = words(system).difficulty(action, roll.kind, result, lang)  # V20-2, V5-2
    if difficulty is not None:
        parts.append(difficulty)
    if action.get("specialty"):
        parts.append(translate(N_("specialty: {name}"), lang, name=action["specialty"]))
    if action.get("willpower") is True:
        parts.append(translate(N_("Willpower spent"), lang))
    if action.get("blood_surge"):
        parts.append(translate(N_("Blood Surge"), lang))
    if action.get("bullets"):
        parts.append(
            plural(lang).ngettext("{n} bullet", "{n} bullets", action["bullets"]).format(n=action["bullets"])
        )
    if action.get("advantage"):
        parts.append(translate(N_("advantage"), lang))
    if action.get("disadvantage"):
        parts.append(translate(N_("disadvantage"), lang))
    return " · ".join(parts)


def _change_value(key: str, value, lang: str) -> str:
    if isinstance(value, str):  # a choice in words; a name (a weapon, a homebrew trait) as typed
        known = value in labels.CHOICES or value in labels.TRAITS
        return labels.choice(value, lang, key) if known else value
    if isinstance(value, dict) and value.get("name"):  # a card granted (roll-under)
        return str(value["name"])
    if isinstance(value, bool):
        return translate(N_("yes") if value else N_("no"), lang)
    return str(value)


STORYTELLER_HEADED = ("grant", "refusal", "standing_grant", "standing_end", "sheet_edit")


def card(
    entry: dict,
    viewer: Viewer,
    *,
    characters: dict[int, str],
    followed: dict[int, int],
    willpower: Mapping[int, int | None] | None = None,
    owners: dict[int, int | None] | None = None,
    goal: str = "win",
    chronicle_system: str = "",
    trait_names: dict[int, dict] | None = None,
) -> Card:
    """One log entry (``views.entry_view``) as this viewer may see it; a step its card offered that
    is taken (``followed.taken``: a hunger frenzy test called, an extended action over, a contest's
    side rolled) is no longer offered."""
    lang = viewer.lang
    taken = followed.taken if isinstance(followed, FollowUps) else frozenset()
    logged = Logged.of(entry)
    actor = logged.actor or {}
    created_at = logged.created_at or ""
    c = Card(
        seq=logged.seq,
        kind=logged.kind,
        created_at=created_at,
        time=_time(created_at),
        actor=actor.get("name", ""),
        actor_role=actor.get("role", ""),
        character_id=logged.character,
        hidden=logged.visibility == "hidden",
        redacted=bool(logged.redacted),
        revealed_by=logged.revealed_by,
        refers_to=logged.refers_to,
        followed_by=followed.get(logged.seq),
    )
    if c.character_id is not None:
        c.character = characters.get(c.character_id, "")
        # a removed player's receipts name him, not only the character another member plays now
        if (
            actor.get("role") == "player"
            and owners
            and c.character_id in owners
            and owners[c.character_id] != actor.get("member")
        ):
            c.player = actor.get("name", "")
        owner = (owners or {}).get(c.character_id)
        c.for_player = actor.get("role") == STORYTELLER and owner is not None and owner != actor.get("member")
    # the Storyteller's decisions and edits are headed with the Storyteller's name, not the
    # character's; a seed commit is the table's dice (F-1), not the first player whose roll drew it
    if c.kind in STORYTELLER_HEADED and c.actor_role == "storyteller":
        c.by = c.actor
    elif c.kind == SEED_COMMIT:
        c.by = translate(N_("Storyteller"), lang)
        if chronicle_system in GAME_MASTER_SYSTEMS:  # the seeds' "MJ" in Tiers and roll-under
            c.by = game_master_words(c.by, lang)
    if c.redacted:  # its kind is all a player reads of it
        c.title = translate(REDACTED_TITLES.get(c.kind, REDACTED_TITLES["roll"]), lang)
        return c
    receipt = logged.stored or {}
    c.effects = [effect_text(e, lang) for e in logged.effects or []]
    if c.kind in fairness.FAIR_KINDS:  # a seed committed or revealed, a client seed set (F-1, F-2, F-5)
        c.title, c.change = fairness.describe_entry(c.kind, receipt, lang)
        return c
    if c.kind in authority.AUTHORITY_KINDS:  # asks, decisions, standing grants, scenes, turns (A-1..A-4)
        c.system = chronicle_system
        names = (trait_names or {}).get(c.character_id) if c.character_id is not None else None
        c.title, c.change = authority.describe_entry(
            chronicle_system, c.kind, receipt, lang, characters, names
        )
        return c
    if c.kind in solo_cards.KINDS:  # a solo chronicle's story
        c.title, c.change = solo_cards.describe_entry(c.kind, receipt, lang)
        return c
    if c.kind in render_interop.INTEROP_KINDS:  # a sheet imported or exported
        c.title, c.change = render_interop.describe_entry(c.kind, receipt, lang)
        return c
    if c.kind in contests.KINDS:  # settings, contests (TR-3), extended actions (TR-4)
        c.system = chronicle_system
        if c.kind == "contest_result":
            c.title, c.change = contests.contest_result_words(receipt, lang, characters)
        else:
            c.title, c.change = contests.describe_entry(c.kind, receipt, lang)
        c.buttons = contests.buttons(
            c.kind,
            c.seq,
            receipt,
            viewer.chronicle_id,
            storyteller=viewer.storyteller,
            member_id=viewer.member_id,
            owners=owners or {},
            lang=lang,
            taken=taken,
        )
        return c
    own = entry_face(c.kind)
    if own is not None:  # a system's own entry (V5's compulsion called or ended, seed 001)
        c.system = chronicle_system
        c.title, c.change = own.describe_entry(c.kind, receipt, lang, characters)
        return c
    if c.kind == "member_removed":
        c.title = translate(MEMBER_REMOVED, lang, name=MemberRemovedReceipt.of(receipt).name or "")
        return c
    if c.kind == "reveal":
        c.title = translate(N_("Revealed roll #{seq}"), lang, seq=RevealReceipt.of(receipt).reveals)
        return c
    if c.kind == "quick_setting":  # the Storyteller allows or forbids the players' quick rolls
        allowed = QuickSettingReceipt.of(receipt).allowed
        c.title = translate(
            N_("Quick rolls allowed to the players")
            if allowed
            else N_("Quick rolls forbidden to the players"),
            lang,
        )
        return c
    if c.kind == "quick_roll":  # dice without a sheet: what was asked, and the rules receipt
        quick_roll = QuickRollReceipt.of(receipt)
        quick = quick_roll.quick
        c.system = quick.get("system", chronicle_system)
        c.title = translate(N_("Quick roll, no sheet: {what}"), lang, what=quick_words(quick, lang))
        result = quick_roll.result
        if isinstance(result, dict) and result.get("system"):
            c.receipt = receipt_view(result, lang)
        c.can_reveal = viewer.storyteller and c.hidden and c.revealed_by is None
        return c
    if c.kind == "sheet_edit":  # who changed which field from what to what
        c.title = translate(N_("Sheet edited"), lang)
        c.effects = []
        names = (trait_names or {}).get(c.character_id) if c.character_id is not None else None
        c.change = " · ".join(
            labelled(
                _edited_field(ch.get("field", ""), lang, names),
                f"{_edited(chronicle_system, ch.get('field', ''), ch.get('before'), lang, names)} → "
                f"{_edited(chronicle_system, ch.get('field', ''), ch.get('after'), lang, names)}",
                lang,
            )
            for ch in SheetEditReceipt.of(receipt).changes
            if not str(ch.get("field", "")).startswith("names.")
        )  # shown by the trait itself
        return c
    if c.kind == "removal":
        c.title = translate(N_("Character removed: {name}"), lang, name=RemovalReceipt.of(receipt).name or "")
        return c
    if c.kind == "adjust":
        adjusted = AdjustReceipt.of(receipt)
        c.system = system = adjusted.system or ""
        change = adjusted.change or {}
        c.title = labels.kind(system, change.get("kind", adjusted.kind or ""), lang)
        details = [
            labelled(labels.field(k, lang), _change_value(k, v, lang), lang)
            for k, v in change.items()
            if k != "kind" and v is not None
        ]
        c.change = " · ".join(details)
        return c
    # a roll or a reroll: the rules receipt rendered with rollbook.render.view
    roll = RollReceipt.of(receipt)
    c.system = system = roll.system
    result = roll.result
    if isinstance(result, dict) and result.get("system"):
        c.receipt = receipt_view(result, lang)
    action = roll.action or {}
    names = (
        (trait_names or {}).get(c.character_id) if c.character_id is not None else None
    )  # homebrew, as typed
    c.title = roll_title(system, roll.kind, action, lang, names, roll.power)
    c.root = exchange.root_in(c.seq, roll)
    target = (roll.exchange or {}).get("target")
    if target is not None and c.root == c.seq:
        c.target = characters.get(target, "")
    if c.kind == "reroll":
        c.title = translate(N_("Willpower reroll of #{seq}"), lang, seq=c.refers_to) + " — " + c.title
    c.pool = describe_pool(roll.pool or {}, lang, system, names)
    c.settings = _settings(system, action, roll, lang)
    face = table_face(system)
    c.notes = (
        authority.roll_notes(system, roll, lang)
        + contests.roll_note(roll, lang)
        + (face.roll_notes(receipt, lang) if face is not None else [])
        + exchange.roll_notes(system, receipt, lang)
    )
    if (
        c.followed_by is None and face is not None
    ):  # seed 001, V5-10: the latest receipt of a roll may call for a compulsion or frenzy
        c.buttons = face.roll_buttons(
            receipt,
            c.seq,
            c.character_id,
            viewer.chronicle_id,
            storyteller=viewer.storyteller,
            lang=lang,
            effects=logged.effects or [],
            frenzy_called=(c.seq, "") in taken,
        )
    rouse = roll.rouse
    if isinstance(rouse, dict) and isinstance(rouse.get("result"), dict):
        c.extra.append(
            (translate(N_("Rouse check for the Blood Surge"), lang), receipt_view(rouse["result"], lang))
        )
    # V5-8: the Willpower reroll, offered to whoever may act for the character
    # a power's roll is a test (a power that rolls nothing has only its Rouse check: no reroll)
    rolled_test = roll.kind in words(system).REROLL_KINDS
    if rolled_test and isinstance(result, dict) and result.get("kind", "test") == "test":
        c.normal = list(result.get("normal", []))
        c.hunger = list(result.get("hunger", []))
        owner = (owners or {}).get(c.character_id) if c.character_id is not None else None
        may_act = viewer.storyteller or (owner is not None and owner == viewer.member_id)
        mode = result.get("mode") or (roll.request or {}).get("mode")
        strict_done = mode == "strict" and bool(result.get("rerolls"))  # V5-8: Strict allows one reroll
        if may_act and c.followed_by is None and not strict_done and c.normal:
            c.can_reroll = True
            current = (willpower or {}).get(c.character_id) if c.character_id is not None else None
            if current is not None and current <= 0:
                c.reroll_blocked = translate(N_("No Willpower left to spend."), lang)
            c.advice = reroll_advice(result, goal, [], lang)
    c.can_reveal = viewer.storyteller and c.hidden and c.revealed_by is None
    return c


def quick_words(quick: dict, lang: str) -> str:
    """A quick roll in the game's words: "6 dice, Hunger 2", "5 dice, difficulty 7", "skill 60 +5"."""
    return words(quick.get("system")).quick(quick, lang)


def _edited_field(path: str, lang: str, names: dict | None = None) -> str:
    if path in labels.FIELDS:
        return labels.field(path, lang)
    return labels.resource(path, lang, names)


def _edited(system: str, path: str, value, lang: str, names: dict | None = None) -> str:
    """A value of a sheet edit in words; the powers as "Auspex 1: Sens accrus", a homebrew one as typed."""
    if path == "powers" and isinstance(value, list):
        return (
            ", ".join(
                labelled(
                    f"{labels.trait(str(p.get('discipline')), lang, names)} {p.get('level')}",
                    power_words(system, p, lang),
                    lang,
                )
                for p in value
                if isinstance(p, dict)
            )
            or "—"
        )
    return _edited_value(value, lang, names)


def _edited_key(key: str, lang: str, names: dict | None = None) -> str:
    if key in labels.FIELDS and key not in labels.TRAITS:
        return labels.field(key, lang)
    return labels.trait(key, lang, names)


def _edited_value(value, lang: str, names: dict | None = None) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list):
        return ", ".join(_edited_value(v, lang, names) for v in value) or "—"
    if isinstance(value, dict):  # a weapon's fields by their labels ("Capacité du chargeur 6"), else traits
        return (
            ", ".join(
                f"{_edited_key(k, lang, names)} {_edited_value(v, lang, names)}" for k, v in value.items()
            )
            or "—"
        )
    if value == "":
        return "—"
    return str(value)
