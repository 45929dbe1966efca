"""An independent reference of F-4, written from the SPEC's words and nothing of ``rollbook``:
the block message is built as a string by hand, not with ``json.dumps``'s sort_keys, so a change in
the library's canonical JSON would show up as a disagreement with these tests."""

from __future__ import annotations

import hashlib
import hmac
import json


def block_message(block: int, chronicle: int, client: str, nonce: int) -> bytes:
    # Keys in sorted order, "," and ":" separators, the client seed as a JSON string, UTF-8.
    client_json = json.dumps(client, ensure_ascii=False)
    return f'{{"block":{block},"chronicle":{chronicle},"client":{client_json},"nonce":{nonce}}}'.encode()


def reference_faces(seed: bytes, chronicle: int, client: str, nonce: int, sizes: list[int]) -> list[int]:
    faces: list[int] = []
    values: list[int] = []
    block = 0
    for sides in sizes:
        while True:
            if not values:
                digest = hmac.new(
                    seed, block_message(block, chronicle, client, nonce), hashlib.sha256
                ).digest()
                values = [int.from_bytes(digest[i : i + 8], "big") for i in (0, 8, 16, 24)]
                block += 1
            value = values.pop(0)
            if value < 2**64 - (2**64 % sides):
                faces.append(value % sides + 1)
                break
    return faces


def reference_hmac_faces(seed: bytes, n: int, sides: int) -> tuple[int, ...]:
    """The provably-fair stream regenerated from the seed alone, written from its description:
    HMAC-SHA256(seed, 8-byte big-endian counter), read 8 bytes at a time; a value in the tail
    [2**64 - 2**64 % sides, 2**64) is redrawn, any other gives value % sides + 1."""
    stream = b"".join(hmac.new(seed, c.to_bytes(8, "big"), hashlib.sha256).digest() for c in range(4 * n + 8))
    values = [int.from_bytes(stream[i : i + 8], "big") for i in range(0, len(stream), 8)]
    limit = 2**64 - 2**64 % sides
    faces = [v % sides + 1 for v in values if v < limit]
    return tuple(faces[:n])
