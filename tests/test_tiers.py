"""The two tiers hold whoever adds a test: one that takes the server or the browser is slow, and one that
starts either itself without the mark fails saying so (tests/conftest.py, tests/serve_support.py)."""

from __future__ import annotations

import pytest

from tests import serve_support
from tests.conftest import SLOW_FIXTURES


def test_no_test_of_this_run_takes_a_server_or_browser_unmarked(request: pytest.FixtureRequest) -> None:
    # in the fast tier, such a test is not here at all; in the whole run, it is here, marked
    taking = [item for item in request.session.items if SLOW_FIXTURES.intersection(item.fixturenames)]
    assert [item.nodeid for item in taking if item.get_closest_marker("slow") is None] == []


def test_a_test_that_starts_a_server_unmarked_fails_saying_so(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("slow") is None
    with pytest.raises(pytest.fail.Exception, match=r"starts `chargen serve`: mark it @pytest\.mark\.slow"):
        serve_support.slow_only("starts `chargen serve`")


@pytest.mark.slow
def test_a_slow_test_may_start_one() -> None:
    serve_support.slow_only("starts `chargen serve`")
