"""SPI *Gondor* (1977): the siege of Minas Tirith.

Gondor stands on the Standard Rules engine (``engine.spi.standard``): movement,
zones of control, missile fire, leader combat, melee, retreats, rally, magic,
formations, night and demoralization come from there. This module adds the
set-up (13.0-13.2, 16.71-16.72), the city's walls, gates and levels (15.1x,
15.21-15.22), the reinforcement schedule (14.1-14.2), the spells of 17.x and
the Gondor armies (19.1).

Order notation (CONVENTIONS.md), besides the Standard Rules orders:
  deploy <unit> <hex>     place a unit during your set-up (again to re-place it)
"""
from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import cached_property

from engine.display import look
from engine.spi import chartguard
from engine.core import State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.spi.charts import ChartError
from engine.spi.c13_setup import DEPLOY
from engine.spi.c07_1_fire import FIRE
from engine.spi.c07_5_retreat import ADVANCE
from engine.spi.c08_4_formations import FORM
from engine.spi import entry as spi_entry
from engine.spi.entry import ENTRY_MELEE, legal_entry_melees
from engine.spi.standard import StandardRules, _phrase
from engine.options import read

from . import (c13_setup, c15_city, c14_reinforcements, c16_1_catapults_grond, c16_0_siege_phase, c16_4_towers_ladders, c16_7_oil,
               c18_banner, c20_victory)
from .c16_2_breach import BREACH
from .c16_4_towers_ladders import LADDER
from .c16_6_fireballs_heads import FIREBALL, HEAD
from .c16_7_oil import PICKUP, POUR
from .common import DATA, SEATS, SIDE_COLORS, SIDE_TITLES, STATE_VERSION, TUNNEL_RULES
from .options import OPTIONS
from engine.spi import c07_3_melee
from engine.spi import c13_setup as spi_c13_setup
from engine.spi import hooks
from engine.rulesets.gondor import c14_3_mumakil
from engine.rulesets.gondor import c17_spells
from engine.rulesets.gondor import c19_demoralization
from engine.spi import c03_sequence
from engine.spi import c02_units

SIEGE_ORDERS = (BREACH, FIREBALL, HEAD, LADDER, PICKUP, POUR)


# Tables read once for the whole ruleset (not per game): a group's chart file
# may not replace them (it is told so), every other table it may.
FIXED_TABLES = ("spells", "setup", "armies", "entry", "victory")


def _toml_tables(text: str) -> list[str]:
    """The tables a (checked) chart text names."""
    try:
        return list(chartguard.parse(text))
    except ChartError:
        return []


def check_group_charts(rs, charts, text: str) -> None:
    c16_0_siege_phase.check_siege_charts(charts.raw)
    tunnel = charts.raw.get("tunnel", {}).get("rule", "morale-w")
    if tunnel not in TUNNEL_RULES:
        raise ChartError(f"[tunnel] rule must be one of {', '.join(TUNNEL_RULES)}")
    fixed = sorted(k for k in _toml_tables(text) if k in FIXED_TABLES)
    if fixed:
        raise ChartError(f"[{fixed[0]}] is part of the game's set-up and cannot be replaced for one "
                         "game (spells, set-up zones, armies, entry hexes, road hexes); "
                         "the other tables can")


def printed_rally(rs, state: State, uid: str) -> int:
    return state["options"]["rally"].get(uid, rs.charts_for(state)["leaders"]["rally"].get(uid, 0))


def dem_level(rs, state: State, army: str) -> int | None:
    return rs.charts_for(state)["demoralization"].get(army)


def may_form(rs, state: State, seat: str, kind: str) -> bool:
    """8.41: Dark Power units may not form special formations (FoC 8.41
    makes Balchoth infantry the exception, so the Standard Rules forbid it)."""
    return seat != "sauron"


