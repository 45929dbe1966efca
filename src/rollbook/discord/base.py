"""What every Discord handler shares: the app's ``Context``, the parsed ``Invocation``, the
``Answer`` (an interaction response), and ``write``/``read``. Every write goes through ``write``: the server's transaction runner with
the interaction's id as its Idempotency-Key (``tx.idempotent``, scope ``discord``: Discord may
deliver an interaction twice; the second gets the first's answer, nothing is written twice), the
Discord user's link opened in that same transaction (``store.linked_member``: the member checked by
``auth.authenticate`` on every interaction), and the entries it shows in a bound channel marked
answered there (the poster does not post them again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from rollbook.dice import DiceSource
from rollbook.discord import store
from rollbook.discord.embeds import discord_language
from rollbook.discord.rest import DiscordRest
from rollbook.entries import Logged, ValidationError
from rollbook.present import labels
from rollbook.server import tx
from rollbook.server.auth import MemberRow
from rollbook.server.problems import ProblemError, detail
from rollbook.server.usecases import presence

# interaction types
PING, COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# interaction response types
PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES, MODAL = 1, 4, 5, 6, 7, 8, 9
EPHEMERAL = 64
THREADS = (10, 11, 12)  # Discord's channel types of a thread (announcement, public, private)
SCOPE = "discord"
NOT_LINKED = "discord_not_linked"


@dataclass
class Context:
    """What an interaction needs of the app: the store, the dice factory, the Discord settings, the
    REST client (made on first use: ``rest()``) and the server's public URL (for links)."""

    db: Any
    dice: Callable[[], DiceSource]
    rest: Callable[[], DiscordRest]
    application_id: str | None = None
    base_url: str = ""


@dataclass(frozen=True)
class Invocation:
    """The parts of an interaction payload the handlers read."""

    id: str
    type: int
    token: str
    application_id: str
    guild_id: str
    channel_id: str
    parent_id: str  # a thread's channel (its links and binding are the channel's); "" otherwise
    user_id: str
    user_name: str
    locale: str  # the rollbook language of the user's Discord locale
    data: dict
    message: dict | None

    @classmethod
    def of(cls, payload: dict) -> Invocation:
        member = payload.get("member") or {}
        user = member.get("user") or payload.get("user") or {}
        channel = payload.get("channel_id") or (payload.get("channel") or {}).get("id") or ""
        parent = (
            (payload.get("channel") or {}).get("parent_id")
            if (payload.get("channel") or {}).get("type") in THREADS
            else None
        )
        name = member.get("nick") or user.get("global_name") or user.get("username") or ""
        return cls(
            id=str(payload.get("id", "")),
            type=int(payload.get("type", 0)),
            token=str(payload.get("token", "")),
            application_id=str(payload.get("application_id", "")),
            guild_id=str(payload.get("guild_id") or ""),
            channel_id=str(channel),
            parent_id=str(parent or ""),
            user_id=str(user.get("id", "")),
            user_name=str(name)[:200],
            locale=discord_language(payload.get("locale") or payload.get("guild_locale")),
            data=payload.get("data") or {},
            message=payload.get("message"),
        )

    def options(self) -> dict[str, Any]:
        """The command's options by name (a subcommand's own, flattened), ``focused`` marked apart."""
        found: dict[str, Any] = {}

        def walk(items):
            for item in items or []:
                if item.get("type") in (1, 2):  # a subcommand (group): its options
                    found["_subcommand"] = item.get("name")
                    walk(item.get("options"))
                else:
                    found[item["name"]] = item.get("value")
                    if item.get("focused"):
                        found["_focused"] = item["name"]

        walk(self.data.get("options"))
        return found


@dataclass
class Answer:
    """An interaction response, and the work to run after it is sent (a deferred answer's)."""

    body: dict
    later: Callable[[], None] | None = None


@dataclass
class Written:
    """What ``write`` hands back: the work's result and whether it was a replay."""

    result: dict
    replayed: bool = False
    extra: dict = field(default_factory=dict)


def message(
    content: str = "",
    *,
    embeds: list[dict] | None = None,
    components: list[dict] | None = None,
    ephemeral: bool = False,
    kind: int = MESSAGE,
    mentions: list[str] | None = None,
) -> Answer:
    """A message; ``mentions``: the Discord users it pings (their ``<@id>`` leads its content), the
    only ones it may ping."""
    if mentions:
        content = " ".join(f"<@{user}>" for user in mentions) + (" " + content if content else "")
    data: dict[str, Any] = {"content": content[:2000]}
    if embeds is not None:
        data["embeds"] = embeds
    if components is not None:
        data["components"] = components
    if ephemeral:
        data["flags"] = EPHEMERAL
    # a name typed at the table pings no one; the users a step is offered to, only them
    data["allowed_mentions"] = {"parse": [], "users": list(mentions or [])[:100]}
    return Answer({"type": kind, "data": data})


