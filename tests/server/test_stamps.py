"""The one form of every timestamp the database holds (``auth.stamp``, ``tx.now``): compared as
text (a session's ``expires_at`` against now), so it must never change shape."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.server import auth, tx

FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
OFFSETS = st.integers(min_value=-23 * 60, max_value=23 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@pytest.mark.parametrize(
    ("moment", "written"),
    [
        (datetime(2026, 12, 2, 3, 4, 5, 6, tzinfo=UTC), "2026-12-02T03:04:05.000006Z"),
        (datetime(2026, 12, 2, 1, 0, 0, tzinfo=timezone(timedelta(hours=2))), "2026-12-01T23:00:00.000000Z"),
        (
            datetime(1999, 12, 31, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
            "2000-01-01T05:29:59.999999Z",
        ),
    ],
    ids=["utc", "ahead of utc", "behind utc, next day and year"],
)
def test_a_stamp_is_the_utc_moment_in_the_stored_form(moment, written):
    """The form the database has always held: the moment in UTC, microseconds always, "Z"."""
    assert auth.stamp(moment) == written
    assert FORM.fullmatch(written)


@given(
    st.datetimes(min_value=datetime(1001, 1, 1), max_value=datetime(9998, 12, 31), timezones=OFFSETS),
    st.timedeltas(min_value=timedelta(microseconds=1), max_value=timedelta(days=400)),
)
def test_stamps_sort_as_their_moments(moment, later):
    assert auth.stamp(moment) < auth.stamp(moment + later)


def test_now_is_this_moment_stamped():
    before = auth.stamp(datetime.now(UTC))
    written = tx.now()
    after = auth.stamp(datetime.now(UTC))
    assert FORM.fullmatch(written) and before <= written <= after
