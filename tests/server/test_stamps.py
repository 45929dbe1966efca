"""The one form of every timestamp the database holds (``auth.stamp``, ``tx.now``): compared as
text (a session's ``expires_at`` against now), so it must never change shape."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from rollbook.server import auth, tx

FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
OFFSETS = st.integers(min_value=-23 * 60, max_value=23 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@given(st.datetimes(min_value=datetime(1001, 1, 1), max_value=datetime(9998, 12, 31), timezones=OFFSETS))
def test_a_stamp_is_the_utc_moment_in_strftimes_form(moment):
    """The form the database has always held, whatever writes it: ``strftime``'s
    "%Y-%m-%dT%H:%M:%S.%fZ" of the moment in UTC."""
    written = auth.stamp(moment)
    assert written == moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    assert FORM.fullmatch(written)


@given(st.datetimes(min_value=datetime(1001, 1, 1), max_value=datetime(9998, 12, 31), timezones=OFFSETS),
       st.timedeltas(min_value=timedelta(microseconds=1), max_value=timedelta(days=400)))
def test_stamps_sort_as_their_moments(moment, later):
    assert auth.stamp(moment) < auth.stamp(moment + later)


def test_now_is_this_moment_stamped():
    before = auth.stamp(datetime.now(timezone.utc))
    written = tx.now()
    after = auth.stamp(datetime.now(timezone.utc))
    assert FORM.fullmatch(written) and before <= written <= after
