"""Helpers the web's test modules share (no test module imports another): a chronicle with a
player through the pages, a page's text, and the check that a page in French or Spanish shows no
English, raw code or untranslated id."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

LOCALE = Path(__file__).resolve().parents[2] / "src" / "rollbook" / "i18n" / "locale"


MARK = "\u27e6"  # ⟦ an id made readable without a translation


PLACEHOLDER = re.compile(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd]")


CODE = re.compile(r"(?<![\w/.#-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.-])")


VISIBLE_ATTRS = re.compile(r'\s(?:aria-label|title|placeholder|data-confirm|alt)="([^"]*)"')


def english_parts(lang: str) -> set[str]:
    """The English texts that must not appear on a page in ``lang``."""
    out: set[str] = set()
    for po in (LOCALE / lang / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as handle:
            for message in read_po(handle):
                msgid = message.id[0] if isinstance(message.id, tuple) else message.id
                msgstr = message.string[0] if isinstance(message.string, tuple) else message.string
                if not msgid or not msgstr or msgstr == msgid:
                    continue
                for part in PLACEHOLDER.split(msgid):
                    part = part.strip(" .,:;()—-·")
                    if (
                        len(part.split()) >= (2 if part == msgid.strip(" .,:;()—-·") else 3)
                        and part not in msgstr
                    ):
                        out.add(part)
    return out


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    attrs = " ".join(VISIBLE_ATTRS.findall(html))
    text = re.sub(r"<[^>]+>", " ", html)
    return unescape(re.sub(r"\s+", " ", f"{text} {attrs}"))


def problems(html: str, lang: str, english: set[str], allowed: frozenset[str] = frozenset()) -> list[str]:
    text = visible_text(html)
    found = [f"English: {part!r}" for part in english if part in text]
    found += [f"raw code: {code!r}" for code in set(CODE.findall(text)) if code not in allowed]
    found += [f"untranslated id: {m!r}" for m in set(re.findall(MARK + r"[^" + MARK + r"]*" + MARK, text))]
    return sorted(found)


def chronicle_with_player(app, system: str, sheet: dict[str, str]):
    """(Storyteller client, player client, chronicle URL, the player's sheet URL)."""
    storyteller = TestClient(app)
    created = storyteller.post(
        "/chronicles",
        data={"name": f"Night {system}", "system": system, "storyteller": "Ana"},
        follow_redirects=False,
    )
    assert created.status_code == 303
    chronicle = created.headers["location"]
    player = TestClient(app)
    joined = player.post(
        "/join",
        data={"invitation": storyteller.cookies.get("rollbook_invitation"), "name": "Bruno"},
        follow_redirects=False,
    )
    assert joined.status_code == 303
    added = player.post(f"{chronicle}/characters", data={"s.name": "Hero", **sheet}, follow_redirects=False)
    assert added.status_code == 303, added.text
    return storyteller, player, chronicle, added.headers["location"]


class GivenDice:
    """Dice whose faces the test queues (``dice.faces``), for the TestClient page tests; a draw the
    test did not queue fails it."""

    name = "given"

    def __init__(self) -> None:
        self.faces: list[int] = []

    def __call__(self) -> GivenDice:
        return self

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        assert len(self.faces) >= n, "the test queues every face"
        taken, self.faces[:n] = tuple(self.faces[:n]), []
        return taken


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def card(html: str, kind: str) -> str:
    """The first log card of ``kind`` on a page (the test fails when there is none)."""
    found = re.search(rf'<li id="entry-\d+" class="card kind-{kind}[ "].*?</li>', html, re.S)
    assert found, f"no {kind} card"
    return found.group(0)


def api_table(client: TestClient, system: str, lang: str = "fr") -> tuple[int, dict, dict]:
    """A chronicle made through the API, Alice joined: (its id, the Storyteller's headers, Alice's)."""
    created = client.post(
        "/api/chronicles", json={"name": "Chicago", "system": system, "language": lang}
    ).json()
    joined = client.post("/api/join", json={"invitation": created["invitation"], "name": "Alice"}).json()
    return created["chronicle"]["id"], bearer(created["token"]), bearer(joined["token"])


ROLLUNDER_SHEET = {
    "new.attributes.name.0": "Strength",
    "new.attributes.value.0": "12",
    "new.skills.name.0": "Climb",
    "new.skills.value.0": "14",
}


def give_agile(storyteller: TestClient, sheet: str) -> None:
    """The Storyteller gives the card (R-6: a player's own sheet holds none)."""
    given = storyteller.post(
        f"{sheet}/adjustments",
        data={
            "change": "grant_card",
            "card.name": "Agile",
            "card.effect": "advantage",
            "card.consumable": ["off", "on"],
        },
        follow_redirects=False,
    )
    assert given.status_code in (200, 303), given.text
