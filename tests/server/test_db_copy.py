"""``rollbook db copy``: a store copied into another, SQLite -> PostgreSQL and back, on
chronicles holding every entry kind (asks granted and refused, a standing grant, scenes and turns,
an exchange, fair seeds before and after a reveal, hidden rolls, client seeds): the target's exports
byte-identical to the source's, verified clean, and the copied server taking the next roll with the
next nonce on the chain head; a copy failing half-way leaves the target empty; a non-empty target is
refused unless forced; a bad URL is one line and exit 2."""

from __future__ import annotations

import json
import os
import secrets
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from rollbook.app.app import create_app
from rollbook.server.access import STORYTELLER
from rollbook.server.copy import CopyError, copy_database, counts, json_columns, open_store, tables
from rollbook.server.models import Chronicle, IdempotencyRecord, Member
from rollbook.server.usecases.log import export_lines

from .conftest import (
    V5_SHEET,
    V5_TEST,
    V20_SHEET,
    Table,
    bearer,
    fresh_pg_database,
    postgres_problem,
    run_cli,
)
from .helpers import log_verify, store_session

BIG = {**V5_SHEET, "name": "Vasha", "attributes": {"dexterity": 5, "wits": 2}, "skills": {"firearms": 5}}
ATTACKER = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 5},
    "skills": {"melee": 5},
    "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
}
DEFENDER = {"name": "Bran", "attributes": {"stamina": 2}}
MELEE = {"kind": "test", "attribute": "dexterity", "ability": "melee"}
RU_SHEET = {"name": "Ayla", "skills": {"climb": 12}}
RU_CHECK = {"kind": "check", "action": "Climb the wall", "skill": "climb"}


def ok(response, status: int = 201) -> dict:
    assert response.status_code == status, response.text
    return response.json()


def v5_evening(client, make_table) -> Table:
    """Client seeds, a scene with turns, visible and hidden rolls, a hidden ask granted, an ask
    refused, the scene closed, the seeds revealed by a rotation, then rolls under the new seeds."""
    table = make_table("v5")
    alice, bob = table.join("Alice"), table.join("Bob")
    ok(client.put(f"{table.base}/members/me/client-seed", headers=alice, json={"client_seed": "alice"}), 200)
    vasha, ilse = table.character(alice, BIG), table.character(bob, {**BIG, "name": "Ilse"})
    ok(client.post(f"{table.base}/scenes", headers=table.st, json={"name": "Elysium"}))
    ok(client.post(f"{table.base}/scene/turns", headers=table.st))
    ok(table.roll(alice, vasha["id"], V5_TEST))
    ok(table.roll(table.st, vasha["id"], V5_TEST, hidden=True))
    asked = ok(table.roll(alice, vasha["id"], {**V5_TEST, "difficulty": 4}, hidden=True, ask=True), 202)
    ok(client.post(f"{table.base}/asks/{asked['ask']['id']}/grant", headers=table.st, json={}))
    refused = ok(table.roll(bob, ilse["id"], V5_TEST, hidden=True, ask=True), 202)
    ok(
        client.post(
            f"{table.base}/asks/{refused['ask']['id']}/refuse", headers=table.st, json={"reason": "no"}
        ),
        200,
    )
    ok(client.post(f"{table.base}/scene/close", headers=table.st), 200)
    ok(client.post(f"{table.base}/fair/rotate", headers=table.st))  # the seeds revealed, new ones committed
    ok(table.roll(bob, ilse["id"], V5_TEST))
    ok(table.roll(table.st, ilse["id"], V5_TEST, hidden=True))  # a hidden roll under a seed still sealed
    # a roll with an Idempotency-Key: its stored answer is copied (within its window)
    key = secrets.token_hex(16)
    table.retry = {
        "url": f"{table.base}/characters/{ilse['id']}/rolls",
        "key": key,
        "headers": bob,
        "entry": ok(
            client.post(
                f"{table.base}/characters/{ilse['id']}/rolls",
                headers={**bob, "Idempotency-Key": key},
                json={"action": V5_TEST},
            )
        )["entry"],
    }
    return table


