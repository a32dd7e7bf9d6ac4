"""Issue 41 in the service, on both stores: a finished game's result kept (winners, turns, days, holders over time,
options, rated), `rated=on` checked at /game new, the ratings policy (abandonment, several seats, tabletop,
/game end), ratings equal to openskill's own computation and recomputable, `/stats` and `/ratings` answers, paging
and players who left the server."""
import pytest
from openskill.models import PlackettLuce

from bot.ratings import PROVISIONAL_GAMES
from bot.service import Ctx, GameService
from bot.storage import open_store
from tests import pbp_helpers  # noqa: F401  (tiny-pbp, trio-pbp)
from tests.clock import Clock

RED, BLUE, CAROL, DAVE = 11, 22, 33, 44
T0 = 1_720_000_000.0
DAY = 86400.0
_ids = iter(range(1, 10**9))


def ctx(user, channel=9, guild=1, mod=False):
    return Ctx(channel_id=channel, user_id=user, guild_id=guild, interaction_id=f"r{next(_ids)}", is_moderator=mod)


@pytest.fixture
async def svc(store_url):
    store = await open_store(store_url)
    s = GameService(store, renderer=None, seed_source=lambda: "results-seed", clock=Clock(T0))
    yield s
    await store.close()


async def play(svc, seats: dict[str, int], winner: str | None, options="rated=on", channel=9, guild=1,
               ruleset="tiny-pbp", days=0.0, turns=0):
    """A game made, its seats taken, started, ``turns`` full turns of `done`, then ``winner`` wins."""
    first = next(iter(seats.values()))
    assert (await svc.lobby.new_game(ctx(first, channel, guild), ruleset, options)).ok
    for seat, uid in seats.items():
        assert (await svc.lobby.join(ctx(uid, channel, guild), seat)).ok
    assert (await svc.lobby.start(ctx(first, channel, guild))).ok
    row = await svc.store.live_game(channel)
    order = [s for s in ("red", "blue")] if ruleset == "tiny-pbp" else []
    for _ in range(turns):
        for s in order:
            assert (await svc.orders.done(ctx(seats[s], channel, guild))).ok
    svc.table.clock.t += days * DAY
    if winner is not None:
        g = await svc.table.load(await svc.store.game(row.id))
        if winner not in g.active_seats():  # (tiny-pbp: red acts first; trio-pbp's council: every seat acts)
            assert (await svc.orders.done(ctx(seats[g.active_seats()[0]], channel, guild))).ok
        # the winner's holder plays `win` as a seat to act (the test rulesets let a seat to act win)
        out = await svc.orders.order(ctx(seats[winner], channel, guild), "win", winner)
        assert out.ok, out.reply.text
    return row.id


async def test_a_finished_games_result_is_kept_with_its_turns_days_holders_and_options(svc):
    """Issue 41: winner, turns played, days taken, seats and their holders, ruleset and options, rated."""
    gid = await play(svc, {"red": RED, "blue": BLUE}, "red", "rated=on deadline=24", days=2.5, turns=2)
    res = await svc.store.result(gid)
    assert res is not None and res.winners == ["red"] and res.turns == 3 and res.days == pytest.approx(2.5)
    assert res.ruleset == "tiny-pbp" and res.options["deadline"] == "24" and res.rated
    assert {s: [h[0] for h in hs] for s, hs in res.holders.items()} == {"red": [RED], "blue": [BLUE]}
    assert sorted(res.players) == [("blue", BLUE, "loss", True), ("red", RED, "win", True)]


async def test_rated_is_refused_when_bad_or_with_tabletop_and_changes_nothing(svc):
    """Issue 41: `rated=` is read by its kind; a rated tabletop game is refused, privately, and no game is made."""
    for options, why in (("rated=maybe", "`rated` takes on|off"), ("rated=on mode=tabletop", "never rated")):
        out = await svc.lobby.new_game(ctx(RED), "tiny-pbp", options)
        assert not out.ok and out.ephemeral and why in out.reply.text
        assert await svc.store.live_game(9) is None


