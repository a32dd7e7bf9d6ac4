"""Issue 41's proof over the fake Discord with two servers: a rated series between three users over two rulesets
(tiny-pbp, two seats; trio-pbp, three), whose `/ratings` equal openskill's own computation from the stored results;
`/stats` with its chart, a player's results, `/me record` with the player's ratings; the other server's games
kept apart; a player who left the server no longer shown; bad input answered privately, changing nothing."""
from __future__ import annotations

import json

from openskill.models import PlackettLuce

from tests import pbp_helpers
from tests.e2e.test_e2e_discord import World

assert pbp_helpers.TINY and pbp_helpers.TRIO  # registered before the bot loads its cogs (the ruleset choices)


async def _play(w, channel, ruleset, seats: dict[str, int], winner: str, options="rated=on"):
    s = w.server
    r = await s.slash(w.alice, channel, "game", "new", options={"ruleset": ruleset, "options": options}, timeout=20)
    assert not r.ephemeral, r.content
    for seat, uid in seats.items():
        r = await s.slash(uid, channel, "game", "join", options={"seat": seat}, timeout=20)
        assert not r.ephemeral, r.content
    await (await s.slash(w.alice, channel, "game", "start", timeout=20)).wait_for_messages(1)
    row = await w.store.live_game(channel)
    game = await w.service.table.load(row)
    if winner not in game.active_seats():  # tiny-pbp: red acts first
        r = await s.slash(seats[game.active_seats()[0]], channel, "done", timeout=20)
        assert not r.ephemeral, r.content
    r = await s.slash(seats[winner], channel, "order", options={"text": "win", "seat": winner}, timeout=20)
    assert not r.ephemeral and "wins" in r.content, r.content
    return row.id


def _openskill(games):
    """openskill's own computation from stored results: sides as teams, the winners ranked first."""
    model, r = PlackettLuce(), {}
    for players in games:
        sides = sorted({seat for seat, _, _ in players})
        teams = [[u for seat, u, _ in sorted(players) if seat == side] for side in sides]
        ranks = [1 if any(o == "win" for seat, _, o in players if seat == side) else 2 for side in sides]
        for t, got in zip(teams, model.rate([[r.get(u) or model.rating() for u in t] for t in teams], ranks=ranks)):
            for u, x in zip(t, got):
                r[u] = x
    return r


async def test_a_rated_series_in_two_servers_stats_ratings_and_my_record(tmp_path):
    async with World() as w:
        s = w.server
        south = s.add_guild("southrons")
        scid = s.add_channel(south, "harad")
        s.add_member(south, w.alice)
        dave = s.add_user("dave", guild_id=south)
        await w.start_bot(tmp_path / "results.db")
        a, b, c = w.alice, w.bob, w.carol
        series = [("tiny-pbp", {"red": a, "blue": b}, "red"), ("trio-pbp", {"north": a, "east": b, "south": c}, "east"),
                  ("tiny-pbp", {"red": b, "blue": c}, "blue"), ("tiny-pbp", {"red": c, "blue": a}, "red"),
                  ("trio-pbp", {"north": c, "east": a, "south": b}, "north"), ("tiny-pbp", {"red": a, "blue": b}, "blue")]
        ids = [await _play(w, w.cid, rs, seats, win) for rs, seats, win in series]
        await _play(w, scid, "tiny-pbp", {"red": dave, "blue": a}, "red")  # the other server: its own table

        # bad input: a short private answer, nothing changes
        r = await w.cmd(a, "game", "new", ruleset="tiny-pbp", options="rated=maybe")
        assert r.ephemeral and "`rated` takes on|off" in r.content and await w.store.live_game(w.cid) is None

        # /ratings per ruleset equals openskill's own computation from the stored results
        for rs in ("tiny-pbp", "trio-pbp"):
            stored = [await w.store.result(g) for g in ids]
            want = _openskill([[(seat, u, o) for seat, u, o, rated in x.players if rated] for x in stored if x.ruleset == rs])
            r = await w.cmd(a, "ratings", ruleset=rs)
            assert r.ephemeral and len(r.content) <= 2000
            for u, x in want.items():
                assert f"<@{u}> **{x.ordinal():.1f}** (μ {x.mu:.1f}, σ {x.sigma:.1f})" in r.content, (rs, r.content)
            assert f"<@{dave}>" not in r.content
        r = await s.slash(dave, scid, "ratings", options={"ruleset": "tiny-pbp"}, timeout=20)
        assert f"<@{dave}>" in r.content and f"<@{b}>" not in r.content  # each server its own table

        # /stats: wins per side, lengths, the chart; a player's results; /me record shows the ratings
        r = await w.cmd(a, "stats")
        assert r.ephemeral and "Finished games in this server: 6" in r.content
        assert "Tiny PBP: 4 games; wins Red 2 · Blue 2" in r.content and "Trio PBP: 2 games" in r.content
        [(name, png)] = r.message.attachments
        assert name == "stats.png" and png[:8] == b"\x89PNG\r\n\x1a\n"
        r = await w.cmd(a, "stats", ruleset="trio-pbp", player=c)
        assert "Trio PBP as North: 1 games, won 1, lost 0" in r.content and "Trio PBP as South: 1 games, won 0, lost 1" in r.content
        r = await w.cmd(a, "me", "record")
        assert r.ephemeral and "Your ratings here:** Tiny PBP" in r.content and "provisional" in r.content

        # a player who left the server is no longer shown in its tables
        s.remove_member(w.gid, c)
        for r in (await w.cmd(a, "ratings", ruleset="tiny-pbp"), await w.cmd(a, "stats")):
            assert f"<@{c}>" not in r.content and f"<@{b}>" in r.content, r.content

        # the results kept are the whole story: the stored rows say who won what
        kept = await w.store.result(ids[1])
        assert kept.winners == ["east"] and kept.rated and json.dumps(kept.holders)
