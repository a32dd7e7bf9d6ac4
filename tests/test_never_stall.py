"""No order, autocomplete or odds can hold the bot (issue 12): the engine's work runs in a
worker, autocomplete answers with what its budget found, and another game is answered meanwhile."""
import asyncio
import itertools
import threading

import pytest

from bot.service import Ctx, GameService
from bot.storage import open_store
from engine.core import Action, Game
from engine.rulesets import get_ruleset
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)


def test_legal_texts_stops_when_the_callers_budget_says_so():
    g = Game.new(get_ruleset("tiny-pbp"), seed="s")
    rs = g.ruleset
    calls = []

    class Endless:
        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, k):
            return getattr(self.inner, k)

        def legal_actions(self, st, seat):  # a position with no end of legal actions
            return (Action("roll", (n,)) for n in itertools.count())

        def format(self, a):
            return f"roll {a.args[0]}"

    g.ruleset = Endless(rs)

    def stop():
        calls.append(1)
        return len(calls) >= 3

    out = g.legal_texts("red", "", limit=None, stop=stop)
    assert len(calls) == 3 and len(out) == 3 * 64 - 1  # asked every 64 actions; what was found is kept
    assert g.legal_texts("red", "roll 1", limit=5) == ["roll 1", "roll 10", "roll 11", "roll 12", "roll 13"]


@pytest.fixture
async def svc(tmp_path):
    store = await open_store(str(tmp_path / "s.db"))
    yield GameService(store, renderer=None, seed_source=lambda: "s")
    await store.close()


_n = itertools.count()


def ctx(user, channel):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"n{next(_n)}")


async def started(svc, channel):
    assert (await svc.new_game(ctx(1, channel), "tiny-pbp")).ok
    assert (await svc.join(ctx(1, channel), "red")).ok and (await svc.join(ctx(2, channel), "blue")).ok
    assert (await svc.start(ctx(1, channel))).ok


async def test_a_stuck_autocomplete_and_a_stuck_order_hold_no_other_game(svc, monkeypatch):
    await started(svc, 1)
    await started(svc, 2)
    rs = get_ruleset("tiny-pbp")
    release, entered = threading.Event(), threading.Event()
    plain_legal, plain_parse = rs.legal_actions, rs.parse

    def slow_legal(st, seat):
        if threading.current_thread() is not threading.main_thread():
            entered.set()
            release.wait(20)
        return plain_legal(st, seat)

    monkeypatch.setattr(rs, "legal_actions", slow_legal)
    pending = asyncio.ensure_future(svc.autocomplete_order(ctx(1, 1), ""))
    await asyncio.to_thread(entered.wait, 20)
    status = await svc.status(ctx(2, 2))  # another game, while the first one's search is stuck
    assert status.ok and not pending.done()
    release.set()
    assert await pending  # and the search still answers

    # an order's parse, check and apply run in the worker too
    release.clear()
    entered.clear()

    def slow_parse(st, seat, text):
        entered.set()
        release.wait(20)
        return plain_parse(st, seat, text)

    monkeypatch.setattr(rs, "parse", slow_parse)
    order = asyncio.ensure_future(svc.order(ctx(1, 1), "roll"))
    await asyncio.to_thread(entered.wait, 20)
    assert (await svc.status(ctx(2, 2))).ok and not order.done()
    release.set()
    out = await order
    assert out.ok, out.reply.text
