"""Through the real discord.py client against the fake Discord: `/game new thread:` (a game in a
new public thread; several threads of one channel; a clear private refusal without the permission
or inside a thread), `/game new charts:<attachment>` (a valid override, a malformed chart named by
line, an oversized or non-UTF-8 file, a ruleset that takes no charts), an area game's
`/game map around:<area>` with autocomplete and its status line, and a gateway drop in the middle
of a game with a pending reminder."""
import asyncio

from engine.core import state_digest
from tests.fakediscord.server import P_CREATE_PUBLIC_THREADS
from tests.gondor_helpers import SAURON_SETUP
from tests.e2e.test_e2e_discord import World, png_of
from tests.e2e.test_pbp_e2e import H, T0, public, start_world
from tests.settle import settled

GOOD_CHART = b'# our group\'s table\n[cpt]\nD = ["2-12", "2-12", "2-12", "2-12"]\n'
BAD_CHART = b'# my chart\n[cpt]\nA = ["2-9", "2-9", "2-8"]\n'


async def announced(r) -> str:
    """A `/game new` with a chart file is acknowledged privately (its refusal would be private, issue 39): the
    new game is announced in the channel, below that private "Done"."""
    await r.wait_for_messages(2)
    return next(m.content for m in r.messages if not m.ephemeral)


def threads_of(w: World) -> list[int]:
    return [c.id for c in w.server.channels.values() if c.parent_id == w.cid and c.type == 11]


async def test_a_game_in_its_own_thread_and_a_second_one_beside_it(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "t.db")
        s = w.server
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", thread="yes")
        assert not r.ephemeral
        [tid] = threads_of(w)
        assert f"<#{tid}>" in r.content and "thread" in r.content  # the answer links to the thread
        assert s.channels[tid].name.startswith("Gondor") and "(alice)" in s.channels[tid].name
        await s.wait_for(lambda: s.messages(tid))
        assert "New game of **Gondor" in s.messages(tid)[0].content  # a welcome in the thread
        # the game lives in the thread, not in the channel
        r = await w.cmd(w.alice, "game", "status")
        assert r.ephemeral and "no game" in r.content.lower()
        r = await s.slash(w.alice, tid, "game", "status", timeout=20)
        assert r.ephemeral and "waiting to start" in r.content

        async def in_thread(user, *names, **opts):
            return await s.slash(user, tid, *names, options=opts, timeout=20)

        assert not (await in_thread(w.alice, "game", "join", seat="sauron")).ephemeral
        assert not (await in_thread(w.bob, "game", "join", seat="westernesse")).ephemeral
        r = await in_thread(w.alice, "game", "start")
        notice = (await r.wait_for_messages(2))[1]
        png_of(notice)
        assert r.message.channel_id == tid and notice.channel_id == tid and notice.pinged() == {w.alice}
        ch = await s.autocomplete(w.alice, tid, "order", options={"text": "deploy NAZ"}, focused="text")
        assert 0 < len(ch) <= 25
        for o in SAURON_SETUP[:3]:
            r = await in_thread(w.alice, "order", text=o)
            assert not r.ephemeral and o in r.content and r.message.channel_id == tid
        r = await in_thread(w.alice, "order", text="deploy OA1 1905")
        assert r.ephemeral and "13.1" in r.content
        # a second game in another thread of the same channel (and a named thread)
        r = await w.cmd(w.bob, "game", "new", ruleset="risk-minas-tirith", thread="Bob's siege")
        assert not r.ephemeral
        tid2 = next(t for t in threads_of(w) if t != tid)
        assert s.channels[tid2].name == "Bob's siege" and f"<#{tid2}>" in r.content
        assert not (await s.slash(w.bob, tid2, "game", "join", options={"seat": "good"})).ephemeral
        r = await s.slash(w.alice, tid2, "game", "status")
        assert r.ephemeral and "Risk" in r.content and "waiting to start" in r.content
        # both games are live, each in its own thread; the first one's log is untouched
        g1, g2 = await w.store.live_game(tid), await w.store.live_game(tid2)
        assert g1.ruleset == "gondor" and g1.seq == 3 and g2.ruleset == "risk-minas-tirith"
        assert await w.store.live_game(w.cid) is None
        # `thread:` inside a thread: refused privately, nothing created
        r = await in_thread(w.carol, "game", "new", ruleset="gondor", thread="yes")
        assert r.ephemeral and "already a thread" in r.content
        # `/game new` without `thread` in the thread that has a game: refused
        r = await in_thread(w.carol, "game", "new", ruleset="gondor")
        assert r.ephemeral and "already has a game" in r.content
        assert len(threads_of(w)) == 2
        s.assert_clean()


