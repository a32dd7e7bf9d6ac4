"""4.0 Movement: a unit's or a stack's move along the cheapest legal path (or the hexes typed),
its Movement Allowance, terrain costs and roads, why a hex cannot be reached; 8.52 magic leaders
move in the magic phases. The order: ``move <unit> [<unit>...] [<hex>...] <hex>``.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, OrderError, State
from engine.dice import Dice
from engine.hexgrid import Hex, cheapest_path, reachable
from engine.spi.common import _HEX, MAX_ORDER_LEN, _phrase
from engine.orders import Order
from engine.spi import c05_stacking
from engine.spi import c06_zoc
from engine.spi import c08_4_formations
from engine.spi import c08_5_magic
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import common



def _mover_kind(rs, state: State, seat: str, uid: str) -> str | None:
    """Which phase kind lets ``uid`` move: magic leaders in magic phases
        (8.52); leaders in a rally phase that allows them a move (FoC 8.38)."""
    if rs.units[uid].is_leader and c03_sequence.kind(rs, state) == "rally" and c03_sequence.step(rs, state).get("leader_moves"):
        return "rally"
    return "magic" if c08_5_magic.is_magic_leader(rs, uid) else "move"


def _stack_of(rs, state: State, uids: tuple[str, ...]) -> list[str]:
    """Formation members move together (8.4)."""
    out = list(uids)
    for uid in uids:
        f = c08_4_formations.formation_of(rs, state, uid)
        if f:
            for m in state["formations"][f]["units"]:
                if m not in out:
                    out.append(m)
    return out


def _complete_move(rs, state: State, seat: str, action: Action) -> Action:
    """Formation members move together (8.4); a leading start hex is dropped.
        A single hex means "the cheapest legal path there", found again when
        the order is checked and applied (deterministic), so the order text
        round-trips as typed."""
    uids = [a for a in action.args if not _HEX.match(a)]
    hexes = [a for a in action.args if _HEX.match(a)]
    uids = _stack_of(rs, state, tuple(uids))
    start = state["units"][uids[0]]["hex"]
    if len(hexes) > 1 and start is not None and hexes[0] == start:
        hexes = hexes[1:]
    return Action("move", (*uids, *hexes))


def _with_path(rs, state: State, seat: str, action: Action) -> Action:
    """A checked move as the log keeps it: its units and the whole path its check found, so that a
        replay (export, verify, undo, a restart) validates that path step by step instead of searching
        for it again. The destination alone where the whole would pass the length of an order."""
    checked = action.memo.get("move")
    if not checked:
        return action
    uids = [a for a in action.args if not _HEX.match(a)]
    full = Action("move", (*uids, *checked[1]), memo=action.memo)
    if full.args == action.args or len(str(full)) > MAX_ORDER_LEN:
        return action
    action.memo["move"] = (_move_key(rs, state, seat, full.args), checked[1], checked[2])
    return full


def _move_path(rs, state: State, seat: str, uids: list[str], hexes: list[str], graph=None) -> list[str]:
    if len(hexes) == 1:
        path = _find_path(rs, state, seat, uids, hexes[0], graph)
        if path is None:
            why = rs.hooks._why_unreachable(rs, state, seat, uids, hexes[0])
            raise IllegalOrder(why, rs.hooks._why_section(rs, state, seat, hexes[0], why))
        return path
    return hexes


def _check_movers(rs, state: State, seat: str, uids: list[str]) -> None:
    rs.seat_check(state, seat)
    start = None
    for uid in uids:
        u = rs.units[uid]
        if hooks.side_of(rs, state, uid) != seat:
            raise IllegalOrder(f"{uid} is not yours")
        r = state["units"][uid]
        if r["status"] == "reinforcement":
            if rs.hooks.reinforcement_entry(rs, state, uid) is None:
                raise IllegalOrder(f"{uid} is a reinforcement that may not enter now", u.section)
        elif r["status"] != "map":
            raise IllegalOrder(f"{uid} is not on the map ({r['status']})")
        if start is None:
            start = r["hex"]
        elif r["hex"] != start:
            raise IllegalOrder("units that move together must start in the same hex", "4.0")
        want = _mover_kind(rs, state, seat, uid)
        if c03_sequence.kind(rs, state) != want:
            if want == "magic":
                raise IllegalOrder(f"{uid} is a magic leader: it moves only in the Magic Leader phases", "8.52")
            raise IllegalOrder(f"{uid} moves only in your Movement Phase; now: {c03_sequence.step(rs, state)['title']}", "4.0")
        if uid in state["ph"]["moved"]:
            raise IllegalOrder(f"{uid} has already moved this phase", "4.0")
        if uid in state["ph"]["cast"]:
            raise IllegalOrder(f"{uid} cast or tried a spell this phase and may not move", "8.52")
        if uid in state["ph"]["rally_tries"]:
            raise IllegalOrder(f"{uid} has begun rallying: a leader moves before its rally attempts", "8.38")
        frozen = next((e for e in state["effects"] if e.get("frozen") and uid in e["frozen"]), None)
        if u.is_leader and frozen:
            raise IllegalOrder(f"{uid} is frozen by {frozen['title']} and may not move", frozen.get("section"))
        if u.movement == 0:  # a fixed piece (Gondor's cauldrons: 16.71), placed at set-up and never moved
            raise IllegalOrder(f"{uid} may not move after deployment", u.section)
        if u.is_siege and not any(rs.units[x].is_combat for x in uids):
            raise IllegalOrder(f"{uid} is siege equipment: it moves only with a combat unit stacked with it", "16.11")
        f = c08_4_formations.formation_of(rs, state, uid)
        if f and rs.hooks._formed_this_turn(rs, state, f) and state["formations"][f]["kind"] == "wedge" \
                and rs.charts_for(state)["formations"].get("wedge_waits", True):
            raise IllegalOrder("a Wedge may not move on the turn it forms", "8.4")
    rs.hooks.check_stack_move(rs, state, seat, uids)


def _movers_ma(rs, state: State, uids: list[str]) -> float:
    return min(hooks.movement_allowance(rs, state, u) for u in uids)


def _terrain_costs(rs, state: State, cav: bool) -> dict[Hex, float | None]:
    """Hex -> MP to enter (None: impassable), from the TEC; cached per chart set."""
    ch = rs.charts_for(state)
    key = (id(ch), cav)
    cache = rs.__dict__.setdefault("_tc_cache", {})
    if key not in cache or cache[key][0] is not ch:  # an id can be reused once a chart set is dropped
        tec = ch["tec"]
        out: dict[Hex, float | None] = {}
        for h, info in rs.hexmap.hexes.items():
            t = tec.get(info.terrain, {"cost": 1})
            closed = not t.get("passable", True) or (cav and t.get("cavalry_passable", True) is False)
            out[h] = None if closed else (t.get("cavalry_cost", t["cost"]) if cav else t["cost"])
        cache[key] = (ch, out)
    return cache[key][1]


@cached_property
def _road_hexes(rs) -> frozenset[Hex]:
    return frozenset(h for h, i in rs.hexmap.hexes.items() if i.road)


def _step_cost_fn(rs, state: State, seat: str, uids: list[str], start: Hex | None, occ, zones=None):
    """A step's cost for ``uids`` (None: the step is not allowed), and the hexes in the enemies' zones of
    control; ``zones``: :func:`c06_zoc.enemy_hexes` of this position and seat, when the caller has it (every
    stack's moves of one position share it: worked out once, not once a stack)."""
    ch = rs.charts_for(state)
    tec = ch["tec"]
    enemy_zoc, enemy_combat, enemy_leaders = zones or c06_zoc.enemy_hexes(rs, state, seat, occ)
    fire_extra = tec.get("fire_extra", 3)
    fires = {Hex.parse(m["hex"]) for m in state["markers"] if m.get("type") == "fire" and m.get("hex")}
    cav = any(rs.units[u].is_mounted for u in uids)
    disrupted = any(state["units"][u].get("disrupted") for u in uids)
    ma = _movers_ma(rs, state, uids)
    no_zoc_entry = disrupted and not ch["disrupted"].get("may_enter_zoc", True)
    zoc_to_zoc = ch["zoc"].get("zoc_to_zoc", False)
    terrain = _terrain_costs(rs, state, cav)
    roads = rs._road_hexes
    road_cost = tec.get("road_cost")
    sides = rs.hexmap.side_index
    # enemy combat units block; so do enemy leaders alone (4.27), unless a ruleset lets these movers in
    blocked = enemy_combat | enemy_leaders if not rs.hooks.may_enter_enemy_leaders(rs, state, uids) else set(enemy_combat)
    blocked |= rs.hooks.extra_blocked(rs, state, seat, uids)

    def cost(a: Hex, b: Hex) -> float | None:
        c = terrain.get(b)
        if c is None or b in blocked:
            return None
        if no_zoc_entry and b in enemy_zoc:
            return None
        if a == b:  # entering the map from off the edge (14.0)
            return c + (fire_extra if b in fires else 0)
        if start is not None and a != start and a in enemy_zoc:
            return None  # entering a ZOC ended the move
        if a == start and not zoc_to_zoc and a in enemy_zoc and b in enemy_zoc:
            return None
        side = 0
        if (a, b) in sides:
            side = rs.hooks.hexside_rule(rs, state, uids, a, b)
            if side is None:
                return None
            if side == "all":
                if a != start or b in enemy_zoc:
                    return None
                return float(ma)
        elif road_cost is not None and a in roads and b in roads:
            c = min(c, road_cost)
        if b in fires:
            c += fire_extra
        return c + side

    return cost, enemy_zoc


def _move_graph(rs, state: State, seat: str, uids: list[str], occ=None, zones=None):
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    start_s = state["units"][uids[0]]["hex"]
    start = Hex.parse(start_s) if start_s else None
    cost, enemy_zoc = _step_cost_fn(rs, state, seat, uids, start, occ, zones)
    ma = _movers_ma(rs, state, uids)
    starts = None
    if start is None:  # a reinforcement: enter in a chain (14.0)
        starts = {}
        for hx in rs.hooks.reinforcement_entry(rs, state, uids[0]) or []:
            h = Hex.parse(hx)
            c = cost(h, h) if h in rs.hexmap else None
            if c is None:
                continue
            c += state["ph"]["entered"].get(hx, 0)
            if c <= ma:
                starts[h] = c

    def expand(h: Hex) -> bool:
        return h not in enemy_zoc

    return start, starts, cost, expand, ma, enemy_zoc


def _reach(rs, state: State, seat: str, uids: list[str], occ=None, zones=None) -> dict[Hex, float]:
    start, starts, cost, expand, ma, zoc = _move_graph(rs, state, seat, uids, occ, zones)
    if start is None and not starts:
        return {}
    # a step that costs "all" is priced at the whole allowance, so the move ends there
    return reachable(start, cost, ma, expand=expand, starts=starts)


def _find_path(rs, state: State, seat: str, uids: list[str], dest: str, graph=None) -> list[str] | None:
    start, starts, cost, expand, ma, zoc = graph or _move_graph(rs, state, seat, uids)
    goal = Hex.parse(dest)
    res = cheapest_path(start, goal, cost, ma, expand=expand, starts=starts)
    if res is None:
        return None
    path = [str(h) for h in res[1]]
    if start is not None:
        path = path[1:]
    return path or None


def _why_unreachable(rs, state: State, seat: str, uids: list[str], dest: str) -> str:
    h = Hex.parse(dest)
    if h not in rs.hexmap:
        return f"hex {dest} is off the map"
    info = rs.hexmap.hexes[h]
    if not rs.charts_for(state)["tec"].get(info.terrain, {}).get("passable", True):
        return f"{dest} is {info.terrain}: impassable"
    if _cavalry_closed(rs, state, uids, info.terrain):
        return f"{dest} is {info.terrain}: cavalry may not enter it (4.3)"
    occ = c05_stacking.occupancy(rs, state)
    if any(hooks.side_of(rs, state, x) != seat for x in occ.get(dest, ()) if not rs.units[x].is_siege):
        return f"{dest} holds enemy units"
    who = _phrase(uids)
    if state["units"][uids[0]]["hex"] is None:
        return f"{who} cannot enter and reach {dest} this phase (entry costs, 14.0)"
    return (f"{who} cannot reach {dest} with {_movers_ma(rs, state, uids):g} Movement Points "
            "(terrain, zones of control, walls)")


def _check_move(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uids = [a for a in args if not _HEX.match(a)]
    path = [a for a in args if _HEX.match(a)]
    if not uids or not path:
        raise InvalidOrder(f"usage: {MOVE.usage}")
    full = _stack_of(rs, state, tuple(uids))
    if sorted(full) != sorted(uids):
        missing = [x for x in full if x not in uids]
        raise IllegalOrder(f"{_phrase(missing)} must move with {uids[0]}: they are in one formation", "8.4")
    rs.hooks._check_movers(rs, state, seat, uids)
    occ = c05_stacking.occupancy(rs, state)
    graph = _move_graph(rs, state, seat, uids, occ)  # once per order: the path and its cost
    path = _move_path(rs, state, seat, uids, path, graph)
    end, spent, ma = _path_spent(rs, state, seat, uids, path, occ, graph)
    if spent > ma + 1e-9:
        raise IllegalOrder(f"that path costs {spent:g} Movement Points; {_phrase(uids)} has {ma:g}", "4.0")
    c05_stacking._check_stacking(rs, state, seat, uids, end, occ)
    rs.hooks.check_move_end(rs, state, seat, uids, end, occ)
    c03_sequence.order_memo(rs)["move"] = (_move_key(rs, state, seat, args), path, spent)


def _move_key(rs, state: State, seat: str, args: tuple[str, ...]) -> tuple:
    """What a checked move's path depends on, as far as a cheap look can tell (the same order, on
        a state at the same point of the game): the guard on ``Action.memo``."""
    uids = [a for a in args if not _HEX.match(a)]
    return (seat, args, state["turn"], state["step"], state["dice"]["counter"], len(state["ph"]["moved"]),
            tuple(state["units"][u]["hex"] for u in uids))


def _path_spent(rs, state: State, seat: str, uids: list[str], path: list[str], occ,
                graph=None) -> tuple[str, float, float]:
    """(last hex, Movement Points the path costs, the allowance) of a move
        along ``path``; IllegalOrder for a step that may not be taken. ``graph``: the
        ``_move_graph`` of this very state and movers, if the caller has it (one per order)."""
    start, starts, cost, expand, ma, zoc = graph or _move_graph(rs, state, seat, uids, occ)
    spent = 0.0
    if start is None:
        first = Hex.parse(path[0])
        if not starts or first not in starts:
            entry = rs.hooks.reinforcement_entry(rs, state, uids[0]) or []
            raise IllegalOrder(f"{uids[0]} must enter through one of its entry hexes "
                               f"({_phrase(entry[:8])}{'…' if len(entry) > 8 else ''})", rs.units[uids[0]].section)
        spent = starts[first]
        prev = first
        rest = path[1:]
    else:
        prev = start
        rest = path
    for i, hx in enumerate(rest):
        h = Hex.parse(hx)
        if h.distance(prev) != 1:
            raise IllegalOrder(f"{hx} is not next to {prev}", "4.0")
        if prev != start and prev in zoc:
            raise IllegalOrder(f"{_phrase(uids)} must stop on entering an enemy zone of control at {prev}", "6.0")
        c = cost(prev, h)
        if c is None:
            why = rs.hooks._why_step(rs, state, seat, uids, prev, h, zoc, start)
            raise IllegalOrder(why, rs.hooks._why_section(rs, state, seat, str(h), why))
        spent += c
        prev = h
    return str(prev), spent, ma


def _why_section(rs, state: State, seat: str, hx: str, why: str) -> str:
    """The case a refused move breaks: 4.27 for a hex holding only enemy
        leaders, 6.0 for the zone-of-control limits, else 4.0."""
    if why.endswith("holds enemy units"):
        enemy = [x for x in c05_stacking.occupancy(rs, state).get(hx, ()) if hooks.side_of(rs, state, x) != seat
                 and not rs.units[x].is_siege]
        return "4.27" if enemy and all(rs.units[x].is_leader for x in enemy) else "4.0"
    if "zone of control" in why and "(15.13)" not in why:
        return "6.0"
    return "4.0"


def _why_step(rs, state, seat, uids, a: Hex, b: Hex, zoc, start) -> str:
    if b not in rs.hexmap:
        return f"{b} is off the map"
    info = rs.hexmap.hexes[b]
    if not rs.charts_for(state)["tec"].get(info.terrain, {}).get("passable", True):
        return f"{b} is {info.terrain}: impassable"
    occ = c05_stacking.occupancy(rs, state)
    if any(hooks.side_of(rs, state, x) != seat for x in occ.get(str(b), ()) if not rs.units[x].is_siege):
        return f"{b} holds enemy units"
    if a == start and a in zoc and b in zoc:
        return f"{_phrase(uids)} may not move from one enemy zone of control straight into another ({a} to {b})"
    side = rs.hooks.hexside_rule(rs, state, uids, a, b) if (a, b) in rs.hexmap.side_index else 0
    if side is None:
        return rs.hooks.why_hexside(rs, state, uids, a, b)
    if side == "all":
        return "crossing a wall downwards uses the whole Movement Allowance and may not end in an enemy zone of control (15.13)"
    disrupted = any(state["units"][u].get("disrupted") for u in uids)
    if b in zoc and disrupted and not rs.charts_for(state)["disrupted"].get("may_enter_zoc", True):
        return f"{_phrase(uids)} is Disrupted and may not enter an enemy zone of control ({b})"
    if b in rs.hooks.extra_blocked(rs, state, seat, uids):
        return f"{_phrase(uids)} may not enter {b}"
    if _cavalry_closed(rs, state, uids, info.terrain):
        return f"{b} is {info.terrain}: cavalry may not enter it (4.3)"
    return f"{_phrase(uids)} may not move from {a} to {b}"


def _cavalry_closed(rs, state: State, uids: list[str], terrain: str) -> bool:
    """The terrain's TEC row has ``cavalry_passable = false`` and a mover is mounted (Sauron's 1978
        errata: no cavalry in rough; Field of Celebrant's landing, 16.21)."""
    row = rs.charts_for(state)["tec"].get(terrain, {})
    return row.get("cavalry_passable", True) is False and any(rs.units[u].is_mounted for u in uids)


def _legal_moves(rs, state: State, seat: str, kind: str, only: str | None = None) -> Iterator[Action]:
    occ = c05_stacking.occupancy(rs, state)
    zones = None  # (the enemies' zones of control and blocked hexes: the same for every stack of this position)
    seen: set[str] = set()
    units = [only] if only else sorted(state["units"])
    if only and only in rs.units and rs.units[only].is_siege and state["units"][only]["hex"]:
        # typed the equipment's id: its carriers' stack moves (16.11)
        units = sorted(x for x in occ.get(state["units"][only]["hex"], ()) if rs.units[x].is_combat)
    for uid in units:
        if uid not in state["units"]:
            return
        u = rs.units[uid]
        r = state["units"][uid]
        if hooks.side_of(rs, state, uid) != seat or uid in seen or _mover_kind(rs, state, seat, uid) != kind:
            continue
        if r["status"] == "reinforcement" and rs.hooks.reinforcement_entry(rs, state, uid) is None:
            continue
        if r["status"] not in ("map", "reinforcement"):
            continue
        if u.is_siege:
            continue  # siege equipment moves with its carrier (a stack order)
        uids = _stack_of(rs, state, (uid,))
        seen.update(uids)
        stacks = [uids]
        if u.is_combat and r["status"] == "map":
            # 16.11: siege equipment moves only with a combat unit: offer the pair too
            stacks += [uids + [e] for e in sorted(occ.get(r["hex"], ()))
                       if rs.units[e].is_siege and hooks.side_of(rs, state, e) == seat
                       and (only is None or only in (uid, e))]
            if only and rs.units[only].is_siege:
                stacks = stacks[1:]
        zones = zones or c06_zoc.enemy_hexes(rs, state, seat, occ)
        for movers in stacks:
            yield from _stack_moves(rs, state, seat, movers, occ, zones)


def _stack_moves(rs, state: State, seat: str, uids: list[str], occ, zones=None) -> Iterator[Action]:
    try:
        rs.hooks._check_movers(rs, state, seat, uids)
    except IllegalOrder:
        return
    reach = _reach(rs, state, seat, uids, occ, zones)
    here = state["units"][uids[0]]["hex"]
    alone = None  # whether the movers may stack by themselves (5.0): the same answer in every hex holding no one else
    for h in sorted(reach):
        hx = str(h)
        if hx == here:
            continue
        if any(x not in uids for x in occ.get(hx, ())):
            stacks = common.passes(c05_stacking._check_stacking, rs, state, seat, uids, hx, occ)
        else:
            if alone is None:
                alone = common.passes(c05_stacking._check_stacking, rs, state, seat, uids, hx, occ)
            stacks = alone
        if stacks and common.passes(rs.hooks.check_move_end, rs, state, seat, uids, hx, occ):
            yield Action("move", (*uids, hx))


def _apply_move(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uids = [a for a in args if not _HEX.match(a)]
    checked = c03_sequence.order_memo(rs).get("move")
    if checked and checked[0] == _move_key(rs, state, seat, args):
        path, spent = checked[1], checked[2]  # found by this order's check on this same position
    else:
        occ = c05_stacking.occupancy(rs, state)
        graph = _move_graph(rs, state, seat, uids, occ)
        path = _move_path(rs, state, seat, uids, [a for a in args if _HEX.match(a)], graph)
        _, spent, _ = _path_spent(rs, state, seat, uids, path, occ, graph)
    start = state["units"][uids[0]]["hex"]
    entering = start is None
    for uid in uids:  # what each mover has spent this phase (a move may resume: Gondor 16.72)
        state["ph"].setdefault("spent", {})[uid] = state["ph"].get("spent", {}).get(uid, 0) + spent
    for uid in uids:
        r = state["units"][uid]
        r["hex"] = path[-1]
        r["status"] = "map"
        state["ph"]["moved"].append(uid)
    if entering:
        # 14.0: each unit entering by a hex makes the chain one longer
        state["ph"]["entered"][path[0]] = state["ph"]["entered"].get(path[0], 0) + len(uids)
    who = _phrase([rs.units[u].label() for u in uids])
    if entering:
        text = f"{c02_units.title_of(rs, seat)}: {who} enters at {path[0]}" + (
            f" and moves to {path[-1]} (via {' '.join(path[1:-1])})" if len(path) > 2 else
            (f" and moves to {path[-1]}" if len(path) > 1 else "") + " (14.0)."
        )
        if not text.endswith("."):
            text += " (14.0)."
        sec = "14.0"
    else:
        via = f" via {' '.join(path[:-1])}" if len(path) > 1 else ""
        text = f"{c02_units.title_of(rs, seat)}: {who} moves to {path[-1]}{via} (4.0)."
        sec = "4.0"
    events = [Event(public=text, section=sec)]
    state["ph"]["move_from"] = start  # for ``entered``: None when the move entered the map
    events.extend(hooks.after_move(rs, state, seat, uids, ([start] if start else []) + path))
    return events


def apply_overriding(rs, state: State, seat: str, text: str) -> list[Event] | None:
    """A declared ``move`` the rules refuse, accepted by a ruling (engine/modes, assist play): carried
        out as written, its path as given (one hex: straight there) and at no Movement Point cost, its
        after-move effects as for any move. None for any other order, or where it cannot be: not the
        seat's own units on the map, a hex off the map, set-up, a retreat pending, the game over."""
    try:
        action = rs.parse_text(state, seat, text)
    except OrderError:
        return None
    if (action.verb != "move" or seat not in rs.seats or state["over"] or state["turn"] == 0
            or state["pending"]):
        return None
    uids = [a for a in action.args if not _HEX.match(a)]
    if not uids or any(rs.units[u].side != seat or not c02_units.on_map(rs, state, u) for u in uids):
        return None
    action = _complete_move(rs, state, seat, action)
    uids = [a for a in action.args if not _HEX.match(a)]
    if any(rs.units[u].side != seat or not c02_units.on_map(rs, state, u) for u in uids):
        return None
    path = [a for a in action.args if _HEX.match(a)]
    if not path or any(Hex.parse(h) not in rs.hexmap for h in path):
        return None
    action.memo["move"] = (_move_key(rs, state, seat, action.args), path, 0.0)
    return rs.apply(state, seat, action)


def _parse_move(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    ids = [w for w in words if not _HEX.match(w)]
    hexes = [w for w in words if _HEX.match(w)]
    if not ids or not hexes or words[:len(ids)] != ids:
        raise InvalidOrder(f"usage: {MOVE.usage}")
    uids = [c02_units.resolve_unit(rs, w) for w in ids]
    if len(set(uids)) != len(uids):
        raise InvalidOrder("a unit is named twice")
    return (*uids, *[common._hex_token(h) for h in hexes])


def _legal_move_orders(rs, state: State, seat: str) -> Iterator[Action]:
    k = c03_sequence.kind(rs, state)
    if k in ("move", "magic"):
        yield from _legal_moves(rs, state, seat, k)
    if k == "rally" and c03_sequence.step(rs, state).get("leader_moves"):  # FoC 8.38
        yield from _legal_moves(rs, state, seat, "rally")


# the orders of this file (engine/orders.py), each naming its functions above
MOVE = Order("move", "`move <unit> [<unit>...] <hex>`, e.g. `move GS1 1905`",
              parse=_parse_move,
              check=_check_move,
              apply=_apply_move,
              legal=_legal_move_orders,
              cases=("4.0", "8.52"))
