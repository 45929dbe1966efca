"""Through the API, on SQLite and PostgreSQL: each fixture imported (201: the character,
the rollbook sheet, the report), hostile files refused with a clear problem and nothing written,
exports logged, the log entries carrying no rating."""

from __future__ import annotations

import json

import pytest

from tests.interop.conftest import load

IMPORTS = [
    ("wod5e_vampire.json", "v5"),
    ("wod5e_ghoul.json", "v5"),
    ("wod5e_thinblood.json", "v5"),
    ("progeny_vampire.json", "v5"),
    ("progeny_thinblood.json", "v5"),
    ("v5bot_vampire.json", "v5"),
    ("v5bot_ghoul.json", "v5"),
    ("v5bot_thinblood.json", "v5"),
    ("wod20_vampire.json", "v20"),
]


def characters(table) -> list:
    return table.client.get(f"{table.base}/characters", headers=table.st).json()["characters"]


@pytest.mark.parametrize(("name", "system"), IMPORTS)
def test_each_fixture_imports_through_the_api(make_table, name, system):
    table = make_table(system)
    response = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": load(name)}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert (
        body["sheet"] == body["character"]["sheet"] == table.sheet(table.st, body["character"]["id"])["sheet"]
    )
    assert body["report"]["problems"] == [] and body["report"]["mapped"]
    entry = body["entry"]
    assert entry["kind"] == "sheet_import" and entry["receipt"]["origin"] == {
        "format": body["report"]["format"]
    }
    assert entry["receipt"]["counts"]["mapped"] == len(body["report"]["mapped"])


def test_report_field_by_field_and_homebrew_as_typed(make_table):
    table = make_table("v5")
    body = table.client.post(
        f"{table.base}/characters/import",
        headers=table.st,
        json={"source": load("wod5e_vampire.json"), "format": "wod5e", "system": "v5"},
    ).json()
    mapped = {m["source"]: m["target"] for m in body["report"]["mapped"]}
    assert mapped["$.system.skills.animalken.value"] == "skills.animal_ken"
    assert mapped["$.system.disciplines.sorcery.value"] == "disciplines.blood_sorcery"
    assert body["sheet"]["names"] == {"egouts_de_paris": "Égouts de Paris"}
    assert {d["source"]: d["reason"] for d in body["report"]["dropped"]}["$.items[6]"] == "merits"
    assert body["entry"]["receipt"]["homebrew"] == ["Goûter le Sang", "Égouts de Paris"]


def test_the_log_entry_carries_no_rating(make_table):
    """Other players see no rating in the public entry."""
    table = make_table("v20")
    player = table.join("Chloé")
    body = table.client.post(
        f"{table.base}/characters/import", headers=player, json={"source": load("wod20_vampire.json")}
    ).json()
    other = table.join("Marc")
    entries = table.log(other)["entries"]
    entry = next(e for e in entries if e["kind"] == "sheet_import")
    text = json.dumps(entry["receipt"])
    for key in ("attributes", "talents", "disciplines", "humanity", "generation", "willpower"):
        assert key not in text
    assert body["character"]["owner"] is not None


@pytest.mark.parametrize(
    ("source", "status", "code"),
    [
        ([1, 2, 3], 422, "import_unknown_format"),
        ({"hello": "world"}, 422, "import_unknown_format"),
        ("just text", 422, "import_unknown_format"),
    ],
)
def test_unknown_formats_name_what_was_expected(make_table, source, status, code):
    table = make_table("v5")
    response = table.client.post(f"{table.base}/characters/import", headers=table.st, json={"source": source})
    assert response.status_code == status, response.text
    problem = response.json()
    assert problem["code"] == code
    assert "progeny" in problem["detail"] and "wod5e" in problem["detail"] and "v5bot" in problem["detail"]
    assert characters(table) == []