def v20_exchange(client, make_table) -> Table:
    """An attack followed by its damage (the exchange), with real dice: attacks until one hits."""
    table = make_table("v20")
    alice, bob = table.join("Alice"), table.join("Bob")
    nia, bran = table.character(alice, ATTACKER), table.character(bob, DEFENDER)
    table.character(table.st, V20_SHEET)
    for _ in range(40):
        attack = ok(table.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
        damage = table.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"])
        if damage.status_code == 201:
            return table
    raise AssertionError("forty attacks missed")


def rollunder_standing(client, make_table) -> Table:
    table = make_table("rollunder")
    ann = table.join("Ann")
    ayla = table.character(ann, RU_SHEET)
    ok(client.post(f"{table.base}/standing-grants", headers=table.st, json={"edges": {"advantage": True}}))
    ok(table.roll(ann, ayla["id"], {**RU_CHECK, "advantage": True}))
    return table


@pytest.fixture()
def played(client, make_table) -> list[Table]:
    return [
        v5_evening(client, make_table),
        v20_exchange(client, make_table),
        rollunder_standing(client, make_table),
    ]


@contextmanager
def other_store(source_url: str, tmp_path):
    """The other kind of store than ``source_url``'s, empty: PostgreSQL for SQLite and back."""
    if source_url.startswith("sqlite"):
        problem = postgres_problem()
        if problem:
            pytest.skip(problem)
        with fresh_pg_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / f'copy-{secrets.token_hex(3)}.sqlite3'}"


def exports(url: str) -> dict[int, str]:
    """Every chronicle's whole log as its Storyteller exports it."""
    with store_session(url) as session:
        out = {}
        for chronicle in session.scalars(select(Chronicle.id)).all():
            reader = Member(id=0, chronicle_id=chronicle, name="", role=STORYTELLER, created_at="")
            out[chronicle] = "".join(export_lines(session, reader))
        return out


def sql_nulls(url: str) -> dict[str, int]:
    """How many rows hold SQL NULL in each JSON column (a JSON ``null`` is not one)."""
    with store_session(url) as session:
        return {
            f"{table.name}.{name}": session.execute(
                select(func.count()).select_from(table).where(table.c[name].is_(None))
            ).scalar_one()
            for table in tables()
            for name in json_columns(table)
            if table.name != "idempotency_keys"
        }


def rows(url: str) -> dict[str, int]:
    with store_session(url) as session:
        return counts(session.connection())


def test_copy_to_the_other_store_exports_byte_identical_verified_next_roll_ok(
    database_url, client, played, tmp_path
):
    with other_store(database_url, tmp_path) as target:
        copied = run_cli("db", "copy", "--from", database_url, "--to", target)
        assert copied.returncode == 0, copied.stderr
        assert "rows copied" in copied.stdout
        before, after = exports(database_url), exports(target)
        assert after == before  # every chronicle's export, byte for byte
        # every row (the idempotent answers: those still in their window, so no more than the source's)
        copied_rows, source_rows = rows(target), rows(database_url)
        assert copied_rows["idempotency_keys"] <= source_rows["idempotency_keys"]
        del copied_rows["idempotency_keys"], source_rows["idempotency_keys"]
        assert copied_rows == source_rows
        assert sql_nulls(target) == sql_nulls(database_url)  # SQL NULL stays SQL NULL, JSON null stays JSON
        for table in played:
            path = tmp_path / f"log-{table.id}.jsonl"
            path.write_text(after[table.id], encoding="utf-8")
            verified = log_verify(path)
            assert verified.returncode == 0, verified.stdout + verified.stderr
            assert "clean" in verified.stderr
        # the copied server takes the next roll: the next seq on the chain head, the next nonce
        evening = played[0]
        entries = [json.loads(line) for line in after[evening.id].splitlines()]
        head = entries[-1]
        public = [
            e
            for e in entries
            if e["kind"] == "roll" and e["receipt"].get("fair", {}).get("stream") == "public"
        ]
        last_fair = public[-1]["receipt"]["fair"]
        with TestClient(create_app(target)) as copied_client:
            # the request sent again with its key gets the answer stored on the source: no second roll
            retry = evening.retry
            again = ok(
                copied_client.post(
                    retry["url"],
                    headers={**retry["headers"], "Idempotency-Key": retry["key"]},
                    json={"action": V5_TEST},
                )
            )["entry"]
            assert again == retry["entry"]
            moved = Table(copied_client, {**evening.created})
            characters = ok(copied_client.get(f"{moved.base}/characters", headers=moved.st), 200)[
                "characters"
            ]
            rolled = ok(moved.roll(moved.st, characters[0]["id"], V5_TEST))["entry"]
            assert rolled["seq"] == head["seq"] + 1 and rolled["prev_hash"] == head["entry_hash"]
            fair = rolled["receipt"]["fair"]
            assert fair["commitment"] == last_fair["commitment"] and fair["nonce"] == last_fair["nonce"] + 1
            # a new chronicle takes a fresh id (the PostgreSQL sequences were moved past the ids copied)
            fresh = ok(copied_client.post("/api/chronicles", json={"name": "After the move", "system": "v5"}))
            assert fresh["chronicle"]["id"] > max(before)
            joined = ok(
                copied_client.post("/api/join", json={"invitation": fresh["invitation"], "name": "Zed"})
            )
            assert ok(copied_client.get("/api/me", headers=bearer(joined["token"])), 200)


