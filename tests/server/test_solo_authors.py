"""SPEC S-10 and the solo table's smaller promises through the API, on SQLite and PostgreSQL: the host's
folder of scenarios (``ROLLBOOK_SOLO_SCENARIOS``) is played like the shipped ones, each file checked at
start and refused one by one with the checker's message; an NPC bears the name the story shows until it
reveals the true one; the "forgo" choice says it counts as a failure; a choice sent for a passage the
story has left is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rollbook.server.usecases import solo

TINY = Path(__file__).parents[1] / "solo" / "data" / "tiny.yaml"
HIDDEN = {"fr": "Une silhouette", "es": "Una silueta", "en": "A figure"}


def author_file() -> str:
    """The tiny scenario as a host's ``author.yaml``: the thug shown as "a figure" until the fight; the
    lie is a roll of Dominate (a character without it can only forgo it)."""
    data = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    data["id"] = "author"
    data["npcs"]["thug"].update(shown_as=HIDDEN, revealed_by="met_thug")
    data["passages"]["brawl"]["sets_flag"] = "met_thug"
    data["pregenerated"]["disciplines"] = {"dominate": 2}
    data["passages"]["lie"]["check"]["traits"] = ["manipulation", "dominate"]
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


@pytest.fixture()
def folder(tmp_path, monkeypatch) -> Path:
    hosted = tmp_path / "scenarios"
    hosted.mkdir()
    (hosted / "author.yaml").write_text(author_file(), encoding="utf-8")
    (hosted / "broken.yaml").write_text(
        author_file().replace("id: author", "id: broken").replace("goto: lie", "goto: lye"), encoding="utf-8"
    )
    (hosted / "misnamed.yaml").write_text(author_file(), encoding="utf-8")  # its id is author's
    (hosted / "laughs.yaml").write_text("a: &a [*a]\n", encoding="utf-8")
    monkeypatch.setenv("ROLLBOOK_SOLO_SCENARIOS", str(hosted))
    return hosted


def begin(client, scenario: str, **body) -> tuple[dict, dict]:
    response = client.post("/api/solo", json={"scenario": scenario, **body})
    assert response.status_code == 201, response.text
    made = response.json()
    return made, {"Authorization": f"Bearer {made['token']}"}


def test_S_10_the_hosts_folder_is_listed_and_each_faulty_file_refused_with_its_message(client, folder):
    listed = {s["id"] for s in client.get("/api/solo/scenarios").json()["scenarios"]}
    assert "author" in listed and "drowned-lantern" in listed
    assert not listed & {"broken", "misnamed", "laughs"}
    refusals = solo.hosted_refusals("en")
    assert len(refusals) == 3
    assert any("broken.yaml: passages.alley.choices.0.goto" in line and "lye" in line for line in refusals)
    assert any("misnamed.yaml" in line and "named after its id" in line for line in refusals)
    assert any("laughs.yaml" in line and "nested more than" in line for line in refusals)
    assert client.post("/api/solo", json={"scenario": "broken"}).status_code == 422


def test_S_10_an_author_plays_their_own_file_and_the_npc_name_is_hidden_until_revealed(client, folder):
    made, headers = begin(client, "author", language="fr")
    chronicle = made["chronicle"]["id"]
    state = made["state"]
    assert state["passage"]["id"] == "alley"
    names = set(state["cast"].values())
    assert "Une silhouette" in names and "Le voyou" not in names
    roster = client.get(f"/api/chronicles/{chronicle}/characters", headers=headers).json()
    roster = roster.get("characters", roster) if isinstance(roster, dict) else roster
    assert "Le voyou" not in {c["name"] for c in roster} and "Thug" not in {c["name"] for c in roster}
    fight = client.post(
        f"/api/chronicles/{chronicle}/solo/act",
        params={"lang": "fr"},
        headers=headers,
        json={"option": "choice:1"},
    )
    assert fight.status_code == 200, fight.text
    state = fight.json()
    assert state["passage"]["kind"] == "fight" and state["npcs"][0]["name"] == "Le voyou"  # met_thug set
    assert "Le voyou" in state["cast"].values() and "Une silhouette" not in state["cast"].values()
    log = client.get(f"/api/chronicles/{chronicle}/log", headers=headers).json()["entries"]
    scene = next(e for e in log if e["kind"] == "scene_open")
    assert "Le voyou" in str(scene["receipt"]) and "Une silhouette" not in str(
        scene["receipt"]
    )  # named after the true name


@pytest.mark.parametrize(
    "lang,words",
    [("en", "counts as a failure"), ("fr", "compte comme un échec"), ("es", "cuenta como un fallo")],
)
def test_the_forgo_choice_says_it_counts_as_a_failure(client, folder, lang, words):
    own = {"name": "Rosa", "attributes": {"manipulation": 3}, "talents": {"subterfuge": 2}}
    made, headers = begin(client, "author", sheet=own)
    chosen = client.post(
        f"/api/chronicles/{made['chronicle']['id']}/solo/act",
        params={"lang": lang},
        headers=headers,
        json={"option": "choice:0"},
    ).json()
    assert [c["id"] for c in chosen["choices"]] == ["forgo"]
    assert words in chosen["choices"][0]["label"]


def test_a_choice_sent_for_a_passage_the_story_has_left_is_refused(client, folder):
    made, headers = begin(client, "author")
    url = f"/api/chronicles/{made['chronicle']['id']}/solo/act"
    moved = client.post(url, headers=headers, json={"option": "choice:0", "passage": "lie"})
    assert moved.status_code == 409 and moved.json()["code"] == "solo_passage_moved"
    assert moved.json()["params"]["passage"] == "alley" if "params" in moved.json() else True
    taken = client.post(url, headers=headers, json={"option": "choice:0", "passage": "alley"})
    assert taken.status_code == 200 and taken.json()["passage"]["id"] == "lie"
    again = client.post(url, headers=headers, json={"option": "choice:0", "passage": "alley"})  # a stale page
    assert again.status_code == 409 and again.json()["code"] == "solo_passage_moved"
