"""Moving armies (seed:002, Movement Actions; Walls and Territory of Minas Tirith;
Leaders): `move <units> from <a> [via <b> [<c>]] to <d>` -- one Territory, cavalry two, a
leader alone up to three through its own Territories; who may climb onto or come down from
the walls and pass the Gate; the Evil trade of a Mumakil battalion for 3 infantry
(`trade mumak at <area>`). Also the unit list of an order (``2inf 1cav faramir``) and the
legal sub-forces offered for a move."""
from __future__ import annotations

import itertools
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.rulesets.risk_minas_tirith.common import (
    TITLES, TYPES, FROM_CODE, ALIASES, FOOT, MOUNTED, ARCHERY, S_MOVE, S_WALLS, S_LEADERS, _group_text,
)
from engine.rulesets.risk_minas_tirith import common, forces, turn


# `move` and `trade`: each order's parse, check, legal actions and apply.


def _group(rs, words: list[str]) -> tuple[dict[str, int], list[str]]:
    """``2inf 1cav faramir`` or ``2 inf 1 cav faramir`` -> counts and leaders."""
    g: dict[str, int] = {}
    leaders: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        num = ""
        while w and w[0].isdigit():
            num, w = num + w[0], w[1:]
        if num and not w and i + 1 < len(words):
            i += 1
            w = words[i].lower()
        if num and not w:
            raise InvalidOrder(f"`{num}` needs a battalion type after it, e.g. `{num}inf` or `{num} inf` "
                               "(inf, arc, cav, hor, tro, mum)")
        if num:
            code = ALIASES.get(w)
            if code is None:
                raise InvalidOrder(f"`{w[:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum)")
            t = FROM_CODE[code]
            if t in g or int(num) < 1 or int(num) > 99:
                raise InvalidOrder(f"give each battalion type once, with a count from 1: `{num}{w[:8]}`")
            g[t] = int(num)
        elif w in rs.all_leaders:
            if w in leaders:
                raise InvalidOrder(f"`{w}` named twice")
            leaders.append(w)
        else:
            raise InvalidOrder(f"`{words[i][:20]}` is neither a count with a type (`2inf`) nor a leader "
                               f"({', '.join(rs.all_leaders)})")
        i += 1
    if not g and not leaders:
        raise InvalidOrder("name the battalions, e.g. `2inf 1cav`, and any leaders")
    return {t: g[t] for t in TYPES if t in g}, sorted(leaders)


def _parse_route(rs, state: State, seat: str, verb: str, rest: list[str]) -> tuple[str, ...]:
    """``<units> from <a> [via <b> [<c>]] to <d>`` (move; advance without via)."""
    if "from" not in rest or "to" not in rest:
        raise common._usage(rs, verb)
    i, j = rest.index("from"), rest.index("to")
    if j != len(rest) - 2 or i < 1 or j < i + 2:
        raise common._usage(rs, verb)
    g, leaders = _group(rs, rest[:i])
    mid = rest[i + 1:j]
    src = forces._area(rs, mid[0])
    via: list[str] = []
    if len(mid) > 1:
        if mid[1] != "via" or len(mid) < 3 or len(mid) > 4 or verb == "advance":
            raise common._usage(rs, verb)
        via = [forces._area(rs, x) for x in mid[2:]]
    dst = forces._area(rs, rest[j + 1])
    args = [*(_group_text(g, leaders).split()), "from", src]
    if via:
        args += ["via", *via]
    args += ["to", dst]
    return tuple(args)


