"""The slash commands (``discord.commands`` defines them) and their autocomplete, each over the
server's use cases: ``/link``, ``/unlink``, ``/chronicle bind``, ``/roll``, ``/ask``, ``/rouse``,
``/remorse``, ``/frenzy``, ``/odds``, ``/sheet``, ``/scene``, ``/turn``, ``/verify``, ``/queue``,
``/contest``, ``/extended``.

A linked user acts as their member, with that member's role (the use cases refuse what the role may
not do). ``/roll`` names traits of the linked character's stored sheet (the server builds the pool,
as on the web table); without traits, a raw pool: the chronicle's quick roll (``rolls.quick_roll``),
or, for a user with no link at all, dice rolled and shown but logged nowhere (no chronicle).
"""

from __future__ import annotations

import functools
import json
import logging
import re
import unicodedata
from typing import Any

from rollbook.dice import roll as roll_dice
from rollbook.discord import commands, components, store
from rollbook.discord.base import (
    CHOICES,
    DEFERRED,
    EPHEMERAL,
    MODAL,
    Answer,
    Context,
    Invocation,
    acting_for,
    linked,
    message,
    need_member,
    read,
    refusal,
    write,
)
from rollbook.discord.embeds import dice_text, discord_language, fit, fit_all, resource_fields
from rollbook.discord.rest import AttachmentRefused, DiscordError
from rollbook.entries import Logged
from rollbook.i18n import N_, labelled, translate, translate_n
from rollbook.play import quick
from rollbook.play.systems import compulsion_rules, powers, system_ids, system_module
from rollbook.present import labels
from rollbook.present.preview import odds_view, preview
from rollbook.present.sheetview import RATING_GROUPS, rating_groups, specialties
from rollbook.present.table_face import table_face
from rollbook.render import interop as render_interop
from rollbook.render import view as receipt_view
from rollbook.rules import get_system
from rollbook.rules.base import RuleError, to_plain
from rollbook.server import auth, tx
from rollbook.server.access import STORYTELLER, find_chronicle, find_entry
from rollbook.server.models import Caller, Member
from rollbook.server.problems import ProblemError, from_rule_error
from rollbook.server.usecases import (
    authority,
    characters,
    chronicles,
    compulsions,
    contests,
    fairness,
    interop,
    rolls,
    scenes,
)
from rollbook.server.views import chronicle_view, entry_view, member_view

log = logging.getLogger("rollbook.discord")

LINKED = N_("Linked: you act as {name} ({role}) in “{chronicle}”.")
JOINED_KEY = N_("You joined the chronicle. Your key for the web table (keep it secret): ||{key}||")
UNLINKED = N_("Unlinked: this channel no longer acts for you.")
NOT_LINKED_HERE = N_("You had no link in this channel.")
BOUND = N_("This channel is now the table of “{chronicle}”: its public rolls are posted here.")
UNBOUND = N_("This channel is no longer your chronicle's table: nothing more is posted here.")
CHRONICLE_MADE = N_(
    "“{chronicle}” is made: you are its Storyteller and this channel its table. Players join with "
    "/link and the invitation code ||{invitation}||. Your key for the web table (keep it secret): ||{key}||"
)
NOT_BOUND = N_("This channel is not a chronicle's table.")
ROLES = {"storyteller": N_("Storyteller"), "player": N_("Player")}
FAIR_STATUS = N_(
    "Provably fair dice: commitment {commitment}, {rolls} rolls under it, {revealed} seeds revealed."
)
FAIR_NONE = N_("No roll has been made under a committed seed yet.")
EXPORT = N_("The log to verify (`rollbook log verify`): {url}")
SCENE_OPENED = N_("Scene opened: {name}")
SCENE_CLOSED = N_("Scene closed.")
TURN_STARTED = N_("Turn {turn} begins.")
ODDS = N_("Exact odds")
QUEUE_EMPTY = N_("No ask is waiting.")
HIDDEN_ASKS = N_("Hidden asks for you alone: {n}.")
QUEUE_SHOWN = 5  # a message's rows of buttons
UNLOGGED = N_("Rolled here only, logged nowhere: link a chronicle to keep your rolls.")

TEST_KINDS = commands.TEST_KINDS


def _trait_fields(system: str) -> tuple[tuple[str, str], ...]:
    """A sheet's sections and the action field a trait of each fills (its play module's ``TRAIT_FIELDS``)."""
    return tuple(system_module(system).TRAIT_FIELDS)


def test_kind(system: str) -> str:
    """The kind of a plain test (``/roll``): a registered system's quick roll's kind (A-1)."""
    return TEST_KINDS.get(system) or system_module(system).QUICK.KIND


def command(context: Context, inv: Invocation) -> Answer:
    name = inv.data.get("name")
    handler = COMMANDS.get(str(name))
    if handler is None:
        raise ProblemError(404, "discord_unknown_command", command=str(name))
    options = inv.options()
    declared = declared_options(str(name), options.get("_subcommand"))
    unknown = sorted(key for key in options if not key.startswith("_") and key not in declared)
    if unknown:  # a crafted interaction: only what the command declares is read (A-1: no edge slips in)
        raise ProblemError(
            422,
            "discord_unknown_option",
            option=commands.name_in(unknown[0], inv.locale)[:100],
            command="/" + commands.name_in(str(name), inv.locale),
        )
    return handler(context, inv, options)


