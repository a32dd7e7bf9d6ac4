"""17.0 Leader special abilities, one use a turn in the Special Ability Phase: Death and Glory (17.11),
Arise, Arise! (17.21), Tactics (17.31: ``swap``), Form up! (17.41: ``dress``), Despair (17.51), Iron
Fist (17.61), Blood Lust (17.71), By the Whip (17.81). The orders: ``ability <leader> <name>
[<unit>...]``, ``swap <unit> <unit>``, ``dress <unit> <hex>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.orders import Order
from engine.spi.standard import StandardRules

from .common import ABILITIES, SIDE_TITLES
from engine.spi import c04_movement
from engine.spi import c05_stacking
from engine.spi import c06_zoc
from engine.spi import c08_4_formations
from engine.rulesets.celebrant import c13_setup
from engine.rulesets.celebrant import c15_16_terrain
from engine.spi import entry as spi_entry
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import common


# ------------------------------------------------------------- effects
def _effects(rs, state: State, kind: str) -> list[dict]:
    """Active abilities of ``kind`` whose leader is still on the map (17.0:
        an effect is lost when its leader is eliminated)."""
    return [e for e in state["effects"] if e.get("ability") == kind and c02_units.on_map(rs, state, e["leader"])]


def movement_allowance(rs, state: State, uid: str, ma: float) -> float:
    """17.81: the whip (an entry of Field of Celebrant's ``MOVEMENT_ALLOWANCE``)."""
    if state["step"] == "D":
        for e in _effects(rs, state, "whip"):
            if uid in e.get("units", []):
                return ma * rs.raw(state)["abilities"].get("whip_factor", 1.5)  # 17.81
    return ma


def _iron_fist_covers(rs, state: State, uid: str) -> bool:
    """17.61: Balchoth within three hexes of the Captain, in the Westernesse Combat Phase."""
    if state["step"] != "C" or c02_units.army_of(rs, uid) != "balchoth" or not c02_units.on_map(rs, state, uid):
        return False
    reach = rs.raw(state)["abilities"].get("iron_fist_reach", 3)
    return any(distance(state["units"][e["leader"]]["hex"], state["units"][uid]["hex"]) <= reach
               for e in _effects(rs, state, "iron-fist"))


def _check_form_up(rs, state: State, seat: str, kind: str, a: str, b: str, leader: str) -> None:
    """17.41 Form up!: in the Special Ability Phase, Gondorian infantry within
        three hexes of the Captain, in clear terrain, form a Shield Wall."""
    if not any(e["leader"] == leader for e in _effects(rs, state, "form-up")):
        raise IllegalOrder("a formation forms in the Movement Phase, or in this phase only under a Captain's "
                           "Form up! (`ability <captain> form-up` first)", "17.41")
    if kind != "shieldwall":
        raise IllegalOrder("Form up! forms Shield Walls only", "17.41")
    reach = rs.raw(state)["abilities"].get("form_up_reach", 3)
    spec = rs.charts_for(state)["formations"]["shieldwall"]
    tec = rs.raw(state)["tec"]
    for x in (a, b):
        u = c02_units._own_on_map(rs, state, seat, x)
        if c02_units.army_of(rs, x) != "gondor" or u.type not in spec["types"]:
            raise IllegalOrder(f"{x} is not Gondorian infantry", "17.41")
        if c08_4_formations.formation_of(rs, state, x):
            raise IllegalOrder(f"{x} is already in a formation", "8.4")
        if state["units"][x].get("disrupted"):
            raise IllegalOrder(f"{x} is Disrupted", "8.4")
        hx = state["units"][x]["hex"]
        if distance(hx, state["units"][leader]["hex"]) > reach:
            raise IllegalOrder(f"{x} is more than {reach} hexes from {leader}", "17.41")
        if tec.get(rs.terrain(hx), {}).get("cost", 1) != 1:
            raise IllegalOrder(f"{x} is in {rs.terrain(hx)}: a Shield Wall forms in clear terrain "
                               "(no movement penalty, 8.41)", "17.41")
    if distance(state["units"][a]["hex"], state["units"][b]["hex"]) != 1:
        raise IllegalOrder(f"{b} must be next to {a}", "8.4")

# --- special abilities (17.x)
def _parse_ability(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) < 2 or len(words) > 4:
        raise InvalidOrder("usage: `ability <leader> <name> [<unit>...]`, e.g. `ability OC1 whip`, "
                           "`ability EORL death-and-glory ER1 ER2`")
    leader = c02_units.resolve_unit(rs, words[0])
    name = words[1].lower()
    if name not in ABILITIES:
        raise InvalidOrder(f"unknown ability `{name[:20]}` (abilities: {', '.join(ABILITIES)})")
    units = tuple(c02_units.resolve_unit(rs, w) for w in words[2:])
    return (leader, name, *units)


def _check_ability(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    rs.seat_check(state, seat)
    leader, name, *units = args
    title, sec, step = ABILITIES[name]
    u = rs.units[leader]
    if u.side != seat:
        raise IllegalOrder(f"{leader} is not yours")
    if u.ability != name:
        mine = ABILITIES[u.ability][0] if u.ability in ABILITIES else "none"
        raise IllegalOrder(f"{leader}'s special ability is {mine}, not {title}",
                           ABILITIES[u.ability][1] if u.ability in ABILITIES else "17.0")
    if not c02_units.on_map(rs, state, leader):
        raise IllegalOrder(f"{leader} is not on the map", sec)
    if leader in state["cel"]["abilities"]:
        raise IllegalOrder(f"{leader} has already used {title} (once per game, 17.0)", "17.0")
    if state["step"] != step:
        where = rs.steps[step]["title"]
        raise IllegalOrder(f"{title} is used in the {where}", sec if name == "arise" else "3.0")
    if name == "death-and-glory":
        _check_glory(rs, state, seat, leader, units)
    elif units:
        raise InvalidOrder(f"usage: `ability {leader} {name}`")


def _check_glory(rs, state: State, seat: str, leader: str, units: list[str]) -> None:
    """17.11: Eorl forms a Wedge (8.4) or joins one, in the Special Ability Phase."""
    here = state["units"][leader]["hex"]
    if len(units) == 1:
        a = units[0]
        c02_units._own_on_map(rs, state, seat, a)
        f = c08_4_formations.formation_of(rs, state, a)
        if not f or state["formations"][f]["kind"] != "wedge":
            raise IllegalOrder(f"{a} is not in a Wedge: give two cavalry units to form one", "17.11")
        if distance(here, state["units"][a]["hex"]) > 1:
            raise IllegalOrder("Eorl must be in or next to the Wedge's hex to join it", "17.11")
        return
    if len(units) != 2:
        raise InvalidOrder(f"usage: `ability {leader} death-and-glory <unit> <unit>` (form) or "
                           f"`ability {leader} death-and-glory <unit>` (join)")
    a, b = units
    spec = rs.charts_for(state)["formations"]["wedge"]
    for x in (a, b):
        u = c02_units._own_on_map(rs, state, seat, x)
        if u.type not in spec["types"]:
            raise IllegalOrder(f"{x} is {u.type}; a Wedge is made of {' or '.join(spec['types'])} units", "8.4")
        if c08_4_formations.formation_of(rs, state, x):
            raise IllegalOrder(f"{x} is already in a formation", "8.4")
        if state["units"][x].get("disrupted"):
            raise IllegalOrder(f"{x} is Disrupted", "8.4")
    if state["units"][a]["hex"] != here:
        raise IllegalOrder(f"{leader} must be stacked with {a} in {state['units'][a]['hex']}", "8.4")
    if distance(here, state["units"][b]["hex"]) != 1:
        raise IllegalOrder(f"{b} must be next to {a}", "8.4")
    if rs.raw(state)["tec"].get(rs.terrain(here), {}).get("cost", 1) != 1:
        raise IllegalOrder(f"{here} is {rs.terrain(here)}: formations form only in clear hexes (8.41)", "8.4")


def _apply_ability(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, name, *units = args
    title, sec, step = ABILITIES[name]
    state["cel"]["abilities"][leader] = state["turn"]
    eff = {"ability": name, "leader": leader, "title": title, "section": sec, "side": seat,
           "turn": state["turn"], "until": {"turn": state["turn"] + 1, "step": rs.sequence["step"][0]["id"]}}
    ab = rs.raw(state)["abilities"]
    here = state["units"][leader]["hex"]
    who = f"{SIDE_TITLES[seat]}: {rs.units[leader].label()} uses **{title}**"
    if name == "whip":
        reach = ab.get("whip_reach", 3)
        eff["units"] = sorted([leader] + [x for x in state["units"] if c02_units.army_of(rs, x) == "orcs"
                                          and rs.units[x].is_combat and c02_units.on_map(rs, state, x)
                                          and distance(here, state["units"][x]["hex"]) <= reach])
        text = (f"{who}: {len(eff['units']) - 1} orc units within {reach} hexes and {leader} force-march at "
                f"{ab.get('whip_factor', 1.5):g} times their Movement Allowance this turn ({sec}).")
    elif name == "blood-lust":
        text = (f"{who}: orc units within {ab.get('blood_lust_reach', 6)} hexes of {leader} at the end of the "
                f"Shadow Movement Phase will be Fanatical in the Shadow Combat Phase ({sec}, 7.37).")
    elif name == "despair":
        text = f"{who}: no Westernesse unit may take a rally roll this turn ({sec})."
    elif name == "iron-fist":
        text = (f"{who}: Balchoth units within {ab.get('iron_fist_reach', 3)} hexes of {leader} ignore "
                f"Disrupted results in the Westernesse Combat Phase ({sec}).")
    elif name == "tactics":
        eff["swapped"] = []
        text = (f"{who}: Disordered or Reduced Gondorian units within {ab.get('tactics_reach', 3)} hexes may "
                f"swap places with fresh units (`swap <unit> <unit>`) in this phase ({sec}).")
    elif name == "form-up":
        text = (f"{who}: Gondorian infantry within {ab.get('form_up_reach', 3)} hexes in clear terrain may form "
                f"Shield Walls now (`form shieldwall <unit> <unit> {leader}`), each then dressing one hex "
                f"({sec}).")
    elif name == "arise":
        text = f"{who}: every rally {leader} attempts this Rally Phase succeeds ({sec}; it overrides Despair)."
    else:  # death-and-glory
        eff["until"] = None  # 17.11: while the Wedge remains intact
        if len(units) == 1:
            fid = c08_4_formations.formation_of(rs, state, units[0])
            f = state["formations"][fid]
            state["units"][leader]["hex"] = state["units"][units[0]]["hex"]
            f["leader"], f["glory"] = leader, True
            text = f"{who}: he joins the Wedge {' + '.join(f['units'])} in {state['units'][leader]['hex']}"
        else:
            a, b = units
            state["units"][b]["hex"] = here
            n = 1
            while f"F{n}" in state["formations"]:
                n += 1
            state["formations"][f"F{n}"] = {"kind": "wedge", "units": [a, b], "leader": leader,
                                            "turn": state["turn"], "glory": True}
            text = f"{who}: {a} and {b} form a Wedge with {leader} in {here}; it may move and fight this turn"
        text += "; after an advance it gets a second round of combat, while the Wedge is intact (17.11)."
    state["effects"].append(eff)
    return [Event(public=text, section=sec)]


def _expire_effects(rs, state: State) -> None:
    keep = [e for e in state["effects"] if e.get("ability") == "death-and-glory"]
    state["effects"] = [e for e in state["effects"] if e.get("ability") != "death-and-glory"]
    StandardRules.hooks._expire_effects(rs, state)
    for e in keep:  # 17.11: in play while the Wedge is intact and Eorl lives
        if c02_units.on_map(rs, state, e["leader"]) and any(f.get("glory") for f in state["formations"].values()):
            state["effects"].append(e)


def _apply_advance(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    """17.11: Eorl's Wedge gains a second round of combat after it advances."""
    uid, hx = args
    f = c08_4_formations.formation_of(rs, state, uid)
    glory = bool(f and state["formations"][f].get("glory") and c02_units.on_map(rs, state, state["formations"][f]["leader"]))
    eorl = state["formations"][f]["leader"] if glory else None
    with_eorl = glory and state["units"][eorl]["hex"] == state["units"][uid]["hex"]
    events = spi_entry._apply_advance(rs, state, seat, (uid, hx), dice)
    if glory:
        if with_eorl:
            state["units"][eorl]["hex"] = hx
        rounds = state["ph"].setdefault("glory_rounds", [])
        if f not in rounds:
            rounds.append(f)
            members = state["formations"][f]["units"]
            state["ph"]["meleed"] = [x for x in state["ph"]["meleed"] if x not in members]
            events.append(Event(public=f"Death and Glory: Eorl's Wedge {' + '.join(members)} may attack an "
                                       "adjacent unit again (17.11).", section="17.11"))
    return events

# --- Tactics (17.31)
def _parse_swap(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder("usage: `swap <unit> <unit>` (Cirion's Tactics)")
    return (c02_units.resolve_unit(rs, words[0]), c02_units.resolve_unit(rs, words[1]))


def _tired(rs, state: State, uid: str) -> bool:
    r = state["units"][uid]
    return bool(r.get("disrupted") or r.get("reduced") or c13_setup.is_disordered(rs, state, uid))


def _check_swap(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    rs.seat_check(state, seat)
    a, b = args
    eff = [e for e in _effects(rs, state, "tactics") if e["turn"] == state["turn"]]
    if not eff or state["step"] != "A-westernesse":
        raise IllegalOrder("units swap only under Cirion's Tactics, in the Special Ability Phase "
                           "(`ability CIR tactics` first)", "17.31")
    e = eff[0]
    reach = rs.raw(state)["abilities"].get("tactics_reach", 3)
    ch = state["units"][e["leader"]]["hex"]
    occ = c05_stacking.occupancy(rs, state)
    for x in (a, b):
        u = c02_units._own_on_map(rs, state, seat, x)
        if c02_units.army_of(rs, x) != "gondor" or not u.is_combat:
            raise IllegalOrder(f"{x} is not a Gondorian combat unit", "17.31")
        if distance(ch, state["units"][x]["hex"]) > reach:
            raise IllegalOrder(f"{x} is more than {reach} hexes from Cirion", "17.31")
        if x in e["swapped"]:
            raise IllegalOrder(f"{x} has already swapped this phase", "17.31")
        if c08_4_formations.formation_of(rs, state, x):
            raise IllegalOrder(f"{x} is in a formation", "17.31")
    if not _tired(rs, state, a):
        raise IllegalOrder(f"{a} is neither Disordered nor Reduced", "17.31")
    if _tired(rs, state, b):
        raise IllegalOrder(f"{b} is Disordered or Reduced itself", "17.31")
    if c06_zoc.exerting(rs, state, Hex.parse(state["units"][b]["hex"]), seat, occ):
        raise IllegalOrder(f"{b} is in an enemy zone of control", "17.31")
    for x, other in ((a, b), (b, a)):
        if rs.units[x].is_cavalry and Hex.parse(state["units"][other]["hex"]) in c15_16_terrain._cavalry_closed(rs, state):
            raise IllegalOrder(f"{x} is cavalry and may not enter the landing", "16.21")


def _apply_swap(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    a, b = args
    ra, rb = state["units"][a], state["units"][b]
    ra["hex"], rb["hex"] = rb["hex"], ra["hex"]
    e = next(e for e in _effects(rs, state, "tactics") if e["turn"] == state["turn"])
    e["swapped"] += [a, b]
    return [Event(public=f"Westernesse: Tactics, {a} and {b} swap places ({a} now in {ra['hex']}, {b} in "
                         f"{rb['hex']}) (17.31).", section="17.31")]

# --- Form up! dressing (17.41)
def _parse_dress(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder("usage: `dress <unit> <hex>` (a Shield Wall formed under Form up! moves one hex)")
    return (c02_units.resolve_unit(rs, words[0]), common._hex_token(words[1]))


def _check_dress(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    rs.seat_check(state, seat)
    uid, hx = args
    c02_units._own_on_map(rs, state, seat, uid)
    f = c08_4_formations.formation_of(rs, state, uid)
    if c03_sequence.kind(rs, state) != "reinforce" or not f or state["formations"][f].get("dress") != state["turn"]:
        raise IllegalOrder("only a Shield Wall just formed under Form up! dresses one hex, in the Special "
                           "Ability Phase", "17.41")
    members = state["formations"][f]["units"]
    here = Hex.parse(state["units"][uid]["hex"])
    h = Hex.parse(hx)
    if h not in rs.hexmap or h.distance(here) != 1:
        raise IllegalOrder(f"{hx} is not next to {here}", "17.41")
    occ = c05_stacking.occupancy(rs, state)
    cost, _ = c04_movement._step_cost_fn(rs, state, seat, list(members), here, occ)
    if cost(here, h) is None:
        raise IllegalOrder(f"the Shield Wall cannot step into {hx}", "17.41")
    c05_stacking._check_stacking(rs, state, seat, list(members), hx, occ)


def _apply_dress(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hx = args
    f = c08_4_formations.formation_of(rs, state, uid)
    members = state["formations"][f]["units"]
    for m in members:
        state["units"][m]["hex"] = hx
    state["formations"][f]["dress"] = False
    return [Event(public=f"Westernesse: the Shield Wall {' + '.join(members)} dresses the line into {hx} (17.41).",
                  section="17.41")]


def _legal_glory(rs, state: State, seat: str, leader: str) -> Iterator[Action]:
    here = state["units"][leader]["hex"]
    occ = c05_stacking.occupancy(rs, state)
    cands = []
    for a in c05_stacking.combat_units_in(rs, state, here, occ):
        for nb in Hex.parse(here).neighbours():
            for b in c05_stacking.combat_units_in(rs, state, str(nb), occ):
                cands.append(Action("ability", (leader, "death-and-glory", a, b)))
    for fid, f in sorted(state["formations"].items()):
        if f["kind"] == "wedge":
            cands.append(Action("ability", (leader, "death-and-glory", f["units"][0])))
    for a in cands:
        if c03_sequence._ok(rs, state, seat, a):
            yield a


def _legal_form_up(rs, state: State, seat: str) -> Iterator[Action]:
    occ = c05_stacking.occupancy(rs, state)
    for e in _effects(rs, state, "form-up"):
        if e["turn"] != state["turn"]:
            continue
        here = Hex.parse(state["units"][e["leader"]]["hex"])
        for uid in sorted(state["units"]):
            if c02_units.army_of(rs, uid) != "gondor" or not rs.units[uid].is_combat or not c02_units.on_map(rs, state, uid):
                continue
            ha = Hex.parse(state["units"][uid]["hex"])
            if ha.distance(here) > 3:
                continue
            for nb in ha.neighbours():
                for b in c05_stacking.combat_units_in(rs, state, str(nb), occ):
                    a = Action("form", ("shieldwall", uid, b, e["leader"]))
                    if c03_sequence._ok(rs, state, seat, a):
                        yield a
    for fid, f in sorted(state["formations"].items()):
        if f.get("dress") == state["turn"] and rs.units[f["units"][0]].side == seat:
            here = Hex.parse(state["units"][f["units"][0]]["hex"])
            for nb in here.neighbours():
                a = Action("dress", (f["units"][0], str(nb)))
                if c03_sequence._ok(rs, state, seat, a):
                    yield a
    e = [x for x in _effects(rs, state, "tactics") if x["turn"] == state["turn"]]
    if e and state["step"] == "A-westernesse":
        mine = sorted(x for x in state["units"] if c02_units.army_of(rs, x) == "gondor" and rs.units[x].is_combat
                      and c02_units.on_map(rs, state, x))
        tired = [x for x in mine if _tired(rs, state, x)]
        fresh = [x for x in mine if not _tired(rs, state, x)]
        for a in tired:
            for b in fresh:
                act = Action("swap", (a, b))
                if c03_sequence._ok(rs, state, seat, act):
                    yield act


def legal_abilities(rs, state: State, seat: str) -> Iterator[Action]:
    """17.0: each leader's ability in its phase; 17.41 Form up! in the Reinforcement Phase (an entry of
    Field of Celebrant's ``LEGAL_EXTRA``)."""
    if state["turn"] == 0:
        return
    for leader in sorted(state["units"]):
        u = rs.units[leader]
        if u.side != seat or not u.is_leader or u.ability not in ABILITIES:
            continue
        if leader in state["cel"]["abilities"] or not c02_units.on_map(rs, state, leader):
            continue
        if state["step"] != ABILITIES[u.ability][2]:
            continue
        if u.ability == "death-and-glory":
            yield from _legal_glory(rs, state, seat, leader)
            continue
        a = Action("ability", (leader, u.ability))
        if c03_sequence._ok(rs, state, seat, a):
            yield a
    if c03_sequence.kind(rs, state) == "reinforce" and seat == "westernesse":
        yield from _legal_form_up(rs, state, seat)


# the orders of this file (engine/orders.py), each naming its functions above
ABILITY = Order("ability", "`ability <leader> <name> [<unit>...]`, e.g. `ability OC1 whip`",
              parse=_parse_ability,
              check=_check_ability,
              apply=_apply_ability,
              listed_in=legal_abilities,
              cases=("17.0",),
              dice=False)
SWAP = Order("swap", "`swap <unit> <unit>` (Cirion's Tactics)",
              parse=_parse_swap,
              check=_check_swap,
              apply=_apply_swap,
              listed_in=legal_abilities,
              cases=("17.31",),
              dice=False)
DRESS = Order("dress", "`dress <unit> <hex>` (a Shield Wall formed under Form up! moves one hex)",
              parse=_parse_dress,
              check=_check_dress,
              apply=_apply_dress,
              listed_in=legal_abilities,
              cases=("17.41",),
              dice=False)

