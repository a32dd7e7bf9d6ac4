"""8.5 Sauron's magic and 17.1x the Beast (facts.md 1.13; seed 004 17.11).

- Sauron has 45 Magic Capability Points and casts only while stacked with his pedestal (data [pedestal],
  reconstructed); 16.61: 10 of them go with the Ring.
- His spells (facts 1.13): Sinister Visions, Wrath of the Ringwraith, Total Eclipse of the Sun, Summon the
  Beast (5 points); the Beast's abilities each a spell: Flight, Horn Attack, Magic Armor (9), Death Breath,
  48 points in all (costs and effects not known: reconstructed in data/charts.toml, ruled in docs/sauron.md).
- 17.11 (variant): without Horn Attack or Death Breath the Beast melees at C and has Combat 9 in leader
  combat. It is worth 15 demoralization points (the overview).
- Magic Armor: harmed only by magic weapons: no missile or melee result touches it, and only a leader
  bearing Narsil or Aiglos may fight it in leader combat.
- Death Breath (ruling): once a Game-Turn, in Sauron's Combat Phase, ``breathe BEA at <hex>``: every
  Westernesse combat unit in that adjacent hex is eliminated, each leader there takes 2 wounds, and
  Narsil there breaks (19.211).
"""
from __future__ import annotations

import tomllib
from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.orders import Order
from engine.units import Ratings
from engine.spi.standard import StandardRules
from engine.spi import c07_combat
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c19_21_narsil
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking
from engine.spi import common

BEAST = "BEA"


@cached_property
def spells(rs) -> dict[str, dict]:
    return tomllib.loads(rs.ruleset_charts_text).get("spells", {})


def beast(rs, state: State) -> dict:
    return state["sau"]["beast"]


def beast_armed(rs, state: State) -> bool:
    b = beast(rs, state)
    return b["horn"] or b["breath"]

# --- ratings and movement
def ratings(rs, state: State, uid: str):
    r = StandardRules.hooks.ratings(rs, state, uid)
    if uid == BEAST and r and beast(rs, state)["horn"]:
        return Ratings("A", r.missile, r.armor, r.morale)
    return r


def movement_allowance(rs, state: State, uid: str, ma: float) -> float:
    """17.11: the Beast in flight moves with its flight allowance (an entry of Sauron's ``MOVEMENT_ALLOWANCE``)."""
    if uid == BEAST and beast(rs, state)["flight"]:
        return rs.raw(state)["beast"]["flight"]
    return ma


def unit_dem_value(rs, state: State, uid: str) -> int:
    if uid == BEAST:
        return rs.raw(state)["beast"]["dem"]
    return StandardRules.hooks.unit_dem_value(rs, state, uid)


def adjust_result(rs, state: State, target: str, res: tuple, prof: dict) -> tuple:
    if target == BEAST and beast(rs, state)["armor"]:
        return ()
    return StandardRules.hooks.adjust_result(rs, state, target, res, prof)


def beast_total(rs, state: State) -> int:
    ch = rs.raw(state)["beast"]
    return (ch["combat_armed"] if beast_armed(rs, state) else ch["combat"]) - beast(rs, state)["wounds"]

# --- the effects that last a Game-Turn
def has_effect(rs, state: State, spell: str) -> bool:
    return any(e.get("spell") == spell for e in state["effects"])


def is_fanatic(rs, state: State, uid: str) -> bool:
    if has_effect(rs, state, "total-eclipse") and "orc" in rs.units[uid].tags:
        return True
    return StandardRules.hooks.is_fanatic(rs, state, uid)

