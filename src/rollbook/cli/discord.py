"""`rollbook discord register [--guild ID]`: the application's commands (``discord.commands``),
overwritten in bulk with the bot token (docs/discord.md)."""

from __future__ import annotations

import typer

from rollbook.cli.base import app, fail

discord_app = typer.Typer(help="Discord: the application's commands (docs/discord.md).", no_args_is_help=True)
app.add_typer(discord_app, name="discord")


@discord_app.command("register")
def register(
    guild: str | None = typer.Option(
        None,
        "--guild",
        help="A Discord server's id: its commands, shown at once (else the global ones, which "
        "Discord may take up to an hour to show).",
    ),
) -> None:
    """Overwrite the application's commands with rollbook's (DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN)."""
    from rollbook.discord.commands import command_definitions
    from rollbook.discord.rest import DiscordError, DiscordRest
    from rollbook.settings import current

    settings = current()
    missing = [
        name
        for name, value in (
            ("DISCORD_APPLICATION_ID", settings.discord_application_id),
            ("DISCORD_BOT_TOKEN", settings.discord_bot_token),
        )
        if not value
    ]
    if missing:
        fail(f"set {' and '.join(missing)} first (docs/discord.md)")
    if guild is not None and not (guild.isdigit() and len(guild) <= 20):
        fail(f"--guild: not a Discord server id (its digits, from 'Copy Server ID'): {guild[:40]!r}")
    application_id = settings.discord_application_id or ""  # set: checked just above
    if not (application_id.isdigit() and len(application_id) <= 20):
        fail("DISCORD_APPLICATION_ID: not a Discord application id (its digits, from the developer portal)")
    commands = command_definitions()
    with DiscordRest.from_settings(settings) as rest:
        try:
            made = rest.put_commands(commands, guild_id=guild)
        except DiscordError as error:  # refused (a bad token, no access to the guild) or unreachable
            fail(f"the commands were not registered: {error}")
    names = ", ".join(f"/{command['name']}" for command in made or commands)
    where = (
        f"in the server {guild} (shown at once)"
        if guild
        else "globally (Discord may take up to an hour to show them)"
    )
    typer.echo(f"rollbook: {len(made or commands)} commands registered {where}: {names}")
