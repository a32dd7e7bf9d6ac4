"""Issue 28's proof over the fake Discord with two servers: `/me games` lists a player's games in both
(and in DMs with the bot), with which wait for them; a seat with `autopilot=1` misses a deadline and the
game goes on; the seat appears in `/game open`; a third user takes it over with the button, receives its
private information by DM (the deadline of a phase the seat does not act in unchanged: issue 39); the
export lists both holders; bad options and bad takeovers are refused privately and change nothing;
`/me record` counts what happened. Issue 39: a vote never seats one player on two sides."""
import json

from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP
from tests.e2e.test_e2e_discord import World
from tests.settle import settled
from tests.clock import Clock

H = 3600.0
T0 = 1_720_000_000.0


def public(w, cid):
    return [m for m in w.server.messages(cid) if not m.ephemeral]


async def test_two_servers_autopilot_open_seats_takeover_and_your_games(tmp_path):
    async with World() as w:
        s = w.server
        # a second server: alice plays in both; dave only there
        south = s.add_guild("southrons")
        scid = s.add_channel(south, "harad")
        s.add_member(south, w.alice)
        dave = s.add_user("dave", guild_id=south)
        w.clock = Clock(T0)
        import bot.config as config

        orig = config.DeadlinesConfig.poll_seconds
        config.DeadlinesConfig.poll_seconds = 0.05
        try:
            await w.start_bot(tmp_path / "seats.db")
        finally:
            config.DeadlinesConfig.poll_seconds = orig
        w.service.table.clock = w.clock
        w.bot.cfg.deadlines.poll_seconds = 0.05

        # bad seat options: a short private refusal, no game
        for bad in ("checkin=abc", "min_ontime=150"):
            r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options=bad)
            assert r.ephemeral and "Bad options" in r.content and len(r.content) < 200
            assert await w.store.live_game(w.cid) is None

        # server one: alice (Sauron) and bob (Westernesse), autopilot after one missed deadline
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=3 autopilot=1")
        assert not r.ephemeral
        r = await w.cmd(w.alice, "game", "join", seat="sauron")
        assert "new player" in r.content  # the join answer shows the holder's record
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        # server two: dave (Sauron) and alice (Westernesse)
        r = await s.slash(dave, scid, "game", "new", options={"ruleset": "gondor", "options": "deadline=5"}, timeout=20)
        assert not r.ephemeral
        await s.slash(dave, scid, "game", "join", options={"seat": "sauron"}, timeout=20)
        await s.slash(w.alice, scid, "game", "join", options={"seat": "westernesse"}, timeout=20)
        await (await s.slash(dave, scid, "game", "start", timeout=20)).wait_for_messages(2)

        # /me games, in a DM with the bot: both servers, which waits for alice
        dm = s.dm_channel(w.alice)
        r = await s.slash(w.alice, dm, "me", "games", timeout=20)
        assert r.ephemeral, r.content
        lines = r.content.splitlines()
        one = next(l for l in lines if "wargamers" in l)
        two = next(l for l in lines if "southrons" in l)
        assert f"/channels/{w.gid}/{w.cid}" in one and "Sauron" in one and "waits for you" in one
        assert f"/channels/{south}/{scid}" in two and "Westernesse" in two and "waits for others" in two
        assert f"<t:{int(T0 + 3 * H)}:R>" in one and f"<t:{int(T0 + 5 * H)}:R>" in two

        # Sauron's set-up on time; Westernesse places every counter but misses the deadline
        for o in SAURON_SETUP:
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        await w.cmd(w.alice, "done")
        for o in WESTERNESSE_SETUP:
            assert not (await w.cmd(w.bob, "order", text=o)).ephemeral
        row = await w.store.live_game(w.cid)
        clock = await w.store.clock(row.id)
        n = len(public(w, w.cid))
        w.clock.t = clock.deadline_at + 1
        w.bot._wake.set()
        await s.wait_for(lambda: any("now on autopilot" in (m.content or "") for m in public(w, w.cid)[n:]), timeout=15)
        told = next(m for m in public(w, w.cid)[n:] if "now on autopilot" in (m.content or ""))
        row = await w.store.live_game(w.cid)
        assert told.custom_ids() == [f"stake:{row.id}:westernesse"]  # the table is told, with a Take over button
        # the game goes on: the bot finished Westernesse's set-up, Sauron is to act
        await s.wait_for(lambda: (w.service.table.games.get(row.id) is not None
                                  and "westernesse" not in w.service.table.games[row.id].active_seats()), timeout=15)
        assert (await w.store.record(w.bob)).phases_missed == 1
        assert (await w.store.record(w.alice)).phases_on_time >= 1

        # refusals, private, changing nothing: a held and active seat; a seat of another channel's game;
        # someone already seated
        seats_before = await w.store.seats(row.id)
        r = await w.cmd(w.carol, "game", "takeover", seat="sauron")
        assert r.ephemeral and "not up for takeover" in r.content
        r = await s.slash(dave, scid, "game", "takeover", options={"seat": "westernesse"}, timeout=20)
        assert r.ephemeral and "not up for takeover" in r.content  # server two's Westernesse is alice's, active
        r = await w.cmd(w.alice, "game", "takeover", seat="westernesse")
        assert r.ephemeral and "already" in r.content
        assert await w.store.seats(row.id) == seats_before

        # /game open lists the seat with a Take over button; carol presses it
        r = await w.cmd(w.carol, "game", "open")
        assert r.ephemeral and "up for takeover: `westernesse`" in r.content
        listing = r.messages[-1]
        before_dms = len(s.dms(w.carol))
        deadline = (await w.store.clock(row.id)).deadline_at
        w.clock.t += 60
        r = await s.click(w.carol, listing, f"stake:{row.id}:westernesse")
        await s.wait_for(lambda: any("takes over" in (m.content or "") for m in public(w, w.cid)), timeout=15)
        assert (await w.store.seats(row.id))["westernesse"] == w.carol
        # its private information, by DM; Sauron's phase keeps its deadline (issue 39: Westernesse is not to act)
        await s.wait_for(lambda: any("cauldrons" in (m.content or "") for m in s.dms(w.carol)[before_dms:]), timeout=15)
        assert (await w.store.clock(row.id)).deadline_at == deadline
        # the status and the export list both holders
        r = await w.cmd(w.mod, "game", "status")
        assert "Seat history" in r.content and f"<@{w.bob}>" in r.content and f"<@{w.carol}>" in r.content
        data = await w.service.archive.export_data(await w.store.live_game(w.cid))
        held = [(h["seat"], h["user_id"], h["how"]) for h in data["seat_history"] if h["seat"] == "westernesse"]
        assert held == [("westernesse", w.bob, "join"), ("westernesse", w.carol, "takeover")]
        json.dumps(data)
        r = await w.cmd(w.bob, "me", "record")
        assert r.ephemeral and "missed: 1" in r.content and "taken over by others: 1" in r.content
        await settled(s, w.bot)  # nothing in flight: a late violation would be logged by now
        s.assert_clean()


