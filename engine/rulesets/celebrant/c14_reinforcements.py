"""14.0 Reinforcements: when and where each arrives (14.1), the Balchoth arrival rolls (14.5), the
Eotheod entering where their chits said (14.6), the Eotheod entry area chosen when the chits leave it
open (14.31, 14.33). The order: ``entry NW|NE|SE``.
"""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.orders import Order
from engine.spi.common import _phrase
from engine.spi.c03_done import DONE
from engine.spi.standard import StandardRules

from .c14_3_chits import ENTRY_14_31, parse_west_chit
from .common import AREAS, SIDE_TITLES
from engine.rulesets.celebrant import c07_combat
from engine.rulesets.celebrant import c13_setup
from engine.rulesets.celebrant import c14_3_chits
from engine.rulesets.celebrant import c19_demoralization
from engine.spi import c02_units
from engine.spi import c03_sequence


# ------------------------------------------------------- reinforcements
def reinforcement_entry(rs, state: State, uid: str) -> list[str] | None:
    army = c02_units.army_of(rs, uid)
    if army == "balchoth":
        t = state["cel"]["balchoth"]
        if t is None or state["turn"] < t:
            return None
        return rs.zones["balchoth"]
    if army == "eotheod":
        e = state["cel"]["eotheod"]
        if not e["arrived"] or not e["area"]:
            return None
        return rs.zones[f"eotheod-{e['area']}"]
    return None


def on_step_start(rs, state: State) -> list[Event]:
    events: list[Event] = []
    if state["step"] == rs.sequence["step"][0]["id"]:
        events += _turn_start(rs, state)
    if state["step"] == "E":
        events += c07_combat._blood_lust_check(rs, state)
    events += c19_demoralization._dem_watch(rs, state)
    return events


def _turn_start(rs, state: State) -> list[Event]:
    events = c13_setup._disarray_roll(rs, state)
    events += _balchoth_roll(rs, state)
    events += c14_3_chits._chit_reveal(rs, state)
    events += _eotheod_arrival(rs, state)
    return events


def _balchoth_roll(rs, state: State) -> list[Event]:
    """14.5: rolls on turns 2-4, automatic on turn 5."""
    cel = state["cel"]
    if cel["balchoth"] is not None:
        return []
    b = rs.raw(state)["balchoth"]
    t = state["turn"]
    if t >= b["automatic"]:
        cel["balchoth"] = t
        return [Event(public=f"Game-Turn {t}: the Balchoth arrive automatically; they may enter on the "
                             "south-eastern edge between the groves this Shadow Movement Phase (14.5).",
                      section="14.5")]
    need = b["rolls"].get(str(t))
    if not need:
        return []
    d = Dice(state["dice"])
    roll = d.d6("Balchoth")
    if roll in need:
        cel["balchoth"] = t
        text = (f"Game-Turn {t}: Shadow rolls {roll} for the Balchoth (needs {_phrase([str(x) for x in need])}): "
                "they arrive and may enter on the south-eastern edge between the groves this turn (14.5).")
    else:
        text = f"Game-Turn {t}: Shadow rolls {roll} for the Balchoth: not yet (14.5)."
    return [Event(public=text, section="14.5", rolls=d.rolls)]


def _eotheod_arrival(rs, state: State) -> list[Event]:
    """14.6: the Eotheod may enter from their turn; 19.11 A: Gondor -10 on Eorl's arrival."""
    e = state["cel"]["eotheod"]
    if e["arrived"] or not e["arrive"] or e["turn"] is None or state["turn"] < e["turn"] or not e["area"]:
        return []
    e["arrived"] = True
    lv = rs.raw(state)["demoralization_levels"]
    got = c19_demoralization._gondor_relief(rs, state, lv.get("gondor_relief_eorl", 10))
    relief = (f"Gondor takes heart: {got} points off its total, now {state['dem']['gondor']} (19.11 A)." if got
              else "Gondor takes heart, but has no demoralization points to lose (19.11 A).")
    return [Event(public=f"Eorl and the Eotheod arrive: they may enter in the {e['area']} area "
                         f"({_phrase(rs.zones['eotheod-' + e['area']])}) from this Westernesse Movement Phase "
                         f"(14.6). {relief}", section="14.6")]

# --- Eotheod entry choice (14.31, 14.33): the answer to the decision ENTRY_14_31 (c14_3_chits.py)
def legal_entry_choice(rs, state: State, seat: str) -> Iterator[Action]:
    """14.31 in a game begun before the choice was queued (``entry_before_done``): its answers among the
    seat's other orders (an entry of Field of Celebrant's ``LEGAL_EXTRA``). The queued decision lists its
    own answers, and nothing else, while it waits (engine/pending.py, StandardRules.legal_actions)."""
    yield from pending.answers_of(rs.decisions, rs, state, c14_3_chits.entry_before_done_waiting(rs, state), seat)


def _parse_entry(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 1 or words[0].upper() not in AREAS:
        raise InvalidOrder("usage: `entry NW`, `entry NE` or `entry SE`")
    return (words[0].upper(),)


def _check_entry(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    rs.seat_check(state, seat)
    e = state["cel"]["eotheod"]
    if e.get("chooser") != seat or e.get("area"):
        raise IllegalOrder("you have no Eotheod entry area to choose", "14.31")


def _apply_entry(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    e = state["cel"]["eotheod"]
    e["area"] = args[0]
    queued = [p for p in state["pending"] if rs.decisions[p["kind"]] is ENTRY_14_31]
    for p in queued:  # the decision answered (none in a game begun before it was queued)
        state["pending"].remove(p)
    events = [Event(public=f"{SIDE_TITLES[seat]} decides: the Eotheod enter in the {e['area']} area "
                           f"(14.31, 14.33).", section="14.31")]
    events += _eotheod_arrival(rs, state)
    events += c19_demoralization._dem_watch(rs, state)
    if queued and not state["pending"] and seat != c03_sequence.phasing(rs, state):
        events.append(Event(section="14.31", new_phase=True))  # back to the phasing side: post and ping
    return events


# ----------------------------------------------------------- sequence
def _check_done(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    """`done` waits for the entry choice of a game begun before it was queued (14.31; the queued decision
    refuses `done` as it refuses any order but its answer: engine/pending.py)."""
    pending.check_done(rs.decisions, rs, state, c14_3_chits.entry_before_done_waiting(rs, state), seat)
    DONE.check(rs, state, seat, args)  # the standard's (3.0, 13.0, 7.31)


def deadline_action(rs, state: State, seat: str) -> Action | None:
    """At a deadline, a side that must choose the Eotheod area (14.31, 14.33)
        and has not gets the area printed on the Westernesse chit, else NW."""
    e = state["cel"]["eotheod"]
    p = pending.blocking(rs.decisions, state["pending"])
    owed = (p is not None and rs.decisions[p["kind"]] is ENTRY_14_31 and p["seat"] == seat) or \
        (not state["pending"] and any(q["seat"] == seat for q in c14_3_chits.entry_before_done_waiting(rs, state)))
    if owed:
        w = parse_west_chit(e["west"]) if e.get("west") else {}
        return Action("entry", (w.get("area") or "NW",))
    return StandardRules.deadline_action(rs, state, seat)


# the orders of this file (engine/orders.py), each naming its functions above
ENTRY = Order("entry", "`entry NW`, `entry NE` or `entry SE`",
              parse=_parse_entry,
              check=_check_entry,
              apply=_apply_entry,
              listed_in=legal_entry_choice,
              cases=("14.31",),
              dice=False)
