"""Shards (issue 16): a process serves the guilds of its shards, (guild_id >> 22) % shard_count,
and only loads, answers and fires deadlines for those. Two processes (two services, each with
its own store on one database, SQLite or a real PostgreSQL) share the games of two guilds on two
shards: each plays its own, refuses the other's commands without loading them, and fires,
sends and recovers only its own deadlines, outbox posts and unanswered answers."""
import random

import discord
import pytest
from discord.ext import commands

from bot.config import Config, ConfigError, load_config
from bot.service import Ctx, GameService
from bot.storage import OutboxPost, ShardFilter, open_store
from tests import pbp_helpers  # noqa: F401  (registers tiny-pbp)
from tests.clock import Clock

H = 3600.0
T0 = 1_750_000_000.0
RED, BLUE = 11, 22
G0, G1 = 4 << 22, 5 << 22  # shard 0 and shard 1 of 2
_n = iter(range(1, 10**9))


def ctx(user, channel, guild):
    return Ctx(channel_id=channel, user_id=user, guild_id=guild, interaction_id=f"s{next(_n)}")


def test_the_shard_of_a_guild_is_discords():
    f = ShardFilter((1, 3), 4)
    rng = random.Random(1)
    for _ in range(200):
        gid = rng.getrandbits(63)
        assert f.owns(gid) == ((gid >> 22) % 4 in (1, 3))
    assert ShardFilter((0,), 2).owns(None) and not ShardFilter((1,), 2).owns(None)  # DMs: shard 0
    assert ShardFilter.of(G0, 2) == 0 and ShardFilter.of(G1, 2) == 1
    with pytest.raises(ValueError):
        ShardFilter((2,), 2)


async def test_the_stores_scans_select_the_same_guilds_as_discord(store_url):
    store = await open_store(store_url)
    try:
        rng = random.Random(2)
        guilds = [rng.getrandbits(62) for _ in range(60)] + [None]
        ids = {}
        for i, g in enumerate(guilds):
            ids[await store.create_game(channel_id=1000 + i, guild_id=g, ruleset="tiny-pbp", options={}, seed="s",
                                        commitment="c", creator_id=1, now=1.0, initial_state={})] = g
        for f in (ShardFilter((0,), 3), ShardFilter((1, 2), 3), ShardFilter((5,), 7)):
            store.shard = f
            want = sorted(gid for gid, g in ids.items() if f.owns(g))
            assert sorted(await store.live_game_ids()) == want
            assert await store.count_live_games() == len(want)
        store.shard = None
        assert len(await store.live_game_ids()) == len(guilds)
    finally:
        await store.close()


async def process(url, shard_id, clock):
    store = await open_store(url)
    store.shard = ShardFilter((shard_id,), 2)
    return GameService(store, renderer=None, seed_source=lambda: "shard-seed", clock=clock,
                       shard=store.shard)


async def start_game(svc, channel, guild):
    assert (await svc.lobby.new_game(ctx(RED, channel, guild), "tiny-pbp", "deadline=24 remind=2 policy=nag")).ok
    assert (await svc.lobby.join(ctx(RED, channel, guild), "red")).ok
    assert (await svc.lobby.join(ctx(BLUE, channel, guild), "blue")).ok
    assert (await svc.lobby.start(ctx(RED, channel, guild))).ok
    return await svc.store.live_game(channel)


async def test_two_processes_each_serve_only_their_shards_guilds(store_url):
    clock = Clock(T0)
    a, b = await process(store_url, 0, clock), await process(store_url, 1, clock)
    try:
        ga = await start_game(a, 10, G0)
        # the other process refuses a command from a guild it does not serve: no game, nothing loaded
        out = await b.lobby.new_game(ctx(RED, 20, G0), "tiny-pbp")
        assert not out.ok and "another process" in out.reply.text and await b.store.live_game(20) is None
        gb = await start_game(b, 20, G1)
        for svc, mine, other, guild_other in ((a, ga, gb, G1), (b, gb, ga, G0)):
            out = await svc.orders.order(ctx(RED, other.channel_id, guild_other), "done")
            assert not out.ok and "another process" in out.reply.text
            assert not (await svc.views.status(ctx(RED, other.channel_id, guild_other))).ok
            assert await svc.orders.autocomplete_order(ctx(RED, other.channel_id, guild_other), "") == []
            assert other.id not in svc.table.games and mine.id in svc.table.games
            assert await svc.table.warm() == 1  # start-up counts (and loads) only its own games
        assert (await a.store.game(gb.id)).seq == 0 and (await b.store.game(ga.id)).seq == 0
        # each plays its own game
        assert (await a.orders.order(ctx(RED, 10, G0), "done")).ok
        assert (await b.orders.order(ctx(RED, 20, G1), "done")).ok
        # deadlines: each process fires only its own guilds' timers
        clock.t = T0 + 23 * H
        assert await a.clocks.fire_due() == 1  # game A's reminder, not game B's
        assert [t.fired_at is None for t in await a.store.timers(gb.id) if t.kind == "remind"] == [True]
        assert [p["game_id"] for p in await a.store.pending_outbox()] == [ga.id]
        assert [p["game_id"] for p in await b.store.pending_outbox()] == []
        assert await b.clocks.fire_due() == 1
        assert [p["game_id"] for p in await b.store.pending_outbox()] == [gb.id]
        clock.t = T0 + 25 * H
        assert await b.clocks.fire_due() == 1 and await a.clocks.fire_due() == 1  # each its own deadline, once
        assert await a.clocks.fire_due() == 0 and await b.clocks.fire_due() == 0
        fired = {g.id: [t.kind for t in await a.store.timers(g.id) if t.fired_at] for g in (ga, gb)}
        assert fired == {ga.id: ["remind", "deadline"], gb.id: ["remind", "deadline"]}
        # posts with no game (DMs) go through shard 0's process
        await b.store.apply_effects([OutboxPost(None, {"text": "dm"}, T0, user_id=RED)], first_must_change=False)
        assert {p["payload"]["text"] for p in await a.store.pending_outbox()} >= {"dm"}
        assert "dm" not in {p["payload"]["text"] for p in await b.store.pending_outbox()}
        # an answer stored but never delivered is announced by the process that serves its guild
        # (every answer above was stored and none marked delivered: no transport here); answers of
        # no game (a /game new) belong to shard 0 like DMs
        assert {u["game_id"] for u in await a.store.undelivered()} == {ga.id, None}
        assert {u["game_id"] for u in await b.store.undelivered()} == {gb.id}
    finally:
        await a.store.close()
        await b.store.close()


def test_shard_config_and_the_sharded_bot(tmp_path):
    from bot.transports.discord_app import PalantirBot, ShardedPalantirBot, make_bot

    f = tmp_path / "c.toml"
    f.write_text('[discord]\nshard_ids = [1, 3]\nshard_count = 4\n[storage]\nurl = "postgresql://bot@db/p"\n')
    cfg = load_config(str(f))
    assert cfg.discord.shard_filter() == ShardFilter((1, 3), 4)
    bot = make_bot(cfg)
    assert isinstance(bot, ShardedPalantirBot) and isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_ids == [1, 3] and bot.shard_count == 4
    plain = make_bot(Config())
    assert isinstance(plain, PalantirBot) and not isinstance(plain, discord.AutoShardedClient)
    assert Config().discord.shard_filter() is None
    for bad in ("shard_ids = [4]\nshard_count = 4", "shard_ids = [1]", "shard_ids = [1, 1]\nshard_count = 2"):
        f.write_text(f"[discord]\n{bad}\n")
        with pytest.raises(ConfigError, match="shard"):
            load_config(str(f))