async def test_checkin_reopens_a_seat_min_ontime_refuses_a_poor_record_and_the_board_is_edited_in_place(tmp_path):
    async with World() as w:
        s = w.server
        board_cid = s.add_channel(w.gid, "open-seats")
        dave = s.add_user("dave", guild_id=w.gid)
        w.clock = Clock(T0)
        import bot.config as config

        orig = config.DeadlinesConfig.poll_seconds
        config.DeadlinesConfig.poll_seconds = 0.05
        try:
            await w.start_bot(tmp_path / "checkin.db")
        finally:
            config.DeadlinesConfig.poll_seconds = orig
        w.service.table.clock = w.clock
        w.bot.cfg.deadlines.poll_seconds = 0.05
        await w.store.add_record(w.carol, phases_on_time=1, phases_missed=4)  # 20% on time

        # the board, kept by a member with Manage Server
        r = await w.cmd(w.bob, "game", "board", channel=board_cid)
        assert r.ephemeral and "Manage Server" in r.content and not public(w, board_cid)
        r = await w.cmd(w.mod, "game", "board", channel=board_cid)
        assert r.ephemeral
        await s.wait_for(lambda: public(w, board_cid), timeout=10)
        board = public(w, board_cid)[0]
        assert "No game in this server" in board.content

        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="checkin=2 min_ontime=50 deadline=24")
        assert not r.ephemeral
        await s.wait_for(lambda: "free: `sauron`, `westernesse`" in s.message(board.id).content, timeout=10)
        assert len(public(w, board_cid)) == 1  # one message, edited in place
        r = await w.cmd(w.carol, "game", "join", seat="westernesse")
        assert r.ephemeral and "at least 50%" in r.content and "20%" in r.content
        assert await w.store.seats((await w.store.live_game(w.cid)).id) == {}
        r = await w.cmd(w.alice, "game", "join", seat="sauron")
        assert not r.ephemeral and "new player" in r.content
        r = await w.cmd(dave, "game", "join", seat="westernesse")  # a new player passes
        assert not r.ephemeral and "checks in with the button" in r.content
        assert r.message.pinged() == {w.alice, dave}
        row = await w.store.live_game(w.cid)
        await s.click(w.alice, r.message, f"checkin:{row.id}")
        await s.wait_for(lambda: any("checks in" in (m.content or "") for m in public(w, w.cid)), timeout=10)
        r = await w.cmd(w.alice, "game", "start")
        assert r.ephemeral and "checked in" in r.content
        # dave never checks in: at the time his seat reopens, he is told, the board lists it again
        n = len(public(w, w.cid))
        w.clock.t = T0 + 2 * H + 1
        w.bot._wake.set()
        await s.wait_for(lambda: any("did not check in" in (m.content or "") for m in public(w, w.cid)[n:]), timeout=15)
        note = next(m for m in public(w, w.cid)[n:] if "did not check in" in (m.content or ""))
        assert dave in note.pinged() and "Westernesse" in note.content
        assert await w.store.seats(row.id) == {"sauron": w.alice}
        await s.wait_for(lambda: "free: `westernesse`" in s.message(board.id).content, timeout=10)
        assert (await w.store.game(row.id)).status == "open"
        await settled(s, w.bot)  # nothing in flight: a late violation would be logged by now
        s.assert_clean()


