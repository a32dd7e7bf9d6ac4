"""The forces on the board (seed:002, Set up; How to do Battle): who holds an area, the
battalions left in a side's supply, adding and removing battalions and leaders, reading an
area's name in an order."""
from __future__ import annotations

from engine.core import AmbiguousOrder, IllegalOrder, State
from engine.rulesets.risk_minas_tirith.common import FROM_CODE, TITLES


# Areas, supply and the forces in them.


@staticmethod
def _side_of(state: State, aid: str) -> str | None:
    rec = state["areas"][aid]
    if any(rec["u"].values()) or rec["leaders"]:
        return rec["side"]
    return None


@staticmethod
def _bn(state: State, aid: str) -> int:
    return sum(state["areas"][aid]["u"].values())


def _pool(self, state: State, side: str, t: str) -> int:
    total = self.cards["forces"][side].get(t, 0)
    used = sum(r["u"].get(t, 0) for r in state["areas"].values() if r["side"] == side)
    used += sum(h.get(t, 0) for cid, h in state["hosts"].items() if self._mt(state, cid)["side"] == side)
    used += state["lost"][side].get(t, 0)
    return total - used


def _mt(self, state: State, cid: str) -> dict:
    return self.cards["mt"][state["mt_defs"][cid]]


def _usable(self, state: State, cid: str, seat: str) -> bool:
    return self._mt(state, cid)["side"] in (seat, "both")


def _on_board(self, state: State, lid: str) -> str | None:
    for aid, r in state["areas"].items():
        if lid in r["leaders"]:
            return aid
    return None


def _name(self, aid: str) -> str:
    return self.board.areas[aid].name


def _area(self, tok: str) -> str:
    t = tok.lower()
    if t in self.board:
        return t
    m = [a for a in self.board.ids if a.startswith(t)] if t else []
    if len(m) == 1:
        return m[0]
    if len(m) > 1:
        raise AmbiguousOrder(f"`{tok[:20]}` could be {', '.join(m[:8])}", candidates=m)
    raise IllegalOrder(f"there is no area `{tok[:20]}` on this board")


def _add(self, state: State, aid: str, side: str, g: dict[str, int], leaders: list[str]) -> None:
    rec = state["areas"][aid]
    if self._side_of(state, aid) is None:
        rec["side"] = side
        rec["u"], rec["leaders"] = {}, []
    for t, n in g.items():
        if n:
            rec["u"][t] = rec["u"].get(t, 0) + n
    rec["leaders"] = sorted(set(rec["leaders"]) | set(leaders))


def _remove(self, state: State, aid: str, g: dict[str, int], leaders: list[str]) -> None:
    rec = state["areas"][aid]
    for t, n in g.items():
        rec["u"][t] = rec["u"].get(t, 0) - n
        if rec["u"][t] <= 0:
            del rec["u"][t]
    rec["leaders"] = [x for x in rec["leaders"] if x not in leaders]
    if not rec["u"] and not rec["leaders"]:
        rec["side"] = None


def _leader_bonus(self, state: State, aid: str) -> bool:
    return bool(state["areas"][aid]["leaders"])


# ------------------------------------------------------------ the moderator's adjustments
def adjust(self, state: State, unit: str, to: str | None) -> str:
    """The moderator's adjustment (engine/modes: `move <unit> <area> because <reason>`, `remove
        <unit> because <reason>`): ``unit`` is a group on the map as the view names it, ``<area>:<code>``
        (every battalion of that type there, ``city:inf``), or a leader's id. Moved to an area that is
        empty or its own side's; removed, it counts as lost (How to do Battle: the other side's points)."""
    aid, sep, code = unit.partition(":")
    if sep:
        t = FROM_CODE.get(code)
        if aid not in self.board or t is None or not state["areas"][aid]["u"].get(t):
            raise IllegalOrder(f"There is no unit `{unit[:20]}`.")
        g, leaders = {t: state["areas"][aid]["u"][t]}, []
        many = {"archer": "archers", "horse-archer": "horse archers", "troll": "trolls", "mumak": "mumakil"}
        what = f"{g[t]} {(many.get(t, t) if g[t] > 1 else t).replace('-', ' ')}"
    else:
        aid = self._on_board(state, unit)
        if aid is None:
            raise IllegalOrder(f"There is no unit `{unit[:20]}`.")
        g, leaders, what = {}, [unit], self._lname(unit)
    side = state["areas"][aid]["side"]
    if to is None:
        self._remove(state, aid, g, leaders)
        lost = state["lost"][side]
        for t, n in g.items():
            lost[t] = lost.get(t, 0) + n
        lost["leaders"].extend(leaders)
        return f"{TITLES[side]}'s {what} removed from {self._name(aid)} (lost)"
    to = self._area(to)
    if to == aid:
        raise IllegalOrder(f"{what} is already in {self._name(aid)}.")
    held = self._side_of(state, to)
    if held not in (None, side):
        raise IllegalOrder(f"{self._name(to)} is held by {TITLES[held]}: remove that force first.")
    self._remove(state, aid, g, leaders)
    self._add(state, to, side, g, leaders)
    return f"{TITLES[side]}'s {what} moved {self._name(aid)} → {self._name(to)}"
