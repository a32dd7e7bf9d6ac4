"""/help answers what it names (issue 20): a ruleset's topic in a channel with its game."""
import io
import itertools
import re

import pytest

from bot.service import Ctx, GameService
from bot.storage import open_store

_n = itertools.count()


def ctx(user, channel=1):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"h{next(_n)}")


async def test_help_orders_in_a_gondor_channel_lists_the_orders(tmp_path):
    store = await open_store(str(tmp_path / "h.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "h")
    assert (await svc.lobby.new_game(ctx(1), "gondor")).ok
    general = await svc.views.help(ctx(1))
    assert "`/help topic:orders`" in general.reply.text  # what the help promises…
    orders = await svc.views.help(ctx(1), "orders")  # …is there: every order of the game, with its case
    assert orders.ok and "the orders**" in orders.reply.text and "`move OI1 ST1 2010`" in orders.reply.text
    from engine.rulesets import get_ruleset
    for verb, o in get_ruleset("gondor").orders.items():
        if verb != "done":
            assert f"`{o.usage.split('`')[1]}`" in orders.reply.text and f"({', '.join(o.cases)})" in orders.reply.text
    one = await svc.views.help(ctx(1), "pour")
    assert one.reply.text.startswith("`pour <unit> any|towers|hold` e.g. `pour GS1 any` (16.74)")
    bad = await svc.views.help(ctx(1), "teleport")
    assert not bad.ok and bad.ephemeral and "No help topic `teleport`" in bad.reply.text
    assert "**LOTR Risk" in (await svc.views.help(ctx(1), "risk-minas-tirith")).reply.text
    topics = await svc.views.help_topics(ctx(1), "")
    assert topics[:4] == ["orders", "phases", "setup", "secrets"] and "breach" in topics
    assert "risk-minas-tirith" in topics and "cards" not in topics
    assert await svc.views.help_topics(ctx(1), "pou") == ["pour"]
    await store.close()


@pytest.mark.parametrize("name", ["gondor", "celebrant", "risk-minas-tirith", "sauron", "sauron-expanded"])
async def test_every_topic_answers_and_says_what_it_is_about(name):
    from engine.rulesets import get_ruleset
    rs = get_ruleset(name)
    general = rs.help()
    want = {"orders": ("orders", "`"), "phases": ("sequence of play", "turn"), "setup": ("set-up", ""),
            "secrets": ("hidden information", "")}
    for topic, (title, word) in want.items():
        text = rs.help(topic)
        assert text != general and title in text.lower() and word in text and len(text) <= 2000, (topic, text)


BACKTICK = re.compile(r"`([^`]+)`")
FAILED = ("Unknown", "(invalid)", "usage", "there is no unit", "is off the map", "not a seat", "unknown order",
          "No help topic", "Bad options", "not a battalion type", "no area", "unknown area", "``")


@pytest.mark.parametrize("name", ["gondor", "celebrant", "risk-minas-tirith", "sauron", "sauron-expanded"])
async def test_every_command_and_order_a_help_text_names_exists_and_parses(tmp_path, name):
    """Issue 20: every backticked command in every help text of a game is run in that game's channel
    (the terminal, as typed): a slash command must be known with its options understood, an order's
    example must name real counters, hexes or areas in a form the game parses. Refusals because of the
    moment (not your turn, not this phase) are fine; an unknown or malformed command is not."""
    from engine.rulesets import get_ruleset
    from bot.transports.console import Console

    rs = get_ruleset(name)
    store = await open_store(str(tmp_path / "w.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "w")
    console = Console(svc, name, None, io.StringIO())
    await console.setup()
    texts = [rs.help()] + [rs.help(t) for t in rs.help_topics()]
    texts.append((await svc.views.help(console.ctx())).reply.text)
    seen = set()
    ran = 0
    for text in texts:
        for frag in BACKTICK.findall(text):
            if frag in seen or any(c in frag for c in "<|…") or "..." in frag or frag.endswith(":"):
                continue  # a form (`move <unit> <hex>`), not a command
            seen.add(frag)
            first = frag.split()[0].lower()
            if frag.startswith("/"):
                if first in ("/game",) and frag.split()[1:2] in (["end"], ["undo"]):
                    continue
                line = frag
            elif len(frag.split()) == 1 and frag != "done":
                continue  # a verb named (`pour`), not an order
            elif first in rs.orders:
                line = f"/order {frag}"
            else:
                continue  # a word (`orders`, a seat, a spell's name), not a command
            for seat in rs.seats:  # the order may be the other side's: its refusal must still not be a bad form
                console.seat = seat
                out = await console.run_command(line)
                reply = out.reply.text if out and out.reply else ""
                assert not any(f in reply for f in FAILED), (frag, reply)
                if not line.startswith("/order"):
                    break
            ran += 1
    assert ran >= 8, ran
    await store.close()


async def test_a_finished_game_says_who_won_not_turn_17_of_16(tmp_path):
    """Issue 20: once a game is over, its status line and map caption give the result; nobody is
    'to act'; a game ended without a result says so."""
    from tests import pbp_helpers  # noqa: F401

    store = await open_store(str(tmp_path / "e.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "e")
    assert (await svc.lobby.new_game(ctx(1, 5), "tiny-pbp")).ok
    assert (await svc.lobby.join(ctx(1, 5), "red")).ok and (await svc.lobby.join(ctx(2, 5), "blue")).ok
    assert (await svc.lobby.start(ctx(1, 5))).ok
    assert "To act: Red" in (await svc.views.status(ctx(1, 5))).reply.text
    out = await svc.orders.order(ctx(1, 5), "win")
    assert out.ok and "The game is over" in out.reply.text
    status = (await svc.views.status(ctx(2, 5))).reply.text
    assert "**The game is over: red wins**" in status and "To act" not in status and "Result:" not in status
    row = await store.latest_game(5)
    _, caption = await svc.table.render_game(row.id, None)
    assert caption.startswith("Map: The game is over: red wins. ")
    exported = await svc.archive.export(ctx(2, 5))  # the export says who won too
    assert "red wins" in exported.reply.text
    import json as _json
    data = _json.loads(exported.reply.attachment)
    assert data["result"]["winner"] == "red" and "red wins" in data["result"]["summary"]
    # ended by the creator before any result
    assert (await svc.lobby.new_game(ctx(1, 6), "tiny-pbp")).ok
    assert (await svc.lobby.join(ctx(1, 6), "red")).ok and (await svc.lobby.join(ctx(2, 6), "blue")).ok
    assert (await svc.lobby.start(ctx(1, 6))).ok
    await svc.lobby.end(ctx(1, 6))
    assert "Result: none, the game was ended" in (await svc.views.status(ctx(1, 6))).reply.text
    assert "without a result" in (await svc.archive.export(ctx(1, 6))).reply.text
    await store.close()


async def test_a_topic_without_a_game_is_refused_clearly(tmp_path):
    store = await open_store(str(tmp_path / "t.db"))
    svc = GameService(store, renderer=None)
    out = await svc.views.help(ctx(1, 9), "orders")
    assert not out.ok and out.ephemeral and "there is none" in out.reply.text
    assert (await svc.views.help(ctx(1, 9), "gondor")).ok
    await store.close()


HEADLINES = {  # issue 27: each overview (`/help`, `/help topic:<ruleset>`) names its game's headline rules
    "gondor": ("Siege Phase", "fireballs", "boiling oil", "Banner of the King"),
    "celebrant": ("Eotheod chits", "Balchoth arrival", "special abilities"),
    "risk-minas-tirith": ("action dice", "Minas Tirith cards", "ranged and ground attacks"),
    "sauron": ("the One Ring", "Mortal Combat", "1978 player errata"),
    "sauron-expanded": ("the One Ring", "Mortal Combat", "Orodruin", "catapults"),
    "wotr": ("the Ring in Gondor's hands", "secret demand", "hidden movement", "succession"),
}


@pytest.mark.parametrize("name", sorted(HEADLINES))
def test_every_rulesets_overview_names_its_headline_rules(name):
    from engine.rulesets import get_ruleset
    assert set(HEADLINES) == {"gondor", "celebrant", "risk-minas-tirith", "sauron", "sauron-expanded", "wotr"}
    text = get_ruleset(name).help()
    for h in HEADLINES[name]:
        assert h in text, (name, h)
    assert len(text) <= 2000


async def test_help_topic_sauron_names_the_one_ring_and_mortal_combat(tmp_path):
    """`/help topic:sauron` anywhere (the audit's case): the One Ring (16.6) and Mortal Combat (22.0)."""
    store = await open_store(str(tmp_path / "s.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "s")
    text = (await svc.views.help(ctx(1, 9), "sauron")).reply.text
    assert "**the One Ring** (16.6" in text and "**Mortal Combat** (22.0" in text and "22.1" in text
    await store.close()
