"""Discord's side of the interactions tests: an application key pair (real Ed25519), payloads
shaped as Discord documents them, signed and sent to ``POST /discord/interactions``."""

from __future__ import annotations

import itertools
import json
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

PATH = "/discord/interactions"
GUILD = "1100000000000000001"
CHANNEL = "1200000000000000001"
APPLICATION = "1300000000000000001"
_ids = itertools.count(int(time.time() * 1000) << 22)


def snowflake() -> str:
    return str(next(_ids))


class Key:
    def __init__(self) -> None:
        self.private = Ed25519PrivateKey.generate()
        self.public_hex = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    def sign(self, body: bytes, timestamp: str) -> str:
        return self.private.sign(timestamp.encode() + body).hex()


def user(user_id: str, name: str = "Player") -> dict:
    return {"user": {"id": user_id, "username": name.lower(), "global_name": name}, "nick": None, "roles": []}


def interaction(
    kind: int,
    data: dict | None,
    *,
    user_id: str,
    name: str = "Player",
    locale: str = "en-US",
    channel: str = CHANNEL,
    guild: str = GUILD,
    message: dict | None = None,
) -> dict:
    payload = {
        "id": snowflake(),
        "application_id": APPLICATION,
        "type": kind,
        "token": "tok-" + snowflake(),
        "version": 1,
        "guild_id": guild,
        "channel_id": channel,
        "channel": {"id": channel, "type": 0},
        "member": user(user_id, name),
        "locale": locale,
        "guild_locale": "en-US",
        "app_permissions": "0",
    }
    if data is not None:
        payload["data"] = data
    if message is not None:
        payload["message"] = message
    return payload


def option(name: str, value, kind: int = 3, focused: bool = False) -> dict:
    out = {"name": name, "type": kind, "value": value}
    if focused:
        out["focused"] = True
    return out


def command(command_name: str, options: list[dict] | None = None, **who) -> dict:
    return interaction(
        2, {"id": snowflake(), "name": command_name, "type": 1, "options": options or []}, **who
    )


def autocomplete(command_name: str, options: list[dict], **who) -> dict:
    return interaction(4, {"id": snowflake(), "name": command_name, "type": 1, "options": options}, **who)


def component(custom_id: str, values: list[str] | None = None, *, on: dict | None = None, **who) -> dict:
    """A press of ``custom_id``; ``on``: the message it is under, as Discord sends it (else a bare one)."""
    data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    return interaction(3, data, message=on or {"id": snowflake(), "content": ""}, **who)


def modal(custom_id: str, fields: dict[str, str], **who) -> dict:
    rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]
    return interaction(5, {"custom_id": custom_id, "components": rows}, **who)


class Discord:
    """Sends signed interactions to the app (a TestClient)."""

    def __init__(self, client, key: Key) -> None:
        self.client = client
        self.key = key

    def send(
        self,
        payload: dict,
        *,
        timestamp: str | None = None,
        signature: str | None = None,
        signed: bool = True,
        body: bytes | None = None,
    ):
        raw = body if body is not None else json.dumps(payload).encode()
        stamp = timestamp or str(int(time.time()))
        headers = {"Content-Type": "application/json"}
        if signed:
            headers["X-Signature-Timestamp"] = stamp
            headers["X-Signature-Ed25519"] = signature or self.key.sign(raw, stamp)
        return self.client.post(PATH, content=raw, headers=headers)

    def ok(self, payload: dict) -> dict:
        response = self.send(payload)
        assert response.status_code == 200, response.text
        return response.json()
