"""The fair dice's published test vectors (``tests/vectors/fair/hmac-sha256-v1.jsonl``), read once for
the Python and the JavaScript checks."""

from __future__ import annotations

import json
from pathlib import Path

VECTORS_FILE = Path(__file__).resolve().parents[1] / "vectors" / "fair" / "hmac-sha256-v1.jsonl"


def load_vectors() -> list[dict]:
    return [json.loads(line) for line in VECTORS_FILE.read_text(encoding="utf-8").split("\n") if line.strip()]


VECTORS = load_vectors()


SEED_VECTORS = [v for v in VECTORS if v["kind"] == "seed"]


VALUE_VECTORS = [v for v in VECTORS if v["kind"] == "values"]