@functools.cache
def _declared(registered: tuple[tuple[str, Any], ...]) -> dict[tuple[str, str | None], frozenset[str]]:
    """The options each command declares while the systems ``registered`` are, each id with its play
    module (their fields derived)."""
    found: dict[tuple[str, str | None], frozenset[str]] = {}
    for definition in commands.command_definitions():
        options = definition.get("options") or []
        found[(definition["name"], None)] = frozenset(o["name"] for o in options if o["type"] != 1)
        for sub in options:
            if sub["type"] == 1:
                found[(definition["name"], sub["name"])] = frozenset(
                    o["name"] for o in sub.get("options") or []
                )
    return found


def declared_options(name: str, subcommand: str | None) -> frozenset[str]:
    """The option names a command (or its subcommand) declares (``commands.command_definitions``)."""
    registered = tuple((system, system_module(system)) for system in system_ids())  # a module replaced too
    return _declared(registered).get((name, subcommand), frozenset())


# --- linking -------------------------------------------------------------------------------------


def _link(context: Context, inv: Invocation, options: dict) -> Answer:
    code = str(options.get("code") or "").strip()

    def work(session, _member):
        member = auth.authenticate(session, code)  # a member key (or a session) links that member
        joined = None
        if member is None:  # else an invitation: a new player, as the web's join makes one
            name = inv.user_name or f"Discord {inv.user_id[-4:]}"
            joined = chronicles.join(session, invitation=code, name=name)
            member = session.get(Member, joined["member"]["id"])
        store.link(session, inv.guild_id, inv.channel_id, inv.user_id, member)
        answer: dict = {
            "member": member_view(member),
            "chronicle": chronicle_view(find_chronicle(session, member)),
        }
        if joined is not None:
            answer["token"] = joined["token"]  # sealed in the stored answer (tx.SECRET_FIELDS)
        # a player with no character yet is told how to get one (a Storyteller plays NPCs)
        answer["characterless"] = member.role != STORYTELLER and not characters.list_characters(
            session, member
        )
        return answer

    result = write(context, inv, work).result
    text = translate(
        LINKED,
        inv.locale,
        name=result["member"]["name"],
        role=translate(ROLES.get(result["member"]["role"], result["member"]["role"]), inv.locale),
        chronicle=result["chronicle"]["name"],
    )
    if result.get("token"):
        text += "\n" + translate(JOINED_KEY, inv.locale, key=result["token"])
    if result.get("characterless"):
        text += "\n" + translate(NO_CHARACTER, inv.locale)
    return message(text, ephemeral=True)


def _unlink(context: Context, inv: Invocation, options: dict) -> Answer:
    result = write(
        context,
        inv,
        lambda session, _m: {"unlinked": store.unlink(session, inv.guild_id, inv.channel_id, inv.user_id)},
    ).result
    return message(translate(UNLINKED if result["unlinked"] else NOT_LINKED_HERE, inv.locale), ephemeral=True)


def _chronicle(context: Context, inv: Invocation, options: dict) -> Answer:
    if options.get("_subcommand") == "new":
        return _new_chronicle(context, inv, options)
    unbind = options.get("_subcommand") == "unbind"

    def work(session, member):
        member = need_member(member)
        if unbind:
            return {"unbound": store.unbind_channel(session, inv.channel_id, member)}
        store.bind_channel(session, inv.guild_id, inv.channel_id, member)
        return {"chronicle": chronicle_view(find_chronicle(session, member))}

    result = write(context, inv, work).result
    if unbind:
        return message(translate(UNBOUND if result["unbound"] else NOT_BOUND, inv.locale), ephemeral=True)
    return message(translate(BOUND, inv.locale, chronicle=result["chronicle"]["name"]), ephemeral=True)


def _new_chronicle(context: Context, inv: Invocation, options: dict) -> Answer:
    """A chronicle made from Discord (as the web's home page makes one): the user its Storyteller,
    linked here, and this channel its table; the Storyteller's key and the players' invitation code
    told to them alone (sealed in the stored answer)."""

    def work(session, _member):
        made = chronicles.create_chronicle(
            session,
            name=str(options.get("name") or "").strip(),
            system=str(options.get("system") or ""),
            mode=str(options.get("mode") or "strict"),
            language=str(options.get("language") or discord_language(inv.locale)),
            storyteller=inv.user_name or f"Discord {inv.user_id[-4:]}",
        )
        storyteller = auth.authenticate(session, made["token"])
        assert storyteller is not None  # the key just issued
        store.link(session, inv.guild_id, inv.channel_id, inv.user_id, storyteller)
        store.bind_channel(session, inv.guild_id, inv.channel_id, storyteller)
        return {"chronicle": made["chronicle"], "token": made["token"], "invitation": made["invitation"]}

    result = write(context, inv, work).result
    text = translate(
        CHRONICLE_MADE,
        inv.locale,
        chronicle=result["chronicle"]["name"],
        invitation=result["invitation"],
        key=result["token"],
    )
    return message(text, ephemeral=True)


# --- rolls ---------------------------------------------------------------------------------------


def pick_character(session, member: Caller, given) -> dict:
    """The character a command acts for: the one named (an id), else the member's only one."""
    mine = characters.list_characters(session, member)
    if given not in (None, ""):
        try:
            wanted = int(given)
        except (TypeError, ValueError):
            wanted = None
        found = [c for c in mine if c["id"] == wanted or c["name"].casefold() == str(given).casefold()]
        if not found:
            raise ProblemError(404, "character_not_found", character=str(given))
        return found[0]
    owned = [c for c in mine if c["owner"] == member.id] or mine
    if len(owned) != 1:
        raise ProblemError(422, "discord_name_a_character")
    return owned[0]


