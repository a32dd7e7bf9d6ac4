"""*Field of Celebrant* (Ken Demyen, living version 1.33): the battle of
T.A. 2510, on the SPI Standard Rules engine (``engine.spi.standard``), one file per case
of the exclusive rules (``c13_setup.py`` ... ``c19_demoralization.py``) assembled here.

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

from dataclasses import replace
from functools import cached_property

from engine import pending
from engine.core import Action, Event, State
from engine.spi.c07_1_fire import FIRE
from engine.spi.c08_3_rally import RALLY
from engine.spi.c08_4_formations import FORM
from engine.spi import entry as spi_entry
from engine.spi.entry import ENTRY_ADVANCE, ENTRY_MELEE, legal_entry_melees
from engine.spi.c13_setup import DEPLOY
from engine.options import OptionError, read
from engine.spi.standard import DONE, StandardRules

from . import c07_combat, c08_leaders, c13_setup, c14_reinforcements, c17_abilities
from .c14_3_chits import (ENTRY_14_31, ENTRY_14_31_BEFORE_DONE, parse_shadow_chit, parse_west_chit,  # noqa: F401
                          resolve_chits, shift_area)
from .c14_reinforcements import ENTRY
from .c17_abilities import ABILITY, DRESS, SWAP
from .options import OPTIONS
from .common import ABILITIES, AREAS, ARMIES, DATA, SEATS, SIDE_COLORS, SIDE_TITLES, STATE_VERSION  # noqa: F401
from engine.spi import c13_setup as spi_c13_setup
from engine.spi import hooks
from engine.rulesets.celebrant import c14_3_chits
from engine.rulesets.celebrant import c19_demoralization
from engine.rulesets.celebrant import c15_16_terrain
from engine.spi import c02_units


def check_group_charts(rs, charts, text: str) -> None:
    c14_3_chits._check_chit_tables(charts.raw)


def printed_rally(rs, state: State, uid: str) -> int:
    return rs.raw(state)["leaders"]["rally"].get(uid, 0)


# ----------------------------------------------------------------- view
def view_turn(rs, state: State) -> int:
    return min(state["turn"], rs.sequence["turns"])


def help_general(rs) -> str:
    return (
        "**Field of Celebrant** (Ken Demyen, v1.33): Shadow (the Misty Mountain Orcs and the Balchoth) "
        "against Westernesse (Gondor and the Eotheod). 18 Game-Turns, 15-18 at night.\n"
        "Set-up: Shadow deploys the Orcs on the north-west hill (13.1), then Westernesse deploys Gondor "
        "around the central grove or in the Rearguard (13.2): `deploy <unit> <hex>`, then `/done`. "
        "Then each side secretly draws an Eotheod chit (14.3; `/secret`).\n"
        "Each turn: A Reinforcement and Special Ability Phase (Shadow, then Westernesse), B/C Westernesse "
        "move and combat, D/E Shadow move and combat, F Rally (Shadow, then Westernesse). Gondor starts in "
        "disarray (13.21); the Balchoth arrive from turn 2-5 (14.5). Victory goes to the side with the lower "
        "demoralization, graded by demoralized armies (20.x). docs/celebrant.md has the rulings.\n"
        "Its headline rules: **the secret Eotheod chits** (14.3), **the Balchoth arrival rolls** (14.5), "
        "Gondor's disarray (13.21), rivers, ruins and the watchtower (15-16), **leaders' special abilities** "
        "(17.0), graded victory (20.0)."
    )


class Celebrant(StandardRules):
    """Field of Celebrant: the Standard Rules with the attacks onto the map (engine/spi/entry.py, 14.2),
    and the functions of its case files below, each file's under its case (no hook is given twice: each
    calls the standard step it amends by name, ``c07_1_fire._check_fire(self, ...)``)."""

    hooks = replace(StandardRules.hooks,  # the extension points (engine/spi/hooks.py: Hooks)
        # 13.0 set-up
        _check_deploy=c13_setup._check_deploy,
        _apply_deploy=c13_setup._apply_deploy,
        # 14.0 reinforcements, the Eotheod entry (14.31)
        reinforcement_entry=c14_reinforcements.reinforcement_entry,
        # 14.3 the chit draw
        on_setup_step_end=c14_3_chits.on_setup_step_end,
        extra_blocked=c15_16_terrain.extra_blocked,
        _why_unreachable=c15_16_terrain._why_unreachable,
        _why_section=c15_16_terrain._why_section,
        zoc_through=c15_16_terrain.zoc_through,
        adjust_result=c15_16_terrain.adjust_result,
        # 7.0 combat amendments
        _melee_targets=c07_combat._melee_targets,
        _can_fire=c07_combat._can_fire,
        _can_melee=c07_combat._can_melee,
        apply_result=c07_combat.apply_result,
        is_fanatic=c07_combat.is_fanatic,
        # 8.0 leader amendments
        may_enter_enemy_leaders=c08_leaders.may_enter_enemy_leaders,
        _displace_leader=c08_leaders._displace_leader,
        may_form=c08_leaders.may_form,
        _formed_this_turn=c08_leaders._formed_this_turn,
        check_rally_extra=c08_leaders.check_rally_extra,
        # 17.0 special abilities
        _expire_effects=c17_abilities._expire_effects,
        # 19.0 demoralization
        unit_dem_value=c19_demoralization.unit_dem_value,
        dem_level=c19_demoralization.dem_level,
        demoralized=c19_demoralization.demoralized,
        end_of_turn=c19_demoralization.end_of_turn,
        result_line=c19_demoralization.result_line,
        final_result=c19_demoralization.final_result,
        # what runs at these points (engine/spi/hooks.py runs the lists)
        AFTER_MOVE=(c08_leaders.after_move,),  # 8.1 (Amendment): leaders alone fly to their army
        ON_STEP_START=(c14_reinforcements.on_step_start,),  # 14.0: a turn's arrivals and rolls
        MODIFY_ATTACK=(c07_combat.modify_attack,),  # 7.0 amendments, terrain (15.0, 16.0)
        LEGAL_EXTRA=(c13_setup.legal_setup,  # 13.0 the set-up
                       legal_entry_melees,  # 14.2 attacks on units blocking the entry
                       c14_reinforcements.legal_entry_choice,  # 14.31 the Eotheod's entry area
                       c17_abilities.legal_abilities),  # 17.0 the leaders' abilities; 17.41 Form up!
        MOVEMENT_ALLOWANCE=(c17_abilities.movement_allowance,),  # 17.81 the whip
        deploy_example="OI1 0305",
        entry_attack_seats=("shadow", "westernesse"),  # 14.2: arriving reinforcements may attack blockers
        _offer_advance=spi_entry._offer_advance,  # 7.5 with the advance onto the map (14.2)
        _offmap_hex=spi_entry._offmap_hex,  # 14.2 the hex an entering unit attacks from
        check_group_charts=check_group_charts,
        printed_rally=printed_rally,
        view_turn=view_turn,
        # ------------------------------------------------------------ help (engine/spi/help.py)
        order_examples={
            "deploy": "deploy OA1 0601", "move": "move GS1 2014", "fire": "fire GB1 at 2110", "duel": "duel CIR OCH",
            "melee": "melee GS1 at 2110", "advance": "advance GS1 2110", "retreat": "retreat OI1 0905",
            "rally": "rally CIR GS1", "cast": None, "form": "form shieldwall GS1 GS2 GC1", "disband": "disband GS1 2014",
            "ability": "ability OC1 whip", "swap": "swap GS1 GS2", "dress": "dress GS1 2014", "entry": ""},
        orders_notes=(
            "Special abilities, once per game (17.0), in the Reinforcement and Special Ability Phase: `ability OC1 whip`, "
            "`ability OCH blood-lust`, `ability BCH despair`, `ability BC1 iron-fist`, `ability CIR tactics` then `swap`, "
            "`ability GC1 form-up` then `form` and `dress`, `ability EORL death-and-glory ER1 ER2`; `ability EC1 arise` "
            "in the Rally Phase. A leader may move up to 3 MP before he rallies (8.38)."),
        kind_verbs={"reinforce": ("ability", "swap", "dress", "form", "entry"), "rally": ("rally", "ability")},
        setup_help=(
            "Shadow deploys the Orcs on the north-west hill, within six hexes of the western edge and thirteen of the "
            "northern (13.1); then Westernesse deploys Gondor around the central grove (two rows north and south, four "
            "columns east and west) or in the seven Rearguard hexes (13.2). `deploy <unit> [<unit>...] <hex>`, then "
            "`/done`. Gondor starts in disarray (13.21)."),
        secrets_help=(
            "After the set-up each side draws an Eotheod chit face down (14.3): Westernesse's says when the Eotheod "
            "arrive, Shadow's may delay them or choose where. Each side gets its own chit by DM and with `/secret`; the "
            "other side, the channel, the map and the log see nothing of it until the chits are revealed (14.6)."),
        help_general=help_general,
    )
    deadline_action = c14_reinforcements.deadline_action
    # 15.0, 16.0 terrain
    terrain = c15_16_terrain.terrain
    _landing_cache = c15_16_terrain._landing_cache
    _no_zoc_cache = c15_16_terrain._no_zoc_cache

    ORDERS = (*StandardRules.ORDERS,
              replace(DEPLOY, listed_in=c13_setup.legal_setup, unlisted=""),  # 13.0 listed by the set-up
              ABILITY, SWAP, DRESS, ENTRY,
              # Field of Celebrant's rules for standard orders (a record with a standard verb replaces it in
              # its place): Eorl's Wedge advancing (17.11), the Eotheod entry area chosen first (14.31), the
              # leaders' formations (8.41, 17.41), combat (7.1, 7.3, 7.31), Cirion's rally (17.21)
              replace(ENTRY_ADVANCE, apply=c17_abilities._apply_advance),
              replace(DONE, check=c14_reinforcements._check_done),
              replace(FORM, check=c08_leaders._check_form, apply=c08_leaders._apply_form),
              replace(FIRE, check=c07_combat._check_fire),
              replace(ENTRY_MELEE, check=c07_combat._check_melee),
              replace(RALLY, apply=c08_leaders._apply_rally))
    # the pending decisions (engine/pending.py): a retreat to choose (7.5), the Eotheod entry area the chits
    # leave to a side (14.31, 14.33: queued as they resolve; in a game begun before, answered before `done`)
    DECISIONS = (*StandardRules.DECISIONS, ENTRY_14_31, ENTRY_14_31_BEFORE_DONE)
    name = "celebrant"
    options = OPTIONS  # options.py (issue 39)
    hidden_information = True
    secret_twins = ({"chits": {"westernesse": "6 NW", "shadow": "+1"}},  # 14.3
                    {"chits": {"westernesse": "7 SE (-2)", "shadow": "Eye of Sauron"}})
    golden_script = ("celebrant_game.txt", "7")
    data_dir = DATA
    title = "Field of Celebrant"
    seats = SEATS
    side_titles = SIDE_TITLES
    side_colors = SIDE_COLORS
    state_version = STATE_VERSION

    # ------------------------------------------------------------------ data
    @cached_property
    def zones(self) -> dict[str, list[str]]:
        z = self.map_data["zones"]
        return {k: list(v) for k, v in z.items() if k != "se-groves"}

    @cached_property
    def _zone_sets(self) -> dict[str, frozenset[str]]:
        return {k: frozenset(v) for k, v in self.zones.items()}

    def raw(self, state: State) -> dict:
        return self.charts_for(state).raw


    def in_play(self, state: State, uid: str) -> bool:
        return state["units"][uid]["status"] != "out"

    # ------------------------------------------------------- pending decisions
    def waiting_decisions(self, state: State) -> list[dict]:
        """The queue (a retreat, 7.5; the entry area, 14.31), then the entry area of a game begun before
        it was queued, which its seat answers before it is done (engine/pending.py)."""
        return StandardRules.waiting_decisions(self, state) + c14_3_chits.entry_before_done_waiting(self, state)

    def upgrade_state(self, state: State) -> None:
        """A game stored before the Eotheod entry area was a decision queued as the chits resolve (state
        version 1) keeps its rule (14.31 answered before the side is done, among its other orders), so that
        its log replays as it was played."""
        StandardRules.upgrade_state(self, state)
        if state.get("version", 1) < 2 and "cel" in state:
            state["cel"]["entry_before_done"] = True
            state["version"] = 2

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = self._check_options(options)
        state = self.base_state(opts, seed)
        for uid, u in self.units.items():
            state["units"][uid] = c02_units.unit_record(self, u)
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
        hooks.init_extra(self, state)
        if opts.get("setup") == "printed":
            spi_c13_setup.place_printed_setup(self, state)
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
        """The typed options (``options.py``, read by ``engine.options``), in the state's layout; then
        21.0's one rule between them."""
        given = read(self.options, options, self)
        out: dict = {"swap": {k[len("swap."):]: v for k, v in given.items() if k.startswith("swap.")}}
        out.update({k: v for k, v in given.items() if not k.startswith("swap.")})
        bal = out.get("balance")
        if bal == "westernesse" and (out["swap"].get("gondor") or out["swap"].get("eotheod")):
            raise OptionError(f"{self.name}: the extra Gondor and Eotheod counters are either swapped in or "
                              "deployed for balance, not both (21.0)")
        if bal == "shadow" and (out["swap"].get("orcs") or out["swap"].get("balchoth")):
            raise OptionError(f"{self.name}: the extra Orc and Balchoth counters are either swapped in or "
                              "deployed for balance, not both (21.0)")
        return out





    # --------------------------------------------------- leader losses (8.24)
    # The Standard Rules engine already moves leaders with a retreating unit
    # and rolls 5-6 for a leader whose unit takes 1/2E or E (charts
    # [leader_combat] caught = [5, 6]); _displace_leader above sends a leader
    # whose unit fell to the nearest unit of its own army.


    def apply(self, state: State, seat: str, action: Action) -> list[Event]:
        events = super().apply(state, seat, action)
        if not state["over"]:
            events += c19_demoralization._dem_watch(self, state)
        return events



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
            d["army"] = c02_units.army_of(self, uid)
            if u.ratings:
                d["dem"] = self.hooks.unit_dem_value(self, state, uid)
                if c13_setup.is_disordered(self, state, uid):
                    d["disordered"] = True
            units.append(d)
        names = self.raw(state)["armies"]
        cel = state["cel"]
        eo = cel["eotheod"]
        markers = list(state["markers"])
        if cel["disarray"] and c02_units.on_map(self, state, "CIR"):
            markers.append({"type": "disarray", "hex": state["units"]["CIR"]["hex"]})
        notes = []
        for e in state["effects"]:
            if e.get("ability") and c02_units.on_map(self, state, e["leader"]):
                markers.append({"type": "ability", "hex": state["units"][e["leader"]]["hex"], "title": e["title"]})
                notes.append(f"{e['title']} ({e['leader']}, {e['section']})")
        notes += [f"{'Shield Wall' if f['kind'] == 'shieldwall' else 'Wedge'}: {' + '.join(f['units'])} "
                  f"with {f['leader']} (8.4)" for f in state["formations"].values()]
        retreats = [p for p in state["pending"] if p["kind"] == "retreat"]  # (7.5; the entry area: a note below)
        notes += [f"{p['unit']} must retreat: {SIDE_TITLES[p['seat']]} chooses (7.5)" for p in retreats]
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
            **self.view_head(state, own, "Field of Celebrant"),
            "units": units,
            "markers": markers,
            "gates": {},
            "tracks": [{"name": f"{names[a][:1].upper()}{names[a][1:]} demoralization",
                        "side": "westernesse" if a in ARMIES["westernesse"] else "shadow",
                        "points": self.hooks.dem_total(self, state, a), "level": self.hooks.dem_level(self, state, a),
                        "demoralized": self.hooks.demoralized(self, state, a)} for a in names],
            "pool": pool,
            "pending": [{"seat": p["seat"], "unit": p["unit"], "options": list(p["options"])}
                        for p in retreats],
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
        hooks.view_extra(self, state, own, v)
        act = self.active_seats(state)
        who = own if own else (act[0] if len(act) == 1 else None)
        if state["turn"] == 0 and who in act:  # the acting side's set-up zone (public: the rules say where)
            z = self._zone_sets
            v["zone"] = sorted(z["orcs"] if who == "shadow" else z["gondor"] | z["rearguard"])
            v["zone_title"] = f"{c02_units.title_of(self, who)} set-up zone ({'13.1' if who == 'shadow' else '13.2'})"
        return v

    def secret_text(self, state: State, seat: str) -> str | None:
        chits = state["hidden"].get("chits")
        if seat not in SEATS or not chits:
            return None
        if state["cel"]["eotheod"]["revealed"]:
            return f"Both Eotheod chits are revealed; yours was {chits[seat]} (14.3)."
        return f"Your Eotheod chit is **{chits[seat]}**, face down (14.3). {c14_3_chits._chit_hint(self, state, seat)}"


    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: the optional swaps and the balance deployment of 21.0."""
        o = state.get("options") or {}
        sw = o.get("swap") or {}
        out = [text for key, text in (("gondor", "GS9 in for GB4"), ("eotheod", "ER10 in for EA3"),
                                      ("balchoth", "BI6 in for BL4")) if sw.get(key)]
        if sw.get("orcs"):
            out.append(f"{sw['orcs']} Orc Archers become Orcs")
        if o.get("balance"):
            out.append(f"the balance counters for {SIDE_TITLES.get(o['balance'], o['balance'])}")
        return [f"{t} (21.0)" for t in out] + StandardRules.rules_in_force(self, state)



CELEBRANT = Celebrant()
