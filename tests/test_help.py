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
