"""Gondor's command rules: Mumakil (14.3), reinforcements in formation
(14.2), the spells of 17.x, the Banner of the King (18.x), demoralization
(19.x), city levels and victory (20.x), tunnels (15.24).

A mixin for :class:`engine.rulesets.gondor.Gondor`; every hook calls
``super()`` so the other mixins see it too. Every ruling made here is listed
in ``docs/gondor.md``.

Orders (CONVENTIONS.md notation), besides the Standard Rules orders:
  form wedge|shieldwall <unit> <unit> <leader>   also for Westernesse reinforcements not yet
                                                 on the map that may enter now (14.2)
  melee <unit> at <hex>        a Westernesse reinforcement off the map attacks an enemy unit in one of
                               its entry hexes (14.2); `advance <unit> <hex>` then enters the map
  cast NAZ operate-grond       17.13
  cast GAN stalemate-nazgul    17.22
  cast GAN reveal-aragorn      17.23 (the Banner of the King, 18.x)
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Dice, Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex, distance
from engine.spi.charts import MORALES, shift_morale
from engine.spi.entry import EntryAttacks
from engine.spi.standard import _phrase

BANNER = "BAN"
GROND = "GRD"
NAZGUL = "NAZ"
GANDALF = "GAN"
ARAGORN = "ARA"
TUNNEL_RULES = ("morale-w", "armor-4", "armor-1", "none")
FORM_TITLES = {"shieldwall": "Shield Wall", "wedge": "Wedge"}


class CommandRules(EntryAttacks):
    entry_attack_seats = ("westernesse",)  # 14.2: Westernesse reinforcements only

    # ------------------------------------------------------------- state
    def init_extra(self, state: State) -> None:
        super().init_extra(state)
        self._check_tunnel_rule(state)
        state["road"] = {h: None for h in self._road_hexes_20_1}
        state["grond_active"] = False        # 17.13 (SiegeRules reads it)
        state["garrison_broken"] = None      # 19.13: the Game-Turn the garrison was first demoralized
        self._road_refresh(state)

    def _check_tunnel_rule(self, state: State) -> None:
        rule = self._tunnel_rule(state)
        if rule not in TUNNEL_RULES:
            raise InvalidOrder(f"[tunnel] rule must be one of {', '.join(TUNNEL_RULES)}; not `{rule}`")

    @cached_property
    def _road_hexes_20_1(self) -> tuple[str, ...]:
        return tuple(self.gondor_charts["victory"]["road"])

    def _cmd(self, state: State, table: str) -> dict:
        """One of this module's chart tables, with a group's override."""
        return self.charts_for(state).raw.get(table, {})

    # ------------------------------------------------------- after actions
    def _refresh(self, state: State) -> list[str]:
        """What must hold after every action and at every step start: the
        road (20.1), the sticky garrison flag (19.13), the Banner (18.14)."""
        self._road_refresh(state)
        lines = self._banner_sanity(state)
        if state.get("garrison_broken") is None and self.demoralized(state, "garrison"):
            state["garrison_broken"] = state["turn"]
        return lines

    def check_victory(self, state: State) -> dict | None:
        self._refresh(state)
        return super().check_victory(state)

    def on_step_start(self, state: State) -> list[Event]:
        events: list[Event] = super().on_step_start(state)
        lines = self._refresh(state)
        if lines:
            events.append(Event(public="; ".join(lines) + ".", section="18.14"))
        if state.get("garrison_broken") is not None and not state.get("garrison_broken_told"):
            state["garrison_broken_told"] = True
            ch = self._cmd(state, "dem_events")
            events.append(Event(public=f"The Minas Tirith garrison has been demoralized: {-ch['sauron_garrison_broken']} "
                                       "points come off Sauron's Demoralization total for the rest of the game "
                                       "(19.13).", section="19.13"))
        events.extend(self._banner_step(state))
        return events

    # ------------------------------------------------------------------ 14.31
    def extra_blocked(self, state: State, seat: str, uids: list[str]) -> set[Hex]:
        """14.31: no cavalry unit ever moves next to a Mumak, friend or foe, and vice versa."""
        out = set(super().extra_blocked(state, seat, uids))
        types = {self.units[u].type for u in uids}
        cav, mum = "cavalry" in types, "mumak" in types
        if not (cav or mum):
            return out
        for uid, r in state["units"].items():
            if r["status"] != "map" or uid in uids or r["hex"] is None:
                continue
            t = self.units[uid].type
            if (cav and t == "mumak") or (mum and t == "cavalry"):
                out.update(Hex.parse(r["hex"]).neighbours())
        return out

    def _mumak_reason(self, state: State, seat: str, uids: list[str], h: Hex) -> str | None:
        if h not in self.extra_blocked(state, seat, uids) or h not in self.hexmap:
            return None
        if any(self.units[u].type == "cavalry" for u in uids):
            return f"{_phrase(uids)} may not move next to a Mumak ({h}): cavalry never does, friend or foe (14.31)"
        return f"{_phrase(uids)} may not move next to cavalry ({h}): a Mumak never does, friend or foe (14.31)"

    def _why_unreachable(self, state: State, seat: str, uids: list[str], dest: str) -> str:
        return self._mumak_reason(state, seat, uids, Hex.parse(dest)) or super()._why_unreachable(
            state, seat, uids, dest)

    def _why_step(self, state, seat, uids, a: Hex, b: Hex, zoc, start) -> str:
        return self._mumak_reason(state, seat, uids, b) or super()._why_step(state, seat, uids, a, b, zoc, start)

    def _why_section(self, state: State, seat: str, hx: str, why: str) -> str:
        return "14.31" if why.endswith("(14.31)") else super()._why_section(state, seat, hx, why)

    # ------------------------------------------------------------------ 14.32
    def _start_retreat(self, state: State, dice: Dice, uids: list[str], n: int, attacker_hex: str | None,
                       leaders: list[str]) -> list[str]:
        mumakil = [u for u in uids if self.units[u].type == "mumak"]
        if not mumakil:
            return super()._start_retreat(state, dice, uids, n, attacker_hex, leaders)
        lines: list[str] = []
        others = [u for u in uids if u not in mumakil]
        if others:
            lines += super()._start_retreat(state, dice, others, n, attacker_hex, leaders)
        for m in mumakil:
            lines += self._stampede(state, dice, m)
        return lines

    def _stampede(self, state: State, dice: Dice, uid: str) -> list[str]:
        """14.32: a Mumak given a retreat stampedes instead (ruling: a chain of
        stampedes, one Mumak's charge making another stampede, stops after
        ``[stampede] chain`` of them; a further one only disrupts)."""
        rec = state["units"][uid]
        rec["disrupted"] = True
        depth = state["ph"].get("stampede_depth", 0)
        cap = self._cmd(state, "stampede").get("chain", 3)
        if depth >= cap:
            return [f"{uid} would stampede, but a chain of stampedes stops after {cap} (14.32, ruling): it stays in "
                    f"{rec['hex']}, Disrupted"]
        state["ph"]["stampede_depth"] = depth + 1
        try:
            return self._run_stampede(state, dice, uid)
        finally:
            if depth:
                state["ph"]["stampede_depth"] = depth
            else:
                state["ph"].pop("stampede_depth", None)

    def _run_stampede(self, state: State, dice: Dice, uid: str) -> list[str]:
        rec = state["units"][uid]
        side = self.units[uid].side
        roll = dice.d6("stampede")
        d = self.charts_for(state)["scatter"]["directions"][roll - 1]
        ma = int(self.movement_allowance(state, uid))
        tec = self.charts_for(state)["tec"]
        here = Hex.parse(rec["hex"])
        trail = [str(here)]
        head = (f"{uid} stampedes instead of retreating (14.32): {self.title_of(side)} rolls {roll} on the Scatter "
                f"Diagram, direction {d}")
        target = None
        end = None
        for _ in range(ma):
            nxt = here.neighbour(d)
            if nxt not in self.hexmap:
                self._stampede_marks(state, side, trail)
                self.eliminate(state, uid)
                return [head + self._ran(trail) + "; it runs off the map and is eliminated (14.32)"]
            feature = self.hexmap.side_index.get((here, nxt))
            if feature is not None and self.hexside_rule(state, [uid], here, nxt, retreat=True) is None:
                self._stampede_marks(state, side, trail)
                self.eliminate(state, uid)
                return [head + self._ran(trail) + f"; it runs into the {feature[0]} {feature[1]} and is eliminated "
                                                  "(14.32)"]
            occ = self.occupancy(state)
            there = [x for x in occ.get(str(nxt), ()) if x != uid]
            combat = sorted(x for x in there if self.units[x].is_combat)
            if combat:
                target = combat[0]  # ruling: it charges the unit in its path
                break
            info = self.hexmap.hexes[nxt]
            if there or not tec.get(info.terrain, {}).get("passable", True):
                end = (f"; it stops before {nxt} ({'occupied' if there else info.terrain}, ruling)")
                break
            here = nxt
            rec["hex"] = str(here)
            trail.append(str(here))
            target = self._stampede_contact(state, uid, here, d)
            if target:
                break
        self._stampede_marks(state, side, trail)
        text = head + self._ran(trail)
        if target is None:
            return [text + (end or f"; it stops in {here} after {ma} hexes") + ", Disrupted (14.32)"]
        th = state["units"][target]["hex"]
        lines, res, prof = self._resolve_attack(state, dice, uid, target, "melee")
        text += (f"; it attacks {self.units[target].label()} in {th}"
                 + (f" [{'; '.join(prof['notes'])}]" if prof["notes"] else "") + ": "
                 + "; ".join(lines + self.apply_result(state, dice, target, res, attacker_hex=str(here), kind="melee")))
        if self.on_map(state, uid):
            state["units"][uid]["disrupted"] = True
            text += f"; {uid} stops in {state['units'][uid]['hex']}, Disrupted until rallied (14.32)"
        return [text]

    @staticmethod
    def _ran(trail: list[str]) -> str:
        return f"; it runs {' '.join(trail[1:])}" if len(trail) > 1 else "; it cannot move"

    def _stampede_contact(self, state: State, uid: str, here: Hex, d: str) -> str | None:
        """The combat unit a stampeding Mumak now touches (any side; none
        across a wall, tower or gate hexside): the one straight ahead first,
        then the lowest hex number, then the lowest unit id (ruling)."""
        occ = self.occupancy(state)
        found = []
        ahead = here.neighbour(d)
        for nb in here.neighbours():
            ids = sorted(x for x in occ.get(str(nb), ()) if x != uid and self.units[x].is_combat)
            if ids and self.zoc_through(state, nb, here):
                found.append((nb != ahead, nb, ids[0]))
        return min(found)[2] if found else None

    def _stampede_marks(self, state: State, side: str, trail: list[str]) -> None:
        """A stampede passes through hexes: the road (20.1) and gates (15.15) see it."""
        road = state.setdefault("road", {h: None for h in self._road_hexes_20_1})
        for hx in trail:
            if hx in road:
                road[hx] = side
        for a, b in zip(trail, trail[1:]):
            f = self.hexmap.side_index.get((Hex.parse(a), Hex.parse(b)))
            if f and f[0] == "gate":
                state["gates"][f[1]] = side

    # ------------------------------------------------------------------ 14.2
    def _check_form(self, state: State, seat: str, kind: str, a: str, b: str, leader: str) -> None:
        if not any(self._offmap(state, x) for x in (a, b, leader)):
            super()._check_form(state, seat, kind, a, b, leader)
            if Hex.parse(state["units"][a]["hex"]) in self.extra_blocked(state, seat, [b]):
                raise IllegalOrder(f"{b} may not step into {state['units'][a]['hex']}: cavalry never moves next to "
                                   "a Mumak, nor a Mumak next to cavalry", "14.31")
            return
        self._need_kind(state, ("move",), "forming a special formation", "8.4")
        if not self.may_form(state, seat, kind):
            raise IllegalOrder(f"{self.title_of(seat)} units may not form a {kind}", "8.41")
        if len({a, b, leader}) != 3:
            raise IllegalOrder("a formation is two different units and a leader", "8.4")
        spec = self.charts_for(state)["formations"][kind]
        entry = None
        for x in (a, b, leader):
            u = self.units[x]
            if u.side != seat:
                raise IllegalOrder(f"{x} is not yours")
            if not self._offmap(state, x):
                raise IllegalOrder(f"{x} is {'on the map' if self.on_map(state, x) else state['units'][x]['status']}: "
                                   "a formation formed off the map is made of reinforcements that have not entered "
                                   "yet", "14.2")
            e = self.reinforcement_entry(state, x)
            if e is None:
                raise IllegalOrder(f"{x} is a reinforcement that may not enter now", u.section)
            if entry is not None and e != entry:
                raise IllegalOrder(f"{a}, {b} and {leader} do not enter by the same edge", "14.2")
            entry = e
        for x in (a, b):
            u = self.units[x]
            if u.type not in spec["types"]:
                raise IllegalOrder(f"{x} is {u.type}; a {kind} is made of {' or '.join(spec['types'])} units", "8.4")
            if self.formation_of(state, x):
                raise IllegalOrder(f"{x} is already in a formation", "8.4")
            if x in state["ph"]["moved"]:
                raise IllegalOrder(f"{x} has already moved this phase", "8.4")
        if not self.units[leader].is_leader:
            raise IllegalOrder(f"{leader} is not a leader", "8.4")
        if any(e.get("frozen") and leader in e["frozen"] for e in state["effects"]):
            raise IllegalOrder(f"{leader} is frozen by a spell", "17.12")

    def _apply_form(self, state: State, seat: str, dice: Dice, kind: str, a: str, b: str, leader: str) -> list[Event]:
        if not self._offmap(state, a):
            return super()._apply_form(state, seat, dice, kind, a, b, leader)
        n = 1
        while f"F{n}" in state["formations"]:
            n += 1
        # 14.2 (ruling): formed before arriving, as if on an earlier turn, so a
        # Wedge may enter and attack at once (8.4's wait does not apply)
        state["formations"][f"F{n}"] = {"kind": kind, "units": [a, b], "leader": leader,
                                         "turn": state["turn"] - 1, "entering": True}
        return [Event(public=f"{self.title_of(seat)}: {a} and {b} form a {FORM_TITLES[kind]} with {leader} before "
                             f"entering the map; it counts as formed on an earlier turn and may enter and fight "
                             f"this turn (14.2, 8.4).", section="14.2")]

    def _offmap_hex(self, uid: str, hx: str) -> str:
        """The virtual hex off the map, beyond the edge a reinforcement
        enters by, next to the entry hex ``hx`` (14.2, ruling): its attacks
        come from there and a retreat moves away from it."""
        u = self.units[uid]
        edge = "north" if u.arrives == "rohan" else ("east" if u.side == "sauron" else "south")
        side = self.hexmap.edges.get(edge, edge)
        h = Hex.parse(hx)
        c, r = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}[side]
        return str(Hex(h.col + c, h.row + r))

    def legal_extra(self, state: State, seat: str) -> Iterator[Action]:
        yield from super().legal_extra(state, seat)
        if state["turn"] == 0 or state["pending"]:
            return
        if self.kind(state) == "move" and seat == "westernesse":
            yield from self._legal_entry_forms(state, seat)

    def _legal_entry_forms(self, state: State, seat: str) -> Iterator[Action]:
        units = [u for u in self._entering(state, seat) if self.units[u].is_combat
                 and not self.formation_of(state, u)]
        leaders = [u for u in self._entering(state, seat) if self.units[u].is_leader]
        for leader in leaders:
            for i, a in enumerate(units):
                for b in units[i + 1:]:
                    for kind in ("shieldwall", "wedge"):
                        act = Action("form", (kind, a, b, leader))
                        if self._ok(state, seat, act):
                            yield act

    # ------------------------------------------------------------ 16.13 Grond
    def _grond_carrier(self, uid: str) -> bool:
        u = self.units[uid]
        return u.is_combat and (u.type == "troll" or "uruk" in u.tags)

    def check_stack_move(self, state: State, seat: str, uids: list[str]) -> None:
        super().check_stack_move(state, seat, uids)
        if GROND in uids and not any(self._grond_carrier(x) for x in uids):
            raise IllegalOrder("Grond moves only carried by a Troll or Uruk-Hai unit stacked and moving with it "
                               "(e.g. `move TR1 GRD <hex>`)", "16.13")

    def _check_movers(self, state: State, seat: str, uids: list[str]) -> None:
        self.seat_check(state, seat)
        for e in state["effects"]:
            if e.get("spell") == "stalemate-nazgul" and NAZGUL in uids:
                raise IllegalOrder("the Nazgul Lord is stalemated and may not move for one Game-Turn", "17.22")
        super()._check_movers(state, seat, uids)

    # ---------------------------------------------------------------- spells
    def spell_cost(self, state: State, spell: str) -> int:
        sp = self.spells[spell]
        if "cost_night" in sp and self.is_night(state):
            return sp["cost_night"]
        if "cost_day" in sp and not self.is_night(state):
            return sp["cost_day"]
        return super().spell_cost(state, spell)

    def check_spell(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
        super().check_spell(state, seat, leader, spell, target)
        if leader == NAZGUL and self._banner_unfurled(state):
            raise IllegalOrder("the Lord of the Nazgul may not attempt any spell while the Banner of the King is "
                               "unfurled", "18.23")
        units = state["units"]
        if spell == "operate-grond":
            if state.get("grond_active"):
                raise IllegalOrder("Grond is already operated, for the rest of the game", "17.13")
            if not self.on_map(state, GROND):
                raise IllegalOrder("Grond is not on the map", "17.13")
            gh = units[GROND]["hex"]
            d = distance(units[leader]["hex"], gh)
            if d > 3:
                raise IllegalOrder(f"Grond is {d} hexes from {leader}; the Nazgul Lord must be within three", "17.13")
            if not any(self._grond_carrier(x) for x in self.occupancy(state).get(gh, ())):
                raise IllegalOrder("Grond must be stacked with a Troll or Uruk-Hai unit", "17.13")
        elif spell == "stalemate-nazgul":
            if not self.on_map(state, NAZGUL):
                raise IllegalOrder("the Nazgul Lord is not on the map", "17.22")
            if distance(units[leader]["hex"], units[NAZGUL]["hex"]) != 1:
                raise IllegalOrder("Stalemate Nazgul is cast only while Gandalf is adjacent to the Nazgul Lord",
                                   "17.22")
            if self._stalemate_hex(state, leader) is None:
                raise IllegalOrder("there is no hex on the map six hexes east of Gandalf to put the Nazgul Lord in",
                                   "17.22")
        elif spell == "reveal-aragorn":
            if not self.on_map(state, ARAGORN):
                raise IllegalOrder("the Banner of the King may be brought forth only once Aragorn is on the map",
                                   "18.11")

    def spell_effect(self, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
        units = state["units"]
        if spell == "operate-grond":
            state["grond_active"] = True
            return "Grond is activated for the rest of the game and may now breach (16.28)"
        if spell == "stalemate-nazgul":
            dest = self._stalemate_hex(state, leader)
            old = units[NAZGUL]["hex"]
            units[NAZGUL]["hex"] = dest
            sp = self.spells[spell]
            state["effects"].append({"title": sp["title"], "section": sp["section"], "spell": spell,
                                     "frozen": [NAZGUL],
                                     "until": {"turn": state["turn"] + 1, "step": state["step"]}})
            return (f"the Nazgul Lord is thrown from {old} to {dest}, six hexes east of {leader}, and is stalemated: "
                    "it may not move, cast spells or rally for one Game-Turn")
        if spell == "reveal-aragorn":
            here = units[ARAGORN]["hex"]
            units[BANNER]["hex"] = here
            units[BANNER]["status"] = "map"
            ch = self._cmd(state, "banner")
            state["effects"].append({"title": "Banner of the King", "section": "18.2", "spell": spell,
                                     "banner": True,
                                     "until": {"turn": state["turn"] + ch["turns"], "step": state["step"]}})
            return (f"Aragorn is revealed and the Banner of the King is unfurled with him in {here} for "
                    f"{ch['turns']} Game-Turns: no Sauron rally within {ch['range']} hexes of it, "
                    f"{ch['auto_rally']} Westernesse units within {ch['range']} hexes rallied each Rally Phase, and "
                    "the Nazgul Lord may attempt no spell (18.2)")
        return super().spell_effect(state, seat, leader, spell, target)

    def _stalemate_hex(self, state: State, leader: str) -> str | None:
        """17.22 (ruling): the hex six hexes from Gandalf straight East (down
        the column) if it is on the map, passable and holds no Westernesse
        unit; else the nearest such hex to it among the hexes exactly six
        from Gandalf in a higher row (ties: the lowest hex number)."""
        n = self._cmd(state, "stalemate").get("distance", 6)
        g = Hex.parse(state["units"][leader]["hex"])
        ideal = Hex(g.col, g.row + n)
        occ = self.occupancy(state)
        tec = self.charts_for(state)["tec"]
        best = None
        for h, info in self.hexmap.hexes.items():
            if h.row <= g.row or g.distance(h) != n or not tec.get(info.terrain, {}).get("passable", True):
                continue
            if any(self.units[x].side != "sauron" for x in occ.get(str(h), ())):
                continue
            key = (h.distance(ideal), h)
            if best is None or key < best:
                best = key
        return str(best[1]) if best else None

    # ----------------------------------------------------------- 18.x Banner
    def _banner_unfurled(self, state: State) -> bool:
        return BANNER in state["units"] and state["units"][BANNER]["status"] == "map"

    def _west_leaders_in(self, state: State, hx: str | None) -> list[str]:
        return sorted(x for x, r in state["units"].items() if r["status"] == "map" and r["hex"] == hx
                      and self.units[x].is_leader and self.units[x].side == "westernesse")

    def movement_allowance(self, state: State, uid: str) -> float:
        if uid == BANNER:
            return self.charts_for(state)["movement"]["leader"]  # 18.13: a leader's allowance
        return super().movement_allowance(state, uid)

    def check_move_end(self, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
        rest = [u for u in uids if u != BANNER]
        super().check_move_end(state, seat, rest or uids, dest, occ)
        if BANNER in uids:
            with_ = [x for x in occ.get(dest, ()) if x not in uids and self.units[x].is_leader
                     and self.units[x].side == "westernesse"] + [x for x in rest if self.units[x].is_leader]
            if not with_:
                raise IllegalOrder("the Banner of the King must end its move stacked with a Westernesse leader",
                                   "18.13")

    def after_move(self, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
        events: list[Event] = super().after_move(state, seat, uids, trail)
        if any(self.units[u].is_combat for u in uids):  # 20.1: occupy or pass through
            road = state.setdefault("road", {h: None for h in self._road_hexes_20_1})
            for hx in trail:
                if hx in road:
                    road[hx] = seat
        # 18.13 (ruling): the Banner goes with the last leader to leave its hex
        if (self._banner_unfurled(state) and BANNER not in uids and len(trail) > 1
                and any(self.units[u].is_leader for u in uids) and state["units"][BANNER]["hex"] == trail[0]
                and not self._west_leaders_in(state, trail[0])):
            state["units"][BANNER]["hex"] = trail[-1]
            events.append(Event(public=f"The Banner of the King goes with {_phrase(uids)} to {trail[-1]} (18.13).",
                                section="18.13"))
        return events

    def _move_retreat(self, state: State, uids: list[str], hx: str) -> list[str]:
        here = state["units"][uids[0]]["hex"]
        lines = super()._move_retreat(state, uids, hx)
        if self._banner_follows(state, here, hx):
            lines.append("the Banner of the King goes with its leader (18.13)")
        return lines

    def _displace_leader(self, state: State, ldr: str) -> list[str]:
        here = state["units"][ldr]["hex"]
        lines = super()._displace_leader(state, ldr)
        if self._banner_follows(state, here, state["units"][ldr]["hex"]):
            lines.append(f"the Banner of the King goes with {ldr} (18.13)")
        return lines

    def _banner_follows(self, state: State, here: str | None, hx: str | None) -> bool:
        if (self._banner_unfurled(state) and here and hx and here != hx and state["units"][BANNER]["hex"] == here
                and not self._west_leaders_in(state, here) and self._west_leaders_in(state, hx)):
            state["units"][BANNER]["hex"] = hx
            return True
        return False

    def _leader_loss(self, state: State, ldr: str, points: int) -> str:
        here = state["units"][ldr]["hex"]
        text = super()._leader_loss(state, ldr, points)
        lines = self._banner_falls(state, here)
        return text + ("; " + "; ".join(lines) if lines else "")

    def eliminate(self, state: State, uid: str) -> None:
        here = state["units"][uid]["hex"]
        super().eliminate(state, uid)
        if self.units[uid].is_leader:
            self._banner_falls(state, here)

    def _banner_falls(self, state: State, here: str | None) -> list[str]:
        """18.14: the Banner is eliminated with the leader stacked with it."""
        if (self._banner_unfurled(state) and here and state["units"][BANNER]["hex"] == here
                and not self._west_leaders_in(state, here)):
            state["units"][BANNER]["status"] = "eliminated"
            state["units"][BANNER]["hex"] = None
            state["effects"] = [e for e in state["effects"] if not e.get("banner")]
            return ["the Banner of the King falls with its leader (18.14)"]
        return []

    def _banner_sanity(self, state: State) -> list[str]:
        """However a leader died (a siege weapon, say), the Banner does not
        stay alone on the map (18.14)."""
        if self._banner_unfurled(state):
            return self._banner_falls(state, state["units"][BANNER]["hex"])
        return []

    def _banner_step(self, state: State) -> list[Event]:
        events: list[Event] = []
        if not self._banner_unfurled(state):
            return events
        if not any(e.get("banner") for e in state["effects"]):  # its three Game-Turns are over
            state["units"][BANNER]["status"] = "reinforcement"  # back off the map
            state["units"][BANNER]["hex"] = None
            events.append(Event(public="The Banner of the King is furled: its three Game-Turns are over (17.23).",
                                section="17.23"))
            return events
        if self.kind(state) != "rally":
            return events
        ch = self._cmd(state, "banner")
        bh = state["units"][BANNER]["hex"]
        if any(e.get("no_rally") and e.get("side") == "westernesse" for e in state["effects"]):
            stop = next(e for e in state["effects"] if e.get("no_rally") and e.get("side") == "westernesse")
            events.append(Event(public=f"The Banner of the King rallies no one this turn: no Westernesse unit may be "
                                       f"rallied while {stop['title']} lasts ({stop['section']}, 18.22).",
                                section="18.22"))
            return events
        near = sorted((distance(bh, r["hex"]), uid) for uid, r in state["units"].items()
                      if r["status"] == "map" and r.get("disrupted") and self.units[uid].side == "westernesse"
                      and self.units[uid].is_combat and distance(bh, r["hex"]) <= ch["range"])
        chosen = [uid for _, uid in near[:ch["auto_rally"]]]
        for uid in chosen:
            state["units"][uid]["disrupted"] = False
        if chosen:
            events.append(Event(public=f"The Banner of the King in {bh}: {_phrase(chosen)} "
                                       f"{'is' if len(chosen) == 1 else 'are'} rallied automatically (18.22).",
                                section="18.22"))
        return events

    def check_rally_extra(self, state: State, seat: str, leader: str, uid: str) -> None:
        super().check_rally_extra(state, seat, leader, uid)
        if seat == "sauron" and self._banner_unfurled(state):
            r = self._cmd(state, "banner")["range"]
            d = distance(state["units"][BANNER]["hex"], state["units"][uid]["hex"])
            if d <= r:
                raise IllegalOrder(f"{uid} is {d} hexes from the Banner of the King: no Sauron unit within {r} hexes "
                                   "of it may be rallied", "18.21")

    # ------------------------------------------------------- 20.2 city levels
    @cached_property
    def _level_gates(self) -> dict[int, list[str]]:
        """Level -> the gate hexsides leading into it from the level below (20.2)."""
        out: dict[int, list[str]] = {}
        for hs, kind in self.hexmap.hexsides.items():
            if kind != "gate":
                continue
            a, b = hs.hexes()
            la, lb = self.hexmap.level(a), self.hexmap.level(b)
            if abs(la - lb) == 1:
                out.setdefault(max(la, lb), []).append(str(hs))
        return out

    def levels_controlled(self, state: State) -> list[int]:
        """20.2: the city levels Sauron controls: every gate into the level
        from the level below is his, and no undisrupted Westernesse combat
        unit is inside it."""
        held = set()
        for uid, r in state["units"].items():
            u = self.units[uid]
            if r["status"] == "map" and u.side == "westernesse" and u.is_combat and not r.get("disrupted"):
                lv = self.hexmap.level(Hex.parse(r["hex"]))
                if lv:
                    held.add(lv)
        return [lv for lv, gates in sorted(self._level_gates.items())
                if lv not in held and all(state["gates"].get(g) == "sauron" for g in gates)]

    # ----------------------------------------------------- 19.x demoralization
    def _garrison_points(self, state: State) -> list[tuple[int, str]]:
        """19.11 A-D: the points added to or taken from the garrison's total."""
        ch = self._cmd(state, "dem_events")
        out = []
        lv = self.levels_controlled(state)
        if lv:
            out.append((ch["garrison_per_level"] * len(lv), f"city level{'s' if len(lv) > 1 else ''} "
                                                             f"{_phrase([str(x) for x in lv])} (19.11 A)"))
        if state.get("grond_breached_main"):
            out.append((ch["grond_main_gate"], "the Main Gate breached by Grond (19.11 B)"))
        if "rohan" in state.get("arrived", {}) and state["turn"] >= state["arrived"]["rohan"]:
            out.append((ch["rohan"], "the Riders of Rohan have arrived (19.11 C)"))
        if state["turn"] >= int(self.units[ARAGORN].arrives):
            out.append((ch["aragorn"], "Aragorn's host has arrived (19.11 D)"))
        return out

    def _sauron_points(self, state: State) -> list[tuple[int, str]]:
        ch = self._cmd(state, "dem_events")
        out = []
        if state.get("garrison_broken") is not None:
            out.append((ch["sauron_garrison_broken"], "the garrison has been demoralized (19.13)"))
        lv = self.levels_controlled(state)
        if lv:
            out.append((ch["sauron_per_level"] * len(lv), "city levels he controls (19.13)"))
        return out

    def dem_total(self, state: State, army: str) -> int:
        base = super().dem_total(state, army)
        if army == "garrison":
            return base + sum(p for p, _ in self._garrison_points(state))
        if army == "sauron":
            return base + sum(p for p, _ in self._sauron_points(state))
        return base

    # -------------------------------------------------------------- 20.1 road
    def _road_refresh(self, state: State) -> None:
        road = state.setdefault("road", {h: None for h in self._road_hexes_20_1})
        for h in self._road_hexes_20_1:
            for uid, r in state["units"].items():
                if r["status"] == "map" and r["hex"] == h and self.units[uid].is_combat:
                    road[h] = self.units[uid].side
                    break

    def road_controlled(self, state: State) -> bool:
        road = state.get("road") or {}
        return all(road.get(h) == "sauron" for h in self._road_hexes_20_1)

    def final_result(self, state: State) -> dict:
        base = super().final_result(state)
        self._refresh(state)
        lvl = self.dem_level(state, "garrison")
        g, s = self.dem_total(state, "garrison"), self.dem_total(state, "sauron")
        a = self.demoralized(state, "garrison")
        b = not self.demoralized(state, "sauron")
        c = self.road_controlled(state)
        road = state.get("road") or {}
        held = ", ".join(f"{h} {self.title_of(road[h]) if road.get(h) else 'nobody'}" for h in self._road_hexes_20_1)
        yes = {True: "yes", False: "no"}
        winner = "sauron" if a and b and c else "westernesse"
        parts = [f"A, the Minas Tirith garrison demoralized: {yes[a]} ({g} points, level {lvl})",
                 f"B, Sauron not demoralized: {yes[b]} ({s} points, level {self.dem_level(state, 'sauron')})",
                 f"C, Sauron controls the road (the last to hold or pass {' and '.join(self._road_hexes_20_1)}): "
                 f"{yes[c]} (last: {held})"]
        if winner == "sauron":
            verdict = "Sauron achieves all three and wins (20.1)."
        else:
            missed = _phrase([p[0] for p, ok in zip(parts, (a, b, c)) if not ok])
            verdict = f"Westernesse prevents {missed} and wins (20.1)."
        summary = f"{base['summary']} Victory (20.1): " + "; ".join(parts) + ". " + verdict
        return {"winner": winner, "summary": summary, "section": "20.1"}

    # ----------------------------------------------------------- 15.24 tunnels
    def _tunnel_rule(self, state: State) -> str:
        return self._cmd(state, "tunnel").get("rule", "morale-w")

    def modify_attack(self, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
        super().modify_attack(state, attacker, target, kind, prof)
        hx = state["units"][target]["hex"]
        info = self.hexmap.hexes.get(Hex.parse(hx)) if hx else None
        if info is None or not info.tunnel:
            return
        rule = self._tunnel_rule(state)
        if rule == "none":
            return
        # 15.24 (ruling): the tunnel replaces the defender's printed rating;
        # every modifier (disruption, formation, siege...) still applies to it
        base = self.ratings(state, target)
        if rule == "morale-w":
            better = MORALES.index(base.morale) - MORALES.index(prof["morale"])
            prof["morale"] = shift_morale("W", better)
            prof["notes"].append("defender in a tunnel: Morale W whatever its rating (15.24, read as Morale)")
        else:
            n = int(rule[-1])
            prof["armor"] = n + (prof["armor"] - base.armor)
            prof["notes"].append(f"defender in a tunnel: Armor Protection {n} whatever its rating (15.24)")

    # -------------------------------------------------------------------- view
    def view_extra(self, state: State, own: str | None, view: dict) -> None:
        super().view_extra(state, own, view)
        road = state.get("road") or {}
        view["road"] = {h: road.get(h) for h in self._road_hexes_20_1}
        levels = self.levels_controlled(state)
        view["levels"] = levels
        view["grond_active"] = bool(state.get("grond_active"))
        for u in view.get("units", []):
            if u.get("id") == GROND:
                u["active"] = bool(state.get("grond_active"))
        notes = view.setdefault("notes", [])
        held = ", ".join(f"{h} {self.title_of(road[h]) if road.get(h) else 'nobody'}" for h in self._road_hexes_20_1)
        notes.append(f"Road (20.1), last held: {held}")
        if levels:
            notes.append(f"City levels Sauron controls (20.2): {', '.join(str(x) for x in levels)}")
        if state.get("grond_active"):
            notes.append("Grond is operated (17.13)")
        if state.get("garrison_broken") is not None:
            notes.append(f"Garrison demoralized on Game-Turn {state['garrison_broken']}: Sauron -20 for good (19.13)")
        if self._banner_unfurled(state):
            e = next((e for e in state["effects"] if e.get("banner")), None)
            until = f" until Game-Turn {e['until']['turn']}" if e else ""
            notes.append(f"Banner of the King in {state['units'][BANNER]['hex']}{until} (18.2)")
