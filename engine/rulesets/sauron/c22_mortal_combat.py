"""22.0 Mortal Combat (variant, seed 004: 22.0-22.4, 7.241).

- 22.0/22.4: in his side's Combat Phase a phasing leader within 4 hexes of an enemy leader may challenge
  him, if their summed Combat and Morale differ by 3 or less (Isildur 7 may challenge Gorgol 4, Elendil 9
  may not). ``challenge <leader> <enemy leader>``.
- 22.3: the challenged side answers, ``accept <leader>`` or ``decline <leader>``, in its next phase and
  before it is done with it (the answer is that seat's to give: the phase notice pings it). Declining adds
  the leader's current Rally Rating to his side's Demoralization and he may not rally that Game-Turn.
- 22.1: once a challenge is accepted the two leaders must close: in every movement phase of his side
  (a magic leader's: the Magic Leader Phases, 8.52) each of them, until one has entered the other's hex,
  moves as near to the other as he can that phase; a move of his that ends farther than the nearest hex
  he could reach is refused, and so is `done` while he has not moved and could come nearer (the
  approach moves are his legal moves; at a deadline the bot makes one). An accepted challenge lets the
  two enter each other's hex (4.27 otherwise keeps leaders out of enemy hexes); once they share a hex,
  Mortal Combat is fought at the start of the next Combat Phase, in its Leader Combat Segment.
  **Ruling:** a bound leader may still back out with `decline <leader>`, paying 22.3's penalty
  (avoiding the challenge: his Rally Points to his side's demoralization, no rally that Game-Turn).
- 22.2/7.241: both attack at once each round (each rolls on his own differential, as the phasing leader),
  wounds are applied at the end of the round, and rounds go on until one or both are dead; 7.251 gives
  the winner the loser's items and the Ring.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, InvalidOrder, State, clone
from engine.dice import Dice
from engine.hexgrid import distance
from engine.orders import Order
from engine.spi.common import pct
from engine.core import RulesetBase
from engine.spi.standard import StandardRules

from engine.spi import c04_movement
from engine.spi import c05_stacking
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.spi import c02_units
from engine.spi import c03_sequence


MAX_ROUNDS = 200


def ph_declined(rs, state: State) -> list[str]:
    return [u for u, t in state["sau"]["declined"].items() if t == state["turn"]]


def mortal_pair(rs, state: State, a: str, b: str) -> dict | None:
    """An accepted challenge between ``a`` and ``b``, once they share a hex (22.1)."""
    for m in state["sau"]["mortal"]:
        if m["status"] == "accepted" and {m["challenger"], m["challenged"]} == {a, b} \
                and c02_units.on_map(rs, state, a) and c02_units.on_map(rs, state, b) \
                and state["units"][a]["hex"] == state["units"][b]["hex"]:
            return m
    return None


def cm_sum(rs, state: State, uid: str) -> int:
    return c07_22_leader_combat.combat_rating(rs, state, uid) + c07_22_leader_combat.morale_rating(rs, state, uid)


def may_challenge(rs, state: State, a: str, b: str) -> bool:
    """22.4 alone: the summed Combat and Morale differ by 3 or less."""
    return abs(cm_sum(rs, state, a) - cm_sum(rs, state, b)) <= rs.raw(state)["mortal_combat"]["max_difference"]


def _busy(rs, state: State, uid: str) -> bool:
    return any(uid in (m["challenger"], m["challenged"]) for m in state["sau"]["mortal"])

# --- challenge
def _parse_challenge(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {CHALLENGE.usage}")
    return (c02_units.resolve_unit(rs, words[0]), c02_units.resolve_unit(rs, words[1]))


def _check_challenge(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    a, b = args
    if not c07_22_leader_combat.variant(rs, state):
        raise IllegalOrder("Mortal Combat is a rule of the variant (options: variant=off leaves it out)", "22.0")
    if c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("a challenge is issued by the phasing side in its Combat Phase", "22.0")
    ua = c02_units._own_on_map(rs, state, seat, a)
    ub = rs.units.get(b)
    if not ua.is_leader or ub is None or not ub.is_leader or hooks.side_of(rs, state, b) == seat or not c02_units.on_map(rs, state, b):
        raise IllegalOrder(f"{a} must be your leader and {b} an enemy leader on the map", "22.0")
    rng = rs.raw(state)["mortal_combat"]["range"]
    d = distance(state["units"][a]["hex"], state["units"][b]["hex"])
    if d > rng:
        raise IllegalOrder(f"{b} is {d} hexes from {a}; a challenge reaches {rng}", "22.0")
    if not may_challenge(rs, state, a, b):
        raise IllegalOrder(f"{a} ({cm_sum(rs, state, a)}) and {b} ({cm_sum(rs, state, b)}): Combat + Morale "
                           "must differ by 3 or less", "22.4")
    if _busy(rs, state, a) or _busy(rs, state, b):
        raise IllegalOrder(f"{a} or {b} is already in a challenge", "22.0")
    if a in state["sau"]["evil"] or b in state["sau"]["evil"]:
        raise IllegalOrder("a leader turned evil takes no part in challenges (16.69 ruling)", "16.69")


def _apply_challenge(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    a, b = args
    state["sau"]["mortal"].append({"challenger": a, "challenged": b, "status": "asked", "turn": state["turn"]})
    other = c02_units.enemy(rs, seat)
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {a} challenges {b} to Mortal Combat (22.0). "
                         f"{c02_units.title_of(rs, other)} answers `accept {b}` or `decline {b}` in its next phase, "
                         "before it is done (22.3).", section="22.0")]


def answer_buttons(rs, state: State, seat: str, action: Action) -> list[tuple[str, str, str]]:
    """22.3 by button: the challenge notice carries Accept / Decline for the challenged leader's seat."""
    if action.verb != "challenge" or len(action.args) != 2:
        return RulesetBase.answer_buttons(rs, state, seat, action)
    b = action.args[1]
    who = hooks.side_of(rs, state, b)
    return [(who, f"accept {b}", "Accept"), (who, f"decline {b}", "Decline")]


