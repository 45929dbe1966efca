"""rollbook log verify covers every exported field: each tamper of an export (a face, an outcome,
the effects, the actor, the time, the character, refers_to, a field added, an entry dropped or two
swapped) is caught; on exports from SQLite and PostgreSQL."""

from __future__ import annotations

import copy
import json

import pytest

from rollbook.play import verify_receipt
from rollbook.server.chain import (
    committed_hash_of,
    entry_hash,
    hash_of,
    legacy_hash_of,
    read_jsonl,
    verify_entries,
)
from rollbook.server.ledger import AuthorityLedger

from .conftest import V20_SHEET, V20_TEST
from .helpers import log_verify


def _verify(entries: list[dict]) -> list[str]:
    lines = [json.dumps(entry, ensure_ascii=False) for entry in entries]
    problems, _ = verify_entries(read_jsonl(lines), verify_receipt, AuthorityLedger())
    return problems


@pytest.fixture()
def exported(client, make_table) -> list[dict]:
    """A played log: a roll spending Willpower (effects), a reroll-free roll, a restore, a hidden
    roll and its reveal (refers_to)."""
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    assert table.roll(player, character["id"], {**V20_TEST, "willpower": True}).status_code == 201
    assert table.roll(player, character["id"], V20_TEST).status_code == 201
    restored = client.post(
        f"{table.base}/characters/{character['id']}/adjustments",
        headers=table.st,
        json={"change": {"kind": "restore", "resource": "willpower", "amount": 1}},
    )
    assert restored.status_code == 201, restored.text
    hidden = table.roll(table.st, character["id"], V20_TEST, hidden=True).json()["entry"]["seq"]
    assert client.post(f"{table.base}/log/{hidden}/reveal", headers=table.st).status_code == 201
    entries = [json.loads(line) for line in table.export().splitlines()]
    assert _verify(entries) == []
    # the server may write entries of its own first (the fair dice's seed commitment, F-1)
    mine = [e for e in entries if e["kind"] in ("roll", "adjust", "reveal")]
    assert [e["kind"] for e in mine] == ["roll", "roll", "adjust", "roll", "reveal"]
    assert mine[0]["effects"] and mine[4]["refers_to"] == hidden
    return entries


def _nth(entries, n: int) -> int:
    """The list index of the n-th (1-based) entry the requests made."""
    made = [i for i, e in enumerate(entries) if e["kind"] in ("roll", "adjust", "reveal")]
    return made[n - 1]


def _tampered(entries, n: int, change) -> list[dict]:
    copied = copy.deepcopy(entries)
    change(copied[_nth(entries, n)])
    return copied


def _set_face(entry):
    faces = entry["receipt"]["faces"]
    faces[0] = 10 if faces[0] != 10 else 2


def _set_outcome(entry):
    result = entry["receipt"]["result"]
    result["outcome"] = "botch" if result.get("outcome") != "botch" else "success"


def _set_effects(entry):
    entry["effects"] = copy.deepcopy(entry["effects"])
    entry["effects"][0] = {
        **entry["effects"][0],
        **{
            k: (v + 1 if isinstance(v, int) and not isinstance(v, bool) else v)
            for k, v in entry["effects"][0].items()
        },
    }


TAMPERS = {
    "face": (1, _set_face),
    "outcome": (1, _set_outcome),
    "effects": (1, _set_effects),
    "effects dropped": (1, lambda e: e.update(effects=[])),
    "actor": (1, lambda e: e["actor"].update(member=e["actor"]["member"] + 1)),
    "actor name": (2, lambda e: e["actor"].update(name="Bob")),
    "time": (2, lambda e: e.update(created_at=e["created_at"].replace("20", "19", 1))),
    "character": (2, lambda e: e.update(character=e["character"] + 1)),
    "refers_to": (5, lambda e: e.update(refers_to=1)),
    "kind": (3, lambda e: e.update(kind="roll")),
    "visibility": (4, lambda e: e.update(visibility="public")),
    "added field": (2, lambda e: e.update(note="trust me")),
    "redacted claim": (2, lambda e: e.update(redacted=True)),
}


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_field_is_caught(exported, name):
    n, change = TAMPERS[name]
    seq = exported[_nth(exported, n)]["seq"]
    problems = _verify(_tampered(exported, n, change))
    assert problems, f"a tampered {name} passed"
    assert any(p.startswith(f"entry {seq}:") for p in problems), problems


def test_a_dropped_entry_is_caught(exported):
    i = _nth(exported, 2)
    problems = _verify(exported[:i] + exported[i + 1 :])
    assert any("missing" in p for p in problems), problems


def test_swapped_entries_are_caught(exported):
    i = _nth(exported, 2)
    swapped = [*exported[:i], exported[i + 1], exported[i], *exported[i + 2 :]]
    assert any("out of order" in p or "missing" in p or "prev_hash" in p for p in _verify(swapped))
    renumbered = copy.deepcopy(swapped)  # and renumbered, as a forger would
    renumbered[i]["seq"], renumbered[i + 1]["seq"] = exported[i]["seq"], exported[i + 1]["seq"]
    assert _verify(renumbered)


def test_a_rehashed_tamper_in_the_middle_breaks_the_chain(exported):
    """Recomputing the tampered entry's own hash (either formula) does not hide it: the next entry's
    prev_hash names the original."""
    i = _nth(exported, 1)
    for rehash in (hash_of, legacy_hash_of):
        forged = _tampered(exported, 1, _set_effects)
        forged[i]["entry_hash"] = rehash(forged[i])
        after = exported[i + 1]["seq"]
        assert any(p.startswith(f"entry {after}:") and "prev_hash" in p for p in _verify(forged))


def test_every_field_written_is_hashed(exported):
    index = _nth(exported, 1)
    entry, before = exported[index], exported[index - 1]
    # hashed over its header and the hash of its content (every other exported field)
    assert entry["entry_hash"] == committed_hash_of(entry, before["visibility"])
    assert entry["entry_hash"] not in (hash_of(entry), legacy_hash_of(entry))
    for name, value in (("effects", []), ("actor", None), ("character", None), ("refers_to", 1)):
        assert committed_hash_of({**entry, name: value}, before["visibility"]) != entry["entry_hash"]
    with pytest.raises(TypeError):
        entry_hash(
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
            },
            effects=[],
        )


def test_the_cli_reports_a_tampered_effect(exported, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text(
        "\n".join(json.dumps(e) for e in _tampered(exported, 1, _set_effects)) + "\n", encoding="utf-8"
    )
    done = log_verify(path)
    assert (
        done.returncode == 1 and f"entry {exported[_nth(exported, 1)]['seq']}: hash mismatch" in done.stdout
    )
