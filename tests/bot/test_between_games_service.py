"""Issue 41 in the service, under a controllable clock: a rematch (with and without swap, declined, in a thread
when the channel is taken, idempotent), saved set-ups (saved, used, overridden, refused when bad, listed in
pages, deleted), and the daily digest (due when the clock moves on, once, at the player's local time; not
when nothing waits; not while away; after quiet hours)."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.rematch import rotated
from bot.service import Ctx, GameService
from bot.storage import Store
from tests import pbp_helpers  # noqa: F401
from tests.clock import Clock

RED, BLUE, CAROL, MOD = 11, 22, 33, 99
H = 3600.0
T0 = datetime(2024, 7, 1, 9, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # a Monday, 09:00 UTC
_ids = iter(range(1, 10**9))


def ctx(user, channel=9, guild=1, mod=False, iid=None):
    return Ctx(channel_id=channel, user_id=user, guild_id=guild, interaction_id=iid or f"b{next(_ids)}",
               is_moderator=mod)


@pytest.fixture
async def svc(tmp_path):
    store = await Store.open(str(tmp_path / "between.db"))
    s = GameService(store, renderer=None, seed_source=lambda: "between-seed", clock=Clock(T0))
    yield s
    await store.close()


async def finished(svc, channel=9, options="deadline=24", red=RED, blue=BLUE):
    """A tiny-pbp game played to its end: red wins."""
    assert (await svc.lobby.new_game(ctx(red, channel), "tiny-pbp", options)).ok
    assert (await svc.lobby.join(ctx(red, channel), "red")).ok
    assert (await svc.lobby.join(ctx(blue, channel), "blue")).ok
    assert (await svc.lobby.start(ctx(red, channel))).ok
    out = await svc.orders.order(ctx(red, channel), "win")
    assert out.ok and "The game is over" in out.reply.text
    return await svc.store.finished_game(channel), out


# ------------------------------------------------------------------ rematch
async def test_the_end_of_game_post_carries_the_rematch_buttons(svc):
    """Issue 41: the end-of-game post carries a Rematch button (and one with the sides swapped)."""
    row, out = await finished(svc)
    assert not out.ephemeral and out.reply.buttons == [(f"rematch:{row.id}", "Rematch"),
                                                       (f"rematch:{row.id}:swap", "Rematch, sides swapped")]


@pytest.mark.parametrize("swap, red_seat, blue_seat", [(False, "red", "blue"), (True, "blue", "red")])
async def test_a_rematch_every_player_confirms_then_it_begins_with_the_same_options(svc, swap, red_seat, blue_seat):
    """Issue 41: `/game rematch [swap]`: the same ruleset and options, the same players, sides swapped if asked;
    the proposer's press counts, the other confirms with the button, and the game begins."""
    row, _ = await finished(svc, options="deadline=24 remind=2")
    out = await svc.rematch.rematch(ctx(RED), swap)
    assert out.ok and not out.ephemeral and f"<@{BLUE}>" in out.reply.text
    assert out.reply.mentions == [BLUE]  # the one still to confirm is pinged
    yes, no = out.reply.buttons
    assert yes == (f"rmv:{row.id}:1:y", "Confirm") and no == (f"rmv:{row.id}:1:n", "Decline")
    assert await svc.store.live_game(9) is None  # nothing begins before everyone confirmed
    r = await svc.rematch.rematch_vote(ctx(RED), row.id, 1, True)
    assert not r.ok and r.ephemeral and "confirmed already" in r.reply.text
    r = await svc.rematch.rematch_vote(ctx(CAROL), row.id, 1, True)
    assert not r.ok and r.ephemeral and "Only the players" in r.reply.text
    r = await svc.rematch.rematch_vote(ctx(BLUE), row.id, 1, True)
    assert r.ok and not r.ephemeral and "Everyone has confirmed" in r.reply.text and "commitment" in r.reply.text
    new = await svc.store.live_game(9)
    assert new.id != row.id and new.status == "active" and new.options == row.options
    assert new.ruleset == row.ruleset and new.deadline_rules == row.deadline_rules
    assert await svc.store.seats(new.id) == {red_seat: RED, blue_seat: BLUE}
    assert r.notice is not None and r.map_after == (new.id, None)  # the first phase's notice, as `/game start`
    again = await svc.rematch.rematch(ctx(RED), False)  # once played, the finished game's rematch is not proposed again
    assert not again.ok and "played already" in again.reply.text


