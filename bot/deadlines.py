"""Deadline maths: pure functions of instants (UTC seconds), with no clock
and no I/O. Local times go through ``zoneinfo`` (the tz database comes from
the ``tzdata`` dependency), so quiet hours keep their wall-clock meaning
across daylight-saving changes.

- A quiet window is ``[start, end)`` in a player's local time; ``start > end``
  wraps midnight; ``start == end`` is empty.
- A phase's deadline is its start (or the latest return of an acting player
  who is away) plus the game's hours plus any extension, then moved to the end
  of any acting player's quiet hours it falls in (repeated, since the end of one
  window may fall in another's).
- A reminder ``lead`` hours before the deadline that falls in the player's
  quiet hours moves to just before those hours began, or, if that is before the
  phase began, to their end (if still before the deadline), else it is skipped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time as dtime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.options import Choice, ListOf, Number, Option, find, read_value

UTC = timezone.utc
POLICIES = ("nag", "pass", "pause")
# taken by the service, never passed to a ruleset: DEADLINE_OPTIONS', bot/seats.py's SEAT_OPTIONS' and
# bot/results.py's RESULT_OPTIONS' names
GAME_OPTION_KEYS = ("deadline", "policy", "remind", "checkin", "min_ontime", "autopilot", "takeover", "rated")
MAX_HOURS = 24 * 30
MAX_REMINDERS = 5

# a game's deadline options (issue 39: declared as data, read by engine/options.py's one typed reader)
DEADLINE_OPTIONS = (
    Option("deadline", Number(0, MAX_HOURS, "hours", off=True), about="each phase's time (off or 0: none)"),
    Option("policy", Choice(POLICIES), about="what a passed deadline does"),
    Option("remind", ListOf(Number(0, MAX_HOURS, "hours"), "hours before the deadline", MAX_REMINDERS, off=True),
           about="reminders, e.g. remind=12+2"),
)

_ZONE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}$")
_HHMM_RE = re.compile(r"^(\d{1,2}):(\d{2})$")


@dataclass(frozen=True)
class Quiet:
    start: dtime
    end: dtime
    tz: str

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    def label(self) -> str:
        return f"{self.start:%H:%M}–{self.end:%H:%M} {self.tz}"


@dataclass(frozen=True)
class DeadlineRules:
    """A game's deadline settings (from ``/game new options:`` over the server defaults)."""

    hours: float = 0.0  # 0: no deadlines
    policy: str = "nag"
    reminders: tuple[float, ...] = field(default_factory=tuple)  # hours before the deadline


# ------------------------------------------------------------------ parsing
def parse_hhmm(text: str) -> dtime:
    m = _HHMM_RE.match((text or "").strip())
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise ValueError(f"`{(text or '')[:20]}` is not a time of day like 22:30")
    return dtime(int(m.group(1)), int(m.group(2)))


def parse_zone(text: str) -> str:
    name = (text or "").strip()
    if len(name) > 64 or not _ZONE_RE.match(name):
        raise ValueError(f"`{name[:40]}` is not an IANA time zone like Europe/London")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"`{name[:40]}` is not an IANA time zone like Europe/London") from None
    return name


def parse_date(text: str, tz: str | None = None) -> float:
    """``YYYY-MM-DD``: away until the end of that day (local midnight after it)."""
    t = (text or "").strip()
    try:
        d = date.fromisoformat(t)
    except ValueError:
        raise ValueError(f"`{t[:20]}` is not a date like 2025-07-14") from None
    zone = ZoneInfo(tz) if tz else UTC
    return datetime.combine(d + timedelta(days=1), dtime(0, 0), tzinfo=zone).timestamp()


def ruleset_options(options: dict[str, str]) -> dict[str, str]:
    """The ruleset's own options (and the table's): those the service does not take."""
    return {k: v for k, v in options.items() if k not in GAME_OPTION_KEYS}


