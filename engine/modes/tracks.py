"""Tracks and dice: ``set <track> <value>`` (a number or a short word; the moderator outside
tabletop play gives a reason) and ``roll <n>d<sides>[+<m>] [for <reason>]`` from the game's own dice
stream, so a replay rolls the same."""
from __future__ import annotations

import re

from engine.core import Event, InvalidOrder
from engine.dice import Dice
from engine.modes.turns import to_act
from engine.modes.common import free_text, is_gm, need_id, split_reason, table, title, with_reason, table_action
from engine.orders import Order

ROLL_RE = re.compile(r"^(\d{1,2})d(\d{1,3})([+-]\d{1,3})?$")


def parse_set(rs, st, seat, words):
    words, reason = split_reason(words)
    if len(words) != 2:
        raise InvalidOrder("usage: `set <track> <value>`")
    name = need_id(words[0], "track name").lower()
    value = need_id(words[1].lstrip("-") or "x", "value") and words[1]
    if is_gm(seat) and rs.mode != "tabletop" and not reason:
        raise InvalidOrder("the moderator gives a reason: `... because <reason>`")
    return with_reason((name, value), reason)


def apply_set(rs, st, seat, args, dice):
    name, value = args[0], args[1]
    reason = " ".join(args[3:]) if len(args) > 2 else None
    tracks = table(st)["tracks"]
    before = tracks.get(name)
    tracks[name] = int(value) if value.lstrip("-").isdigit() else value
    was = f" (was {before})" if before is not None else ""
    return [Event(public=f"{title(seat)} sets {name} to {tracks[name]}{was}" + (f" ({reason})" if reason else "") + ".")]


def parse_roll(rs, st, seat, words):
    if not words:
        raise InvalidOrder("usage: `roll 2d6 [for <reason>]`")
    m = ROLL_RE.match(words[0].lower())
    if not m or not (1 <= int(m.group(1)) <= 20 and 2 <= int(m.group(2)) <= 100):
        raise InvalidOrder("dice are `<n>d<sides>[+<m>]`: 1 to 20 dice of 2 to 100 sides")
    rest = words[1:]
    if rest and rest[0].lower() != "for":
        raise InvalidOrder("usage: `roll 2d6 [for <reason>]`")
    reason = free_text(rest[1:], "reason") if rest else None
    return (words[0].lower(),) + (("for", reason) if reason else ())


def apply_roll(rs, st, seat, args, dice):
    m = ROLL_RE.match(args[0])
    n, sides, plus = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    reason = args[2] if len(args) > 2 else ""
    d = Dice(st["dice"])
    values = d.roll(n, sides, reason or args[0])
    total = sum(values) + plus
    table(st)["last_roll"] = {"seat": seat, "dice": args[0], "values": values, "total": total}
    return [Event(public=f"{title(seat)} rolls {args[0]}" + (f" for {reason}" if reason else "")
                         + f": {' + '.join(map(str, values))}" + (f" {m.group(3)}" if plus else "") + f" = **{total}**.",
                  rolls=d.rolls)]


def view_tracks(st) -> list[dict]:
    return [{"name": k, "side": None, "points": v, "level": "-", "table": True} for k, v in table(st)["tracks"].items()]



def legal_roll(rs, st, seat):
    """At tabletop, the seat to act may roll (2d6 offered; any dice typed)."""
    if rs.mode == "tabletop" and seat == to_act(st):
        yield table_action("roll", ("2d6",))


VERBS = (
    Order("set", "set <track> <value> [because <reason>]", parse_set, apply_set, vocabulary=True,
          unlisted="a track's value and its reason are the table's free choice", dice=False,
          touches=("table",)),
    Order("roll", "roll 2d6 [for <reason>]: dice from the game's stream", parse_roll, apply_roll, vocabulary=True,
          legal=legal_roll, dice=False, touches=("dice", "table")),
)