async def test_a_rematch_declined_by_one_player_is_cancelled_and_its_buttons_answer_nothing_later(svc):
    """Issue 41: one decline cancels the rematch (said publicly, naming who); its buttons then change nothing."""
    row, _ = await finished(svc)
    assert (await svc.rematch.rematch(ctx(BLUE), True)).ok
    r = await svc.rematch.rematch_vote(ctx(RED), row.id, 1, False)
    assert r.ok and not r.ephemeral and f"<@{RED}> declines" in r.reply.text and "cancelled" in r.reply.text
    r = await svc.rematch.rematch_vote(ctx(BLUE), row.id, 1, True)
    assert not r.ok and r.ephemeral and "over" in r.reply.text
    assert await svc.store.live_game(9) is None and (await svc.store.rematch(row.id))["status"] == "declined"
    out = await svc.rematch.rematch(ctx(RED), False)  # proposed again: a new round, whose buttons are its own
    assert out.ok and out.reply.buttons[0][0] == f"rmv:{row.id}:2:y"
    assert not (await svc.rematch.rematch_vote(ctx(BLUE), row.id, 1, True)).ok
    assert (await svc.rematch.rematch_vote(ctx(BLUE), row.id, 2, True)).ok
    assert await svc.store.seats((await svc.store.live_game(9)).id) == {"red": RED, "blue": BLUE}


async def test_a_rematch_is_refused_privately_where_nothing_ended_or_to_a_stranger(svc):
    """Issue 41: bad input gets a short private answer and changes nothing."""
    r = await svc.rematch.rematch(ctx(RED), False)
    assert not r.ok and r.ephemeral and "No game here has ended" in r.reply.text
    row, _ = await finished(svc)
    r = await svc.rematch.rematch(ctx(CAROL), False)
    assert not r.ok and r.ephemeral and "Only the game's players" in r.reply.text
    assert await svc.store.rematch(row.id) is None
    r = await svc.rematch.rematch(ctx(RED, channel=8), False, game_id=row.id)  # a button carried to another channel
    assert not r.ok and await svc.store.rematch(row.id) is None
    assert (await svc.rematch.rematch(ctx(RED), False)).ok
    r = await svc.rematch.rematch(ctx(BLUE), True)
    assert not r.ok and "proposed already" in r.reply.text and not (await svc.store.rematch(row.id))["swap"]


async def test_a_rematch_whose_channel_is_taken_opens_a_thread_and_a_redelivered_press_is_answered_once(svc):
    """Issue 41: if the channel holds a live game when everyone has confirmed, the rematch opens a public thread
    for it (the transport's opener, as `/game new thread:`); the last press, delivered twice, makes one game."""
    row, _ = await finished(svc)
    assert (await svc.rematch.rematch(ctx(RED), True)).ok
    assert (await svc.lobby.new_game(ctx(CAROL), "tiny-pbp")).ok  # meanwhile: another game in the channel
    opened = []

    async def open_thread(name):
        opened.append(name)
        return 700 + len(opened)

    press = ctx(BLUE, iid="press-1")
    r = await svc.rematch.rematch_vote(press, row.id, 1, True, open_thread)
    assert r.ok and "<#701>" in r.reply.text and opened == ["Tiny PBP (new game)"]
    thread = await svc.store.live_game(701)
    assert thread.status == "active" and await svc.store.seats(thread.id) == {"blue": RED, "red": BLUE}
    assert "commitment" in r.elsewhere[701][0].text and "red (<@" in r.elsewhere[701][1].text.lower()
    again = await svc.rematch.rematch_vote(press, row.id, 1, True, open_thread)
    assert again.replayed and again.reply.text == r.reply.text and len(opened) == 1


