"""19.0 Demoralization: each army's value of its units (9.12 as printed), the four levels (19.1), Gondor's
relief when the Eotheod arrive (19.11), the graded victory at the end (12.0, 20.x), lower totals win.
"""
from __future__ import annotations

from engine.core import Event, State
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules

from .common import ARMIES, SEATS, SIDE_TITLES
from engine.spi import c02_units


def unit_dem_value(rs, state: State, uid: str) -> int:
    """9.12 (Replace): the value printed on the counter."""
    u = rs.units[uid]
    return u.dem if u.dem is not None else StandardRules.hooks.unit_dem_value(rs, state, uid)


# --------------------------------------------------------- demoralization
def dem_level(rs, state: State, army: str) -> int | None:
    return rs.raw(state)["demoralization_levels"].get(army)


def demoralized(rs, state: State, army: str) -> bool:
    """19.0: an army is demoralized when its points exceed its level."""
    lvl = rs.hooks.dem_level(rs, state, army)
    return lvl is not None and rs.hooks.dem_total(rs, state, army) > lvl


def _gondor_relief(rs, state: State, points: int) -> int:
    """19.11: subtract from Gondor's total; never below 0 (the excess is lost)."""
    before = state["dem"].get("gondor", 0)
    state["dem"]["gondor"] = max(0, before - points)
    return before - state["dem"]["gondor"]


def _dem_watch(rs, state: State) -> list[Event]:
    """Announce each army that becomes (or, Gondor only, stops being)
        demoralized; 19.11 B: Gondor -5 for each Shadow army demoralized."""
    events: list[Event] = []
    names = rs.raw(state)["armies"]
    seen = state["cel"]["demoralized"]
    lv = rs.raw(state)["demoralization_levels"]
    for _ in range(3):  # a relief can change Gondor's state in turn
        changed = False
        for army in names:
            now = rs.hooks.demoralized(rs, state, army)
            if now == seen.get(army, False):
                continue
            seen[army] = now
            changed = True
            if now:
                text = (f"{names[army][:1].upper()}{names[army][1:]} are demoralized: {rs.hooks.dem_total(rs, state, army)} "
                        f"points, over their level of {rs.hooks.dem_level(rs, state, army)} (19.1).")
                if army in ARMIES["shadow"]:
                    got = _gondor_relief(rs, state, lv.get("gondor_relief_per_shadow_army", 5))
                    text += (f" Gondor takes heart: {got} points off its total, now {state['dem']['gondor']} "
                             "(19.11 B)." if got else " Gondor takes heart (19.11 B; no points to lose).")
                events.append(Event(public=text, section="19.1"))
            else:
                events.append(Event(public=f"{names[army]} are no longer demoralized: {rs.hooks.dem_total(rs, state, army)} "
                                           f"points of {rs.hooks.dem_level(rs, state, army)} (19.11).", section="19.11"))
        if not changed:
            break
    return events


def _grade(rs, state: State, why: str, section: str) -> dict:
    """20.1-20.4: decisive, tactical, marginal or a draw."""
    names = rs.raw(state)["armies"]
    wd = [a for a in ARMIES["westernesse"] if rs.hooks.demoralized(rs, state, a)]
    sd = [a for a in ARMIES["shadow"] if rs.hooks.demoralized(rs, state, a)]
    wt = sum(rs.hooks.dem_total(rs, state, a) for a in ARMIES["westernesse"])
    st = sum(rs.hooks.dem_total(rs, state, a) for a in ARMIES["shadow"])
    dem = [names[a] for a in wd + sd]
    head = f"{why} Demoralized: {_phrase(dem) if dem else 'no army'}."
    winner, grade, sec = None, "a draw", "20.4"
    if len(sd) == 2 and not wd:
        winner, grade, sec = "westernesse", "a Decisive Victory", "20.1"
    elif len(wd) == 2 and not sd:
        winner, grade, sec = "shadow", "a Decisive Victory", "20.1"
    elif len(sd) == 2 and len(wd) == 1:
        winner, grade, sec = "westernesse", "a Tactical Victory", "20.2"
    elif len(wd) == 2 and len(sd) == 1:
        winner, grade, sec = "shadow", "a Tactical Victory", "20.2"
    elif len(wd) == len(sd):
        sec = "20.3"
        if wt < st:
            winner, grade = "westernesse", "a Marginal Victory"
        elif st < wt:
            winner, grade = "shadow", "a Marginal Victory"
        else:
            sec = "20.4"
    own = {"westernesse": (wt, st, wd, sd), "shadow": (st, wt, sd, wd)}
    score = (f"demoralization points Westernesse {wt}, Shadow {st}: the lower total is the better")
    if winner:
        mine, theirs, my_dem, their_dem = own[winner]
        loser = SIDE_TITLES[c02_units.enemy(rs, winner)]
        if sec == "20.3":
            n = {0: "no army", 1: "one army", 2: "both armies"}[len(my_dem)]
            why_won = f"{n} demoralized on each side, and demoralization {mine} against {theirs}: the lower wins"
        elif sec == "20.1":
            why_won = f"both {loser} armies demoralized, none of its own"
        else:
            why_won = f"both {loser} armies demoralized, one of its own"
        text = f"{head} {SIDE_TITLES[winner]} wins {grade} ({sec}): {why_won}."
    else:
        text = f"{head} The battle is a draw ({sec}): {score}."
    return {"winner": winner, "summary": text, "section": sec, "grade": grade}


def end_of_turn(rs, state: State) -> list[Event]:
    """20.0 (ruling): the battle also ends at the end of any Game-Turn in
        which both armies of one side are demoralized."""
    for seat in SEATS:
        if all(rs.hooks.demoralized(rs, state, a) for a in ARMIES[seat]):
            v = _grade(rs, state, f"Game-Turn {state['turn']} ends with both {SIDE_TITLES[seat]} armies "
                                   "demoralized (20.0).", "20.0")
            state["over"] = v
            return [Event(public=v["summary"], section=v["section"], new_phase=True)]
    return []


def result_line(rs, state: State, over: dict) -> str:
    w, sec = over.get("winner"), over.get("section")
    if not w:
        return f"A draw ({sec})"
    return f"{SIDE_TITLES[w]} wins {over.get('grade') or ''} ({sec})".replace("  ", " ")


def final_result(rs, state: State) -> dict:
    return _grade(rs, state, "The eighteen Game-Turns are over (12.0).", "12.0")