async def test_no_thread_permission_is_a_clear_private_answer_and_changes_nothing(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "p.db")
        s = w.server
        guild = s.guilds[w.gid]
        for rid in (w.gid, guild.bot_role_id):  # neither @everyone nor the bot's role may open threads
            perms = int(guild.roles[rid]["permissions"]) & ~P_CREATE_PUBLIC_THREADS & ~(1 << 3)
            if rid == guild.bot_role_id:
                s.set_bot_permissions(w.gid, perms)
            else:
                guild.roles[rid]["permissions"] = str(perms)
        n = len(s.messages(w.cid))
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", thread="yes")
        assert r.ephemeral and "Create Public Threads" in r.content and "No game was created" in r.content
        assert threads_of(w) == [] and len(s.messages(w.cid)) == n
        assert await w.store.latest_game(w.cid) is None
        # and Discord's own refusal (the permission check passed, the request did not) reads the same
        import discord

        async def refused(*a, **k):
            class Resp:
                status, reason = 403, "Forbidden"
            raise discord.Forbidden(Resp(), {"code": 50013, "message": "Missing Permissions"})

        orig = discord.TextChannel.create_thread
        discord.TextChannel.create_thread = refused
        guild.roles[w.gid]["permissions"] = str(int(guild.roles[w.gid]["permissions"]) | P_CREATE_PUBLIC_THREADS)
        try:
            r = await w.cmd(w.alice, "game", "new", ruleset="gondor", thread="Our game")
        finally:
            discord.TextChannel.create_thread = orig
        assert r.ephemeral and "refused" in r.content and "No game was created" in r.content
        assert await w.store.latest_game(w.cid) is None
        # without `thread`, the game is created in the channel as before
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor")
        assert not r.ephemeral and "in this channel" in r.content
        s.assert_clean()


async def test_chart_files_as_attachments(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "c.db")
        s = w.server
        # a malformed chart: refused privately, with its line; nothing created
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", charts=("ours.toml", BAD_CHART))
        assert r.ephemeral and "Bad options" in r.content and "charts line 3" in r.content, r.content
        assert await w.store.latest_game(w.cid) is None
        # too big, not UTF-8, or for a ruleset that takes no charts: refused privately
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", charts=("big.toml", b"#" * (65 * 1024)))
        assert r.ephemeral and "64 KB" in r.content
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", charts=("latin1.toml", b"# caf\xe9\n[cpt]\n"))
        assert r.ephemeral and "UTF-8" in r.content
        r = await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", charts=("ours.toml", GOOD_CHART))
        assert r.ephemeral and "risk-minas-tirith has no option `charts`" in r.content
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="charts=x", charts=("ours.toml", GOOD_CHART))
        assert r.ephemeral and "once" in r.content
        assert await w.store.latest_game(w.cid) is None and public(w) == []
        # a valid override: the game uses it
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=24",
                        charts=("ours.toml", GOOD_CHART))
        assert "own charts" in await announced(r)
        row = await w.store.live_game(w.cid)
        game = await w.service.table.load(row)
        assert game.state["options"]["charts"] == GOOD_CHART.decode()
        assert game.ruleset.charts_for(game.state).cpt_hits("D", 1) == frozenset(range(2, 13))
        # and survives a rebuild from SQLite
        rebuilt = await w.service.table.rebuild(row)
        assert state_digest(rebuilt.state) == state_digest(game.state)
        s.assert_clean()


