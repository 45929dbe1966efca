"""The app factory's dice hook: ``create_app(..., dice=factory)`` is the only way to choose the
server's faces, a Python argument for tests; ``rollbook serve`` never passes one."""

from __future__ import annotations

from types import SimpleNamespace

from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.dice import GivenFaces, SecureDice
from rollbook.play import verify_receipt

from .conftest import V5_SHEET, V5_TEST, V20_SHEET, V20_TEST, Table


class Factory:
    """A zero-argument dice factory handing out one queue of faces; counts its calls."""

    def __init__(self, *faces: int) -> None:
        self.source = GivenFaces(faces)
        self.calls = 0

    def __call__(self) -> GivenFaces:
        self.calls += 1
        return self.source


def _table(client, system: str) -> Table:
    response = client.post("/api/chronicles", json={"name": f"Hook {system}", "system": system})
    assert response.status_code == 201, response.text
    return Table(client, response.json())


def test_the_default_dice_are_the_secure_source(database_url):
    assert create_app(database_url).state.dice is SecureDice


def test_rolls_and_rerolls_draw_from_the_apps_dice_factory(database_url):
    dice = Factory(
        10,
        9,
        8,
        1,
        2,  # V20: Dexterity 3 + Firearms 2
        2,
        3,
        4,
        5,
        6,
        7,  # V5: Dexterity 3 + Firearms 3, the last die a Hunger die
        10,
        10,
    )  # V5-8: the two normal dice rerolled
    with TestClient(create_app(database_url, dice=dice)) as client:
        v20 = _table(client, "v20")
        player = v20.join()
        character = v20.character(player, V20_SHEET)
        rolled = v20.roll(player, character["id"], V20_TEST)
        assert rolled.status_code == 201, rolled.text
        assert rolled.json()["entry"]["receipt"]["faces"] == [10, 9, 8, 1, 2]

        v5 = _table(client, "v5")
        player = v5.join()
        character = v5.character(player, V5_SHEET)
        first = v5.roll(player, character["id"], V5_TEST).json()["entry"]
        assert first["receipt"]["faces"] == [2, 3, 4, 5, 6, 7]
        assert first["receipt"]["result"]["hunger"] == [7]
        rerolled = client.post(
            f"{v5.base}/log/{first['seq']}/rerolls",
            headers=player,
            json={"action": {"kind": "reroll", "dice": [0, 1]}},
        )
        assert rerolled.status_code == 201, rerolled.text
        receipt = rerolled.json()["entry"]["receipt"]
        assert receipt["rerolls"] == [{"dice": [0, 1], "faces": [10, 10]}]
        assert verify_receipt(receipt) == []
    assert dice.source.unused == 0 and dice.calls == 3  # one source per roll or reroll


def test_rollbook_serve_never_passes_a_dice_factory(monkeypatch, tmp_path):
    import uvicorn

    from rollbook.app import app as server_app
    from rollbook.app import serving
    from rollbook.cli.serve import serve

    made = []
    monkeypatch.setattr(
        serving, "create_app", lambda *args, **kwargs: made.append((args, kwargs)) or object()
    )
    # one process serves through serving.AnnouncingServer (uvicorn.Server): nothing is served here either
    monkeypatch.setattr(serving.AnnouncingServer, "run", lambda self, *args, **kwargs: None)
    # several processes: the parent binds the socket and hands it to uvicorn's supervisor; neither here
    monkeypatch.setattr(
        uvicorn.Config, "bind_socket", lambda self: SimpleNamespace(listen=lambda backlog: None)
    )
    monkeypatch.setattr(serving, "Multiprocess", lambda config, sockets: SimpleNamespace(run=lambda: None))
    # a worker's app settles its process's collector: not the test process's
    monkeypatch.setattr(serving, "settle_collector", lambda: 0)
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    serve(host="127.0.0.1", port=8000, database_url=url, log_level="info", threads=None, workers=1)
    assert made == [((url,), {"threads": server_app.WORKER_THREADS})]  # no dice= among them
    # nor do the processes of `rollbook serve --workers N`
    made.clear()
    monkeypatch.delenv(serving.SETTINGS_VARIABLE, raising=False)  # restored after the test
    serve(host="127.0.0.1", port=8000, database_url=url, log_level="info", threads=None, workers=2)
    serving.worker_app()
    assert made == [((url,), {"migrate": False, "threads": server_app.WORKER_THREADS})]
