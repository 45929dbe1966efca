"""The table's authority on the web pages (SPEC A-1 … A-4): the Storyteller's queue of asks, the
scene and turn bar, the standing grants, the log's new kinds of entries as cards, and the roll
form's "ask the Storyteller".

The words are the games' own: the Storyteller of the Vampire games (Conteur, Narrador), the game
master of the Tiers and roll-under games (MJ, DJ) — ``storyteller_word``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook import play
from rollbook.entries import (
    RECEIPTS,
    ActionsReceipt,
    AskReceipt,
    GrantReceipt,
    RefusalReceipt,
    RollReceipt,
    SceneCloseReceipt,
    SceneOpenReceipt,
    StandingEndReceipt,
    StandingGrantReceipt,
    TurnReceipt,
    WithdrawalReceipt,
    receipt_of,
)
from rollbook.i18n import GAME_MASTER_SYSTEMS as GAME_MASTERS
from rollbook.i18n import N_, labelled, translate
from rollbook.play import authority as edges_of
from rollbook.present import forms, labels
from rollbook.present.preview import OddsView, odds_view, plural
from rollbook.present.titles import roll_title
from rollbook.rules.base import RuleError
from rollbook.server.usecases import authority as authority_cases

GAME_MASTER_SYSTEMS = GAME_MASTERS
AUTHORITY_KINDS = (
    "ask",
    "grant",
    "refusal",
    "withdrawal",
    "standing_grant",
    "standing_end",
    "scene_open",
    "turn",
    "scene_close",
    "actions",
)
QUEUE_KINDS = ("ask", "grant", "refusal", "withdrawal")
SCENE_KINDS = ("scene_open", "turn", "scene_close", "standing_grant", "standing_end")
YES = ("on", "true", "yes", "1", "oui", "sí", "si")
NO = ("off", "false", "no", "0", "non")
STORYTELLER_LABELS = {"storyteller": N_("Storyteller"), "game_master": N_("game master")}


def ticked(value: Any) -> bool:
    """A posted checkbox (the last of repeated values: a hidden "off" then "on")."""
    if isinstance(value, (list, tuple)):
        value = value[-1] if value else None
    return value is not None and str(value).strip().lower() in YES


def storyteller_word(system: str, lang: str) -> str:
    """The Storyteller (V20, V5: Conteur, Narrador) or the game master (Tiers, roll-under: MJ, DJ)."""
    key = "game_master" if system in GAME_MASTER_SYSTEMS else "storyteller"
    return translate(STORYTELLER_LABELS[key], lang)


def ask_button(system: str, lang: str) -> str:
    if system in GAME_MASTER_SYSTEMS:
        return translate(N_("Ask the game master"), lang)
    return translate(N_("Ask the Storyteller"), lang)


# --- edges in words -------------------------------------------------------------------------


def edge_words(system: str, edges: dict, lang: str) -> list[str]:
    """Each edge as a few words: "+2 dice", "difficulty 7", "advantage", "a hidden roll"."""
    words = []
    forms_of = plural(lang)
    for name, value in edges.items():
        if name == "modifier" and isinstance(value, int):
            text = forms_of.ngettext("{n} die", "{n} dice", abs(value)).format(
                n=f"{value:+d}".replace("-", "−")
            )
        elif name == "difficulty":
            text = translate(N_("difficulty {d}"), lang, d=value)
        elif name == "required" and isinstance(value, int):
            text = forms_of.ngettext("{n} success required", "{n} successes required", value).format(n=value)
        elif name == "auto_successes" and isinstance(value, int):
            text = forms_of.ngettext("{n} automatic success", "{n} automatic successes", value).format(
                n=value
            )
        elif name == "knowledge_allowed":
            text = translate(
                N_("an untrained Knowledge allowed") if value else N_("no untrained Knowledge"), lang
            )
        elif name == "advantage":
            text = translate(N_("advantage") if value else N_("no advantage"), lang)
        elif name == "disadvantage":
            text = translate(N_("disadvantage") if value else N_("no disadvantage"), lang)
        elif name == "bonus":
            text = translate(N_("bonus +{n}"), lang, n=value)
        elif name == "malus":
            text = translate(N_("malus −{n}"), lang, n=value)
        elif name == "task":
            text = {
                "absurd": translate(N_("an absurd task"), lang),
                "trivial": translate(N_("a trivial task"), lang),
            }.get(value, translate(N_("a normal task"), lang))
        elif name == "dice":
            text = translate(N_("dice {dice}"), lang, dice=value)
        elif name == "threshold":
            text = translate(N_("threshold {n}"), lang, n=value)
        elif name == "hidden":
            text = translate(N_("a hidden roll") if value else N_("an open roll"), lang)
        else:
            text = labelled(labels.field(name, lang), value, lang)
        words.append(text)
    return words


def edges_text(system: str, edges: dict, lang: str) -> str:
    return ", ".join(edge_words(system, edges, lang)) or translate(N_("nothing more"), lang)


def action_title(system: str, action: dict, lang: str, names: dict | None = None) -> str:
    """An asked roll in a few words; ``names``: the sheet's homebrew traits as typed."""
    return roll_title(system, action.get("kind"), action, lang, names)


