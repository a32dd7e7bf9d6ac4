"""bot/table.py: Table.changed_secrets (issue 25). After an order, a seat whose hidden information changed is sent
it again; the texts of the position an order produced are kept for the next order (its "before"), so that a
position's texts are worked out once, not twice. These tests hold the memo to what it must not change: the DMs."""
from __future__ import annotations

import pytest

from bot.service import GameService
from bot.storage import Store

SEATS = {"sauron": 11, "westernesse": 22}


class Rules:
    """A ruleset's ``secret_text`` that reads ``state["secret"]`` and counts its calls."""

    def __init__(self):
        self.calls: list[tuple[int, str]] = []

    def secret_text(self, state: dict, seat: str) -> str:
        self.calls.append((id(state), seat))
        return state["secret"].get(seat, "")


@pytest.fixture
async def table(tmp_path):
    store = await Store.open(str(tmp_path / "memo.db"))
    try:
        yield GameService(store).table
    finally:
        await store.close()


async def test_the_position_an_order_produced_is_not_read_again_as_the_next_orders_before(table):
    rs = Rules()
    a = {"secret": {"westernesse": "cauldrons 1 and 3"}}
    b = {"secret": {"westernesse": "cauldrons 1 and 3"}}
    c = {"secret": {"westernesse": "cauldron 3"}}
    assert table.changed_secrets(rs, SEATS, a, b) == {}  # nothing changed: nothing sent
    rs.calls.clear()
    dms = table.changed_secrets(rs, SEATS, b, c)  # b is the last order's position: its texts are known
    assert [p.text.splitlines()[-1] for p in dms[22]] == ["cauldron 3"] and 11 not in dms
    assert all(sid == id(c) for sid, _ in rs.calls), rs.calls  # b was not read again


async def test_a_before_that_is_not_the_last_orders_position_is_read_afresh(table):
    # an order refused at its commit leaves the game at ``before``; an undo sets a position of its own: any
    # "before" that is not the very object the last call produced is read, never taken from the memo
    rs = Rules()
    a = {"secret": {"westernesse": "x"}}
    b = {"secret": {"westernesse": "x"}}
    table.changed_secrets(rs, SEATS, a, b)
    b_copy = {"secret": {"westernesse": "y"}}  # equal in nothing but its place: the game moved elsewhere
    c = {"secret": {"westernesse": "x"}}
    dms = table.changed_secrets(rs, SEATS, b_copy, c)
    assert [p.text.splitlines()[-1] for p in dms[22]] == ["x"]  # y -> x is a change: sent
