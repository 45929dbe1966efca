"""Discord: the same chronicle as one more face of the server, not a second engine.

Everything here calls the server's use cases (``server/usecases``) inside the server's transaction
runner (``server/tx``): a roll made on Discord is the same log entry, the same live feed, the same
export as one made on the web page. No gateway process: Discord calls ``POST /discord/interactions``
(HTTP interactions), and the channel poster posts through channel webhooks.

INTERFACE CONTRACT between the two halves of this package (``discord`` and ``discord-rest``). Names,
signatures and table columns below are binding; change them only together.

Modules of the ``discord`` half
-------------------------------
``signature.py``
    ``verify(public_key_hex: str, signature_hex: str | None, timestamp: str | None, body: bytes, *,
    now: float | None = None) -> bool``: Ed25519 (``cryptography``) over ``timestamp`` + the raw body;
    False for a missing/malformed header or key, a bad signature, or a timestamp more than
    ``MAX_AGE`` (300 s) away from ``now``. Never raises.
``interactions.py``
    ``handle(context, payload: dict) -> Answer``: the dispatch of one verified interaction (PING,
    APPLICATION_COMMAND, APPLICATION_COMMAND_AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT); an
    ``Answer`` is the interaction response body plus, for a deferred one (type 5/6), the work to run
    after answering (it ends with ``DiscordRest.edit_original``). The commands and their
    autocomplete are ``handlers.py``'s, the buttons, selects and modals ``components.py``'s; what
    they share (``Context``, ``Invocation``, ``write``: the use case in ``tx.idempotent`` keyed by
    the interaction id, the link opened in that transaction) ``base.py``'s.
``commands.py``
    ``command_definitions() -> list[dict]``: every application command as Discord's bulk-overwrite
    endpoint takes it (``PUT /applications/{id}/commands`` or ``…/guilds/{guild}/commands``), with
    ``name_localizations`` / ``description_localizations`` for ``fr``, ``es-ES`` (``en-US`` is the
    default name). ``rollbook discord register`` uploads exactly this list.
``embeds.py``
    ``entry_embeds(entry: dict, locale: str) -> list[dict]``: one log entry, in the export/API shape
    (``views.entry_view`` / ``entry_export``: seq, kind, actor, visibility, receipt, character, …),
    as Discord embeds rendered by ``rollbook.render`` in ``locale`` (a Discord locale such as
    ``fr``, ``es-ES``, ``en-US``, or a rollbook language ``fr``/``es``/``en``), always within
    Discord's limits (6,000 characters in all, 25 fields, 256 per title and field name, 1,024 per
    field value, 4,096 per description, at most 10 embeds). The poster sends
    ``{"embeds": entry_embeds(entry, chronicle_language)}`` (optional ``characters={id: name}`` and
    ``system=`` name the characters and the game of entries whose receipt does not).
``store.py``
    The Discord tables, used inside the caller's transaction (``tx.run``); nothing here commits:

    - ``discord_links`` (id, guild_id, channel_id, discord_user_id, member_id → members.id,
      token_sealed, created_at; UNIQUE (guild_id, channel_id, discord_user_id)). ``channel_id`` is
      the channel where ``/link`` ran. The link holds a **session** of the member (sealed under the
      operator's secret, ``server/seal.py``): every interaction opens it with ``auth.authenticate``,
      the one check of a token, so removing the member or rotating their key ends the link at once.
    - ``discord_channels`` (id, guild_id, channel_id UNIQUE, chronicle_id → chronicles.id,
      bound_by → members.id, webhook_sealed NULL, last_posted INTEGER, created_at, updated_at):
      a channel bound to a chronicle by its Storyteller (``/chronicle bind``). ``last_posted`` is the
      seq of the last entry the poster handled (posted, or skipped as answered); it starts at the
      log's head when the channel is bound (no history is posted).
    - ``discord_answered`` (channel_row → discord_channels.id, seq; PRIMARY KEY both): entries an
      interaction already showed in that channel, written in the transaction that made them. The
      poster skips them and never posts them twice.

    Functions the poster uses (each takes the caller's ``Session``):

    - ``channels_of(session, chronicle_id) -> list[Channel]`` — the channels bound to a chronicle
      (``Channel``: a frozen dataclass ``id, guild_id, channel_id, chronicle_id, last_posted,
      has_webhook``);
    - ``webhook_url(session, channel_row_id) -> str | None`` (unsealed) and
      ``set_webhook(session, channel_row_id, url)`` (sealed; the poster creates the webhook lazily
      with ``DiscordRest.create_channel_webhook`` when the channel has none);
    - ``answered(session, channel_row_id, after: int, upto: int) -> set[int]``;
    - ``advance(session, channel_row_id, seq) -> bool``: ``last_posted = seq`` only if it was below
      (a conditional UPDATE: two processes never move it back); True when this call moved it.
    - ``mark_answered(session, chronicle_id, channel_id: str, seqs)`` — the interaction side, with
      ``link``/``unlink``/``linked_member`` (a thread falls back on its channel's link: ``base.linked``),
      ``bind_channel`` and ``channel_of``.
``app/api_discord.py``
    ``POST /discord/interactions``: the signature is checked on the raw body before anything is
    parsed (401 ``discord_signature_invalid``, nothing written); the interaction's ``id`` is the
    ``Idempotency-Key`` (``tx.idempotent``, scope ``discord``) of whatever it writes.

Modules of the ``discord-rest`` half
------------------------------------
``rest.py``
    ``DiscordRest(base_url: str = "https://discord.com/api/v10", bot_token: str | None = None, *,
    client: httpx.Client | None = None, max_retries: int = 3)``, synchronous (called from worker
    threads and background tasks), honouring 429 ``retry_after``:
    ``edit_original(application_id, interaction_token, body) -> dict``,
    ``followup(application_id, interaction_token, body) -> dict``,
    ``put_commands(commands, guild_id=None) -> list`` (needs ``DISCORD_APPLICATION_ID`` and the bot token),
    ``create_channel_webhook(channel_id, name) -> str`` (the webhook's URL),
    ``execute_webhook(url, body) -> dict | None``. The app finds its client as
    ``app.state.discord_rest`` (a test sets one pointed at the stand-in; else one is made from the
    settings on first use).
``poster.py``
    posts the public entries made elsewhere to every bound channel after commit (a
    ``Database.after_commit`` hook, work off the request thread), in seq order, with retries, never
    blocking or failing the roll; reads the log as the Storyteller of the chronicle would see public
    entries (hidden entries are never posted), skips ``answered`` seqs, advances ``last_posted``.
``cli/discord.py``: ``rollbook discord register [--guild ID]``; ``docs/discord.md``; the REST
stand-in for tests (``tests/discord/standin.py`` or a non-test module).
"""
