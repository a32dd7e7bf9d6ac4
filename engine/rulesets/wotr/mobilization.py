"""Modifications to Mobilization (seed:001) and All Out War's fixed schedule.

`mobilize <nation>` records a mobilization the base game brings about (events R.13, R.14, citadel
reduction K.1: the table's), by the nation's seat; in All Out War the schedule is fixed (Dark Power turn 1,
Saruman 2, Gondor 3, Rohan 4, Elves, Dwarves and Western Allies 6) and applied at the start of the turn,
so the order is refused. A unit of a nation not mobilized does not move (ruling: the base game's T),
except as the Modifications allow Faramir's and Eomer's groups once Mordor mobilizes first."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import NATIONS, S_AOW, S_MOB, nation_seat, refuse, title
from engine.rulesets.wotr import lookup

ITHILIEN_GROUP = ("faramir", "gon-ith")  # Faramir and five SP of cavalry at E0630
EMNET_GROUP = ("eomer", "roh-em")  # Eomer and five SP of cavalry at W3022


def _mobilized(rs, st, nation) -> bool:
    return st["mobilized"][nation] is not None


def _mordor_first(rs, st, nation) -> bool:
    """Mordor mobilized before (or while) ``nation`` has not."""
    return _mobilized(rs, st, "mordor") and not _mobilized(rs, st, nation)


def _p_mobilize(rs, st, seat, w):
    if len(w) != 1 or w[0] not in NATIONS:
        raise lookup._usage(rs, "mobilize")
    nation = w[0]
    if nation_seat(st, nation) != seat:
        raise refuse(f"{nation.title()} is {title(nation_seat(st, nation))}'s to mobilize")
    if _mobilized(rs, st, nation):
        raise refuse(f"{nation.title()} has mobilized already")
    if st["scenario"] == "all-out-war":
        raise refuse("in All Out War every nation mobilizes on its fixed turn", S_AOW)
    lookup._turn_of(rs, st, seat, "mobilization")
    return (nation,)


def _a_mobilize(rs, st, seat, args, dice):
    st["mobilized"][args[0]] = st["turn"]
    return [Event(public=f"{args[0].title()} mobilizes (turn {st['turn']}).")] + _on_mobilized(rs, st, args[0])


def _on_mobilized(rs, st, nation) -> list[Event]:
    ev = []
    if nation == "mordor":
        for group, n, where in ((ITHILIEN_GROUP, "gondor", "South Ithilien"), (EMNET_GROUP, "rohan", "East Emnet")):
            if not _mobilized(rs, st, n):
                ev.append(Event(public=f"Mordor mobilizes before {n.title()}: the units in {where} may move and "
                                       f"fight within {where}" + (" (or go to Minas Tirith)" if n == "gondor" else "")
                                       + ".", section=S_MOB))
    if nation == "gondor":
        for u in st["units"].values():
            u["frozen"] = False
        st["chars"]["faramir"]["frozen"] = False
    return ev


def _mobilization_error(rs, st, kind, mid, path) -> str | None:
    """Why this piece may not take this path before its nation mobilizes (None: it may)."""
    b = lookup._bd(rs, st)
    if (kind, mid) in (("c", "faramir"), ("u", "gon-ith")) and not _mobilized(rs, st, "gondor"):
        piece = st["chars"][mid] if kind == "c" else st["units"][mid]
        if piece.get("frozen"):
            return "in Minas Tirith it may not move again until Gondor mobilizes"
        if not _mobilized(rs, st, "mordor"):
            return "it may not move before Gondor (or, first, Mordor) mobilizes"
        mt = b.places["minas-tirith"]
        if path[-1] == mt and all(b.province_of[h] == "south-ithilien" for h in path[:-1]):
            return None
        if all(b.province_of[h] == "south-ithilien" for h in path):
            return None
        return "before Gondor mobilizes it moves only within South Ithilien, or to Minas Tirith"
    if (kind, mid) in (("c", "eomer"), ("u", "roh-em")) and not _mobilized(rs, st, "rohan"):
        if not _mobilized(rs, st, "mordor"):
            return "it may not move before Rohan (or, first, Mordor) mobilizes"
        if all(b.province_of[h] == "east-emnet" for h in path):
            return None
        return "before Rohan mobilizes it moves only within East Emnet"
    if kind == "u" and not _mobilized(rs, st, st["units"][mid]["nation"]):
        return f"{st['units'][mid]['nation'].title()} has not mobilized"
    return None


def _after_mobile_move(rs, st, kind, mid, dest) -> None:
    if (kind, mid) in (("c", "faramir"), ("u", "gon-ith")) and not _mobilized(rs, st, "gondor") \
            and dest == lookup._bd(rs, st).places["minas-tirith"]:
        (st["chars"][mid] if kind == "c" else st["units"][mid])["frozen"] = True