def _target(session, member: Caller, given) -> int | None:
    """An attack's target: a character of the table, named by id (autocomplete) or by name."""
    if given in (None, ""):
        return None
    for row in characters.roster(session, member):
        if str(row["id"]) == str(given) or row["name"].casefold() == str(given).casefold():
            return row["id"]
    raise ProblemError(404, "character_not_found", character=str(given))


def trait_field(system: str, sheet: dict, trait: str) -> str | None:
    for section, field_name in _trait_fields(system):
        if trait in (sheet.get(section) or {}):
            return field_name
    return None


def test_action(system: str, sheet: dict, options: dict) -> dict:
    """A test named by traits (``trait``, ``trait2``) and the options that go with it; a registered
    system's other kind of roll when ``kind`` names one (``commands.derived_kinds``)."""
    action: dict = {"kind": test_kind(system)}
    chosen = options.get("kind")
    if chosen not in (None, ""):
        kinds = commands.derived_kinds(system)
        if chosen not in kinds:
            raise ProblemError(422, "bad_choice", field="kind", value=str(chosen)[:100], choices=list(kinds))
        action["kind"] = chosen
    for name in ("trait", "trait2"):
        trait = options.get(name)
        if not trait:
            continue
        field_name = trait_field(system, sheet, str(trait))
        if field_name is None or field_name in action:
            raise ProblemError(422, "discord_unknown_trait", trait=str(trait))
        action[field_name] = str(trait)
    declared = system_module(system).DECLARED_FIELD
    if (
        declared is not None
    ):  # what the character does, as typed; else the trait's id (no English made up here)
        action[declared] = str(
            options.get("action") or action.get("skill") or action.get("attribute") or "check"
        )
    taken = ("difficulty", "specialty", "willpower", "blood_surge", "weapon", "bullets")
    # a registered system's own fields too: the kind's (a plain pool's ``pool``), and the other kinds'
    derived = (*commands.kind_fields(system, action["kind"]), *commands.derived_fields(system))
    for name in (*taken, *derived):
        if options.get(name) not in (None, ""):
            action[name] = options[name]
    if isinstance(action.get("specialty"), str):  # as the sheet spells it, whatever the case or accents
        named = [trait for key, trait in action.items() if key != "kind" and isinstance(trait, str)]
        found = [
            specialty
            for trait, specialty in sheet_specialties(sheet, named)
            if folded(specialty) == folded(action["specialty"])
        ]
        if found:
            action["specialty"] = found[0]
    return action


def folded(text: str) -> str:
    """``text`` compared without case or accents ("ÉTIQUETTE" is "etiquette")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).strip()


def sheet_specialties(sheet: dict, traits: list[str] | None = None) -> list[tuple[str, str]]:
    """(trait, specialty) of the sheet's specialties (V5, V20), of ``traits`` only when named."""
    held = sheet.get("specialties") if isinstance(sheet, dict) else None
    if not isinstance(held, dict):
        return []
    return [
        (str(trait), str(name))
        for trait, names in held.items()
        if (not traits or trait in traits) and isinstance(names, list)
        for name in names
    ]


def _quick_values(system: str, options: dict) -> dict:
    return {name: options[name] for name in quick.QUICK_FIELDS[system] if options.get(name) not in (None, "")}


def _roll(
    context: Context, inv: Invocation, options: dict, *, ask: bool = False, kind: str | None = None
) -> Answer:
    hidden = bool(options.get("hidden"))
    source = context.dice()

    def work(session, member):
        if member is None:
            if kind or ask or bound_here(session, inv):
                # a sheet's roll needs the sheet's member; at a chronicle's table, dice logged nowhere
                # would pass for the table's (a removed or unlinked user): link first
                need_member(member)
            return {"unlinked": True}
        chronicle = find_chronicle(session, member)
        has_traits = kind is not None or any(options.get(name) for name in ("trait", "trait2", "kind"))
        if not has_traits and not ask:
            return components.acted(
                session,
                member,
                rolls.quick_roll(
                    session, member, _quick_values(chronicle.system, options), hidden=hidden, source=source
                ),
                inv,
            )
        character, action = roll_request(session, member, chronicle.system, options, kind)
        target = _target(session, member, options.get("target"))
        out = components.acted(
            session,
            member,
            rolls.roll(
                session, member, character["id"], action, hidden=hidden, ask=ask, source=source, target=target
            ),
            inv,
        )
        if kind and member.role == STORYTELLER and not out.get("mention"):
            # the Storyteller's call of a player's character's roll (a frenzy test…): its player told
            out["mention"] = players_of(session, inv, member, character["id"])
        return out

    result = write(context, inv, work).result
    if result.get("unlinked"):
        return _unlinked_roll(context, inv, options)
    return components.answer_of(inv, result)


def roll_request(
    session, member: Caller, system: str, options: dict, kind: str | None = None
) -> tuple[dict, dict]:
    """The character and the action a sheet's roll names (``/roll``, ``/ask``, ``/rouse``…); ``/odds``
    reads the odds of the very request ``rolls.roll`` plans from this action."""
    character = pick_character(session, member, options.get("character"))
    action = kind_action(kind, options) if kind else test_action(system, character["sheet"], options)
    return character, action


