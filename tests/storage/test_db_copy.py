"""`palantir db copy` (issue 16): a SQLite database with games of every ruleset (one finished,
one undone, one not started), preferences, settings, timers and the outbox is copied to a real
PostgreSQL and back to SQLite; every table comes back row for row, each game's replay digest is
the same on the copy, and `palantir verify` passes on the copies' exports."""
import asyncio
import dataclasses
import random

import pytest

from bot.cli import main as _cli
from bot.service import Ctx, GameService
from bot.storage import OutboxPost, Prefs, open_store
from bot.storage.copy import TABLES, copy_tables, verify_copy
from bot.verify import verify_export
from engine.core import state_digest
from engine.rulesets import get_ruleset, ruleset_names

P1, P2 = 101, 202


async def cli(args):
    """The `palantir` command as run from a shell (its own event loop, in a thread)."""
    return await asyncio.to_thread(_cli, args)
_n = iter(range(1, 10**9))


def ctx(channel, user=P1):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"c{next(_n)}", is_moderator=True)


async def fill(url: str) -> dict[int, str]:
    """Games of every ruleset, each a few dozen orders in; returns channel -> ruleset."""
    store = await open_store(url)
    svc = GameService(store, renderer=None, seed_source=lambda: f"copy-{next(_n)}", clock=lambda: 1_700_000_000.0)
    rng = random.Random(3)
    made = {}
    try:
        for i, name in enumerate(ruleset_names()):
            ch = 500 + i
            assert (await svc.lobby.new_game(ctx(ch), name, "deadline=24")).ok
            for s, u in zip(get_ruleset(name).seats, (P1, P2, 303, 404, 505)):
                assert (await svc.lobby.join(ctx(ch, u), s)).ok
            assert (await svc.lobby.start(ctx(ch))).ok
            row = await store.live_game(ch)
            for _ in range(30):
                game = await svc.table.load(await store.game(row.id))
                if game.result():
                    break
                seat = game.active_seats()[0]
                user = (P1, P2, 303, 404, 505)[get_ruleset(name).seats.index(seat)]
                texts = game.legal_texts(seat, limit=60)
                assert (await svc.orders.order(ctx(ch, user), rng.choice(texts), seat)).ok
            made[ch] = name
        out = await svc.undo.undo(ctx(500))  # an undo row in one log (a moderator decides at once)
        assert out.ok, out.reply.text
        assert (await svc.lobby.end(ctx(501))).ok  # a finished game (its seed revealed)
        assert (await svc.lobby.new_game(ctx(600), "gondor")).ok  # one never started
        await store.set_prefs(Prefs(P1, "22:00", "07:00", "Europe/Paris", None))
        await store.set_setting("commands_hash", "abc")
        await store.add_record(P1, phases_on_time=3, phases_missed=1, seats_taken_over=1)  # issue 28
        await store.set_prefs(Prefs(P2, autoplay=True))
        await store.apply_effects([OutboxPost(None, {"text": "é ünïcode"}, 1.5, channel_id=500)])
    finally:
        await store.close()
    return made


async def dump(url: str) -> dict[str, list]:
    store = await open_store(url)
    try:
        out = {}
        async with store.transaction() as tx:
            for table, order in TABLES:
                out[table] = [tuple(dict(r).items()) for r in await tx.fetchall(f"SELECT * FROM {table} ORDER BY {order}")]
        return out
    finally:
        await store.close()


async def test_copy_sqlite_to_postgresql_and_back_keeps_every_row_and_verifies(tmp_path, pg_url, capsys):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    made = await fill(src)
    assert set(made.values()) == set(ruleset_names())
    assert await cli(["db", "copy", "--from", src, "--to", pg_url]) == 0
    out = capsys.readouterr().out
    assert "copied and verified." in out and "actions:" in out
    back = f"sqlite:///{tmp_path / 'back.db'}"
    assert await cli(["db", "copy", "--from", pg_url, "--to", back]) == 0
    a, b = await dump(src), await dump(back)
    assert any(dict(r)["kind"] == "undo" for r in a["actions"])
    assert a["actions"] and a["snapshots"] and a["prefs"] and a["timers"] and a["settings"] and a["outbox"]
    assert a["player_records"] and a["seat_history"]  # issue 28: the record and who held each seat
    for table, _ in TABLES:
        assert a[table] == b[table], table  # every row, every value, after SQLite -> PostgreSQL -> SQLite
    # each game on the PostgreSQL copy: the same replay, and `palantir verify` passes on its export
    store, orig = await open_store(pg_url), await open_store(src)
    try:
        svc, svc0 = GameService(store, renderer=None), GameService(orig, renderer=None)
        for ch, name in made.items():
            row = await store.latest_game(ch)
            assert state_digest((await svc.table.replay_from_start(row)).state) == state_digest(
                (await svc0.table.replay_from_start(await orig.latest_game(ch))).state)
            ok, lines = verify_export(await svc.archive.export_data(dataclasses.replace(row, status="over")))
            assert ok, (name, lines)
        # the copy is a working store: a new game there gets a fresh id, not a copied one
        gid = await store.create_game(channel_id=999, guild_id=1, ruleset="gondor", options={}, seed="s",
                                      commitment="c", creator_id=1, now=1.0, initial_state={})
        assert gid > max(dict(r)["id"] for r in a["games"]) and await store.response_for(dict(a["responses"][0])["interaction_id"])
    finally:
        await store.close()
        await orig.close()


async def test_a_copy_into_a_database_with_games_is_refused_and_a_differing_copy_is_not_verified(tmp_path, pg_url,
                                                                                                   capsys):
    src = f"sqlite:///{tmp_path / 'src.db'}"
    await fill(src)
    assert await cli(["db", "copy", "--from", src, "--to", pg_url]) == 0
    capsys.readouterr()
    assert await cli(["db", "copy", "--from", src, "--to", pg_url]) == 2  # the target is not empty
    assert "already holds" in capsys.readouterr().err
    # a copy whose log differs from its source (one more order on it) fails the check
    s, d = await open_store(src), await open_store(pg_url)
    try:
        row = await d.live_game(500)
        await d.append_action(game_id=row.id, seq=row.seq + 1, seat="x", user_id=1, text="forged", interaction_id=None,
                              dice_before=0, dice_after=0, events=[], now=1.0, snapshot=None, response=None)
        problems = await verify_copy(s, d, log=lambda *_: None)
        assert problems and f"game {row.id}" in problems[0]
    finally:
        await s.close()
        await d.close()


async def test_copy_needs_an_empty_target_only_once(tmp_path):
    """SQLite to SQLite (the same code path without a server): a half-written copy leaves nothing."""
    src, dst = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    await fill(src)
    s, d = await open_store(src), await open_store(dst)
    try:
        counts = await copy_tables(s, d, log=lambda *_: None)
        assert counts["games"] == len(ruleset_names()) + 1 and counts["actions"] > 30
        assert await verify_copy(s, d, log=lambda *_: None) == []
    finally:
        await s.close()
        await d.close()
    with pytest.raises(SystemExit):
        await cli(["db", "copy", "--from", src])  # --to is required
