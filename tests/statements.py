"""The SQL statements a call sends, by transaction: for the tests that count what a request costs the
store (tests/server/test_page_*_cost.py, test_page_read_statements.py; docs/ARCHITECTURE.md,
"present/" and "web/"). A transaction begins with SQLite's own ``BEGIN`` (sent as a statement from
the engine's ``begin`` hook, before this module's listener hears the event) or PostgreSQL's (the
driver's: the ``begin`` event alone); each connection's statements go to its own transaction."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import event


def transactions(app, call: Callable[[], object]) -> list[list[tuple[str, str]]]:
    """The statements ``call()`` sent on ``app``'s engine (each with its parameters' ``repr``), by
    transaction in the order they began, SQLite's ``BEGIN`` kept; a transaction that sent nothing is
    an empty list."""
    begun: list[list[tuple[str, str]]] = []
    current: dict[int, list[tuple[str, str]]] = {}
    opened: set[int] = set()  # connections whose BEGIN was sent and whose begin event is to come

    def start(connection) -> None:
        begun.append([])
        current[id(connection)] = begun[-1]

    def began(connection) -> None:
        if id(connection) in opened:
            opened.discard(id(connection))
        else:
            start(connection)

    def executed(connection, _cursor, statement, parameters, *_rest) -> None:
        if is_begin(statement):
            start(connection)
            opened.add(id(connection))
        elif id(connection) not in current:  # a statement before any transaction began: one of its own
            start(connection)
        current[id(connection)].append((statement, repr(parameters)))

    engine = app.state.db.engine
    event.listen(engine, "begin", began)
    event.listen(engine, "before_cursor_execute", executed)
    try:
        call()
    finally:
        event.remove(engine, "before_cursor_execute", executed)
        event.remove(engine, "begin", began)
    return begun


def is_begin(statement: str) -> bool:
    return statement.lstrip().upper().startswith("BEGIN")


def sent(app, call: Callable[[], object], *, keep_empty: bool = True) -> list[list[tuple[str, str]]]:
    """The statements ``call()`` sent (each with its parameters), by transaction, ``BEGIN`` left out
    (SQLite sends it, PostgreSQL's driver does not: the counts are the same on both stores); a
    transaction that sent nothing else is an empty list, or left out unless ``keep_empty``."""
    found = [[(s, p) for s, p in statements if not is_begin(s)] for statements in transactions(app, call)]
    return [statements for statements in found if statements or keep_empty]