def _legal_challenges(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat or not c07_22_leader_combat.variant(rs, state):
        return
    for a in sorted(state["units"]):
        if not (rs.units[a].is_leader and hooks.side_of(rs, state, a) == seat and c02_units.on_map(rs, state, a)):
            continue
        for b in sorted(state["units"]):
            if rs.units[b].is_leader and hooks.side_of(rs, state, b) != seat and c02_units.on_map(rs, state, b):
                act = Action("challenge", (a, b))
                if c03_sequence._ok(rs, state, seat, act):
                    yield act

# --- the answer
def _asked(rs, state: State, seat: str) -> list[dict]:
    return [m for m in state["sau"]["mortal"] if m["status"] == "asked"
            and hooks.side_of(rs, state, m["challenged"]) == seat and not _same_phase(rs, state, m)]


def _same_phase(rs, state: State, m: dict) -> bool:
    """The challenge was issued in the phase now running (the answer waits for the next phase)."""
    return m["turn"] == state["turn"] and c03_sequence.phasing(rs, state) == hooks.side_of(rs, state, m["challenger"]) \
        and c03_sequence.kind(rs, state) == "combat"


def _parse_accept(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 1:
        raise InvalidOrder(f"usage: {ACCEPT.usage}")
    return (c02_units.resolve_unit(rs, words[0]),)


def _parse_decline(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 1:
        raise InvalidOrder(f"usage: {DECLINE.usage}")
    return (c02_units.resolve_unit(rs, words[0]),)


def _check_answer(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    leader, = args
    if seat not in rs.active_seats(state):
        raise IllegalOrder("you answer a challenge in your own phase", CHALLENGE_22_3.section)
    if not any(p["leader"] == leader for p in _challenges_waiting(rs, state) if p["seat"] == seat):
        raise IllegalOrder(f"{leader} has no challenge to answer now", CHALLENGE_22_3.section)


def _answer(rs, state: State, seat: str, leader: str) -> dict:
    return next(m for m in _asked(rs, state, seat) if m["challenged"] == leader)


def _apply_accept(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, = args
    m = _answer(rs, state, seat, leader)
    m["status"] = "accepted"
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} accepts {m['challenger']}'s challenge. In each of "
                         "their movement phases both now move as near to the other as they can, until one "
                         "enters the other's hex; Mortal Combat follows in the next Combat Phase once they "
                         "share one (22.1).", section="22.1")]


def decline_points(rs, state: State, leader: str) -> int:
    """22.3: what avoiding a challenge adds to the leader's side's demoralization, his current Rally Points."""
    return c08_3_rally.leader_rating(rs, state, leader, for_rally=False)


def _declined(rs, state: State, m: dict, leader: str) -> int:
    """22.3's cost of declining (or backing out of) the Mortal Combat ``m``: the combat is off, the leader's
    army takes his Rally Points as demoralization and he may not rally this Game-Turn; returns the points."""
    state["sau"]["mortal"].remove(m)
    pts = decline_points(rs, state, leader)
    army = c02_units.army_of(rs, leader)
    state["sau"]["dem_extra"][army] = state["sau"]["dem_extra"].get(army, 0) + pts
    state["sau"]["declined"][leader] = state["turn"]
    return pts


def _apply_decline(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, = args
    m = _answer(rs, state, seat, leader)
    pts = _declined(rs, state, m, leader)
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} declines {m['challenger']}'s challenge: +{pts} "
                         f"demoralization (his Rally Points) and he may not rally this Game-Turn (22.3).",
                  section="22.3")]


