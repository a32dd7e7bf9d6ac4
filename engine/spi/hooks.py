"""Every hook a game built on the Standard Rules may give, with its default: the one place to read
the contract between ``StandardRules`` and a ruleset (Gondor, Sauron, Field of Celebrant).

Every extension point is a field of one declared record, ``Hooks`` (below; issue 43: one style for every
extension point): a single function (``hexside_rule``), a step of a case file a game may replace
(``_melee_targets``), a help text, or what several case files do at one point (after a move, at a step's
start, on an attack, in a new game's state, in a view, in the legal actions listed first, in a Movement
Allowance, after an elimination or a retreat) as an ordered list (``AFTER_MOVE`` ... below), which the
hook here runs; no case file calls another's step. A game declares its record once,
``hooks = replace(StandardRules.hooks, hexside_rule=c15_city.hexside_rule, AFTER_MOVE=(...), ...)``, and the
standard code calls ``rs.hooks.hexside_rule(rs, ...)``. An order's own check or apply is held by its
``Order`` record (``replace(FIRE, check=...)``). The few methods a game may still redefine (the
``RulesetBase`` interface and the steps that read the class's data) are listed in ``REPLACEABLE``;
``tests/engine/test_architecture.py`` fails if a ruleset redefines anything of ``StandardRules`` that is in
neither.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.hexgrid import Hex, distance
from engine.spi.charts import Charts
from engine.spi.common import _phrase
from engine.spi import c08_4_formations
from engine.spi import c08_5_magic
from engine.spi import c02_units
from engine.spi import c03_sequence


# The steps of the Standard Rules a game may replace (a function of a case file, usually calling the standard
# one by its module: ``c07_5_retreat._offer_advance(rs, ...)``), beyond the hooks of
# this file: each names the case that makes a game need it. Anything else of ``StandardRules`` a
# ruleset redefines fails tests/engine/test_architecture.py.
REPLACEABLE: dict[str, str] = {
    # (issue 43: a game's own rules for a standard order are no longer here: its ``Order`` record holds its
    # functions, ``replace(FIRE, check=c16_1_catapults_grond._check_fire)``, and nothing calls them by name)
    "data_dir": "the game's data files (map, order of battle, charts, sequence, printed set-up 13.0)",
    "rules_in_force": "the scenario, variant, errata and options that change a game's rules (issue 42: each game "
                      "names its own, then the standard ones: a group's charts, Rally Ratings)",
    "charts_for": "the charts a game plays with: its file, a layer an option chooses (Sauron's errata=1978), "
                  "then the group's own",
    # steps inside the orders
    "apply": "the dispatch, wrapped (FoC: what follows any order)",
    "deadline_action": "the bot's move for a seat at its deadline (FoC 14.31, 14.33)",
    "waiting_decisions": "the decision records waiting now, engine/pending.py (Sauron 22.3: a challenge to answer; "
                         "FoC 14.31: the entry area in a game stored before it was queued)",
    "DECISIONS": "the kinds of pending decision, engine/pending.py (Sauron 22.3: a challenge to answer; FoC 14.31: "
                 "the Eotheod entry area)",
    "upgrade_state": "a state stored by an earlier release brought to this code's layout, keeping the rules its "
                     "log was played under (FoC 14.31: the entry area chosen before `done`)",
    "answer_buttons": "the buttons another seat answers an order with (Sauron 22.3: Accept / Decline a challenge)",
}


# The steps a game runs at these points, declared in one place (its class), in the order they run; each
# entry is a function of one of its case files. The hooks below run them (``after_move``,
# ``on_step_start``, ``init_extra``, ``view_extra``, ``modify_attack``), so that what happens after a move
# is read in one line, e.g. Gondor's ``ON_ENTER = (c16_7_oil.on_enter, c15_city.on_enter)``: the cauldrons
# (16.73) and the oil (16.74), then the gates (15.15), whichever way a unit came in (``on_enter``).
AFTER_MOVE: tuple = ()  # (rs, state, seat, uids, trail) -> list[Event]
ON_STEP_START: tuple = ()  # (rs, state) -> list[Event]
INIT_EXTRA: tuple = ()  # (rs, state) -> None
VIEW_EXTRA: tuple = ()  # (rs, state, own, view) -> None
MODIFY_ATTACK: tuple = ()  # (rs, state, attacker, target, kind, prof) -> None
LEGAL_EXTRA: tuple = ()  # (rs, state, seat) -> Iterator[Action]: listed before the orders' own
MOVEMENT_ALLOWANCE: tuple = ()  # (rs, state, uid, ma) -> float: each amends the allowance before it
ON_ELIMINATE: tuple = ()  # (rs, state, uid, here) -> None: after a unit is eliminated from ``here``
AFTER_RETREAT: tuple = ()  # (rs, state, uids, here, hx) -> list[str]: after a retreat from here to hx
ON_ENTER: tuple = ()  # (rs, state, seat, uids, trail, how) -> list[Event]: units entered hexes (below)
AFTER_ORDER: tuple = ()  # (rs, state, seat, action) -> list[Event]: after any order, before the victory check


# ------------------------------------------------------------ help (engine/spi/help.py)
order_examples: dict[str, str] = {}  # verb -> an example made of the game's own counters and hexes
orders_notes: str = ""  # what `/help topic:orders` adds after the list (spells, a game's own phases)
kind_verbs: dict[str, tuple[str, ...]] = {}  # a game's own step kinds -> the orders typed in them
setup_help: str = ""  # where each side sets up (13.x)
secrets_help: str = "Nothing is hidden in this game: every counter is face up."


def help_general(rs) -> str:
    """What the game is, in a few lines: `/help` in its channel."""
    return f"**{rs.title}**"


# ------------------------------------------------------------ hooks
def side_of(rs, state: State, uid: str) -> str:
    """The seat that controls ``uid`` now: its order of battle's side, unless control has passed
        to another seat (``state["turned"]``: uid -> seat; Sauron 16.69, a leader turned evil and the
        units stacked with him). Every ownership check, zone of control, stacking, combat and view of
        the Standard Rules reads a unit's side through this."""
    turned = state.get("turned")
    if turned and uid in turned:
        return turned[uid]
    return rs.units[uid].side


