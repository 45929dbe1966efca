"""An invitation link keeps its code out of every access log line, on both stores."""

from __future__ import annotations

import logging
import re
import threading
import time
from urllib.parse import urlsplit

import httpx

from .conftest import free_port


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_invitation_code_in_access_log(app):
    import uvicorn

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="info", access_log=True, lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    access = logging.getLogger("uvicorn.access")
    lines = Lines()
    access.addHandler(lines)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as storyteller, httpx.Client(base_url=base) as player:
            made = storyteller.post(
                "/chronicles", data={"name": "Lyon", "system": "v20", "storyteller": "Ana"}
            )
            chronicle = made.headers["location"]
            page = storyteller.get(chronicle).text
            code = re.search(r'id="invitation-code">([^<]+)<', page).group(1)
            link = re.search(r'id="invitation-link">([^<]+)<', page).group(1)
            parts = urlsplit(link)
            assert parts.path == "/join" and parts.query == "" and parts.fragment == code
            opened = player.get(link)  # what a browser sends: the path, never the fragment
            assert opened.status_code == 200
            assert 'id="join-invitation"' in opened.text and "/static/table.js" in opened.text
            joined = player.post("/join", data={"invitation": code, "name": "Julien"})
            assert joined.status_code == 303 and joined.headers["location"] == chronicle
        deadline = time.monotonic() + 5
        while not any("/join" in line for line in lines.lines) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any('"GET /join HTTP/1.1" 200' in line for line in lines.lines), lines.lines
        assert not [line for line in lines.lines if code in line]
    finally:
        access.removeHandler(lines)
        server.should_exit = True
        thread.join(timeout=10)


def test_the_join_script_fills_the_form_from_the_fragment():
    from pathlib import Path

    import rollbook.web

    script = (Path(rollbook.web.__file__).parent / "static" / "table.js").read_text(encoding="utf-8")
    assert 'window.location.pathname !== "/join"' in script and "window.location.hash" in script
    assert 'getElementById("join-invitation")' in script and "replaceState" in script