async def test_unrated_games_and_games_ended_without_a_result(svc):
    """Issue 41: no `rated=on`, one person holding both sides, or `/game end`: kept (or not) but never rated."""
    a = await play(svc, {"red": RED, "blue": BLUE}, "red", options="")
    b = await play(svc, {"red": RED, "blue": RED}, "red", channel=10)
    assert not (await svc.store.result(a)).rated and not (await svc.store.result(b)).rated
    assert (await svc.lobby.new_game(ctx(RED, 11), "tiny-pbp", "rated=on")).ok
    for seat, uid in (("red", RED), ("blue", BLUE)):
        assert (await svc.lobby.join(ctx(uid, 11), seat)).ok
    assert (await svc.lobby.start(ctx(RED, 11))).ok
    row = await svc.store.live_game(11)
    assert (await svc.lobby.end(ctx(RED, 11))).ok
    assert await svc.store.result(row.id) is None  # ended without a result: not a finished game
    out = await svc.results.ratings(ctx(RED))
    assert "No rated game" in out.reply.text


async def test_a_seat_abandoned_counts_as_a_loss_and_its_taker_is_not_rated(svc):
    """Issue 41: the holder who left loses even though their side won; who took the seat over is not rated."""
    assert (await svc.lobby.new_game(ctx(RED), "tiny-pbp", "rated=on deadline=24")).ok
    for seat, uid in (("red", RED), ("blue", BLUE)):
        assert (await svc.lobby.join(ctx(uid), seat)).ok
    assert (await svc.lobby.start(ctx(RED))).ok
    gid = (await svc.store.live_game(9)).id
    assert (await svc.orders.done(ctx(RED))).ok  # blue to act
    svc.table.clock.t += 3600
    assert (await svc.lobby.leave(ctx(BLUE))).ok
    svc.table.clock.t += 3600
    assert (await svc.seats.takeover(ctx(CAROL), "blue")).ok, "the seat a player left is up for takeover"
    assert (await svc.orders.order(ctx(CAROL), "win")).ok
    res = await svc.store.result(gid)
    assert res.winners == ["blue"] and res.rated
    assert sorted(res.players) == [("blue", BLUE, "left", True), ("blue", CAROL, "win", False),
                                   ("red", RED, "loss", True)]
    table = await svc.results.ratings_of(1, "tiny-pbp")
    # the leaver gains nothing from their side's win: a loss, as red's (both ranked after the side that won)
    assert CAROL not in table and table[BLUE].mu == table[RED].mu <= 25.0


def openskill_of(games):
    """openskill's own computation: each game's sides as teams, winners first."""
    model = PlackettLuce()
    r: dict[int, object] = {}
    for players in games:
        sides = sorted({s for s, _, _ in players})
        teams = [[u for s2, u, _ in sorted(players) if s2 == s] for s in sides]
        ranks = [1 if any(o in ("win", "draw") for s2, _, o in players if s2 == s) else 2 for s in sides]
        got = model.rate([[r.get(u) or model.rating() for u in t] for t in teams], ranks=ranks)
        for t, g in zip(teams, got):
            for u, x in zip(t, g):
                r[u] = x
    return {u: (x.mu, x.sigma) for u, x in r.items()}


async def test_ratings_equal_openskill_from_the_stored_results_and_recompute_the_same(svc):
    """Issue 41: a rated series of three players over two rulesets; each ruleset's table equals openskill's own
    computation from the stored results, a recompute from the results alone gives the same, and a player is
    provisional until 5 rated games. Another server's games do not count."""
    series = [("tiny-pbp", {"red": RED, "blue": BLUE}, "red"), ("tiny-pbp", {"red": CAROL, "blue": RED}, "red"),
              ("trio-pbp", {"north": RED, "east": BLUE, "south": CAROL}, "south"),
              ("tiny-pbp", {"red": BLUE, "blue": CAROL}, "blue"), ("trio-pbp", {"north": CAROL, "east": RED, "south": BLUE}, "south"),
              ("tiny-pbp", {"red": RED, "blue": CAROL}, "red"), ("tiny-pbp", {"red": RED, "blue": BLUE}, "blue"),
              ("tiny-pbp", {"red": BLUE, "blue": RED}, "red")]
    ids = []
    for i, (rs, seats, w) in enumerate(series):
        ids.append(await play(svc, seats, w, ruleset=rs, channel=100 + i))
        if i == 3:  # read midway: the cache is carried forward from here, and must still agree at the end
            await svc.results.ratings(ctx(RED), "tiny-pbp")
    await play(svc, {"red": DAVE, "blue": RED}, "red", channel=200, guild=2)  # another server
    for rs in ("tiny-pbp", "trio-pbp"):
        stored = [await svc.store.result(g) for g in ids]
        games = [[(s, u, o) for s, u, o, rated in r.players if rated] for r in stored if r.ruleset == rs]
        want = openskill_of(games)
        got = await svc.results.ratings_of(1, rs)
        assert {u: (r.mu, r.sigma) for u, r in got.items()} == want  # the same steps: the same floats
        assert {u: (r.mu, r.sigma) for u, r in (await svc.results.recompute(1, rs)).items()} == \
            {u: (r.mu, r.sigma) for u, r in got.items()}
    tiny = await svc.results.ratings_of(1, "tiny-pbp")
    assert tiny[RED].games == 5 and not tiny[RED].provisional and tiny[CAROL].provisional
    assert DAVE not in tiny
    text = (await svc.results.ratings(ctx(RED), "tiny-pbp")).reply.text
    assert text.index(f"<@{RED}>") < text.index(f"<@{CAROL}>")  # established before provisional
    assert "provisional" in text and f"{PROVISIONAL_GAMES} rated games" in text
    mine = (await svc.results.record(ctx(RED))).reply.text
    assert "Your ratings here" in mine and "Tiny PBP" in mine and "Trio PBP" in mine and "Games finished" in mine