def test_the_rotation_swaps_two_sides_and_rotates_more_keeping_the_moderator():
    """Issue 41: sides swapped for 3-5 seats: each held side passes to the holder of the side before it, in the
    ruleset's seat order; the moderator's seat stays."""
    assert rotated(("red", "blue"), {"red": 1, "blue": 2}) == {"red": 2, "blue": 1}
    order = ("fellowship", "dark-power", "saruman", "gondor", "rohan", "gm")
    seats = {"fellowship": 1, "dark-power": 2, "saruman": 3, "gondor": 4, "gm": 9}
    assert rotated(order, seats, ("gm",)) == {"fellowship": 4, "dark-power": 1, "saruman": 2, "gondor": 3, "gm": 9}


async def test_a_three_seat_rematch_with_swap_rotates_its_players(svc):
    """Issue 41: a three-seat game's swapped rematch: each player moves to the next seat."""
    for u, s in ((RED, "north"), (BLUE, "east"), (CAROL, "south")):
        if u == RED:
            assert (await svc.lobby.new_game(ctx(RED), "trio-pbp")).ok
        assert (await svc.lobby.join(ctx(u), s)).ok
    assert (await svc.lobby.start(ctx(RED))).ok
    assert (await svc.orders.order(ctx(CAROL), "win")).ok
    row = await svc.store.finished_game(9)
    assert (await svc.rematch.rematch(ctx(CAROL), True)).ok
    assert (await svc.rematch.rematch_vote(ctx(RED), row.id, 1, True)).ok
    assert (await svc.rematch.rematch_vote(ctx(BLUE), row.id, 1, True)).ok
    assert await svc.store.seats((await svc.store.live_game(9)).id) == {"east": RED, "south": BLUE, "north": CAROL}


# ------------------------------------------------------------------ saved set-ups
async def test_a_set_up_is_saved_used_and_overridden_key_by_key(svc):
    """Issue 41: `/template save`, then `/game new template:` (case-insensitive), whose options override the
    set-up's key by key."""
    out = await svc.templates.template_save(ctx(RED), "Weekly  Blitz", "tiny-pbp", "deadline=12 remind=2 takeover=vote")
    assert out.ok and not out.ephemeral and "Weekly Blitz" in out.reply.text
    out = await svc.lobby.new_game(ctx(BLUE), "", "deadline=48", template="weekly blitz")
    assert out.ok, out.reply.text
    row = await svc.store.live_game(9)
    assert row.ruleset == "tiny-pbp" and row.options == {"deadline": "48", "remind": "2", "takeover": "vote"}
    assert svc.table.timekeeper.rules(row).hours == 48.0
    r = await svc.lobby.new_game(ctx(BLUE, channel=10), "gondor", None, template="Weekly Blitz")
    assert not r.ok and r.ephemeral and "`tiny-pbp`" in r.reply.text and await svc.store.live_game(10) is None
    r = await svc.lobby.new_game(ctx(BLUE, channel=10), "", None, template="nightly")
    assert not r.ok and r.ephemeral and "no saved set-up named `nightly`" in r.reply.text
    r = await svc.lobby.new_game(ctx(BLUE, channel=10), "", "deadline=soon", template="weekly blitz")
    assert not r.ok and "tiny-pbp" in r.reply.text and "`deadline`" in r.reply.text  # the override is checked too
    assert await svc.store.live_game(10) is None


@pytest.mark.parametrize("ruleset, options, needle", [
    ("gondor", "siege=maybe", "gondor has no option `siege`"),
    ("sauron-expanded", "siege=maybe", "sauron-expanded: `siege` takes on|off, not `maybe`"),
    ("tiny-pbp", "autopilot=99", "tiny-pbp: `autopilot` takes a whole number"),
    ("tiny-pbp", "deadline=1 deadline=2", "given twice"),
    ("chess", "", "Unknown ruleset"),
])
async def test_a_set_up_with_bad_options_is_refused_at_save_naming_the_ruleset_and_option(svc, ruleset, options, needle):
    """Issue 41: the same checks as `/game new` (engine/options.py), at save time; nothing is saved."""
    out = await svc.templates.template_save(ctx(RED), "bad", ruleset, options)
    assert not out.ok and out.ephemeral and needle in out.reply.text, out.reply.text
    assert await svc.store.templates(1) == []


