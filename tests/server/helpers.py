"""Helpers the server's test modules share (no test module imports another): problem+json checks,
acting as a member, the log's entries of a kind, a forger's rehash, ``rollbook log verify``, the
combat chain's sheets."""

from __future__ import annotations

import json
import subprocess
from contextlib import contextmanager

from typer.testing import CliRunner

from rollbook.server import auth, tx
from rollbook.server.chain import entry_hash
from rollbook.server.copy import open_store

from .conftest import V20_SHEET, V20_TEST

PROBLEM = "application/problem+json"


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code, body
    assert {"type", "title", "status", "detail", "code"} <= set(body)
    assert body["status"] == status
    return body


def as_member(app, headers: dict, work):
    token = headers["Authorization"].split(" ", 1)[1]

    def run(session):
        member = auth.authenticate(session, token)
        assert member is not None
        return work(session, member)

    return tx.run(app.state.db, run)


@contextmanager
def store_session(url: str):
    """A read session on the store at ``url``; its engine is disposed afterwards."""
    database = open_store(url)
    try:
        with database.read() as session:
            yield session
    finally:
        database.dispose()


def entries_of(table, kind: str) -> list[dict]:
    return [e for e in table.log()["entries"] if e["kind"] == kind]


def rehash(lines: list[str], start_seq: int) -> list[str]:
    """Recompute the chain from ``start_seq`` on (what a forger with the whole log would do)."""
    entries = [json.loads(line) for line in lines]
    for index, entry in enumerate(entries):
        if entry["seq"] < start_seq:
            continue
        if index:
            entry["prev_hash"] = entries[index - 1]["entry_hash"]
        entry["entry_hash"] = entry_hash(
            **{
                k: entry[k]
                for k in (
                    "chronicle",
                    "seq",
                    "prev_hash",
                    "created_at",
                    "kind",
                    "actor",
                    "visibility",
                    "receipt",
                )
            }
        )
    return [json.dumps(entry) for entry in entries]


def rolled_v20(make_table, **rules) -> list[dict]:
    """A v20 chronicle (``rules`` at its creation) where a player rolled once: its export's entries."""
    table = make_table("v20", **rules)
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    assert table.roll(player, character["id"], V20_TEST).status_code == 201
    return [json.loads(line) for line in table.export().splitlines()]


def rechained(entries: list[dict]) -> list[dict]:
    """The forger's move: every hash recomputed after an edit (no ``--head`` to catch it)."""
    previous = None
    for entry in entries:
        if previous is not None:
            entry["prev_hash"] = previous["entry_hash"]
        fields = {
            k: entry[k]
            for k in ("chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt")
        }
        entry["entry_hash"] = entry_hash(
            **fields,
            character=entry.get("character"),
            refers_to=entry.get("refers_to"),
            effects=entry.get("effects", []),
        )
        previous = entry
    return entries


def log_verify(path, *options: str) -> subprocess.CompletedProcess:
    """``rollbook log verify PATH [OPTIONS]`` run in this process (the command itself, through typer's
    runner; a process each cost about a second of start-up, and the verify tests run it hundreds of
    times; the command as a process is tested in tests/cli): its exit status, stdout and stderr."""
    from rollbook.cli import _load_commands, app

    _load_commands()
    args = ["log", "verify", str(path), *options]
    done = CliRunner().invoke(app, args)
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        raise done.exception
    return subprocess.CompletedProcess(args, done.exit_code, done.stdout, done.stderr)


def verify(tmp_path, lines: list[str], name: str = "log.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return log_verify(path)


V20_ATTACKER = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3, "stamina": 2},
    "skills": {"melee": 2, "firearms": 3},
    "weapons": [
        {"name": "knife", "damage": 1, "damage_type": "lethal"},
        {"name": "pistol", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
    ],
}
V20_DEFENDER = {"name": "Bran", "attributes": {"stamina": 2}, "disciplines": {"fortitude": 1}}
MELEE = {"kind": "test", "attribute": "dexterity", "ability": "melee"}