# --- the Storyteller's queue --------------------------------------------------------------------


@dataclass
class AskView:
    id: int
    seq: int
    character: str
    character_id: int
    title: str
    asked: str
    who: str = ""
    pool: str = ""
    odds: OddsView | None = None
    baseline_odds: OddsView | None = None
    change_fields: list[forms.FieldView] = field(default_factory=list)
    status: str = "pending"

    @property
    def dom_id(self) -> str:
        return f"ask-{self.id}"


def odds_of(system: str, sheet: dict, action: dict, mode: str, lang: str) -> tuple[OddsView | None, str]:
    """The exact odds of an action on a sheet (as the Storyteller would roll it), and its pool in words."""
    from rollbook.present.preview import describe_pool

    try:
        built = play.preview(system, sheet, action, mode=mode, role="storyteller")
    except RuleError:  # a sheet that changed since the ask: the queue still shows the ask, without odds
        return None, ""
    return odds_view(built, lang), describe_pool(built.get("pool") or {}, lang, system, sheet.get("names"))


def change_fields(system: str, kind: str, asked: dict, sheet: dict, lang: str) -> list[forms.FieldView]:
    """The grant-changed form of an ask: each asked edge, pre-filled with what was asked."""
    schema = forms.schema_for(system, "actions", kind)
    names = [name for name in asked if name != edges_of.HIDDEN]
    fields = [f for f in forms.fields_for(system, schema, sheet, lang, asked) if f.name in names]
    if edges_of.HIDDEN in asked:
        fields.append(
            forms.FieldView(
                edges_of.HIDDEN, translate(N_("Hidden roll"), lang), "checkbox", bool(asked[edges_of.HIDDEN])
            )
        )
    return fields


def granted_edges(system: str, kind: str, asked: dict, form: dict) -> dict:
    """The edges of a grant-changed form: the asked edges' fields, typed by the action's schema."""
    schema = forms.schema_for(system, "actions", kind)
    names = [name for name in asked if name != edges_of.HIDDEN]
    subset = {
        "properties": {name: spec for name, spec in schema.get("properties", {}).items() if name in names},
        "$defs": schema.get("$defs", {}),
    }
    parsed = forms.parse_form(subset, form, kind)
    parsed.pop("kind", None)
    if edges_of.HIDDEN in asked and ticked(form.get(edges_of.HIDDEN)):
        parsed[edges_of.HIDDEN] = True
    return parsed


