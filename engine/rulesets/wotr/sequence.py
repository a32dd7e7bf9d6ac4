"""Sequence of Play (seed:001, "Sequence of Play" 1 and 2, on the base game's D.1-D.6, facts.md 6):
each game-turn has a Ring Phase (every seat at once, each `done`), an Events Phase (each seat in turn
draws, in the order of draw: four-player Saruman-Fellowship-Gondor-Dark Power, five-player
Saruman-Fellowship-Rohan-Gondor-Dark Power), a Search Phase (each seat with Nazgul to search) and the
player turns in that same order; then the turn ends (the continuous victory conditions are checked at
the end of every player turn)."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import AOW_SCHEDULE, S_AOW, S_SEQ, refuse, title
from engine.rulesets.wotr import aa_ring, lookup, mobilization, nazgul, victory

PHASES = ("ring", "events", "search", "turn")
def active_seats(rs, st):
    if st["over"]:
        return []
    ph = st["phase"]
    if ph == "ring":
        return [s for s in lookup._acting_order(rs, st) if s not in st["done"]]
    if ph == "search":
        return [s for s in nazgul._searchers(rs, st) if s not in st["done"]]
    seq = lookup._acting_order(rs, st)
    return [seq[st["at"]]] if st["at"] < len(seq) else []


# ------------------------------------------------------------------ done
def _p_done(rs, st, seat, w):
    if w:
        raise lookup._usage(rs, "done")
    if seat not in rs.active_seats(st):
        raise refuse(f"nothing awaits {title(seat)} now ({lookup._phase_title(rs, st)})", S_SEQ)
    return ()


def _a_done(rs, st, seat, args, dice):
    ph = st["phase"]
    ev = []
    if ph in ("ring", "search"):
        st["done"].append(seat)
        ev.append(Event(public=f"{title(seat)} is done with the {lookup.PHASE_TITLES[ph]}."))
        if not rs.active_seats(st):
            ev += _next_phase(rs, st)
        return ev
    ev.append(Event(public=f"{title(seat)} ends its {lookup.PHASE_TITLES[ph]}."))
    if ph == "turn":
        ev += victory._end_player_turn(rs, st, seat)
    st["at"] += 1
    if st["at"] >= len(lookup._acting_order(rs, st)):
        ev += _next_phase(rs, st)
    elif ph == "turn":
        ev += _begin_player_turn(rs, st, rs.active_seats(st)[0])
    return ev


def _next_phase(rs, st) -> list[Event]:
    ph = st["phase"]
    st["done"] = []
    st["at"] = 0
    if ph == "ring":
        st["phase"] = "events"
    elif ph == "events":
        st["phase"] = "search"
        if not rs.active_seats(st):
            return _next_phase(rs, st)
    elif ph == "search":
        st["phase"] = "turn"
        st["searched"] = []
        return [Event(public=lookup._phase_title(rs, st), new_phase=True)] + \
            _begin_player_turn(rs, st, rs.active_seats(st)[0])
    else:
        ev = _end_turn(rs, st)
        if st["over"]:
            return ev
        return ev
    return [Event(public=lookup._phase_title(rs, st), new_phase=True)]


def _begin_player_turn(rs, st, seat) -> list[Event]:
    st["commands"] = {k: v for k, v in st["commands"].items() if not k.startswith(seat + ":")}
    if seat == "fellowship":  # what the Fellowship passes through is counted from its new turn
        for c in st["chars"].values():
            c["path"] = []
    return []


def _end_turn(rs, st) -> list[Event]:
    if st["turn"] >= st["last_turn"]:
        return victory._finish(rs, st, f"The last game-turn ({st['last_turn']}) is over.")
    st["turn"] += 1
    st["phase"] = "ring"
    return [Event(public=f"Game-turn {st['turn']} begins.", new_phase=True)] + _begin_turn(rs, st)


def _begin_turn(rs, st) -> list[Event]:
    """The start of a game-turn: All Out War's fixed mobilization, the Ring Phase's conditions."""
    ev = []
    if st["scenario"] == "all-out-war":
        for nation, t in AOW_SCHEDULE.items():
            if t == st["turn"] and st["mobilized"][nation] is None:
                st["mobilized"][nation] = st["turn"]
                ev.append(Event(public=f"All Out War: {nation.title()} mobilizes on turn {t}.", section=S_AOW))
                ev += mobilization._on_mobilized(rs, st, nation)
    st["ring_start"] = aa_ring._ring_phase_conditions(rs, st)
    return ev
