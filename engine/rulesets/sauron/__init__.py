"""SPI *Sauron* (Rob Mosca, 1977) with Heli's variant rules (seed 004): the battle of Dagorlad before
the Morannon, S.R. 3434, Sauron against the Last Alliance of Elves and Men.

On the SPI Standard Rules engine (``engine.spi.standard``); each case of the variant in its own file,
named by its case number, assembled here:

- c07_22_leader_combat: 7.22 ratings, 7.221 totals, 7.222 wounds, 7.25 the table, 7.251 items;
- c07_175_missiles: the missile obligation;  c08_1_stacking: 8.1, 8.11, 8.25;  c08_331_rally: 8.331, 8.37;
- c16_6_ring: the One Ring (16.6-16.642, 16.69);  c18_1_gates: the Gates of Morannon;
- c19_21_narsil: Narsil and its shards (19.211, 19.212, 20.21);  c20_2_demoralization: 20.2;
- c17_11_beast: Sauron's spells and the Beast (8.5, 17.1x);  c22_mortal_combat: 22.0-22.4 (and 7.241);  c13_setup, c14_reinforcements (14.3 the spares), victory.

The map, the order of battle, the set-up, the schedule, the levels and the victory points are
reconstructed (data/, ``reconstructed = true`` with a reason; docs/sauron.md). ``options: variant=off``
plays the Standard Rules' leader combat and rally (the reconstructed original).

Order notation (CONVENTIONS.md), besides the Standard Rules orders:
  deploy <unit> <hex>                    re-place a unit during your set-up (13.0)
  gates close|open                       Sauron, in a Magic Leader Phase (18.1)
  challenge <leader> <enemy leader>      Mortal Combat (22.0); accept <leader> / decline <leader> (22.3)
  ring <leader> off                      a Westernesse leader tries to take off the Ring (16.642)
  breathe BEA at <hex>                   the Beast's Death Breath (17.1, ruling)
  cast SAU <spell> [<points>] [<hex>]    Sauron's spells, at his pedestal (8.5)
"""
from __future__ import annotations

import tomllib
from dataclasses import replace
from functools import cached_property

from engine import pending
from engine.display import look
from engine.core import Action, IllegalOrder, State
from engine.spi.c13_setup import DEPLOY
from engine.spi.charts import ChartError, cached
from engine.spi.c07_1_fire import FIRE
from engine.spi.c08_4_formations import FORM
from engine.spi import entry as spi_entry
from engine.spi.entry import ENTRY_ADVANCE, ENTRY_MELEE, legal_entry_melees
from engine.options import read
from engine.spi.standard import DONE, StandardRules

from .c07_22_leader_combat import SDUEL, cell_wounds
from .c14_reinforcements import EXTRA_IDS
from . import c08_1_stacking, c18_1_gates, c13_setup, c16_6_ring, c17_11_beast, c22_mortal_combat
from .c16_6_ring import RING_ORDER
from .c17_11_beast import BEAST, BREATHE
from .c18_1_gates import GATES
from .c22_mortal_combat import ACCEPT, CHALLENGE, CHALLENGE_22_3, DECLINE
from .common import DATA, SEATS, SIDE_COLORS, SIDE_TITLES, STATE_VERSION
from .options import OPTIONS
from engine.spi import c07_3_melee
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.rulesets.sauron import c07_175_missiles
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c18_1_gates
from engine.rulesets.sauron import victory
from engine.rulesets.sauron import c08_331_rally
from engine.rulesets.sauron import c14_reinforcements
from engine.rulesets.sauron import c20_2_demoralization
from engine.spi import c02_units
from engine.spi import c03_sequence