async def test_a_player_who_leaves_a_running_game_gets_none_of_the_seats_secrets_until_they_take_it_back(tmp_path):
    """Issue 28 (hidden information reaches only those entitled): Westernesse's holder, whose DMs are
    closed (their secrets go to the seat's private thread), leaves during the set-up. They are taken out
    of the seat's thread at once; the autopilot plays Westernesse's set-up (the printed one: the cauldrons
    are placed, so the seat's hidden information changes) and nothing of the seat reaches them; `/game secret` and an order are refused (to play it again they take it over like anyone
    else); carol takes it over and the thread is hers, with the seat's secrets. The leaver is not pinged
    by the phase that follows."""
    async with World() as w:
        s = w.server
        s.users[w.bob].dms_open = False
        s.users[w.carol].dms_open = False
        w.clock = Clock(T0)
        import bot.config as config

        orig = config.DeadlinesConfig.poll_seconds
        config.DeadlinesConfig.poll_seconds = 0.05
        try:
            await w.start_bot(tmp_path / "leave.db")
        finally:
            config.DeadlinesConfig.poll_seconds = orig
        w.service.table.clock = w.clock
        w.service.table.renderer = None
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=24")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        room = await s.wait_for(lambda: next((c for c in s.channels.values() if c.type == 12 and any(
            "real cauldrons" in (m.content or "") for m in s.messages(c.id))), None), timeout=15)
        assert room.thread_members == {s.bot_user_id, w.bob}
        row = await w.store.live_game(w.cid)

        seen = len(s.all_visible_to(w.bob))
        r = await w.cmd(w.bob, "game", "leave")
        assert not r.ephemeral and "autopilot" in r.content
        await s.wait_for(lambda: room.thread_members == {s.bot_user_id}, timeout=15)
        # the autopilot finishes Westernesse's set-up
        await s.wait_for(lambda: (w.service.table.games.get(row.id) is not None
                                  and "westernesse" not in w.service.table.games[row.id].active_seats()), timeout=15)
        r = await w.cmd(w.bob, "secret")
        assert r.ephemeral and "no seat" in r.content and "cauldron" not in r.content
        r = await w.cmd(w.bob, "order", text="done", seat="westernesse")
        assert r.ephemeral and "takeover" in r.content
        for o in SAURON_SETUP:
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        await w.cmd(w.alice, "done")
        # Westernesse's set-up, by the autopilot: the printed one, which places the cauldrons (its secret changes)
        await s.wait_for(lambda: any("`deploy printed` (autopilot)" in (m.content or "") for m in public(w, w.cid)),
                         timeout=15)
        await settled(s, w.bot)
        game = w.service.table.games[row.id]
        assert "not placed" not in game.ruleset.secret_text(game.state, "westernesse")
        after = s.all_visible_to(w.bob)[seen:]
        assert not any("cauldron" in (m.content or "").lower() for m in after), [m.content for m in after]
        assert not any(w.bob in m.pinged() for m in after if m.visible_to is None)
        assert len([m for m in s.messages(room.id) if "real cauldrons" in (m.content or "")]) == 1

        # carol takes it over: the seat's thread is hers now, with the seat's current secret
        r = await w.cmd(w.carol, "game", "takeover", seat="westernesse")
        assert not r.ephemeral, r.content
        await s.wait_for(lambda: len([m for m in s.messages(room.id) if "real cauldrons" in (m.content or "")]) == 2,
                         timeout=15)
        assert room.thread_members == {s.bot_user_id, w.carol}
        assert [m for m in s.messages(room.id) if "real cauldrons" in (m.content or "")][-1].pinged() == {w.carol}
        assert (await w.store.seats(row.id))["westernesse"] == w.carol
        await settled(s, w.bot)  # nothing in flight: a late violation would be logged by now
        s.assert_clean()


