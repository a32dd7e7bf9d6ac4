"""SPI *Gondor* (1977): the siege of Minas Tirith.

This module implements the set-up (13.0-13.2, 16.71-16.72) and the sequence
of play as data (12.0, Standard Rules 3.0 as known). Play after set-up (move,
combat, siege, magic) arrives with the Standard Rules issue; until then each
phase can only be passed with ``done``.

Order notation (CONVENTIONS.md):
  deploy <unit> <hex>     place a unit during your set-up (again to re-place it)
  done                    end your part of the current phase
"""
from __future__ import annotations

import tomllib
from functools import cached_property
from pathlib import Path
from typing import Iterator

from engine.core import (
    Action,
    AmbiguousOrder,
    Dice,
    Event,
    IllegalOrder,
    InvalidOrder,
    Result,
    State,
    new_dice,
    register,
)
from engine.hexgrid import Hex, HexError, distance
from engine.maps import HexMap
from engine.units import UnitDef, load_oob

DATA = Path(__file__).parent / "data"
SEATS = ("sauron", "westernesse")
SIDE_TITLES = {"sauron": "Sauron", "westernesse": "Westernesse"}
SIDE_COLORS = {"sauron": "#8b1a1a", "westernesse": "#1f4e9c"}
STATE_VERSION = 1


def _cauldron_phrase(ids: list[str]) -> str:
    if len(ids) <= 1:
        return "".join(ids)
    return ", ".join(ids[:-1]) + " and " + ids[-1]