def ask_views(
    system: str,
    asks: list[dict],
    sheets: dict[int, dict],
    names: dict[int, str],
    mode: str,
    lang: str,
    *,
    members: dict[int, str] | None = None,
) -> list[AskView]:
    """The asks waiting, oldest first, with what they ask in words and the odds as asked."""
    views = []
    for ask in sorted(asks, key=lambda a: a["id"]):
        sheet = sheets.get(ask["character"]) or {}
        view = AskView(
            id=ask["id"],
            seq=ask["seq"],
            character=names.get(ask["character"], ""),
            character_id=ask["character"],
            title=action_title(system, ask["player"], lang, sheet.get("names")),
            asked=edges_text(system, ask["asked"], lang),
            who=(members or {}).get(ask["member"], ""),
            status=ask["status"],
        )
        if ask.get("action"):
            view.odds, view.pool = odds_of(system, sheet, ask["action"], mode, lang)
        if ask.get("at_baseline"):
            view.baseline_odds, _ = odds_of(system, sheet, ask["at_baseline"], mode, lang)
        view.change_fields = change_fields(system, ask["kind"], ask["asked"], sheet, lang)
        views.append(view)
    return views


# --- the log's authority entries as cards ----------------------------------------------------------


def describe_entry(
    system: str, kind: str, receipt: dict, lang: str, characters: dict[int, str], names: dict | None = None
) -> tuple[str, str]:
    """(title, line) of an ask, decision, standing grant, scene or turn entry; ``names``: the homebrew
    traits of the entry's character, as typed."""
    gm = storyteller_word(system, lang)
    if kind not in RECEIPTS:
        return kind, ""
    read = receipt_of(kind, receipt)
    if isinstance(read, AskReceipt):
        return (
            translate(
                N_("Asks the {gm}: {title}"),
                lang,
                gm=gm,
                title=action_title(system, read.player, lang, names),
            ),
            edges_text(system, read.asked, lang),
        )
    if isinstance(read, GrantReceipt):
        if read.decision == "as_asked":
            return (
                translate(N_("Granted by the {gm} (ask #{seq})"), lang, gm=gm, seq=read.ask_seq),
                edges_text(system, read.granted, lang),
            )
        return (
            translate(N_("Granted, changed, by the {gm} (ask #{seq})"), lang, gm=gm, seq=read.ask_seq),
            translate(
                N_("{granted} (asked: {asked})"),
                lang,
                granted=edges_text(system, read.granted, lang),
                asked=edges_text(system, read.asked, lang),
            ),
        )
    if isinstance(read, RefusalReceipt):
        reason = read.reason or ""
        return (
            translate(N_("Refused by the {gm} (ask #{seq})"), lang, gm=gm, seq=read.ask_seq),
            edges_text(system, read.asked, lang) + (f" — {reason}" if reason else ""),
        )
    if isinstance(read, WithdrawalReceipt):
        return (
            translate(N_("Ask #{seq} withdrawn"), lang, seq=read.ask_seq),
            edges_text(system, read.asked, lang),
        )
    if isinstance(read, StandingGrantReceipt):
        character = read.character
        who = characters.get(character, "") if character else translate(N_("every character"), lang)
        scope = translate(N_("for this scene"), lang) if read.scene else translate(N_("until ended"), lang)
        return (
            translate(N_("Standing grant for {who}"), lang, who=who),
            f"{edges_text(system, read.edges, lang)} · {scope}",
        )
    if isinstance(read, StandingEndReceipt):
        return translate(N_("Standing grant #{id} ended"), lang, id=read.standing), ""
    if isinstance(read, SceneOpenReceipt):
        return translate(N_("Scene {n} opens"), lang, n=read.scene), read.name or ""
    if isinstance(read, TurnReceipt):
        cleared = read.new_turn or []
        line = ""
        if cleared:
            line = translate(
                N_("A new turn: {names} may act again."),
                lang,
                names=", ".join(characters.get(c.character, "") for c in cleared),
            )
        return translate(N_("Scene {n}, turn {t}"), lang, n=read.scene, t=read.turn), line
    if isinstance(read, SceneCloseReceipt):
        turns = read.turns or 0
        return translate(N_("Scene {n} closes"), lang, n=read.scene), plural(lang).ngettext(
            "{n} turn", "{n} turns", turns
        ).format(n=turns)
    if isinstance(read, ActionsReceipt):
        count = read.actions or 1
        return (
            translate(N_("Multiple actions this turn"), lang),
            plural(lang).ngettext("{n} action", "{n} actions", count).format(n=count),
        )
    return kind, ""