def _legal_answers(rs, state: State, seat: str) -> Iterator[Action]:
    yield from pending.answers_of(rs.decisions, rs, state, _challenges_waiting(rs, state), seat, "accept")


def _legal_declines(rs, state: State, seat: str) -> Iterator[Action]:
    yield from pending.answers_of(rs.decisions, rs, state, _challenges_waiting(rs, state), seat, "decline")


def _unanswered(rs, state: State, seat: str) -> list[str]:
    return [p["leader"] for p in _challenges_waiting(rs, state) if p["seat"] == seat]

# --- 22.3 the question as a pending decision (engine/pending.py)
def _challenges_waiting(rs, state: State) -> list[dict]:
    """The challenges asked and waiting for their answer (22.3), as decision records: the challenged
        leader's seat answers in its next phase (not the one it was issued in). The challenge itself stays
        in ``state["sau"]["mortal"]`` (it outlives the answer: 22.1's approach, 22.2's fight); the record
        is read from it, so that the answer is not kept twice."""
    return [pending.new(CHALLENGE_22_3, hooks.side_of(rs, state, m["challenged"]), leader=m["challenged"],
                        challenger=m["challenger"])
            for m in state["sau"]["mortal"] if m["status"] == "asked" and not _same_phase(rs, state, m)]


def waiting_decisions(rs, state: State) -> list[dict]:
    """The Standard Rules' queue (7.5), then the challenges waiting for their answer (22.3)."""
    return StandardRules.waiting_decisions(rs, state) + _challenges_waiting(rs, state)


def _challenge_legal(rs, state: State, p: dict) -> Iterator[Action]:
    """Accept or decline, in the seat's own phase while no retreat waits (7.5 holds up play first)."""
    if p["seat"] in rs.active_seats(state) and not state["pending"]:
        yield Action("accept", (p["leader"],))
        yield Action("decline", (p["leader"],))


def _challenge_awaited(rs, state: State, p: dict) -> str:
    return f"answer {p['challenger']}'s challenge to {p['leader']}"


def _challenge_first(rs, state: State, p: dict) -> str:
    left = _unanswered(rs, state, p["seat"])
    return f"answer the challenge to {', '.join(left)} first: `accept {left[0]}` or `decline {left[0]}`"


def _challenge_autopilot(rs, state: State, p: dict) -> Action:
    return challenge_answer(rs, state, p)  # what costs the side less (issue 42), below


# 22.3: an offer among the seat's other orders (it holds up nothing), answered before its seat is done
CHALLENGE_22_3 = pending.Decision("challenge", "22.3", ("accept", "decline"), legal=_challenge_legal,
                                  awaited=_challenge_awaited, first=_challenge_first, offer=True,
                                  before_done=True, autopilot=_challenge_autopilot)

