"""Writes tests/vectors/fair/hmac-sha256-v1.jsonl once (``python tests/fair/make_vectors.py``); a folder
of its own because tests/vectors/*.jsonl are resolve-contract vectors. The file is the contract: tests read it and never regenerate it, so a change to F-4's implementation that moves a
single face fails them. Faces here come from the independent reference (tests/fair/reference.py),
and tests/fair/test_vectors.py checks the library and the browser against the stored file.

Two kinds of lines:
- ``"kind": "seed"``: seed (hex), commitment, chronicle, client, nonce, sizes → faces (F-4 whole).
- ``"kind": "values"``: a constructed stream of 64-bit values (hex) and sizes → faces, for the
  rejection rule of F-4. A real rejection cannot be found by search: a value is discarded with
  probability (2**64 mod s) / 2**64 < 2**-57 for every die used (s ≤ 100), so finding one would take
  about 2**57 HMAC blocks. The rejection is pinned on constructed values instead, which both the
  Python and the browser implementation must read the same way.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from reference import reference_faces

OUT = Path(__file__).resolve().parents[1] / "vectors" / "fair" / "hmac-sha256-v1.jsonl"
SIZES = [*range(2, 21), 100]


def seed_vector(
    name: str, seed: bytes, chronicle: int, client: str, nonce: int, sizes: list[int], note: str
) -> dict:
    return {
        "kind": "seed",
        "name": name,
        "seed": seed.hex(),
        "commitment": hashlib.sha256(seed).hexdigest(),
        "chronicle": chronicle,
        "client": client,
        "nonce": nonce,
        "sizes": sizes,
        "faces": reference_faces(seed, chronicle, client, nonce, sizes),
        "note": note,
    }


def values_vector(name: str, values: list[int], sizes: list[int], faces: list[int], note: str) -> dict:
    return {
        "kind": "values",
        "name": name,
        "values": [f"{v:016x}" for v in values],
        "sizes": sizes,
        "faces": faces,
        "note": note,
    }


def json_line(value: dict) -> str:
    """Readable UTF-8 JSON, except U+2028 and U+2029 escaped: line readers split on them."""
    text = json.dumps(value, ensure_ascii=False).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return text + "\n"


def main() -> None:
    counting = bytes(range(32))
    hashed = hashlib.sha256(b"rollbook fair vectors").digest()
    falling = bytes(range(255, 223, -1))
    zeros = bytes(32)
    lines = [
        seed_vector(
            "F-4 known answer",
            counting,
            1,
            "alice",
            1,
            [10] * 5,
            "SPEC F-4: 3, 7, 2, 10, 8; five dice cross from block 0 into block 1",
        )
    ]
    for sides in SIZES:
        lines.append(seed_vector(f"d{sides}", hashed, 7, "bob", sides, [sides] * 6, f"six d{sides}"))
    lines += [
        seed_vector(
            "mixed sizes",
            hashed,
            3,
            "carol",
            1,
            [20, 6, 6, 8, 100, 4, 12, 10, 2],
            "dice of several sizes drawn in one stream, in order",
        ),
        seed_vector("empty client seed", counting, 1, "", 2, [10] * 5, "the default client seed (F-2)"),
        seed_vector(
            "non-ASCII client seed",
            counting,
            1,
            "Élodie 🎲 ñandú 日本",
            3,
            [10] * 5,
            "UTF-8 of the client seed inside the JSON, characters kept as themselves",
        ),
        seed_vector(
            "escaped client seed",
            counting,
            1,
            'quote " backslash \\ tab \t newline \n',
            4,
            [20] * 3,
            "JSON escapes in the client seed (quote, backslash, tab, newline)",
        ),
        seed_vector(
            "control characters",
            counting,
            1,
            "nul \x00 bell \x07 esc \x1b del \x7f line sep \u2028 end",
            5,
            [6] * 4,
            "characters below 0x20 as \\u00XX escapes; DEL and U+2028 kept as themselves",
        ),
        seed_vector("one block exactly", falling, 12, "dave", 5, [10] * 4, "four dice: block 0 only"),
        seed_vector("two blocks exactly", falling, 12, "dave", 6, [10] * 8, "eight dice: blocks 0 and 1"),
        seed_vector(
            "third block", falling, 12, "dave", 7, [10] * 9, "nine dice: the ninth is block 2's first value"
        ),
        seed_vector("long chain", zeros, 2, "erin", 1, [10] * 33, "33 d10: nine blocks"),
        seed_vector(
            "large ids",
            hashed,
            2**53 - 1,
            "frank",
            2**53 - 1,
            [6, 6, 6],
            "the largest chronicle id and nonce every JSON reader keeps exact",
        ),
        seed_vector("d100 pool", hashed, 5, "gina", 42, [100] * 10, "percentile dice"),
    ]
    top = 2**64
    for sides in (3, 6, 7, 10, 19, 100):
        limit = top - top % sides
        lines.append(
            values_vector(
                f"rejection d{sides}",
                [top - 1, limit, limit - 1, 0, sides],
                [sides, sides, sides],
                [(limit - 1) % sides + 1, 1, sides % sides + 1],
                f"2**64 mod {sides} = {top % sides}: the {top % sides} values from 2**64-{top % sides} up are "
                f"discarded (here its first and last); 2**64-{top % sides}-1 is the largest kept",
            )
        )
    lines.append(
        values_vector(
            "no rejection on a power of two",
            [top - 1, 0],
            [2, 8],
            [2, 1],
            "2**64 mod 2 = 0 and 2**64 mod 8 = 0: nothing is discarded",
        )
    )
    OUT.write_text("".join(json_line(line) for line in lines), encoding="utf-8")
    print(f"{len(lines)} vectors written to {OUT}")


if __name__ == "__main__":
    main()
