"""Synthetic chronicle exports for the fair-dice tests, written exactly as rollbook.fair documents the
entries (what the server will append): seed_commit, seed_reveal, client_seed, and roll / reroll
entries whose receipts carry "fair". Each entry is hash-chained like a real export."""

from __future__ import annotations

import copy
import hashlib

from rollbook.dice import FAIR_ALGORITHM, FairDice, commitment_of
from rollbook.play import new_sheet, perform, perform_followup
from rollbook.server.chain import GENESIS_HASH, entry_hash

SHEETS = {
    "v20": {
        "name": "Nia",
        "attributes": {"dexterity": 3, "stamina": 2, "wits": 4},
        "talents": {"brawl": 2},
        "skills": {"firearms": 4},
        "disciplines": {"fortitude": 1},
    },
    "v5": {
        "name": "Marlow",
        "attributes": {"strength": 4, "stamina": 3, "composure": 2, "resolve": 3, "wits": 3},
        "skills": {"brawl": 2},
        "disciplines": {"potence": 2},
        "clan_disciplines": ["potence"],
        "hunger": 2,
        "blood_potency": 1,
    },
    "tiers": {"name": "Ana", "skills": {"melee": 4, "arcanes": 3}, "endurance": 3, "armor": {"torso": 2}},
    "rollunder": {"name": "Zed", "skills": {"stealth": 12}, "attributes": {"agility": 10}},
}
ACTIONS = {
    "v20": {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 6},
    "v20-soak": {"kind": "soak", "damage": 3, "damage_type": "lethal"},
    "v5": {"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 3},
    "v5-surge": {
        "kind": "test",
        "attribute": "strength",
        "skill": "brawl",
        "difficulty": 3,
        "blood_surge": True,
    },
    "tiers": {"kind": "skill", "skill": "melee"},
    "rollunder": {"kind": "check", "action": "slip past", "skill": "stealth"},
    "rollunder-opposed": {
        "kind": "opposed",
        "action": "the bridge holds",
        "dice": "2d6+1d8+1d20",
        "threshold": 8,
    },
}


STORYTELLER_MEMBER = 1


def role_of(member: int) -> str:
    return "storyteller" if member == STORYTELLER_MEMBER else "player"


def seed_of(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


class ChronicleLog:
    """A chronicle's log as the server would write it with fair dice (one transaction per call)."""

    def __init__(self, chronicle: int = 7) -> None:
        self.chronicle = chronicle
        self.entries: list[dict] = []
        self.seed: bytes | None = None
        self.nonce = 0
        self.client_seeds: dict[int, str] = {}
        self.sheets: dict[str, dict] = {}

    # the log itself

    def append(
        self,
        kind: str,
        receipt: dict,
        *,
        member: int = 1,
        role: str = "storyteller",
        visibility: str = "public",
        refers_to: int | None = None,
    ) -> dict:
        seq = len(self.entries) + 1
        prev = self.entries[-1]["entry_hash"] if self.entries else GENESIS_HASH
        entry = {
            "chronicle": self.chronicle,
            "seq": seq,
            "prev_hash": prev,
            "created_at": f"2026-12-01T10:00:{seq:02d}Z",
            "kind": kind,
            "actor": {"member": member, "name": f"m{member}", "role": role, "character": None},
            "visibility": visibility,
            "receipt": copy.deepcopy(receipt),
        }
        entry["entry_hash"] = entry_hash(
            **{
                k: entry[k]
                for k in (
                    "chronicle",
                    "seq",
                    "prev_hash",
                    "created_at",
                    "kind",
                    "actor",
                    "visibility",
                    "receipt",
                )
            }
        )
        entry.update(character=None, refers_to=refers_to, effects=[])
        self.entries.append(entry)
        return entry

    # F-1, F-5: seeds

    def commit(self, seed: bytes) -> dict:
        self.seed, self.nonce = seed, 0
        return self.append("seed_commit", {"algorithm": FAIR_ALGORITHM, "commitment": commitment_of(seed)})

    def reveal(self) -> dict:
        assert self.seed is not None
        entry = self.append(
            "seed_reveal",
            {"algorithm": FAIR_ALGORITHM, "commitment": commitment_of(self.seed), "seed": self.seed.hex()},
        )
        self.seed = None
        return entry

    def rotate(self, new_seed: bytes) -> None:
        self.reveal()
        self.commit(new_seed)

    # F-2: client seeds

    def set_client_seed(self, member: int, text: str) -> dict:
        self.client_seeds[member] = text
        return self.append(
            "client_seed", {"member": member, "client_seed": text}, member=member, role=role_of(member)
        )

    # F-3, F-6: rolls and follow-ups, each with the next nonce

    def source(self, member: int) -> FairDice:
        assert self.seed is not None
        self.nonce += 1
        return FairDice(self.seed, self.chronicle, self.client_seeds.get(member, ""), self.nonce)

    def roll(self, member: int, action_name: str, *, visibility: str = "public") -> dict:
        system = action_name.split("-")[0]
        sheet = self.sheets.setdefault(system, new_sheet(system, SHEETS[system]))
        source = self.source(member)
        done = perform(
            system,
            sheet,
            copy.deepcopy(ACTIONS[action_name]),
            mode="casual",
            role=role_of(member),
            source=source,
        )
        self.sheets[system] = done.sheet
        receipt = copy.deepcopy(done.receipt)
        receipt["fair"] = source.record()
        return self.append("roll", receipt, member=member, role=role_of(member), visibility=visibility)

    def reroll(self, member: int, seq: int, dice: list[int]) -> dict:
        original = self.entries[seq - 1]
        source = self.source(member)
        done = perform_followup(
            "v5",
            self.sheets["v5"],
            original["receipt"],
            {"kind": "reroll", "dice": dice},
            mode="casual",
            role="player",
            source=source,
        )
        self.sheets["v5"] = done.sheet
        receipt = copy.deepcopy(done.receipt)
        receipt["rerolls"][-1]["fair"] = source.record()
        return self.append(
            "reroll", receipt, member=member, role="player", visibility=original["visibility"], refers_to=seq
        )

    def plain_roll(self, member: int, action_name: str, source) -> dict:
        """A roll without a fairness record (physical dice, or a server before fair dice)."""
        system = action_name.split("-")[0]
        sheet = self.sheets.setdefault(system, new_sheet(system, SHEETS[system]))
        done = perform(
            system, sheet, copy.deepcopy(ACTIONS[action_name]), mode="casual", role="player", source=source
        )
        return self.append("roll", done.receipt, member=member, role="player")


def a_whole_evening() -> ChronicleLog:
    """Two members with client seeds, rolls of every system (a V20 soak, a V5 Blood Surge with its
    Rouse die, a Tiers chain, a roll-under opposed roll of mixed dice), a V5 reroll, a rotation, and
    rolls under the new seed (pending until it is revealed)."""
    log = ChronicleLog()
    log.commit(seed_of("first seed"))
    log.set_client_seed(2, "alice's lucky string")
    log.set_client_seed(3, "Élodie 🎲")
    log.roll(2, "v20")
    log.roll(3, "v20-soak")
    surge = log.roll(2, "v5-surge")
    first = log.roll(3, "v5")
    log.reroll(3, first["seq"], [0, 1])
    log.roll(2, "tiers")
    log.set_client_seed(STORYTELLER_MEMBER, "the storyteller")
    log.roll(STORYTELLER_MEMBER, "rollunder-opposed")
    log.roll(2, "rollunder")
    log.set_client_seed(2, "a new string")
    log.roll(2, "v5")
    assert "rouse" in surge["receipt"]
    log.rotate(seed_of("second seed"))
    log.roll(2, "v20")
    log.roll(3, "v5")
    return log


class StreamLog(ChronicleLog):
    """A log written after F-7 and F-8: two streams (``public`` and ``hidden``), each seed committed
    with its ``"stream"``, every record naming its stream, every reveal counting its rolls."""

    def __init__(self, chronicle: int = 7) -> None:
        super().__init__(chronicle)
        self.streams: dict[str, tuple[bytes, int]] = {}  # stream -> (seed in use, last nonce)

    def commit_stream(self, stream: str, seed: bytes) -> dict:
        self.streams[stream] = (seed, 0)
        return self.append(
            "seed_commit", {"algorithm": FAIR_ALGORITHM, "commitment": commitment_of(seed), "stream": stream}
        )

    def reveal_stream(self, stream: str, *, rolls: int | None = None) -> dict:
        seed, nonce = self.streams.pop(stream)
        return self.append(
            "seed_reveal",
            {
                "algorithm": FAIR_ALGORITHM,
                "commitment": commitment_of(seed),
                "seed": seed.hex(),
                "stream": stream,
                "rolls": nonce if rolls is None else rolls,
                "last_nonce": nonce,
            },
        )

    def stream_roll(
        self, member: int, action_name: str, *, visibility: str = "public", stream: str | None = None
    ) -> dict:
        """A roll drawn from ``stream`` (default: the hidden one for a hidden roll, F-7)."""
        stream = stream or ("hidden" if visibility == "hidden" else "public")
        seed, nonce = self.streams[stream]
        self.streams[stream] = (seed, nonce + 1)
        system = action_name.split("-")[0]
        sheet = self.sheets.setdefault(system, new_sheet(system, SHEETS[system]))
        source = FairDice(seed, self.chronicle, self.client_seeds.get(member, ""), nonce + 1)
        done = perform(
            system,
            sheet,
            copy.deepcopy(ACTIONS[action_name]),
            mode="casual",
            role=role_of(member),
            source=source,
        )
        self.sheets[system] = done.sheet
        receipt = copy.deepcopy(done.receipt)
        receipt["fair"] = {**source.record(), "stream": stream}
        return self.append("roll", receipt, member=member, role=role_of(member), visibility=visibility)


def redacted(entries: list[dict], seqs: set[int]) -> list[dict]:
    """A player's export: the entries of ``seqs`` redacted (their hashes only)."""
    out = []
    for entry in entries:
        entry = copy.deepcopy(entry)
        if entry["seq"] in seqs:
            entry.update(actor=None, receipt=None, character=None, refers_to=None, effects=[], redacted=True)
        out.append(entry)
    return out
