"""The web table's live feed: ``GET /chronicles/{id}/live`` (``text/event-stream``), the HTML
adapter of the server's one feed (``rollbook.server.sse.entry_feed``): one ``entry`` event per
new log entry, its data the card's HTML as this member may see it, in their language, with what it
changes elsewhere on the page out of band (htmx's SSE extension puts it on top of the feed).

New entries reach a process's feeds in one read (``events.Batch``); what their cards are drawn from
(the chronicle, its characters, follow-ups, revealed seeds: ``usecases.feeds.table_context``) is
read once per batch too, for every web viewer of the chronicle, and each viewer's card is drawn
from it in their language. An entry that redraws more than its own card (a reveal, a reroll, an
exchange's step, a seed's reveal, the queue or the scene bar) is drawn with ``table.live_item``,
which reads what that viewer sees.

When the member's token stops opening the chronicle (signed out, key replaced, removed, expired),
a last ``ended`` event carries a banner saying so, and the page closes the feed (``sse-close``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Header, Query, Request
from fastapi.responses import HTMLResponse, Response
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from rollbook.fair import SEED_REVEAL
from rollbook.i18n import GAME_MASTER_SYSTEMS
from rollbook.present import authority, exchange
from rollbook.server.deps import request_token
from rollbook.server.events import ERROR, Batch, End, Entry
from rollbook.server.models import Caller
from rollbook.server.sse import entry_feed, event_stream
from rollbook.server.usecases import feeds as feed_reads
from rollbook.server.views import member_view, roster_view
from rollbook.web import keychain, redraws, table
from rollbook.web.deps import Db, Lang, Reader, page_router
from rollbook.web.respond import is_htmx, see_other
from rollbook.web.templating import render

router = page_router()

ENDED_EVENT = "ended"  # _feed.html closes the feed on it (sse-close) and shows its banner (sse-swap)


def card_html(request: Request, db, member: Caller, lang: str, entry: dict, character_id: int | None) -> str:
    item = table.live_item(db, member, lang, entry, character_id)
    return _render(request, member, lang, item)


def step_taken(request: Request, db, member: Caller, lang: str, chronicle_id: int, entry: dict) -> Response:
    """After a step a card offered (a side's roll, an extended action's next, a hunger frenzy test):
    with htmx, the new card on top of the feed and the card whose step it took redrawn, as the live
    feed draws them; without JavaScript, a 303 to the new card."""
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{entry['seq']}")
    return HTMLResponse(card_html(request, db, member, lang, entry, None))


def _render(request: Request, member: Caller, lang: str, item: dict) -> str:
    game_master = (item["chronicle"] or {}).get("system") in GAME_MASTER_SYSTEMS  # "MJ"
    return render(
        "_live.html",
        lang,
        game_master,
        request=request,
        htmx=True,
        item=item,
        me=member_view(member),
        chronicle=item["chronicle"],
    )


def redraws_more(entry: dict) -> bool:
    """Whether the entry's live card redraws more than itself (``table.live_item`` draws those)."""
    kind = entry["kind"]
    root = exchange.root_of(entry)
    return (
        (entry.get("refers_to") and kind in ("reveal", "reroll"))
        or table.takes_step(entry)
        or (root is not None and root != entry["seq"])
        or kind == SEED_REVEAL
        or kind in authority.QUEUE_KINDS
        or kind in authority.SCENE_KINDS
    )


def shared_item(
    context: feed_reads.TableContext, member: Caller, lang: str, entry: dict, character_id: int | None
) -> dict[str, Any]:
    """``table.live_item`` of an entry that redraws only its own card, drawn from the batch's one read."""
    characters = [
        table.CharacterRow(
            view["id"],
            view["name"],
            view["owner"],
            view["difficulty"],
            view["version"],
            view["sheet"],
            view["may_open"],
            view.get("trait_names") or {},
        )
        for view in (roster_view(row, member) for row in context.characters)
    ]
    chronicle = context.chronicle
    viewer = table.viewer_of(member, chronicle, lang)
    item: dict[str, Any] = {
        "chronicle": chronicle,
        "queue": False,
        "scene": False,
        "redraws": redraws.for_entry(entry, member.chronicle_id, character_id),
    }
    item["card"] = table.cards_for(
        [entry], viewer, characters, context.followed, chronicle["system"], revealed=context.revealed_seeds
    )[0]
    if character_id is not None and entry.get("character") == character_id:
        row = next((c for c in characters if c.id == character_id), None)
        if row is not None and row.sheet is not None:
            item["resources"] = row
            item["checks"] = table.held_checks(chronicle["system"], row.sheet, lang, member.role)
    return item


def shared_html(
    request: Request,
    context: feed_reads.TableContext,
    member: Caller,
    lang: str,
    entry: dict,
    character_id: int | None,
) -> str:
    return _render(request, member, lang, shared_item(context, member, lang, entry, character_id))


def _context(db, batch: Batch) -> feed_reads.TableContext:
    with db.read() as session:
        return feed_reads.table_context(session, batch.rows[0].chronicle_id, [row.seq for row in batch.rows])


async def context_of(db, batch: Batch) -> feed_reads.TableContext:
    """The batch's table context, read by the first web feed that needs it; the others wait for it."""
    pending = batch.shared.get("web")
    if not isinstance(pending, asyncio.Future):  # (None: no feed has asked yet)
        pending = batch.shared["web"] = asyncio.ensure_future(run_in_threadpool(_context, db, batch))
    return await asyncio.shield(pending)


def ended_html(request: Request, lang: str, reason: str) -> str:
    return render("_feed_ended.html", lang, request=request, htmx=True, reason=reason)


async def html_events(
    request: Request,
    db,
    member: Caller,
    lang: str,
    feed: AsyncIterator[Entry | End],
    character_id: int | None,
) -> AsyncIterator[ServerSentEvent]:
    async for item in feed:
        if isinstance(item, End):
            if item.reason == ERROR:  # the server's fault, not the member's: the page reconnects
                return
            html = await run_in_threadpool(ended_html, request, lang, item.reason)
            yield ServerSentEvent(html, event=ENDED_EVENT, sep="\n")
            return
        if item.batch is not None and not redraws_more(item.view):
            context = await context_of(db, item.batch)
            html = await run_in_threadpool(
                shared_html, request, context, member, lang, item.view, character_id
            )
        else:
            html = await run_in_threadpool(card_html, request, db, member, lang, item.view, character_id)
        yield ServerSentEvent(html, event="entry", id=str(item.seq), sep="\n")


@router.get("/chronicles/{chronicle_id}/live", response_class=EventSourceResponse)
async def live(
    request: Request,
    db: Db,
    member: Reader,
    lang: Lang,
    chronicle_id: int,
    after: Annotated[int, Query(ge=0)] = 0,
    character: Annotated[int | None, Query(ge=1)] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
) -> EventSourceResponse:
    """One ``entry`` event per log entry after ``after`` (or after ``Last-Event-ID``, whichever is
    later); ``character``: the sheet page's character, whose resources the events redraw; a last
    ``ended`` event (a banner) when the member's token stops opening the chronicle."""
    if last_event_id and last_event_id.strip().isdigit():
        after = max(after, int(last_event_id.strip()))
    tokens = [keychain.token_for(request, chronicle_id), request_token(request)]
    feed = entry_feed(request.app.state.hub, db, member, after, tokens=tokens)
    return event_stream(html_events(request, db, member, lang, feed, character))
