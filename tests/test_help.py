"""/help answers what it names (issue 20): a ruleset's topic in a channel with its game."""
import itertools

from bot.service import Ctx, GameService
from bot.storage import open_store

_n = itertools.count()


def ctx(user, channel=1):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"h{next(_n)}")


async def test_help_orders_in_a_gondor_channel_lists_the_orders(tmp_path):
    store = await open_store(str(tmp_path / "h.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "h")
    assert (await svc.new_game(ctx(1), "gondor")).ok
    general = await svc.help(ctx(1))
    assert "`/help orders` lists the orders" in general.reply.text  # what the help promises…
    orders = await svc.help(ctx(1), "orders")  # …is there
    assert orders.ok and "**Gondor orders**" in orders.reply.text and "`move GS1 1905`" in orders.reply.text
    bad = await svc.help(ctx(1), "teleport")
    assert not bad.ok and bad.ephemeral and "No help topic `teleport`" in bad.reply.text
    assert "**LOTR Risk" in (await svc.help(ctx(1), "risk-minas-tirith")).reply.text
    topics = await svc.help_topics(ctx(1), "")
    assert topics[0] == "orders" and "siege" in topics and "risk-minas-tirith" in topics and "cards" not in topics
    assert await svc.help_topics(ctx(1), "oi") == ["oil"]
    await store.close()


async def test_a_finished_game_says_who_won_not_turn_17_of_16(tmp_path):
    """Issue 20: once a game is over, its status line and map caption give the result; nobody is
    'to act'; a game ended without a result says so."""
    from tests import pbp_helpers  # noqa: F401

    store = await open_store(str(tmp_path / "e.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "e")
    assert (await svc.new_game(ctx(1, 5), "tiny-pbp")).ok
    assert (await svc.join(ctx(1, 5), "red")).ok and (await svc.join(ctx(2, 5), "blue")).ok
    assert (await svc.start(ctx(1, 5))).ok
    assert "To act: Red" in (await svc.status(ctx(1, 5))).reply.text
    out = await svc.order(ctx(1, 5), "win")
    assert out.ok and "The game is over" in out.reply.text
    status = (await svc.status(ctx(2, 5))).reply.text
    assert "**The game is over: red wins**" in status and "To act" not in status and "Result:" not in status
    row = await store.latest_game(5)
    _, caption = await svc.render_game(row.id, None)
    assert caption.startswith("Map: The game is over: red wins. ")
    # ended by the creator before any result
    assert (await svc.new_game(ctx(1, 6), "tiny-pbp")).ok
    assert (await svc.join(ctx(1, 6), "red")).ok and (await svc.join(ctx(2, 6), "blue")).ok
    assert (await svc.start(ctx(1, 6))).ok
    await svc.end(ctx(1, 6))
    assert "Result: none, the game was ended" in (await svc.status(ctx(1, 6))).reply.text
    await store.close()


async def test_a_topic_without_a_game_is_refused_clearly(tmp_path):
    store = await open_store(str(tmp_path / "t.db"))
    svc = GameService(store, renderer=None)
    out = await svc.help(ctx(1, 9), "orders")
    assert not out.ok and out.ephemeral and "there is none" in out.reply.text
    assert (await svc.help(ctx(1, 9), "gondor")).ok
    await store.close()