def test_an_idempotent_answer_whose_window_is_over_is_left_behind(database_url, tmp_path):
    source = open_store(database_url)
    key_hash = secrets.token_hex(32)
    try:
        with source.transaction() as session:
            session.add(
                IdempotencyRecord(
                    scope="anonymous",
                    key_hash=key_hash,
                    fingerprint="0" * 64,
                    status=201,
                    body="{}",
                    created_at="2020-01-01T00:00:00.000000Z",
                    expires_at="2020-01-02T00:00:00.000000Z",
                )
            )
    finally:
        source.dispose()
    with other_store(database_url, tmp_path) as target:
        copy_database(database_url, target)
        copied = open_store(target)
        try:
            with copied.read() as session:
                assert (
                    session.scalars(
                        select(IdempotencyRecord).where(IdempotencyRecord.key_hash == key_hash)
                    ).first()
                    is None
                )
        finally:
            copied.dispose()


def test_a_copy_failing_half_way_leaves_the_target_empty(database_url, client, played, tmp_path):
    with other_store(database_url, tmp_path) as target:

        def fail_at_the_log(table: str, done: int) -> None:
            if table == "log_entries":
                raise RuntimeError("the wire was cut")

        with pytest.raises(RuntimeError, match="wire was cut"):
            copy_database(database_url, target, progress=fail_at_the_log)
        assert set(rows(target).values()) == {0}


def test_a_non_empty_target_is_refused_unless_forced(database_url, client, played, tmp_path):
    with other_store(database_url, tmp_path) as target:
        assert copy_database(database_url, target).total > 0
        refused = run_cli("db", "copy", "--from", database_url, "--to", target)
        assert refused.returncode == 2
        assert (
            refused.stderr.strip().count("\n") == 0
            and "not empty" in refused.stderr
            and "--force" in refused.stderr
        )
        # forced: emptied (the log's append-only triggers lifted for it, and put back) and copied again
        forced = copy_database(database_url, target, force=True)
        assert exports(target) == exports(database_url)
        assert forced.rows["log_entries"] == rows(database_url)["log_entries"]
        if target.startswith("sqlite"):
            import sqlite3

            path = target.removeprefix("sqlite:///")
            with sqlite3.connect(path) as raw, pytest.raises(sqlite3.DatabaseError):
                raw.execute("DELETE FROM log_entries")
        else:
            import psycopg

            with (
                psycopg.connect(target.replace("postgresql+psycopg", "postgresql")) as raw,
                pytest.raises(psycopg.Error),
            ):
                raw.execute("DELETE FROM log_entries")


@pytest.mark.parametrize(
    "source, target, says",
    [
        ("nonsense://x", "sqlite:///{tmp}/to.sqlite3", "bad database URL"),
        ("sqlite:///{tmp}/absent.sqlite3", "sqlite:///{tmp}/to.sqlite3", "no database file"),
        ("sqlite:///{tmp}/from.sqlite3", "postgresql://nobody@127.0.0.1:1/nowhere", "cannot reach"),
    ],
)
def test_a_bad_url_or_a_store_that_does_not_answer_is_one_line_and_exit_2(tmp_path, source, target, says):
    if "from.sqlite3" in source:
        open_store(source.format(tmp=tmp_path)).dispose()
    answer = run_cli(
        "db",
        "copy",
        "--from",
        source.format(tmp=tmp_path),
        "--to",
        target.format(tmp=tmp_path),
        env={**os.environ, "ROLLBOOK_LANG": "en"},
    )
    assert answer.returncode == 2, answer.stdout + answer.stderr
    assert (
        says in answer.stderr and answer.stderr.strip().count("\n") == 0 and "Traceback" not in answer.stderr
    )


def test_the_same_store_is_refused(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'same.sqlite3'}"
    with pytest.raises(CopyError, match="same store"):
        copy_database(url, url)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CopyError, match="same store"):
        copy_database("sqlite:///./same.sqlite3", url)


def test_the_progress_hears_every_table_and_every_row(database_url, client, played, tmp_path, monkeypatch):
    from rollbook.server import copy as copy_module

    monkeypatch.setattr(copy_module, "BATCH", 7)  # several batches per table
    heard: dict[str, list[int]] = {}
    planned: dict[str, int] = {}
    with other_store(database_url, tmp_path) as target:
        result = copy_database(
            database_url,
            target,
            totals=planned.update,
            progress=lambda table, done: heard.setdefault(table, []).append(done),
        )
    assert planned == result.rows and set(planned) == {table.name for table in copy_module.tables()}
    for table, counts_heard in heard.items():
        assert counts_heard == sorted(counts_heard) and counts_heard[-1] == result.rows[table]
    assert len(heard["log_entries"]) == -(-result.rows["log_entries"] // 7)