def split_options(options: dict[str, str], defaults: DeadlineRules,
                  owner: str = "this game") -> tuple[dict[str, str], DeadlineRules]:
    """The ruleset's own options, and the game's deadline rules (OptionError, a ValueError naming
    ``owner``, for a bad value)."""
    got = {k: read_value(find(DEADLINE_OPTIONS, k), k, options[k], owner) for k in ("deadline", "policy", "remind")
           if k in options}
    rem = got.get("remind", defaults.reminders)
    rules = DeadlineRules(got.get("deadline", defaults.hours), got.get("policy", defaults.policy),
                          tuple(sorted(set(rem), reverse=True)))
    return ruleset_options(options), rules


# ------------------------------------------------------------------ quiet hours
def in_quiet(t: float, q: Quiet | None) -> bool:
    if q is None or q.start == q.end:
        return False
    local = datetime.fromtimestamp(t, q.zone).time().replace(tzinfo=None)
    if q.start < q.end:
        return q.start <= local < q.end
    return local >= q.start or local < q.end


def _wall(d: date, tm: dtime, zone: ZoneInfo) -> float:
    # a wall time that does not exist (spring forward) reads with the offset before the change,
    # i.e. it lands just after the gap; an ambiguous one (fall back) is its first occurrence
    return datetime.combine(d, tm, tzinfo=zone).timestamp()


def quiet_end(t: float, q: Quiet) -> float:
    """The first instant after ``t`` at which ``q`` is over (``t`` itself if not quiet)."""
    if not in_quiet(t, q):
        return t
    zone = q.zone
    d = datetime.fromtimestamp(t, zone).date()
    for k in range(0, 3):
        ts = _wall(d + timedelta(days=k), q.end, zone)
        if ts > t:
            return ts
    return t  # unreachable for a real window


def quiet_start_before(t: float, q: Quiet) -> float:
    """The instant at or before ``t`` when the quiet window containing ``t`` began."""
    zone = q.zone
    d = datetime.fromtimestamp(t, zone).date()
    for k in range(0, 3):
        ts = _wall(d - timedelta(days=k), q.start, zone)
        if ts <= t:
            return ts
    return t


def adjust_for_quiet(t: float, quiets: list[Quiet], rounds: int = 8) -> float:
    """Move ``t`` out of every window (if windows cover the whole day, give up after a few moves)."""
    for _ in range(rounds):
        moved = False
        for q in quiets:
            if in_quiet(t, q):
                t = quiet_end(t, q)
                moved = True
        if not moved:
            break
    return t


def phase_deadline(started: float, hours: float, *, extra: float = 0.0, quiets: list[Quiet] = (),
                   away_until: list[float] = ()) -> float:
    base = max([started, *away_until])
    return adjust_for_quiet(base + hours * 3600 + extra, list(quiets))


def reminder_at(deadline: float, lead_hours: float, quiet: Quiet | None, not_before: float) -> float | None:
    t = deadline - lead_hours * 3600
    if t <= not_before:
        return None
    if quiet is not None and in_quiet(t, quiet):
        before = quiet_start_before(t, quiet) - 60
        if before > not_before:
            return before
        after = quiet_end(t, quiet)
        return after if after < deadline else None
    return t


def stamp(t: float) -> str:
    """Discord timestamps: each reader sees their own local time."""
    return f"<t:{int(t)}:F> (<t:{int(t)}:R>)"


# ------------------------------------------------------------------ the daily digest (issue 41)
def next_local(after: float, at: dtime, tz: str) -> float:
    """The first instant after ``after`` whose wall-clock time in ``tz`` is ``at`` (a time that a change to
    summer time skips reads just after the gap)."""
    zone = ZoneInfo(tz)
    d = datetime.fromtimestamp(after, zone).date()
    for k in range(0, 3):
        ts = _wall(d + timedelta(days=k), at, zone)
        if ts > after:
            return ts
    return after + 86400  # unreachable for a real zone


def digest_due(after: float, at: dtime, tz: str, quiet: Quiet | None = None, away_until: float | None = None) -> float:
    """When a player's daily digest at local ``at`` falls due next, after ``after``: not while they are away
    (the first one after their return), and moved to the end of their quiet hours if it falls inside them."""
    t = next_local(max(after, away_until or 0.0), at, tz)
    return adjust_for_quiet(t, [quiet] if quiet else [])