def storyteller_commands() -> set[str]:
    """The commands of a roll only the Storyteller makes (``/opposed``, R-7): a player refused one is
    told who runs it, not to ask (``/ask`` takes no such roll's options)."""
    from rollbook.discord.commands import kind_commands
    from rollbook.play import catalogue

    return {a.kind for a in catalogue.ACTIONS if a.storyteller_only and a.way == "roll"} & set(
        kind_commands()
    )


def command_name(command: str, lang: str) -> str:
    """A command's name as a client in ``lang`` lists it ("opposé" in French)."""
    from rollbook.discord.commands import NAMED, NAMES

    return NAMES[command][NAMED.index(lang)] if command in NAMES and lang in NAMED else command


# refusals said in Discord's words (a command to use, not an API field to send)
IN_DISCORDS_WORDS = {"grant_required": "discord_grant_required"}


def refusal(inv: Invocation, code: str, params: dict | None = None) -> Answer:
    params = dict(params or {})
    lang = inv.locale
    command = str(inv.data.get("name") or "")
    if code == "grant_required" and command in storyteller_commands():  # /ask cannot hold it
        code, params = "discord_storyteller_roll", {"command": command_name(command, lang)}
    if code in IN_DISCORDS_WORDS:
        code = IN_DISCORDS_WORDS[code]
    if isinstance(params.get("choices"), list):  # "Soif, Domination", not the choices' ids
        named = str(params.get("field") or "") or None
        params["choices"] = [labels.choice(str(choice), lang, named) for choice in params["choices"]]
    if isinstance(params.get("edges"), list):  # "la difficulté", not the field's id
        params["edges"] = ", ".join(labels.field_param(str(edge), lang) for edge in params["edges"])
    if isinstance(params.get("field"), str) and params["field"]:
        params["field"] = labels.field_param(params["field"], lang)
    if code == "storyteller_only" and isinstance(params.get("action"), str):  # "(accorder)", in words
        params["action"] = labels.action(params["action"], lang)
    params = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in params.items()}
    return message(detail(code, lang, params), ephemeral=True)


def need_member(member: MemberRow | None) -> MemberRow:
    if member is None:
        raise ProblemError(403, NOT_LINKED)
    return member


def fingerprint(inv: Invocation) -> str:
    return tx.fingerprint(
        "POST",
        "/discord/interactions",
        {
            "type": inv.type,
            "data": inv.data,
            "user": inv.user_id,
            "guild": inv.guild_id,
            "channel": inv.channel_id,
        },
    )


def shown_seqs(result: dict) -> list[int]:
    """The public entries an answer shows in the channel (the poster skips them there)."""
    seqs = []
    for key in ("entry", "grant"):
        entry = result.get(key)
        if not isinstance(entry, dict):
            continue
        try:
            logged = Logged.of(entry)
        except ValidationError:  # no entry of the log (no seq): nothing shown
            continue
        if logged.visibility == "public":
            seqs.append(logged.seq)
    return seqs


def acting_for(session: Session, inv: Invocation, chronicle_id: int, characters) -> list[str]:
    """The Discord users linked at this table who act for ``characters`` (to be mentioned)."""
    return store.users_acting_for(
        session, inv.guild_id, [inv.channel_id, inv.parent_id], chronicle_id, characters
    )


def linked(session: Session, inv: Invocation) -> MemberRow | None:
    """The member the user acts as here: this channel's link, else, in a thread, its channel's (a
    scene played in a thread is played at the channel's table)."""
    member = store.linked_member(session, inv.guild_id, inv.channel_id, inv.user_id)
    if member is None and inv.parent_id:
        return store.linked_member(session, inv.guild_id, inv.parent_id, inv.user_id)
    return member


def write(
    context: Context,
    inv: Invocation,
    work: Callable[[Session, MemberRow | None], dict],
    *,
    shown: Callable[[dict], list[int]] = shown_seqs,
) -> Written:
    """``work(session, member)`` in one write transaction, exactly once per interaction id; ``member``
    is the Discord user's linked member, checked in this transaction (None when unlinked)."""

    def run(session: Session) -> tuple[int, dict]:
        member = linked(session, inv)
        result = work(session, member)
        if member is not None:  # shown in this channel (a thread's messages are not its channel's)
            store.mark_answered(session, member.chronicle_id, inv.channel_id, shown(result))
            presence.seen_on_discord(session, member.chronicle_id, member.id)  # "At the table" shows them
        return 200, result

    _, body, replayed = tx.idempotent(
        context.db, scope=SCOPE, key=inv.id or None, request_fingerprint=fingerprint(inv), work=run
    )
    return Written(body, replayed)


def read(context: Context, inv: Invocation, work: Callable[[Session, MemberRow | None], Any]) -> Any:
    with context.db.read() as session:
        return work(session, linked(session, inv))
