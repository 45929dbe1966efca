"""One verified Discord interaction in, one interaction response out.

``handle(context, payload)`` dispatches on the interaction's type: PING (→ PONG), an application
command and its autocomplete (``discord.handlers``), a message component or a modal submit
(``discord.components``). A refusal (``ProblemError``, ``RuleError``) answers an ephemeral message
in the user's language (``base.refusal``), never an error status: Discord shows the user nothing
for those; an unexpected error is logged and said the same way.
"""

from __future__ import annotations

import logging

from rollbook.discord import components, handlers
from rollbook.discord.base import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    MODAL_SUBMIT,
    PING,
    PONG,
    Answer,
    Context,
    Invocation,
    message,
    refusal,
)
from rollbook.i18n import N_, translate
from rollbook.rules.base import RuleError
from rollbook.server.problems import ProblemError, from_rule_error

log = logging.getLogger("rollbook.discord")

FAILED = N_("Something went wrong on the server; nothing was changed.")

__all__ = ["Answer", "Context", "handle"]


def with_news(context: Context, inv: Invocation, answer: Answer) -> Answer:
    """``answer``, then, after it (and after a deferred answer's own work), the hidden asks the
    Storyteller has not heard of here, as an ephemeral follow-up (``handlers.hidden_asks_news``)."""
    first = answer.later

    def later() -> None:
        if first is not None:
            first()
        try:
            news = handlers.hidden_asks_news(context, inv)
            if news is not None:
                context.rest().followup(context.application_id or inv.application_id, inv.token, news)
        except Exception:  # the answer is given; this news waits for /queue
            log.exception("rollbook: the hidden asks could not be told to the Storyteller (%s)", inv.id)

    return Answer(answer.body, later)


def handle(context: Context, payload: dict) -> Answer:
    """The response to one verified interaction."""
    inv = Invocation.of(payload)
    if inv.type == PING:
        return Answer({"type": PONG})
    try:
        if inv.type == COMMAND:
            answer = handlers.command(context, inv)
            return answer if inv.data.get("name") == "queue" else with_news(context, inv, answer)
        if inv.type == AUTOCOMPLETE:
            return handlers.autocomplete(context, inv)
        if inv.type == COMPONENT:
            return with_news(context, inv, components.pressed(context, inv))
        if inv.type == MODAL_SUBMIT and inv.data.get("custom_id") == "rb:cn":  # a new character's form
            return handlers.new_character(context, inv, components.modal_fields(inv))
        if inv.type == MODAL_SUBMIT:
            return with_news(context, inv, components.submitted(context, inv))
    except ProblemError as error:
        return refusal(inv, error.code, error.params)
    except RuleError as error:
        problem = from_rule_error(error)
        return refusal(inv, problem.code, problem.params)
    except Exception:
        log.exception("rollbook: the Discord interaction %s failed", inv.id)
        return message(translate(FAILED, inv.locale), ephemeral=True)
    return refusal(inv, "discord_unknown_interaction", {"type": inv.type})