async def test_set_up_names_are_short_valid_case_insensitive_unique_per_server_and_listed_in_pages(svc):
    """Issue 41: names validated and unique per server whatever their case (another server may use the name);
    a list of more than 25 pages; only who saved a set-up, or Manage Server, deletes it."""
    for bad in ("", "x" * 33, "<@123>", "-dash"):
        r = await svc.templates.template_save(ctx(RED), bad, "tiny-pbp")
        assert not r.ok and r.ephemeral and len(r.reply.text) < 200
    assert (await svc.templates.template_save(ctx(RED), "Siege", "tiny-pbp")).ok
    r = await svc.templates.template_save(ctx(BLUE), "SIEGE", "tiny-pbp", "deadline=5")
    assert not r.ok and "named `Siege` already" in r.reply.text
    assert (await svc.templates.template_save(ctx(BLUE, guild=2), "siege", "tiny-pbp")).ok  # another server's own
    for i in range(29):
        assert (await svc.templates.template_save(ctx(RED), f"set {i:02d}", "tiny-pbp", f"deadline={i + 1}")).ok
    first = await svc.templates.template_list(ctx(BLUE))
    assert first.ephemeral and "(30; page 1 of 2)" in first.reply.text and "page:2" in first.reply.text
    second = await svc.templates.template_list(ctx(BLUE), 2)
    listed = [l for t in (first, second) for l in t.reply.text.splitlines() if l.startswith("- ")]
    assert len(listed) == 30 and len(set(listed)) == 30 and all(len(t.reply.text) <= 2000 for t in (first, second))
    assert not (await svc.templates.template_list(ctx(BLUE), 3)).ok
    assert len(await svc.templates.autocomplete_template(ctx(BLUE), "")) == 25
    assert await svc.templates.autocomplete_template(ctx(BLUE), "SIE") == ["Siege"]
    r = await svc.templates.template_delete(ctx(BLUE), "siege")
    assert not r.ok and "Only" in r.reply.text and await svc.store.template(1, "siege") is not None
    assert (await svc.templates.template_delete(ctx(MOD, mod=True), "Siege")).ok and await svc.store.template(1, "siege") is None
    assert await svc.store.template(2, "siege") is not None


# ------------------------------------------------------------------ the daily digest
async def running(svc, channel=9, guild=1):
    assert (await svc.lobby.new_game(ctx(RED, channel, guild), "tiny-pbp", "deadline=24")).ok
    assert (await svc.lobby.join(ctx(RED, channel, guild), "red")).ok
    assert (await svc.lobby.join(ctx(BLUE, channel, guild), "blue")).ok
    assert (await svc.lobby.start(ctx(RED, channel, guild))).ok
    return await svc.store.live_game(channel)


async def dms_to(svc, user):
    return [o for o in await svc.store.pending_outbox(500) if o["user_id"] == user]


async def test_a_digest_falls_due_at_the_players_local_time_and_is_sent_once(svc):
    """Issue 41: `/me digest at:08:00` in the zone of `/me quiet tz:`: when the clock passes 08:00 there, one
    private message lists the game waiting (its deadline as a Discord timestamp); a second pass sends nothing."""
    assert (await svc.clocks.set_quiet(ctx(RED), "23:00", "06:00", "America/New_York")).ok
    row = await running(svc)  # red is to act (its deadline: 24 h from T0)
    out = await svc.digest.set_digest(ctx(RED), "08:00")
    due = datetime(2024, 7, 1, 8, 0, tzinfo=ZoneInfo("America/New_York")).timestamp()  # 12:00 UTC
    assert out.ephemeral and "08:00 America/New_York" in out.reply.text and f"<t:{int(due)}:F>" in out.reply.text
    svc.table.clock.t = due - 60
    assert await svc.digest.send_digests() == 0 and await dms_to(svc, RED) == []
    svc.table.clock.t = due + 5
    assert await svc.digest.send_digests() == 1
    assert await svc.digest.send_digests() == 0  # once
    (dm,) = await dms_to(svc, RED)
    text = dm["payload"]["text"]
    deadline = (await svc.store.clock(row.id)).deadline_at
    assert "Your daily digest" in text and f"https://discord.com/channels/1/9" in text and "Red" in text
    assert f"<t:{int(deadline)}:F>" in text and dm["game_id"] is None
    assert await dms_to(svc, BLUE) == []  # blue asked for none
    assert (await svc.store.digest(RED))["due_at"] == due + 24 * H


