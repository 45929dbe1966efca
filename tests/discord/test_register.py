"""``rollbook discord register [--guild ID]``: the application's commands overwritten in
bulk with exactly ``command_definitions()``, against the stand-in of Discord's REST API; a missing
setting, a bad id or Discord's refusal is one line and exit status 2."""

from __future__ import annotations

import os

from rollbook.discord.commands import command_definitions
from tests.server.conftest import run_cli

GUILD = "440000000000000004"


def environment(standin, **more: str) -> dict[str, str]:
    """The CLI's environment: Discord's settings pointed at the stand-in (none of the caller's)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("DISCORD_")}
    env.update(
        {
            "DISCORD_API_BASE": standin.base,
            "DISCORD_APPLICATION_ID": standin.application_id,
            "DISCORD_BOT_TOKEN": standin.bot_token,
            **more,
        }
    )
    return env


def test_register_overwrites_one_guilds_commands_with_the_definitions(standin):
    done = run_cli("discord", "register", "--guild", GUILD, env=environment(standin))
    assert done.returncode == 0, done.stderr
    [seen] = standin.requests(rf"PUT /applications/{standin.application_id}/guilds/{GUILD}/commands")
    assert seen.body == command_definitions()
    assert seen.headers["authorization"] == f"Bot {standin.bot_token}"
    assert (
        standin.commands[GUILD]
        and "registered" in done.stdout
        and f"/{command_definitions()[0]['name']}" in done.stdout
    )


def test_register_without_a_guild_overwrites_the_global_commands(standin):
    done = run_cli("discord", "register", env=environment(standin))
    assert done.returncode == 0, done.stderr
    assert (
        standin.requests(rf"PUT /applications/{standin.application_id}/commands")[-1].body
        == command_definitions()
    )


def test_a_missing_setting_is_one_line_and_exit_2(standin):
    env = environment(standin)
    del env["DISCORD_BOT_TOKEN"]
    done = run_cli("discord", "register", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "DISCORD_BOT_TOKEN" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_guild_id_or_discords_refusal_is_one_line_and_exit_2(standin):
    done = run_cli("discord", "register", "--guild", "my-server", env=environment(standin))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--guild" in done.stderr
    refused = run_cli("discord", "register", env=environment(standin, DISCORD_BOT_TOKEN="not-the-token"))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "401" in refused.stderr
    assert "not-the-token" not in refused.stderr + refused.stdout
