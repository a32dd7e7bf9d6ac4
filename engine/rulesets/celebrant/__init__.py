"""*Field of Celebrant* (Ken Demyen, living version 1.33): the battle of
T.A. 2510, on the SPI Standard Rules engine (``engine.spi.standard``).

Four armies: Gondor and the Eotheod (Westernesse), the Misty Mountain Orcs
and the Balchoth (Shadow). This module adds what the exclusive rules (seed
003, 11.0-21.0) and their Standard Rules amendments change:

- the map (11.1, 15.x, 16.x: rivers, riverbanks, the watchtower and the landing);
- the sequence of play (3.0, data/sequence.toml) and the set-up (13.0-13.2);
- Gondor's disarray (13.21), the Balchoth arrival rolls (14.5), the secret
  Eotheod chits (14.3-14.4, 14.6);
- leader special abilities (17.x) and unit abilities (18.x);
- the four demoralization levels (19.x) and the graded victory (20.x);
- the optional swaps and balance deployment (21.0) as game options;
- the amendments 4.27, 7.12, 7.31, 7.37, 8.1, 8.24, 8.38, 8.41, 9.12, 10.0.

Order notation (CONVENTIONS.md), besides the Standard Rules orders:
  deploy <unit> <hex>                    place a unit during your set-up (13.0)
  ability <leader> <name> [<unit>...]    use a leader's special ability (17.x)
  swap <unit> <unit>                     Cirion's Tactics: swap two units (17.31)
  dress <unit> <hex>                     Form up!: a new Shield Wall moves one hex (17.41)
  entry NW|NE|SE                         choose where the Eotheod enter (14.31, 14.33)
"""
from __future__ import annotations

import json
import re
import tomllib
from functools import cached_property
from pathlib import Path
from typing import Iterator

from engine.core import Action, Dice, Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex, distance
from engine.maps import HexMap
from engine.spi.charts import ChartError, shift_morale
from engine.spi.entry import EntryAttacks
from engine.orders import Order
from engine.spi.c13_setup import DEPLOY
from engine.spi.standard import StandardRules, _phrase
from engine.units import UnitDef, load_oob

DATA = Path(__file__).parent / "data"
SEATS = ("shadow", "westernesse")
SIDE_TITLES = {"shadow": "Shadow", "westernesse": "Westernesse"}
SIDE_COLORS = {"shadow": "#8b1a1a", "westernesse": "#1f4e9c"}
ARMIES = {"westernesse": ("gondor", "eotheod"), "shadow": ("orcs", "balchoth")}
AREAS = ("NW", "NE", "SE")
STATE_VERSION = 1

# leader special abilities (17.x): name -> (title, section, the phase kind and side it is used in)
ABILITIES = {
    "death-and-glory": ("Death and Glory", "17.11", "A-westernesse"),
    "arise": ("Arise, Arise!", "17.21", "F-westernesse"),
    "tactics": ("Tactics", "17.31", "A-westernesse"),
    "form-up": ("Form up!", "17.41", "A-westernesse"),
    "despair": ("Despair", "17.51", "A-shadow"),
    "iron-fist": ("Iron Fist", "17.61", "A-shadow"),
    "blood-lust": ("Blood Lust", "17.71", "A-shadow"),
    "whip": ("By the Whip", "17.81", "A-shadow"),
}

_W_CHIT = re.compile(r"^(\d+) (NW|NE|SE)(?: \(-(\d)\))?( golden)?$")
_S_CHIT = re.compile(r"^(?:\+(\d+)|0)( shift)?$")


def parse_west_chit(text: str) -> dict:
    """``"7 NW (-1)"`` -> turn 7, area NW, modifier 1; ``"6 SE golden"``; ``"Chance"`` (14.31, 14.32)."""
    t = str(text).strip()
    if t.lower() == "chance":
        return {"text": "Chance", "chance": True}
    m = _W_CHIT.match(t)
    if not m:
        raise ValueError(f"`{t}` is not a Westernesse chit (like `6 NE`, `7 NW (-1)`, `6 SE golden`, `Chance`)")
    return {"text": t, "turn": int(m.group(1)), "area": m.group(2), "mod": int(m.group(3) or 0),
            "golden": bool(m.group(4))}


def parse_shadow_chit(text: str) -> dict:
    """``"+1 shift"`` -> delay 1 with a shift; ``"0"``; ``"Eye of Sauron"`` (14.33, 14.4)."""
    t = str(text).strip()
    if t.lower() == "eye of sauron":
        return {"text": "Eye of Sauron", "eye": True}
    m = _S_CHIT.match(t)
    if not m:
        raise ValueError(f"`{t}` is not a Shadow chit (like `0`, `+1`, `+2 shift`, `Eye of Sauron`)")
    return {"text": t, "delay": int(m.group(1) or 0), "shift": bool(m.group(2))}


def shift_area(area: str, clockwise: bool, order: list[str]) -> str:
    """14.4: one area clockwise (the next in ``order``, cyclic) or counterclockwise."""
    i = order.index(area)
    return order[(i + (1 if clockwise else -1)) % len(order)]


def resolve_chits(west: str, shadow: str, ch: dict, roll=None) -> dict:
    """Resolve the two revealed chits (14.31-14.4) exactly as written. ``roll``
    gives the die when one is needed (Chance, Eye of Sauron, shift). Returns
    {"turn", "area" (None: someone chooses), "chooser", "arrive", "lines"}."""
    w, s = parse_west_chit(west), parse_shadow_chit(shadow)
    order = list(ch["clockwise"])
    lines: list[str] = []
    if w.get("chance"):
        r = roll("Chance")
        who = ch["chance"][str(r)]
        lines.append(f"Chance: die {r} (14.31); the Shadow chit is ignored")
        if who == "none":
            return {"turn": None, "area": None, "chooser": None, "arrive": False,
                    "lines": lines + ["the Eotheod do not arrive"]}
        return {"turn": int(ch.get("chance_turn", 7)), "area": None, "chooser": who, "arrive": True,
                "lines": lines + [f"{SIDE_TITLES[who]} decides where they enter"]}
    if w["golden"]:
        lines.append("the golden chit cancels the Shadow chit (14.32)")
        return {"turn": w["turn"], "area": w["area"], "chooser": None, "arrive": True, "lines": lines}
    if s.get("eye"):
        r = roll("Eye of Sauron")
        who = ch["eye"][str(r)]
        lines.append(f"Eye of Sauron: die {r} (14.33)")
        if who == "none":
            return {"turn": None, "area": None, "chooser": None, "arrive": False,
                    "lines": lines + ["the Eotheod do not arrive"]}
        return {"turn": w["turn"], "area": None, "chooser": who, "arrive": True,
                "lines": lines + [f"{SIDE_TITLES[who]} decides where they enter"]}
    delay = max(s["delay"] - w["mod"], 0)
    if s["delay"]:
        lines.append(f"delay +{s['delay']}" + (f", less {w['mod']} (14.31)" if w["mod"] else "") + f": +{delay}")
    area = w["area"]
    if s["shift"]:
        r = roll("shift")
        cw = r in ch.get("shift_clockwise", [1, 2, 3])
        new = shift_area(area, cw, order)
        lines.append(f"shift: die {r}, {'clockwise' if cw else 'counterclockwise'}, {area} to {new} (14.4)")
        area = new
    return {"turn": w["turn"] + delay, "area": area, "chooser": None, "arrive": True, "lines": lines}


# Field of Celebrant's own orders (engine/orders.py); their legal actions are in ``legal_extra``
ABILITY = Order("ability", ("17.0",), "`ability <leader> <name> [<unit>...]`, e.g. `ability OC1 whip`",
                parse="_parse_ability", check="_check_ability", apply="_apply_ability", dice=False)
SWAP = Order("swap", ("17.31",), "`swap <unit> <unit>` (Cirion's Tactics)",
             parse="_parse_swap", check="_check_swap", apply="_apply_swap", dice=False)
DRESS = Order("dress", ("17.41",), "`dress <unit> <hex>` (a Shield Wall formed under Form up! moves one hex)",
              parse="_parse_dress", check="_check_dress", apply="_apply_dress", dice=False)
ENTRY = Order("entry", ("14.31",), "`entry NW`, `entry NE` or `entry SE`",
              parse="_parse_entry", check="_check_entry", apply="_apply_entry", dice=False)


