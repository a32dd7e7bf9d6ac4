"""14.3 The Eotheod reinforcement chits: each side draws one in secret at the end of the set-up,
Westernesse's names a turn and an area, Shadow's a delay and perhaps a shift (14.4); they are revealed
when the turn comes (14.31), and until then only their owner (and a moderator) knows them.
"""
from __future__ import annotations

import re
from typing import Iterator

from engine import pending
from engine.core import Action, Event, State
from engine.dice import Dice
from engine.spi.standard import StandardRules

from .common import AREAS, SEATS, SIDE_TITLES


_W_CHIT = re.compile(r"^(\d+) (NW|NE|SE)(?: \(-(\d)\))?( golden)?$")
_S_CHIT = re.compile(r"^(?:\+(\d+)|0)( shift)?$")


def parse_west_chit(text: str) -> dict:
    """``"7 NW (-1)"`` -> turn 7, area NW, modifier 1; ``"6 SE golden"``; ``"Chance"`` (14.31, 14.32)."""
    t = str(text).strip()
    if t.lower() == "chance":
        return {"text": "Chance", "chance": True}
    m = _W_CHIT.match(t)
    if not m:
        raise ValueError(f"`{t}` is not a Westernesse chit (like `6 NE`, `7 NW (-1)`, `6 SE golden`, `Chance`)")
    return {"text": t, "turn": int(m.group(1)), "area": m.group(2), "mod": int(m.group(3) or 0),
            "golden": bool(m.group(4))}


def parse_shadow_chit(text: str) -> dict:
    """``"+1 shift"`` -> delay 1 with a shift; ``"0"``; ``"Eye of Sauron"`` (14.33, 14.4)."""
    t = str(text).strip()
    if t.lower() == "eye of sauron":
        return {"text": "Eye of Sauron", "eye": True}
    m = _S_CHIT.match(t)
    if not m:
        raise ValueError(f"`{t}` is not a Shadow chit (like `0`, `+1`, `+2 shift`, `Eye of Sauron`)")
    return {"text": t, "delay": int(m.group(1) or 0), "shift": bool(m.group(2))}


def shift_area(area: str, clockwise: bool, order: list[str]) -> str:
    """14.4: one area clockwise (the next in ``order``, cyclic) or counterclockwise."""
    i = order.index(area)
    return order[(i + (1 if clockwise else -1)) % len(order)]


def resolve_chits(west: str, shadow: str, ch: dict, roll=None) -> dict:
    """Resolve the two revealed chits (14.31-14.4) exactly as written. ``roll``
    gives the die when one is needed (Chance, Eye of Sauron, shift). Returns
    {"turn", "area" (None: someone chooses), "chooser", "arrive", "lines"}."""
    w, s = parse_west_chit(west), parse_shadow_chit(shadow)
    order = list(ch["clockwise"])
    lines: list[str] = []
    if w.get("chance"):
        r = roll("Chance")
        who = ch["chance"][str(r)]
        lines.append(f"Chance: die {r} (14.31); the Shadow chit is ignored")
        if who == "none":
            return {"turn": None, "area": None, "chooser": None, "arrive": False,
                    "lines": lines + ["the Eotheod do not arrive"]}
        return {"turn": int(ch.get("chance_turn", 7)), "area": None, "chooser": who, "arrive": True,
                "lines": lines + [f"{SIDE_TITLES[who]} decides where they enter"]}
    if w["golden"]:
        lines.append("the golden chit cancels the Shadow chit (14.32)")
        return {"turn": w["turn"], "area": w["area"], "chooser": None, "arrive": True, "lines": lines}
    if s.get("eye"):
        r = roll("Eye of Sauron")
        who = ch["eye"][str(r)]
        lines.append(f"Eye of Sauron: die {r} (14.33)")
        if who == "none":
            return {"turn": None, "area": None, "chooser": None, "arrive": False,
                    "lines": lines + ["the Eotheod do not arrive"]}
        return {"turn": w["turn"], "area": None, "chooser": who, "arrive": True,
                "lines": lines + [f"{SIDE_TITLES[who]} decides where they enter"]}
    delay = max(s["delay"] - w["mod"], 0)
    if s["delay"]:
        lines.append(f"delay +{s['delay']}" + (f", less {w['mod']} (14.31)" if w["mod"] else "") + f": +{delay}")
    area = w["area"]
    if s["shift"]:
        r = roll("shift")
        cw = r in ch.get("shift_clockwise", [1, 2, 3])
        new = shift_area(area, cw, order)
        lines.append(f"shift: die {r}, {'clockwise' if cw else 'counterclockwise'}, {area} to {new} (14.4)")
        area = new
    return {"turn": w["turn"] + delay, "area": area, "chooser": None, "arrive": True, "lines": lines}


