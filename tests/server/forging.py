"""What a forger holding a whole export does: edit entries, then recompute the hash chain
from the first one changed, with every field hashed; and ``rollbook log verify`` on the result with
no ``--head``. A helpers module (no tests here)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from rollbook.fair import faces_for
from rollbook.play import authority
from rollbook.play.common import replay
from rollbook.rules.base import to_plain
from rollbook.server.chain import GENESIS_HASH, committed_hash_of
from rollbook.systems.v20 import rules as rules_v20

from .helpers import log_verify


def entries_of(export: str) -> list[dict]:
    return [json.loads(line) for line in export.splitlines() if line.strip()]


def rechained(entries: list[dict]) -> list[dict]:
    """The chain recomputed over every entry, as the server hashes them (``committed_hash``: a
    redacted one from the content hash it shows; one redacted without it keeps its stored hash)."""
    previous, visibility = GENESIS_HASH, None
    for index, entry in enumerate(entries):
        entry["seq"] = index + 1
        entry["prev_hash"] = previous
        if not entry.get("redacted"):
            entry["entry_hash"] = committed_hash_of(entry, visibility)
        elif "content_hash" in entry:
            entry["entry_hash"] = committed_hash_of(entry, visibility, entry["content_hash"])
        previous, visibility = entry["entry_hash"], entry.get("visibility")
    return entries


def verify(tmp_path: Path, entries: list[dict], name: str = "log.jsonl", *options: str):
    """``rollbook log verify FILE [OPTIONS]`` (no ``--head`` unless given), run in this process (the
    command itself, through typer's runner: a subprocess per forgery costs seconds): the completed
    process."""
    path = tmp_path / name
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries), encoding="utf-8")
    return log_verify(path, *options)


# --- a grant rewritten to "as asked" with its roll (V20 exports) -----------------


def find(entries: list[dict], kind: str, n: int = 0) -> dict:
    """The n-th entry of a kind (0-based), in log order."""
    return [e for e in entries if e["kind"] == kind][n]


def grant_as_asked(entries: list[dict]) -> dict:
    """The forger's grant: decision ``as_asked``, granted = what the ask asked, the action composed
    from the ask's player part, the grant's baseline and those edges (A-1, ``authority.compose``)."""
    ask, grant = find(entries, "ask"), find(entries, "grant")
    receipt = grant["receipt"]
    receipt["decision"] = "as_asked"
    receipt["granted"] = copy.deepcopy(ask["receipt"]["asked"])
    receipt["action"], _ = authority.compose(
        "v20", ask["receipt"]["player"], receipt["baseline"], receipt["granted"]
    )
    return grant


def v20_replayed(roll: dict) -> None:
    """The roll's result recomputed from its (forged) request and faces, as the verifier would."""
    roll["receipt"]["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, roll["receipt"])[1])


def v20_rolled_as(
    roll: dict,
    action: dict,
    *,
    seed: bytes | None = None,
    request: bool = True,
    pool: bool = True,
    result: bool = True,
) -> dict:
    """The roll rewritten to ``action``: with ``request`` its difficulty into the request; with ``pool`` the pool's
    modifier dice and totals rebuilt, the faces cut or drawn on from the revealed ``seed`` (F-4, as
    anyone can once the seed is revealed; without a seed an added die is not drawn); with ``result``
    the result recomputed."""
    receipt = roll["receipt"]
    receipt["action"] = copy.deepcopy(action)
    if request:
        receipt["request"]["difficulty"] = action["difficulty"]
    if pool:
        built = receipt["pool"]
        built["modifiers"] = (
            [{"source": "modifier", "dice": action["modifier"]}] if action["modifier"] else []
        )
        built["total"] = (
            sum(p["rating"] for p in built["parts"]) + action["modifier"] + built["wound_penalty"]
        )
        receipt["request"]["pool"] = built["total"]
        if seed is not None:
            fair = receipt["fair"]
            receipt["faces"] = list(
                faces_for(seed, roll["chronicle"], fair["client_seed"], fair["nonce"], [10] * built["total"])
            )
    if result:
        v20_replayed(roll)
    return roll


def v20_spend_removed(roll: dict) -> dict:
    """A roll's Willpower spend (V20-9) taken out of its action, request, result and effects."""
    receipt = roll["receipt"]
    receipt["action"]["willpower"] = receipt["request"]["willpower"] = False
    roll["effects"] = receipt["effects"] = []
    v20_replayed(roll)
    return roll