def view_turn(rs, state: State) -> int:
    """The Game-Turn the view shows (a game may clamp it once the last turn is over: FoC 12.0)."""
    return state["turn"]


def hexside_rule(rs, state: State, uids: list[str], a: Hex, b: Hex,
                 retreat: bool = False) -> float | str | None:
    """Extra MP to cross the hexside a|b, ``None`` if forbidden, ``"all"``
        if crossing costs the whole allowance (and ends the move). Consulted
        for hexsides with a map feature (wall, gate, river...). ``retreat`` is
        true when a retreat (7.5) asks. Default: 0."""
    return 0


def extra_blocked(rs, state: State, seat: str, uids: list[str]) -> set[Hex]:
    """Hexes ``uids`` may not enter (move, retreat or advance) for a
        ruleset's own reasons (Gondor 14.31: cavalry never next to Mumakil)."""
    return set()


def init_extra(rs, state: State) -> None:
    """A new game's own state keys: the game's ``INIT_EXTRA``, in order."""
    for step in rs.hooks.INIT_EXTRA:
        step(rs, state)


def view_extra(rs, state: State, own: str | None, view: dict) -> None:
    """What a game adds to a seat's view (and its notes): the game's ``VIEW_EXTRA``, in order."""
    for step in rs.hooks.VIEW_EXTRA:
        step(rs, state, own, view)


def dem_total(rs, state: State, army: str) -> int:
    """An army's demoralization points now (9.1; a ruleset may adjust)."""
    return state["dem"].get(army, 0)


def zoc_through(rs, state: State, a: Hex, b: Hex) -> bool:
    """Whether a ZOC extends from ``a`` into adjacent ``b``."""
    return True


