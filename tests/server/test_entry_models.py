"""The log's entry kinds (``rollbook.entries``) read what the store holds without changing a byte:
every kind the server writes, on SQLite and PostgreSQL, and the entries of an old database (commit
a644e05), parse into their models and dump back to the stored JSON, so an entry's hash over its
receipt (``server/chain.py``) is the same before and after; an export parses whole as ``Entry``."""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import select

from rollbook import entries
from rollbook.server import seal
from rollbook.server.chain import canonical, committed_hash_of, read_jsonl
from rollbook.server.models import FairSeed
from rollbook.server.usecases import characters, rolls

from .conftest import V5_SHEET, V5_TEST
from .helpers import as_member
from .receipts import Dice, ok, play_everything

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "a644e05.sqlite"


def round_trips(kind: str, receipt) -> bool:
    model = entries.receipt_of(kind, receipt)
    return canonical(model.dump()) == canonical(receipt)


def test_an_old_databases_receipts_dump_to_their_stored_bytes(tmp_path):
    """Entries written by the first released server, read from a copy of its file."""
    copy = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE, copy)
    with closing(sqlite3.connect(copy)) as db:
        rows = db.execute("SELECT kind, receipt FROM log_entries ORDER BY id").fetchall()
    assert rows
    for kind, text in rows:
        assert round_trips(kind, json.loads(text)), (kind, text)


def test_the_kinds_come_from_the_union_and_each_names_its_receipt():
    assert len(entries.KINDS) == len(set(entries.KINDS)) == 34
    assert set(entries.RECEIPTS) == set(entries.KINDS)
    schema = entries.ENTRY.json_schema()
    assert set(schema["discriminator"]["mapping"]) == set(entries.KINDS)


def test_a_receipt_of_another_kind_or_type_is_refused_never_coerced():
    with pytest.raises(entries.ValidationError):
        entries.receipt_of("reveal", {"reveals": "3", "entry_hash": "ab"})  # a string is no seq
    with pytest.raises(entries.ValidationError):
        entries.receipt_of("quick_setting", {"allowed": 1})  # 1 is no true
    with pytest.raises(KeyError):
        entries.receipt_of("nonsense", {})
    kept = {"passage": "a", "from": "b", "later_field": [1, 2]}  # a field it does not name is kept
    assert entries.receipt_of("solo_passage", kept).dump() == kept


def _sealed_elsewhere(session, chronicle: int) -> None:
    """The public seed in use as if the key file had been replaced (F-1): sealed under another secret."""
    row = session.scalars(
        select(FairSeed).where(
            FairSeed.chronicle_id == chronicle, FairSeed.stream == "public", FairSeed.revealed_seq.is_(None)
        )
    ).one()
    row.sealed = seal.seal(
        secrets.token_bytes(32), chronicle, row.commitment, secret="another operator's secret"
    )


def _every_kind(client, make_table, app) -> list[str]:
    """A V5 chronicle that logs every kind the API and the use cases write; its export's lines."""
    lines: list[str] = []
    dice = Dice()
    group = play_everything(client, dice, "v5")  # rolls, rerolls, adjustments, asks, grants, a reveal
    lines += [t.export() for t, _ in group.tables]

    t = make_table("v5")
    player = t.join("Ana")
    me = client.get("/api/me", headers=player).json()["member"]["id"]
    mine = t.character(t.st, V5_SHEET, owner=me)
    foe = t.character(t.st, {**V5_SHEET, "name": "Foe"})
    base = t.base
    ok(client.patch(base, headers=t.st, json={"difficulty": 3}), 200)  # settings
    ok(client.post(f"{base}/scenes", headers=t.st, json={"name": "Docks"}))  # scene_open
    ok(client.post(f"{base}/scene/turns", headers=t.st, json={}))  # turn
    ok(client.post(f"{base}/characters/{mine['id']}/actions", headers=t.st, json={"actions": 2}))
    standing = ok(client.post(f"{base}/standing-grants", headers=t.st, json={"edges": {"difficulty": 2}}))
    ok(client.delete(f"{base}/standing-grants/{standing['standing']['id']}", headers=t.st), 200)
    asked = ok(t.roll(player, mine["id"], {**V5_TEST, "difficulty": 1}, ask=True), 202)
    ok(client.post(f"{base}/asks/{asked['ask']['id']}/withdraw", headers=player), 200)  # withdrawal
    ok(client.post(f"{base}/characters/{mine['id']}/compulsion", headers=t.st, json={"compulsion": "hunger"}))
    ok(client.delete(f"{base}/characters/{mine['id']}/compulsion", headers=t.st), 200)
    ok(client.put(f"{base}/members/me/client-seed", headers=player, json={"client_seed": "mine"}), 200)
    ok(t.roll(player, mine["id"], V5_TEST))
    contest = ok(
        client.post(
            f"{base}/contests",
            headers=t.st,
            json={
                "attacker": {"character": mine["id"], "action": V5_TEST},
                "defender": {"character": foe["id"], "action": V5_TEST},
            },
        )
    )
    for side in ("attacker", "defender"):  # the second logs the contest_result
        ok(client.post(f"{base}/contests/{contest['entry']['seq']}/rolls", headers=t.st, json={"side": side}))
    ok(
        client.post(
            f"{base}/extended", headers=t.st, json={"character": foe["id"], "action": V5_TEST, "target": 3}
        )
    )
    ok(client.patch(f"{base}/characters/{mine['id']}", headers=t.st, json={"patch": {"hunger": 2}}), 200)
    ok(client.post(f"{base}/scene/close", headers=t.st), 200)  # scene_close, seed_reveal, seed_commit
    as_member(app, t.st, lambda s, m: _sealed_elsewhere(s, t.id))
    ok(client.post(f"{base}/fair/abandon", headers=t.st))  # seed_abandon (and a seed_commit)
    as_member(app, t.st, lambda s, m: rolls.set_quick_rolls(s, m, True))
    as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}))
    ok(client.get(f"{base}/characters/{mine['id']}/export", headers=player), 200)  # sheet_export
    exported = ok(client.get(f"{base}/characters/{mine['id']}/export", headers=player), 200)
    ok(client.post(f"{base}/characters/import", headers=t.st, json={"source": exported}))  # sheet_import
    as_member(app, t.st, lambda s, m: characters.remove_character(s, m, foe["id"]))  # removal (the pages')
    ok(client.delete(f"{base}/members/{me}", headers=t.st), 200)  # member_removed
    lines.append(t.export())
    _pages_render(client, t.id, t.st, t.log(t.st, limit=200)["entries"])

    solo = ok(client.post("/api/solo", json={"scenario": "drowned-lantern"}))
    headers = {"Authorization": f"Bearer {solo['token']}"}
    option = "choice:0"
    ok(
        client.post(
            f"/api/chronicles/{solo['chronicle']['id']}/solo/act", headers=headers, json={"option": option}
        ),
        200,
    )
    lines.append(client.get(f"/api/chronicles/{solo['chronicle']['id']}/log/export", headers=headers).text)
    return lines