def kind_action(kind: str, options: dict) -> dict:
    """The request of a roll of its own kind (``commands.kind_commands``): its options as the fields of
    the kind's model; ``power`` names a power of the sheet as "discipline/power" (its autocomplete)."""
    action: dict = {"kind": kind}
    for name in (*commands.kind_commands().get(kind, ()), "difficulty"):
        value = options.get(name)
        if value in (None, ""):
            continue
        if name == "power":
            discipline, _, power = str(value).partition(POWER_JOIN)
            if not power:
                raise ProblemError(422, "discord_unknown_power", power=str(value)[:100])
            action["discipline"], action["power"] = discipline, power
        else:
            action[name] = value
    return action


POWER_JOIN = "/"  # a power's option value: "auspex/premonition"


def bound_here(session, inv: Invocation) -> bool:
    """Whether this channel (or a thread's channel) is a chronicle's table."""
    return any(
        store.channel_of(session, channel) is not None
        for channel in (inv.channel_id, inv.parent_id)
        if channel
    )


def _unlinked_roll(context: Context, inv: Invocation, options: dict) -> Answer:
    """Dice for a user with no link: the game's quick roll rolled by the server's dice, logged nowhere."""
    system = str(options.get("system") or "v5")
    if system not in quick.QUICK_FIELDS:
        raise ProblemError(
            422, "bad_choice", field="system", choices=sorted(quick.QUICK_FIELDS), value=system
        )
    request = quick.quick_request(system, "casual", _quick_values(system, options))
    _faces, result = roll_dice(get_system(system), request, context.dice())
    shown = receipt_view(to_plain(result), inv.locale)
    embed = fit(
        {
            "title": shown.title,
            "description": f"**{shown.outcome_label}**\n{dice_text(shown, lang=inv.locale)}",
            "fields": [{"name": line.label, "value": line.value, "inline": True} for line in shown.lines],
            "footer": {"text": translate(UNLOGGED, inv.locale)},
        }
    )
    return message(embeds=[embed])


def _kind(kind: str):
    return lambda context, inv, options: _roll(context, inv, options, kind=kind)


def players_of(session, inv: Invocation, member: Caller, character_id: int) -> list[str]:
    """The Discord users who act for a character here, the one acting left out (told, not pinged)."""
    return [
        user for user in acting_for(session, inv, member.chronicle_id, [character_id]) if user != inv.user_id
    ]


# --- the sheet's resources: spending, feeding (V20-16, V20-18, V5 Book feeding) ----------------------


def _changed(context: Context, inv: Invocation, options: dict, change_of) -> Answer:
    """A change without dice on a character's sheet (``characters.adjust``: the game decides what each
    role may change), answered with its public entry's card, the character's players mentioned."""

    def work(session, member):
        member = need_member(member)
        system = find_chronicle(session, member).system
        character = pick_character(session, member, options.get("character"))
        done = characters.adjust(session, member, character["id"], change_of(system, options))
        out = components.acted(session, member, {"entry": done["entry"], "character": done["character"]})
        out["mention"] = players_of(session, inv, member, character["id"])
        return out

    return components.answer_of(inv, write(context, inv, work).result)


def spend_change(system: str, options: dict) -> dict:
    """``/spend``: ``spend_<resource>`` of ``amount`` (1 by default); V20 blood may ``heal`` (V20-16)."""
    change: dict = {"kind": f"spend_{options.get('resource')}", "amount": int(options.get("amount") or 1)}
    if options.get("heal"):
        change["heal"] = options["heal"]
    return change


def feed_change(system: str, options: dict) -> dict:
    """``/feed``, the Storyteller's: V5 slakes Hunger (the ``feed`` change, a kill slaking the last
    level), V20 regains blood (``restore`` of blood); a game without either refuses."""
    amount = int(options.get("amount") or 1)
    changes = system_module(system).CHANGES
    if "feed" in changes:
        return {"kind": "feed", "slake": amount, "kill": bool(options.get("kill"))}
    if "restore" in changes and "blood" in str(changes["restore"].model_fields["resource"].annotation):
        return {"kind": "restore", "resource": "blood", "amount": amount}
    raise ProblemError(422, "discord_no_feeding", system=system)


def _spend(context: Context, inv: Invocation, options: dict) -> Answer:
    return _changed(context, inv, options, spend_change)


def _feed(context: Context, inv: Invocation, options: dict) -> Answer:
    return _changed(context, inv, options, feed_change)


# --- compulsions (seed 001, V5-14): the Storyteller's call and its end --------------------------------


def _compulsion(context: Context, inv: Invocation, options: dict) -> Answer:
    ending = options.get("_subcommand") == "end"

    def work(session, member):
        member = need_member(member)
        character = pick_character(session, member, options.get("character"))
        if ending:
            done = compulsions.end(session, member, character["id"])
        else:
            done = compulsions.call(
                session,
                member,
                character["id"],
                compulsion=options.get("compulsion") or None,
                until=options.get("until") or None,
            )
        out = components.acted(session, member, {"entry": done["entry"], "character": character})
        out["mention"] = players_of(session, inv, member, character["id"])
        return out

    return components.answer_of(inv, write(context, inv, work).result)


# --- contests and extended actions (TR-3, TR-4) ------------------------------------------------------


def _side(session, member: Caller, system: str, options: dict, name: str, prefix: str) -> dict:
    """One side of a declaration: the character named by ``name`` and its roll, named by traits."""
    character = pick_character(session, member, options.get(name))
    picked = {key: options.get(prefix + key) for key in ("trait", "trait2", "difficulty")}
    return {"character": character["id"], "action": test_action(system, character["sheet"], picked)}


