"""`rollbook odds v20 exchange …` and `rollbook odds tiers exchange …`: the exact odds of a whole exchange
before the attack is rolled: each system's command is its package's ``cli_exchange`` (``systems.v20.cli_exchange``,
``systems.tiers.cli_exchange``, loaded by name by ``cli.odds``), registered as the hidden commands
``v20-exchange`` and ``tiers-exchange`` that ``OddsGroup`` routes `SYSTEM exchange` to; here, what they
share: an outcome's words."""

from __future__ import annotations

OUTCOME_WORDS = {
    "botch": "botch",
    "miss": "miss",
    "dodged": "dodged",
    "soaked": "hit, all soaked",
    "wounded": "hit, wounded",
}


__all__ = ["OUTCOME_WORDS"]