def zoc_through_fn(rs, state: State):
    """``zoc_through`` for one state, as a function of (a, b): a ruleset may
        work out what it needs once per call of ``zoc_map`` (speed only)."""
    return lambda a, b: rs.hooks.zoc_through(rs, state, a, b)


def movement_allowance(rs, state: State, uid: str) -> float:
    """A unit's Movement Allowance (4.0): the chart's, within a formation's (8.4), then as the game's
    ``MOVEMENT_ALLOWANCE`` amends it, in order."""
    u = rs.units[uid]
    ch = rs.charts_for(state)
    ma = u.movement if u.movement is not None else ch["movement"].get(u.type, ch["movement"]["infantry"])
    f = c08_4_formations.formation_of(rs, state, uid)
    if f:
        ma = min(ma, ch["formations"][state["formations"][f]["kind"]]["movement"])
    if u.is_leader and c03_sequence.kind(rs, state) == "rally" and c03_sequence.step(rs, state).get("leader_moves"):
        ma = min(ma, c03_sequence.step(rs, state)["leader_moves"])  # FoC 8.38: up to 3 MP before rallying
    for step in rs.hooks.MOVEMENT_ALLOWANCE:
        ma = step(rs, state, uid, ma)
    return ma


def reinforcement_entry(rs, state: State, uid: str) -> list[str] | None:
    """Hexes a reinforcement may enter by now, or None if it may not enter."""
    return None


def on_step_start(rs, state: State) -> list[Event]:
    """At the start of a step: the game's ``ON_STEP_START``, in order, their events in that order."""
    events: list[Event] = []
    for step in rs.hooks.ON_STEP_START:
        events += step(rs, state)
    return events


def on_unit_lost(rs, state: State, uid: str, points: int) -> None:
    """A unit or leader cost ``points`` of demoralization (9.1, 19.2)."""
    army = c02_units.army_now(rs, state, uid)
    state["dem"][army] = state["dem"].get(army, 0) + points


def dem_level(rs, state: State, army: str) -> int | None:
    return None


def unit_dem_value(rs, state: State, uid: str) -> int:
    """A combat unit's demoralization value (9.12): the chart's formula by
        default; a ruleset may print it on the counter (FoC 9.12)."""
    return rs.charts_for(state).demoralization_value(rs.units[uid].ratings)


def may_enter_enemy_leaders(rs, state: State, uids: list[str]) -> bool:
    """Whether ``uids`` may enter a hex holding enemy leaders but no enemy
        combat unit (4.27: not under the Standard Rules; FoC amends it)."""
    return False


def demoralized(rs, state: State, army: str) -> bool:
    lvl = rs.hooks.dem_level(rs, state, army)
    return lvl is not None and rs.hooks.dem_total(rs, state, army) >= lvl


def check_victory(rs, state: State) -> dict | None:
    return None


def end_of_turn(rs, state: State) -> list[Event]:
    return []


def result_line(rs, state: State, over: dict) -> str:
    """The end of the game in one short line, the winner first (the full reasoning is the
    summary, in the log once): "<winner> wins: <why> (<section>)". A game gives its why."""
    sec = f" ({over['section']})" if str(over.get("section") or "")[:1].isdigit() else ""
    w = over.get("winner")
    why = rs.hooks.result_why(rs, state, over)
    if not w:
        return f"A draw{': ' + why if why else ''}{sec}"
    return f"{c02_units.title_of(rs, w)} wins{': ' + why if why else ''}{sec}"


def result_why(rs, state: State, over: dict) -> str:
    """Why the winner won, in a few words (a game's declaration; default: none)."""
    return ""


def final_result(rs, state: State) -> dict:
    n = rs.sequence["turns"]
    words = {12: "twelve", 14: "fourteen", 15: "fifteen", 16: "sixteen", 18: "eighteen", 20: "twenty"}
    return {"winner": None, "summary": f"The {words.get(n, n)} Game-Turns are over "
                                       f"({rs.sequence.get('length_section', '12.0')}).",
            "section": rs.sequence.get("length_section", "12.0")}