def _contest(context: Context, inv: Invocation, options: dict) -> Answer:
    """TR-3: the Storyteller declares a contest; each side's roll is a button under it, its player
    (an NPC's: the Storyteller) mentioned."""

    def work(session, member):
        member = need_member(member)
        system = find_chronicle(session, member).system
        sides = {
            "attacker": _side(session, member, system, options, "attacker", ""),
            "defender": _side(session, member, system, options, "defender", "defender_"),
        }
        out = components.acted(session, member, contests.declare_contest(session, member, **sides))
        out["mention"] = acting_for(
            session, inv, member.chronicle_id, [s["character"] for s in sides.values()]
        )
        return out

    return components.answer_of(inv, write(context, inv, work).result)


def _extended(context: Context, inv: Invocation, options: dict) -> Answer:
    """TR-4: the Storyteller declares an extended action; its next roll is a button under it and
    under each of its rolls until it is over, its player mentioned."""

    def work(session, member):
        member = need_member(member)
        side = _side(session, member, find_chronicle(session, member).system, options, "character", "")
        declared = contests.declare_extended(
            session,
            member,
            character_id=side["character"],
            action=side["action"],
            target=int(options.get("successes") or 0),
            max_rolls=options.get("rolls"),
        )
        out = components.acted(session, member, declared)
        out["mention"] = acting_for(session, inv, member.chronicle_id, [side["character"]])
        return out

    return components.answer_of(inv, write(context, inv, work).result)


# --- reading -------------------------------------------------------------------------------------


def _odds(context: Context, inv: Invocation, options: dict) -> Answer:
    """The exact odds (and V5's best Willpower reroll), deferred: a large pool takes a while."""

    def compute() -> dict:
        def work(session, member):
            if member is None:
                system = str(options.get("system") or "v5")
                request = quick.quick_request(system, "casual", _quick_values(system, options))
                return odds_view(
                    {"system": system, "kind": test_kind(system), "request": to_plain(request)}, inv.locale
                )
            chronicle = find_chronicle(session, member)
            if not any(options.get(name) for name in ("trait", "trait2", "kind")):  # the quick roll's request
                _values, request = rolls.quick_roll_request(
                    session, chronicle, member, _quick_values(chronicle.system, options)
                )
                return odds_view(
                    {
                        "system": chronicle.system,
                        "kind": TEST_KINDS[chronicle.system],
                        "request": to_plain(request),
                    },
                    inv.locale,
                )
            character, action = roll_request(session, member, chronicle.system, options)
            # the request the roll would make (the standing difficulty and grants), under the table
            # rules (TR-1) and the compulsion in force, as ``rolls.roll`` makes it; an ask's as asked
            made = rolls.odds_request(session, member, character["id"], action)
            shown, _pool = preview(**made.preview(), lang=inv.locale)
            return shown

        shown = read(context, inv, work)
        if shown is None:
            return {"content": "—", "embeds": []}
        rows = [f"{row.label}: **{row.percent}** ({row.fraction})" for row in shown.rows]
        embed = fit(
            {
                "title": translate(ODDS, inv.locale),
                "description": "\n".join([shown.headline, *rows, *shown.notes]),
                "footer": {"text": shown.pool} if shown.pool else {"text": ""},
            }
        )
        return {"content": "", "embeds": [embed]}

    return deferred(context, inv, compute)


def deferred(context: Context, inv: Invocation, compute, *, ephemeral: bool = False) -> Answer:
    """Answer "thinking…" now (type 5; ``ephemeral``: seen by the user alone) and edit the original
    message with ``compute()`` after."""

    def later() -> None:
        try:
            body = compute()
        except ProblemError as error:
            body = refusal(inv, error.code, error.params).body["data"]
        except RuleError as error:
            problem = from_rule_error(error)
            body = refusal(inv, problem.code, problem.params).body["data"]
        try:
            context.rest().edit_original(context.application_id or inv.application_id, inv.token, body)
        except DiscordError as error:  # the answer is lost, nothing else: the user sees "thinking…" end
            log.warning(
                "rollbook: a deferred Discord answer could not be sent (%s, status %s)",
                error.route,
                error.status,
            )

    return Answer({"type": DEFERRED, **({"data": {"flags": EPHEMERAL}} if ephemeral else {})}, later=later)


def _queue(context: Context, inv: Invocation, options: dict) -> Answer:
    """A-1: the Storyteller's queue, to them alone: the pending asks, hidden ones included, oldest
    first, each with its Grant / Grant changed / Refuse buttons (a message holds five rows of
    buttons: the first ``QUEUE_SHOWN``, and how many wait). A player reads their own asks, no buttons."""

    def work(session, member):
        member = need_member(member)
        pending = list(reversed(authority.list_asks(session, member, status="pending")))
        shown = [
            (ask, entry_view(find_entry(session, member, ask["seq"]), member))
            for ask in pending[:QUEUE_SHOWN]
        ]
        return member, find_chronicle(session, member).system, shown, len(pending)

    member, system, shown, count = read(context, inv, work)
    if not count:
        return message(translate(QUEUE_EMPTY, inv.locale), ephemeral=True)
    return message(**queue_message(inv, member, system, shown, count), ephemeral=True)


