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
from functools import cached_property
from pathlib import Path
from typing import Iterator

from engine import chartguard
from engine.core import Action, Dice, Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex, distance
from engine.maps import HexMap
from engine.spi.charts import ChartError
from engine.spi.c13_setup import DEPLOY
from engine.spi.standard import StandardRules, _phrase
from engine.units import UnitDef, load_oob

from .command import TUNNEL_RULES, CommandRules
from .siege import SIEGE_ORDERS, SiegeRules

DATA = Path(__file__).parent / "data"
SEATS = ("sauron", "westernesse")
SIDE_TITLES = {"sauron": "Sauron", "westernesse": "Westernesse"}
SIDE_COLORS = {"sauron": "#8b1a1a", "westernesse": "#1f4e9c"}
STATE_VERSION = 2


# Tables read once for the whole ruleset (not per game): a group's chart file
# may not replace them (it is told so), every other table it may.
FIXED_TABLES = ("spells", "setup", "armies", "entry", "victory")


def _toml_tables(text: str) -> list[str]:
    """The tables a (checked) chart text names."""
    try:
        return list(chartguard.parse(text))
    except ChartError:
        return []


class Gondor(SiegeRules, CommandRules, StandardRules):
    deploy_example = "OA1 2325"
    ORDERS = (*StandardRules.ORDERS, *SIEGE_ORDERS, DEPLOY)
    name = "gondor"
    title = "Gondor: The Siege of Minas Tirith"
    seats = SEATS
    side_titles = SIDE_TITLES
    side_colors = SIDE_COLORS
    state_version = STATE_VERSION

    # ------------------------------------------------------------------ data
    @cached_property
    def hexmap(self) -> HexMap:
        return HexMap.load(DATA / "map.json")

    @cached_property
    def units(self) -> dict[str, UnitDef]:
        return load_oob(DATA / "oob.toml")

    @cached_property
    def ruleset_charts_text(self) -> str:
        return (DATA / "charts.toml").read_text()

    @cached_property
    def gondor_charts(self) -> dict:
        return tomllib.loads(self.ruleset_charts_text)

    @cached_property
    def spells(self) -> dict[str, dict]:
        return self.gondor_charts.get("spells", {})

    @cached_property
    def sequence(self) -> dict:
        return tomllib.loads((DATA / "sequence.toml").read_text())

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

    @cached_property
    def entry_hexes(self) -> dict[str, list[str]]:
        """14.1/14.2 entry hexes: edge hexes of the map, passable."""
        e = self.gondor_charts["entry"]
        m = self.hexmap
        tec = self.charts["tec"]

        def ok(h):
            return tec.get(m.hexes[h].terrain, {}).get("passable", True)

        centre = Hex.parse(e["sauron_hex"])
        # 14.1 read literally: they enter (appear) in any hex within two hexes of 2124
        sauron = sorted(h for h in m.hexes if ok(h) and h.distance(centre) <= e["sauron_reach"])
        return {
            "sauron": [str(h) for h in sauron],
            "rohan": [str(h) for h in sorted(m.edge_hexes("north")) if ok(h)],
            "south": [str(h) for h in sorted(m.edge_hexes("south")) if ok(h)],
        }

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = self._check_options(options)
        state = self.base_state(opts, seed)
        for uid, u in self.units.items():
            rec = self.unit_record(u)
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
        self.init_extra(state)
        if fixture and "position" in fixture:
            self._fixture_position(state, fixture["position"])
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
        state["ph"] = self._fresh_phase()
        if self.steps[pos["step"]].get("kind") == "combat":
            state["ph"]["must"] = self._obligations(state, self.steps[pos["step"]]["side"])
        self._road_refresh(state)

    def _check_options(self, options: dict[str, str]) -> dict:
        out: dict = {"rally": {}}
        for k, v in options.items():
            if k.startswith("rally."):
                uid = k[6:].upper()
                if uid not in self.gondor_charts["leaders"]["rally"]:
                    raise InvalidOrder(f"`{k}`: {uid} is not a leader")
                if not v.isdigit() or not 1 <= int(v) <= 13:
                    raise InvalidOrder(f"`{k}` must be a rally rating from 1 to 13")
                out["rally"][uid] = int(v)
            elif k == "charts":
                try:
                    self.check_charts(v)
                except ChartError as e:
                    raise InvalidOrder(f"your charts were refused: {e}") from None
                out["charts"] = v
            else:
                raise InvalidOrder(f"unknown option `{k}` for gondor (known: rally.<LEADER>=<n>, charts=<TOML>)")
        return out

    def check_group_charts(self, charts, text: str) -> None:
        self.check_siege_charts(charts.raw)
        tunnel = charts.raw.get("tunnel", {}).get("rule", "morale-w")
        if tunnel not in TUNNEL_RULES:
            raise ChartError(f"[tunnel] rule must be one of {', '.join(TUNNEL_RULES)}")
        fixed = sorted(k for k in _toml_tables(text) if k in FIXED_TABLES)
        if fixed:
            raise ChartError(f"[{fixed[0]}] is part of the game's set-up and cannot be replaced for one "
                             "game (spells, set-up zones, armies, entry hexes, road hexes); "
                             "the other tables can")

    def printed_rally(self, state: State, uid: str) -> int:
        return state["options"]["rally"].get(uid, self.charts_for(state)["leaders"]["rally"].get(uid, 0))

    def dem_level(self, state: State, army: str) -> int | None:
        return self.charts_for(state)["demoralization"].get(army)

    def may_form(self, state: State, seat: str, kind: str) -> bool:
        """8.41: Dark Power units may not form special formations (FoC 8.41
        makes Balchoth infantry the exception, so the Standard Rules forbid it)."""
        return seat != "sauron"

    # ------------------------------------------------------------ the city
    def _side_feature(self, state: State, a: Hex, b: Hex) -> tuple[str | None, str]:
        return self.hexmap.side_index.get((a, b), (None, ""))

    def _breached(self, state: State, hs: str) -> bool:
        return any(m.get("type") == "breached" and m.get("hexside") == hs for m in state["markers"])

    def hexside_rule(self, state: State, uids: list[str], a: Hex, b: Hex,
                     retreat: bool = False) -> float | str | None:
        kind, hs = self._side_feature(state, a, b)
        if kind is None:
            return 0
        seat = self.units[uids[0]].side
        mounted = any(self.units[u].is_mounted for u in uids)
        siege = any(self.units[u].is_siege for u in uids)
        if kind == "gate" and (state["gates"].get(hs) == seat or self._breached(state, hs)):
            return 0  # 15.15: free passage through a gate your side controls
        if mounted or siege:
            return None  # 15.22, 16.48: only through gates
        if self._breached(state, hs):
            return 0  # 16.4: a breach may always be crossed
        la, lb = self.hexmap.level(a), self.hexmap.level(b)
        if lb < la:
            return "all"  # 15.13: down through a wall costs the whole allowance
        if not retreat:  # 16.41, 16.43 (never in a retreat: errata 7.55)
            climb = self.scaling_cost(state, seat, a, hs)
            if climb is not None:
                return climb
        return None  # 15.12: never up through an unbreached wall, tower or uncontrolled gate

    def why_hexside(self, state: State, uids: list[str], a: Hex, b: Hex) -> str:
        kind, hs = self._side_feature(state, a, b)
        mounted = any(self.units[u].is_mounted for u in uids)
        if kind == "gate" and not mounted:
            return f"the gate {hs} is not controlled by your side: it is a wall to you (15.15)"
        if mounted:
            return f"cavalry and Mumakil never cross a wall or tower hexside ({hs}); only controlled gates (15.22)"
        if any(self.units[u].is_siege for u in uids):
            return f"siege equipment crosses walls only through breached or controlled gates ({hs}) (16.48)"
        return (f"units never move up through an unbreached {kind} hexside ({hs}) without siege towers "
                "or ladders (15.12)")

    def zoc_through(self, state: State, a: Hex, b: Hex) -> bool:
        kind, hs = self._side_feature(state, a, b)
        if kind is None or self._breached(state, hs):
            return True
        # no ZOC through walls, towers or gates, except from siege towers and
        # ladders against that hexside (16.44; both ways, so they are in contact)
        return self.scaled(state, hs)

    def zoc_through_fn(self, state: State):
        """``zoc_through`` with the breaches and scaled hexsides worked out once."""
        open_ = {m["hexside"] for m in state["markers"] if m.get("type") == "breached"} | self._scaled_sides(state)
        idx = self.hexmap.side_index

        def through(a: Hex, b: Hex) -> bool:
            f = idx.get((a, b))
            return f is None or f[1] in open_
        return through

    def movement_allowance(self, state: State, uid: str) -> float:
        ma = super().movement_allowance(state, uid)
        u = self.units[uid]
        h = state["units"][uid]["hex"]
        if u.side == "westernesse" and u.is_combat and h and self.hexmap.in_city(Hex.parse(h)):
            city = self.charts_for(state)["city"]["westernesse_allowance"]  # 15.21
            ma = min(ma, city) if self.formation_of(state, uid) else city
        if state["units"][uid].get("oil_from"):
            ma -= 1  # 16.75: carrying oil, real or dummy
        if uid in state["ph"].get("resume", ()):  # 16.72: it picked up oil on its way and moves off
            ma = max(0, ma - state["ph"]["spent"].get(uid, 0))
        return ma

    def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
        """15.15: the last side to occupy or pass through both hexes of a gate controls it."""
        events: list[Event] = super().after_move(state, seat, uids, trail)
        if any(self.units[u].is_combat for u in uids):
            events += [Event(public=t, section="15.15") for t in self.mark_gates(state, seat, trail)]
        return events

    def mark_gates(self, state: State, seat: str, trail: list[str]) -> list[str]:
        """15.15 for any passage (a move, an advance, a retreat): the side whose
        combat unit went through both hexes of a gate now controls it."""
        out = []
        for i in range(len(trail) - 1):
            kind, hs = self._side_feature(state, Hex.parse(trail[i]), Hex.parse(trail[i + 1]))
            if kind == "gate" and state["gates"].get(hs) != seat:
                state["gates"][hs] = seat
                out.append(f"{self.title_of(seat)} now controls the gate {hs} (15.15).")
        return out

    # ------------------------------------------------------- reinforcements
    def reinforcement_entry(self, state: State, uid: str) -> list[str] | None:
        u = self.units[uid]
        if u.arrives is None:
            return None
        if u.arrives == "rohan":
            t = state["arrived"].get("rohan")
            if t is None or state["turn"] < t:
                return None
            return self.entry_hexes["rohan"]
        if state["turn"] < int(u.arrives):
            return None
        return self.entry_hexes["sauron" if u.side == "sauron" else "south"]

    def on_step_start(self, state: State) -> list[Event]:
        events: list[Event] = super().on_step_start(state)
        e = self.charts_for(state)["entry"]
        first = self.sequence["step"][0]["id"]
        if state["step"] == first and state["turn"] >= e["rohan_from"] and "rohan" not in state["arrived"]:
            d = Dice(state["dice"])
            roll = d.d6("Rohan")
            if roll in e["rohan_rolls"]:
                state["arrived"]["rohan"] = state["turn"]
                text = (f"Game-Turn {state['turn']}: Westernesse rolls {roll} for the Riders of Rohan: they arrive "
                        "and may enter along the Northern edge this turn (14.2).")
            else:
                text = f"Game-Turn {state['turn']}: Westernesse rolls {roll} for the Riders of Rohan: not yet (14.2)."
            events.append(Event(public=text, section="14.2", rolls=d.rolls))
        return events

    # ------------------------------------------------------- set-up orders
    def _check_deploy(self, state: State, seat: str, uid: str, hx: str,
                      occ: dict[str, list[str]] | None = None) -> None:
        u = self.units.get(uid)
        if u is None:
            raise IllegalOrder(f"there is no unit `{uid}` in this game")
        if state["turn"] != 0:
            raise IllegalOrder("units are deployed only during the set-up", "13.0")
        if u.side != seat:
            raise IllegalOrder(f"{uid} is a {SIDE_TITLES[u.side]} counter, not yours")
        if u.setup == "reinforcement":
            if u.type == "banner":
                raise IllegalOrder(f"{uid} is the Banner of the King: Gandalf's spell brings it forth with Aragorn",
                                   "18.11")
            when = f"on Game-Turn {u.arrives}" if isinstance(u.arrives, int) else "with the Riders of Rohan"
            raise IllegalOrder(f"{uid} is a reinforcement: it arrives {when}", u.section)
        if u.setup[:1].isdigit():
            raise IllegalOrder(f"{uid} starts in hex {u.setup} and is placed there", u.section)
        h = Hex.parse(hx)
        if h not in self.hexmap:
            raise IllegalOrder(f"hex {hx} is off the map")
        if h not in self.zones[u.setup]:
            where = {
                "east": ("within four hexes of the Eastern edge (rows 23-26 on this map), not on a mountain", "13.1"),
                "city": ("inside Minas Tirith or within two hexes of its walls, not on a mountain", "13.2"),
                "city-inside": ("inside Minas Tirith", "16.71"),
            }[u.setup]
            raise IllegalOrder(f"{uid} must be set up {where[0]}; {hx} is not", where[1])
        if occ is None:
            occ = self.occupancy(state)
        stack = [self.units[x] for x in occ.get(hx, ()) if x != uid]
        lim = self.charts["stacking"]
        if stack and any(o.side != seat for o in stack):
            raise IllegalOrder(f"hex {hx} holds enemy units", "5.0")
        if u.is_combat and sum(o.is_combat for o in stack) >= lim["combat_units"]:
            other = next(o.id for o in stack if o.is_combat)
            raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex "
                               "(Standard Rules stacking, reconstructed)")
        if u.is_siege and sum(o.is_siege for o in stack) >= lim["siege_equipment"]:
            other = next(o.id for o in stack if o.is_siege)
            raise IllegalOrder(f"hex {hx} already holds siege equipment ({other}); one per hex "
                               "(Standard Rules stacking, reconstructed)")

    def legal_extra(self, state: State, seat: str) -> Iterator[Action]:
        if state["turn"] != 0:
            yield from super().legal_extra(state, seat)
            return
        # undeployed units first, then re-placements
        mine = [uid for uid, u in self.units.items() if u.side == seat
                and u.setup not in ("reinforcement",) and not u.setup[:1].isdigit()]
        mine.sort(key=lambda x: (state["units"][x]["status"] != "pool", x))
        pool_left = any(state["units"][x]["status"] == "pool" for x in mine)
        if not pool_left:
            yield Action("done")
        occ = self.occupancy(state)
        for uid in mine:
            u = self.units[uid]
            for hx in self._zone_labels[u.setup]:
                if state["units"][uid]["hex"] == hx:
                    continue
                if hx in occ:  # only an occupied hex can break stacking
                    try:
                        self._check_deploy(state, seat, uid, hx, occ)
                    except IllegalOrder:
                        continue
                yield Action("deploy", (uid, hx))

    def _apply_deploy(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, hx = args
        u = self.units[uid]
        rec = state["units"][uid]
        again = rec["hex"] is not None
        rec["hex"], rec["status"] = hx, "map"
        if u.type == "cauldron":
            text = (f"{SIDE_TITLES[seat]} {'moves' if again else 'deploys'} cauldron {uid} "
                    f"{'to' if again else 'in'} {hx}, with its three oil counters beneath it (16.71, 16.72).")
            return [Event(public=text, section="16.71")]
        sec = u.section
        text = f"{SIDE_TITLES[seat]} {'re-places' if again else 'deploys'} {u.label()} {'to' if again else 'in'} {hx} ({sec})."
        return [Event(public=text, section=sec)]

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
                if own == "westernesse":  # 16.71: only the owner knows which are real
                    d["real"] = uid in state["hidden"]["real_cauldrons"]
            units.append(d)
        dem = self.charts_for(state)["demoralization"]
        armies = self.gondor_charts["armies"]
        v = {
            "ruleset": self.name,
            "title": "Gondor",
            "seat": own,
            "turn": state["turn"],
            "turns": self.sequence["turns"],
            "night": self.is_night(state),
            "phase": state["step"],
            "phase_title": self.phase_title(state),
            "active": self.active_seats(state),
            "done": list(state["done"]),
            "sides": {s: {"title": SIDE_TITLES[s], "color": SIDE_COLORS[s]} for s in SEATS},
            "units": units,
            "markers": list(state["markers"]),
            "gates": dict(state["gates"]),
            "tracks": [
                {"name": f"{armies[a]} demoralization", "side": "sauron" if a == "sauron" else "westernesse",
                 "points": self.dem_total(state, a), "level": dem[a], "demoralized": self.demoralized(state, a)}
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
        self.view_extra(state, own, v)
        if own and state["turn"] == 0 and own in self.active_seats(state):
            zone = "east" if own == "sauron" else "city"
            v["zone"] = sorted(str(h) for h in self.zones[zone])
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
        carriers = self._carriers(state)
        if carriers:
            lines.append("Oil carried: " + ", ".join(
                f"{c} ({'REAL' if state['units'][c]['oil_from'] in real else 'dummy'}, from "
                f"{state['units'][c]['oil_from']}, standing order `{state['siege']['pour'].get(c, 'hold')}`)"
                for c in carriers) + ". A carrier holds its oil until you order `pour <unit> any` or `pour <unit> "
                "towers`; that order is secret, and a dummy's never fires, so Sauron cannot tell them apart "
                "(16.74).")
        return " ".join(lines)

    def help(self, topic: str | None = None) -> str:
        t = (topic or "").strip().lower()
        if t in ("orders", "notation", "combat", "move", "magic", "rally", "siege", "oil"):
            return (
                "**Gondor orders** (unit ids then hexes, as printed on the map):\n"
                "`move GS1 1905` cheapest legal path (or give every hex: `move GS1 1904 1905`); "
                "`move OI1 ST1 2010` moves a stack together.\n"
                "`fire GB1 at 2007` (range 2, 7.12) · `duel IMR GOT` leader combat (7.2) · "
                "`melee GS1 GS2 at 2008` (7.3) · `advance GS1 2008` after a melee emptied the hex (7.5) · "
                "`retreat OI1 2010` when the game asks you where a unit retreats (7.5).\n"
                "`rally IMR GS1` in the Joint Rally Phase (8.3) · `cast NAZ fear 5` (points below the full "
                "cost need a die roll, 8.5; spells: fear, freeze-leader, operate-grond, break-darkness, "
                "stalemate-nazgul, reveal-aragorn) · "
                "`form shieldwall GS1 GS2 IMR`, `form wedge GK1 GL1 IMR`, `disband GS1 1906` (8.4).\n"
                "**Siege Phase**: `breach SC1 1909/n` (a wall, gate or tower hexside, 16.2; Grond: `breach GRD "
                "1910/n`) · `fireball SC1 at 1906` (16.6) · `head SC1 at 1807` (16.8) · `advance OI1 1908` through "
                "a fresh breach (16.5). **Movement**: `ladder OI1 1909/se` (climb it next turn, 16.43) · "
                "`move OI1 ST1 1809` pushes a siege tower (16.11) · `pickup GS1 K1` takes oil (16.72) · "
                "`pour GS1 any|towers|hold` sets a carrier's secret standing order (it holds until told), carried out during Sauron's "
                "movement (16.74).\n"
                "`/odds text:melee GS1 at 2008` gives the exact chances first. `/done` ends your part of a phase."
            )
        return (
            "**Gondor** (SPI 1977): Sauron besieges Minas Tirith; Westernesse defends. 16 Game-Turns, 2-6 at night.\n"
            "Set-up (13.0): Sauron places first, within four hexes of the Eastern edge (13.1); "
            "then Westernesse inside Minas Tirith or within two hexes of its walls (13.2). "
            "The Citadel Guard starts in 1903. Cauldrons go inside the city; three of the six are dummies, "
            "and only Westernesse knows which (16.71; `/secret`). Set-up order: `deploy <unit> <hex>` "
            "(again to re-place), then `/done`.\n"
            "Each turn: magic (A), Sauron siege (B), move (C), combat (D), magic (E), Westernesse move (F), "
            "combat (G), joint rally (H). `/help orders` lists the orders.\n"
            "Hexes are XXYY (column, row); West is the top of the map, East the bottom. "
            "The map and several charts are reconstructed: see docs/reconstructed.md."
        )


GONDOR = Gondor()