class Gondor:
    name = "gondor"
    title = "Gondor: The Siege of Minas Tirith"
    seats = SEATS

    # ------------------------------------------------------------------ data
    @cached_property
    def hexmap(self) -> HexMap:
        return HexMap.load(DATA / "map.json")

    @cached_property
    def units(self) -> dict[str, UnitDef]:
        return load_oob(DATA / "oob.toml")

    @cached_property
    def charts(self) -> dict:
        return tomllib.loads((DATA / "charts.toml").read_text())

    @cached_property
    def sequence(self) -> dict:
        return tomllib.loads((DATA / "sequence.toml").read_text())

    @cached_property
    def steps(self) -> dict[str, dict]:
        seq = self.sequence
        return {s["id"]: s for s in seq["setup"] + seq["step"]}

    @cached_property
    def _city_edge(self) -> list[Hex]:
        return [h for h, i in self.hexmap.hexes.items() if i.level == 1]

    @cached_property
    def zones(self) -> dict[str, frozenset[Hex]]:
        """Set-up zones (13.1, 13.2, 16.71), precomputed once."""
        m, ch = self.hexmap, self.charts["setup"]
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
        state: State = {
            "ruleset": self.name,
            "version": STATE_VERSION,
            "options": opts,
            "dice": new_dice(seed),
            "turn": 0,
            "step": "setup-sauron",
            "done": [],
            "units": {},
            "markers": [],
            "gates": {},
            "dem": {"garrison": 0, "reinforcements": 0, "sauron": 0},
            "hidden": {},
            "over": None,
        }
        for uid, u in self.units.items():
            rec: dict = {"hex": None, "status": "reinforcement" if u.setup == "reinforcement" else "pool"}
            if u.type == "cauldron":
                rec["oil"] = u.oil
            if u.setup[:1].isdigit():  # a fixed hex: the Citadel Guard in 1903 (13.2)
                rec["hex"] = u.setup
                rec["status"] = "map"
            state["units"][uid] = rec
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
        return state

    def _check_options(self, options: dict[str, str]) -> dict:
        out: dict = {"rally": {}}
        for k, v in options.items():
            if k.startswith("rally."):
                uid = k[6:].upper()
                if uid not in self.charts["leaders"]["rally"]:
                    raise InvalidOrder(f"`{k}`: {uid} is not a leader")
                if not v.isdigit() or not 1 <= int(v) <= 13:
                    raise InvalidOrder(f"`{k}` must be a rally rating from 1 to 13")
                out["rally"][uid] = int(v)
            else:
                raise InvalidOrder(f"unknown option `{k}` for gondor (known: rally.<LEADER>=<n>)")
        return out

    def rally(self, state: State, uid: str) -> int | None:
        return state["options"]["rally"].get(uid, self.charts["leaders"]["rally"].get(uid))

    # ------------------------------------------------------------ sequence
    def active_seats(self, state: State) -> list[str]:
        if state["over"]:
            return []
        step = self.steps[state["step"]]
        return [s for s in step["seats"] if s not in state["done"]]

    def phase_title(self, state: State) -> str:
        step = self.steps[state["step"]]
        return f"{step['title']} ({step['section']})"

    def is_night(self, state: State) -> bool:
        return state["turn"] in self.sequence["night_turns"]

    def _advance(self, state: State) -> list[Event]:
        """Move to the next step once every seat of this one is done."""
        order = [s["id"] for s in self.sequence["setup"]] + [s["id"] for s in self.sequence["step"]]
        first_play = self.sequence["step"][0]["id"]
        i = order.index(state["step"])
        state["done"] = []
        if i + 1 < len(order):
            state["step"] = order[i + 1]
            if state["step"] == first_play:
                state["turn"] = 1
        else:
            state["turn"] += 1
            state["step"] = first_play
        if state["turn"] > self.sequence["turns"]:
            state["over"] = {"winner": None, "summary": "The sixteen Game-Turns are over (12.0)."}
            return [Event(public="The sixteen Game-Turns are over (12.0).", section="12.0", new_phase=True)]
        step = self.steps[state["step"]]
        who = " and ".join(SIDE_TITLES[s] for s in step["seats"])
        if state["turn"] == 0:
            head = "Set-up"
        else:
            head = f"Game-Turn {state['turn']} ({'night' if self.is_night(state) else 'day'})"
        text = f"{head}: {step['title']}. {who} to act ({step['section']})."
        events = []
        if state["step"] == first_play and state["turn"] == 1:
            events.append(Event(public="Set-up is complete (13.0).", section="13.0"))
        events.append(Event(public=text, section=step["section"], new_phase=True))
        return events

    # ---------------------------------------------------------- notation
    def format(self, action: Action) -> str:
        return str(action)

    def _resolve_unit(self, token: str) -> str:
        t = token.upper()
        if t in self.units:
            return t
        matches = sorted(u for u in self.units if u.startswith(t)) if t else []
        if len(matches) > 1:
            raise AmbiguousOrder(f"`{token}` could be {', '.join(matches[:8])}{'…' if len(matches) > 8 else ''}",
                                 candidates=matches)
        if len(matches) == 1:
            return matches[0]
        raise IllegalOrder(f"there is no unit `{token[:12]}` in this game")

    def parse(self, state: State, seat: str, text: str) -> Action:
        if len(text) > 200:
            raise InvalidOrder("that order is too long (200 characters at most)")
        words = text.strip().split()
        if not words:
            raise InvalidOrder("empty order; try `deploy <unit> <hex>` or `done`")
        verb = words[0].lower()
        if verb == "done":
            if len(words) != 1:
                raise InvalidOrder("usage: `done`")
            action = Action("done")
        elif verb == "deploy":
            if len(words) != 3:
                raise InvalidOrder("usage: `deploy <unit> <hex>`, e.g. `deploy OA1 2325`")
            try:
                h = Hex.parse(words[2])
            except HexError as e:
                raise InvalidOrder(str(e)) from None
            uid = self._resolve_unit(words[1])
            action = Action("deploy", (uid, str(h)))
        else:
            raise InvalidOrder(f"unknown order `{words[0][:20]}`; orders now: `deploy <unit> <hex>`, `done`")
        self.check(state, seat, action)
        return action

    # ------------------------------------------------------------- legality
    @staticmethod
    def _occupancy(state: State) -> dict[str, list[str]]:
        occ: dict[str, list[str]] = {}
        for uid, r in state["units"].items():
            if r["hex"] is not None:
                occ.setdefault(r["hex"], []).append(uid)
        return occ

    def _seat_check(self, state: State, seat: str) -> None:
        if seat not in SEATS:
            raise IllegalOrder(f"`{seat}` is not a seat in Gondor")
        if state["over"]:
            raise IllegalOrder("the game is over")
        if seat not in self.steps[state["step"]]["seats"]:
            step = self.steps[state["step"]]
            who = " and ".join(SIDE_TITLES[s] for s in step["seats"])
            extra = " Sauron places first, then Westernesse" if state["turn"] == 0 else ""
            raise IllegalOrder(f"it is the {step['title']}: {who} acts now.{extra}", step["section"]
                               if state["turn"] else "13.0")
        if seat in state["done"]:
            raise IllegalOrder("you are already done with this phase")

    def check(self, state: State, seat: str, action: Action) -> None:
        self._seat_check(state, seat)
        if action.verb == "done":
            if state["turn"] == 0:
                left = [uid for uid, u in self.units.items()
                        if u.side == seat and state["units"][uid]["status"] == "pool"]
                if left:
                    more = f" and {len(left) - 6} more" if len(left) > 6 else ""
                    sec = "13.1" if seat == "sauron" else "13.2"
                    noun = "counter" if len(left) == 1 else "counters"
                    raise IllegalOrder(f"{len(left)} {noun} still to deploy: {', '.join(left[:6])}{more}", sec)
            return
        if action.verb == "deploy":
            self._check_deploy(state, seat, *action.args)
            return
        raise InvalidOrder(f"unknown order `{action.verb}`")

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
            occ = self._occupancy(state)
        stack = [self.units[x] for x in occ.get(hx, ()) if x != uid]
        lim = self.charts["stacking"]
        if stack and any(o.side != seat for o in stack):
            raise IllegalOrder(f"hex {hx} holds enemy units")
        if u.is_combat and sum(o.is_combat for o in stack) >= lim["combat_units"]:
            other = next(o.id for o in stack if o.is_combat)
            raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex "
                               "(Standard Rules stacking, reconstructed)")
        if u.is_siege and sum(o.is_siege for o in stack) >= lim["siege_equipment"]:
            other = next(o.id for o in stack if o.is_siege)
            raise IllegalOrder(f"hex {hx} already holds siege equipment ({other}); one per hex "
                               "(Standard Rules stacking, reconstructed)")

    def legal_actions(self, state: State, seat: str) -> Iterator[Action]:
        try:
            self._seat_check(state, seat)
        except IllegalOrder:
            return
        if state["turn"] == 0:
            # undeployed units first, then re-placements
            mine = [uid for uid, u in self.units.items() if u.side == seat
                    and u.setup not in ("reinforcement",) and not u.setup[:1].isdigit()]
            mine.sort(key=lambda x: (state["units"][x]["status"] != "pool", x))
            pool_left = any(state["units"][x]["status"] == "pool" for x in mine)
            if not pool_left:
                yield Action("done")
            occ = self._occupancy(state)
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
        else:
            yield Action("done")

    # ---------------------------------------------------------------- apply
    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        if action.verb == "deploy":
            uid, hx = action.args
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
        if action.verb == "done":
            state["done"].append(seat)
            events = []
            if state["turn"] == 0:
                events.append(Event(public=f"{SIDE_TITLES[seat]} has finished setting up (13.0).", section="13.0"))
            else:
                events.append(Event(public=f"{SIDE_TITLES[seat]} is done with the {self.steps[state['step']]['title']}."))
            if not self.active_seats(state):
                events.extend(self._advance(state))
            return events
        raise InvalidOrder(f"unknown order `{action.verb}`")

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
            d = {"id": uid, "side": u.side, "type": u.type, "name": u.name, "hex": rec["hex"]}
            if u.ratings:
                d["ratings"] = str(u.ratings)
                d["reduced"] = rec.get("reduced", False)
                d["disrupted"] = rec.get("disrupted", False)
            if u.is_leader:
                d["rally"] = self.rally(state, uid)
                if u.magic:
                    d["magic"] = rec.get("magic", u.magic)
            if u.type == "cauldron":
                d["oil"] = rec["oil"]
                if own == "westernesse":  # 16.71: only the owner knows which are real
                    d["real"] = uid in state["hidden"]["real_cauldrons"]
            units.append(d)
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
                {"name": "Garrison demoralization", "side": "westernesse",
                 "points": state["dem"]["garrison"], "level": self.charts["demoralization"]["garrison"]},
                {"name": "Reinforcements demoralization", "side": "westernesse",
                 "points": state["dem"]["reinforcements"], "level": self.charts["demoralization"]["reinforcements"]},
                {"name": "Sauron demoralization", "side": "sauron",
                 "points": state["dem"]["sauron"], "level": self.charts["demoralization"]["sauron"]},
            ],
            "pool": pool,
            "over": state["over"],
        }
        if own and state["turn"] == 0 and own in self.active_seats(state):
            zone = "east" if own == "sauron" else "city"
            v["zone"] = sorted(str(h) for h in self.zones[zone])
        return v

    def secret_text(self, state: State, seat: str) -> str | None:
        if seat != "westernesse":
            return None
        real = state["hidden"]["real_cauldrons"]
        dummies = sorted(u for u, d in self.units.items() if d.type == "cauldron" and u not in real)
        lines = [f"Your real cauldrons are {_cauldron_phrase(real)}; "
                 f"{_cauldron_phrase(dummies)} are dummies (16.71). "
                 "Each has three oil counters beneath it, real or dummy alike (16.72)."]
        placed = [f"{u} in {state['units'][u]['hex']}" for u in real if state["units"][u]["hex"]]
        if placed:
            lines.append("Real cauldrons on the map: " + ", ".join(placed) + ".")
        return " ".join(lines)

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        o = state["over"]
        return Result(o.get("winner"), o["summary"], o.get("section"))

    def help(self, topic: str | None = None) -> str:
        return (
            "**Gondor** (SPI 1977): Sauron besieges Minas Tirith; Westernesse defends.\n"
            "Set-up (13.0): Sauron places first, within four hexes of the Eastern edge (13.1); "
            "then Westernesse inside Minas Tirith or within two hexes of its walls (13.2). "
            "The Citadel Guard starts in 1903. Cauldrons go inside the city; three of the six are dummies, "
            "and only Westernesse knows which (16.71; `/secret`).\n"
            "Orders: `deploy <unit> <hex>` (again to re-place), then `/done`.\n"
            "Hexes are XXYY (column, row); West is the top of the map, East the bottom. "
            "The map and some charts are reconstructed: see the README."
        )


GONDOR = register(Gondor())