async def test_a_player_who_left_takes_the_seat_back_only_by_a_takeover_under_the_games_rule(tmp_path):
    """The leaver cannot take the seat back by playing (their order is refused with the way back); under
    `takeover=vote` their `/game takeover` waits for the table's approval like anyone else's; approved, the
    seat and its secret (by DM) are theirs again, and their record counts no seat taken over or lost."""
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "back.db")
        w.service.table.renderer = None
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="takeover=vote")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        row = await w.store.live_game(w.cid)
        await w.cmd(w.bob, "game", "leave")
        n = len(s.dms(w.bob))
        r = await w.cmd(w.bob, "order", text="done")
        assert r.ephemeral and "/game takeover seat:westernesse" in r.content
        r = await w.cmd(w.bob, "game", "takeover", seat="westernesse")
        assert not r.ephemeral and "asks to take over" in r.content
        assert r.message.pinged() == {w.alice}  # the creator (and Sauron's holder) approves
        assert (await w.store.seat_states(row.id))["westernesse"].autopilot
        await s.click(w.alice, r.message, f"tkv:{row.id}:westernesse:y")
        await s.wait_for(lambda: any("takes over" in (m.content or "") and "had left it" in m.content
                                     for m in s.messages(w.cid)), timeout=15)
        await s.wait_for(lambda: any("real cauldrons" in (m.content or "") for m in s.dms(w.bob)[n:]), timeout=15)
        rec = await w.store.record(w.bob)
        assert (rec.seats_taken_over, rec.seats_lost, rec.games_abandoned) == (0, 0, 1)
        r = await w.cmd(w.bob, "secret")
        assert r.ephemeral and "real cauldrons" in r.content
        s.assert_clean()


async def test_the_players_private_rooms_follow_a_seat_its_holder_left_to_whoever_takes_it_over(tmp_path):
    """`/game table` rooms (a private thread for each pair of seats): a holder who leaves is taken out of
    their seat's rooms (the other players' talk to that seat is not theirs any more); whoever takes the
    seat over is added."""
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "rooms.db")
        w.service.table.renderer = None
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=assist whispers=on")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(1)
        r = await w.cmd(w.alice, "game", "table")
        assert not r.ephemeral, r.content
        room = await s.wait_for(lambda: next((c for c in s.channels.values() if c.type == 12
                                              and w.bob in c.thread_members), None), timeout=15)
        assert room.thread_members == {s.bot_user_id, w.alice, w.bob}
        r = await w.cmd(w.bob, "game", "leave")
        assert not r.ephemeral, r.content
        await s.wait_for(lambda: room.thread_members == {s.bot_user_id, w.alice}, timeout=15)
        r = await w.cmd(w.carol, "game", "takeover", seat="evil")
        assert not r.ephemeral, r.content
        await s.wait_for(lambda: room.thread_members == {s.bot_user_id, w.alice, w.carol}, timeout=15)
        await settled(s, w.bot)
        s.assert_clean()


async def test_issue39_a_takeover_vote_never_seats_one_player_on_both_sides(tmp_path):
    """Issue 39 over the fake Discord (`takeover=vote`): both holders leave; Carol asks for Sauron, then for
    Westernesse (refused privately: one waiting request each); the creator hands her Westernesse with
    `/game sub`, then presses Approve under her request for Sauron: the approval is refused privately at
    the change itself, naming the seat she holds; Sauron stays unheld by her and none of its secrets
    reaches her; her request is withdrawn."""
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "vote.db")
        w.service.table.renderer = None
        await w.cmd(w.mod, "game", "new", ruleset="gondor", options="takeover=vote")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.mod, "game", "start")).wait_for_messages(2)
        row = await w.store.live_game(w.cid)
        for who in (w.alice, w.bob):
            assert not (await w.cmd(who, "game", "leave")).ephemeral
        asked = await w.cmd(w.carol, "game", "takeover", seat="sauron")
        assert not asked.ephemeral and "asks to take over" in asked.content
        r = await w.cmd(w.carol, "game", "takeover", seat="westernesse")
        assert r.ephemeral and "Sauron" in r.content and "already" in r.content
        assert (await w.store.seat_states(row.id))["westernesse"].takeover is None
        r = await s.slash(w.mod, w.cid, "game", "sub", options={"seat": "westernesse", "user": w.carol}, timeout=20)
        assert not r.ephemeral, r.content
        await settled(s, w.bot)
        dms, posts = len(s.dms(w.carol)), len(public(w, w.cid))
        r = await s.click(w.mod, asked.message, f"tkv:{row.id}:sauron:y")
        await r.wait_for_messages(1)
        assert r.ephemeral and f"<@{w.carol}> holds **Westernesse**" in r.content, r.content
        await settled(s, w.bot)
        assert await w.store.seats(row.id) == {"sauron": w.alice, "westernesse": w.carol}
        st = (await w.store.seat_states(row.id))["sauron"]
        assert st.autopilot and st.takeover is None
        assert len(s.dms(w.carol)) == dms and len(public(w, w.cid)) == posts  # nothing sent, nothing announced
        s.assert_clean()
