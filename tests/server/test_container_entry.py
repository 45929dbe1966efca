"""The container, as far as it runs without a container engine: ``scripts/serve-container``
run for real from a fresh virtual environment against PostgreSQL (health, a roll, a clean stop), its
refusals, and ``compose.yaml`` validated against the Compose Specification's JSON Schema.

The fresh environment: a venv made in tmp with the project's wheel (built here, with pip's isolated
build, from a copy of the working tree's sources) installed ``--no-deps``; its dependencies are the test interpreter's, reached through a ``.pth`` line
naming that interpreter's site-packages (installing them from an index would make the test slow and
need the network). The image itself is not built here: no engine runs in this workplace.

The schema: ``tests/data/compose-spec.json`` is ``schema/compose-spec.json`` of
https://github.com/compose-spec/compose-spec at commit 170098ba07d9f53c383a41bfd4c5166b0a4529a6
(2026-06-23; the file last changed at a08f8d51631b7127ddac3d2c65537db429d0f1d0), Apache License 2.0.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import venv
from pathlib import Path

import httpx
import pytest

from .conftest import free_port, fresh_pg_database, postgres_problem

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "serve-container"
SCHEMA = REPO / "tests" / "data" / "compose-spec.json"


def container_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("ROLLBOOK_") and key not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    return {**env, "HOME": str(tmp_path), **extra}


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new venv holding the project's wheel; its ``bin`` directory."""
    where = tmp_path_factory.mktemp("container")
    tree = where / "tree"  # built from a copy: a build writes build/ and egg-info/ into its tree
    tree.mkdir()
    for name in ("pyproject.toml", "setup.py", "babel.cfg", "README.md"):
        shutil.copy2(REPO / name, tree / name)
    shutil.copytree(
        REPO / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.mo")
    )
    wheels = where / "wheels"
    # the build backend (setuptools, wheel, babel: pyproject's build-system) in an isolated environment
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(tree)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr
    home = where / "venv"
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            *map(str, wheels.glob("rollbook-*.whl")),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    where_from = subprocess.run(
        [str(python), "-c", "import rollbook; print(rollbook.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert where_from.startswith(str(site)), where_from  # the wheel's copy, not the working tree's
    return home / "bin"


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve-container exited {process.returncode}: {process.stderr.read()}")
        try:
            answer = httpx.get(f"{url}/api/health", timeout=2)
            if answer.status_code == 200:
                return answer.json()
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("no healthy answer")


def test_serve_container_from_a_fresh_venv_serves_postgresql_and_rolls(fresh_venv, tmp_path):
    if postgres_problem():
        pytest.skip(postgres_problem())
    secret = tmp_path / "run" / "secrets" / "rollbook_secret"
    secret.parent.mkdir(parents=True)
    secret.write_text(secrets.token_hex(32) + "\n", encoding="ascii")
    secret.chmod(0o444)  # as a compose secret is mounted: read-only
    port = free_port()
    with fresh_pg_database() as url:
        env = container_env(
            tmp_path,
            PATH=f"{fresh_venv}:/usr/bin:/bin",
            ROLLBOOK_DATABASE_URL=url,
            ROLLBOOK_SECRET_KEY_FILE=str(secret),
            ROLLBOOK_PORT=str(port),
            ROLLBOOK_WORKERS="2",
            ROLLBOOK_TRUST_PROXY="1",
        )
        process = subprocess.Popen(
            ["sh", str(SCRIPT), "--log-level", "warning"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            health = wait_healthy(base, process)
            assert health["status"] == "ok" and health["database"] == "postgresql"
            with httpx.Client(base_url=base, timeout=30) as http:
                created = http.post(
                    "/api/chronicles", json={"name": "In the container", "system": "v5"}
                ).json()
                st = {"Authorization": f"Bearer {created['token']}"}
                chronicle = created["chronicle"]["id"]
                character = http.post(
                    f"/api/chronicles/{chronicle}/characters",
                    headers=st,
                    json={
                        "name": "Sasha",
                        "sheet": {
                            "name": "Sasha",
                            "attributes": {"dexterity": 3},
                            "skills": {"firearms": 2},
                            "hunger": 1,
                        },
                    },
                ).json()
                rolled = http.post(
                    f"/api/chronicles/{chronicle}/characters/{character['id']}/rolls",
                    headers=st,
                    json={"action": {"kind": "test", "attribute": "dexterity", "skill": "firearms"}},
                )
                assert rolled.status_code == 201, rolled.text
                assert (
                    rolled.json()["entry"]["receipt"]["fair"]["nonce"] == 1
                )  # sealed under the file's secret
            assert not (tmp_path / "rollbook-secret.key").exists()  # no key file of its own was made
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)  # the script exec'd `rollbook serve`: it gets the signal
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        assert process.returncode in (0, -signal.SIGTERM), process.stderr.read()


@pytest.mark.parametrize(
    "setup, says",
    [
        ({}, "no operator's secret at"),
        ({"ROLLBOOK_SECRET_KEY": "a secret in the environment"}, "comes from a file"),
        ({"secret": True}, "ROLLBOOK_DATABASE_URL is not set"),
        ({"secret": "  too short \n"}, "is shorter than 16 characters"),
    ],
)
def test_serve_container_refuses_without_its_secret_file_or_database(tmp_path, setup, says):
    extra = {key: value for key, value in setup.items() if key.startswith("ROLLBOOK_")}
    secret = tmp_path / "secret"
    if setup.get("secret"):
        given = setup["secret"]
        secret.write_text(given if isinstance(given, str) else secrets.token_hex(32), encoding="ascii")
    env = container_env(tmp_path, ROLLBOOK_SECRET_KEY_FILE=str(secret), **extra)
    if setup.get("secret") is True:
        env.pop("ROLLBOOK_DATABASE_URL", None)
    else:
        env["ROLLBOOK_DATABASE_URL"] = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    answer = subprocess.run(["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert answer.returncode == 2
    assert says in answer.stderr and answer.stderr.strip().count("\n") == 0


def compose() -> dict:
    import yaml

    return yaml.safe_load((REPO / "compose.yaml").read_text(encoding="utf-8"))


def test_compose_yaml_is_valid_under_the_compose_specification_schema():
    from jsonschema import Draft7Validator

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"] == "Compose Specification"
    errors = sorted(Draft7Validator(schema).iter_errors(compose()), key=lambda error: list(error.path))
    assert not errors, [f"{list(error.path)}: {error.message}" for error in errors]
    # and the schema does see a mistake: an unknown key under a service
    broken = compose()
    broken["services"]["app"]["workers"] = 2
    assert list(Draft7Validator(schema).iter_errors(broken))


def test_compose_runs_two_workers_behind_caddy_with_the_secret_apart():
    services = compose()["services"]
    app = services["app"]
    assert app["environment"]["ROLLBOOK_TRUST_PROXY"] == "1" and app["environment"]["ROLLBOOK_WORKERS"] == "2"
    assert app["secrets"] == ["rollbook_secret"]
    assert app["environment"]["ROLLBOOK_SECRET_KEY_FILE"] == "/run/secrets/rollbook_secret"
    assert "ROLLBOOK_SECRET_KEY" not in app["environment"]
    assert compose()["secrets"]["rollbook_secret"]["file"].startswith("./secrets/")
    assert services["db"]["volumes"] == ["pgdata:/var/lib/postgresql/data"]
    assert services["proxy"]["image"].startswith("caddy")
    assert "ports" not in app  # reached through the proxy only
    caddyfile = (REPO / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    assert "reverse_proxy app:8000" in caddyfile
    dockerfile = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert 'ENTRYPOINT ["serve-container"]' in dockerfile and "USER rollbook" in dockerfile
    assert "/api/health" in dockerfile
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    assert "rollbook-secret.key" in ignored and "secrets" in ignored  # the secret never enters the image