def help_general(rs) -> str:
    return (
        "**Gondor** (SPI 1977): Sauron besieges Minas Tirith; Westernesse defends. 16 Game-Turns, 2-6 at night.\n"
        "Set-up (13.0): Sauron first, then Westernesse: `deploy <unit> <hex>` or `deploy printed`, then `/done`. "
        "Three of the six cauldrons are dummies, and only Westernesse knows which (16.71; `/secret`).\n"
        "Each turn: magic (A), Sauron siege (B), move (C), combat (D), magic (E), Westernesse move (F), "
        "combat (G), joint rally (H).\n"
        "Its headline rules: **the Siege Phase** (16.0: catapults and Grond against the walls, breaches, "
        "siege towers and ladders), **fireballs and severed heads** (16.6), **boiling oil** with dummy "
        "cauldrons (16.7), spells (17.0), **the Banner of the King** (18.0), demoralization (19.0).\n"
        "Hexes are XXYY (column, row); West is the top of the map, East the bottom. "
        "The map and several charts are reconstructed: see docs/reconstructed.md."
    )


class Gondor(StandardRules):
    """Gondor: the Standard Rules with the attacks onto the map (engine/spi/entry.py, 14.2) and the functions
    of its case files below, each file's under its case. What runs at the same point in several case files
    is declared once, in the order it runs (the lists of its record, ``hooks`` below: after a move, at a step's start, on an attack,
    the legal actions listed first, the movement allowance, an elimination, a retreat); no case file calls
    another's step. A function that amends a standard order calls the standard one by name
    (``c07_1_fire._check_fire(self, ...)``)."""

    hooks = replace(StandardRules.hooks,  # the extension points (engine/spi/hooks.py: Hooks)
        # 13.0 set-up
        _check_deploy=c13_setup._check_deploy,
        _apply_deploy=c13_setup._apply_deploy,
        # 15.0 the city, the gates; 15.24 the tunnels
        hexside_rule=c15_city.hexside_rule,
        why_hexside=c15_city.why_hexside,
        zoc_through=c15_city.zoc_through,
        zoc_through_fn=c15_city.zoc_through_fn,
        reinforcement_entry=c14_reinforcements.reinforcement_entry,
        entry_attack_seats=c14_reinforcements.entry_attack_seats,
        duel_modifier=c16_0_siege_phase.duel_modifier,
        next_step=c16_0_siege_phase.next_step,  # 3.0 with 16.0: a Siege Phase nobody acts in ends at once
        ratings=c16_1_catapults_grond.ratings,  # 16.12: a catapult's
        missile_range=c16_1_catapults_grond.missile_range,
        check_stack_move=c16_1_catapults_grond.check_stack_move,
        _check_movers=c16_1_catapults_grond._check_movers,
        _melee_targets=c16_4_towers_ladders._melee_targets,
        apply_result=c16_4_towers_ladders.apply_result,
        # 14.3 the Mumakil
        extra_blocked=c14_3_mumakil.extra_blocked,
        _why_unreachable=c14_3_mumakil._why_unreachable,
        _why_step=c14_3_mumakil._why_step,
        _why_section=c14_3_mumakil._why_section,
        _start_retreat=c14_3_mumakil._start_retreat,
        # 17.0 spells
        spell_cost=c17_spells.spell_cost,
        check_spell=c17_spells.check_spell,
        spell_effect=c17_spells.spell_effect,
        # 18.1 the Banner
        check_move_end=c18_banner.check_move_end,
        _displace_leader=c18_banner._displace_leader,
        _leader_loss=c18_banner._leader_loss,
        check_rally_extra=c18_banner.check_rally_extra,
        # 19.0 demoralization
        dem_total=c19_demoralization.dem_total,
        check_victory=c20_victory.check_victory,
        result_why=c20_victory.result_why,
        final_result=c20_victory.final_result,
        # what runs at these points, in this order (engine/spi/hooks.py runs the lists)
        AFTER_MOVE=(c18_banner.after_move,),  # 18.13 the Banner goes with its leader; 20.1 the road
        # a unit entered hexes, by a move, a retreat or an advance (engine/spi/hooks.py: on_enter)
        ON_ENTER=(c16_7_oil.on_enter,  # 16.73 cauldrons taken on the way; Sauron's move sets off the oil (16.74)
                    c15_city.on_enter),  # 15.15 the gates
        ON_STEP_START=(c20_victory.on_step_start,  # 18.14, 19.13, 20.2 and the Banner's step
                         c16_0_siege_phase.on_step_start,  # 16.0 the Siege Phase; 16.74 the oil poured
                         c14_reinforcements.on_step_start),  # 14.2 the Riders of Rohan
        INIT_EXTRA=(c20_victory.init_extra, c16_0_siege_phase.init_extra),
        VIEW_EXTRA=(c20_victory.view_extra, c16_0_siege_phase.view_extra),
        MODIFY_ATTACK=(c15_city.modify_attack,  # 15.24 the tunnels
                         c16_0_siege_phase.modify_attack),  # 16.42, 16.45, 16.75 towers, ladders, oil
        LEGAL_EXTRA=(c13_setup.legal_setup,  # 13.0 the set-up
                       legal_entry_melees,  # 14.2 melee onto the map from the entry hexes
                       c14_reinforcements.legal_entry_forms,  # 14.2 formations entering the map
                       c16_0_siege_phase.legal_siege_orders),  # 16.x the siege orders, in one pass
        MOVEMENT_ALLOWANCE=(c18_banner.movement_allowance,  # 18.13 the Banner's, a leader's
                              c15_city.movement_allowance),  # 15.21 in the city; 16.72, 16.75 oil
        ON_ELIMINATE=(c18_banner.on_eliminate,  # 18.13 the Banner falls with its last leader
                        c16_7_oil.on_eliminate),  # 16.72 the oil goes with its carrier
        AFTER_RETREAT=(c18_banner.after_retreat,),  # 18.13 the Banner goes with its leader
        deploy_example="OA1 2325",
        _offer_advance=spi_entry._offer_advance,  # 7.5 with the advance onto the map (14.2)
        _offmap_hex=c14_reinforcements._offmap_hex,  # 14.2 the hex beyond the edge an entering unit attacks from
        check_group_charts=check_group_charts,
        printed_rally=printed_rally,
        dem_level=dem_level,
        may_form=may_form,
        # ------------------------------------------------------------ help (engine/spi/help.py)
        order_examples={k: f"{k} {v}" for k, v in {
            "deploy": "OA1 OI1 0523", "move": "OI1 ST1 2010", "fire": "GB1 at 2007", "duel": "IMR GOT",
            "melee": "GS1 GS2 at 2008", "advance": "GS1 2008", "retreat": "OI1 2010", "rally": "IMR GS1",
            "cast": "NAZ fear 5", "form": "shieldwall GS1 GS2 IMR", "disband": "GS1 1906", "breach": "SC1 1909/n",
            "fireball": "SC1 at 1906", "head": "SC1 at 1807", "ladder": "OI1 1909/se", "pickup": "GS1 K1",
            "pour": "GS1 any"}.items()},
        orders_notes=(
            "Spells (8.5, 17.0): fear, freeze-leader, operate-grond, break-darkness, stalemate-nazgul, reveal-aragorn; "
            "points below the full cost need a die roll. Grond breaches as a catapult does: `breach GRD 1910/n` (16.13). "
            "A carrier's `pour` is a secret standing order (16.74): it holds until changed, the public reads only that "
            "one was given. `/odds text:melee GS1 at 2008` gives the exact chances first."),
        kind_verbs={"siege": ("breach", "fireball", "head", "advance"),
                      "move": ("move", "form", "disband", "ladder", "pickup", "pour")},
        setup_help=(
            "Sauron places first, within four hexes of the Eastern edge (13.1); then Westernesse inside Minas Tirith "
            "or within two hexes of its walls (13.2). The Citadel Guard starts in 1903. Cauldrons go inside the city "
            "(16.71). `deploy <unit> [<unit>...] <hex>` (again to re-place), then `/done`."),
        secrets_help=(
            "Three of Westernesse's six cauldrons are dummies; only Westernesse knows which (16.71), and an oil "
            "counter carried from a dummy is a dummy too (16.72). A carrier's `pour` standing order is secret (16.74): "
            "Sauron reads only that one was given, and a dummy's never fires. Westernesse gets these by DM and with "
            "`/secret`; the channel, the public map and the log never show them. Sauron has no hidden information."),
        help_general=help_general,
    )
    # 14.0-14.2 reinforcements, formations entering the map
    entry_hexes = c14_reinforcements.entry_hexes
    # 16.0 the Siege Phase
    _sides_of_hex = c16_0_siege_phase._sides_of_hex
    # 16.1 catapults; 17.13 Grond
    # 16.2 breaching
    # 16.4 siege towers and ladders
    _tower_ids = c16_4_towers_ladders._tower_ids
    # 16.6 fireballs, 16.8 heads
    # 16.7 boiling oil
    _takeable_ids = c16_7_oil._takeable_ids
    # 20.0 victory
    _road_hexes_20_1 = c20_victory._road_hexes_20_1
    _level_gates = c20_victory._level_gates

    ORDERS = (*StandardRules.ORDERS, *SIEGE_ORDERS,
              replace(DEPLOY, listed_in=c13_setup.legal_setup, unlisted=""),  # 13.0 listed by the set-up
              # Gondor's rules for standard orders (a record with a standard verb replaces it in its place):
              # the advance over walls and by ladder (16.51), formations entering the map (14.2), catapult
              # fire (16.12), melee from the entry hexes (14.2)
              replace(ADVANCE, check=c16_4_towers_ladders._check_advance, apply=spi_entry._apply_advance),
              replace(FORM, check=c14_reinforcements._check_form, apply=c14_reinforcements._apply_form),
              replace(FIRE, check=c16_1_catapults_grond._check_fire, apply=c16_1_catapults_grond._apply_fire),
              ENTRY_MELEE)
    name = "gondor"
    options = OPTIONS  # options.py (issue 39)
    hidden_information = True
    secret_twins = ({"real_cauldrons": ["K1", "K2", "K3"]}, {"real_cauldrons": ["K4", "K5", "K6"]})  # 16.71
    golden_script = ("gondor_game.txt", "7")
    data_dir = DATA
    title = "Gondor: The Siege of Minas Tirith"
    seats = SEATS
    side_titles = SIDE_TITLES
    side_colors = SIDE_COLORS
    state_version = STATE_VERSION

    # ------------------------------------------------------------------ data
    @cached_property
    def gondor_charts(self) -> dict:
        return tomllib.loads(self.ruleset_charts_text)

    @cached_property
    def spells(self) -> dict[str, dict]:
        return self.gondor_charts.get("spells", {})

    @cached_property
    def _city_edge(self) -> list[Hex]:
        return [h for h, i in self.hexmap.hexes.items() if i.level == 1]

    @cached_property
    def zones(self) -> dict[str, frozenset[Hex]]:
        """Set-up zones (13.1, 13.2, 16.71), precomputed once."""
        m, ch = self.hexmap, self.gondor_charts["setup"]
        forbidden = set(ch["forbidden_terrain"])
        ok = [h for h, i in m.hexes.items() if i.terrain not in forbidden]
        east = frozenset(h for h in ok if not m.in_city(h)
                         and m.distance_from_edge(h, "east") <= ch["east_depth"])
        inside = frozenset(h for h in ok if m.in_city(h))
        near = frozenset(h for h in ok if not m.in_city(h)
                         and any(distance(h, e) <= ch["wall_reach"] for e in self._city_edge))
        return {"east": east, "city": inside | near, "city-inside": inside}

    @cached_property
    def _zone_labels(self) -> dict[str, list[str]]:
        return {k: [str(h) for h in sorted(v)] for k, v in self.zones.items()}


    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = self._check_options(options)
        state = self.base_state(opts, seed)
        for uid, u in self.units.items():
            rec = c02_units.unit_record(self, u)
            if u.type == "cauldron":
                rec["oil"] = u.oil
            if u.setup[:1].isdigit():  # a fixed hex: the Citadel Guard in 1903 (13.2)
                rec["hex"] = u.setup
                rec["status"] = "map"
            state["units"][uid] = rec
        state["dem"] = {a: 0 for a in self.gondor_charts["armies"]}
        # 16.71: three of the six cauldron counters are real. Drawn from the
        # game's dice stream; a fixture may fix them, but the same dice are
        # still drawn, so the stream is identical either way.
        cauldrons = sorted(uid for uid, u in self.units.items() if u.type == "cauldron")
        drawn = Dice(state["dice"]).shuffle(cauldrons, "cauldrons")
        real = sorted(drawn[:3])
        if fixture and "real_cauldrons" in fixture:
            real = sorted(fixture["real_cauldrons"])
            if len(real) != 3 or not set(real) <= set(cauldrons):
                raise ValueError("fixture real_cauldrons must name three cauldrons")
        state["hidden"]["real_cauldrons"] = real
        for g, side in self.hexmap.hexsides.items():
            if side == "gate":
                state["gates"][str(g)] = "westernesse"  # 15.15: Westernesse holds every gate at the start
        hooks.init_extra(self, state)
        if fixture and "position" in fixture:
            self._fixture_position(state, fixture["position"])
        if opts.get("setup") == "printed":
            spi_c13_setup.place_printed_setup(self, state)
        return state

    def _fixture_position(self, state: State, pos: dict) -> None:
        """Tests and tabletop groups: start from a position (``{"turn", "step",
        "units": {uid: hex}}``); units not named are off the map (reinforcements
        still to come, the rest eliminated). Hidden draws are unchanged."""
        for uid, rec in state["units"].items():
            u = self.units[uid]
            rec["hex"] = None
            rec["status"] = "reinforcement" if u.setup == "reinforcement" else "eliminated"
        for uid, hx in pos["units"].items():
            if uid not in self.units or Hex.parse(hx) not in self.hexmap:
                raise ValueError(f"fixture position: bad unit or hex {uid} {hx}")
            state["units"][uid].update(hex=hx, status="map")
        state["turn"], state["step"], state["done"] = int(pos["turn"]), pos["step"], []
        state["ph"] = c03_sequence._fresh_phase(self)
        if self.steps[pos["step"]].get("kind") == "combat":
            state["ph"]["must"] = c07_3_melee._obligations(self, state, self.steps[pos["step"]]["side"])
        c20_victory._road_refresh(self, state)

    def _check_options(self, options: dict[str, str]) -> dict:
        """The typed options (``options.py``, read by ``engine.options``), in the state's layout."""
        given = read(self.options, options, self)
        out: dict = {"rally": {k[len("rally."):].upper(): v for k, v in given.items() if k.startswith("rally.")}}
        out.update({k: v for k, v in given.items() if not k.startswith("rally.")})
        return out






    # ----------------------------------------------------------------- view
    def view(self, state: State, seat: str | None) -> dict:
        units = []
        pool = {s: 0 for s in SEATS}
        own = seat if seat in SEATS else None
        for uid, u in self.units.items():
            rec = state["units"][uid]
            if rec["status"] == "pool":
                pool[u.side] += 1
            if rec["status"] not in ("map", "pool"):
                continue
            d = self.unit_view(state, uid, own)
            if u.type == "cauldron":
                d["oil"] = rec["oil"]
                look(d).update(beside=str(rec["oil"]), bottom="oil")  # drawn: the oil left beside the pot
                if own == "westernesse":  # 16.71: only the owner knows which are real
                    d["real"] = uid in state["hidden"]["real_cauldrons"]
                    if not d["real"]:
                        look(d)["fade"] = True
            units.append(d)
        dem = self.charts_for(state)["demoralization"]
        armies = self.gondor_charts["armies"]
        v = {
            **self.view_head(state, own, "Gondor"),
            "units": units,
            "markers": list(state["markers"]),
            "gates": dict(state["gates"]),
            "tracks": [
                {"name": f"{armies[a]} demoralization", "side": "sauron" if a == "sauron" else "westernesse",
                 "points": self.hooks.dem_total(self, state, a), "level": dem[a], "demoralized": self.hooks.demoralized(self, state, a)}
                for a in armies
            ],
            "pool": pool,
            "pending": [{"seat": p["seat"], "unit": p["unit"], "options": list(p["options"])}
                        for p in state["pending"]],
            "effects": [{"title": e["title"], "section": e["section"], "side": e.get("side"),
                         "frozen": list(e.get("frozen", []))} for e in state["effects"]],
            "formations": {k: dict(f) for k, f in state["formations"].items()},
            "eliminated": sorted(x for x in state["units"] if state["units"][x]["status"] == "eliminated"),
            "over": state["over"],
        }
        notes = [f"{e['title']} ({e['section']})" + (f": {_phrase(e['frozen'])} frozen" if e.get("frozen") else "")
                 for e in state["effects"]]
        notes += [f"{'Shield Wall' if f['kind'] == 'shieldwall' else 'Wedge'}: {' + '.join(f['units'])} "
                  f"with {f['leader']} (8.4)" for f in state["formations"].values()]
        notes += [f"{p['unit']} must retreat: {SIDE_TITLES[p['seat']]} chooses (7.5)" for p in state["pending"]]
        v["notes"] = notes
        hooks.view_extra(self, state, own, v)
        act = self.active_seats(state)
        who = own if own else (act[0] if len(act) == 1 else None)
        if state["turn"] == 0 and who in act:  # the acting side's set-up zone (public: the rules say where)
            zone = "east" if who == "sauron" else "city"
            v["zone"] = sorted(str(h) for h in self.zones[zone])
            v["zone_title"] = f"{SIDE_TITLES[who]} set-up zone ({'13.1' if who == 'sauron' else '13.2'})"
        return v

    def secret_text(self, state: State, seat: str) -> str | None:
        if seat != "westernesse":
            return None
        real = state["hidden"]["real_cauldrons"]
        dummies = sorted(u for u, d in self.units.items() if d.type == "cauldron" and u not in real)
        lines = [f"Your real cauldrons are {_phrase(real)}; "
                 f"{_phrase(dummies)} are dummies (16.71). "
                 "Each has three oil counters beneath it, real or dummy alike (16.72)."]
        # every cauldron alike, real or dummy, so that this text (and the DM sent
        # when it changes) changes the same way whichever counter is moved or lost
        where = []
        for u in sorted(real + dummies):
            r = state["units"][u]
            at = r["hex"] or ("destroyed" if r["status"] == "eliminated" else "not placed")
            where.append(f"{u} ({'real' if u in real else 'dummy'}) {at}, {r.get('oil', 0)} oil")
        lines.append("Cauldrons: " + "; ".join(where) + ".")
        carriers = c16_7_oil._carriers(self, state)
        if carriers:
            lines.append("Oil carried: " + ", ".join(
                f"{c} ({'REAL' if state['units'][c]['oil_from'] in real else 'dummy'}, from "
                f"{state['units'][c]['oil_from']}, standing order `{state['siege']['pour'].get(c, 'hold')}`)"
                for c in carriers) + ". A carrier holds its oil until you order `pour <unit> any` or `pour <unit> "
                "towers`; that order is secret, and a dummy's never fires, so Sauron cannot tell them apart "
                "(16.74).")
        return " ".join(lines)


    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: the chart switches a group's file may turn (16.44's zones, 15.24's tunnels)."""
        out = StandardRules.rules_in_force(self, state)
        if c16_4_towers_ladders._zoc_walls_both_ways(self, state):
            out.append("zones of control both ways through a scaled wall (16.44)")
        tunnel = c15_city._tunnel_rule(self, state)
        if tunnel != "morale-w":
            out.append({"none": "no tunnel rule (15.24)"}.get(tunnel, f"tunnels: Armor {tunnel[-1]} (15.24)"))
        return out



GONDOR = Gondor()