def roll_notes(system: str, roll: RollReceipt, lang: str) -> list[str]:
    """Lines under a roll's card: the grant it used (A-2) and the per-turn warnings (V20-9)."""
    from rollbook.i18n.messages_authority import warning_text

    notes = []
    stamp = roll.authority or {}
    if isinstance(stamp, dict) and stamp.get("grant"):
        notes.append(
            translate(
                N_("Granted by the {gm} in #{seq}."),
                lang,
                gm=storyteller_word(system, lang),
                seq=stamp["grant"],
            )
        )
        granted = odds_view({"system": system, "kind": roll.kind, "request": roll.request}, lang)
        if granted is not None:  # the odds of the roll as granted (the ask showed them as asked)
            notes.append(translate(N_("As granted: {odds}"), lang, odds=granted.headline))
    turn = roll.turn or {}
    if isinstance(turn, dict) and turn.get("turn"):
        notes.append(translate(N_("Scene {n}, turn {t}."), lang, n=turn.get("scene"), t=turn.get("turn")))
        notes += [warning_text(w, lang) for w in turn.get("warnings") or []]
    return notes


# --- the sheet's per-turn limits --------------------------------------------------------------------


def sheet_limits(system: str, sheet: dict, lang: str) -> list[str]:
    """What the sheet states about per-turn limits (A-3: V20-18 blood per turn, V20-9's table limit)."""
    from rollbook.play import turns

    limits = turns.sheet_limits(system, sheet or {})
    lines = []
    if "blood_per_turn" in limits:
        lines.append(translate(N_("Blood per turn: {n}"), lang, n=limits["blood_per_turn"]))
    if "willpower_successes_per_turn" in limits:
        lines.append(translate(N_("Willpower: one automatic success per turn (the table's limit)"), lang))
    for excess in limits.get("above_generation", ()):  # V20-19: taken in Casual, and said
        lines.append(
            translate(
                N_(
                    "{trait} {rating} is above the maximum of Generation {generation} ({maximum}): "
                    "a Casual chronicle allows it"
                ),
                lang,
                trait=labels.trait(excess["trait"], lang),
                rating=excess["rating"],
                generation=excess["generation"] or "—",
                maximum=excess["maximum"],
            )
        )
    return lines


def offer_words(offer: dict, lang: str) -> str:
    """A-4: "Action 2 of 3: difficulty 7, 2 dice"."""
    dice = plural(lang).ngettext("{n} die", "{n} dice", offer["dice"]).format(n=offer["dice"])
    text = translate(
        N_("Action {i} of {n}: difficulty {d}, {dice}"),
        lang,
        i=offer["action"],
        n=offer["of"],
        d=offer["difficulty"],
        dice=dice,
    )
    if offer.get("required", 1) > 1:
        text += ", " + plural(lang).ngettext(
            "{n} success required", "{n} successes required", offer["required"]
        ).format(n=offer["required"])
    return text


def standing_rows(
    system: str, standing: list[dict], names: dict[int, str], lang: str
) -> list[dict[str, Any]]:
    rows = []
    for grant in standing:
        who = (
            names.get(grant["character"]) or grant.get("character_name") or ""
            if grant.get("character")
            else translate(N_("every character"), lang)
        )  # a removed character by its name
        rows.append(
            {
                "id": grant["id"],
                "who": who,
                "edges": edges_text(system, grant["edges"], lang),
                "scene": grant.get("scene") is not None,
            }
        )
    return rows


def standing_choices(system: str, lang: str) -> list[forms.Option]:
    """The edges a standing grant may set, for the Storyteller's form."""
    return [forms.Option(name, labels.field(name, lang)) for name in edges_of.all_edge_fields(system)]