# --- spells
def check_spell(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
    StandardRules.hooks.check_spell(rs, state, seat, leader, spell, target)
    ped = rs.raw(state)["pedestal"]["hex"]
    if state["units"][leader]["hex"] != ped:
        raise IllegalOrder(f"Sauron casts only while stacked with his pedestal, in {ped}", "8.5")
    if spell == "summon-beast":
        if state["units"][BEAST]["status"] != "out":
            raise IllegalOrder("the Beast has already been summoned", "17.1")
        if _beast_hex(rs, state, leader) is None:
            raise IllegalOrder("there is no free hex beside Sauron for the Beast", "17.1")
    elif spell.startswith("beast-"):
        if not c02_units.on_map(rs, state, BEAST):
            raise IllegalOrder("the Beast is not on the map", "17.1")
    if spell == "sinister-visions" and (target is None or Hex.parse(target) not in rs.hexmap):
        raise IllegalOrder("Sinister Visions needs a target hex on the map", "8.5")


def _beast_hex(rs, state: State, leader: str) -> str | None:
    occ = c05_stacking.occupancy(rs, state)
    h = Hex.parse(state["units"][leader]["hex"])
    tec = rs.charts_for(state)["tec"]
    for n in [h] + sorted(h.neighbours()):
        if n not in rs.hexmap or not tec.get(rs.hexmap.hexes[n].terrain, {}).get("passable", True):
            continue
        if not any(rs.units[x].is_combat for x in occ.get(str(n), ())):
            return str(n)
    return None


def spell_targets(rs, state: State, seat: str, spell: str) -> Iterator[str]:
    if spell == "sinister-visions":
        seen = set()
        for x in sorted(state["units"]):
            if hooks.side_of(rs, state, x) != seat and "men" in rs.units[x].tags and c02_units.on_map(rs, state, x):
                hx = state["units"][x]["hex"]
                if hx not in seen:
                    seen.add(hx)
                    yield hx
    return


def spell_effect(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
    b = beast(rs, state)
    if spell == "summon-beast":
        hx = _beast_hex(rs, state, leader)
        state["units"][BEAST].update(hex=hx, status="map")
        return f"the Beast appears in {hx}"
    if spell.startswith("beast-"):
        b[spell[6:]] = True
        return rs.spells[spell]["text"]
    if spell == "sinister-visions":
        hit = sorted(x for x in state["units"] if c02_units.on_map(rs, state, x) and hooks.side_of(rs, state, x) != seat
                     and "men" in rs.units[x].tags and rs.units[x].is_combat
                     and distance(state["units"][x]["hex"], target) <= 2)
        for x in hit:
            state["units"][x]["disrupted"] = True
        return f"{', '.join(hit) or 'no unit'} Disrupted (within two hexes of {target})"
    return StandardRules.hooks.spell_effect(rs, state, seat, leader, spell, target)

# --- Death Breath
def _parse_breathe(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 3 or words[1].lower() != "at":
        raise InvalidOrder(f"usage: {BREATHE.usage}")
    return (c02_units.resolve_unit(rs, words[0]), "at", common._hex_token(words[2]))


def _check_breathe(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, at, hx = args
    c07_combat._combat_phase_check(rs, state, seat, "fire", "17.1")
    if uid != BEAST or seat != "sauron" or c03_sequence.phasing(rs, state) != seat or not c02_units.on_map(rs, state, BEAST):
        raise IllegalOrder("only the Beast breathes death, in Sauron's Combat Phase", "17.1")
    if not beast(rs, state)["breath"]:
        raise IllegalOrder("the Beast has not been given Death Breath", "17.1")
    if beast(rs, state).get("breathed") == state["turn"]:
        raise IllegalOrder("the Beast breathes death once a Game-Turn", "17.1")
    if distance(state["units"][BEAST]["hex"], hx) != 1:
        raise IllegalOrder("Death Breath reaches an adjacent hex", "17.1")
    if not any(hooks.side_of(rs, state, x) != seat for x in c05_stacking.occupancy(rs, state).get(hx, ())):
        raise IllegalOrder(f"no enemy in {hx}", "17.1")


def _apply_breathe(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, at, hx = args
    beast(rs, state)["breathed"] = state["turn"]
    occ = c05_stacking.occupancy(rs, state)
    lines = []
    for x in sorted(occ.get(hx, ())):
        u = rs.units[x]
        if hooks.side_of(rs, state, x) == seat:
            continue
        if u.is_combat:
            c07_combat.eliminate(rs, state, x)
            lines.append(f"{x} eliminated")
    for x in sorted(occ.get(hx, ())):
        if rs.units[x].is_leader and c02_units.on_map(rs, state, x):
            if state["sau"]["items"].get("narsil") == x:
                lines.append(c19_21_narsil._break_narsil(rs, state, "Death Breath"))
            lines.append(c07_22_leader_combat._wound(rs, state, x, rs.raw(state)["beast"]["breath_wounds"]))
    return [Event(public=f"Sauron: the Beast breathes death on {hx}: {'; '.join(l for l in lines if l) or 'nothing'} "
                         "(17.1).", section="17.1")]


def _legal_breathe(rs, state: State, seat: str) -> Iterator[Action]:
    if seat != "sauron" or not c02_units.on_map(rs, state, BEAST) or not beast(rs, state)["breath"]:
        return
    h = Hex.parse(state["units"][BEAST]["hex"])
    for n in h.neighbours():
        a = Action("breathe", (BEAST, "at", str(n)))
        if c03_sequence._ok(rs, state, seat, a):
            yield a


# the orders of this file (engine/orders.py), each naming its functions above
BREATHE = Order("breathe", "`breathe BEA at <hex>` (Death Breath, once a Game-Turn)",
              parse=_parse_breathe,
              check=_check_breathe,
              apply=_apply_breathe,
              legal=_legal_breathe,
              cases=("17.1",))