def queue_message(inv: Invocation, member, system: str, shown: list, count: int) -> dict:
    """The asks ``shown`` (each with its entry) as embeds, the Storyteller's buttons under them."""
    viewer = components.viewer_of(member)
    embeds, rows = [], []
    for ask, entry in shown:
        character = {"id": ask["character"], "name": ask.get("character_name", ""), "owner": ask["member"]}
        embed, _rows = components.entry_message(inv.locale, entry, viewer, system, {"character": character})
        embeds.append(embed)
        if member.role == STORYTELLER:
            rows.append(components.ask_row(inv.locale, ask["id"]))
    return {
        "content": queue_text(inv.locale, len(shown), count),
        "embeds": fit_all(embeds),
        "components": rows,
    }


def queue_text(lang: str, shown: int, count: int) -> str:
    """A-1: how many asks wait, and that the ``shown`` oldest of them are here, counted in the words
    of ``lang`` ("la plus ancienne", not "les 1 plus anciennes")."""
    return translate_n(
        "Asks waiting: {count} (the oldest here).",
        "Asks waiting: {count} (the oldest {n} here).",
        shown,
        lang,
        count=count,
    )


def hidden_asks_news(context: Context, inv: Invocation) -> dict | None:
    """A-1, F-7: the hidden asks made since the Storyteller last heard of them in this bound channel,
    as an ephemeral message for them (sent as a follow-up of their next interaction here); None when
    there is none, or the user is not this table's Storyteller."""

    def work(session):
        member = linked(session, inv)
        if member is None or member.role != STORYTELLER:
            return None
        channel = store.channel_of(session, inv.channel_id)
        if channel is None or channel.chronicle_id != member.chronicle_id:
            return None
        pending = list(reversed(authority.list_asks(session, member, status="pending")))
        entries = {ask["seq"]: entry_view(find_entry(session, member, ask["seq"]), member) for ask in pending}
        hidden = [ask for ask in pending if Logged.of(entries[ask["seq"]]).visibility == "hidden"]
        fresh = set(store.unshown(session, channel.id, [ask["seq"] for ask in hidden]))
        if not fresh:
            return None
        shown = [(ask, entries[ask["seq"]]) for ask in hidden if ask["seq"] in fresh][:QUEUE_SHOWN]
        return member, find_chronicle(session, member).system, shown, len(pending)

    found = tx.run(context.db, work)
    if found is None:
        return None
    member, system, shown, count = found
    body = queue_message(inv, member, system, shown, count)
    body["content"] = translate(HIDDEN_ASKS, inv.locale, n=len(shown)) + "\n" + body["content"]
    return {**body, "flags": EPHEMERAL, "allowed_mentions": {"parse": []}}


# --- a sheet from Discord -------------------------------------------------------------------------

IMPORT_MOST = 1024 * 1024  # as the web's import form (the server's 1 MiB request bound)
IMPORTED = N_("{name} is yours now: /roll names their traits, /sheet shows them.")
NEW_TITLE = N_("A new character")
NEW_HINT = N_("Traits and their ratings, as “Dexterity 3, Wits 2”")
NO_CHARACTER = N_("You have no character here yet: /character new, or /character import with a sheet file.")
# a modal holds five fields: the name and at most four of the sheet's sections
NEW_SECTIONS_MOST = 4


def new_sections(system: str) -> tuple[str, ...]:
    """The sheet's sections a new character's form asks: the system's rating groups, as its sheet
    page shows them (its words' ``RATING_GROUPS``), the first four."""
    return tuple(key for key, _title, _most in RATING_GROUPS.get(system, ()))[:NEW_SECTIONS_MOST]


def _character(context: Context, inv: Invocation, options: dict) -> Answer:
    if options.get("_subcommand") == "new":
        return _new_character_form(context, inv)
    return _import(context, inv, options)


def _import(context: Context, inv: Invocation, options: dict) -> Answer:
    """A sheet of another tool, attached to the command: read from the URL Discord gives (its own
    file hosts only), imported by the web's importers (``usecases.interop``), answered with the same
    report, to the importer alone; the public ``sheet_import`` entry is posted to the channel."""
    attachment = ((inv.data.get("resolved") or {}).get("attachments") or {}).get(str(options.get("file")))
    if not isinstance(attachment, dict) or not attachment.get("url"):
        raise ProblemError(422, "missing_field", field="file")
    if int(attachment.get("size") or 0) > IMPORT_MOST:
        raise ProblemError(413, "import_too_big", most=IMPORT_MOST)

    def compute() -> dict:
        try:
            raw = context.rest().fetch_attachment(str(attachment["url"]), IMPORT_MOST)
        except AttachmentRefused as refused:
            raise ProblemError(422, refused.code, most=IMPORT_MOST) from None
        try:
            source = json.loads(raw.decode("utf-8-sig", errors="replace"))
        except ValueError:
            raise ProblemError(422, "import_not_json") from None

        def work(session, member):
            return interop.import_character(session, need_member(member), source=source)

        result = write(context, inv, work, shown=lambda out: []).result
        return {**import_report(inv.locale, result), "flags": EPHEMERAL}

    return deferred(context, inv, compute, ephemeral=True)


def import_report(lang: str, result: dict) -> dict:
    """An import's answer: the ``sheet_import`` entry's card and the report's lists, as the web shows them."""
    logged = Logged.of(result["entry"])
    title, line = render_interop.describe_entry(logged.kind, logged.stored or {}, lang)
    fields = [
        {
            "name": translate(render_interop.TITLES[key], lang),
            # a mapped field named as the sheet's form names it, in the reader's words
            "value": "\n".join(
                f"{item.source} → {labels.field_param(item.text, lang) if key == 'mapped' else item.text}"
                for item in items
            )
            or "—",
        }
        for key, items in render_interop.lines(result["report"], lang).items()
        if items
    ]
    name = result["character"]["name"]
    return {
        "content": translate(IMPORTED, lang, name=name),
        "embeds": fit_all(
            [{"title": title, "description": line, "fields": fields, "author": {"name": name}}]
        ),
    }