async def test_stats_wins_per_side_lengths_a_chart_and_a_players_results(svc):
    """Issue 41: `/stats`: games finished, wins per side, average turns and days, a chart; `player:` their results
    by ruleset and side; a player who left the server is not shown."""
    await play(svc, {"red": RED, "blue": BLUE}, "red", days=1, turns=1, channel=20)
    await play(svc, {"red": RED, "blue": CAROL}, "red", days=3, turns=3, channel=21)
    await play(svc, {"red": CAROL, "blue": BLUE}, "blue", days=2, turns=2, channel=22)
    out = await svc.results.stats(ctx(RED))
    text = out.reply.text
    assert "Finished games in this server: 3" in text
    assert "Tiny PBP: 3 games; wins Red 2 · Blue 1; average 3.0 turns, 2.0 days" in text
    assert out.reply.image[:8] == b"\x89PNG\r\n\x1a\n" and out.ephemeral

    async def without_carol(ids):
        return {u for u in ids if u != CAROL}

    text = (await svc.results.stats(ctx(RED), present=without_carol)).reply.text
    assert f"<@{RED}>: 2 won of 2" in text and f"<@{CAROL}>" not in text
    mine = (await svc.results.stats(ctx(RED), player=CAROL)).reply.text
    assert "Tiny PBP as Blue: 1 games, won 0, lost 1" in mine and "Tiny PBP as Red: 1 games, won 0, lost 1" in mine
    gone = await svc.results.stats(ctx(RED), player=CAROL, present=without_carol)
    assert not gone.ok and "not in this server" in gone.reply.text
    assert not (await svc.results.stats(ctx(RED), "nonsense")).ok


async def test_a_table_of_more_than_25_names_pages(svc):
    """Issue 41: 30 players: the first page shows 25 with a Next button, the second the last 5 with Previous."""
    for i in range(15):
        await play(svc, {"red": 1000 + 2 * i, "blue": 1001 + 2 * i}, "red", channel=300 + i)
    first = await svc.results.ratings(ctx(RED), "tiny-pbp")
    assert first.reply.text.count("<@") == 25 and "page 1 of 2" in first.reply.text
    assert [b[0] for b in first.reply.buttons] == ["res:ratings:tiny-pbp:1"]
    second = await svc.results.ratings(ctx(RED), "tiny-pbp", page=1)
    assert second.reply.text.count("<@") == 5 and [b[0] for b in second.reply.buttons] == ["res:ratings:tiny-pbp:0"]
    stats = await svc.results.stats(ctx(RED))
    assert "page 1 of 2" in stats.reply.text and [b[0] for b in stats.reply.buttons] == ["res:stats:*:1"]
    assert all(len(o.reply.text) <= 2000 for o in (first, second, stats))


