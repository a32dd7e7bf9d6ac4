"""Issue 39, no claim without delivery, through the real discord.py client against the fake Discord:
`/game board channel:` at a channel where the bot may not post answers (privately) which permission it lacks
and places no board, where it cannot find the channel says so, and says the board is there only once it is;
a join pressed on the open-seat board whose answer cannot reach the game's channel is answered with the answer
itself; and `/game new` refuses a group's charts privately: nothing of a refusal, not even a "thinking…",
shows in the channel."""
import asyncio

import discord

from tests.e2e.test_e2e_discord import World
from tests.e2e.test_e2e_threads_charts import BAD_CHART, GOOD_CHART
from tests.fakediscord.server import EVERYONE_PERMISSIONS, P_SEND_MESSAGES, P_VIEW_CHANNEL
from tests.settle import settled


def seen_in(w, cid):
    """Every message anyone in the channel may have seen there, if only for a moment."""
    return [m for m in w.server.messages(cid, include_gone=True) if not m.ephemeral]


async def test_the_board_is_claimed_only_once_it_is_posted(tmp_path):
    """Issue 39: `/game board channel:` at a channel where the bot lacks Send Messages (then View Channel)
    answers privately with the permission it lacks, posts nothing and places no board; at a channel it cannot
    find, says so; where it may post, the board is there when the answer says it is."""
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "board.db")
        s.set_bot_permissions(w.gid, EVERYONE_PERMISSIONS)  # no Administrator: the channel's overwrites count
        board_cid = s.add_channel(w.gid, "open-seats")
        s.set_channel_permissions(board_cid, s.bot_user_id, deny=P_SEND_MESSAGES)
        await s.wait_for(lambda: (c := w.bot.get_channel(board_cid)) is not None
                         and not c.permissions_for(c.guild.me).send_messages, timeout=10)

        r = await w.cmd(w.mod, "game", "board", channel=board_cid)
        assert r.ephemeral and "No open-seat board was placed" in r.content and "**Send Messages**" in r.content, r.content
        assert "is in" not in r.content
        assert seen_in(w, board_cid) == [] and await w.store.get_setting(f"seatboard:{w.gid}") is None

        s.set_channel_permissions(board_cid, s.bot_user_id, deny=P_VIEW_CHANNEL | P_SEND_MESSAGES)
        await s.wait_for(lambda: not (c := w.bot.get_channel(board_cid)).permissions_for(c.guild.me).view_channel,
                         timeout=10)
        r = await w.cmd(w.mod, "game", "board", channel=board_cid)
        assert r.ephemeral and "**View Channel**" in r.content and "No open-seat board" in r.content, r.content
        assert seen_in(w, board_cid) == [] and await w.store.get_setting(f"seatboard:{w.gid}") is None

        # a channel gone by the time the bot posts there (Discord's 10003 Unknown Channel)
        s.set_channel_permissions(board_cid, s.bot_user_id)
        await s.wait_for(lambda: (c := w.bot.get_channel(board_cid)).permissions_for(c.guild.me).send_messages,
                         timeout=10)
        orig = discord.TextChannel.send

        async def gone(self, *a, **k):
            if self.id != board_cid:
                return await orig(self, *a, **k)

            class Resp:
                status, reason = 404, "Not Found"
            raise discord.NotFound(Resp(), {"code": 10003, "message": "Unknown Channel"})

        discord.TextChannel.send = gone
        try:
            r = await w.cmd(w.mod, "game", "board", channel=board_cid)
        finally:
            discord.TextChannel.send = orig
        assert r.ephemeral and "cannot find that channel" in r.content and "No open-seat board" in r.content, r.content
        assert await w.store.get_setting(f"seatboard:{w.gid}") is None

        # allowed: the board is there, and only then said to be
        r = await w.cmd(w.mod, "game", "board", channel=board_cid)
        assert r.ephemeral and f"is in <#{board_cid}>" in r.content, r.content
        board = [m for m in s.messages(board_cid) if not m.ephemeral]
        assert len(board) == 1 and "No game in this server" in board[0].content
        assert await w.store.get_setting(f"seatboard:{w.gid}") == f"{board_cid}:{board[0].id}"
        await settled(s, w.bot)
        s.assert_clean()


async def test_a_join_from_the_board_that_cannot_reach_the_games_channel_is_answered_privately(tmp_path):
    """Issue 39: the Join button of the open-seat board, pressed in another channel, answers "see #game" only
    once the answer is posted there; where the bot may not post in the game's channel, the presser reads the
    answer itself and why it is not in the game's channel (the seat is theirs either way)."""
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "join.db")
        board_cid = s.add_channel(w.gid, "open-seats")
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor")
        assert not r.ephemeral
        r = await s.slash(w.bob, board_cid, "game", "open", timeout=20)
        assert r.ephemeral and r.message.components, r.content
        s.set_bot_permissions(w.gid, EVERYONE_PERMISSIONS)
        s.set_channel_permissions(w.cid, s.bot_user_id, deny=P_SEND_MESSAGES)
        await s.wait_for(lambda: not (c := w.bot.get_channel(w.cid)).permissions_for(c.guild.me).send_messages,
                         timeout=10)
        n = len(seen_in(w, w.cid))
        row = await w.store.live_game(w.cid)
        c = await s.click(w.bob, r.message, f"sjoin:{row.id}:westernesse")
        await c.wait_for_messages(1)
        text = "\n".join(m.content for m in c.messages)
        assert all(m.ephemeral for m in c.messages) and "see <#" not in text, text
        assert "westernesse" in text.lower() and "**Send Messages**" in text and f"Not posted in <#{w.cid}>" in text, text
        assert len(seen_in(w, w.cid)) == n
        assert (await w.store.seats(row.id)).get("westernesse") == w.bob


async def test_chart_refusals_at_game_new_are_private_from_the_first_moment(tmp_path, monkeypatch):
    """Issue 39: a refused chart file, attached or given in the options (checked slowly: acknowledged before
    the answer), is answered privately, and nothing of it was ever shown in the channel, not even a public
    "thinking…"; an accepted one creates the game, announced in the channel."""
    from engine.rulesets import get_ruleset

    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "charts.db")
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", charts=("ours.toml", BAD_CHART))
        assert r.ephemeral and "Bad options" in r.content and "charts line 3" in r.content, r.content
        assert seen_in(w, w.cid) == [] and await w.store.latest_game(w.cid) is None

        rs = get_ruleset("gondor")
        plain = rs.new_game

        def slow(options, seed, fixture=None):  # longer than the bot waits before acknowledging (DEFER_AFTER)
            import time
            time.sleep(2.0)
            return plain(options, seed, fixture)

        monkeypatch.setattr(rs, "new_game", slow)
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="charts=x")  # not a chart file
        assert r.deferred and r.ephemeral and "`charts` was refused" in r.content, r.content
        assert seen_in(w, w.cid) == [] and await w.store.latest_game(w.cid) is None
        monkeypatch.setattr(rs, "new_game", plain)

        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", charts=("ours.toml", GOOD_CHART))
        posted = await s.wait_for(lambda: [m for m in s.messages(w.cid) if "own charts" in m.content], timeout=10)
        assert posted and not posted[0].ephemeral
        assert (await w.store.live_game(w.cid)) is not None
        await settled(s, w.bot)
        s.assert_clean()