def _new_character_form(context: Context, inv: Invocation) -> Answer:
    """A new character through a modal: its name, and the traits of the sheet's sections."""

    def work(session, member):
        return find_chronicle(session, need_member(member)).system

    system = read(context, inv, work)
    lang = inv.locale
    inputs = [components.text_input("name", translate("Name", lang), required=True, longest=200)]
    titles = {key: title for key, title, _most in RATING_GROUPS.get(system, ())}
    inputs += [
        components.text_input(
            section,
            translate(titles.get(section, section), lang),
            placeholder=translate(NEW_HINT, lang),
            paragraph=True,
        )
        for section in new_sections(system)
    ]
    return Answer(
        {
            "type": MODAL,
            "data": {"custom_id": "rb:cn", "title": translate(NEW_TITLE, lang)[:45], "components": inputs},
        }
    )


def new_character(context: Context, inv: Invocation, fields: dict[str, str]) -> Answer:
    """The modal's answer: the sheet (each "Trait rating" matched to the section's traits in the
    reader's words or by id) made by ``characters.add_character``, the game's checks included."""

    def work(session, member):
        member = need_member(member)
        system = find_chronicle(session, member).system
        name = fields.get("name", "").strip()
        sheet: dict = {"name": name}
        for section in new_sections(system):
            typed = fields.get(section, "")
            if typed.strip():
                sheet[section] = typed_ratings(system, section, typed, inv.locale)
        return characters.add_character(session, member, name=name, sheet=sheet)

    made = write(context, inv, work).result
    return message(translate(IMPORTED, inv.locale, name=made["name"]), ephemeral=True)


def typed_ratings(system: str, section: str, typed: str, lang: str) -> dict[str, int]:
    """ "Dextérité 3, Astuce 2" -> {"dexterity": 3, "wits": 2}: a trait named in the reader's words, in
    English or by its id; a name the game does not know is kept as typed (the game's checks decide)."""
    known = {folded(labels.trait(trait, "en")): trait for trait in labels.TRAITS}
    known |= {folded(labels.trait(trait, lang)): trait for trait in labels.TRAITS}
    out: dict[str, int] = {}
    for part in re.split(r"[,;\n]+", typed):
        found = re.fullmatch(r"\s*(.+?)\s*[:=]?\s*(\d+)\s*", part)
        if not part.strip():
            continue
        if found is None:
            raise ProblemError(422, "discord_bad_rating", typed=part.strip()[:100])
        name, rating = found.group(1), int(found.group(2))
        trait = (
            known.get(folded(name))
            or known.get(folded(name.replace("_", " ")))
            or folded(name).replace(" ", "_")
        )
        out[trait] = rating
    return out


def _sheet(context: Context, inv: Invocation, options: dict) -> Answer:
    def work(session, member):
        member = need_member(member)
        chronicle = find_chronicle(session, member)
        return chronicle.system, pick_character(session, member, options.get("character"))

    system, character = read(context, inv, work)
    sheet = character["sheet"] or {}
    lang = discord_language(inv.locale)
    groups = rating_groups(system, sheet, inv.locale)
    fields = resource_fields(system, sheet, inv.locale) + [
        {"name": group.title, "value": ", ".join(f"{r.label} {r.value}" for r in group.ratings)}
        for group in groups
    ]
    held = [
        labelled(f"{r.label} {r.value}", ", ".join(r.powers), lang)
        for group in groups
        for r in group.ratings
        if group.key == "disciplines" and r.powers
    ]
    if held:  # V5-10: the powers a roll may use, by Discipline
        fields.append({"name": translate("Powers", lang), "value": "\n".join(held)})
    shown = specialties(sheet, lang)
    if shown:
        fields.append(
            {
                "name": translate("Specialties", lang),
                "value": "\n".join(labelled(t, n, lang) for t, n in shown),
            }
        )
    return message(embeds=[fit({"title": character["name"], "fields": fields})], ephemeral=True)


def _scene(context: Context, inv: Invocation, options: dict) -> Answer:
    action = str(options.get("action") or "open")

    def work(session, member):
        member = need_member(member)
        if action == "close":
            return components.acted(session, member, {**scenes.close_scene(session, member), "closed": True})
        opened = scenes.open_scene(session, member, name=str(options.get("name") or ""))
        return components.acted(session, member, opened)

    # the scene's entry is shown here by this answer (its card, as the web's): the poster does not post it
    result = write(context, inv, work).result
    if result.get("closed"):
        return _with_card(inv, result, translate(SCENE_CLOSED, inv.locale))
    scene = result.get("scene") or {}
    text = translate(SCENE_OPENED, inv.locale, name=scene.get("name") or f"#{scene.get('number', '')}")
    return _with_card(inv, result, text)


def _turn(context: Context, inv: Invocation, options: dict) -> Answer:
    result = write(
        context,
        inv,
        lambda session, member: components.acted(
            session, member, scenes.advance_turn(session, need_member(member))
        ),
    ).result
    scene = result.get("scene") or {}
    return _with_card(inv, result, translate(TURN_STARTED, inv.locale, turn=scene.get("turn", "")))


