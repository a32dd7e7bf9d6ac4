"""7.5 Retreat and advance after combat: the hexes a retreating unit may enter, the owner's choice
(a pending decision: ``retreat <unit> <hex>``), elimination when none is left (7.55), and the
voluntary advance into the vacated hex (``advance <unit> <hex>``).
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.spi.common import _phrase
from engine.orders import Order
from engine import pending
from engine.spi import c04_movement
from engine.spi import c05_stacking
from engine.spi import c06_zoc
from engine.spi import c07_1_fire
from engine.spi import c07_combat
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import common


def _check_advance_offer(rs, state: State, seat: str, uid: str, hx: str) -> list[str]:
    """7.5: the advance on offer is this seat's, into this hex, by this unit,
        not Disrupted, within stacking. Returns the units that would move."""
    adv = state["ph"].get("advance")
    if not adv or adv["seat"] != seat:
        raise IllegalOrder("advance after combat only right after a melee that emptied the defender's hex", "7.5")
    if hx != adv["hex"]:
        raise IllegalOrder(f"advance only into {adv['hex']}, the hex the defender left", "7.5")
    if uid not in adv["units"]:
        raise IllegalOrder(f"only {_phrase(adv['units'])} may advance (they took part in that melee)", "7.5")
    if state["units"][uid].get("disrupted"):
        raise IllegalOrder(f"{uid} is Disrupted and may not advance", "7.5")
    uids = c04_movement._stack_of(rs, state, (uid,))
    c05_stacking._check_stacking(rs, state, seat, uids, hx, c05_stacking.occupancy(rs, state))
    if Hex.parse(hx) in rs.hooks.extra_blocked(rs, state, seat, uids):
        raise IllegalOrder(f"{uid} may not enter {hx}", "7.5")
    return uids


def _check_advance(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hx = args
    c02_units._own_on_map(rs, state, seat, uid)
    uids = _check_advance_offer(rs, state, seat, uid, hx)
    side = rs.hooks.hexside_rule(rs, state, uids, Hex.parse(state["units"][uid]["hex"]), Hex.parse(hx))
    if side is None or side == "all":
        raise IllegalOrder(rs.hooks.why_hexside(rs, state, uids, Hex.parse(state["units"][uid]["hex"]), Hex.parse(hx)), "7.5")


def _check_retreat(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hx = args
    if not state["pending"]:
        raise IllegalOrder("no unit of yours has to retreat now", "7.5")
    p = state["pending"][0]
    if p["seat"] != seat or p["unit"] != uid:
        raise IllegalOrder(f"{p['unit']} is the unit that must retreat now", "7.5")
    if hx not in p["options"]:
        raise IllegalOrder(f"{uid} may retreat to {_phrase(p['options'])}; not {hx}", "7.5")


def _offer_advance(rs, state: State, seat: str, units: list[str], hx: str) -> None:
    ok = [u for u in units if c02_units.on_map(rs, state, u) and not state["units"][u].get("disrupted")
          and distance(state["units"][u]["hex"], hx) == 1]
    state["ph"]["advance"] = {"seat": seat, "units": ok, "hex": hx} if ok else None
    if state["ph"]["advance"]:
        real = [u for u in ok if c03_sequence._ok(rs, state, seat, Action("advance", (u, hx)))]
        state["ph"]["advance"] = {"seat": seat, "units": real, "hex": hx} if real else None


def retreat_options(rs, state: State, uids: list[str], n: int, attacker_hex: str | None) -> list[str]:
    """Final hexes of a legal ``n``-hex retreat (7.5): each step farther
        from the attacker, into passable hexes free of enemy units and enemy
        ZOC, across no forbidden hexside; the last hex within stacking."""
    seat = hooks.side_of(rs, state, uids[0])
    occ = c05_stacking.occupancy(rs, state)
    zoc = c06_zoc.zoc_map(rs, state, seat, occ)
    start = Hex.parse(state["units"][uids[0]]["hex"])
    src = Hex.parse(attacker_hex) if attacker_hex else None
    tec = rs.charts_for(state)["tec"]
    extra = rs.hooks.extra_blocked(rs, state, seat, uids)
    mounted = any(rs.units[u].is_mounted for u in uids)  # a TEC row closed to cavalry (cavalry_passable)
    frontier = {start}
    for _ in range(n):
        nxt = set()
        for h in frontier:
            for nb in h.neighbours():
                info = rs.hexmap.hexes.get(nb)
                if info is None or not tec.get(info.terrain, {}).get("passable", True):
                    continue
                if mounted and tec.get(info.terrain, {}).get("cavalry_passable", True) is False:
                    continue
                if src is not None and nb.distance(src) <= h.distance(src):
                    continue
                if any(hooks.side_of(rs, state, x) != seat and (rs.units[x].is_combat or rs.units[x].is_leader)
                       for x in occ.get(str(nb), ())):
                    continue
                if nb in zoc:
                    continue
                if nb in extra:
                    continue
                side = rs.hooks.hexside_rule(rs, state, uids, h, nb, retreat=True)
                if side is None:
                    continue
                nxt.add(nb)
        frontier = nxt
    out = []
    moving = uids + [x for x in occ.get(str(start), ()) if rs.units[x].is_leader]
    for h in sorted(frontier):
        try:
            c05_stacking._check_stacking(rs, state, seat, moving, str(h), occ)
        except IllegalOrder:
            continue
        out.append(str(h))
    return out


def _start_retreat(rs, state: State, dice: Dice, uids: list[str], n: int, attacker_hex: str | None,
                   leaders: list[str]) -> list[str]:
    opts = retreat_options(rs, state, uids, n, attacker_hex)
    seat = hooks.side_of(rs, state, uids[0])
    if not opts:
        for v in uids:
            c07_combat.eliminate(rs, state, v)
        return [f"{_phrase(uids)} cannot retreat {n} hex{'es' if n > 1 else ''} and is eliminated (7.55)"]
    for v in uids:
        state["units"][v]["disrupted"] = True
    if len(opts) == 1:
        return [f"{_phrase(uids)} Disrupted and retreats to {opts[0]} (7.5)"] + \
            _move_retreat(rs, state, uids, opts[0])
    state["pending"].append(pending.new(CHOOSE_RETREAT, seat, unit=uids[0], units=uids, options=opts, hexes=n))
    return [f"{_phrase(uids)} Disrupted and must retreat {n} hex{'es' if n > 1 else ''}: "
            f"{c02_units.title_of(rs, seat)} chooses ({_phrase(opts)}) (7.5)"]


def _move_retreat(rs, state: State, uids: list[str], hx: str) -> list[str]:
    here = state["units"][uids[0]]["hex"]
    occ = c05_stacking.occupancy(rs, state)
    moving = list(uids) + [x for x in occ.get(here, ()) if rs.units[x].is_leader
                           and hooks.side_of(rs, state, x) == hooks.side_of(rs, state, uids[0])]
    for v in moving:
        state["units"][v]["hex"] = hx
    lead = [x for x in moving if x not in uids]
    lines = [f"{_phrase(lead)} retreat{'s' if len(lead) == 1 else ''} with it (8.24)"] if lead else []
    for step in rs.hooks.AFTER_RETREAT:  # what follows in the game (Gondor: the Banner)
        lines += step(rs, state, uids, here, hx)
    trail = [here, hx] if distance(here, hx) == 1 else [hx]  # (the units entered hx; Gondor: cauldrons, gates)
    lines += [e.public for e in hooks.on_enter(rs, state, rs.units[uids[0]].side, uids, trail, "retreat")]
    return lines


def _apply_retreat(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hx = args
    p = state["pending"].pop(0)
    lines = _move_retreat(rs, state, p["units"], hx)
    events = [Event(public=f"{c02_units.title_of(rs, seat)}: {_phrase(p['units'])} retreats to {hx} (7.5)"
                           + (f"; {'; '.join(lines)}" if lines else "") + ".", section="7.5",
                    new_phase=not state["pending"])]  # back to the phasing side: post and ping
    after = state["ph"].pop("advance_after", None)
    if after and not state["pending"]:
        if not c07_1_fire._target_units(rs, state, after["seat"], after["hex"]):
            rs.hooks._offer_advance(rs, state, after["seat"], after["units"], after["hex"])
            if state["ph"]["advance"]:
                events.append(Event(public=f"{after['hex']} is empty: {_phrase(state['ph']['advance']['units'])} "
                                           f"may advance into it (`advance <unit> {after['hex']}`, 7.5)."))
    return events


def _apply_advance(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hx = args
    uids = c04_movement._stack_of(rs, state, (uid,))
    here = state["units"][uid]["hex"]
    occ = c05_stacking.occupancy(rs, state)
    leaders = [x for x in occ.get(here, ()) if rs.units[x].is_leader and hooks.side_of(rs, state, x) == seat]
    for v in uids:
        state["units"][v]["hex"] = hx
    adv = state["ph"]["advance"]
    adv["units"] = [u for u in adv["units"] if u not in uids]
    if not adv["units"] or c05_stacking.combat_units_in(rs, state, hx):
        state["ph"]["advance"] = None
    extra = f" ({_phrase(leaders)} stay in {here})" if leaders else ""
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {_phrase(uids)} advances into {hx} (7.5){extra}.", section="7.5"),
            *hooks.on_enter(rs, state, seat, uids, [here, hx], "advance")]


def _parse_advance(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {ADVANCE.usage}")
    return (c02_units.resolve_unit(rs, words[0]), common._hex_token(words[1]))


def _parse_retreat(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {RETREAT.usage}")
    return (c02_units.resolve_unit(rs, words[0]), common._hex_token(words[1]))


def _legal_advances(rs, state: State, seat: str) -> Iterator[Action]:
    adv = state["ph"].get("advance")
    if adv and adv["seat"] == seat:
        for uid in adv["units"]:
            a = Action("advance", (uid, adv["hex"]))
            if c03_sequence._ok(rs, state, seat, a):
                yield a


# the orders of this file (engine/orders.py), each naming its functions above
ADVANCE = Order("advance", "`advance <unit> <hex>`",
              parse=_parse_advance,
              check=_check_advance,
              apply=_apply_advance,
              legal=_legal_advances,
              cases=("7.5",))
def _legal_retreats(rs, state: State, seat: str) -> Iterator[Action]:
    """The answers of the retreat waiting for ``seat`` (7.5), if one does (while it waits, the legal
    actions are these and nothing else: StandardRules.legal_actions)."""
    p = pending.blocking(rs.decisions, state["pending"])
    if p is not None and rs.decisions[p["kind"]] is CHOOSE_RETREAT:
        yield from pending.legal_answers(rs.decisions, rs, state, p, seat)


# the answer to the pending decision (``state["pending"]``: the owner chooses where a unit retreats)
RETREAT = Order("retreat", "`retreat <unit> <hex>`",
              parse=_parse_retreat,
              check=_check_retreat,
              apply=_apply_retreat,
              legal=_legal_retreats,
              cases=("7.5", "7.55"))


# the pending decision (engine/pending.py): the owner chooses where a Disrupted unit retreats
def _legal_retreat_answers(rs, state: State, p: dict) -> Iterator[Action]:
    for hx in p["options"]:
        yield Action("retreat", (p["unit"], hx))


def _awaited_retreat(rs, state: State, p: dict) -> str:
    return f"retreat {p['unit']}"


def _first_retreat(rs, state: State, p: dict) -> str:
    return f"first choose where {p['unit']} retreats: `retreat {p['unit']} <hex>` ({', '.join(p['options'][:6])})"


CHOOSE_RETREAT = pending.Decision("retreat", "7.5", answers=("retreat",), legal=_legal_retreat_answers,
                                  awaited=_awaited_retreat, first=_first_retreat)