def check_group_charts(rs, charts, text: str) -> None:
    """A group's tables of this game: the Leader Combat Results Table (7.25) ten or more columns of six
    cells `attacker/defender`, each k, - or a number of wounds; every leader rated (7.22)."""
    lc = charts.raw["lcrt"]
    cols = [k for k in lc if k not in ("reconstructed", "reason", "take_rolls")]
    if not cols:
        raise ChartError("[lcrt] needs its columns, like \"0\" = [\"-/-\", ...]")
    for k in cols:
        try:
            int(k)
        except ValueError:
            raise ChartError(f"[lcrt] column `{k[:20]}` is not a differential like -4 or 5") from None
        row = lc[k]
        if not isinstance(row, list) or len(row) != 6:
            raise ChartError(f"[lcrt] {k} must list six results, for die rolls 1 to 6")
        for c in row:
            parts = c.split("/") if isinstance(c, str) else []
            if len(parts) != 2:
                raise ChartError(f"[lcrt] {k}: `{str(c)[:20]}` is not attacker/defender like 1w/- or -/k")
            for p in parts:
                try:
                    cell_wounds(p)
                except ValueError as e:
                    raise ChartError(f"[lcrt] {k}: {e}") from None
    for table in ("combat", "morale", "endurance", "ring"):
        t = charts.raw["leaders"].get(table, {})
        missing = [u for u, d in rs.units.items() if d.is_leader and u not in t]
        if missing:
            raise ChartError(f"[leaders] {table} must rate every leader; missing {', '.join(missing)}")
        if table == "endurance" and any(not isinstance(v, int) or v < 1 for v in t.values()):
            raise ChartError("[leaders] endurance must be 1 or more")


def may_form(rs, state: State, seat: str, kind: str) -> bool:
    """8.41: Sauron's units do not form special formations (the Standard Rules)."""
    return seat != "sauron"


def help_general(rs) -> str:
    return (
        "**Sauron** (SPI 1977; Heli's variant rules unless `options: variant=off`): the battle of Dagorlad. Sauron against the Last "
        "Alliance (Westernesse). 18 Game-Turns, 15-18 at night.\n"
        "Set-up: every counter starts on its hex; each side may re-place counters in its zone (`deploy`), "
        "then `/done`. Sauron's army comes through the Gates from turn 1; the Elves arrive on turn 2.\n"
        "Each turn: Sauron magic (A), move (C), combat (D), magic (E); Westernesse move (F), combat (G); "
        "joint rally (H).\n"
        "The variant's headline rules: **the One Ring** (16.6: Sauron wears it; a leader who kills or "
        "wounds its wearer on a 5-6 takes it, 7.251, and Sauron's side takes +20 demoralization, Sauron -4 Morale and -10 "
        "magic points; the Ringwraith or Gorgol who recovers it takes it straight back to Sauron, 16.641; "
        "a Westernesse wearer tries `ring <leader> off` each Joint Rally Phase and turns evil after three "
        "failures, 16.642/16.69) and **Mortal Combat** (22.0: `challenge` a leader within 4 hexes whose "
        "Combat + Morale is within 3; `accept` or `decline` at the cost of his Rally Points, 22.3; once "
        "accepted both close until they meet, 22.1, and fight to the death, 22.2). Also leader ratings "
        "and wounds (7.22-7.25), the Gates (18.1), Narsil (19.21), the Beast (17.11).\n"
        "The map, order of battle, schedule and victory points are reconstructed (docs/sauron.md); a group "
        "owning the game loads its own charts with `options: charts=...`; `variant=off` plays the original "
        "leader rules with the 1978 player errata (`errata=1978|none`: rough +1 MP and +1 Armor, no cavalry "
        "in rough, a magic weapon +1 rally)."
    )


# the errata of 1978, a layer over the charts (option errata=1978), without and with the leader combat variant
ERRATA = {"1978": (DATA / "errata_1978.toml").read_text()}
ERRATA_WITH_VARIANT = {"1978": (DATA / "errata_1978_variant.toml").read_text()}


