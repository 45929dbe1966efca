"""A night's log (``web.night``, ``GET /chronicles/{id}/night``) without a browser: the log cut into
nights at a pause of six hours, a night's entries by scene (a scene opened on an earlier night
said so), the seeds' own entries left out, and the page: no form, the other nights linked."""

from __future__ import annotations

from rollbook.web import night

from .helpers import chronicle_with_player


def _entry(seq: int, stamp: str, kind: str = "roll", **receipt) -> dict:
    return {"seq": seq, "created_at": f"2026-12-{stamp}Z", "kind": kind, "receipt": receipt}


LOG = [
    _entry(1, "04T20:00:00"),
    _entry(2, "04T20:05:00", "scene_open", scene=1, name="The docks"),
    _entry(3, "04T23:50:00"),
    _entry(4, "05T00:20:00", "seed_commit"),  # past midnight: the same night
    _entry(5, "05T20:00:00"),  # 19 h 40 later: the next night, scene 1 still open
    _entry(6, "05T20:10:00", "scene_close", scene=1),
    _entry(7, "05T20:15:00"),
    _entry(8, "05T20:20:00", "scene_open", scene=2, name=""),
    _entry(9, "05T20:30:00"),
]


def test_the_log_is_cut_into_nights_at_a_long_pause():
    nights = night.nights_of(LOG)
    assert [(n.first, n.last, n.entries) for n in nights] == [(1, 4, 4), (5, 9, 5)]
    assert nights[1].day("fr") == "5 décembre 2026" and nights[1].day("es") == "5 de diciembre de 2026"


def test_a_night_by_scene():
    first, second = night.nights_of(LOG)
    assert [
        (n, name, continued, [e["seq"] for e in es]) for n, name, continued, es in night.scenes_of(LOG, first)
    ] == [
        (None, "", False, [1]),
        (1, "The docks", False, [2, 3]),  # the seed's commitment left out
    ]
    assert [
        (n, name, continued, [e["seq"] for e in es])
        for n, name, continued, es in night.scenes_of(LOG, second)
    ] == [
        (1, "The docks", True, [5, 6]),
        (None, "", False, [7]),
        (2, "", False, [8, 9]),
    ]


def test_the_night_page_has_no_control_and_links_no_other_night_when_there_is_one(app):
    storyteller, player, chronicle, _ = chronicle_with_player(app, "v5", {"s.clan": "Brujah"})
    for client in (storyteller, player):
        page = client.get(f"{chronicle}/night", headers={"Accept-Language": "es"})
        assert page.status_code == 200
        main = page.text.split('<main id="main"', 1)[1]
        assert "<form" not in main and "<input" not in main and "<select" not in main
        assert 'id="print-night"' in main and "Otras noches" not in main
    assert player.get(f"{chronicle}/night?from=0").status_code == 422
    assert player.get(f"{chronicle}/night?from=999").status_code == 200  # no such night: the last one
    assert 'id="night-link"' in player.get(chronicle).text
