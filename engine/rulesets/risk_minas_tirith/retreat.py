"""Retreat (seed:002, Retreat): each 6 rolled by Good (or by Evil with the Lord of the
Nazgul) moves the other force one Territory toward its end of the battlefield or, blocked,
costs a battalion; the owner chooses (`retreat <area> ...`) when more than one path qualifies."""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, AmbiguousOrder, Event, IllegalOrder, State
from engine.rulesets.risk_minas_tirith.common import (
    TITLES, S_ACT, S_RETREAT, _plural,
)
from engine.rulesets.risk_minas_tirith import advance, common, forces, losses, movement, turn


# `retreat`: the paths, the choice, and carrying a retreat out.


def _pending_retreat(state: State) -> dict | None:
    return (state["pending"] or {}).get("retreat")


def deadline_action(rs, state: State, seat: str) -> Action | None:
    """What the bot does for ``seat`` when its deadline passes and `done`
        is not allowed (the `pass` policy): a retreat it was asked to choose
        takes the first legal path (the one that loses fewest battalions)."""
    if _pending_retreat(state) and seat in rs.active_seats(state):
        return next((a for a in rs.legal_actions(state, seat) if a.verb == "retreat"), None)
    return None


def _parse_retreat(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if not 1 <= len(rest) <= 6:
        raise common._usage(rs, "retreat")
    path = [forces._area(rs, x) for x in rest]
    rt = _pending_retreat(state)
    if rt and rt["queue"][0]["side"] == seat:
        opts = rt["queue"][0]["options"]
        m = [o for o in opts if o[:len(path)] == path]
        if len(m) == 1:
            path = list(m[0])  # the first area(s) named a single legal path: the whole of it
        elif len(m) > 1:
            cands = ["retreat " + " ".join(o) for o in m]
            raise AmbiguousOrder(f"`retreat {' '.join(path)}` goes on in more than one way: "
                                 f"{', '.join(f'`{c}`' for c in cands[:6])}", candidates=cands,
                                 section=S_RETREAT)
    return tuple(path)


def _check_retreat_order(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    """The record's check: the retreat path against the retreat pending now."""
    _check_retreat(rs, state, seat, Action("retreat", args), _pending_retreat(state))


def _check_retreat(rs, state: State, seat: str, action: Action, rt: dict | None) -> None:
    """While a retreat waits for its owner nothing else is played (but `losses`);
        otherwise there is no retreat to choose."""
    v, a = action.verb, action.args
    if rt:
        head = rt["queue"][0]
        if seat != head["side"]:
            raise IllegalOrder(f"waiting for {TITLES[head['side']]} to choose where the force in "
                               f"{forces._name(rs, head['area'])} retreats", S_RETREAT)
        if v != "retreat":
            raise IllegalOrder(f"first choose where your force in {forces._name(rs, head['area'])} retreats: "
                               f"{_retreat_choices(rs, head)}", S_RETREAT)
        if list(a) not in head["options"]:
            raise IllegalOrder(f"`retreat {' '.join(a)}` is not a retreat your force may take now; choose "
                               f"{_retreat_choices(rs, head)}", S_RETREAT)
        return
    raise IllegalOrder("no force of yours has to retreat now (you are asked only when more than one "
                       "Territory qualifies)", S_RETREAT)


def _legal_retreat(rs, state: State, seat: str, rt: dict) -> Iterator[Action]:
    if rt["queue"][0]["side"] == seat:
        for path in rt["queue"][0]["options"]:
            yield Action("retreat", tuple(path))


def run_retreats(rs, state: State, queue: list[dict], out: dict, choose=None) -> list[dict]:
    """Carry out the queued retreats in order (Evil's first). A retreat with one
        legal path (or none: a battalion per six) happens at once; where more than one
        path qualifies the owner chooses: with ``choose`` (the odds) it picks, else the
        queue is returned with the choices in ``queue[0]["options"]`` (a pending order)."""
    queue = [dict(q) for q in queue]
    while queue:
        head = queue[0]
        paths = retreat_paths(rs, state, head["side"], head["area"], head["sixes"])
        if len(paths) > 1:
            if choose is None:
                head["options"] = paths
                return queue
            if len({len(p) for p in paths}) > 1:
                out["assumed"] = True  # the choice changes the losses: the odds say what they assume
            path = choose(paths)
        else:
            path = paths[0] if paths else []
        queue.pop(0)
        out["retreats"].append(retreat_along(rs, state, head["side"], head["area"], head["sixes"], path))
    return []


def retreat_paths(rs, state: State, side: str, area: str, steps: int) -> list[list[str]]:
    """Every way the whole force of ``side`` in ``area`` may retreat ``steps`` times
        (seed, Retreat): each step into a bordering Territory closer to its end, not
        enemy-held, that the force may legally enter; a path stops early where no step
        is left (each six not taken costs a battalion). Sorted: fewest battalions lost,
        then own-held Territories first, then by id -- the first is what /odds assumes."""
    dist = rs.board.end_distance[side]
    rec = state["areas"][area]
    g, leaders = dict(rec["u"]), list(rec["leaders"])
    out: list[tuple] = []

    def walk(cur: str, left: int, path: list[str], keys: list[tuple]) -> None:
        nxt = []
        if left:
            here = dist.get(cur, 99)
            for y in rs.board.areas[cur].adj:
                if dist.get(y, 99) >= here:
                    continue
                occ = forces._side_of(state, y)
                if occ is not None and occ != side:
                    continue
                if movement._enter_ok(rs, state, side, cur, y, g, leaders) is not None:
                    continue
                nxt.append((dist.get(y, 99), 0 if occ == side else 1, y))
        if not nxt:
            if path:
                out.append((left, keys, path))
            return
        for k in sorted(nxt):
            walk(k[2], left - 1, path + [k[2]], keys + [k])
    walk(area, steps, [], [])
    return [p for _, _, p in sorted(out)]


def retreat_along(rs, state: State, side: str, area: str, sixes: int, path: list[str]) -> dict:
    """Move the force along ``path`` (a legal retreat); each six left over costs a battalion."""
    cur = area
    for y in path:
        rec = state["areas"][cur]
        g, leaders = dict(rec["u"]), list(rec["leaders"])
        forces._remove(rs, state, cur, g, leaders)
        forces._add(rs, state, y, side, g, leaders)
        movement._move_fired(rs, state, cur, y, g)
        cur = y
    lost = losses._take_losses(rs, state, cur, sixes - len(path)) if sixes > len(path) else {}
    return {"path": [area, *path], "lost": lost, "side": side, "sixes": sixes}


def _retreat_text(rs, rt: dict) -> str:
    who = TITLES[rt["side"]]
    text = ""
    if len(rt["path"]) > 1:
        text += (f" {who} rolled against a 6 ×{rt['sixes']}: the force retreats "
                 f"{' → '.join(forces._name(rs, x) for x in rt['path'])}.")
    if rt["lost"]:
        text += f" Blocked: {who} loses {losses._loss_text(rt['lost'])}."
    return text


def _retreat_choices(rs, head: dict) -> str:
    parts = []
    for o in head["options"][:6]:
        left = head["sixes"] - len(o)
        parts.append(f"`retreat {' '.join(o)}`" + (f" (then blocked: loses {left})" if left else ""))
    more = len(head["options"]) - 6
    return " or ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _ask_retreat(rs, state: State, queue: list[dict], battle: dict) -> Event:
    """Wait for the owner of the retreating force (like a Standard Rules retreat):
        post the map and ping that seat."""
    head = queue[0]
    state["pending"] = pending.new(CHOOSE_PATH, head["side"], retreat={"queue": queue, "battle": battle})
    return Event(public=f"{TITLES[head['side']]} must choose where the force in {forces._name(rs, head['area'])} "
                        f"retreats ({head['sixes']} × 6, one Territory toward its end for each): "
                        f"{_retreat_choices(rs, head)}.", section=S_RETREAT, new_phase=True)


def _do_retreat(rs, state, seat, a, dice):
    rt = state["pending"]["retreat"]
    head, battle = rt["queue"][0], rt["battle"]
    done = retreat_along(rs, state, head["side"], head["area"], head["sixes"], list(a))
    out = {"retreats": [], "assumed": False}
    rest = run_retreats(rs, state, rt["queue"][1:], out, None)
    text = f"{TITLES[seat]} chooses the retreat." + _retreat_text(rs, done)
    for r in out["retreats"]:
        text += _retreat_text(rs, r)
    events = [Event(public=text, section=S_RETREAT)]
    state["pending"] = None
    if turn._finish_if_won(rs, state, events):
        return events
    if rest:
        events.append(_ask_retreat(rs, state, rest, battle))
        return events
    advance._after_battle(rs, state, battle, dice, events)
    if not state["over"] and not battle["turn_ends"] and state["actions"] <= 0 and not state["pending"] \
            and state["phase"] == "actions":
        # the retreat was the last thing the turn waited for (no Action point left): that turn is over
        events.append(Event(public=f"{TITLES[state['active']]} has used every Action point.", section=S_ACT))
        events.extend(turn._end_turn(rs, state, dice))
    if not any(e.new_phase for e in events):
        events.append(Event(public=f"Back to {TITLES[state['active']]}: "
                                   f"{_plural(state['actions'], 'Action point')} left.", section=S_ACT,
                            new_phase=True))  # the turn's owner acts again: post the map and ping
    return events


# the pending decision (engine/pending.py): the owner of the force at the head of the queue chooses its path
def _legal_paths(rs, state: State, p: dict) -> Iterator[Action]:
    for path in p["retreat"]["queue"][0]["options"]:
        yield Action("retreat", tuple(path))


def _awaited_path(rs, state: State, p: dict) -> str:
    return f"choose where the force in {forces._name(rs, p['retreat']['queue'][0]['area'])} retreats"


def _first_path(rs, state: State, p: dict) -> str:
    head = p["retreat"]["queue"][0]
    return f"first choose where your force in {forces._name(rs, head['area'])} retreats: {_retreat_choices(rs, head)}"


CHOOSE_PATH = pending.Decision("retreat", S_RETREAT, answers=("retreat",), legal=_legal_paths,
                               awaited=_awaited_path, first=_first_path)
