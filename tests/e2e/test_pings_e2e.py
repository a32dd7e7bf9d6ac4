"""Issue 28's proof, "each ping reaches exactly who must answer, once, not in their quiet hours", over the
fake Discord: an undo request, a declared action (assist), a trade, a vote, a challenge to Mortal Combat
(Sauron 22.3), a check-in and the end of a game. For each, the users the message notifies (the fake's
``pinged()``: mentioned and allowed) are exactly those who must answer, each notified once by everything
the command posted; with one of them in quiet hours (or away, `/me away`), that one is named in the
message but not notified, and nothing pings them later (README, `/me quiet`)."""
from __future__ import annotations

import datetime as dt

import pytest

from tests import pbp_helpers
from tests.e2e.test_e2e_discord import World
from tests.e2e.test_sauron_discord import POSITION as SAURON_CHALLENGE
from tests.settle import settled

assert pbp_helpers.TINY  # tiny-pbp is registered before the bot loads its cogs (the ruleset choices)


async def _game(w, ruleset, seats, options=None):
    opts = {"ruleset": ruleset, **({"options": options} if options else {})}
    r = await w.server.slash(w.alice, w.cid, "game", "new", options=opts, timeout=20)
    assert not r.ephemeral, r.content
    for seat, uid in seats.items():
        r = await w.cmd(uid, "game", "join", seat=seat)
        assert not r.ephemeral, r.content
    return r


async def _start(w):
    await (await w.cmd(w.alice, "game", "start")).wait_for_messages(1)


# each scenario sets a game up and returns (the command that pings, who must answer)
async def undo(w):
    await _game(w, "tiny-pbp", {"red": w.alice, "blue": w.bob})
    await _start(w)
    assert not (await w.cmd(w.alice, "order", text="roll")).ephemeral  # dice drawn: the others must agree
    return (w.alice, ("game", "undo"), {}), {w.bob}


async def proposal(w):
    await _game(w, "risk-minas-tirith", {"good": w.alice, "evil": w.bob, "gm": w.mod}, "mode=assist")
    await _start(w)
    return (w.alice, ("order",), {"text": "!take 9"}), {w.bob, w.mod}  # the other seat and the moderator


async def vote(w):
    await _game(w, "risk-minas-tirith", {"good": w.alice, "evil": w.bob, "gm": w.mod}, "mode=assist")
    await _start(w)
    return (w.bob, ("order",), {"text": "vote end"}), {w.alice}  # the seats that vote (the moderator rules)


async def trade(w):
    await _game(w, "risk-minas-tirith", {"good": w.alice, "evil": w.bob}, "mode=tabletop")
    await _start(w)
    for uid, text in [(w.alice, "deck orders " + " ".join(f"o{i}" for i in range(1, 9))), (w.alice, "draw orders"),
                      (w.alice, "done"), (w.bob, "draw orders"), (w.bob, "done")]:
        r = await w.cmd(uid, "order", text=text)
        assert not r.ephemeral, r.content
    row = await w.store.live_game(w.cid)
    card = w.service.table.games[row.id].state["table"]["hands"]["good"][0][1]
    return (w.alice, ("order",), {"text": f"offer evil {card} for nothing"}), {w.bob}


async def challenge(w):
    await _game(w, "sauron", {"sauron": w.alice, "westernesse": w.bob})
    await _start(w)
    return (w.bob, ("order",), {"text": "challenge ISI GOR"}), {w.alice}  # Sauron answers (22.3)


async def checkin(w):
    await _game(w, "tiny-pbp", {"red": w.alice}, "checkin=2")
    return (w.bob, ("game", "join"), {"seat": "blue"}), {w.alice, w.bob}  # every holder checks in


async def end(w):
    await _game(w, "tiny-pbp", {"red": w.alice, "blue": w.bob})
    await _start(w)
    return (w.alice, ("order",), {"text": "win"}), {w.alice, w.bob}  # every holder, with the result


SCENARIOS = {"undo": undo, "proposal": proposal, "vote": vote, "trade": trade, "challenge": challenge,
             "checkin": checkin, "end": end}
CASES = [(k, None) for k in SCENARIOS] + [(k, "quiet" if i % 2 else "away") for i, k in enumerate(SCENARIOS)]


@pytest.mark.parametrize("kind, absent", CASES)
async def test_each_ping_reaches_exactly_who_must_answer_once_not_in_quiet_hours_or_away(tmp_path, kind, absent):
    async with World() as w:
        s = w.server
        await w.start_bot(tmp_path / "pings.db", fixture=SAURON_CHALLENGE if kind == "challenge" else None)
        w.service.table.renderer = None
        (who, names, opts), answer = await SCENARIOS[kind](w)
        resting = None
        if absent:
            resting = min(answer - {who}) if answer - {who} else min(answer)
            if absent == "quiet":
                r = await s.slash(resting, w.cid, "me", "quiet", options={"from": "00:00", "to": "23:59", "tz": "UTC"},
                                  timeout=20)
            else:
                day = dt.datetime.fromtimestamp(w.service.table.clock() + 10 * 86400, dt.timezone.utc).strftime("%Y-%m-%d")
                r = await s.slash(resting, w.cid, "me", "away", options={"until": day}, timeout=20)
            assert r.ephemeral and ("Quiet hours set" in r.content or "Away until" in r.content), r.content
        await settled(s, w.bot)  # the set-up's own posts (a phase's notice) are out before counting
        n = len(s.messages(w.cid))
        r = await s.slash(who, w.cid, *names, options=opts, timeout=20)
        await settled(s, w.bot)  # whatever else the command posts (a notice, a map) is out
        posted = [m for m in s.messages(w.cid)[n:] if not m.ephemeral]
        if kind == "trade":  # a secret order: its giver reads it privately, the channel a masked line
            assert r.ephemeral and "offer evil" in r.content
            msg = next(m for m in posted if "offer (private) to evil" in (m.content or ""))
            assert "offer evil" not in msg.content  # (the cards stay the two seats')
        else:
            assert not r.ephemeral, r.content
            msg = r.message
        expected = answer - {resting}
        assert msg.pinged() == expected, (msg.content, msg.pinged(), expected)
        for u in answer:
            assert f"<@{u}>" in msg.content  # everyone who must answer is named (the absent one too)
            assert sum(u in m.pinged() for m in posted) == (u in expected)  # once; never the absent one
            assert not any(u in m.pinged() for m in s.dms(u))  # (no DM pings either)
        s.assert_clean()
