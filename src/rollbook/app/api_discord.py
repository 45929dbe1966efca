"""Discord's HTTP interactions endpoint: ``POST /discord/interactions``.

The signature (``X-Signature-Ed25519`` over ``X-Signature-Timestamp`` + the raw body, the
application's public key ``DISCORD_PUBLIC_KEY``) is checked on the raw bytes before anything is
parsed: a bad, missing or stale one is 401 ``discord_signature_invalid`` and nothing is read or
written (Discord sends invalid ones on purpose, and drops an endpoint that accepts them). The
interaction itself is ``rollbook.discord.interactions.handle``'s, in a worker thread; a deferred
answer's work runs after the answer is sent (a background task ending with
``DiscordRest.edit_original``). Not part of the JSON API's schema: Discord is its only client.
"""

from __future__ import annotations

import json

import anyio.to_thread
from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import JSONResponse

from rollbook.app.openapi import operation_id
from rollbook.discord.interactions import Context, handle
from rollbook.discord.rest import client_for
from rollbook.discord.signature import verify
from rollbook.server.problems import ProblemError

router = APIRouter(generate_unique_id_function=operation_id)


def context_of(request: Request) -> Context:
    app = request.app
    return Context(
        db=app.state.db,
        dice=app.state.dice,
        application_id=app.state.settings.discord_application_id,
        rest=lambda: client_for(app.state),
        base_url=str(request.base_url),
    )


@router.post("/discord/interactions", include_in_schema=False)
async def discord_interactions(request: Request, background: BackgroundTasks) -> JSONResponse:
    body = await request.body()
    headers = request.headers
    if not verify(
        request.app.state.settings.discord_public_key,
        headers.get("x-signature-ed25519"),
        headers.get("x-signature-timestamp"),
        body,
    ):
        raise ProblemError(401, "discord_signature_invalid")
    try:
        payload = json.loads(body)
    except ValueError:
        raise ProblemError(400, "body_not_json", detail="") from None
    if not isinstance(payload, dict):
        raise ProblemError(400, "body_not_json", detail="")
    answer = await anyio.to_thread.run_sync(handle, context_of(request), payload)
    if answer.later is not None:
        background.add_task(answer.later)
    return JSONResponse(answer.body)
