"""A system installed beside rollbook as a distribution of its own (the entry-point group
``rollbook.systems``, ``rollbook.plugins``) is found by every process, as a user would meet it: the
toy (``tests/toy_system``) wrapped in a package with its ``*.dist-info`` (``METADATA``,
``entry_points.txt``) in a directory put on the path of a subprocess, beside a plugin that fails to
import and one named for a shipped system. ``rollbook roll`` and ``rollbook odds`` roll it and give
its odds; ``rollbook serve --workers 2`` (each worker a process of its own) serves a toy chronicle
made over the API, its roll, its odds and its OpenAPI; each bad plugin is one line on stderr, and the
shipped systems are served all the same."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.conftest import wait_until

from .conftest import REPO, bearer, free_port, rollbook_command, run_cli

START_SECONDS = 180  # two worker processes importing the app on a shared 2-core machine: a bound, not a speed

TOY_PACKAGE = '''"""The toy system as a distribution would ship it: its entry point registers it."""

from tests.toy_system import register

__all__ = ["register"]
'''


def _distribution(site: Path, name: str, entry_points: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[rollbook.systems]\n{entry_points}", encoding="utf-8")


@dataclass(frozen=True)
class Site:
    env: dict[str, str]  # a subprocess's environment with the plugins' directory on its path
    bare: dict[str, str]  # the same without it


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Site:
    site = tmp_path_factory.mktemp("site-packages")
    (site / "rollbook_toy_plugin").mkdir()
    (site / "rollbook_toy_plugin" / "__init__.py").write_text(TOY_PACKAGE, encoding="utf-8")
    _distribution(
        site,
        "rollbook_toy_plugin",
        "toy = rollbook_toy_plugin:register\nv20 = rollbook_toy_plugin:register\n",
    )
    (site / "rollbook_broken_plugin.py").write_text("import rollbook_missing_dependency\n", encoding="utf-8")
    _distribution(site, "rollbook_broken_plugin", "broken = rollbook_broken_plugin:register\n")
    bare = {**os.environ, "PYTHONPATH": str(REPO)}  # ``tests.toy_system`` importable, nothing installed
    return Site({**bare, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)])}, bare)


def _refusals(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "system plugin" in line]


def _bad_plugins_named(lines: list[str]) -> None:
    """The broken plugin's line and the shipped id's, once each, naming the plugin and why."""
    assert len(lines) == 2, lines
    broken, shipped = sorted(lines)
    assert broken.startswith("rollbook: system plugin broken (rollbook_broken_plugin:register) not loaded")
    assert "No module named 'rollbook_missing_dependency'" in broken
    assert shipped == (
        "rollbook: system plugin v20 (rollbook_toy_plugin:register) not loaded: v20 is a shipped system"
    )


def test_an_installed_system_is_rolled_and_given_odds_from_the_command_line(site):
    rolled = run_cli("roll", "toy", "--pool", "3", "--json", env=site.env)
    assert rolled.returncode == 0, rolled.stderr
    receipt = json.loads(rolled.stdout)
    assert receipt["system"] == "toy" and receipt["pool"] == 3 and len(receipt["faces"]) == 3
    assert receipt["successes"] == sum(face >= 5 for face in receipt["faces"])
    _bad_plugins_named(_refusals(rolled.stderr))

    odds = run_cli("odds", "toy", "--pool", "3", "--json", env=site.env)
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["outcomes"] == {"success": "19/27", "failure": "8/27"}
    # the odds of a pool the roll refuses are refused the same way, in one line
    for refused in (
        run_cli("odds", "toy", "--pool", "0", env=site.env),
        run_cli("roll", "toy", "--pool", "0", env=site.env),
    ):
        assert refused.returncode == 2, refused.stdout
        assert refused.stderr.splitlines()[-1] == "rollbook: pool must be between 1 and 30, not 0."

    # not installed, not there
    missing = run_cli("roll", "toy", "--pool", "3", "--json", env=site.bare)
    assert missing.returncode == 2 and _refusals(missing.stderr) == []


def _answering(client: httpx.Client, process: subprocess.Popen) -> bool:
    """The server's port answers (its process still running)."""
    assert process.poll() is None, "the server stopped"
    try:
        return client.get("/api/health").status_code == 200
    except httpx.TransportError:
        return False


def test_an_installed_system_is_served_by_each_worker_and_a_bad_plugin_stops_none(site, tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [
            *rollbook_command(),
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--log-level",
            "warning",
            "--database-url",
            f"sqlite:///{tmp_path / 'served.sqlite3'}",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        env=site.env,
    )
    try:
        assert process.stderr is not None
        before: list[str] = []
        while not (line := process.stderr.readline()).startswith("rollbook: serving on"):
            assert line, f"the server stopped: {before}"
            before.append(line.rstrip("\n"))
        _bad_plugins_named(_refusals("\n".join(before)))  # the parent's, once
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            # the line comes once the parent's socket is bound: it takes a connection at once
            socket.create_connection(("127.0.0.1", port), timeout=10).close()
            wait_until(lambda: _answering(client, process), START_SECONDS, interval=0.05, what="a worker")
            # each request is answered by a worker, a process that found the toy itself
            assert client.get("/api/systems").json()["systems"] == ["rollunder", "tiers", "toy", "v20", "v5"]
            schema = client.get("/openapi.json").json()
            created = client.post("/api/chronicles", json={"name": "Toy table", "system": "toy"})
            assert created.status_code == 201, created.text
            base = f"/api/chronicles/{created.json()['chronicle']['id']}"
            st = bearer(created.json()["token"])
            made = client.post(
                f"{base}/characters",
                headers=st,
                json={
                    "name": "Ann",
                    "sheet": {"system": "toy", "name": "Ann", "traits": {"might": 3, "none": 0}},
                },
            )
            assert made.status_code == 201, made.text
            character = f"{base}/characters/{made.json()['id']}"
            odds = client.post(
                f"{character}/odds", headers=st, json={"action": {"kind": "pool", "trait": "might"}}
            )
            assert odds.status_code == 200, odds.text
            assert odds.json()["odds"]["outcomes"]["success"] == "19/27"
            rolled = client.post(
                f"{character}/rolls", headers=st, json={"action": {"kind": "pool", "trait": "might"}}
            )
            assert rolled.status_code == 201, rolled.text
            receipt = rolled.json()["entry"]["receipt"]
            assert receipt["system"] == "toy" and len(receipt["faces"]) == 3
            # a pool of no dice: the roll refuses it, and its odds the same way
            empty = {"action": {"kind": "pool", "trait": "none"}}
            for refused in (
                client.post(f"{character}/rolls", headers=st, json=empty),
                client.post(f"{character}/odds", headers=st, json=empty),
            ):
                assert refused.status_code == 422, refused.text
                assert refused.json()["code"] == "out_of_range"
            # the shipped systems, served all the same
            shipped = client.post("/api/chronicles", json={"name": "V20 table", "system": "v20"})
            assert shipped.status_code == 201, shipped.text
        made_schema = schema["components"]["schemas"]
        assert any(
            "toy" in (property_.get("enum") or ())
            for model in made_schema.values()
            for name, property_ in (model.get("properties") or {}).items()
            if name == "system"
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