async def test_no_digest_when_nothing_waits_and_results_since_the_last_one_are_told(svc):
    """Issue 41: sent only when there is something to say; a game that ended since the last digest is told."""
    assert (await svc.digest.set_digest(ctx(BLUE), "10:00")).ok  # UTC: no zone set
    row = await running(svc)  # red is to act, not blue
    svc.table.clock.t = T0 + 1 * H + 1  # 10:00 UTC
    assert await svc.digest.send_digests() == 0 and await dms_to(svc, BLUE) == []
    assert (await svc.store.digest(BLUE))["due_at"] > svc.table.clock.t  # moved to the next day all the same
    assert (await svc.orders.order(ctx(RED), "win")).ok  # the game ends: a result to tell
    svc.table.clock.t += 24 * H
    assert await svc.digest.send_digests() == 1
    (dm,) = await dms_to(svc, BLUE)
    assert "Results since your last digest" in dm["payload"]["text"] and "red wins" in dm["payload"]["text"]
    svc.table.clock.t += 24 * H  # told once: the next day has nothing to say
    assert await svc.digest.send_digests() == 0 and len(await dms_to(svc, BLUE)) == 1


async def test_a_digest_waits_while_the_player_is_away_and_lists_votes_and_rematches(svc):
    """Issue 41: away, no digest; back, the next one lists what waits for their answer (a rematch to confirm)."""
    row, _ = await finished(svc)
    assert (await svc.digest.set_digest(ctx(BLUE), "10:00")).ok
    assert (await svc.clocks.set_away(ctx(BLUE), "2024-07-02")).ok  # away to the end of Tuesday (UTC)
    assert (await svc.rematch.rematch(ctx(RED), False)).ok
    svc.table.clock.t = T0 + 1 * H + 1  # Monday 10:00: away
    assert await svc.digest.send_digests() == 0
    assert (await svc.store.digest(BLUE))["due_at"] == datetime(2024, 7, 3, 10, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    svc.table.clock.t = T0 + 49 * H + 1  # Wednesday 10:00
    assert await svc.digest.send_digests() == 1
    (dm,) = await dms_to(svc, BLUE)
    assert "a rematch to confirm" in dm["payload"]["text"]


async def test_the_digest_moves_with_the_players_zone_and_out_of_quiet_hours(svc):
    """Issue 41: a digest set before the zone follows it (`/me quiet tz:`); one inside quiet hours waits for
    their end."""
    assert (await svc.digest.set_digest(ctx(RED), "07:00")).ok
    assert (await svc.store.digest(RED))["due_at"] == T0 + 22 * H  # 07:00 UTC tomorrow
    assert (await svc.clocks.set_quiet(ctx(RED), "22:00", "08:30", "Europe/Paris")).ok
    assert (await svc.store.digest(RED))["due_at"] == datetime(2024, 7, 2, 8, 30,
                                                                 tzinfo=ZoneInfo("Europe/Paris")).timestamp()
    r = await svc.digest.set_digest(ctx(RED), "25:00")
    assert not r.ok and r.ephemeral and "time of day" in r.reply.text
    assert (await svc.store.digest(RED))["at"] == "07:00"  # a refusal changes nothing
    assert (await svc.digest.set_digest(ctx(RED), "off")).ok and await svc.store.digest(RED) is None