class Celebrant(EntryAttacks, StandardRules):
    ORDERS = (*StandardRules.ORDERS, DEPLOY, ABILITY, SWAP, DRESS, ENTRY)
    deploy_example = "OI1 0305"
    name = "celebrant"
    title = "Field of Celebrant"
    seats = SEATS
    side_titles = SIDE_TITLES
    side_colors = SIDE_COLORS
    state_version = STATE_VERSION
    entry_attack_seats = ("shadow", "westernesse")  # 14.2: arriving reinforcements may attack blockers

    # ------------------------------------------------------------------ data
    @cached_property
    def map_data(self) -> dict:
        return json.loads((DATA / "map.json").read_text())

    @cached_property
    def hexmap(self) -> HexMap:
        return HexMap.from_json(self.map_data)

    @cached_property
    def units(self) -> dict[str, UnitDef]:
        return load_oob(DATA / "oob.toml")

    @cached_property
    def ruleset_charts_text(self) -> str:
        return (DATA / "charts.toml").read_text()

    @cached_property
    def sequence(self) -> dict:
        return tomllib.loads((DATA / "sequence.toml").read_text())

    @cached_property
    def zones(self) -> dict[str, list[str]]:
        z = self.map_data["zones"]
        return {k: list(v) for k, v in z.items() if k != "se-groves"}

    @cached_property
    def _zone_sets(self) -> dict[str, frozenset[str]]:
        return {k: frozenset(v) for k, v in self.zones.items()}

    def raw(self, state: State) -> dict:
        return self.charts_for(state).raw

    def terrain(self, hx: str | Hex | None) -> str | None:
        if hx is None:
            return None
        h = hx if isinstance(hx, Hex) else Hex.parse(hx)
        info = self.hexmap.hexes.get(h)
        return info.terrain if info else None

    def tec_row(self, state: State, hx: str | Hex | None) -> dict:
        t = self.terrain(hx)
        return self.raw(state)["tec"].get(t, {}) if t else {}

    def in_play(self, state: State, uid: str) -> bool:
        return state["units"][uid]["status"] != "out"

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = self._check_options(options)
        state = self.base_state(opts, seed)
        for uid, u in self.units.items():
            state["units"][uid] = self.unit_record(u)
        for uid in self._out_of_play(opts):
            state["units"][uid] = {"hex": None, "status": "out"}
        state["dem"] = {a: 0 for a in self.raw(state)["armies"]}
        fixed = dict((fixture or {}).get("chits", {}))
        for seat, text in fixed.items():
            if seat not in SEATS:
                raise ValueError("fixture chits are {'westernesse': ..., 'shadow': ...}")
            (parse_west_chit if seat == "westernesse" else parse_shadow_chit)(text)
        state["hidden"] = {"chits": None, "fixture_chits": fixed}
        state["cel"] = {
            "disarray": True,         # 13.21: until Cirion's rally roll succeeds
            "disordered": False,      # this turn's result of that roll
            "balchoth": None,         # 14.5: the turn they arrive
            "eotheod": {"revealed": False, "west": None, "shadow": None, "turn": None, "area": None,
                        "chooser": None, "arrive": None, "arrived": False},
            "abilities": {},          # leader -> turn used (17.0: once per game)
            "demoralized": {a: False for a in state["dem"]},
        }
        self.init_extra(state)
        return state

    def _out_of_play(self, opts: dict) -> list[str]:
        """21.0: the extra counters stay out unless a swap or the balance
        brings them in; swapped-out counters leave the game."""

        extra = sorted(u for u, d in self.units.items() if "extra" in d.tags)
        inn: set[str] = set()
        out: list[str] = []
        sw = opts.get("swap", {})
        bal = opts.get("balance")
        if sw.get("gondor") or bal == "westernesse":
            inn.add("GS9")
        if sw.get("gondor"):
            out.append("GB4")
        if sw.get("eotheod") or bal == "westernesse":
            inn.add("ER10")
        if sw.get("eotheod"):
            out.append("EA3")
        n = sw.get("orcs", 0)
        if bal == "shadow":
            inn.update(f"OI{18 + i}" for i in range(1, 5))
        for i in range(1, n + 1):
            inn.add(f"OI{18 + i}")
            out.append(f"OA{9 - i}")
        if sw.get("balchoth") or bal == "shadow":
            inn.add("BI6")
        if sw.get("balchoth"):
            out.append("BL4")
        return sorted(set(out) | (set(extra) - inn))

    def _check_options(self, options: dict[str, str]) -> dict:
        out: dict = {"swap": {}}
        yes = ("yes", "true", "1", "on")
        for k, v in options.items():
            v = str(v).strip().lower() if k != "charts" else v
            if k == "charts":
                try:
                    self.check_charts(v)
                except ChartError as e:
                    raise InvalidOrder(f"your charts were refused: {e}") from None
                out["charts"] = v
            elif k in ("swap.gondor", "swap.eotheod", "swap.balchoth"):
                if v not in yes + ("no", "false", "0", "off"):
                    raise InvalidOrder(f"`{k}` is yes or no (21.0)")
                out["swap"][k[5:]] = v in yes
            elif k == "swap.orcs":
                if not v.isdigit() or not 0 <= int(v) <= 4:
                    raise InvalidOrder("`swap.orcs` is how many Orc Archers become Orcs: 0 to 4 (21.0)")
                out["swap"]["orcs"] = int(v)
            elif k == "balance":
                if v not in SEATS:
                    raise InvalidOrder("`balance` is `shadow` or `westernesse` (21.0)")
                out["balance"] = v
            else:
                raise InvalidOrder(f"unknown option `{k}` for celebrant (known: swap.gondor, swap.eotheod, "
                                   "swap.orcs=<0-4>, swap.balchoth, balance=shadow|westernesse, charts=<TOML>)")
        bal = out.get("balance")
        if bal == "westernesse" and (out["swap"].get("gondor") or out["swap"].get("eotheod")):
            raise InvalidOrder("the extra Gondor and Eotheod counters are either swapped in or deployed for "
                               "balance, not both (21.0)")
        if bal == "shadow" and (out["swap"].get("orcs") or out["swap"].get("balchoth")):
            raise InvalidOrder("the extra Orc and Balchoth counters are either swapped in or deployed for "
                               "balance, not both (21.0)")
        return out

    def check_group_charts(self, charts, text: str) -> None:
        self._check_chit_tables(charts.raw)

    @staticmethod
    def _check_chit_tables(raw: dict) -> None:
        c = raw["chits"]
        if not c.get("westernesse") or not c.get("shadow"):
            raise ValueError("[chits] needs non-empty `westernesse` and `shadow` lists")
        for t in c["westernesse"]:
            w = parse_west_chit(t)
            if not w.get("chance") and not 1 <= w["turn"] <= 18:
                raise ValueError(f"[chits] `{t}`: the turn must be a Game-Turn, 1 to 18")
        for t in c["shadow"]:
            parse_shadow_chit(t)
        if not isinstance(c.get("chance_turn"), int) or not 1 <= c["chance_turn"] <= 18:
            raise ValueError("[chits] chance_turn must be a Game-Turn, 1 to 18")
        if not isinstance(c.get("shift_clockwise"), list) or not all(
                isinstance(x, int) and 1 <= x <= 6 for x in c["shift_clockwise"]):
            raise ValueError("[chits] shift_clockwise lists die rolls, 1 to 6")
        if sorted(c["clockwise"]) != sorted(AREAS):
            raise ValueError("[chits] clockwise must list NW, NE and SE once each")
        for key in ("chance", "eye"):
            if sorted(c[key]) != [str(i) for i in range(1, 7)] or \
                    not set(c[key].values()) <= {"shadow", "westernesse", "none"}:
                raise ValueError(f"[chits] {key} maps each die roll 1-6 to shadow, westernesse or none")

    def printed_rally(self, state: State, uid: str) -> int:
        return self.raw(state)["leaders"]["rally"].get(uid, 0)

    def unit_dem_value(self, state: State, uid: str) -> int:
        """9.12 (Replace): the value printed on the counter."""
        u = self.units[uid]
        return u.dem if u.dem is not None else super().unit_dem_value(state, uid)

    # --------------------------------------------------------- demoralization
    def dem_level(self, state: State, army: str) -> int | None:
        return self.raw(state)["demoralization_levels"].get(army)

    def demoralized(self, state: State, army: str) -> bool:
        """19.0: an army is demoralized when its points exceed its level."""
        lvl = self.dem_level(state, army)
        return lvl is not None and self.dem_total(state, army) > lvl

    def _gondor_relief(self, state: State, points: int) -> int:
        """19.11: subtract from Gondor's total; never below 0 (the excess is lost)."""
        before = state["dem"].get("gondor", 0)
        state["dem"]["gondor"] = max(0, before - points)
        return before - state["dem"]["gondor"]

    def _dem_watch(self, state: State) -> list[Event]:
        """Announce each army that becomes (or, Gondor only, stops being)
        demoralized; 19.11 B: Gondor -5 for each Shadow army demoralized."""
        events: list[Event] = []
        names = self.raw(state)["armies"]
        seen = state["cel"]["demoralized"]
        lv = self.raw(state)["demoralization_levels"]
        for _ in range(3):  # a relief can change Gondor's state in turn
            changed = False
            for army in names:
                now = self.demoralized(state, army)
                if now == seen.get(army, False):
                    continue
                seen[army] = now
                changed = True
                if now:
                    text = (f"{names[army][:1].upper()}{names[army][1:]} are demoralized: {self.dem_total(state, army)} "
                            f"points, over their level of {self.dem_level(state, army)} (19.1).")
                    if army in ARMIES["shadow"]:
                        got = self._gondor_relief(state, lv.get("gondor_relief_per_shadow_army", 5))
                        text += (f" Gondor takes heart: {got} points off its total, now {state['dem']['gondor']} "
                                 "(19.11 B)." if got else " Gondor takes heart (19.11 B; no points to lose).")
                    events.append(Event(public=text, section="19.1"))
                else:
                    events.append(Event(public=f"{names[army]} are no longer demoralized: {self.dem_total(state, army)} "
                                               f"points of {self.dem_level(state, army)} (19.11).", section="19.11"))
            if not changed:
                break
        return events

    def _grade(self, state: State, why: str, section: str) -> dict:
        """20.1-20.4: decisive, tactical, marginal or a draw."""
        names = self.raw(state)["armies"]
        wd = [a for a in ARMIES["westernesse"] if self.demoralized(state, a)]
        sd = [a for a in ARMIES["shadow"] if self.demoralized(state, a)]
        wt = sum(self.dem_total(state, a) for a in ARMIES["westernesse"])
        st = sum(self.dem_total(state, a) for a in ARMIES["shadow"])
        dem = [names[a] for a in wd + sd]
        head = f"{why} Demoralized: {_phrase(dem) if dem else 'no army'}. Points: Westernesse {wt}, Shadow {st}."
        winner, grade, sec = None, "a draw", "20.4"
        if len(sd) == 2 and not wd:
            winner, grade, sec = "westernesse", "a Decisive Victory", "20.1"
        elif len(wd) == 2 and not sd:
            winner, grade, sec = "shadow", "a Decisive Victory", "20.1"
        elif len(sd) == 2 and len(wd) == 1:
            winner, grade, sec = "westernesse", "a Tactical Victory", "20.2"
        elif len(wd) == 2 and len(sd) == 1:
            winner, grade, sec = "shadow", "a Tactical Victory", "20.2"
        elif len(wd) == len(sd):
            sec = "20.3"
            if wt < st:
                winner, grade = "westernesse", "a Marginal Victory"
            elif st < wt:
                winner, grade = "shadow", "a Marginal Victory"
            else:
                sec = "20.4"
        if winner:
            text = f"{head} {SIDE_TITLES[winner]} wins {grade} ({sec})."
        else:
            text = f"{head} The battle is a draw ({sec})."
        return {"winner": winner, "summary": text, "section": sec, "grade": grade}

    def end_of_turn(self, state: State) -> list[Event]:
        """20.0 (ruling): the battle also ends at the end of any Game-Turn in
        which both armies of one side are demoralized."""
        for seat in SEATS:
            if all(self.demoralized(state, a) for a in ARMIES[seat]):
                v = self._grade(state, f"Game-Turn {state['turn']} ends with both {SIDE_TITLES[seat]} armies "
                                       "demoralized (20.0).", "20.0")
                state["over"] = v
                return [Event(public=v["summary"], section=v["section"], new_phase=True)]
        return []

    def final_result(self, state: State) -> dict:
        return self._grade(state, "The eighteen Game-Turns are over (12.0).", "12.0")

    # ------------------------------------------------------------- effects
    def _effects(self, state: State, kind: str) -> list[dict]:
        """Active abilities of ``kind`` whose leader is still on the map (17.0:
        an effect is lost when its leader is eliminated)."""
        return [e for e in state["effects"] if e.get("ability") == kind and self.on_map(state, e["leader"])]

    def is_disordered(self, state: State, uid: str) -> bool:
        """13.21: every Gondorian unit, in a turn Cirion failed his rally roll."""
        return state["cel"]["disordered"] and self.army_of(uid) == "gondor" and self.units[uid].is_combat

    def is_fanatic(self, state: State, uid: str) -> bool:
        """17.71 Blood Lust: orcs within six hexes of the Chieftain at the end
        of the Shadow Movement Phase are fanatical in the Shadow Combat Phase."""
        if state["step"] != "E":
            return False
        return any(uid in e.get("units", []) for e in self._effects(state, "blood-lust"))

    def movement_allowance(self, state: State, uid: str) -> float:
        ma = super().movement_allowance(state, uid)
        if state["step"] == "D":
            for e in self._effects(state, "whip"):
                if uid in e.get("units", []):
                    return ma * self.raw(state)["abilities"].get("whip_factor", 1.5)  # 17.81
        return ma

    # ---------------------------------------------------------- terrain rules
    @cached_property
    def _landing_cache(self) -> dict:
        return {}

    def _cavalry_closed(self, state: State) -> frozenset[Hex]:
        tec = self.raw(state)["tec"]
        key = id(tec)
        c = self._landing_cache
        if key not in c:
            c[key] = frozenset(h for h, i in self.hexmap.hexes.items()
                               if tec.get(i.terrain, {}).get("cavalry_passable", True) is False)
        return c[key]

    def extra_blocked(self, state: State, seat: str, uids: list[str]) -> set[Hex]:
        """16.21: the landing is impassable to cavalry."""
        if any(self.units[u].is_cavalry for u in uids):
            return set(self._cavalry_closed(state))
        return set()

    def _why_unreachable(self, state: State, seat: str, uids: list[str], dest: str) -> str:
        h = Hex.parse(dest)
        if h in self._cavalry_closed(state) and any(self.units[u].is_cavalry for u in uids):
            return f"{dest} is the landing: impassable to cavalry (16.21)"
        return super()._why_unreachable(state, seat, uids, dest)

    def _why_section(self, state: State, seat: str, hx: str, why: str) -> str:
        if "(16.21)" in why:
            return "16.21"
        return super()._why_section(state, seat, hx, why)

    @cached_property
    def _no_zoc_cache(self) -> dict:
        return {}

    def _no_zoc(self, state: State) -> frozenset[Hex]:
        key = state["options"].get("charts", "")
        c = self._no_zoc_cache
        if key not in c:
            tec = self.raw(state)["tec"]
            c[key] = frozenset(h for h, i in self.hexmap.hexes.items()
                               if tec.get(i.terrain, {}).get("zoc", True) is False)
        return c[key]

    def zoc_through(self, state: State, a: Hex, b: Hex) -> bool:
        """16.11: no zone of control extends into or from the watchtower hex."""
        s = self._no_zoc(state)
        return a not in s and b not in s

    # ------------------------------------------------------- 4.27 and 8.1
    def may_enter_enemy_leaders(self, state: State, uids: list[str]) -> bool:
        """4.27 (Amendment): combat units may enter a hex holding only enemy leaders."""
        return any(self.units[u].is_combat for u in uids)

    def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
        """8.1 (Amendment): enemy leaders alone in a hex a combat unit enters fly
        to the nearest friendly combat unit of their own army."""
        events = super().after_move(state, seat, uids, trail)
        if not any(self.units[u].is_combat for u in uids):
            return events
        for hx in self.entered(state, trail):
            lone = [x for x in sorted(state["units"]) if self.on_map(state, x) and state["units"][x]["hex"] == hx
                    and self.units[x].is_leader and self.units[x].side != seat]
            for ldr in lone:
                lines = self._displace_leader(state, ldr)
                events.append(Event(public=f"{ldr} was alone in {hx}: " + "; ".join(lines) + ".", section="8.1"))
        return events

    def _displace_leader(self, state: State, ldr: str) -> list[str]:
        """8.1/8.24: to the nearest friendly combat unit of the same army (the
        same-coloured counter); failing that any friendly combat unit (ties:
        the lowest hex number); with none at all the leader is lost."""
        side, army = self.units[ldr].side, self.army_of(ldr)
        here = state["units"][ldr]["hex"]
        best = None
        for same in (True, False):
            for uid in sorted(state["units"]):
                u = self.units[uid]
                if u.side == side and u.is_combat and self.on_map(state, uid) and (not same or self.army_of(uid) == army):
                    key = (distance(here, state["units"][uid]["hex"]), state["units"][uid]["hex"])
                    if best is None or key < best:
                        best = key
            if best is not None:
                break
        if best is None:
            r = self.leader_rating(state, ldr, for_rally=False)
            return [self._leader_loss(state, ldr, r) + " (no friendly unit to join, 8.1)"]
        state["units"][ldr]["hex"] = best[1]
        return [f"{ldr} flies to the nearest friendly unit of its army, in {best[1]} (8.1)"]

    # ---------------------------------------------------------- combat rules
    def _melee_targets(self, state: State, uid: str, occ=None) -> list[str]:
        """7.31 (Amendment): any adjacent enemy combat unit, in its zone of control or not."""
        occ = occ if occ is not None else self.occupancy(state)
        h = Hex.parse(state["units"][uid]["hex"])
        side = self.units[uid].side
        out = []
        for nb in h.neighbours():
            out.extend(x for x in occ.get(str(nb), ()) if self.units[x].is_combat and self.units[x].side != side)
        return out

    def _can_fire(self, state: State, uid: str) -> bool:
        if self.is_disordered(state, uid) and not self.raw(state)["disarray"].get("may_attack", False):
            return False
        return super()._can_fire(state, uid)

    def _can_melee(self, state: State, uid: str) -> bool:
        if self.is_disordered(state, uid) and not self.raw(state)["disarray"].get("may_attack", False):
            return False
        return super()._can_melee(state, uid)

    def _disorder_check(self, state: State, seat: str, uids: list[str], segment: str, section: str) -> None:
        self._combat_phase_check(state, seat, segment, section)
        for uid in uids:
            if self.units.get(uid) and self.units[uid].side == seat and self.on_map(state, uid) \
                    and self.is_disordered(state, uid) and not self.raw(state)["disarray"].get("may_attack", False):
                raise IllegalOrder(f"{uid} is Disordered: Gondor is in disarray this turn (Cirion's rally roll "
                                   "failed) and its units may not attack", "13.21")

    def _check_fire(self, state: State, seat: str, *args: str) -> None:
        self._disorder_check(state, seat, list(args[:-2]), "fire", "7.1")
        super()._check_fire(state, seat, *args)

    def _check_melee(self, state: State, seat: str, *args: str) -> None:
        uids, hx = list(args[:-2]), args[-1]
        self._disorder_check(state, seat, uids, "melee", "7.3")
        super()._check_melee(state, seat, *args)
        occ = self.occupancy(state)
        for uid in uids:
            if uid in state["ph"]["must"]:
                ex = self.exerting(state, Hex.parse(state["units"][uid]["hex"]), seat, occ)
                if ex and hx not in {state["units"][x]["hex"] for x in ex}:
                    raise IllegalOrder(f"{uid} began the phase in the zone of control of {_phrase(sorted(ex))} and "
                                       "must attack one of them", "7.31")

    def modify_attack(self, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
        ua, ud = self.units[attacker], self.units[target]
        hd = state["units"][target]["hex"]
        t = self.tec_row(state, hd)
        if kind == "fire" and t.get("missile_armor"):
            prof["armor"] += t["missile_armor"]
            sec = "16.12" if self.terrain(hd) == "watchtower" else "16.22"
            prof["notes"].append(f"defender in the {self.terrain(hd)}: Armor Protection +{t['missile_armor']} ({sec})")
        if "warg" in ua.tags and ud.is_cavalry:
            prof["armor"] -= 1
            prof["notes"].append("Warg Riders against cavalry: Armor Protection -1 (18.11)")
        if "guard" in ud.tags and any(self.units[x].is_leader and self.units[x].side == ud.side
                                      for x in self.occupancy(state).get(hd, ())):
            prof["crt_mod"] += 1
            prof["notes"].append("To the Death: Guard stacked with a leader, CRT roll +1, 7 no effect (18.2)")
        if self.is_disordered(state, target) and not state["units"][target].get("disrupted"):
            pen = self.raw(state)["disarray"].get("morale_penalty", 0)
            if pen:
                prof["morale"] = shift_morale(prof["morale"], -pen)
                prof["notes"].append(f"defender Disordered: Morale -{pen} (13.21)")

    def adjust_result(self, state: State, target: str, res: tuple, prof: dict) -> tuple:
        """16.12: in the watchtower r1 is ignored (a 1/2E with it still applies)
        and r2 is read as r1; a unit that does not retreat is not disrupted."""
        t = self.tec_row(state, state["units"][target]["hex"])
        if t.get("ignore_r1") and "r1" in res:
            res = tuple(x for x in res if x != "r1")
        if t.get("r2_to_r1") and "r2" in res:
            res = tuple("r1" if x == "r2" else x for x in res)
        return res

    def _riverbank_stand(self, state: State, dice: Dice, target: str, res: tuple,
                         attacker_hex: str | None) -> tuple[tuple, list[str]]:
        """15.22: undisrupted infantry on a riverbank with nowhere to retreat
        but the river ignores r1, and r2 on a successful rally check."""
        u = self.units[target]
        r = state["units"][target]
        n = 2 if "r2" in res else (1 if "r1" in res else 0)
        if not n or not u.is_infantry or r.get("disrupted") or self.terrain(r["hex"]) != "riverbank":
            return res, []
        f = self.formation_of(state, target)
        victims = list(state["formations"][f]["units"]) if f else [target]
        if self.retreat_options(state, victims, n, attacker_hex):
            return res, []
        if n == 1:
            return tuple(x for x in res if x != "r1"), [f"{target} stands on the riverbank: r1 ignored (15.22)"]
        if self._effects(state, "despair") and u.side == "westernesse":
            return res, [f"{target} may take no rally check on the riverbank under Despair (17.51)"]
        here = r["hex"]
        ratings = [self.leader_rating(state, x) for x in sorted(state["units"])
                   if self.units[x].is_leader and self.units[x].side == u.side and self.on_map(state, x)
                   and distance(state["units"][x]["hex"], here) <= 1]
        rating = max(ratings) if ratings else self.raw(state)["riverbank"].get("rally", 2)
        totals = self.charts_for(state).rally_totals(rating)
        if totals == "auto":
            ok, how = True, "automatic"
        else:
            a, b = dice.d6("riverbank rally"), dice.d6("riverbank rally")
            ok, how = a + b in totals, f"{a}+{b}={a + b}"
        if ok:
            return (tuple(x for x in res if x != "r2"),
                    [f"{target} stands on the riverbank: rally check (rating {rating}) {how}, r2 ignored (15.22)"])
        return res, [f"{target} on the riverbank: rally check (rating {rating}) {how} fails (15.22)"]

    def apply_result(self, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                     kind: str) -> list[str]:
        res, pre = self._riverbank_stand(state, dice, target, res, attacker_hex)
        iron = self._iron_fist_covers(state, target)
        f = self.formation_of(state, target)
        victims = list(state["formations"][f]["units"]) if f else [target]
        was = {v: state["units"][v].get("disrupted") for v in victims}
        lines = pre + super().apply_result(state, dice, target, res, attacker_hex, kind)
        if iron and res:  # 17.61: ignore the Disrupted this result gives, not one the unit already had
            kept = [v for v in victims if self.on_map(state, v) and state["units"][v].get("disrupted")
                    and not was[v]]
            for v in kept:
                state["units"][v]["disrupted"] = False
            if kept:
                lines.append(f"Iron Fist: {_phrase(kept)} not Disrupted (17.61)")
        return lines

    def _iron_fist_covers(self, state: State, uid: str) -> bool:
        """17.61: Balchoth within three hexes of the Captain, in the Westernesse Combat Phase."""
        if state["step"] != "C" or self.army_of(uid) != "balchoth" or not self.on_map(state, uid):
            return False
        reach = self.raw(state)["abilities"].get("iron_fist_reach", 3)
        return any(distance(state["units"][e["leader"]]["hex"], state["units"][uid]["hex"]) <= reach
                   for e in self._effects(state, "iron-fist"))

    # ---------------------------------------------------------- formations
    def may_form(self, state: State, seat: str, kind: str) -> bool:
        """8.41: of the Shadow units, only Balchoth infantry may form, and only a Shield Wall."""
        return seat == "westernesse" or kind == "shieldwall"

    def _formed_this_turn(self, state: State, fid: str) -> bool:
        """17.11: Eorl's Wedge may move and fight the turn it forms."""
        f = state["formations"][fid]
        if f.get("glory") and self.on_map(state, f["leader"]):  # 17.0: lost with Eorl
            return False
        return super()._formed_this_turn(state, fid)

    def _check_form(self, state: State, seat: str, kind: str, a: str, b: str, leader: str) -> None:
        if self.kind(state) == "reinforce":
            self._check_form_up(state, seat, kind, a, b, leader)
            return
        super()._check_form(state, seat, kind, a, b, leader)
        if seat == "shadow":
            for x in (a, b):
                if self.army_of(x) != "balchoth" or self.units[x].type != "infantry":
                    raise IllegalOrder(f"{x} is not Balchoth infantry: of the Shadow units only Balchoth infantry "
                                       "may form a Shield Wall", "8.41")

    def _check_form_up(self, state: State, seat: str, kind: str, a: str, b: str, leader: str) -> None:
        """17.41 Form up!: in the Special Ability Phase, Gondorian infantry within
        three hexes of the Captain, in clear terrain, form a Shield Wall."""
        if not any(e["leader"] == leader for e in self._effects(state, "form-up")):
            raise IllegalOrder("a formation forms in the Movement Phase, or in this phase only under a Captain's "
                               "Form up! (`ability <captain> form-up` first)", "17.41")
        if kind != "shieldwall":
            raise IllegalOrder("Form up! forms Shield Walls only", "17.41")
        reach = self.raw(state)["abilities"].get("form_up_reach", 3)
        spec = self.charts_for(state)["formations"]["shieldwall"]
        tec = self.raw(state)["tec"]
        for x in (a, b):
            u = self._own_on_map(state, seat, x)
            if self.army_of(x) != "gondor" or u.type not in spec["types"]:
                raise IllegalOrder(f"{x} is not Gondorian infantry", "17.41")
            if self.formation_of(state, x):
                raise IllegalOrder(f"{x} is already in a formation", "8.4")
            if state["units"][x].get("disrupted"):
                raise IllegalOrder(f"{x} is Disrupted", "8.4")
            hx = state["units"][x]["hex"]
            if distance(hx, state["units"][leader]["hex"]) > reach:
                raise IllegalOrder(f"{x} is more than {reach} hexes from {leader}", "17.41")
            if tec.get(self.terrain(hx), {}).get("cost", 1) != 1:
                raise IllegalOrder(f"{x} is in {self.terrain(hx)}: a Shield Wall forms in clear terrain "
                                   "(no movement penalty, 8.41)", "17.41")
        if distance(state["units"][a]["hex"], state["units"][b]["hex"]) != 1:
            raise IllegalOrder(f"{b} must be next to {a}", "8.4")

    def _apply_form(self, state: State, seat: str, dice: Dice, kind: str, a: str, b: str, leader: str) -> list[Event]:
        up = self.kind(state) == "reinforce"
        events = super()._apply_form(state, seat, dice, kind, a, b, leader)
        if up:
            fid = self.formation_of(state, a)
            state["formations"][fid]["dress"] = state["turn"]  # this turn's Special Ability Phase only
            events[0].public = events[0].public.replace("(8.4).", f"under Form up! (17.41); it may dress one hex "
                                                                  f"(`dress {a} <hex>`).")
            events[0].section = "17.41"
        elif seat == "shadow":
            events[0].public = events[0].public.replace("(8.4).", "(8.4, 8.41).")
        return events

    # --------------------------------------------------- leader losses (8.24)
    # The Standard Rules engine already moves leaders with a retreating unit
    # and rolls 5-6 for a leader whose unit takes 1/2E or E (charts
    # [leader_combat] caught = [5, 6]); _displace_leader above sends a leader
    # whose unit fell to the nearest unit of its own army.

    # ------------------------------------------------------------- rally
    def check_rally_extra(self, state: State, seat: str, leader: str, uid: str) -> None:
        """17.51 Despair: no Westernesse rally this turn, unless Arise, Arise! (17.21)."""
        if seat == "westernesse" and self._effects(state, "despair") and not self._arise(state, leader):
            raise IllegalOrder("Despair: no Westernesse unit may take a rally roll this turn (its leaders may "
                               "still move)", "17.51")

    def _arise(self, state: State, leader: str) -> bool:
        return any(e["leader"] == leader for e in self._effects(state, "arise"))

    def _apply_rally(self, state: State, seat: str, dice: Dice, leader: str, uid: str) -> list[Event]:
        if not self._arise(state, leader):
            return super()._apply_rally(state, seat, dice, leader, uid)
        tries = state["ph"]["rally_tries"]
        tries[leader] = tries.get(leader, 0) + 1
        state["ph"]["rallied"].append(uid)
        state["units"][uid]["disrupted"] = False
        return [Event(public=f"{SIDE_TITLES[seat]}: {leader} rallies {uid}: automatic under Arise, Arise! (17.21).",
                      section="17.21")]

    # ------------------------------------------------------- reinforcements
    def reinforcement_entry(self, state: State, uid: str) -> list[str] | None:
        army = self.army_of(uid)
        if army == "balchoth":
            t = state["cel"]["balchoth"]
            if t is None or state["turn"] < t:
                return None
            return self.zones["balchoth"]
        if army == "eotheod":
            e = state["cel"]["eotheod"]
            if not e["arrived"] or not e["area"]:
                return None
            return self.zones[f"eotheod-{e['area']}"]
        return None

    def on_step_start(self, state: State) -> list[Event]:
        events: list[Event] = super().on_step_start(state)
        if state["step"] == self.sequence["step"][0]["id"]:
            events += self._turn_start(state)
        if state["step"] == "E":
            events += self._blood_lust_check(state)
        events += self._dem_watch(state)
        return events

    def _turn_start(self, state: State) -> list[Event]:
        events = self._disarray_roll(state)
        events += self._balchoth_roll(state)
        events += self._chit_reveal(state)
        events += self._eotheod_arrival(state)
        return events

    def _disarray_roll(self, state: State) -> list[Event]:
        """13.21: Cirion's rally roll at the start of each turn until it succeeds."""
        cel = state["cel"]
        if not cel["disarray"]:
            cel["disordered"] = False
            return []
        leaders = [x for x in sorted(state["units"]) if self.units[x].is_leader and self.army_of(x) == "gondor"
                   and self.on_map(state, x)]
        if "CIR" in leaders:
            who = "CIR"
        elif leaders:
            who = max(leaders, key=lambda x: (self.leader_rating(state, x), x))
        else:
            cel["disarray"], cel["disordered"] = False, False
            return []
        d = Dice(state["dice"])
        rating = self.leader_rating(state, who)
        totals = self.charts_for(state).rally_totals(rating)
        if totals == "auto":
            ok, how = True, "automatic"
        else:
            a, b = d.d6("disarray"), d.d6("disarray")
            ok, how = a + b in totals, f"{a}+{b}={a + b}"
        if ok:
            cel["disarray"], cel["disordered"] = False, False
            text = (f"Game-Turn {state['turn']}: {who} (Rally Rating {rating}) rallies Gondor out of disarray: "
                    f"{how}; the army is in good order (13.21).")
        else:
            cel["disordered"] = True
            text = (f"Game-Turn {state['turn']}: {who} (Rally Rating {rating}) fails to rally Gondor: {how}; every "
                    "Gondorian unit is Disordered this turn: no attacks, Morale -1 (13.21).")
        return [Event(public=text, section="13.21", rolls=d.rolls)]

    def _balchoth_roll(self, state: State) -> list[Event]:
        """14.5: rolls on turns 2-4, automatic on turn 5."""
        cel = state["cel"]
        if cel["balchoth"] is not None:
            return []
        b = self.raw(state)["balchoth"]
        t = state["turn"]
        if t >= b["automatic"]:
            cel["balchoth"] = t
            return [Event(public=f"Game-Turn {t}: the Balchoth arrive automatically; they may enter on the "
                                 "south-eastern edge between the groves this Shadow Movement Phase (14.5).",
                          section="14.5")]
        need = b["rolls"].get(str(t))
        if not need:
            return []
        d = Dice(state["dice"])
        roll = d.d6("Balchoth")
        if roll in need:
            cel["balchoth"] = t
            text = (f"Game-Turn {t}: Shadow rolls {roll} for the Balchoth (needs {_phrase([str(x) for x in need])}): "
                    "they arrive and may enter on the south-eastern edge between the groves this turn (14.5).")
        else:
            text = f"Game-Turn {t}: Shadow rolls {roll} for the Balchoth: not yet (14.5)."
        return [Event(public=text, section="14.5", rolls=d.rolls)]

    def _draw_chits(self, state: State) -> Event:
        """14.3: after set-up each side draws one chit from its own pool, face down."""
        c = self.raw(state)["chits"]
        d = Dice(state["dice"])
        wi = d.randint(0, len(c["westernesse"]) - 1, "Westernesse chit")
        si = d.randint(0, len(c["shadow"]) - 1, "Shadow chit")
        fixed = state["hidden"].get("fixture_chits") or {}
        chits = {"westernesse": fixed.get("westernesse", c["westernesse"][wi]),
                 "shadow": fixed.get("shadow", c["shadow"][si])}
        state["hidden"]["chits"] = chits
        # d.rolls stay out of the event: the draw is secret (the counter moves the same whatever is drawn)
        return Event(public="Each side draws one Eotheod reinforcement chit from its own pool and keeps it face "
                            "down in the holding box; each player sees only their own (14.3).",
                     private={s: f"Your Eotheod chit is **{chits[s]}** (14.3). {self._chit_hint(state, s)}"
                              for s in SEATS}, section="14.3", reveals=True)

    def _chit_hint(self, state: State, seat: str) -> str:
        text = state["hidden"]["chits"][seat]
        if seat == "westernesse":
            w = parse_west_chit(text)
            turn = self.raw(state)["chits"].get("chance_turn", 7) if w.get("chance") else w["turn"]
            return f"It is revealed at the start of Game-Turn {turn}, then the Shadow chit (14.3)."
        return "It is revealed right after the Westernesse chit (14.3)."

    def _reveal_turn(self, state: State) -> int | None:
        chits = state["hidden"].get("chits")
        if not chits:
            return None
        w = parse_west_chit(chits["westernesse"])
        return int(self.raw(state)["chits"].get("chance_turn", 7)) if w.get("chance") else w["turn"]

    def _chit_reveal(self, state: State) -> list[Event]:
        """14.3-14.4: the Westernesse chit is revealed on its turn, then the Shadow chit; resolved as written."""
        e = state["cel"]["eotheod"]
        if e["revealed"] or self._reveal_turn(state) is None or state["turn"] < self._reveal_turn(state):
            return []
        chits = state["hidden"]["chits"]
        d = Dice(state["dice"])
        out = resolve_chits(chits["westernesse"], chits["shadow"], self.raw(state)["chits"],
                            roll=lambda label: d.d6(label))
        e.update(revealed=True, west=chits["westernesse"], shadow=chits["shadow"], turn=out["turn"],
                 area=out["area"], chooser=out["chooser"], arrive=out["arrive"])
        where = ""
        if out["arrive"]:
            where = (f" The Eotheod enter on Game-Turn {out['turn']}" +
                     (f" in the {out['area']} area" if out["area"] else "") + ".")
            if out["chooser"]:
                where += f" {SIDE_TITLES[out['chooser']]} chooses the area: `entry NW|NE|SE` (14.31, 14.33)."
        text = (f"Game-Turn {state['turn']}: Westernesse reveals its Eotheod chit, **{chits['westernesse']}** "
                f"(14.31); Shadow reveals **{chits['shadow']}** (14.33). "
                + ("; ".join(out["lines"]) + "." if out["lines"] else "") + where)
        return [Event(public=text.replace("..", "."), section="14.3", rolls=d.rolls, reveals=True)]

    def _eotheod_arrival(self, state: State) -> list[Event]:
        """14.6: the Eotheod may enter from their turn; 19.11 A: Gondor -10 on Eorl's arrival."""
        e = state["cel"]["eotheod"]
        if e["arrived"] or not e["arrive"] or e["turn"] is None or state["turn"] < e["turn"] or not e["area"]:
            return []
        e["arrived"] = True
        lv = self.raw(state)["demoralization_levels"]
        got = self._gondor_relief(state, lv.get("gondor_relief_eorl", 10))
        relief = (f"Gondor takes heart: {got} points off its total, now {state['dem']['gondor']} (19.11 A)." if got
                  else "Gondor takes heart, but has no demoralization points to lose (19.11 A).")
        return [Event(public=f"Eorl and the Eotheod arrive: they may enter in the {e['area']} area "
                             f"({_phrase(self.zones['eotheod-' + e['area']])}) from this Westernesse Movement Phase "
                             f"(14.6). {relief}", section="14.6")]

    def _blood_lust_check(self, state: State) -> list[Event]:
        """17.71: at the end of the Shadow Movement Phase, orcs within six hexes of the Chieftain."""
        events = []
        reach = self.raw(state)["abilities"].get("blood_lust_reach", 6)
        for e in self._effects(state, "blood-lust"):
            if e.get("turn") != state["turn"]:
                continue
            here = state["units"][e["leader"]]["hex"]
            e["units"] = sorted(x for x in state["units"] if self.army_of(x) == "orcs" and self.units[x].is_combat
                                and self.on_map(state, x) and distance(here, state["units"][x]["hex"]) <= reach)
            events.append(Event(public=f"Blood Lust: {len(e['units'])} orc units within {reach} hexes of "
                                       f"{e['leader']} are Fanatical in this Shadow Combat Phase (17.71, 7.37).",
                                section="17.71"))
        return events

    # ------------------------------------------------------- extra orders
    # --- deploy (13.0-13.2)
    def _setup_zone(self, uid: str) -> frozenset[str]:
        u = self.units[uid]
        z = self._zone_sets
        return z["orcs"] if u.setup == "orcs" else (z["gondor"] | z["rearguard"])

    def _check_deploy(self, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
        u = self.units[uid]
        if state["turn"] != 0:
            raise IllegalOrder("units are deployed only during the set-up", "13.0")
        if u.side != seat:
            raise IllegalOrder(f"{uid} is a {SIDE_TITLES[u.side]} counter, not yours")
        if not self.in_play(state, uid):
            raise IllegalOrder(f"{uid} is not in this game (21.0 options)", "21.0")
        if u.setup == "reinforcement":
            sec = u.section
            raise IllegalOrder(f"{uid} is a reinforcement: the {'Balchoth' if sec == '14.5' else 'Eotheod'} "
                               "enter later", sec)
        if hx not in self._setup_zone(uid):
            where = ("on the Orc hill: within six hexes of the western edge and thirteen of the northern edge",
                     "13.1") if u.setup == "orcs" else (
                "around the central grove (two rows north and south, four columns east and west) or in the "
                "seven Rearguard hexes", "13.2")
            raise IllegalOrder(f"{uid} must be set up {where[0]}; {hx} is not", where[1])
        if u.is_cavalry and Hex.parse(hx) in self._cavalry_closed(state):
            raise IllegalOrder(f"{hx} is the landing: impassable to cavalry", "16.21")
        occ = occ if occ is not None else self.occupancy(state)
        stack = [x for x in occ.get(hx, ()) if x != uid]
        if u.is_combat and any(self.units[x].is_combat for x in stack):
            other = next(x for x in stack if self.units[x].is_combat)
            raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex", "5.0")

    def _apply_deploy(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, hx = args
        u = self.units[uid]
        rec = state["units"][uid]
        again = rec["hex"] is not None
        rec["hex"], rec["status"] = hx, "map"
        sec = "13.1" if u.setup == "orcs" else "13.2"
        rear = " (Rearguard)" if hx in self._zone_sets["rearguard"] else ""
        text = (f"{SIDE_TITLES[seat]} {'re-places' if again else 'deploys'} {u.label()} "
                f"{'to' if again else 'in'} {hx}{rear} ({sec}).")
        return [Event(public=text, section=sec)]

    # --- special abilities (17.x)
    def _parse_ability(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) < 2 or len(words) > 4:
            raise InvalidOrder("usage: `ability <leader> <name> [<unit>...]`, e.g. `ability OC1 whip`, "
                               "`ability EORL death-and-glory ER1 ER2`")
        leader = self.resolve_unit(words[0])
        name = words[1].lower()
        if name not in ABILITIES:
            raise InvalidOrder(f"unknown ability `{name[:20]}` (abilities: {', '.join(ABILITIES)})")
        units = tuple(self.resolve_unit(w) for w in words[2:])
        return Action("ability", (leader, name, *units))

    def _check_ability(self, state: State, seat: str, *args: str) -> None:
        self.seat_check(state, seat)
        leader, name, *units = args
        title, sec, step = ABILITIES[name]
        u = self.units[leader]
        if u.side != seat:
            raise IllegalOrder(f"{leader} is not yours")
        if u.ability != name:
            mine = ABILITIES[u.ability][0] if u.ability in ABILITIES else "none"
            raise IllegalOrder(f"{leader}'s special ability is {mine}, not {title}",
                               ABILITIES[u.ability][1] if u.ability in ABILITIES else "17.0")
        if not self.on_map(state, leader):
            raise IllegalOrder(f"{leader} is not on the map", sec)
        if leader in state["cel"]["abilities"]:
            raise IllegalOrder(f"{leader} has already used {title} (once per game, 17.0)", "17.0")
        if state["step"] != step:
            where = self.steps[step]["title"]
            raise IllegalOrder(f"{title} is used in the {where}", sec if name == "arise" else "3.0")
        if name == "death-and-glory":
            self._check_glory(state, seat, leader, units)
        elif units:
            raise InvalidOrder(f"usage: `ability {leader} {name}`")

    def _check_glory(self, state: State, seat: str, leader: str, units: list[str]) -> None:
        """17.11: Eorl forms a Wedge (8.4) or joins one, in the Special Ability Phase."""
        here = state["units"][leader]["hex"]
        if len(units) == 1:
            a = units[0]
            self._own_on_map(state, seat, a)
            f = self.formation_of(state, a)
            if not f or state["formations"][f]["kind"] != "wedge":
                raise IllegalOrder(f"{a} is not in a Wedge: give two cavalry units to form one", "17.11")
            if distance(here, state["units"][a]["hex"]) > 1:
                raise IllegalOrder("Eorl must be in or next to the Wedge's hex to join it", "17.11")
            return
        if len(units) != 2:
            raise InvalidOrder(f"usage: `ability {leader} death-and-glory <unit> <unit>` (form) or "
                               f"`ability {leader} death-and-glory <unit>` (join)")
        a, b = units
        spec = self.charts_for(state)["formations"]["wedge"]
        for x in (a, b):
            u = self._own_on_map(state, seat, x)
            if u.type not in spec["types"]:
                raise IllegalOrder(f"{x} is {u.type}; a Wedge is made of {' or '.join(spec['types'])} units", "8.4")
            if self.formation_of(state, x):
                raise IllegalOrder(f"{x} is already in a formation", "8.4")
            if state["units"][x].get("disrupted"):
                raise IllegalOrder(f"{x} is Disrupted", "8.4")
        if state["units"][a]["hex"] != here:
            raise IllegalOrder(f"{leader} must be stacked with {a} in {state['units'][a]['hex']}", "8.4")
        if distance(here, state["units"][b]["hex"]) != 1:
            raise IllegalOrder(f"{b} must be next to {a}", "8.4")
        if self.raw(state)["tec"].get(self.terrain(here), {}).get("cost", 1) != 1:
            raise IllegalOrder(f"{here} is {self.terrain(here)}: formations form only in clear hexes (8.41)", "8.4")

    def _apply_ability(self, state: State, seat: str, *args: str) -> list[Event]:
        leader, name, *units = args
        title, sec, step = ABILITIES[name]
        state["cel"]["abilities"][leader] = state["turn"]
        eff = {"ability": name, "leader": leader, "title": title, "section": sec, "side": seat,
               "turn": state["turn"], "until": {"turn": state["turn"] + 1, "step": self.sequence["step"][0]["id"]}}
        ab = self.raw(state)["abilities"]
        here = state["units"][leader]["hex"]
        who = f"{SIDE_TITLES[seat]}: {self.units[leader].label()} uses **{title}**"
        if name == "whip":
            reach = ab.get("whip_reach", 3)
            eff["units"] = sorted([leader] + [x for x in state["units"] if self.army_of(x) == "orcs"
                                              and self.units[x].is_combat and self.on_map(state, x)
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
                fid = self.formation_of(state, units[0])
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

    def _expire_effects(self, state: State) -> None:
        keep = [e for e in state["effects"] if e.get("ability") == "death-and-glory"]
        state["effects"] = [e for e in state["effects"] if e.get("ability") != "death-and-glory"]
        super()._expire_effects(state)
        for e in keep:  # 17.11: in play while the Wedge is intact and Eorl lives
            if self.on_map(state, e["leader"]) and any(f.get("glory") for f in state["formations"].values()):
                state["effects"].append(e)

    def _apply_advance(self, state: State, seat: str, dice: Dice, uid: str, hx: str) -> list[Event]:
        """17.11: Eorl's Wedge gains a second round of combat after it advances."""
        f = self.formation_of(state, uid)
        glory = bool(f and state["formations"][f].get("glory") and self.on_map(state, state["formations"][f]["leader"]))
        eorl = state["formations"][f]["leader"] if glory else None
        with_eorl = glory and state["units"][eorl]["hex"] == state["units"][uid]["hex"]
        events = super()._apply_advance(state, seat, dice, uid, hx)
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
    def _parse_swap(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder("usage: `swap <unit> <unit>` (Cirion's Tactics)")
        return Action("swap", (self.resolve_unit(words[0]), self.resolve_unit(words[1])))

    def _tired(self, state: State, uid: str) -> bool:
        r = state["units"][uid]
        return bool(r.get("disrupted") or r.get("reduced") or self.is_disordered(state, uid))

    def _check_swap(self, state: State, seat: str, *args: str) -> None:
        self.seat_check(state, seat)
        a, b = args
        eff = [e for e in self._effects(state, "tactics") if e["turn"] == state["turn"]]
        if not eff or state["step"] != "A-westernesse":
            raise IllegalOrder("units swap only under Cirion's Tactics, in the Special Ability Phase "
                               "(`ability CIR tactics` first)", "17.31")
        e = eff[0]
        reach = self.raw(state)["abilities"].get("tactics_reach", 3)
        ch = state["units"][e["leader"]]["hex"]
        occ = self.occupancy(state)
        for x in (a, b):
            u = self._own_on_map(state, seat, x)
            if self.army_of(x) != "gondor" or not u.is_combat:
                raise IllegalOrder(f"{x} is not a Gondorian combat unit", "17.31")
            if distance(ch, state["units"][x]["hex"]) > reach:
                raise IllegalOrder(f"{x} is more than {reach} hexes from Cirion", "17.31")
            if x in e["swapped"]:
                raise IllegalOrder(f"{x} has already swapped this phase", "17.31")
            if self.formation_of(state, x):
                raise IllegalOrder(f"{x} is in a formation", "17.31")
        if not self._tired(state, a):
            raise IllegalOrder(f"{a} is neither Disordered nor Reduced", "17.31")
        if self._tired(state, b):
            raise IllegalOrder(f"{b} is Disordered or Reduced itself", "17.31")
        if self.exerting(state, Hex.parse(state["units"][b]["hex"]), seat, occ):
            raise IllegalOrder(f"{b} is in an enemy zone of control", "17.31")
        for x, other in ((a, b), (b, a)):
            if self.units[x].is_cavalry and Hex.parse(state["units"][other]["hex"]) in self._cavalry_closed(state):
                raise IllegalOrder(f"{x} is cavalry and may not enter the landing", "16.21")

    def _apply_swap(self, state: State, seat: str, *args: str) -> list[Event]:
        a, b = args
        ra, rb = state["units"][a], state["units"][b]
        ra["hex"], rb["hex"] = rb["hex"], ra["hex"]
        e = next(e for e in self._effects(state, "tactics") if e["turn"] == state["turn"])
        e["swapped"] += [a, b]
        return [Event(public=f"Westernesse: Tactics, {a} and {b} swap places ({a} now in {ra['hex']}, {b} in "
                             f"{rb['hex']}) (17.31).", section="17.31")]

    # --- Form up! dressing (17.41)
    def _parse_dress(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder("usage: `dress <unit> <hex>` (a Shield Wall formed under Form up! moves one hex)")
        return Action("dress", (self.resolve_unit(words[0]), self._hex_token(words[1])))

    def _check_dress(self, state: State, seat: str, *args: str) -> None:
        self.seat_check(state, seat)
        uid, hx = args
        self._own_on_map(state, seat, uid)
        f = self.formation_of(state, uid)
        if self.kind(state) != "reinforce" or not f or state["formations"][f].get("dress") != state["turn"]:
            raise IllegalOrder("only a Shield Wall just formed under Form up! dresses one hex, in the Special "
                               "Ability Phase", "17.41")
        members = state["formations"][f]["units"]
        here = Hex.parse(state["units"][uid]["hex"])
        h = Hex.parse(hx)
        if h not in self.hexmap or h.distance(here) != 1:
            raise IllegalOrder(f"{hx} is not next to {here}", "17.41")
        occ = self.occupancy(state)
        cost, _ = self._step_cost_fn(state, seat, list(members), here, occ)
        if cost(here, h) is None:
            raise IllegalOrder(f"the Shield Wall cannot step into {hx}", "17.41")
        self._check_stacking(state, seat, list(members), hx, occ)

    def _apply_dress(self, state: State, seat: str, *args: str) -> list[Event]:
        uid, hx = args
        f = self.formation_of(state, uid)
        members = state["formations"][f]["units"]
        for m in members:
            state["units"][m]["hex"] = hx
        state["formations"][f]["dress"] = False
        return [Event(public=f"Westernesse: the Shield Wall {' + '.join(members)} dresses the line into {hx} (17.41).",
                      section="17.41")]

    # --- Eotheod entry choice (14.31, 14.33)
    def _parse_entry(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 1 or words[0].upper() not in AREAS:
            raise InvalidOrder("usage: `entry NW`, `entry NE` or `entry SE`")
        return Action("entry", (words[0].upper(),))

    def _check_entry(self, state: State, seat: str, *args: str) -> None:
        self.seat_check(state, seat)
        e = state["cel"]["eotheod"]
        if e.get("chooser") != seat or e.get("area"):
            raise IllegalOrder("you have no Eotheod entry area to choose", "14.31")

    def _apply_entry(self, state: State, seat: str, *args: str) -> list[Event]:
        e = state["cel"]["eotheod"]
        e["area"] = args[0]
        events = [Event(public=f"{SIDE_TITLES[seat]} decides: the Eotheod enter in the {e['area']} area "
                               f"(14.31, 14.33).", section="14.31")]
        events += self._eotheod_arrival(state)
        events += self._dem_watch(state)
        return events

    # ----------------------------------------------------------- sequence
    def _check_done(self, state: State, seat: str) -> None:
        if state["turn"] == 0:
            super()._check_done(state, seat)
            return
        e = state["cel"]["eotheod"]
        if e.get("chooser") == seat and not e.get("area"):
            raise IllegalOrder("first choose where the Eotheod enter: `entry NW`, `entry NE` or `entry SE`", "14.31")
        super()._check_done(state, seat)

    def on_setup_step_end(self, state: State) -> list[Event]:
        events = super().on_setup_step_end(state)
        if state["step"] == self.step_order[len(self.sequence["setup"]) - 1]:
            events.append(self._draw_chits(state))  # 14.3: after the initial units are placed
        return events

    def deadline_action(self, state: State, seat: str) -> Action | None:
        """At a deadline, a side that must choose the Eotheod area (14.31, 14.33)
        and has not gets the area printed on the Westernesse chit, else NW."""
        e = state["cel"]["eotheod"]
        if e.get("chooser") == seat and not e.get("area") and not state["pending"]:
            w = parse_west_chit(e["west"]) if e.get("west") else {}
            return Action("entry", (w.get("area") or "NW",))
        return super().deadline_action(state, seat)

    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        events = super().apply(state, seat, action)
        if not state["over"]:
            events += self._dem_watch(state)
        return events

    # ------------------------------------------------------- legal actions
    def legal_extra(self, state: State, seat: str) -> Iterator[Action]:
        if state["turn"] == 0:
            yield from self._legal_deploys(state, seat)
            return
        yield from super().legal_extra(state, seat)  # 14.2: attacks on units blocking the entry
        e = state["cel"]["eotheod"]
        if e.get("chooser") == seat and not e.get("area"):
            for a in AREAS:
                yield Action("entry", (a,))
        for leader in sorted(state["units"]):
            u = self.units[leader]
            if u.side != seat or not u.is_leader or u.ability not in ABILITIES:
                continue
            if leader in state["cel"]["abilities"] or not self.on_map(state, leader):
                continue
            if state["step"] != ABILITIES[u.ability][2]:
                continue
            if u.ability == "death-and-glory":
                yield from self._legal_glory(state, seat, leader)
                continue
            a = Action("ability", (leader, u.ability))
            if self._ok(state, seat, a):
                yield a
        if self.kind(state) == "reinforce" and seat == "westernesse":
            yield from self._legal_form_up(state, seat)

    def _legal_glory(self, state: State, seat: str, leader: str) -> Iterator[Action]:
        here = state["units"][leader]["hex"]
        occ = self.occupancy(state)
        cands = []
        for a in self.combat_units_in(state, here, occ):
            for nb in Hex.parse(here).neighbours():
                for b in self.combat_units_in(state, str(nb), occ):
                    cands.append(Action("ability", (leader, "death-and-glory", a, b)))
        for fid, f in sorted(state["formations"].items()):
            if f["kind"] == "wedge":
                cands.append(Action("ability", (leader, "death-and-glory", f["units"][0])))
        for a in cands:
            if self._ok(state, seat, a):
                yield a

    def _legal_form_up(self, state: State, seat: str) -> Iterator[Action]:
        occ = self.occupancy(state)
        for e in self._effects(state, "form-up"):
            if e["turn"] != state["turn"]:
                continue
            here = Hex.parse(state["units"][e["leader"]]["hex"])
            for uid in sorted(state["units"]):
                if self.army_of(uid) != "gondor" or not self.units[uid].is_combat or not self.on_map(state, uid):
                    continue
                ha = Hex.parse(state["units"][uid]["hex"])
                if ha.distance(here) > 3:
                    continue
                for nb in ha.neighbours():
                    for b in self.combat_units_in(state, str(nb), occ):
                        a = Action("form", ("shieldwall", uid, b, e["leader"]))
                        if self._ok(state, seat, a):
                            yield a
        for fid, f in sorted(state["formations"].items()):
            if f.get("dress") == state["turn"] and self.units[f["units"][0]].side == seat:
                here = Hex.parse(state["units"][f["units"][0]]["hex"])
                for nb in here.neighbours():
                    a = Action("dress", (f["units"][0], str(nb)))
                    if self._ok(state, seat, a):
                        yield a
        e = [x for x in self._effects(state, "tactics") if x["turn"] == state["turn"]]
        if e and state["step"] == "A-westernesse":
            mine = sorted(x for x in state["units"] if self.army_of(x) == "gondor" and self.units[x].is_combat
                          and self.on_map(state, x))
            tired = [x for x in mine if self._tired(state, x)]
            fresh = [x for x in mine if not self._tired(state, x)]
            for a in tired:
                for b in fresh:
                    act = Action("swap", (a, b))
                    if self._ok(state, seat, act):
                        yield act

    def _legal_deploys(self, state: State, seat: str) -> Iterator[Action]:
        mine = [uid for uid, u in self.units.items() if u.side == seat and u.setup != "reinforcement"
                and self.in_play(state, uid)]
        mine.sort(key=lambda x: (state["units"][x]["status"] != "pool", x))
        if not any(state["units"][x]["status"] == "pool" for x in mine):
            yield Action("done")
        occ = self.occupancy(state)
        for uid in mine:
            for hx in sorted(self._setup_zone(uid)):
                if state["units"][uid]["hex"] == hx:
                    continue
                if hx in occ or self.units[uid].is_cavalry:
                    try:
                        self._check_deploy(state, seat, uid, hx, occ)
                    except IllegalOrder:
                        continue
                yield Action("deploy", (uid, hx))

    # ----------------------------------------------------------------- view
    def view(self, state: State, seat: str | None) -> dict:
        own = seat if seat in SEATS else None
        units = []
        pool = {s: 0 for s in SEATS}
        for uid, u in self.units.items():
            rec = state["units"][uid]
            if rec["status"] == "pool":
                pool[u.side] += 1
            if rec["status"] not in ("map", "pool"):
                continue
            d = self.unit_view(state, uid, own)
            d["army"] = self.army_of(uid)
            if u.ratings:
                d["dem"] = self.unit_dem_value(state, uid)
                if self.is_disordered(state, uid):
                    d["disordered"] = True
            units.append(d)
        names = self.raw(state)["armies"]
        cel = state["cel"]
        eo = cel["eotheod"]
        markers = list(state["markers"])
        if cel["disarray"] and self.on_map(state, "CIR"):
            markers.append({"type": "disarray", "hex": state["units"]["CIR"]["hex"]})
        notes = []
        for e in state["effects"]:
            if e.get("ability") and self.on_map(state, e["leader"]):
                markers.append({"type": "ability", "hex": state["units"][e["leader"]]["hex"], "title": e["title"]})
                notes.append(f"{e['title']} ({e['leader']}, {e['section']})")
        notes += [f"{'Shield Wall' if f['kind'] == 'shieldwall' else 'Wedge'}: {' + '.join(f['units'])} "
                  f"with {f['leader']} (8.4)" for f in state["formations"].values()]
        notes += [f"{p['unit']} must retreat: {SIDE_TITLES[p['seat']]} chooses (7.5)" for p in state["pending"]]
        if state["turn"] >= 1:
            if cel["disarray"]:
                notes.append("Gondor in disarray: Disordered this turn (13.21)" if cel["disordered"]
                             else "Gondor in disarray (13.21)")
            notes.append(f"Balchoth: arrived turn {cel['balchoth']} (14.5)" if cel["balchoth"]
                         else "Balchoth: not yet arrived (14.5)")
        if eo["revealed"]:
            if eo["arrive"] is False:
                notes.append("Eotheod: will not arrive (14.3)")
            else:
                notes.append(f"Eotheod: turn {eo['turn']}, {eo['area'] or 'area to choose'} (14.6)")
        chits = {}
        if state["hidden"].get("chits"):
            for s in SEATS:
                chits[s] = (eo["west"] if s == "westernesse" else eo["shadow"]) if eo["revealed"] else "face down"
        v = {
            "ruleset": self.name,
            "title": "Field of Celebrant",
            "seat": own,
            "turn": min(state["turn"], self.sequence["turns"]),
            "turns": self.sequence["turns"],
            "night": self.is_night(state),
            "phase": state["step"],
            "phase_title": self.phase_title(state),
            "active": self.active_seats(state),
            "done": list(state["done"]),
            "sides": {s: {"title": SIDE_TITLES[s], "color": SIDE_COLORS[s]} for s in SEATS},
            "units": units,
            "markers": markers,
            "gates": {},
            "tracks": [{"name": f"{names[a][:1].upper()}{names[a][1:]} demoralization",
                        "side": "westernesse" if a in ARMIES["westernesse"] else "shadow",
                        "points": self.dem_total(state, a), "level": self.dem_level(state, a),
                        "demoralized": self.demoralized(state, a)} for a in names],
            "pool": pool,
            "pending": [{"seat": p["seat"], "unit": p["unit"], "options": list(p["options"])}
                        for p in state["pending"]],
            "effects": [{"title": e["title"], "section": e["section"], "side": e.get("side"),
                         "leader": e.get("leader")} for e in state["effects"]],
            "formations": {k: dict(f) for k, f in state["formations"].items()},
            "eliminated": sorted(x for x in state["units"] if state["units"][x]["status"] == "eliminated"),
            "abilities_used": dict(cel["abilities"]),
            "disarray": cel["disarray"],
            "balchoth": cel["balchoth"],
            "eotheod": {k: eo[k] for k in ("turn", "area", "chooser", "arrive", "arrived")} if eo["revealed"] else {},
            "chits": chits,
            "notes": notes,
            "over": state["over"],
        }
        if own and state["hidden"].get("chits") and not eo["revealed"]:
            v["my_chit"] = state["hidden"]["chits"][own]
        self.view_extra(state, own, v)
        if own and state["turn"] == 0 and own in self.active_seats(state):
            z = self._zone_sets
            v["zone"] = sorted(z["orcs"] if own == "shadow" else z["gondor"] | z["rearguard"])
        return v

    def secret_text(self, state: State, seat: str) -> str | None:
        chits = state["hidden"].get("chits")
        if seat not in SEATS or not chits:
            return None
        if state["cel"]["eotheod"]["revealed"]:
            return f"Both Eotheod chits are revealed; yours was {chits[seat]} (14.3)."
        return f"Your Eotheod chit is **{chits[seat]}**, face down (14.3). {self._chit_hint(state, seat)}"

    def help(self, topic: str | None = None) -> str:
        t = (topic or "").strip().lower()
        if t in ("orders", "notation", "combat", "move", "rally", "abilities", "ability"):
            return (
                "**Field of Celebrant orders** (unit ids then hexes):\n"
                "`move GS1 2014` · `fire GB1 at 2110` (range 3, mounted 2: 7.12) · `duel CIR OCH` · "
                "`melee GS1 at 2110` (any adjacent enemy, 7.31) · `advance`/`retreat` (7.5) · "
                "`rally CIR GS1` in the Rally Phase, after up to 3 MP of leader movement (8.38).\n"
                "Special abilities, once per game (17.0), in the Reinforcement and Special Ability Phase: "
                "`ability OC1 whip`, `ability OCH blood-lust`, `ability BCH despair`, `ability BC1 iron-fist`, "
                "`ability CIR tactics` then `swap GS1 GS2`, `ability GC1 form-up` then "
                "`form shieldwall GS1 GS2 GC1` and `dress GS1 2014`, "
                "`ability EORL death-and-glory ER1 ER2` (or one unit to join a Wedge); "
                "`ability EC1 arise` in the Rally Phase.\n"
                "`entry NW|NE|SE` when a chit lets you choose where the Eotheod enter (14.31, 14.33). "
                "`/secret` shows your Eotheod chit."
            )
        return (
            "**Field of Celebrant** (Ken Demyen, v1.33): Shadow (the Misty Mountain Orcs and the Balchoth) "
            "against Westernesse (Gondor and the Eotheod). 18 Game-Turns, 15-18 at night.\n"
            "Set-up: Shadow deploys the Orcs on the north-west hill (13.1), then Westernesse deploys Gondor "
            "around the central grove or in the Rearguard (13.2): `deploy <unit> <hex>`, then `/done`. "
            "Then each side secretly draws an Eotheod chit (14.3; `/secret`).\n"
            "Each turn: A Reinforcement and Special Ability Phase (Shadow, then Westernesse), B/C Westernesse "
            "move and combat, D/E Shadow move and combat, F Rally (Shadow, then Westernesse). Gondor starts in "
            "disarray (13.21); the Balchoth arrive from turn 2-5 (14.5). Victory is graded by demoralized "
            "armies (20.x). `/help orders` lists the orders; docs/celebrant.md the rulings."
        )


CELEBRANT = Celebrant()
