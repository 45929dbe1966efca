"""Whether the operator's secret opens the server seeds in use (SPEC F-1), checked where a host meets
it: at start (``secret_at_start``: ``create_app`` and ``rollbook serve --workers``), by
``/api/health`` and by ``rollbook db verify`` (``secret_verdict``).

A start is refused, with one line saying how to fix it, when the store holds seeds in use and the
secret opens none of them (the key file was moved away or replaced, ``ROLLBOOK_SECRET_KEY`` is not
the one they were sealed under, a copy or restore landed on a machine without the key); a key file
is made on a first start only when the store holds no seed in use (a new key would open none). A
secret that opens some seeds in use but not others starts, with a warning naming the chronicles.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from sqlalchemy import func, select

from rollbook import settings
from rollbook.i18n import counted
from rollbook.server.db import Database
from rollbook.server.models import FairSeed
from rollbook.server.seal import SecretKeyError, operator_secret, secret_file, unseal

log = logging.getLogger("rollbook.server")

TRIED_SEEDS = 200  # the newest seeds in use tried (each opening is one AES-GCM decryption)


@dataclass(frozen=True)
class SecretVerdict:
    """How many seeds in use the secret was tried on, how many it opened, and the chronicles of those
    it did not (``missing``: no secret at all, the key file is absent)."""

    tried: int
    opened: int
    unopened_chronicles: list[int] = field(default_factory=list)
    missing: str | None = None

    @property
    def opens_all(self) -> bool:
        return self.missing is None and self.opened == self.tried

    @property
    def fails(self) -> bool:
        """Some seed in use does not open (no secret is no failure while no seed is in use)."""
        return self.tried > 0 and not self.opens_all

    @property
    def opens_none(self) -> bool:
        return self.tried > 0 and self.opened == 0

    def summary(self) -> str:
        """One English line for the operator (a log line, ``rollbook db verify``), each noun in the
        form its count takes: "opens the 1 seed in use", "opens 1 of 3 seeds in use (not those of
        chronicle 2)"."""
        seeds = counted(self.tried, "seed", "seeds")
        if self.missing:
            return f"{self.missing} ({seeds} in use)" if self.tried else self.missing
        if self.tried == 0:
            return "no seed in use"
        if self.opens_all:
            return f"opens the {seeds} in use"
        unopened = sorted(set(self.unopened_chronicles))
        chronicles = ", ".join(str(c) for c in unopened[:10])
        those = "that" if self.tried - self.opened == 1 else "those"
        of = "chronicle" if len(unopened) == 1 else "chronicles"
        return f"opens {self.opened} of {seeds} in use (not {those} of {of} {chronicles})"


def _seeds_in_use(db: Database) -> list[tuple[int, str, str]]:
    with db.read() as session:
        rows = session.execute(
            select(FairSeed.chronicle_id, FairSeed.commitment, FairSeed.sealed)
            .where(FairSeed.revealed_seq.is_(None))
            .order_by(FairSeed.id.desc())
            .limit(TRIED_SEEDS)
        ).all()
    return [(row[0], row[1], row[2]) for row in rows]


def seeds_in_use(db: Database) -> int:
    with db.read() as session:
        return int(session.scalar(select(func.count()).where(FairSeed.revealed_seq.is_(None))) or 0)


def secret_verdict(db: Database, secret: str | None = None) -> SecretVerdict:
    """Tries the operator's secret (never making a key file) on the newest seeds in use."""
    seeds = _seeds_in_use(db)
    if secret is None:
        try:
            secret = operator_secret(create=False)
        except SecretKeyError as missing:
            return SecretVerdict(tried=len(seeds), opened=0, missing=str(missing))
    opened = 0
    unopened: list[int] = []
    for chronicle_id, commitment, sealed in seeds:
        try:
            unseal(sealed, chronicle_id, commitment, secret)
            opened += 1
        except (SecretKeyError, ValueError):
            unopened.append(chronicle_id)
    return SecretVerdict(tried=len(seeds), opened=opened, unopened_chronicles=unopened)


def _where(given: settings.Settings) -> str:
    if given.secret_key is not None:
        return "ROLLBOOK_SECRET_KEY"
    return f"the key file {secret_file(given)}"


def missing_key_text(key_file: str, count: int) -> str:
    """The start's refusal when the key file is gone and ``count`` sealed seeds are in use (one
    English line, its nouns and pronouns in the form the count takes)."""
    if count == 1:
        sealed, they, opens = "seed", "it was", "would not open it"
    else:
        sealed, they, opens = "seeds", "they were", "would open none of them"
    return (
        f"the key file {key_file} is missing and the database holds {count} sealed {sealed} in use: "
        f"put back the key file {they} sealed under (or set ROLLBOOK_SECRET_KEY_FILE / "
        f"ROLLBOOK_SECRET_KEY to it); a new key {opens}"
    )


def opens_none_text(where: str, tried: int) -> str:
    """The start's refusal when the secret opens none of the ``tried`` sealed seeds in use."""
    if tried == 1:
        opens, they = "does not open the 1 sealed seed", "it was"
    else:
        opens, they = f"opens none of the {tried} sealed seeds", "they were"
    return (
        f"the operator's secret ({where}) {opens} in use: start with the secret {they} sealed under "
        "(the key file or ROLLBOOK_SECRET_KEY of the machine the database came from)"
    )


def secret_at_start(db: Database) -> SecretVerdict:
    """The start's check: refuses (``SecretKeyError``, one line with the fix) a secret that opens none
    of the seeds in use, or a missing key file over a store that has seeds in use; else makes the key
    file when missing and returns the verdict (a warning when some seeds stay closed)."""
    given = settings.current()
    if given.secret_key is None and not secret_file(given).exists():
        count = seeds_in_use(db)
        if count:
            raise SecretKeyError(missing_key_text(str(secret_file(given)), count))
    secret = operator_secret(given)  # the first start of an empty store makes the key file here
    verdict = secret_verdict(db, secret)
    if verdict.opens_none:
        raise SecretKeyError(opens_none_text(_where(given), verdict.tried))
    if not verdict.opens_all:
        log.warning("rollbook: the operator's secret %s", verdict.summary())
    return verdict