# --- the panels of a page ---------------------------------------------------------------------------


@dataclass
class Panel:
    """What the chronicle and sheet pages show of the table's authority, for one viewer."""

    system: str
    gm: str
    scene: dict | None
    asks: list[AskView]
    standing: list[dict[str, Any]]
    standing_choices: list[forms.Option]
    characters: list[forms.Option]
    storyteller: bool

    @property
    def running(self) -> bool:
        return bool(self.scene and self.scene.get("running"))


def panel(
    db, member, lang: str, chronicle: dict, characters: list, members: list[dict], state: dict | None = None
) -> Panel:
    """The scene, the asks waiting (all of them for the Storyteller, a player's own), the standing
    grants: ``state``, read by the caller (``usecases.authority.table_state`` or ``sheet_state``),
    else read here through ``table_state``."""
    if state is None:
        with db.read() as session:
            state = authority_cases.table_state(session, member)
    system = chronicle["system"]
    names = {c.id: c.name for c in characters}
    sheets = {c.id: c.sheet for c in characters if c.sheet is not None}
    people = {m["id"]: m["name"] for m in members}
    storyteller = member.role == "storyteller"
    return Panel(
        system=system,
        gm=storyteller_word(system, lang),
        scene=state["scene"],
        asks=ask_views(system, state["asks"], sheets, names, chronicle["mode"], lang, members=people),
        standing=standing_rows(system, state["standing"], names, lang),
        standing_choices=standing_choices(system, lang) if storyteller else [],
        characters=[forms.Option(str(c.id), c.name) for c in characters],
        storyteller=storyteller,
    )


# --- the roll form -------------------------------------------------------------------------------------


def roll_button(system: str, lang: str, *, asking: bool, role: str) -> str:
    """ "Roll", or "Ask the Storyteller" when the form asks for more than what stands (A-1)."""
    if asking and role != "storyteller":
        return ask_button(system, lang)
    return translate(N_("Roll"), lang)


def start_from_baseline(
    system: str,
    kind: str,
    fields: list[forms.FieldView],
    baseline: dict,
    role: str,
    lang: str,
    *,
    posted: bool,
) -> None:
    """A-1: the roll form's edges start from what applies without asking (defaults, standing
    difficulty, standing grants), not from the last roll (whose granted edges would ask again); a
    player's edge fields say that another value asks the Storyteller. Fields as posted are kept."""
    gm = storyteller_word(system, lang)
    for f in fields:
        if not edges_of.is_edge(system, kind, f.name):
            continue
        if not posted and f.name in baseline:
            f.value = baseline[f.name]
        if role != "storyteller" and f.widget == "number":
            f.help = translate(N_("The {gm}'s to set: another value asks the {gm}."), lang, gm=gm)


def offer_action(offers: list[dict], choice: Any, action: dict) -> dict:
    """A-4: the action with the multiple-action offer chosen on the form (``offer`` = its number)
    applied to its difficulty, successes required and dice; unchanged when none is chosen."""
    try:
        number = int(str(choice))
    except (TypeError, ValueError):
        return action
    offer = next((o for o in offers if o["action"] == number), None)
    if offer is None:
        return action
    return {
        **action,
        "difficulty": offer["difficulty"],
        "required": offer["required"],
        "modifier": offer["modifier"],
    }


def offers_for(db, member, character_id: int, action: dict, reads=None) -> list[dict]:
    """A-4: the multiple-action offers for the roll the form describes (none unless the Storyteller
    declared two or more actions for the character this turn; ``reads``: the rows the caller's read
    holds, ``usecases.authority.roll_reads``)."""
    with db.read() as session:
        return authority_cases.multiple_action_offers(session, member, character_id, action, reads)["offers"]


def with_offer(db, member, character_id: int, action: dict, choice: Any) -> dict:
    """The posted roll with the multiple-action offer chosen on the form, if any (A-4)."""
    if choice in (None, "", "0"):
        return action
    return offer_action(offers_for(db, member, character_id, action), choice, action)
