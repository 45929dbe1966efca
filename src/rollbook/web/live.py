"""The web table's live feed: ``GET /chronicles/{id}/live`` (``text/event-stream``), the HTML
adapter of the server's one feed (``rollbook.server.sse.entry_feed``): one ``entry`` event per
new log entry, its data the card's HTML as this member may see it, in their language, with what it
changes elsewhere on the page out of band (htmx's SSE extension puts it on top of the feed).

New entries reach a process's feeds in one read (``events.Batch``); what their cards are drawn from
(the chronicle, its characters, follow-ups, revealed seeds: ``usecases.feeds.table_context``) is
read once per batch too, for every web viewer of the chronicle (``Sitting``), and each card is
drawn once per *seat*: the feeds whose viewers see the entry alike, in one language, on one page,
in one role, acting for the same of the characters the card reads (``seat``), are given one card;
the cards asked for in one turn of the event loop are drawn in one thread-pool call. An entry that
redraws more than its own card (a reveal, a reroll, an exchange's step, a seed's reveal, the queue
or the scene bar) is drawn with ``table.live_item``, which reads what that viewer sees.

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

from rollbook.entries import Logged
from rollbook.fair import SEED_REVEAL
from rollbook.i18n import GAME_MASTER_SYSTEMS
from rollbook.present import authority, contests, exchange
from rollbook.server.access import may_open
from rollbook.server.deps import request_token
from rollbook.server.events import ERROR, Batch, End, Entry
from rollbook.server.models import Caller
from rollbook.server.sse import entry_feed, event_stream
from rollbook.server.usecases import feeds as feed_reads
from rollbook.server.usecases.exchange import next_steps, roll_of
from rollbook.server.views import member_view, roster_view
from rollbook.web import keychain, redraws, table
from rollbook.web.deps import Db, Lang, PageAccess, Reader, page_router
from rollbook.web.respond import is_htmx, see_other
from rollbook.web.templating import render

router = page_router()

ENDED_EVENT = "ended"  # _feed.html closes the feed on it (sse-close) and shows its banner (sse-swap)


def card_html(request: Request, db, member: Caller, lang: str, entry: dict, character_id: int | None) -> str:
    item = table.live_item(db, member, lang, entry, character_id)
    return _render(request, member, lang, item)


def step_taken(request: Request, db, signed: PageAccess, chronicle_id: int, entry: dict) -> Response:
    """After a step a card offered (a side's roll, an extended action's next, a hunger frenzy test),
    the step's write made: with htmx, the new card on top of the feed and the card whose step it took
    redrawn, as the live feed draws them, from one read (the chronicle's row read once there:
    ``PageAccess.answer_in``); without JavaScript, a 303 to the new card."""
    if not is_htmx(request):
        return see_other(f"/chronicles/{chronicle_id}#entry-{Logged.of(entry).seq}")
    with db.one_read() as db:
        member, lang, _row = signed.answer_in(db)
        item = table.live_item_in(db, member, lang, entry, None)
    return HTMLResponse(_render(request, member, lang, item))


def _render(request: Request | None, member: Caller, lang: str, item: dict) -> str:
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
    logged = Logged.of(entry)
    kind = logged.kind
    roll = roll_of(logged)
    root = None if roll is None else exchange.root_in(logged.seq, roll)
    return bool(
        (logged.refers_to and kind in ("reveal", "reroll"))
        or table.takes_step(logged)
        or (root is not None and root != logged.seq)
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
    if character_id is not None and Logged.of(entry).character == character_id:
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


def reads_every_owner(system: str, entry: dict) -> bool:
    """Whether the entry's card reads which of *all* the characters the viewer acts for, not only
    the entry's own: a declaration's buttons (a contest's sides, TR-3; an extended action, TR-4) and
    a roll's next steps (``exchange.offers``: a defence offered to the viewer's characters, V20-20).
    Any other card reads the viewer's standing with the entry's character alone (V5-8's reroll, the
    sheet's Willpower, a sheet page's resources: ``access.may_open``)."""
    return Logged.of(entry).kind in contests.KINDS or bool(next_steps(system, entry))


def seat(
    context: feed_reads.TableContext,
    batch: Batch,
    member: Caller,
    lang: str,
    entry: Entry,
    character_id: int | None,
    every_owner: bool,
) -> tuple:
    """What of the viewer the entry's card reads (``shared_item``, ``_live.html``), so that two feeds
    of one seat are given one card: the entry as they see it (``Batch.view_key``), the language, the
    sheet's page, the role (the Storyteller acts for every character), and the characters they may
    open and act for (``access.may_open``, the one place a card reads the member's id) among those the
    card reads (``reads_every_owner``: every character, else the entry's own)."""
    about = entry.view.get("character")
    opens = frozenset(
        row.id for row in context.characters if (every_owner or row.id == about) and may_open(member, row)
    )
    return (entry.seq, batch.view_key(member), lang, character_id, member.role, opens)


class Sitting:
    """The web feeds' cards of one batch (``Batch.shared``): the batch's table context read once,
    each card drawn once per seat (``seat``), the cards the feeds ask for in one turn of the event
    loop drawn together in one thread-pool call. A card that offers a step carries a form whose
    idempotency key is the form's own (``web.once``): it is drawn for each feed, from its seat's one
    item."""

    def __init__(self, db, batch: Batch) -> None:
        self.db, self.batch = db, batch
        self.context: feed_reads.TableContext | None = None
        self.every_owner: dict[tuple, bool] = {}  # (seq, view) -> reads_every_owner, once per batch
        self.drawn: dict[tuple, str | dict[str, Any]] = {}  # seat -> its card, or its item (offers)
        self.asked: list[tuple[asyncio.Future, Request | None, Caller, str, Entry, int | None]] = []
        self.last: asyncio.Task | None = None  # the latest drawing: the next one starts after it
        self.items = 0  # the cards drawn (``shared_item``), rendered, and the thread-pool calls made
        self.renders = 0
        self.calls = 0

    async def card(
        self, request: Request | None, member: Caller, lang: str, entry: Entry, character_id: int | None
    ) -> str:
        """The entry's card for this viewer, as ``shared_html`` draws it."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.asked.append((future, request, member, lang, entry, character_id))
        if len(self.asked) == 1:  # the first to ask this turn: draw once the others of the turn asked
            loop.call_soon(self._start)
        return await future

    def _start(self) -> None:
        asked, self.asked = self.asked, []
        self.last = asyncio.ensure_future(self._draw_all(asked, self.last))

    async def _draw_all(self, asked: list, previous: asyncio.Task | None) -> None:
        try:
            if previous is not None:  # one drawing at a time: each seat is drawn once
                await asyncio.wait({previous})
            cards = await run_in_threadpool(self._draw, [ask[1:] for ask in asked])
        except BaseException as error:
            for future, *_ in asked:  # each feed raises it (or is cancelled with the server)
                if future.done():
                    continue
                if isinstance(error, Exception):
                    future.set_exception(error)
                else:
                    future.cancel()
            if not isinstance(error, Exception):
                raise
            return
        for (future, *_), html in zip(asked, cards, strict=True):
            if future.done():  # (cancelled: its feed was closed meanwhile)
                continue
            if isinstance(html, Exception):  # that feed's own card failed: that feed ends, as it did alone
                future.set_exception(html)
            else:
                future.set_result(html)

    def _draw(self, asked: list) -> list[str | Exception]:
        self.calls += 1
        if self.context is None:
            self.context = _context(self.db, self.batch)
        out: list[str | Exception] = []
        for ask in asked:
            try:
                out.append(self._draw_one(self.context, *ask))
            except Exception as error:
                out.append(error)
        return out

    def _draw_one(
        self,
        context: feed_reads.TableContext,
        request: Request | None,
        member: Caller,
        lang: str,
        entry: Entry,
        character_id: int | None,
    ) -> str:
        viewed = (entry.seq, self.batch.view_key(member))
        every = self.every_owner.get(viewed)
        if every is None:
            every = self.every_owner[viewed] = reads_every_owner(context.chronicle["system"], entry.view)
        key = seat(context, self.batch, member, lang, entry, character_id, every)
        drawn = self.drawn.get(key)
        if drawn is None:
            item = shared_item(context, member, lang, entry.view, character_id)
            self.items += 1
            drawn = item if item["card"].offers else self._render(request, member, lang, item)
            self.drawn[key] = drawn
        return self._render(request, member, lang, drawn) if isinstance(drawn, dict) else drawn

    def _render(self, request: Request | None, member: Caller, lang: str, item: dict[str, Any]) -> str:
        self.renders += 1
        return _render(request, member, lang, item)


def sitting(db, batch: Batch) -> Sitting:
    """The batch's ``Sitting``, made by the first web feed that takes the batch."""
    found = batch.shared.get("web")
    if not isinstance(found, Sitting):
        found = batch.shared["web"] = Sitting(db, batch)
    return found


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
            html = await sitting(db, item.batch).card(request, member, lang, item, character_id)
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
