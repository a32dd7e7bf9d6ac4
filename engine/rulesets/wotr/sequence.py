"""Sequence of Play (seed:001, "Sequence of Play" 1 and 2, on the base game's D.1-D.6, facts.md 6):
each game-turn has a Ring Phase (every seat at once, each `done`), an Events Phase (each seat in turn
draws, in the order of draw: four-player Saruman-Fellowship-Gondor-Dark Power, five-player
Saruman-Fellowship-Rohan-Gondor-Dark Power), a Search Phase (each seat with Nazgul to search) and the
player turns in that same order; then the turn ends (the continuous victory conditions are checked at
the end of every player turn)."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import AOW_SCHEDULE, S_AOW, S_SEQ, order, refuse, title

PHASES = ("ring", "events", "search", "turn")
PHASE_TITLES = {"ring": "Ring Phase", "events": "Events Phase", "search": "Search Phase", "turn": "player turn"}


def _seat_order(self, st) -> tuple[str, ...]:
    return order(st)


def _acting_order(self, st) -> list[str]:
    """The order without a seat that has nothing to do: Gondor once eliminated in the five-player game
        (DD.1; in the four-player game its seat still moves Rohan's units)."""
    return [s for s in order(st) if not (s == "gondor" and st["gondor_out"] and st["players"] == 5)]


def active_seats(self, st):
    if st["over"]:
        return []
    ph = st["phase"]
    if ph == "ring":
        return [s for s in self._acting_order(st) if s not in st["done"]]
    if ph == "search":
        return [s for s in self._searchers(st) if s not in st["done"]]
    seq = self._acting_order(st)
    return [seq[st["at"]]] if st["at"] < len(seq) else []


def _turn_of(self, st, seat, what="that") -> None:
    if st["phase"] != "turn" or seat not in self.active_seats(st):
        raise refuse(f"{what} is done in your own player turn; now: {self._phase_title(st)}", S_SEQ)


def _phase_title(self, st) -> str:
    if st["over"]:
        return "The game is over"
    ph = st["phase"]
    act = self.active_seats(st)
    if ph in ("events", "turn") and act:
        what = "draws an Event Card" if ph == "events" else "player turn"
        return f"Turn {st['turn']}: {PHASE_TITLES[ph]}, {title(act[0])} {what}"
    return f"Turn {st['turn']}: {PHASE_TITLES[ph]}"


# ------------------------------------------------------------------ done
def _p_done(self, st, seat, w):
    if w:
        raise self._usage("done")
    if seat not in self.active_seats(st):
        raise refuse(f"nothing awaits {title(seat)} now ({self._phase_title(st)})", S_SEQ)
    return ()


def _a_done(self, st, seat, args, dice):
    ph = st["phase"]
    ev = []
    if ph in ("ring", "search"):
        st["done"].append(seat)
        ev.append(Event(public=f"{title(seat)} is done with the {PHASE_TITLES[ph]}."))
        if not self.active_seats(st):
            ev += self._next_phase(st)
        return ev
    ev.append(Event(public=f"{title(seat)} ends its {PHASE_TITLES[ph]}."))
    if ph == "turn":
        ev += self._end_player_turn(st, seat)
    st["at"] += 1
    if st["at"] >= len(self._acting_order(st)):
        ev += self._next_phase(st)
    elif ph == "turn":
        ev += self._begin_player_turn(st, self.active_seats(st)[0])
    return ev


def _next_phase(self, st) -> list[Event]:
    ph = st["phase"]
    st["done"] = []
    st["at"] = 0
    if ph == "ring":
        st["phase"] = "events"
    elif ph == "events":
        st["phase"] = "search"
        if not self.active_seats(st):
            return self._next_phase(st)
    elif ph == "search":
        st["phase"] = "turn"
        st["searched"] = []
        return [Event(public=self._phase_title(st), new_phase=True)] + \
            self._begin_player_turn(st, self.active_seats(st)[0])
    else:
        ev = self._end_turn(st)
        if st["over"]:
            return ev
        return ev
    return [Event(public=self._phase_title(st), new_phase=True)]


def _begin_player_turn(self, st, seat) -> list[Event]:
    st["commands"] = {k: v for k, v in st["commands"].items() if not k.startswith(seat + ":")}
    if seat == "fellowship":  # what the Fellowship passes through is counted from its new turn
        for c in st["chars"].values():
            c["path"] = []
    return []


def _end_turn(self, st) -> list[Event]:
    if st["turn"] >= st["last_turn"]:
        return self._finish(st, f"The last game-turn ({st['last_turn']}) is over.")
    st["turn"] += 1
    st["phase"] = "ring"
    return [Event(public=f"Game-turn {st['turn']} begins.", new_phase=True)] + self._begin_turn(st)


def _begin_turn(self, st) -> list[Event]:
    """The start of a game-turn: All Out War's fixed mobilization, the Ring Phase's conditions."""
    ev = []
    if st["scenario"] == "all-out-war":
        for nation, t in AOW_SCHEDULE.items():
            if t == st["turn"] and st["mobilized"][nation] is None:
                st["mobilized"][nation] = st["turn"]
                ev.append(Event(public=f"All Out War: {nation.title()} mobilizes on turn {t}.", section=S_AOW))
                ev += self._on_mobilized(st, nation)
    st["ring_start"] = self._ring_phase_conditions(st)
    return ev