@staticmethod
def _check_chit_tables(raw: dict) -> None:
    c = raw["chits"]
    if not c.get("westernesse") or not c.get("shadow"):
        raise ValueError("[chits] needs non-empty `westernesse` and `shadow` lists")
    for t in c["westernesse"]:
        w = parse_west_chit(t)
        if not w.get("chance") and not 1 <= w["turn"] <= 18:
            raise ValueError(f"[chits] `{t}`: the turn must be a Game-Turn, 1 to 18")
    for t in c["shadow"]:
        parse_shadow_chit(t)
    if not isinstance(c.get("chance_turn"), int) or not 1 <= c["chance_turn"] <= 18:
        raise ValueError("[chits] chance_turn must be a Game-Turn, 1 to 18")
    if not isinstance(c.get("shift_clockwise"), list) or not all(
            isinstance(x, int) and 1 <= x <= 6 for x in c["shift_clockwise"]):
        raise ValueError("[chits] shift_clockwise lists die rolls, 1 to 6")
    if sorted(c["clockwise"]) != sorted(AREAS):
        raise ValueError("[chits] clockwise must list NW, NE and SE once each")
    for key in ("chance", "eye"):
        if sorted(c[key]) != [str(i) for i in range(1, 7)] or \
                not set(c[key].values()) <= {"shadow", "westernesse", "none"}:
            raise ValueError(f"[chits] {key} maps each die roll 1-6 to shadow, westernesse or none")


def on_setup_step_end(rs, state: State) -> list[Event]:
    events = StandardRules.hooks.on_setup_step_end(rs, state)
    if state["step"] == rs.step_order[len(rs.sequence["setup"]) - 1]:
        events.append(_draw_chits(rs, state))  # 14.3: after the initial units are placed
    return events


def _draw_chits(rs, state: State) -> Event:
    """14.3: after set-up each side draws one chit from its own pool, face down."""
    c = rs.raw(state)["chits"]
    d = Dice(state["dice"])
    wi = d.randint(0, len(c["westernesse"]) - 1, "Westernesse chit")
    si = d.randint(0, len(c["shadow"]) - 1, "Shadow chit")
    fixed = state["hidden"].get("fixture_chits") or {}
    chits = {"westernesse": fixed.get("westernesse", c["westernesse"][wi]),
             "shadow": fixed.get("shadow", c["shadow"][si])}
    state["hidden"]["chits"] = chits
    # d.rolls stay out of the event: the draw is secret (the counter moves the same whatever is drawn)
    return Event(public="Each side draws one Eotheod reinforcement chit from its own pool and keeps it face "
                        "down in the holding box; each player sees only their own (14.3).",
                 private={s: f"Your Eotheod chit is **{chits[s]}** (14.3). {_chit_hint(rs, state, s)}"
                          for s in SEATS}, section="14.3", reveals=True)


def _chit_hint(rs, state: State, seat: str) -> str:
    text = state["hidden"]["chits"][seat]
    if seat == "westernesse":
        w = parse_west_chit(text)
        turn = rs.raw(state)["chits"].get("chance_turn", 7) if w.get("chance") else w["turn"]
        return f"It is revealed at the start of Game-Turn {turn}, then the Shadow chit (14.3)."
    return "It is revealed right after the Westernesse chit (14.3)."


def _reveal_turn(rs, state: State) -> int | None:
    chits = state["hidden"].get("chits")
    if not chits:
        return None
    w = parse_west_chit(chits["westernesse"])
    return int(rs.raw(state)["chits"].get("chance_turn", 7)) if w.get("chance") else w["turn"]