async def test_the_migration_from_schema_7_keeps_every_game_and_computes_the_results_of_ended_games(svc, store_url):
    """Issue 41: a database at the previous schema (7: no results) with finished games, one ended by `/game end`
    and one still open: opened by this version it migrates, keeps every game and its log, and the start computes
    the result of each game that ended (replayed from its log), equal to what a live end keeps; nothing for the
    others."""
    over = [await play(svc, {"red": RED, "blue": BLUE}, "red", days=1, turns=2, channel=50),
            await play(svc, {"north": RED, "east": BLUE, "south": CAROL}, "east", ruleset="trio-pbp", channel=51),
            await play(svc, {"red": CAROL, "blue": BLUE}, "blue", options="", channel=52)]
    assert (await svc.lobby.new_game(ctx(RED, 53), "tiny-pbp")).ok
    for seat, uid in (("red", RED), ("blue", BLUE)):
        assert (await svc.lobby.join(ctx(uid, 53), seat)).ok
    assert (await svc.lobby.start(ctx(RED, 53))).ok
    ended = (await svc.store.live_game(53)).id
    assert (await svc.lobby.end(ctx(RED, 53))).ok
    assert (await svc.lobby.new_game(ctx(RED, 54), "tiny-pbp")).ok  # open, never played
    live = {g: await svc.store.result(g) for g in over}
    games = {g: (await svc.store.game(g), await svc.store.actions(g)) for g in over + [ended]}
    from bot.storage import postgres, sqlite
    backend = postgres if store_url.startswith("postgresql") else sqlite
    before = backend.MIGRATIONS.index(backend.RESULTS_SCHEMA)  # (7: the step before this change's)
    later = backend.MIGRATIONS[before + 1:]
    assert later == [backend.BETWEEN_GAMES]  # the steps after it: their tables go too (below)
    async with svc.store.transaction() as tx:  # back to the schema before: as a database written before this change
        for table in ("templates", "rematches", "digests"):  # BETWEEN_GAMES's (issue 41's other step)
            await tx.execute(f"DROP TABLE {table}")
        await tx.execute("DROP TABLE result_players")
        await tx.execute("DROP TABLE results")
        await tx.execute("DELETE FROM settings WHERE key LIKE 'ratings:%'")
        if store_url.startswith("postgresql"):
            await tx.execute("UPDATE schema_version SET version=?", (before,))
        else:
            await tx.execute(f"PRAGMA user_version={before}")
    await svc.store.close()
    store = await open_store(store_url)
    try:
        from bot.storage import SCHEMA_VERSION
        assert await store.schema_version() == SCHEMA_VERSION == before + 1 + len(later)
        assert [await store.result(g) for g in over] == [None] * 3  # migrated: the tables are there, empty
        again = GameService(store, renderer=None, seed_source=lambda: "results-seed", clock=Clock(T0 + 9 * DAY))
        await again.table.warm()
        for g in over:
            got, want = await store.result(g), live[g]
            got.n = want.n = None
            assert got == want
        assert await store.result(ended) is None and await store.games_without_result() == []
        for g, (row, log) in games.items():
            assert await store.game(g) == row and await store.actions(g) == log
        assert len(await store.live_game_ids()) == 1
        assert (await again.results.ratings_of(1, "tiny-pbp"))[RED].games == 1
    finally:
        await store.close()
        svc.store.close = _closed  # (the fixture's store is closed above)


async def _closed():
    return None


async def test_db_copy_copies_the_results_and_the_copy_keeps_new_ones(svc, store_url, tmp_path, request):
    """Issue 41: `palantir db copy` moves the results (their order `n` included) to the other store, and the copy
    goes on keeping results after them (PostgreSQL: the sequence of `n` moved past the copied rows)."""
    from bot.storage.copy import copy_tables

    ids = [await play(svc, {"red": RED, "blue": BLUE}, "red", channel=60),
           await play(svc, {"red": BLUE, "blue": CAROL}, "blue", channel=61)]
    # each way between the backends: SQLite to PostgreSQL, PostgreSQL to SQLite
    dst = await open_store(f"sqlite:///{tmp_path / 'copy.db'}" if store_url.startswith("postgresql") else
                           await request.getfixturevalue("pg_server").new_database())
    try:
        counts = await copy_tables(svc.store, dst, log=lambda *_: None)
        assert counts["results"] == 2 and counts["result_players"] == 4
        assert [await dst.result(g) for g in ids] == [await svc.store.result(g) for g in ids]
        again = GameService(dst, renderer=None, seed_source=lambda: "results-seed", clock=Clock(T0 + DAY))
        gid = await play(again, {"red": CAROL, "blue": RED}, "red", channel=62)
        assert (await dst.result(gid)).n == 3
    finally:
        await dst.close()
