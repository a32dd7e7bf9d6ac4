"""14.3 Mumakil: cavalry never next to them (14.31), the stampede instead of a retreat (14.32) on
the Scatter Diagram, trampling what it meets.
"""
from __future__ import annotations

from engine.core import State
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules
from engine.spi import c07_combat
from engine.spi import hooks
from engine.rulesets.gondor import c20_victory
from engine.spi import c02_units
from engine.spi import c05_stacking


# ------------------------------------------------------------------ 14.31
def extra_blocked(rs, state: State, seat: str, uids: list[str]) -> set[Hex]:
    """14.31: no cavalry unit ever moves next to a Mumak, friend or foe, and vice versa."""
    out = set(StandardRules.hooks.extra_blocked(rs, state, seat, uids))
    types = {rs.units[u].type for u in uids}
    cav, mum = "cavalry" in types, "mumak" in types
    if not (cav or mum):
        return out
    for uid, r in state["units"].items():
        if r["status"] != "map" or uid in uids or r["hex"] is None:
            continue
        t = rs.units[uid].type
        if (cav and t == "mumak") or (mum and t == "cavalry"):
            out.update(Hex.parse(r["hex"]).neighbours())
    return out


def _mumak_reason(rs, state: State, seat: str, uids: list[str], h: Hex) -> str | None:
    if h not in rs.hooks.extra_blocked(rs, state, seat, uids) or h not in rs.hexmap:
        return None
    if any(rs.units[u].type == "cavalry" for u in uids):
        return f"{_phrase(uids)} may not move next to a Mumak ({h}): cavalry never does, friend or foe (14.31)"
    return f"{_phrase(uids)} may not move next to cavalry ({h}): a Mumak never does, friend or foe (14.31)"


def _why_unreachable(rs, state: State, seat: str, uids: list[str], dest: str) -> str:
    return _mumak_reason(rs, state, seat, uids, Hex.parse(dest)) or StandardRules.hooks._why_unreachable(rs, 
        state, seat, uids, dest)


def _why_step(rs, state, seat, uids, a: Hex, b: Hex, zoc, start) -> str:
    return _mumak_reason(rs, state, seat, uids, b) or StandardRules.hooks._why_step(rs, state, seat, uids, a, b, zoc, start)


def _why_section(rs, state: State, seat: str, hx: str, why: str) -> str:
    return "14.31" if why.endswith("(14.31)") else StandardRules.hooks._why_section(rs, state, seat, hx, why)


# ------------------------------------------------------------------ 14.32
def _start_retreat(rs, state: State, dice: Dice, uids: list[str], n: int, attacker_hex: str | None,
                   leaders: list[str]) -> list[str]:
    mumakil = [u for u in uids if rs.units[u].type == "mumak"]
    if not mumakil:
        return StandardRules.hooks._start_retreat(rs, state, dice, uids, n, attacker_hex, leaders)
    lines: list[str] = []
    others = [u for u in uids if u not in mumakil]
    if others:
        lines += StandardRules.hooks._start_retreat(rs, state, dice, others, n, attacker_hex, leaders)
    for m in mumakil:
        lines += _stampede(rs, state, dice, m)
    return lines


def _stampede(rs, state: State, dice: Dice, uid: str) -> list[str]:
    """14.32: a Mumak given a retreat stampedes instead (ruling: a chain of
        stampedes, one Mumak's charge making another stampede, stops after
        ``[stampede] chain`` of them; a further one only disrupts)."""
    rec = state["units"][uid]
    rec["disrupted"] = True
    depth = state["ph"].get("stampede_depth", 0)
    cap = c20_victory._cmd(rs, state, "stampede").get("chain", 3)
    if depth >= cap:
        return [f"{uid} would stampede, but a chain of stampedes stops after {cap} (14.32, ruling): it stays in "
                f"{rec['hex']}, Disrupted"]
    state["ph"]["stampede_depth"] = depth + 1
    try:
        return _run_stampede(rs, state, dice, uid)
    finally:
        if depth:
            state["ph"]["stampede_depth"] = depth
        else:
            state["ph"].pop("stampede_depth", None)


