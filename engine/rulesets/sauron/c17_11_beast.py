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

BEAST = "BEA"


@cached_property
def spells(self) -> dict[str, dict]:
    return tomllib.loads(self.ruleset_charts_text).get("spells", {})


def beast(self, state: State) -> dict:
    return state["sau"]["beast"]


def beast_armed(self, state: State) -> bool:
    b = self.beast(state)
    return b["horn"] or b["breath"]

# --- ratings and movement
def ratings(self, state: State, uid: str):
    r = StandardRules.ratings(self, state, uid)
    if uid == BEAST and r and self.beast(state)["horn"]:
        return Ratings("A", r.missile, r.armor, r.morale)
    return r


def movement_allowance(self, state: State, uid: str, ma: float) -> float:
    """17.11: the Beast in flight moves with its flight allowance (an entry of Sauron's ``MOVEMENT_ALLOWANCE``)."""
    if uid == BEAST and self.beast(state)["flight"]:
        return self.raw(state)["beast"]["flight"]
    return ma


def unit_dem_value(self, state: State, uid: str) -> int:
    if uid == BEAST:
        return self.raw(state)["beast"]["dem"]
    return StandardRules.unit_dem_value(self, state, uid)


def adjust_result(self, state: State, target: str, res: tuple, prof: dict) -> tuple:
    if target == BEAST and self.beast(state)["armor"]:
        return ()
    return StandardRules.adjust_result(self, state, target, res, prof)


def beast_total(self, state: State) -> int:
    ch = self.raw(state)["beast"]
    return (ch["combat_armed"] if self.beast_armed(state) else ch["combat"]) - self.beast(state)["wounds"]

# --- the effects that last a Game-Turn
def has_effect(self, state: State, spell: str) -> bool:
    return any(e.get("spell") == spell for e in state["effects"])


def is_fanatic(self, state: State, uid: str) -> bool:
    if self.has_effect(state, "total-eclipse") and "orc" in self.units[uid].tags:
        return True
    return StandardRules.is_fanatic(self, state, uid)

# --- spells
def check_spell(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
    StandardRules.check_spell(self, state, seat, leader, spell, target)
    ped = self.raw(state)["pedestal"]["hex"]
    if state["units"][leader]["hex"] != ped:
        raise IllegalOrder(f"Sauron casts only while stacked with his pedestal, in {ped}", "8.5")
    if spell == "summon-beast":
        if state["units"][BEAST]["status"] != "out":
            raise IllegalOrder("the Beast has already been summoned", "17.1")
        if self._beast_hex(state, leader) is None:
            raise IllegalOrder("there is no free hex beside Sauron for the Beast", "17.1")
    elif spell.startswith("beast-"):
        if not self.on_map(state, BEAST):
            raise IllegalOrder("the Beast is not on the map", "17.1")
    if spell == "sinister-visions" and (target is None or Hex.parse(target) not in self.hexmap):
        raise IllegalOrder("Sinister Visions needs a target hex on the map", "8.5")


def _beast_hex(self, state: State, leader: str) -> str | None:
    occ = self.occupancy(state)
    h = Hex.parse(state["units"][leader]["hex"])
    tec = self.charts_for(state)["tec"]
    for n in [h] + sorted(h.neighbours()):
        if n not in self.hexmap or not tec.get(self.hexmap.hexes[n].terrain, {}).get("passable", True):
            continue
        if not any(self.units[x].is_combat for x in occ.get(str(n), ())):
            return str(n)
    return None


def spell_targets(self, state: State, seat: str, spell: str) -> Iterator[str]:
    if spell == "sinister-visions":
        seen = set()
        for x in sorted(state["units"]):
            if hooks.side_of(self, state, x) != seat and "men" in self.units[x].tags and self.on_map(state, x):
                hx = state["units"][x]["hex"]
                if hx not in seen:
                    seen.add(hx)
                    yield hx
    return


def spell_effect(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
    b = self.beast(state)
    if spell == "summon-beast":
        hx = self._beast_hex(state, leader)
        state["units"][BEAST].update(hex=hx, status="map")
        return f"the Beast appears in {hx}"
    if spell.startswith("beast-"):
        b[spell[6:]] = True
        return self.spells[spell]["text"]
    if spell == "sinister-visions":
        hit = sorted(x for x in state["units"] if self.on_map(state, x) and hooks.side_of(self, state, x) != seat
                     and "men" in self.units[x].tags and self.units[x].is_combat
                     and distance(state["units"][x]["hex"], target) <= 2)
        for x in hit:
            state["units"][x]["disrupted"] = True
        return f"{', '.join(hit) or 'no unit'} Disrupted (within two hexes of {target})"
    return StandardRules.spell_effect(self, state, seat, leader, spell, target)

# --- Death Breath
def _parse_breathe(self, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 3 or words[1].lower() != "at":
        raise InvalidOrder(f"usage: {BREATHE.usage}")
    return (self.resolve_unit(words[0]), "at", self._hex_token(words[2]))


def _check_breathe(self, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, at, hx = args
    c07_combat._combat_phase_check(self, state, seat, "fire", "17.1")
    if uid != BEAST or seat != "sauron" or self.phasing(state) != seat or not self.on_map(state, BEAST):
        raise IllegalOrder("only the Beast breathes death, in Sauron's Combat Phase", "17.1")
    if not self.beast(state)["breath"]:
        raise IllegalOrder("the Beast has not been given Death Breath", "17.1")
    if self.beast(state).get("breathed") == state["turn"]:
        raise IllegalOrder("the Beast breathes death once a Game-Turn", "17.1")
    if distance(state["units"][BEAST]["hex"], hx) != 1:
        raise IllegalOrder("Death Breath reaches an adjacent hex", "17.1")
    if not any(hooks.side_of(self, state, x) != seat for x in self.occupancy(state).get(hx, ())):
        raise IllegalOrder(f"no enemy in {hx}", "17.1")


def _apply_breathe(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, at, hx = args
    self.beast(state)["breathed"] = state["turn"]
    occ = self.occupancy(state)
    lines = []
    for x in sorted(occ.get(hx, ())):
        u = self.units[x]
        if hooks.side_of(self, state, x) == seat:
            continue
        if u.is_combat:
            c07_combat.eliminate(self, state, x)
            lines.append(f"{x} eliminated")
    for x in sorted(occ.get(hx, ())):
        if self.units[x].is_leader and self.on_map(state, x):
            if state["sau"]["items"].get("narsil") == x:
                lines.append(self._break_narsil(state, "Death Breath"))
            lines.append(self._wound(state, x, self.raw(state)["beast"]["breath_wounds"]))
    return [Event(public=f"Sauron: the Beast breathes death on {hx}: {'; '.join(l for l in lines if l) or 'nothing'} "
                         "(17.1).", section="17.1")]


def _legal_breathe(self, state: State, seat: str) -> Iterator[Action]:
    if seat != "sauron" or not self.on_map(state, BEAST) or not self.beast(state)["breath"]:
        return
    h = Hex.parse(state["units"][BEAST]["hex"])
    for n in h.neighbours():
        a = Action("breathe", (BEAST, "at", str(n)))
        if self._ok(state, seat, a):
            yield a


# the orders of this file (engine/orders.py), each naming its functions above
BREATHE = Order("breathe", "`breathe BEA at <hex>` (Death Breath, once a Game-Turn)",
              parse=_parse_breathe,
              check=_check_breathe,
              apply=_apply_breathe,
              legal=_legal_breathe,
              cases=("17.1",))
