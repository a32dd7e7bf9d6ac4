"""The forces on the board (seed:002, Set up; How to do Battle; Leaders; 4. Actions): who holds an
area, the battalions left in a side's supply, adding and removing battalions and leaders, a
leader's colour, side and name, an Action point spent, reading an area's name in an order."""
from __future__ import annotations

from engine.core import AmbiguousOrder, IllegalOrder, State
from engine.rulesets.risk_minas_tirith.common import FROM_CODE, SEATS, TITLES


# Areas, supply and the forces in them.


def _side_of(state: State, aid: str) -> str | None:
    rec = state["areas"][aid]
    if any(rec["u"].values()) or rec["leaders"]:
        return rec["side"]
    return None


def _bn(state: State, aid: str) -> int:
    return sum(state["areas"][aid]["u"].values())


def _pool(rs, state: State, side: str, t: str) -> int:
    total = rs.cards["forces"][side].get(t, 0)
    used = sum(r["u"].get(t, 0) for r in state["areas"].values() if r["side"] == side)
    used += sum(h.get(t, 0) for cid, h in state["hosts"].items() if _mt(rs, state, cid)["side"] == side)
    used += state["lost"][side].get(t, 0)
    return total - used


def _mt(rs, state: State, cid: str) -> dict:
    return rs.cards["mt"][state["mt_defs"][cid]]


def _usable(rs, state: State, cid: str, seat: str) -> bool:
    return _mt(rs, state, cid)["side"] in (seat, "both")


def _on_board(rs, state: State, lid: str) -> str | None:
    for aid, r in state["areas"].items():
        if lid in r["leaders"]:
            return aid
    return None


def _name(rs, aid: str) -> str:
    return rs.board.areas[aid].name


def _area(rs, tok: str) -> str:
    t = tok.lower()
    if t in rs.board:
        return t
    m = [a for a in rs.board.ids if a.startswith(t)] if t else []
    if len(m) == 1:
        return m[0]
    if len(m) > 1:
        raise AmbiguousOrder(f"`{tok[:20]}` could be {', '.join(m[:8])}", candidates=m)
    raise IllegalOrder(f"there is no area `{tok[:20]}` on this board")


def _add(rs, state: State, aid: str, side: str, g: dict[str, int], leaders: list[str]) -> None:
    rec = state["areas"][aid]
    if _side_of(state, aid) is None:
        rec["side"] = side
        rec["u"], rec["leaders"] = {}, []
    for t, n in g.items():
        if n:
            rec["u"][t] = rec["u"].get(t, 0) + n
    rec["leaders"] = sorted(set(rec["leaders"]) | set(leaders))


def _remove(rs, state: State, aid: str, g: dict[str, int], leaders: list[str]) -> None:
    rec = state["areas"][aid]
    for t, n in g.items():
        rec["u"][t] = rec["u"].get(t, 0) - n
        if rec["u"][t] <= 0:
            del rec["u"][t]
    rec["leaders"] = [x for x in rec["leaders"] if x not in leaders]
    if not rec["u"] and not rec["leaders"]:
        rec["side"] = None


def _leader_bonus(rs, state: State, aid: str) -> bool:
    return bool(state["areas"][aid]["leaders"])


# ------------------------------------------------------------ the moderator's adjustments
def adjust(rs, state: State, unit: str, to: str | None) -> str:
    """The moderator's adjustment (engine/modes: `move <unit> <area> because <reason>`, `remove
        <unit> because <reason>`): ``unit`` is a group on the map as the view names it, ``<area>:<code>``
        (every battalion of that type there, ``city:inf``), or a leader's id. Moved to an area that is
        empty or its own side's; removed, it counts as lost (How to do Battle: the other side's points)."""
    aid, sep, code = unit.partition(":")
    if sep:
        t = FROM_CODE.get(code)
        if aid not in rs.board or t is None or not state["areas"][aid]["u"].get(t):
            raise IllegalOrder(f"There is no unit `{unit[:20]}`.")
        g, leaders = {t: state["areas"][aid]["u"][t]}, []
        many = {"archer": "archers", "horse-archer": "horse archers", "troll": "trolls", "mumak": "mumakil"}
        what = f"{g[t]} {(many.get(t, t) if g[t] > 1 else t).replace('-', ' ')}"
    else:
        aid = _on_board(rs, state, unit)
        if aid is None:
            raise IllegalOrder(f"There is no unit `{unit[:20]}`.")
        g, leaders, what = {}, [unit], _lname(rs, unit)
    side = state["areas"][aid]["side"]
    if to is None:
        _remove(rs, state, aid, g, leaders)
        lost = state["lost"][side]
        for t, n in g.items():
            lost[t] = lost.get(t, 0) + n
        lost["leaders"].extend(leaders)
        return f"{TITLES[side]}'s {what} removed from {_name(rs, aid)} (lost)"
    to = _area(rs, to)
    if to == aid:
        raise IllegalOrder(f"{what} is already in {_name(rs, aid)}.")
    held = _side_of(state, to)
    if held not in (None, side):
        raise IllegalOrder(f"{_name(rs, to)} is held by {TITLES[held]}: remove that force first.")
    _remove(rs, state, aid, g, leaders)
    _add(rs, state, to, side, g, leaders)
    return f"{TITLES[side]}'s {what} moved {_name(rs, aid)} → {_name(rs, to)}"


def leader_color(rs, lid: str) -> str:
    for side in SEATS:
        if lid in rs.cards["forces"][side]["leaders"]:
            return rs.cards["forces"][side]["leaders"][lid]
    raise KeyError(lid)


def leader_side(rs, lid: str) -> str:
    return "good" if lid in rs.cards["forces"]["good"]["leaders"] else "evil"


def _lname(rs, lid: str) -> str:
    return rs.cards["leader_names"].get(lid, lid)