def _chit_reveal(rs, state: State) -> list[Event]:
    """14.3-14.4: the Westernesse chit is revealed on its turn, then the Shadow chit; resolved as written."""
    e = state["cel"]["eotheod"]
    if e["revealed"] or _reveal_turn(rs, state) is None or state["turn"] < _reveal_turn(rs, state):
        return []
    chits = state["hidden"]["chits"]
    d = Dice(state["dice"])
    out = resolve_chits(chits["westernesse"], chits["shadow"], rs.raw(state)["chits"],
                        roll=lambda label: d.d6(label))
    e.update(revealed=True, west=chits["westernesse"], shadow=chits["shadow"], turn=out["turn"],
             area=out["area"], chooser=out["chooser"], arrive=out["arrive"])
    if out["chooser"] and not state["cel"].get("entry_before_done"):  # 3.0 A.1: decided as the chits resolve
        state["pending"].append(pending.new(ENTRY_14_31, out["chooser"]))
    where = ""
    if out["arrive"]:
        where = (f" The Eotheod enter on Game-Turn {out['turn']}" +
                 (f" in the {out['area']} area" if out["area"] else "") + ".")
        if out["chooser"]:
            where += f" {SIDE_TITLES[out['chooser']]} chooses the area: `entry NW|NE|SE` (14.31, 14.33)."
    text = (f"Game-Turn {state['turn']}: Westernesse reveals its Eotheod chit, **{chits['westernesse']}** "
            f"(14.31); Shadow reveals **{chits['shadow']}** (14.33). "
            + ("; ".join(out["lines"]) + "." if out["lines"] else "") + where)
    return [Event(public=text.replace("..", "."), section="14.3", rolls=d.rolls, reveals=True)]


# --- the entry area to choose, a pending decision (engine/pending.py) ------------------------------------
# When the chits leave the area open (Chance, 14.31; Eye of Sauron, 14.33), "X player decides where they
# enter" as the chits are resolved: the Reinforcement Phase checks reinforcements and reveals the chits
# (3.0 A.1) before any special ability is used (A.2, A.3), so the choosing side answers at once, before
# play goes on (whichever side's phase it is): a decision queued in ``state["pending"]`` like a 7.5
# retreat, answered by ``entry NW|NE|SE`` (c14_reinforcements.py).
def _entry_answers(rs, state: State, p: dict) -> Iterator[Action]:
    for a in AREAS:
        yield Action("entry", (a,))


def _entry_awaited(rs, state: State, p: dict) -> str:
    return "choose where the Eotheod enter"


def _entry_first(rs, state: State, p: dict) -> str:
    return "first choose where the Eotheod enter: `entry NW`, `entry NE` or `entry SE`"


ENTRY_14_31 = pending.Decision("entry", "14.31", ("entry",), legal=_entry_answers, awaited=_entry_awaited,
                               first=_entry_first)


# A game begun before the choice was made at once (state version 1, ``cel["entry_before_done"]``, set by
# ``upgrade_state``) keeps the rule it was played under, so that its log replays as it was played: the
# choosing side answers among its other orders in its own next phase, before it is done. That decision is
# read from ``cel["eotheod"]`` (nothing is queued for it).
def _entry_before_done_answers(rs, state: State, p: dict) -> Iterator[Action]:
    if p["seat"] in rs.active_seats(state) and not state["pending"]:
        yield from _entry_answers(rs, state, p)


ENTRY_14_31_BEFORE_DONE = pending.Decision("entry-before-done", "14.31", ("entry",),
                                           legal=_entry_before_done_answers, awaited=_entry_awaited,
                                           first=_entry_first, offer=True, before_done=True)


def entry_before_done_waiting(rs, state: State) -> list[dict]:
    """The entry choice of a game begun before it was a queued decision, if it waits (see above)."""
    e = state["cel"]["eotheod"]
    if state["cel"].get("entry_before_done") and e.get("chooser") and not e.get("area"):
        return [pending.new(ENTRY_14_31_BEFORE_DONE, e["chooser"])]
    return []
