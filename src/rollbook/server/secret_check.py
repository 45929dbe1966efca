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
        if self.missing:
            return f"{self.missing} ({self.tried} seed(s) in use)" if self.tried else self.missing
        if self.tried == 0:
            return "no seed in use"
        if self.opens_all:
            return f"opens the {self.tried} seed(s) in use"
        chronicles = ", ".join(str(c) for c in sorted(set(self.unopened_chronicles))[:10])
        return f"opens {self.opened} of {self.tried} seed(s) in use (not those of chronicle(s) {chronicles})"


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


def secret_at_start(db: Database) -> SecretVerdict:
    """The start's check: refuses (``SecretKeyError``, one line with the fix) a secret that opens none
    of the seeds in use, or a missing key file over a store that has seeds in use; else makes the key
    file when missing and returns the verdict (a warning when some seeds stay closed)."""
    given = settings.current()
    if given.secret_key is None and not secret_file(given).exists():
        count = seeds_in_use(db)
        if count:
            raise SecretKeyError(
                f"the key file {secret_file(given)} is missing and the database holds {count} sealed "
                "seed(s) in use: put back the key file they were sealed under (or set "
                "ROLLBOOK_SECRET_KEY_FILE / ROLLBOOK_SECRET_KEY to it); a new key would open none of them"
            )
    secret = operator_secret(given)  # the first start of an empty store makes the key file here
    verdict = secret_verdict(db, secret)
    if verdict.opens_none:
        raise SecretKeyError(
            f"the operator's secret ({_where(given)}) opens none of the {verdict.tried} sealed seed(s) "
            "in use: start with the secret they were sealed under (the key file or ROLLBOOK_SECRET_KEY "
            "of the machine the database came from)"
        )
    if not verdict.opens_all:
        log.warning("rollbook: the operator's secret %s", verdict.summary())
    return verdict
