"""The web table's live feed: ``GET /chronicles/{id}/live`` (``text/event-stream``), the HTML
adapter of the server's one feed (``rollbook.server.events.entry_feed``): one ``entry`` event per
new log entry, its data the card's HTML as this member may see it, in their language, with what it
changes elsewhere on the page out of band (htmx's SSE extension puts it on top of the feed).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Header, Query, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from rollbook.server.events import entry_feed, event_stream
from rollbook.server.models import Member
from rollbook.server.views import member_view
from rollbook.web import table
from rollbook.web.deps import Db, Lang, Reader, page_router
from rollbook.web.templating import render

router = page_router()


def card_html(request: Request, db, member: Member, lang: str, entry: dict, character_id: int | None) -> str:
    item = table.live_item(db, member, lang, entry, character_id)
    return render("_live.html", lang, request=request, htmx=True, item=item, me=member_view(member),
                  chronicle=item["chronicle"])


async def html_events(request: Request, db, member: Member, lang: str, feed: AsyncIterator[tuple[int, dict]],
                      character_id: int | None) -> AsyncIterator[ServerSentEvent]:
    async for seq, entry in feed:
        html = await run_in_threadpool(card_html, request, db, member, lang, entry, character_id)
        yield ServerSentEvent(html, event="entry", id=str(seq), sep="\n")


@router.get("/chronicles/{chronicle_id}/live", response_class=EventSourceResponse)
async def live(request: Request, db: Db, member: Reader, lang: Lang,
               after: Annotated[int, Query(ge=0)] = 0,
               character: Annotated[int | None, Query(ge=1)] = None,
               last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None) -> EventSourceResponse:
    """One ``entry`` event per log entry after ``after`` (or after ``Last-Event-ID``, whichever is
    later); ``character``: the sheet page's character, whose resources the events redraw."""
    if last_event_id and last_event_id.strip().isdigit():
        after = max(after, int(last_event_id.strip()))
    feed = entry_feed(request.app.state.hub, db, member, after)
    return event_stream(html_events(request, db, member, lang, feed, character))