def _fixture_position(rs, state: State, pos: dict) -> None:
    """Tests: start from a position ({"turn", "step", "units": {uid: hex}}); units not named are
    reinforcements still to come (if they have a schedule) or out of the game."""
    for uid, rec in state["units"].items():
        rec["hex"] = None
        rec["status"] = "reinforcement" if rs.units[uid].setup == "reinforcement" else "eliminated"
    for uid, hx in pos["units"].items():
        state["units"][uid].update(hex=hx, status="map")
    state["turn"], state["step"], state["done"] = int(pos["turn"]), pos["step"], []
    state["ph"] = c03_sequence._fresh_phase(rs)
    if rs.steps[pos["step"]].get("kind") == "combat":
        state["ph"]["must"] = c07_3_melee._obligations(rs, state, rs.steps[pos["step"]]["side"])


def _check_options(rs, options: dict[str, str]) -> dict:
    """The typed options (``options.py``, read by ``engine.options``), in the state's layout: the
    variant on, no spare counters, and the errata 1978 with the variant off (none with it)."""
    out: dict = {"variant": True, "extra": []}
    out.update(read(rs.options, options, rs))
    out["errata"] = out.get("errata") or ("none" if out["variant"] else "1978")
    return out


def leader_card(rs, state: State, uid: str) -> dict:
    return {"combat": c07_22_leader_combat.combat_rating(rs, state, uid), "morale": c07_22_leader_combat.morale_rating(rs, state, uid),
            "endurance": c07_22_leader_combat.endurance(rs, state, uid), "wounds": c07_22_leader_combat.wounds(rs, state, uid),
            "ring_rating": c07_22_leader_combat.ring_rating(rs, state, uid)}


