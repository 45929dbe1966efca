"""English msgids of the exchange odds (``server.usecases.odds``, ``present.exchange``'s odds before
the attack). Translated by the ``exchange_odds.po`` catalogues (fr, es)."""

from __future__ import annotations

from rollbook.i18n import N_

EXCHANGE_ODDS_MESSAGES: dict[str, str] = {
    "exchange_not_for_system": N_("A {system} chronicle has no exchange odds: V20 and Tiers have."),
    "exchange_needs_an_attack": N_("A {kind} roll is not an attack: the exchange odds start from one."),
}
