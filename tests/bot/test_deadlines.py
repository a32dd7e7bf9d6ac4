"""Deadline maths (bot/deadlines.py): quiet hours and absence through zoneinfo,
across the daylight-saving changes of Europe/London and America/New_York."""
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from bot import deadlines as dl

UTC = timezone.utc
LON, NY = "Europe/London", "America/New_York"


def ts(y, mo, d, h, mi=0, tz=UTC):
    return datetime(y, mo, d, h, mi, tzinfo=ZoneInfo(tz) if isinstance(tz, str) else tz).timestamp()


def local(t, tz):
    return datetime.fromtimestamp(t, ZoneInfo(tz)).replace(tzinfo=None)


def quiet(a, b, tz):
    return dl.Quiet(dl.parse_hhmm(a), dl.parse_hhmm(b), tz)


def test_a_deadline_in_london_quiet_hours_moves_to_their_end_across_spring_forward():
    q = quiet("22:00", "07:00", LON)
    t = ts(2024, 3, 30, 23)  # Saturday 23:00 GMT; clocks go forward at 01:00 GMT on Sunday 31 March
    assert dl.in_quiet(t, q)
    end = dl.quiet_end(t, q)
    assert local(end, LON) == datetime(2024, 3, 31, 7, 0)  # 07:00 BST ...
    assert end == ts(2024, 3, 31, 6)  # ... which is 06:00 UTC: a 7-hour night, not 8
    assert not dl.in_quiet(end, q) and dl.in_quiet(end - 1, q)


def test_a_deadline_in_new_york_quiet_hours_moves_across_fall_back():
    q = quiet("23:00", "07:00", NY)
    t = ts(2024, 11, 3, 4)  # 00:00 EDT on 3 November; at 02:00 EDT clocks fall back to 01:00 EST
    assert dl.in_quiet(t, q)
    end = dl.quiet_end(t, q)
    assert local(end, NY) == datetime(2024, 11, 3, 7, 0)
    assert end == ts(2024, 11, 3, 12)  # 07:00 EST = 12:00 UTC
    assert end - t == 8 * 3600  # seven hours on the wall clock, eight real hours: the night had 25 hours


def test_a_quiet_end_that_does_not_exist_lands_just_after_the_gap():
    q = quiet("01:00", "02:30", NY)  # 02:30 does not exist on 10 March 2024 in New York
    t = ts(2024, 3, 10, 1, 30, NY)
    end = dl.quiet_end(t, q)
    assert end > t and not dl.in_quiet(end, q)
    assert local(end, NY) == datetime(2024, 3, 10, 3, 30)


def test_two_players_quiet_hours_chain_and_the_deadline_leaves_both():
    lon, ny = quiet("22:00", "07:00", LON), quiet("23:00", "07:00", NY)
    nominal = ts(2024, 1, 15, 22, 30)  # 22:30 GMT: London is asleep
    t = dl.adjust_for_quiet(nominal, [lon, ny])
    # London wakes at 07:00 GMT = 02:00 EST, when New York sleeps until 07:00 EST = 12:00 UTC
    assert t == ts(2024, 1, 16, 12)
    assert not dl.in_quiet(t, lon) and not dl.in_quiet(t, ny)


def test_quiet_hours_covering_the_whole_day_do_not_loop_forever():
    a, b = quiet("00:00", "12:00", "UTC"), quiet("12:00", "00:00", "UTC")
    t = dl.adjust_for_quiet(ts(2024, 5, 1, 3), [a, b])
    assert t > ts(2024, 5, 1, 3)  # it gave up after a few moves, without hanging


def test_an_empty_window_is_never_quiet():
    q = quiet("08:00", "08:00", LON)
    assert not dl.in_quiet(ts(2024, 6, 1, 7), q)


def test_phase_deadline_counts_elapsed_hours_across_dst_and_waits_for_the_away():
    start = ts(2024, 3, 30, 12)  # Saturday 12:00 GMT
    d = dl.phase_deadline(start, 24, quiets=[])
    assert d - start == 24 * 3600
    assert local(d, LON) == datetime(2024, 3, 31, 13, 0)  # 24 real hours: 13:00 BST on Sunday
    back = dl.parse_date("2024-04-02", LON)  # away through 2 April (London): back at local midnight
    assert local(back, LON) == datetime(2024, 4, 3, 0, 0)
    d = dl.phase_deadline(start, 24, away_until=[back])
    assert d == back + 24 * 3600
    d = dl.phase_deadline(start, 24, extra=3600, quiets=[quiet("13:30", "15:00", LON)])
    assert local(d, LON) == datetime(2024, 3, 31, 15, 0)  # 14:00 BST (24 h + 1 h extension) is quiet: moved


def test_reminders_leave_quiet_hours_or_are_skipped():
    q = quiet("22:00", "07:00", LON)
    deadline = ts(2024, 7, 10, 8)  # 09:00 BST
    # 2 h before is 07:00 BST: not quiet
    assert dl.reminder_at(deadline, 2, q, not_before=deadline - 48 * 3600) == deadline - 2 * 3600
    # 5 h before is 04:00 BST: quiet, so just before the quiet hours began (21:59 BST)
    r = dl.reminder_at(deadline, 5, q, not_before=deadline - 48 * 3600)
    assert local(r, LON) == datetime(2024, 7, 9, 21, 59) and not dl.in_quiet(r, q)
    # the phase began at 23:00 BST: too late for before, so at their end if that is before the deadline
    r = dl.reminder_at(deadline, 5, q, not_before=ts(2024, 7, 9, 22))
    assert local(r, LON) == datetime(2024, 7, 10, 7, 0)
    # a reminder earlier than the phase start is skipped
    assert dl.reminder_at(deadline, 12, None, not_before=deadline - 3600) is None


@pytest.mark.parametrize("bad", ["25:00", "7", "12:60", "", "ab:cd"])
def test_bad_times_are_refused(bad):
    with pytest.raises(ValueError):
        dl.parse_hhmm(bad)


@pytest.mark.parametrize("bad", ["Mars/Olympus", "../../etc/passwd", "Europe/", "", "x" * 80, "/etc/localtime"])
def test_bad_zones_are_refused(bad):
    with pytest.raises(ValueError):
        dl.parse_zone(bad)


def test_game_options_split_from_the_rulesets_and_checked():
    defaults = dl.DeadlineRules(48, "nag", (12, 2))
    rs, rules = dl.split_options({"deadline": "24", "policy": "pass", "remind": "6+1", "rally.x": "3"}, defaults)
    assert rs == {"rally.x": "3"} and rules == dl.DeadlineRules(24, "pass", (6, 1))
    assert dl.split_options({}, defaults)[1] == defaults
    assert dl.split_options({"deadline": "off"}, defaults)[1].hours == 0
    for bad in ({"deadline": "-1"}, {"deadline": "nan"}, {"policy": "explode"}, {"remind": "x"}, {"deadline": "1e9"}):
        with pytest.raises(ValueError):
            dl.split_options(bad, defaults)


def test_stamps_are_discord_timestamps():
    assert dl.stamp(1700000000.7) == "<t:1700000000:F> (<t:1700000000:R>)"