# --- 4.27 opened for the two, 22.1
def may_enter_enemy_leaders(rs, state: State, uids: list[str]) -> bool:
    if all(rs.units[u].is_leader and any(m["status"] == "accepted" and u in (m["challenger"], m["challenged"])
                                           for m in state["sau"]["mortal"]) for u in uids):
        return True
    return StandardRules.hooks.may_enter_enemy_leaders(rs, state, uids)


def meeting_check(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    """22.1: the only enemy leader a challenger may join is the one who accepted (and back). A step of
        Sauron's ``MOVE_END``, with the leaders' stacking (8.1) after it: together, where a leader may
        end a move (``LEADER_MAY_END``)."""
    foes = [x for x in occ.get(dest, ()) if hooks.side_of(rs, state, x) != seat and rs.units[x].is_leader]
    for f in foes:
        for u in uids:
            if not any(m["status"] == "accepted" and {u, f} == {m["challenger"], m["challenged"]}
                       for m in state["sau"]["mortal"]):
                raise IllegalOrder(f"{dest} holds {f}: a leader enters an enemy leader's hex only to meet the "
                                   "one who accepted his challenge, or who challenged him", "22.1")


def approach_move_end(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    """22.1, a step of Sauron's ``MOVE_END``: a leader bound to close ends his move as near to his
        opponent as he can (``approach_check``)."""
    approach_check(rs, state, seat, uids, dest)

# --- 22.1 the approach: both leaders close until one is in the other's hex
def approach_duties(rs, state: State, seat: str) -> list[tuple[str, str]]:
    """(leader of ``seat``, his opponent) for each accepted challenge whose leader must still close
        this phase (22.1): the two are on the map and apart, this is a phase in which he moves (his
        side's Movement Phase, a magic leader's Magic Leader Phase, 8.52) and he has not moved in it."""
    k = c03_sequence.kind(rs, state)
    if state["turn"] == 0 or k not in ("move", "magic") or c03_sequence.phasing(rs, state) != seat:
        return []
    out = []
    for m in state["sau"]["mortal"]:
        if m["status"] != "accepted":
            continue
        for me, foe in ((m["challenged"], m["challenger"]), (m["challenger"], m["challenged"])):
            if (hooks.side_of(rs, state, me) == seat and c02_units.on_map(rs, state, me) and c02_units.on_map(rs, state, foe)
                    and state["units"][me]["hex"] != state["units"][foe]["hex"]
                    and me not in state["ph"]["moved"] and c04_movement._mover_kind(rs, state, seat, me) == k):
                out.append((me, foe))
    return out


def approach_reach(rs, state: State, seat: str, me: str, foe: str) -> tuple[int, int]:
    """(how far ``me`` is from ``foe`` now, the nearest he can end this phase) (22.1): over the hexes
        his stack (himself, or his formation, 8.4) may end a move in. A leader who may not move now
        (frozen, having cast) can come no nearer."""
    here, there = state["units"][me]["hex"], state["units"][foe]["hex"]
    now = distance(here, there)
    occ = c05_stacking.occupancy(rs, state)
    key = (state["turn"], state["step"], tuple(state["ph"]["moved"]), me, foe,
           tuple(sorted((u, r["hex"]) for u, r in state["units"].items() if r["hex"])),
           state["sau"]["gates"], len(state["effects"]), state["dice"]["counter"])
    cache = rs.__dict__.setdefault("_approach_cache", {})
    if key in cache:
        return cache[key]
    movers = c04_movement._stack_of(rs, state, (me,))
    best = now
    try:
        rs.hooks._check_movers(rs, state, seat, movers)
    except IllegalOrder:
        pass
    else:
        for h in c04_movement._reach(rs, state, seat, movers, occ):
            hx = str(h)
            d = distance(hx, there)
            if d >= best or hx == here:
                continue
            try:
                c05_stacking._check_stacking(rs, state, seat, movers, hx, occ)
                for step in rs.LEADER_MAY_END:  # 22.1's meeting, 8.1's leaders' stacking
                    step(rs, state, seat, movers, hx, occ)
            except IllegalOrder:
                continue
            best = d
    if len(cache) > 64:
        cache.clear()
    cache[key] = (now, best)
    return now, best


def approach_check(rs, state: State, seat: str, uids: list[str], dest: str) -> None:
    """22.1: a bound leader's move ends as near to his opponent as he can reach this phase."""
    for me, foe in approach_duties(rs, state, seat):
        if me not in uids:
            continue
        now, best = approach_reach(rs, state, seat, me, foe)
        there = state["units"][foe]["hex"]
        if distance(dest, there) > best:
            where = f"into {foe}'s hex, {there}" if best == 0 else f"to {best} hex{'es' if best > 1 else ''} from {foe}"
            raise IllegalOrder(f"{me} accepted Mortal Combat with {foe} (or was accepted): he moves as near to "
                               f"him as he can, {where} (move him alone if his companions are slower)", "22.1")


def approach_pending(rs, state: State, seat: str) -> list[str]:
    """The bound leaders of ``seat`` who have not moved and could still come nearer (22.1)."""
    out = []
    for me, foe in approach_duties(rs, state, seat):
        now, best = approach_reach(rs, state, seat, me, foe)
        if best < now:
            out.append(f"{me} must move toward {foe} ({now} hexes away; he can reach {best})")
    return out


def check_done_approach(rs, state: State, seat: str) -> None:
    left = approach_pending(rs, state, seat)
    if left:
        raise IllegalOrder("; ".join(left) + ": a leader who has accepted Mortal Combat, and his challenger, "
                           "close until one is in the other's hex (`decline <leader>` backs out, with "
                           "22.3's penalty)", "22.1")


def approach_default(rs, state: State, seat: str) -> Action | None:
    """At a deadline: the first approach move of a bound leader who has not closed (22.1)."""
    for me, foe in approach_duties(rs, state, seat):
        now, best = approach_reach(rs, state, seat, me, foe)
        if best < now:
            for a in c04_movement._legal_moves(rs, state, seat, c03_sequence.kind(rs, state), only=me):
                if c03_sequence._ok(rs, state, seat, a):
                    return a
    return None


def _check_decline(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    """22.3, and (ruling) backing out of an accepted challenge: the same penalty."""
    leader, = args
    if _withdrawal(rs, state, seat, leader) is not None:
        return
    _check_answer(rs, state, seat, args)


def _withdrawal(rs, state: State, seat: str, leader: str) -> dict | None:
    """The accepted challenge ``leader`` of ``seat`` may back out of: when 22.1 binds him to close
        (his side's movement phase, before he has moved); not in any other phase, so that a late click
        on the challenge's Decline button is refused as an answer given already."""
    if state["pending"] or not any(me == leader for me, _ in approach_duties(rs, state, seat)):
        return None
    return next((m for m in state["sau"]["mortal"] if m["status"] == "accepted"
                 and leader in (m["challenger"], m["challenged"])), None)


def _apply_withdraw_or_decline(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, = args
    m = _withdrawal(rs, state, seat, leader)
    if m is None:
        return _apply_decline(rs, state, seat, args, dice)
    foe = m["challenged"] if m["challenger"] == leader else m["challenger"]
    pts = _declined(rs, state, m, leader)
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {leader} backs out of the Mortal Combat with {foe}: +{pts} "
                         f"demoralization (his Rally Points) and he may not rally this Game-Turn (22.1, 22.3).",
                  section="22.3")]


# --- 22.3 weighed: the answer of a seat nobody plays (issue 42; pending.Decision.autopilot)
def _deaths_cost(rs, state: State, dead: tuple[str, ...], killer: str | None, army: str, foe: str) -> int:
    """What the deaths of ``dead`` in Mortal Combat add to ``army``'s demoralization less what they add to
    ``foe``'s: played on a copy by the engine's own 7.222 (``_wound``): 20.2's Rally Points, and through
    7.251 the Ring's 20 points (16.61) and Narsil's (20.21)."""
    st = clone(state)
    for uid in dead:
        c07_22_leader_combat._wound(rs, st, uid, "k", killer=killer if len(dead) == 1 else None)
    added = {a: rs.hooks.dem_total(rs, st, a) - rs.hooks.dem_total(rs, state, a) for a in (army, foe)}
    return added[army] - added[foe]


def challenge_costs(rs, state: State, leader: str, challenger: str) -> dict:
    """What each answer to ``challenger``'s challenge costs ``leader``'s side in demoralization, by the
        engine's own odds (22.2 fought to the end, ``mortal_outcome``): ``decline``, 22.3's points;
        ``paid``, what the side has paid already for challenges avoided (22.3, in this game); ``accept``,
        the expected net cost of the fight (its own losses less the enemy's, a Fraction); ``dies`` and
        ``kills``, the chances that ``leader``, and ``challenger``, die."""
    army, foe = c02_units.army_of(rs, leader), c02_units.army_of(rs, challenger)
    end = mortal_outcome(rs, state, challenger, leader)  # "a": the challenger alone dies, "b": the leader alone
    accept = (end["b"] * _deaths_cost(rs, state, (leader,), challenger, army, foe)
              + end["a"] * _deaths_cost(rs, state, (challenger,), leader, army, foe)
              + end["both"] * _deaths_cost(rs, state, (leader, challenger), None, army, foe))
    return {"decline": decline_points(rs, state, leader), "paid": state["sau"]["dem_extra"].get(army, 0),
            "accept": accept, "dies": end["b"] + end["both"], "kills": end["a"] + end["both"]}


def challenge_answer(rs, state: State, p: dict) -> Action:
    """Issue 42: a challenged seat nobody plays answers by what costs its side less. It declines while
        what the side has paid for avoiding challenges, this one included (22.3), stays within what the
        fight is expected to cost; otherwise it accepts. So an opponent who challenges again and again
        takes, by declines, no more than one fight would cost in expectation, and a fight the odds favour
        is taken at once. The reason (public: ratings, wounds and the table are on every map) is the
        action's ``memo["why"]``."""
    leader, challenger = p["leader"], p["challenger"]
    c = challenge_costs(rs, state, leader, challenger)
    odds = (f"Mortal Combat: {leader} dies {pct(c['dies'])}, {challenger} dies {pct(c['kills'])}, "
            f"an expected net {float(c['accept']):+.1f} demoralization")
    paid = f", {c['paid']} paid already for challenges avoided" if c["paid"] else ""
    declining = f"declining: +{c['decline']} (22.3){paid}"
    if c["accept"] < c["decline"] + c["paid"]:
        why = f"{leader} accepts, the cheaper answer ({odds}; {declining})"
        return Action("accept", (leader,), memo={"why": why})
    why = f"{leader} declines, the cheaper answer ({declining}; {odds})"
    return Action("decline", (leader,), memo={"why": why})


def _legal_declines_and_withdrawals(rs, state: State, seat: str) -> Iterator[Action]:
    yield from _legal_declines(rs, state, seat)
    for me, foe in approach_duties(rs, state, seat):
        yield Action("decline", (me,))

# --- the fight, 22.2
def _mortal_fights(rs, state: State) -> list[Event]:
    events = []
    for m in list(state["sau"]["mortal"]):
        a, b = m["challenger"], m["challenged"]
        if not (c02_units.on_map(rs, state, a) and c02_units.on_map(rs, state, b)):
            state["sau"]["mortal"].remove(m)
            continue
        if m["status"] == "accepted" and state["units"][a]["hex"] == state["units"][b]["hex"]:
            state["sau"]["mortal"].remove(m)
            events.append(_mortal_combat(rs, state, a, b))
    return events


def _mortal_combat(rs, state: State, a: str, b: str) -> Event:
    d = Dice(state["dice"])
    lines = []
    for rnd in range(1, MAX_ROUNDS + 1):
        ta, tb = c07_22_leader_combat.leader_total(rs, state, a), c07_22_leader_combat.leader_total(rs, state, b)
        r1, r2 = d.d6(f"{a} in Mortal Combat"), d.d6(f"{b} in Mortal Combat")
        a_on_a, a_on_b = c07_22_leader_combat.lcrt_cell(rs, state, ta - tb, r1)   # a attacks: a's result / b's result
        b_on_b, b_on_a = c07_22_leader_combat.lcrt_cell(rs, state, tb - ta, r2)   # b attacks: b's result / a's result
        wa = [c07_22_leader_combat.cell_wounds(a_on_a), c07_22_leader_combat.cell_wounds(b_on_a)]
        wb = [c07_22_leader_combat.cell_wounds(a_on_b), c07_22_leader_combat.cell_wounds(b_on_b)]
        lines.append(f"round {rnd}: {a} ({ta}) die {r1} {a_on_a}/{a_on_b}, {b} ({tb}) die {r2} {b_on_b}/{b_on_a}")
        tot_a = "k" if "k" in wa else sum(wa)
        tot_b = "k" if "k" in wb else sum(wb)
        here = state["units"][a]["hex"]
        dies_a = _would_die(rs, state, a, tot_a)
        dies_b = _would_die(rs, state, b, tot_b)
        res_a = c07_22_leader_combat._wound(rs, state, a, tot_a, killer=None if dies_b else b) if tot_a else ""
        res_b = c07_22_leader_combat._wound(rs, state, b, tot_b, killer=None if dies_a else a) if tot_b else ""
        res = "; ".join(x for x in (res_a, res_b) if x)
        if res:
            lines[-1] += f": {res}"
        if dies_a or dies_b:
            break
    text = (f"Mortal Combat between {a} and {b} in {here} (22.2): " + "; ".join(lines) + ".")
    return Event(public=text, section="22.2", rolls=d.rolls)

# --- /odds, exactly (22.2 on 7.25)
def mortal_round_distribution(rs, state: State, a: str, b: str, wa: int | None = None,
                              wb: int | None = None) -> dict[tuple[int | str, int | str], Fraction]:
    """One round of Mortal Combat (22.2): each leader rolls on his own differential at once; each
        (wounds to ``a``, wounds to ``b``) (``"k"``: killed) with its chance over the 36 pairs of dice.
        ``wa``/``wb``: the wounds each has before the round (default: now)."""
    wa = c07_22_leader_combat.wounds(rs, state, a) if wa is None else wa
    wb = c07_22_leader_combat.wounds(rs, state, b) if wb is None else wb
    ta = c07_22_leader_combat.leader_total(rs, state, a) + c07_22_leader_combat.wounds(rs, state, a) - wa
    tb = c07_22_leader_combat.leader_total(rs, state, b) + c07_22_leader_combat.wounds(rs, state, b) - wb
    out: dict = {}
    for r1 in range(1, 7):
        a_on_a, a_on_b = c07_22_leader_combat.lcrt_cell(rs, state, ta - tb, r1)
        for r2 in range(1, 7):
            b_on_b, b_on_a = c07_22_leader_combat.lcrt_cell(rs, state, tb - ta, r2)
            hit_a = [c07_22_leader_combat.cell_wounds(a_on_a), c07_22_leader_combat.cell_wounds(b_on_a)]
            hit_b = [c07_22_leader_combat.cell_wounds(a_on_b), c07_22_leader_combat.cell_wounds(b_on_b)]
            key = ("k" if "k" in hit_a else sum(hit_a), "k" if "k" in hit_b else sum(hit_b))
            out[key] = out.get(key, Fraction(0)) + Fraction(1, 36)
    return out


def mortal_outcome(rs, state: State, a: str, b: str) -> dict[str, Fraction]:
    """The exact chances of Mortal Combat fought to the end (22.2): ``a`` alone dies, ``b`` alone dies,
        both die (the 200-round safety cap is left out: rounds where nobody is hurt only repeat)."""
    ea, eb = c07_22_leader_combat.endurance(rs, state, a), c07_22_leader_combat.endurance(rs, state, b)
    memo: dict[tuple[int, int], dict[str, Fraction]] = {}

    def solve(wa: int, wb: int) -> dict[str, Fraction]:
        if (wa, wb) in memo:
            return memo[(wa, wb)]
        res = {"a": Fraction(0), "b": Fraction(0), "both": Fraction(0)}
        stay = Fraction(0)
        for (xa, xb), p in mortal_round_distribution(rs, state, a, b, wa, wb).items():
            da = xa == "k" or (xa and wa + xa >= ea)
            db = xb == "k" or (xb and wb + xb >= eb)
            if da or db:
                res["both" if da and db else ("a" if da else "b")] += p
            elif not xa and not xb:
                stay += p
            else:
                for k, q in solve(wa + xa, wb + xb).items():
                    res[k] += p * q
        if stay and stay < 1:
            res = {k: v / (1 - stay) for k, v in res.items()}
        memo[(wa, wb)] = res
        return res

    return solve(c07_22_leader_combat.wounds(rs, state, a), c07_22_leader_combat.wounds(rs, state, b))


def mortal_odds(rs, state: State, a: str, b: str) -> str:
    ta, tb = c07_22_leader_combat.leader_total(rs, state, a), c07_22_leader_combat.leader_total(rs, state, b)
    rows = [f"**Mortal Combat: {a} ({ta}) against {b} ({tb})** (22.2: both roll at once each round, "
            f"{a} at {ta - tb:+d}, {b} at {tb - ta:+d} on 7.25, until one or both are dead):"]
    for (xa, xb), p in sorted(mortal_round_distribution(rs, state, a, b).items(), key=lambda kv: -kv[1]):
        rows.append(f"  first round, {a} {xa if xa == 'k' else f'{xa}w'}, {b} {xb if xb == 'k' else f'{xb}w'}: "
                    f"{pct(p)} ({p.numerator}/{p.denominator})")
    end = mortal_outcome(rs, state, a, b)
    rows.append(f"  to the end: {b} dies {pct(end['b'])}, {a} dies {pct(end['a'])}, both die {pct(end['both'])}")
    return "\n".join(rows)


def order_odds(rs, state: State, seat: str, action: Action) -> str | None:
    """``/odds duel A B`` (7.25; Mortal Combat once the two share a hex after an accepted challenge)
        and ``/odds challenge A B`` (the Mortal Combat it would lead to), under the variant."""
    if not c07_22_leader_combat.variant(rs, state) or action.verb not in ("duel", "challenge") or len(action.args) != 2:
        return StandardRules.hooks.order_odds(rs, state, seat, action)
    a, b = action.args
    if "BEA" in (a, b) and action.verb == "duel":
        return c07_22_leader_combat.duel_odds(rs, state, a, b)
    if not (rs.units[a].is_leader and rs.units[b].is_leader):
        return None
    if action.verb == "challenge" or mortal_pair(rs, state, a, b) is not None:
        return mortal_odds(rs, state, a, b)
    return c07_22_leader_combat.duel_odds(rs, state, a, b)


def _would_die(rs, state: State, uid: str, w) -> bool:
    return w == "k" or (bool(w) and c07_22_leader_combat.wounds(rs, state, uid) + int(w) >= c07_22_leader_combat.endurance(rs, state, uid))



def on_step_start(rs, state: State) -> list[Event]:
    """22.0: at the start of a Combat Phase, the accepted challenges whose leaders share a hex are fought."""
    return _mortal_fights(rs, state) if c03_sequence.kind(rs, state) == "combat" else []

# the orders of this file (engine/orders.py), each naming its functions above
CHALLENGE = Order("challenge", "`challenge <leader> <enemy leader>`, e.g. `challenge ISI GOR`",
              parse=_parse_challenge,
              check=_check_challenge,
              apply=_apply_challenge,
              legal=_legal_challenges,
              cases=("22.0", "22.4"),
              dice=False)
ACCEPT = Order("accept", "`accept <leader>` (a challenge to Mortal Combat)",
              parse=_parse_accept,
              check=_check_answer,
              apply=_apply_accept,
              legal=_legal_answers,
              cases=("22.1", "22.3"),
              dice=False)
DECLINE = Order("decline", "`decline <leader>` (a challenge to Mortal Combat, or one accepted)",
              parse=_parse_decline,
              check=_check_decline,
              apply=_apply_withdraw_or_decline,
              legal=_legal_declines_and_withdrawals,
              cases=("22.3", "22.1"),
              dice=False)