class Sauron(StandardRules):
    """Sauron: the Standard Rules with the attacks onto the map (engine/spi/entry.py, 14.2) and the functions
    of its case files below, each file's under its case. A function that amends a standard step calls it by
    name (``c07_1_fire._check_fire(self, ...)``); where two case files give the same step, the one taken
    here calls the other by its module: Sauron's check of `done` (``_check_done``, after the class) calls the
    missile units' (``c07_175_missiles._check_done``, 7.175). Where a move may end is the declared list
    ``MOVE_END`` (22.1, 8.1, 16.641)."""

    # 13.0 set-up
    setup_zones = c13_setup.setup_zones
    # where a leader may end a move: 22.1 opens an enemy leader's hex to his challenger only, and 8.1 (the
    # variant's leaders' stacking, else the Standard Rules') holds; then what binds a move's end: the
    # approach of an accepted challenge (22.1) and the Ring going home (16.641). 22.1's reach reads
    # LEADER_MAY_END for the hexes a bound leader could end in.
    LEADER_MAY_END = (c22_mortal_combat.meeting_check, c08_1_stacking.check_move_end)
    hooks = replace(StandardRules.hooks,  # the extension points (engine/spi/hooks.py: Hooks)
        ratings=c17_11_beast.ratings,  # 17.11: the Beast's
        _check_deploy=c13_setup._check_deploy,
        _apply_deploy=c13_setup._apply_deploy,
        reinforcement_entry=c14_reinforcements.reinforcement_entry,
        hexside_rule=c18_1_gates.hexside_rule,
        why_hexside=c18_1_gates.why_hexside,
        _why_unreachable=c18_1_gates._why_unreachable,
        _why_section=c18_1_gates._why_section,
        zoc_through=c18_1_gates.zoc_through,
        zoc_through_fn=c18_1_gates.zoc_through_fn,
        may_enter_enemy_leaders=c22_mortal_combat.may_enter_enemy_leaders,
        order_odds=c22_mortal_combat.order_odds,
        unit_dem_value=c17_11_beast.unit_dem_value,
        adjust_result=c17_11_beast.adjust_result,
        is_fanatic=c17_11_beast.is_fanatic,
        check_spell=c17_11_beast.check_spell,
        spell_targets=c17_11_beast.spell_targets,
        spell_effect=c17_11_beast.spell_effect,
        printed_rally=c07_22_leader_combat.printed_rally,
        _leader_loss=c07_22_leader_combat._leader_loss,
        _displace_leader=c07_22_leader_combat._displace_leader,
        # 8.1 leaders' stacking
        # 8.331 rally (the variant)
        check_rally_extra=c08_331_rally.check_rally_extra,
        # 20.2 demoralization
        dem_total=c20_2_demoralization.dem_total,
        on_unit_lost=c20_2_demoralization.on_unit_lost,
        dem_level=c20_2_demoralization.dem_level,
        # victory
        result_why=victory.result_why,
        final_result=victory.final_result,
        # what runs at these points (engine/spi/hooks.py runs the lists)
        AFTER_MOVE=(c16_6_ring.after_move,),  # 16.6: the Ring goes home with its bearer
        MOVE_END=(*LEADER_MAY_END, c22_mortal_combat.approach_move_end, c16_6_ring.ring_return_move_end),
        ON_STEP_START=(c22_mortal_combat.on_step_start,),  # 22.0: Mortal Combat at the Combat Phase's start
        LEGAL_EXTRA=(c13_setup.legal_setup,  # 13.0 the set-up
                       legal_entry_melees),  # 14.2 melee onto the map from the entry hexes
        MOVEMENT_ALLOWANCE=(c17_11_beast.movement_allowance,),  # 17.11 the Beast in flight
        deploy_example="GA1 1213",
        entry_attack_seats=("sauron", "westernesse"),
        _offer_advance=spi_entry._offer_advance,  # 7.5 with the advance onto the map (14.2)
        _offmap_hex=spi_entry._offmap_hex,  # 14.2 the hex an entering unit attacks from
        check_group_charts=check_group_charts,
        may_form=may_form,
        # ------------------------------------------------------------ help (engine/spi/help.py)
        order_examples={
            "deploy": "deploy OI1 OJ1 1519", "move": "move OI1 1519", "fire": "fire GA1 at 1310",
            "duel": "duel ISI GOR", "melee": "melee OI1 at 1310", "advance": "advance OI1 1310",
            "retreat": "retreat OI1 1520", "rally": "rally ELE MI1", "cast": "cast SAU summon-beast",
            "form": "form shieldwall MI1 MI2 ELE", "disband": "disband MI1 1310", "gates": "gates close",
            "challenge": "challenge ISI GOR", "accept": "accept GOR", "decline": "decline GOR", "ring": "ring ISI off",
            "breathe": "breathe BEA at 1310"},
        orders_notes=(
            "An archer next to enemies must fire at one unless every one is meleed (7.175). Sauron's spells (17.0): "
            "sinister-visions, wrath-of-the-ringwraith, total-eclipse, summon-beast, and the Beast's abilities bought "
            "separately (beast-flight, beast-horn, beast-armor, beast-breath, 17.11). A challenge to Mortal Combat "
            "is answered in the challenged side's next phase (22.3), by order or by its buttons; accepted, both "
            "leaders close each movement phase until one is in the other's hex (22.1; `decline` backs out at "
            "22.3's cost). `/odds text:duel ISI GOR` gives the exact leader combat "
            "results (7.25), "
            "`/odds text:challenge ISI GOR` those of the Mortal Combat (22.2)."),
        kind_verbs={"magic": ("cast", "gates"), "combat": ("fire", "duel", "melee", "advance", "retreat", "challenge",
                                                            "accept", "decline", "breathe"),
                      "rally": ("rally", "ring")},
        setup_help=(
            "Every counter starts on its hex (reconstructed order of battle, docs/sauron.md); Sauron, then "
            "Westernesse, may re-place counters in their zones with `deploy <unit> [<unit>...] <hex>`, then `/done`. "
            "Sauron's army comes through the Gates from turn 1, the Elves from the West edge on turn 2; `options: "
            "extra=all` adds the six spare Westernesse units (14.3)."),
        secrets_help=(
            "Nothing is hidden in Sauron: every counter, the Ring's bearer and the Gates are in plain view, and "
            "`/secret` has nothing to send."),
        help_general=help_general,
    )
    # 14.0 reinforcements
    entry_hexes = c14_reinforcements.entry_hexes
    # 18.1 the gates
    mordor_hexes = c18_1_gates.mordor_hexes
    gate_sides = c18_1_gates.gate_sides
    # 16.6 the One Ring
    # 19.21 Narsil
    # 22.0 Mortal Combat
    answer_buttons = c22_mortal_combat.answer_buttons
    waiting_decisions = c22_mortal_combat.waiting_decisions
    # 17.1 the Beast, spells
    spells = c17_11_beast.spells
    # 7.22 leader combat (the variant)
    _lr = c07_22_leader_combat._lr
    # 7.175 missile units fire
    apply = c07_175_missiles.apply

    name = "sauron"
    options = OPTIONS  # options.py (issue 39)
    golden_script = ("sauron_game.txt", "45")
    data_dir = DATA
    title = "Sauron: the Battle of Dagorlad"
    seats = SEATS
    side_titles = SIDE_TITLES
    side_colors = SIDE_COLORS
    state_version = STATE_VERSION

    # ------------------------------------------------------------------ data
    @cached_property
    def start_hexes(self) -> dict[str, str]:
        return tomllib.loads((DATA / "setup.toml").read_text())["start"]

    def raw(self, state: State) -> dict:
        return self.charts_for(state).raw

    # the 1978 player errata ([ERR-S], data/errata_1978*.toml): laid over charts.toml, under a group's charts

    def errata(self, state: State) -> str | None:
        """The errata in force: ``options: errata=1978|none``; by default 1978 with ``variant=off`` (the
            base game corrected), none with the variant (its own 4.3 and rally values). A game stored
            before the option existed has none (it keeps the rules it was played with)."""
        e = state["options"].get("errata", "none")
        return None if e == "none" else e

    def charts_for(self, state: State):
        e = self.errata(state)
        if e is None:
            return StandardRules.charts_for(self, state)  # the standard step, by name
        table = ERRATA_WITH_VARIANT if c07_22_leader_combat.variant(self, state) else ERRATA
        return cached(self.ruleset_charts_text, table[e], state["options"].get("charts", ""))

    # ---------------------------------------------------------------- set-up
    def new_game(self, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
        opts = _check_options(self, options)
        state = self.base_state(opts, seed)
        for uid, u in self.units.items():
            rec = c02_units.unit_record(self, u)
            if u.is_leader:
                rec["wounds"] = 0
            if uid in self.start_hexes:
                rec["hex"], rec["status"] = self.start_hexes[uid], "map"
            if uid == BEAST or (uid in EXTRA_IDS and uid not in opts["extra"]) or u.setup == "forts":
                rec = {"hex": None, "status": "out"}  # (the catapults are the expanded game's, placed there)
            state["units"][uid] = rec
        state["dem"] = {"sauron": 0, "westernesse": 0}
        state["turned"] = {}  # 16.69: uid -> the seat that controls it now (engine/spi/hooks.py side_of)
        state["sau"] = {
            "ring": {"holder": "SAU", "worn": True},          # 16.6
            "items": {"narsil": "ELE", "aiglos": "GIL", "shards": None},  # 19.21, facts 9.2
            "ring_tries": {}, "evil": [], "ring_dem": 0,
            "dem_extra": {"sauron": 0, "westernesse": 0},
            "gates": "open", "gates_turn": None,               # 18.1
            "mortal": [], "declined": {},                      # 22.x
            "beast": {"flight": False, "horn": False, "armor": False, "breath": False, "wounds": 0},  # 17.1
        }
        if fixture and "position" in fixture:
            _fixture_position(self, state, fixture["position"])
        return state


    def deadline_action(self, state: State, seat: str):
        """At a deadline: an unanswered challenge is answered as a seat on autopilot answers it, by what costs its
        side less (issue 42: a seat that lets its deadlines pass is absent too, and declining every time let an
        opponent wear its side down by challenging again and again, 22.3); a missile unit under 7.175 fires at
        the first enemy it may; else the Standard Rules' move."""
        left = [p for p in c22_mortal_combat._challenges_waiting(self, state) if p["seat"] == seat] if state["turn"] else []
        if left and seat in self.active_seats(state):  # not an answer the decision lists: 7.5 may wait first
            return c22_mortal_combat.challenge_answer(self, state, left[0])
        if (step := c22_mortal_combat.approach_default(self, state, seat)) is not None:  # 22.1: the leader closes
            return step
        if (step := c16_6_ring.ring_return_default(self, state, seat)) is not None:  # 16.641: the Ring goes home
            return step
        if c03_sequence.kind(self, state) == "combat" and c03_sequence.phasing(self, state) == seat and state["ph"]["segment"] == "fire":
            for uid, hexes in c07_175_missiles.missile_obliged(self, state, seat):
                for hx in hexes:
                    a = Action("fire", (uid, "at", hx))
                    if c03_sequence._ok(self, state, seat, a):
                        return a
        return super().deadline_action(state, seat)


    # ----------------------------------------------------------------- view

    def view(self, state: State, seat: str | None) -> dict:
        own = seat if seat in SEATS else None
        units = []
        pool = {s: 0 for s in SEATS}
        for uid, u in self.units.items():
            rec = state["units"][uid]
            if rec["status"] not in ("map", "pool"):
                continue
            d = self.unit_view(state, uid, own)
            if u.is_leader:
                d.update(leader_card(self, state, uid))
                items = [k for k, v in state["sau"]["items"].items() if v == uid]
                if c16_6_ring.ring_holder(self, state) == uid:
                    items.append("ring (worn)" if state["sau"]["ring"]["worn"] else "ring (carried)")
                    d["ring"] = "worn" if state["sau"]["ring"]["worn"] else "carried"
                    look(d)["band"] = "lit" if state["sau"]["ring"]["worn"] else "plain"  # drawn on the counter
                if items:
                    d["items"] = items
                if uid in state["sau"]["evil"]:
                    d["evil"] = True
            if uid == BEAST:
                d["abilities"] = [k for k in ("flight", "horn", "armor", "breath") if state["sau"]["beast"][k]]
                d["combat"] = c17_11_beast.beast_total(self, state)
            units.append(d)
        markers = list(state["markers"])
        h = c16_6_ring.ring_holder(self, state)
        ring = state["sau"]["ring"]
        notes = []
        notes.append(f"The One Ring: {'worn' if ring['worn'] else 'carried'} by {h} (16.6)" if h
                     else "The One Ring: lost (16.6)")
        it = state["sau"]["items"]
        notes.append(f"Narsil: borne by {it['narsil']}" if it.get("narsil") else
                     (f"Narsil: shards borne by {it['shards']} (19.212)" if it.get("shards") else "Narsil: gone"))
        notes.append(f"Gates of Morannon: {state['sau']['gates']} (18.1)")
        for x in sorted(state["units"]):
            if self.units[x].is_leader and c02_units.on_map(self, state, x):
                c = leader_card(self, state, x)
                notes.append(f"{x}: Combat {c['combat']}, Morale {c['morale']}, Endurance {c['endurance']}"
                             f"{', wounds ' + str(c['wounds']) if c['wounds'] else ''}, rally "
                             f"{c08_3_rally.leader_rating(self, state, x)}")
        if c02_units.on_map(self, state, BEAST):
            b = state["sau"]["beast"]
            ab = [t for k, t in (("flight", "Flight"), ("horn", "Horn Attack"), ("armor", "Magic Armor"),
                                 ("breath", "Death Breath")) if b[k]]
            notes.append(f"The Beast: Combat {c17_11_beast.beast_total(self, state)}, {', '.join(ab) or 'no abilities'} (17.11)")
        for m in state["sau"]["mortal"]:
            notes.append(f"Challenge: {m['challenger']} to {m['challenged']}, {m['status']} (22.0)")
        notes += [f"{p['unit']} must retreat: {SIDE_TITLES[p['seat']]} chooses (7.5)" for p in state["pending"]]
        gates = {}
        if c18_1_gates.gates_closed(self, state):
            gates = {str(hs): "sauron" for hs, t in self.hexmap.hexsides.items() if t == "gate"}
        armies = self.raw(state)["armies"]
        v = {
            **self.view_head(state, own, "Sauron"),
            "units": units,
            "markers": markers,
            "gates": gates,
            "tracks": [{"name": f"{armies[a][:1].upper()}{armies[a][1:]} demoralization", "side": a,
                        "points": self.hooks.dem_total(self, state, a), "level": self.hooks.dem_level(self, state, a),
                        "demoralized": self.hooks.demoralized(self, state, a)} for a in SEATS],
            "pool": pool,
            "pending": [{"seat": p["seat"], "unit": p["unit"], "options": list(p["options"])}
                        for p in state["pending"]],
            "effects": [{"title": e["title"], "section": e["section"], "side": e.get("side")}
                        for e in state["effects"]],
            "formations": {k: dict(f) for k, f in state["formations"].items()},
            "eliminated": sorted(x for x in state["units"] if state["units"][x]["status"] == "eliminated"),
            "ring": {"holder": h, "worn": ring["worn"]},
            "items": dict(it),
            "gates_state": state["sau"]["gates"],
            "victory_points": victory.victory_points(self, state),
            "notes": notes,
            "over": state["over"],
        }
        hooks.view_extra(self, state, own, v)
        act = self.active_seats(state)
        who = own if own else (act[0] if len(act) == 1 else None)
        if state["turn"] == 0 and who in act:  # the acting side's set-up zone (public: the rules say where)
            v["zone"] = sorted(self.setup_zones["front" if who == "sauron" else "alliance"])
            v["zone_title"] = f"{c02_units.title_of(self, who)} set-up zone ({'13.1' if who == 'sauron' else '13.2'})"
        return v


    def rules_in_force(self, state: State) -> list[str]:
        """Issue 42: the variant or the original leader rules, the errata, the spare counters."""
        o = state.get("options") or {}
        out = ["Heli's variant" if o.get("variant", True) else "the original leader rules",
               "the 1978 player errata" if o.get("errata") == "1978" else "no errata"]
        if o.get("extra"):
            out.append(f"{len(o['extra'])} spare Westernesse counters (14.3)")
        return out + StandardRules.rules_in_force(self, state)


def _check_done(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    """`done` in Sauron (its ``DONE`` record's check): the missile units' obligation (7.175, after the standard's 3.0),
    a challenge waiting for its answer (22.3), the accepted challenge's leaders closing (22.1), the Ring gone home
    (16.641)."""
    c07_175_missiles._check_done(rs, state, seat, args)  # 7.175, after the standard's (3.0)
    if state["turn"]:  # 22.3: a challenge waiting for its answer (engine/pending.py)
        pending.check_done(rs.decisions, rs, state, c22_mortal_combat._challenges_waiting(rs, state), seat)
    c22_mortal_combat.check_done_approach(rs, state, seat)  # 22.1: the accepted challenge's leaders close
    if (why := c16_6_ring.ring_return_pending(rs, state, seat)) is not None:  # 16.641: the Ring goes home
        raise IllegalOrder(why + " first", "16.641")


# Sauron's orders, in the order their legal actions are offered; a record with a standard verb replaces it in
# its place: the leader combat variant (7.22), the attacks onto the map (14.2), the leaders' stacking in formations (8.1), no fire
# through closed gates (18.1), every missile unit fires before `done` (7.175), challenges answered (22.3)
Sauron.ORDERS = (*StandardRules.ORDERS,
                 replace(DEPLOY, listed_in=c13_setup.legal_setup, unlisted=""),  # 13.0 listed by the set-up
                 GATES, CHALLENGE, ACCEPT, DECLINE, RING_ORDER, BREATHE,
                 SDUEL, ENTRY_ADVANCE, ENTRY_MELEE,
                 replace(FORM, check=c08_1_stacking._check_form),
                 replace(FIRE, check=c18_1_gates._check_fire),
                 replace(DONE, check=_check_done))
# the decisions a seat may face (engine/pending.py): the retreat (7.5), the challenge to answer (22.3)
Sauron.DECISIONS = (*StandardRules.DECISIONS, CHALLENGE_22_3)

SAURON = Sauron()
