"""17.0 Gondor's spells: their costs, who may cast them and on what (17.13 operate Grond, 17.22
stalemate the Nazgul, 17.23 reveal Aragorn), and what each does.
"""
from __future__ import annotations

from engine.core import IllegalOrder, State
from engine.hexgrid import Hex, distance
from engine.spi.standard import StandardRules

from .common import (ARAGORN, BANNER, GROND, NAZGUL)
from engine.rulesets.gondor import c16_1_catapults_grond
from engine.rulesets.gondor import c18_banner
from engine.rulesets.gondor import c20_victory
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# ---------------------------------------------------------------- spells
def spell_cost(rs, state: State, spell: str) -> int:
    sp = rs.spells[spell]
    if "cost_night" in sp and c03_sequence.is_night(rs, state):
        return sp["cost_night"]
    if "cost_day" in sp and not c03_sequence.is_night(rs, state):
        return sp["cost_day"]
    return StandardRules.hooks.spell_cost(rs, state, spell)


def check_spell(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
    StandardRules.hooks.check_spell(rs, state, seat, leader, spell, target)
    if leader == NAZGUL and c18_banner._banner_unfurled(rs, state):
        raise IllegalOrder("the Lord of the Nazgul may not attempt any spell while the Banner of the King is "
                           "unfurled", "18.23")
    units = state["units"]
    if spell == "operate-grond":
        if state.get("grond_active"):
            raise IllegalOrder("Grond is already operated, for the rest of the game", "17.13")
        if not c02_units.on_map(rs, state, GROND):
            raise IllegalOrder("Grond is not on the map", "17.13")
        gh = units[GROND]["hex"]
        d = distance(units[leader]["hex"], gh)
        if d > 3:
            raise IllegalOrder(f"Grond is {d} hexes from {leader}; the Nazgul Lord must be within three", "17.13")
        if not any(c16_1_catapults_grond._grond_carrier(rs, x) for x in c05_stacking.occupancy(rs, state).get(gh, ())):
            raise IllegalOrder("Grond must be stacked with a Troll or Uruk-Hai unit", "17.13")
    elif spell == "stalemate-nazgul":
        if not c02_units.on_map(rs, state, NAZGUL):
            raise IllegalOrder("the Nazgul Lord is not on the map", "17.22")
        if distance(units[leader]["hex"], units[NAZGUL]["hex"]) != 1:
            raise IllegalOrder("Stalemate Nazgul is cast only while Gandalf is adjacent to the Nazgul Lord",
                               "17.22")
        if _stalemate_hex(rs, state, leader) is None:
            raise IllegalOrder("there is no hex on the map six hexes east of Gandalf to put the Nazgul Lord in",
                               "17.22")
    elif spell == "reveal-aragorn":
        if not c02_units.on_map(rs, state, ARAGORN):
            raise IllegalOrder("the Banner of the King may be brought forth only once Aragorn is on the map",
                               "18.11")


def spell_effect(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
    units = state["units"]
    if spell == "operate-grond":
        state["grond_active"] = True
        return "Grond is activated for the rest of the game and may now breach (16.28)"
    if spell == "stalemate-nazgul":
        dest = _stalemate_hex(rs, state, leader)
        old = units[NAZGUL]["hex"]
        units[NAZGUL]["hex"] = dest
        sp = rs.spells[spell]
        state["effects"].append({"title": sp["title"], "section": sp["section"], "spell": spell,
                                 "frozen": [NAZGUL],
                                 "until": {"turn": state["turn"] + 1, "step": state["step"]}})
        return (f"the Nazgul Lord is thrown from {old} to {dest}, six hexes east of {leader}, and is stalemated: "
                "it may not move, cast spells or rally for one Game-Turn")
    if spell == "reveal-aragorn":
        here = units[ARAGORN]["hex"]
        units[BANNER]["hex"] = here
        units[BANNER]["status"] = "map"
        ch = c20_victory._cmd(rs, state, "banner")
        state["effects"].append({"title": "Banner of the King", "section": "18.2", "spell": spell,
                                 "banner": True,
                                 "until": {"turn": state["turn"] + ch["turns"], "step": state["step"]}})
        return (f"Aragorn is revealed and the Banner of the King is unfurled with him in {here} for "
                f"{ch['turns']} Game-Turns: no Sauron rally within {ch['range']} hexes of it, "
                f"{ch['auto_rally']} Westernesse units within {ch['range']} hexes rallied each Rally Phase, and "
                "the Nazgul Lord may attempt no spell (18.2)")
    return StandardRules.hooks.spell_effect(rs, state, seat, leader, spell, target)


def _stalemate_hex(rs, state: State, leader: str) -> str | None:
    """17.22 (ruling): the hex six hexes from Gandalf straight East (down
        the column) if it is on the map, passable and holds no Westernesse
        unit; else the nearest such hex to it among the hexes exactly six
        from Gandalf in a higher row (ties: the lowest hex number)."""
    n = c20_victory._cmd(rs, state, "stalemate").get("distance", 6)
    g = Hex.parse(state["units"][leader]["hex"])
    ideal = Hex(g.col, g.row + n)
    occ = c05_stacking.occupancy(rs, state)
    tec = rs.charts_for(state)["tec"]
    best = None
    for h, info in rs.hexmap.hexes.items():
        if h.row <= g.row or g.distance(h) != n or not tec.get(info.terrain, {}).get("passable", True):
            continue
        if any(rs.units[x].side != "sauron" for x in occ.get(str(h), ())):
            continue
        key = (h.distance(ideal), h)
        if best is None or key < best:
            best = key
    return str(best[1]) if best else None