def on_setup_step_end(rs, state: State) -> list[Event]:
    """Hook: a set-up step is over (every seat in it done), before the next step."""
    return []


def legal_extra(rs, state: State, seat: str) -> Iterator[Action]:
    """Legal actions a game lists before its orders' own (its set-up's, its passes over several
    orders, ``Order.listed_in``): the game's ``LEGAL_EXTRA``, in order."""
    for step in rs.hooks.LEGAL_EXTRA:
        yield from step(rs, state, seat)


def spell_targets(rs, state: State, seat: str, spell: str) -> Iterator[str]:
    return iter(())


def check_stack_move(rs, state: State, seat: str, uids: list[str]) -> None:
    """Hook: siege equipment carriers and the like (Gondor 16.11-16.13)."""


def why_hexside(rs, state, uids, a, b) -> str:
    return f"the hexside {a}/{b} may not be crossed"


def check_move_end(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    """Where a move may end: the game's ``MOVE_END``, in order (the first refusal stands)."""
    for step in rs.hooks.MOVE_END:
        step(rs, state, seat, uids, dest, occ)


def leaders_end_stacked(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    """8.1 (inferred): a leader that is not a magic leader ends its move with a combat unit."""
    if rs.charts_for(state)["stacking"].get("leaders_alone", False):
        return
    if all(rs.units[u].is_leader and not c08_5_magic.is_magic_leader(rs, u) for u in uids):
        friends = [x for x in occ.get(dest, ()) if rs.units[x].is_combat and side_of(rs, state, x) == seat]
        if not friends:
            raise IllegalOrder(f"{_phrase(uids)} must end its move stacked with a friendly combat unit", "8.1")


def entered(rs, state: State, trail: list[str]) -> list[str]:
    """In ``after_move``: the hexes the move entered (the trail less its start
        hex; all of it for a unit that came onto the map)."""
    return list(trail[1:]) if state["ph"].get("move_from") else list(trail)


def after_move(rs, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    """After a move (``trail``: every hex from the start, if on the map, to the end): the game's
    ``AFTER_MOVE``, in order, their events in that order; then ``on_enter``."""
    events: list[Event] = []
    for step in rs.hooks.AFTER_MOVE:
        events += step(rs, state, seat, uids, trail)
    return events + on_enter(rs, state, seat, uids, trail, "move")


def on_enter(rs, state: State, seat: str, uids: list[str], trail: list[str], how: str) -> list[Event]:
    """Units of ``seat`` entered hexes, however they came (``how``: a ``"move"``, a ``"retreat"``, an
    ``"advance"`` after combat): the game's ``ON_ENTER``, in order, their events in that order. ``trail``:
    the hexes passed, from the one left when it is next to the first entered (a move's whole path; a
    retreat's or an advance's hex left and hex entered), so that one list serves every way in (Gondor: the
    cauldrons 16.73 and the oil poured 16.74, then the gates 15.15)."""
    events: list[Event] = []
    for step in rs.hooks.ON_ENTER:
        events += step(rs, state, seat, uids, trail, how)
    return events


def modify_attack(rs, state: State, attacker: str, target: str, kind: str, prof: dict) -> None:
    """A game's exclusive rules on an attack's profile (siege towers, tunnels, guards...): the game's
    ``MODIFY_ATTACK``, in order."""
    for step in rs.hooks.MODIFY_ATTACK:
        step(rs, state, attacker, target, kind, prof)


def is_fanatic(rs, state: State, uid: str) -> bool:
    return False


def adjust_result(rs, state: State, target: str, res: tuple, prof: dict) -> tuple:
    return res


def order_odds(rs, state: State, seat: str, action: Action) -> str | None:
    """``/odds`` for an order other than fire and melee (whose odds the Standard Rules work out):
        a game whose table is known answers exactly (Sauron: leader combat on 7.25, Mortal Combat, 22.2);
        ``None``: no odds for this order."""
    return None


def duel_modifier(rs, state: State, leader: str, other: str) -> int:
    return 0


def spell_effect(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> str:
    """Generic spell effects from data: an ``effect`` table added to
        ``state['effects']`` until the same step of the next turn."""
    sp = rs.spells[spell]
    eff = dict(sp.get("effect", {}))
    eff.update(title=sp["title"], section=sp["section"], spell=spell,
               until={"turn": state["turn"] + 1, "step": state["step"]})
    if eff.get("side") == "enemy":
        eff["side"] = c02_units.enemy(rs, seat)
    elif eff.get("side") == "own":
        eff["side"] = seat
    if eff.pop("freeze_within", None) is not None:
        r = sp["effect"]["freeze_within"]
        here = state["units"][leader]["hex"]
        eff["frozen"] = sorted(x for x in state["units"] if rs.units[x].is_leader
                               and side_of(rs, state, x) != seat and c02_units.on_map(rs, state, x)
                               and distance(here, state["units"][x]["hex"]) <= r)
    state["effects"].append(eff)
    return sp.get("text", "in effect")


def check_rally_extra(rs, state: State, seat: str, leader: str, uid: str) -> None:
    pass


def check_spell(rs, state: State, seat: str, leader: str, spell: str, target: str | None) -> None:
    pass


def may_form(rs, state: State, seat: str, kind: str) -> bool:
    return True


def check_group_charts(rs, charts: Charts, text: str) -> None:
    """A ruleset's checks of its own chart tables (raise ChartError or ValueError)."""


def printed_rally(rs, state: State, uid: str) -> int:
    return 0


# (rs, state, seat, uids, dest, occ) -> None, refusing where a move may not end, run by ``check_move_end``
# in order: 8.1 here; Sauron's: 22.1's meeting, its leaders' stacking (8.1), 22.1's approach, 16.641
MOVE_END: tuple = (leaders_end_stacked,)


# ------------------------------------------------------------ the record
@dataclass(frozen=True, kw_only=True)
class Hooks:
    """Every extension point of the Standard Rules in one declared record (issue 43: one style for every
    extension point). ``StandardRules.hooks`` holds the standard ones; a game declares its own as
    ``hooks = replace(StandardRules.hooks, hexside_rule=c15_city.hexside_rule, AFTER_MOVE=(...), ...)``,
    and the standard code calls ``rs.hooks.hexside_rule(rs, ...)``. A function that amends a standard
    step calls the one it amends by its record (``StandardRules.hooks.hexside_rule(rs, ...)``). The
    defaults are the functions above; the steps of a case file are given by ``StandardRules``."""

    # the lists (run in order by the functions above)
    AFTER_MOVE: tuple = AFTER_MOVE
    ON_STEP_START: tuple = ON_STEP_START
    INIT_EXTRA: tuple = INIT_EXTRA
    VIEW_EXTRA: tuple = VIEW_EXTRA
    MODIFY_ATTACK: tuple = MODIFY_ATTACK
    LEGAL_EXTRA: tuple = LEGAL_EXTRA
    MOVEMENT_ALLOWANCE: tuple = MOVEMENT_ALLOWANCE
    ON_ELIMINATE: tuple = ON_ELIMINATE
    AFTER_RETREAT: tuple = AFTER_RETREAT
    ON_ENTER: tuple = ON_ENTER
    AFTER_ORDER: tuple = AFTER_ORDER
    MOVE_END: tuple = MOVE_END
    # help (engine/spi/help.py)
    order_examples: dict = field(default_factory=dict)
    orders_notes: str = orders_notes
    kind_verbs: dict = field(default_factory=dict)
    setup_help: str = setup_help
    secrets_help: str = secrets_help
    help_general: Callable = help_general
    deploy_example: str = ""  # 13.0: an example `deploy` of the game's own counters
    # single-function hooks, each with its default above
    view_turn: Callable = view_turn
    hexside_rule: Callable = hexside_rule
    extra_blocked: Callable = extra_blocked
    dem_total: Callable = dem_total
    zoc_through: Callable = zoc_through
    zoc_through_fn: Callable = zoc_through_fn
    reinforcement_entry: Callable = reinforcement_entry
    on_unit_lost: Callable = on_unit_lost
    dem_level: Callable = dem_level
    unit_dem_value: Callable = unit_dem_value
    may_enter_enemy_leaders: Callable = may_enter_enemy_leaders
    demoralized: Callable = demoralized
    check_victory: Callable = check_victory
    end_of_turn: Callable = end_of_turn
    result_line: Callable = result_line
    result_why: Callable = result_why
    final_result: Callable = final_result
    on_setup_step_end: Callable = on_setup_step_end
    spell_targets: Callable = spell_targets
    check_stack_move: Callable = check_stack_move
    why_hexside: Callable = why_hexside
    check_move_end: Callable = check_move_end
    is_fanatic: Callable = is_fanatic
    adjust_result: Callable = adjust_result
    order_odds: Callable = order_odds
    duel_modifier: Callable = duel_modifier
    spell_effect: Callable = spell_effect
    check_rally_extra: Callable = check_rally_extra
    check_spell: Callable = check_spell
    may_form: Callable = may_form
    check_group_charts: Callable = check_group_charts
    printed_rally: Callable = printed_rally
    # the steps of the Standard Rules' case files a game may replace (the standard ones: StandardRules.hooks),
    # each with the case that makes a game need it
    _check_deploy: Callable  # 13.0: each game's set-up zones (Gondor and FoC 13.1, 13.2)
    _apply_deploy: Callable | None = None  # 13.0 (Gondor 16.71, 16.72 the cauldrons)
    _check_movers: Callable  # 4.0: who may move now (Gondor 17.22)
    _why_unreachable: Callable  # 4.0: why a hex cannot be reached (Gondor; FoC 16.21)
    _why_section: Callable  # 4.0: the section a refused move cites (Gondor 14.31; FoC 16.21)
    _why_step: Callable  # 4.0: why one step is refused (Gondor's walls and Mumakil)
    apply_result: Callable  # 7.4 (Gondor 16.47; FoC 17.61)
    _leader_loss: Callable  # 7.23 (Gondor 18.x the Banner)
    _displace_leader: Callable  # 7.23, 8.1 (Gondor 18.13; FoC 8.1, 8.24)
    _can_fire: Callable  # 7.1: who may fire (FoC's combat rules)
    missile_range: Callable  # 7.12 (Gondor: catapult fire)
    _can_melee: Callable  # 7.3: who may melee (FoC's combat rules)
    _melee_targets: Callable  # 7.31 (FoC's amendment: any adjacent enemy combat unit)
    _offer_advance: Callable  # 7.5 (14.2: the advance onto the map, engine/spi/entry.py, in every game with it)
    _start_retreat: Callable  # 7.5 (Gondor 14.32 the Mumakil)
    _formed_this_turn: Callable  # 8.4 (FoC 17.11 Eorl's Wedge)
    spell_cost: Callable  # 8.5 (Gondor's spells)
    _expire_effects: Callable  # 8.5 (FoC 17.x special abilities)
    ratings: Callable  # 2.0: a unit's ratings now, c02_units.ratings (Gondor 16.12 catapults; Sauron 17.11 the Beast)
    next_step: Callable  # 3.0: the sequence of play, c03_done.next_step (Gondor: a Siege Phase nobody acts in ends at once)
    # 14.2 the attacks onto the map (engine/spi/entry.py)
    entry_attack_seats: tuple = ()  # the seats whose units attack onto the map from their entry hexes
    _offmap_hex: Callable | None = None  # the hex beyond the edge an entering unit attacks from (Gondor's own)