def _parse_move(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return _parse_route(rs, state, seat, "move", rest)


def _split_move(args: tuple[str, ...]):
    i = args.index("from")
    j = args.index("to")
    units = args[:i]
    mid = list(args[i + 1:j])
    src, via = mid[0], mid[2:] if len(mid) > 1 else []
    g: dict[str, int] = {}
    leaders: list[str] = []
    for u in units:
        k = 0
        while k < len(u) and u[k].isdigit():
            k += 1
        if k:
            g[FROM_CODE[u[k:]]] = int(u[:k])
        else:
            leaders.append(u)
    return g, leaders, src, via, args[j + 1]


def _enter_ok(rs, state: State, side: str, x: str, y: str, g: dict[str, int], leaders: list[str],
              path: bool = True) -> str | None:
    """Why ``g`` may not step x -> y (None if it may)."""
    B = rs.board
    if y not in B.areas[x].adj:
        return f"{forces._name(rs, x)} does not border {forces._name(rs, y)}"
    occ = forces._side_of(state, y)
    if occ is not None and occ != side:
        return f"{forces._name(rs, y)} holds enemy battalions; you may not move into it"
    kx, ky = B.areas[x].kind, B.areas[y].kind
    mounted_or_big = any(g.get(t) for t in TYPES if t not in FOOT)
    if ky == "wall":
        if mounted_or_big:
            return "only infantry battalions and leaders may stand on the walls (no cavalry on the walls)"
        if kx not in ("wall", "city"):
            if side == "good":
                return "Good battalions climb onto the walls only from the Minas Tirith Territory"
            if not (state["flags"]["ladders"] or x in state["towers"]):
                return "Evil climbs the walls only with Scaling Ladders or from a Siege Tower's Territory"
    if kx == "wall" and ky not in ("wall", "city") and side == "good":
        return "Good battalions may not go down from the walls; they go down into the City, then out by the Gate"
    if {x, y} == set(B.gate) and side == "evil" and not state["gate_broken"]:
        return "the Gate is closed to the Forces of Evil"
    return None


def _check_group_at(rs, state: State, seat: str, src: str, g: dict[str, int], leaders: list[str],
                    section: str = S_MOVE) -> None:
    rec = state["areas"][src]
    if rec["side"] != seat:
        raise IllegalOrder(f"you have no force in {forces._name(rs, src)}", section)
    for t, n in g.items():
        if rec["u"].get(t, 0) < n:
            raise IllegalOrder(f"{forces._name(rs, src)} holds {rec['u'].get(t, 0)} {t}, not {n}", section)
    for lid in leaders:
        if lid not in rec["leaders"]:
            raise IllegalOrder(f"{forces._lname(rs, lid)} is not in {forces._name(rs, src)}", section)


def _check_move(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    g, leaders, src, via, dst = _split_move(a)
    _check_group_at(rs, state, seat, src, g, leaders)
    path = [src, *via, dst]
    if len(set(path)) != len(path):
        raise IllegalOrder("a move does not pass an area twice", S_MOVE)
    steps = len(path) - 1
    if steps > 1:
        if not g:
            if steps > rs.cards["limits"]["leader_move"]:
                raise IllegalOrder("a Leader alone moves through 1, 2 or 3 Territories", S_LEADERS)
            for x in path[1:]:
                if forces._side_of(state, x) != seat or not state["areas"][x]["u"]:
                    raise IllegalOrder(f"a Leader alone moves only through Territories its Force occupies; "
                                       f"{forces._name(rs, x)} is not one", S_LEADERS)
        elif any(t not in MOUNTED for t in g):
            raise IllegalOrder("only cavalry (with leaders) move 2 Territories; others move 1", S_MOVE)
        elif steps > rs.cards["limits"]["cavalry_move"]:
            raise IllegalOrder("cavalry move 1 or 2 Territories", S_MOVE)
    for x, y in zip(path, path[1:]):
        why = _enter_ok(rs, state, seat, x, y, g, leaders)
        if why:
            raise IllegalOrder(why, S_WALLS if "wall" in why or "Gate" in why else S_MOVE)


def _groups(rec: dict) -> Iterator[tuple]:
    """The natural sub-forces of an area, offered as moves, each once, the whole force first
        (seed, Movement Actions: "You may split a force and move battalions into 2 or more
        Territories"). Any split is a legal move and is accepted when typed; what is *offered*
        is bounded (issue 12: every combination of a 40-battalion stack with 2 leaders was
        hundreds of thousands of actions): the whole force with all its leaders, with each
        leader alone, without leaders; then, with all the leaders and without them, all but one
        battalion of each type, each type whole, one battalion of each type; then each leader
        alone."""
    types = [t for t in TYPES if rec["u"].get(t)]
    whole = {t: rec["u"][t] for t in types}
    leaders = sorted(rec["leaders"])
    seen: set[tuple] = set()

    def once(g: dict[str, int], ls: list[str]) -> Iterator[tuple]:
        key = (tuple(sorted(g.items())), tuple(ls))
        if (g or ls) and key not in seen:
            seen.add(key)
            yield g, ls
    yield from once(whole, leaders)
    if len(leaders) > 1:
        for lid in leaders:
            yield from once(whole, [lid])
    yield from once(whole, [])
    parts = [{u: n - (u == t) for u, n in whole.items() if n - (u == t)} for t in types]
    parts += [{t: whole[t]} for t in types] + [{t: 1} for t in types]
    for g in parts:
        yield from once(g, leaders)
        yield from once(g, [])
    for lid in leaders:
        yield from once({}, [lid])


def _ride_groups(rec: dict) -> Iterator[tuple]:
    """The mounted sub-forces offered for cavalry's 2-Territory moves (seed, Movement
        Actions: "Move cavalry battalions 1 or 2 Territories ... This force can include
        Leaders"), fewer than for one Territory (each is offered along every 2-Territory path):
        all the area's cavalry with all its leaders and without them, each mounted type whole,
        one battalion of each mounted type. Any other split is accepted when typed."""
    types = [t for t in TYPES if rec["u"].get(t) and t in MOUNTED]
    whole = {t: rec["u"][t] for t in types}
    seen: list[tuple] = []
    for g, ls in [(whole, sorted(rec["leaders"])), (whole, [])] + [({t: whole[t]}, []) for t in types] + \
            [({t: 1}, []) for t in types]:
        if g and (g, ls) not in seen:
            seen.append((g, ls))
            yield g, ls


def _legal_moves(rs, state: State, seat: str, mine: list[str]) -> Iterator[Action]:
    B = rs.board
    # moves: every whole force first, then the natural sub-forces (``_groups``; any other split is
    # accepted when typed); then cavalry 2 Territories and leaders alone further
    for whole in (True, False):
        for aid in mine:
            rec = state["areas"][aid]
            groups = [(dict(rec["u"]), list(rec["leaders"]))] if whole else \
                itertools.islice(_groups(rec), 1, None)
            for g, ls in groups:
                for y in B.areas[aid].adj:
                    if _enter_ok(rs, state, seat, aid, y, g, ls) is None:
                        yield Action("move", (*_group_text(g, ls).split(), "from", aid, "to", y))
    for aid in mine:
        rec = state["areas"][aid]
        for g, ls in _ride_groups(rec):
            for y in B.areas[aid].adj:
                if _enter_ok(rs, state, seat, aid, y, g, ls) is not None:
                    continue
                for z in B.areas[y].adj:
                    if z != aid and _enter_ok(rs, state, seat, y, z, g, ls) is None:
                        yield Action("move", (*_group_text(g, ls).split(), "from", aid, "via", y, "to", z))
        for lid in rec["leaders"]:
            for path in _leader_paths(rs, state, seat, aid):
                if len(path) >= 2:
                    yield Action("move", (lid, "from", aid, "via", *path[:-1], "to", path[-1]))


def _leader_paths(rs, state, seat, start) -> Iterator[list[str]]:
    def ok(x):
        return state["areas"][x]["side"] == seat and bool(state["areas"][x]["u"])
    stack = [[start]]
    while stack:
        p = stack.pop()
        if len(p) > 1:
            yield p[1:]
        if len(p) > rs.cards["limits"]["leader_move"]:
            continue
        for y in rs.board.areas[p[-1]].adj:
            if y not in p and ok(y):
                stack.append(p + [y])


def _move_fired(rs, state: State, src: str, dst: str, g: dict[str, int]) -> None:
    k = sum(g.get(t, 0) for t in ARCHERY)
    f = min(k, state["fired"].get(src, 0))
    if f:
        state["fired"][src] -= f
        state["fired"][dst] = state["fired"].get(dst, 0) + f


def _do_move(rs, state, seat, a, dice):
    g, leaders, src, via, dst = _split_move(a)
    forces._remove(rs, state, src, g, leaders)
    forces._add(rs, state, dst, seat, g, leaders)
    _move_fired(rs, state, src, dst, g)
    turn._spend(rs, state)
    route = " via " + ", ".join(forces._name(rs, x) for x in via) if via else ""
    return [Event(public=f"{TITLES[seat]} moves {_group_text(g, leaders)} from {forces._name(rs, src)}{route} to "
                         f"{forces._name(rs, dst)}.", section=S_MOVE)]


def _parse_trade(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 3 or ALIASES.get(rest[0]) != "mum" or rest[1] != "at":
        raise common._usage(rs, "trade")
    return ("mumak", "at", forces._area(rs, rest[2]))


def _check_trade(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    aid = a[2]
    if seat != "evil":
        raise IllegalOrder("only the Evil Forces trade a Mumakil battalion", S_MOVE)
    if state["areas"][aid]["side"] != "evil" or not state["areas"][aid]["u"].get("mumak"):
        raise IllegalOrder(f"no Mumakil battalion of yours in {forces._name(rs, aid)}", S_MOVE)
    if forces._pool(rs, state, "evil", "infantry") < 3:
        raise IllegalOrder("fewer than 3 infantry battalions left in your supply", S_MOVE)


def _legal_trade(rs, state: State, seat: str, mine: list[str]) -> Iterator[Action]:
    for aid in mine:
        if state["areas"][aid]["u"].get("mumak"):
            yield Action("trade", ("mumak", "at", aid))


def _do_trade(rs, state, seat, a, dice):
    aid = a[2]
    forces._remove(rs, state, aid, {"mumak": 1}, [])
    forces._add(rs, state, aid, seat, {"infantry": 3}, [])
    turn._spend(rs, state)
    return [Event(public=f"Evil trades a Mumakil battalion in {forces._name(rs, aid)} for 3 infantry battalions.",
                  section=S_MOVE)]