async def test_an_area_game_map_around_an_area_and_its_status(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "a.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        r = await w.cmd(w.alice, "game", "start")
        notice = (await r.wait_for_messages(2))[1]
        png_of(notice)
        assert "Game-Turn" not in notice.content and "around:<area>" in notice.content
        ch = await s.autocomplete(w.carol, w.cid, "game", "map", options={"around": "osg"}, focused="around")
        assert 0 < len(ch) <= 25 and "osgiliath-w" in [c["value"] for c in ch]
        assert all(len(c["name"]) <= 100 for c in ch)
        r = await w.cmd(w.carol, "game", "map", around="osgiliath-w")
        assert not r.ephemeral and "around osgiliath-w" in r.content
        png_of(r.message)
        r = await w.cmd(w.carol, "game", "map", around="city")
        assert not r.ephemeral and "around city" in r.content
        r = await w.cmd(w.carol, "game", "map", around="1905")  # a hex is no place on this board
        [msg] = await r.wait_for_messages(1)  # after the public "thinking…" was removed
        assert msg.ephemeral and "no area" in msg.content
        assert not any("1905" in m.content for m in public(w))
        r = await w.cmd(w.carol, "game", "status")
        assert r.ephemeral and "Game-Turn" not in r.content and "{turns}" not in r.content
        assert "Round 1" in r.content
        s.assert_clean()


async def test_a_dropped_gateway_mid_game_loses_nothing_and_the_reminder_fires_once(tmp_path):
    async with World() as w:
        await start_world(w, tmp_path, "drop.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=3 remind=1")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        row = await w.store.live_game(w.cid)
        pending = [t for t in await w.store.timers(row.id, pending_only=True) if t.kind == "remind"]
        assert [(t.seat, t.due_at) for t in pending] == [("sauron", T0 + 2 * H)]
        first, rest = SAURON_SETUP[:4], SAURON_SETUP[4:8]
        for o in first:
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        sessions = s.identify_count + s.resume_count
        await s.drop_gateway()  # close code 4000: discord.py reconnects and resumes
        # an order sent while the bot is away is delivered once it is back
        late = asyncio.create_task(w.cmd(w.alice, "order", text=rest[0]))
        await s.wait_connected(timeout=20)
        assert not (await late).ephemeral
        await s.drop_gateway(abrupt=True)  # and once more, without a close frame
        await s.wait_connected(timeout=20)
        assert s.identify_count + s.resume_count >= sessions + 2
        for o in rest[1:]:
            r = await w.cmd(w.alice, "order", text=o)
            assert not r.ephemeral and o in r.content
        # nothing lost, nothing twice: one public answer per order, the log, the state = its replay
        for o in first + rest:
            assert sum(1 for m in public(w) if f"`{o}`" in m.content) == 1, o
        row = await w.store.live_game(w.cid)
        assert row.seq == len(first) + len(rest)
        live = await w.service.table.load(row)
        assert state_digest((await w.service.table.replay_from_start(row)).state) == state_digest(live.state)
        assert state_digest((await w.service.table.rebuild(row)).state) == state_digest(live.state)
        # the reminder set before the drop still fires, exactly once
        n = len(public(w))
        w.clock.t = T0 + 2 * H + 1
        w.bot._wake.set()
        await s.wait_for(lambda: len(public(w)) > n, timeout=10)
        await settled(s, w.bot)
        reminders = [m for m in public(w) if "Reminder" in m.content]
        assert len(reminders) == 1 and reminders[0].pinged() == {w.alice} and len(public(w)) == n + 1
        assert not [t for t in await w.store.timers(row.id, pending_only=True) if t.kind == "remind"]
        s.assert_clean()


async def test_hostile_chart_files_over_discord_while_another_game_is_answered(tmp_path):
    """Issue 18: every file of the hostile-chart suite as a `/game new charts:` attachment. Each
    is refused privately with the reason (or accepted), none "went wrong", no game is left behind
    by a refusal, and a `/roll` and a `/game status` in another channel sent at the same moment
    are answered."""
    from tests.engine.test_hostile_charts import CASES

    async with World() as w:
        await w.start_bot(tmp_path / "h.db")
        s = w.server
        other = s.add_channel(w.gid, "elsewhere")
        r = await s.slash(w.bob, other, "game", "new", options={"ruleset": "gondor"}, timeout=20)
        assert not r.ephemeral
        tried: list[tuple[str, bool]] = []
        for name, data, mention in CASES:
            try:
                raw = data.encode() if isinstance(data, str) else data
            except UnicodeEncodeError:
                continue  # a text-level case (lone surrogates): no file holds it as UTF-8
            if len(raw) > 64 * 1024:
                continue  # refused by size before anything is read (test_chart_files_as_attachments)
            new = asyncio.ensure_future(w.cmd(w.alice, "game", "new", ruleset="gondor", charts=(f"{name}.toml", raw)))
            roll = asyncio.ensure_future(s.slash(w.bob, other, "roll", options={"dice": "2d6"}, timeout=20))
            status = asyncio.ensure_future(s.slash(w.bob, other, "game", "status", timeout=20))
            r, rr, st = await asyncio.gather(new, roll, status)
            tried.append((name, mention is None))
            assert rr.content and "2d6" in rr.content and not rr.expired, (name, rr)
            assert st.content and "Gondor" in st.content, (name, st)
            assert r.content and "went wrong" not in r.content, (name, r.content)
            if mention is None:
                assert "own charts" in await announced(r), (name, r.content)
                assert (await w.cmd(w.alice, "game", "end")).content
                await w.cmd(w.alice, "game", "end")  # confirmed, if it asks
            else:
                assert r.ephemeral and len(r.content) < 2000, (name, r.content)
                assert mention.lower() in r.content.lower(), (name, mention, r.content)
                assert await w.store.live_game(w.cid) is None, name
        assert len(tried) >= 30 and any(ok for _, ok in tried) and sum(not ok for _, ok in tried) >= 30
        s.assert_clean()


async def test_a_slow_chart_check_does_not_hold_other_games(tmp_path, monkeypatch):
    """The options and chart check of `/game new` runs in a worker: while it is stuck, another
    channel's command is answered; released, the game is created."""
    import threading

    from bot.service import Ctx, GameService
    from bot.storage import Store
    from engine.rulesets import get_ruleset

    store = await Store.open(str(tmp_path / "slow.db"))
    svc = GameService(store, renderer=None, seed_source=lambda: "s")
    rs = get_ruleset("gondor")
    release, entered = threading.Event(), threading.Event()
    plain = rs.new_game

    def slow(options, seed, fixture=None):
        if "charts" in options:
            entered.set()
            release.wait(20)
        return plain(options, seed, fixture)

    monkeypatch.setattr(rs, "new_game", slow)
    try:
        assert (await svc.lobby.new_game(Ctx(channel_id=2, user_id=5, guild_id=1, interaction_id="a"), "gondor")).ok
        pending = asyncio.ensure_future(svc.lobby.new_game(Ctx(channel_id=1, user_id=5, guild_id=1, interaction_id="b"),
                                                     "gondor", charts=GOOD_CHART.decode()))
        await asyncio.to_thread(entered.wait, 20)
        status = await svc.views.status(Ctx(channel_id=2, user_id=5, guild_id=1, interaction_id="c"))
        assert status.ok and "Gondor" in status.reply.text and not pending.done()
        release.set()
        out = await pending
        assert out.ok and "own charts" in out.reply.text
    finally:
        release.set()
        await store.close()