def _pages_render(client, chronicle: int, headers: dict, logged: list[dict]) -> None:
    """The chronicle's page and each entry's page render every kind's card (the presenters read the
    receipts through the models)."""
    page = client.get(f"/chronicles/{chronicle}", headers=headers)
    assert page.status_code == 200, page.text[-2000:]
    for entry in logged:
        page = client.get(f"/chronicles/{chronicle}/entries/{entry['seq']}", headers=headers)
        assert page.status_code == 200, (entry["kind"], page.text[-2000:])


def test_every_kind_the_server_writes_parses_and_dumps_to_its_stored_bytes(client, make_table, app):
    seen: set[str] = set()
    for text in _every_kind(client, make_table, app):
        visibility = None  # the entry before's (the committed hash covers it, chain.py)
        for _, line in read_jsonl(text.splitlines()):
            model = entries.entry_of(line)  # the whole line, by its kind
            assert model.kind == line["kind"]  # type: ignore[attr-defined]
            assert round_trips(line["kind"], line["receipt"]), line
            assert committed_hash_of(line, visibility) == line["entry_hash"]
            visibility = line["visibility"]
            seen.add(line["kind"])
    assert sorted(set(entries.KINDS) - seen) == []


def test_log_verify_reports_an_unknown_kind_and_a_receipt_not_of_its_kind():
    """The chain's check of kinds comes from the union: a line hashed right but of no kind of the log,
    or whose receipt is not its kind's, is a problem."""
    from rollbook.server.chain import GENESIS_HASH, entry_hash, verify_entries

    def line(kind: str, receipt: dict) -> dict:
        fields = {
            "chronicle": 1,
            "seq": 1,
            "prev_hash": GENESIS_HASH,
            "created_at": "2026-12-06T20:00:00Z",
            "kind": kind,
            "actor": None,
            "visibility": "public",
            "receipt": receipt,
            "character": None,
            "refers_to": None,
            "effects": [],
        }
        return {**fields, "entry_hash": entry_hash(**fields)}

    clean, _ = verify_entries([(1, line("scene_open", {"scene": 1, "name": "Docks"}))])
    assert clean == []
    unknown, _ = verify_entries([(1, line("scene_opened", {"scene": 1}))])
    assert unknown == ["entry 1: unknown kind 'scene_opened'"]
    wrong, _ = verify_entries([(1, line("scene_open", {"scene": "1"}))])
    assert wrong == ["entry 1: not a scene_open receipt (scene: Input should be a valid integer)"]


def test_log_verify_reports_an_entry_whose_header_is_of_another_type():
    """The ledgers read an entry's header through ``entries.Logged`` and skip one they cannot read: the
    chain's check says what is wrong with it, so a forged header is never passed over in silence."""
    from rollbook.server.chain import GENESIS_HASH, entry_hash, verify_entries

    fields = {
        "chronicle": 1,
        "seq": 1,
        "prev_hash": GENESIS_HASH,
        "created_at": "2026-12-06T20:00:00Z",
        "kind": "scene_open",
        "actor": None,
        "visibility": "public",
        "receipt": {"scene": 1},
        "character": "3",  # a character is an id
        "refers_to": None,
        "effects": [],
    }
    problems, _ = verify_entries([(1, {**fields, "entry_hash": entry_hash(**fields)})])
    assert problems == ["entry 1: not a log entry (character: Input should be a valid integer)"]
    read = entries.Logged.of({**fields, "character": 3})
    assert (read.seq, read.kind, read.character, read.read()) == (
        1,
        "scene_open",
        3,
        entries.receipt_of("scene_open", {"scene": 1}),
    )