def _with_card(inv: Invocation, result: dict, text: str) -> Answer:
    """A scene's or a turn's words, and its entry's card (the one the web's feed shows) when it made one."""
    if not isinstance(result.get("entry"), dict):
        return message(text)
    embed, _rows = components.entry_message(
        inv.locale, result["entry"], result["viewer"], result["system"], {}
    )
    return message(text, embeds=fit_all([embed]))


def _verify(context: Context, inv: Invocation, options: dict) -> Answer:
    def work(session, member):
        member = need_member(member)
        return fairness.fair_state(session, member)

    state = read(context, inv, work)
    if state.get("commitment"):
        text = translate(
            FAIR_STATUS,
            inv.locale,
            commitment=f"`{state['commitment'][:16]}…`",
            rolls=state["rolls"],
            revealed=len(state["revealed"]),
        )
    else:
        text = translate(FAIR_NONE, inv.locale)
    # the page's export, which a browser opens with the member's key (the API's answers 401 without a token)
    url = f"{context.base_url.rstrip('/')}/chronicles/{state['chronicle']}/log.jsonl"
    return message(text + "\n" + translate(EXPORT, inv.locale, url=url), ephemeral=True)


# --- autocomplete --------------------------------------------------------------------------------


def _compulsion_choices(locale: str) -> list[tuple[str, str]]:
    """Seed 001: the compulsions of the registered systems that have them (V5's: the Beast's and the
    clans'), each (its name in words, its id)."""
    found: list[tuple[str, str]] = []
    for system in system_ids():
        rules, face = compulsion_rules(system), table_face(system)
        if rules is not None:
            found += [(face.name(key, locale) if face else key, key) for key in rules.COMPULSIONS]
    return found


def autocomplete(context: Context, inv: Invocation) -> Answer:
    """Characters the user acts for, and the traits of the chosen (or only) character's sheet."""
    options = inv.options()
    focused = options.get("_focused")
    typed = folded(str(options.get(focused) or "")) if isinstance(focused, str) else ""

    def work(session, member):
        if member is None:
            return []
        if focused in ("character", "attacker", "defender"):
            return [(c["name"], str(c["id"])) for c in characters.list_characters(session, member)]
        if focused == "target":
            return [(c["name"], str(c["id"])) for c in characters.roster(session, member)]
        if focused == "compulsion":  # seed 001: the Beast's and the clans' compulsions, in words
            return _compulsion_choices(inv.locale)
        if focused == "weapon":
            try:
                character = pick_character(session, member, options.get("character"))
            except ProblemError:
                return []
            return [
                (str(w.get("name")), str(w.get("name")))
                for w in (character["sheet"] or {}).get("weapons") or []
                if isinstance(w, dict) and w.get("name")
            ]
        chronicle = find_chronicle(session, member)
        whose = (  # a contest's traits are its sides', an extended action's its character's
            "defender"
            if str(focused).startswith("defender_")
            else "attacker"
            if inv.data.get("name") == "contest"
            else "character"
        )
        try:
            character = pick_character(session, member, options.get(whose))
        except ProblemError:
            return []
        sheet = character["sheet"] or {}
        names = sheet.get("names") or {}
        if focused == "power":  # V5: the listed powers of the sheet, "discipline/power"
            return [
                (
                    f"{labels.power(chronicle.system, str(p['discipline']), str(p['power']), inv.locale)}"
                    f" ({labels.trait(str(p['discipline']), inv.locale, names)} {p.get('level', '')})",
                    f"{p['discipline']}{POWER_JOIN}{p['power']}",
                )
                for p in sheet.get("powers") or []
                if isinstance(p, dict) and p.get("power") and p.get("discipline")
            ]
        if focused == "attribute":  # the chosen power's Attributes (the book's choice), else the sheet's
            discipline, _, power = str(options.get("power") or "").partition(POWER_JOIN)
            own = powers(chronicle.system)
            offered = own.power_attributes(discipline, power) if own is not None else None
            return [
                (labels.trait(attribute, inv.locale), attribute)
                for attribute in offered or sorted(sheet.get("attributes") or {})
            ]
        if focused == "specialty":  # of the traits chosen, else of every trait
            chosen = [str(options[key]) for key in ("trait", "trait2") if options.get(key)]
            return [
                (f"{specialty} ({labels.trait(trait, inv.locale, names)})", specialty)
                for trait, specialty in sheet_specialties(sheet, chosen)
            ]
        return [
            (f"{labels.trait(trait, inv.locale, names)} {rating}", trait)
            for section, _field in _trait_fields(chronicle.system)
            for trait, rating in (sheet.get(section) or {}).items()
        ]

    found = read(context, inv, work)
    choices = [
        {"name": name[:100], "value": value[:100]}
        for name, value in found
        if typed in folded(name) or typed in folded(value)
    ][:25]
    return Answer({"type": CHOICES, "data": {"choices": choices}})


COMMANDS = {
    "link": _link,
    "unlink": _unlink,
    "chronicle": _chronicle,
    "roll": _roll,
    "ask": lambda c, i, o: _roll(c, i, o, ask=True),
    **{kind: _kind(kind) for kind in commands.kind_commands()},
    "spend": _spend,
    "feed": _feed,
    "compulsion": _compulsion,
    "odds": _odds,
    "sheet": _sheet,
    "scene": _scene,
    "turn": _turn,
    "verify": _verify,
    "queue": _queue,
    "character": _character,
    "contest": _contest,
    "extended": _extended,
}

__all__ = ["COMMANDS", "autocomplete", "command"]