def _run_stampede(rs, state: State, dice: Dice, uid: str) -> list[str]:
    rec = state["units"][uid]
    side = rs.units[uid].side
    roll = dice.d6("stampede")
    d = rs.charts_for(state)["scatter"]["directions"][roll - 1]
    ma = int(hooks.movement_allowance(rs, state, uid))
    tec = rs.charts_for(state)["tec"]
    here = Hex.parse(rec["hex"])
    trail = [str(here)]
    head = (f"{uid} stampedes instead of retreating (14.32): {c02_units.title_of(rs, side)} rolls {roll} on the Scatter "
            f"Diagram, direction {d}")
    target = None
    end = None
    for _ in range(ma):
        nxt = here.neighbour(d)
        if nxt not in rs.hexmap:
            _stampede_marks(rs, state, side, trail)
            c07_combat.eliminate(rs, state, uid)
            return [head + _ran(trail) + "; it runs off the map and is eliminated (14.32)"]
        feature = rs.hexmap.side_index.get((here, nxt))
        if feature is not None and rs.hooks.hexside_rule(rs, state, [uid], here, nxt, retreat=True) is None:
            _stampede_marks(rs, state, side, trail)
            c07_combat.eliminate(rs, state, uid)
            return [head + _ran(trail) + f"; it runs into the {feature[0]} {feature[1]} and is eliminated "
                                              "(14.32)"]
        occ = c05_stacking.occupancy(rs, state)
        there = [x for x in occ.get(str(nxt), ()) if x != uid]
        combat = sorted(x for x in there if rs.units[x].is_combat)
        if combat:
            target = combat[0]  # ruling: it charges the unit in its path
            break
        info = rs.hexmap.hexes[nxt]
        if there or not tec.get(info.terrain, {}).get("passable", True):
            end = (f"; it stops before {nxt} ({'occupied' if there else info.terrain}, ruling)")
            break
        here = nxt
        rec["hex"] = str(here)
        trail.append(str(here))
        target = _stampede_contact(rs, state, uid, here, d)
        if target:
            break
    _stampede_marks(rs, state, side, trail)
    text = head + _ran(trail)
    if target is None:
        return [text + (end or f"; it stops in {here} after {ma} hexes") + ", Disrupted (14.32)"]
    th = state["units"][target]["hex"]
    lines, res, prof = c07_combat._resolve_attack(rs, state, dice, uid, target, "melee")
    text += (f"; it attacks {rs.units[target].label()} in {th}"
             + (f" [{'; '.join(prof['notes'])}]" if prof["notes"] else "") + ": "
             + "; ".join(lines + rs.hooks.apply_result(rs, state, dice, target, res, attacker_hex=str(here), kind="melee")))
    if c02_units.on_map(rs, state, uid):
        state["units"][uid]["disrupted"] = True
        text += f"; {uid} stops in {state['units'][uid]['hex']}, Disrupted until rallied (14.32)"
    return [text]


@staticmethod
def _ran(trail: list[str]) -> str:
    return f"; it runs {' '.join(trail[1:])}" if len(trail) > 1 else "; it cannot move"


def _stampede_contact(rs, state: State, uid: str, here: Hex, d: str) -> str | None:
    """The combat unit a stampeding Mumak now touches (any side; none
        across a wall, tower or gate hexside): the one straight ahead first,
        then the lowest hex number, then the lowest unit id (ruling)."""
    occ = c05_stacking.occupancy(rs, state)
    found = []
    ahead = here.neighbour(d)
    for nb in here.neighbours():
        ids = sorted(x for x in occ.get(str(nb), ()) if x != uid and rs.units[x].is_combat)
        if ids and rs.hooks.zoc_through(rs, state, nb, here):
            found.append((nb != ahead, nb, ids[0]))
    return min(found)[2] if found else None


def _stampede_marks(rs, state: State, side: str, trail: list[str]) -> None:
    """A stampede passes through hexes: the road (20.1) and gates (15.15) see it."""
    road = state.setdefault("road", {h: None for h in rs._road_hexes_20_1})
    for hx in trail:
        if hx in road:
            road[hx] = side
    for a, b in zip(trail, trail[1:]):
        f = rs.hexmap.side_index.get((Hex.parse(a), Hex.parse(b)))
        if f and f[0] == "gate":
            state["gates"][f[1]] = side