def test_hostile_files_refused_nothing_written(make_table):
    table = make_table("v5")
    base = f"{table.base}/characters/import"
    # a trait rated 99 and wrong types: every problem named with its place
    hostile = load("wod5e_vampire.json")
    hostile["system"]["attributes"]["strength"]["value"] = 99
    hostile["system"]["skills"]["brawl"]["value"] = "three"
    response = table.client.post(base, headers=table.st, json={"source": hostile})
    assert response.status_code == 422 and response.json()["code"] == "import_refused"
    problems = response.json()["params"]["problems"]
    assert {(p["source"], p["code"]) for p in problems} == {
        ("$.system.attributes.strength.value", "import_out_of_range"),
        ("$.system.skills.brawl.value", "import_wrong_type"),
    }
    assert "$.system.attributes.strength.value" in response.json()["detail"]
    # deep nesting: refused before any route
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["a"] = {}
        node = node["a"]
    response = table.client.post(
        base, headers=table.st, json={"source": {**load("wod5e_ghoul.json"), "x": deep}}
    )
    assert response.status_code == 422
    # 10 MB: refused before any route
    big = json.dumps({"source": {**load("wod5e_ghoul.json"), "x": "a" * (10 * 1024 * 1024)}})
    response = table.client.post(base, headers={**table.st, "Content-Type": "application/json"}, content=big)
    assert response.status_code == 413
    # the other game's file
    response = table.client.post(base, headers=table.st, json={"source": load("wod20_vampire.json")})
    assert response.status_code == 422 and response.json()["code"] == "import_wrong_system"
    response = table.client.post(
        base, headers=table.st, json={"source": load("wod5e_ghoul.json"), "system": "v20"}
    )
    assert response.status_code == 422 and response.json()["code"] == "import_wrong_system"
    assert characters(table) == []
    assert [e for e in table.log()["entries"] if e["kind"] == "sheet_import"] == []


def test_export_and_back(make_table):
    table = make_table("v5")
    created = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": load("v5bot_vampire.json")}
    ).json()
    cid = created["character"]["id"]
    response = table.client.get(
        f"{table.base}/characters/{cid}/export", headers=table.st, params={"format": "wod5e"}
    )
    assert response.status_code == 200, response.text
    assert "attachment" in response.headers["content-disposition"]
    exported = response.json()
    assert exported["type"] == "vampire" and exported["name"] == "Nadia"
    again = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": exported}
    ).json()
    assert again["sheet"] == created["sheet"]
    kinds = [e["kind"] for e in table.log()["entries"]]
    assert kinds.count("sheet_export") == 1 and kinds.count("sheet_import") == 2
    wrong = table.client.get(
        f"{table.base}/characters/{cid}/export", headers=table.st, params={"format": "wod20", "lang": "es"}
    )
    assert wrong.status_code == 422 and wrong.json()["code"] == "export_wrong_system"
    assert wrong.json()["detail"].endswith("esta crónica juega a Vampiro: la Mascarada 5.ª edición (V5).")


def test_a_player_exports_only_their_own(make_table):
    table = make_table("v20")
    npc = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": load("wod20_vampire.json")}
    ).json()["character"]
    player = table.join("P")
    response = table.client.get(
        f"{table.base}/characters/{npc['id']}/export", headers=player, params={"format": "wod20"}
    )
    assert response.status_code == 403


def test_the_log_still_verifies_after_imports_and_exports(make_table, tmp_path):
    import subprocess
    import sys

    table = make_table("v5")
    created = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": load("wod5e_vampire.json")}
    ).json()
    cid = created["character"]["id"]
    rolled = table.roll(
        table.st, cid, {"kind": "test", "attribute": "wits", "skill": "stealth", "difficulty": 2}
    )
    assert rolled.status_code == 201, rolled.text
    assert table.client.get(f"{table.base}/characters/{cid}/export", headers=table.st).status_code == 200
    spent = table.client.post(
        f"{table.base}/characters/{cid}/adjustments",
        headers=table.st,
        json={"change": {"kind": "spend_willpower"}},
    )
    assert spent.status_code == 201, spent.text
    path = tmp_path / "log.jsonl"
    path.write_text(table.export(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "log", "verify", str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "clean" in done.stderr
