"""Who is at the table: the chronicle page's "At the
table" panel with who is online (``usecases.presence``: a live feed open on any server process), and a
version of what it shows, so that its poll redraws it only when a member joined, left, came online or
went away (``web.routes.presence``: 204 otherwise)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from rollbook.server.models import Caller
from rollbook.server.usecases import presence as presence_cases

POLL_SECONDS = 3


@dataclass(frozen=True)
class People:
    online: frozenset[int]
    version: str
    poll: int = POLL_SECONDS


def version_of(state, online) -> str:
    """A short digest of what the panel shows: members, characters, who is online."""
    shown = [
        [(m["id"], m["name"], m["role"]) for m in state.members],
        [(c.id, c.name, c.owner, c.may_open) for c in state.characters],
        sorted(online),
        sorted(state.compulsions) if getattr(state, "compulsions", None) else [],
    ]
    return hashlib.sha256(json.dumps(shown, default=str).encode()).hexdigest()[:16]


def people(db, member: Caller, state) -> People:
    """The panel's online members and version, for ``state`` (a ``web.table.Table``)."""
    with db.read() as session:
        online = frozenset(presence_cases.online(session, member))
    return People(online, version_of(state, online))
