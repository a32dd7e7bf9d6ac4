"""Battle (seed:002, Battle Actions: Ranged Attack; Ground Attack; How to do Battle;
Leaders (the modifiers table)): `fire` (archers and catapults, a hit per 6, the Banner of
Gondor exception), `attack` (up to 3 against up to 2 dice, highest against highest, ties
to the defender, leader / tower / courage / banner modifiers), its retreats (``retreat``), then
the free cavalry advance (``advance``); the losses are ``losses``'."""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.rulesets.risk_minas_tirith.common import (
    TITLES, OTHER, FOOT, ARCHERY, S_WALLS, S_RANGED, S_GROUND, S_RETREAT, _plural,
)
from engine.rulesets.risk_minas_tirith import advance, common, forces, losses, movement, retreat, turn


# `fire`, `attack`: each order's parse, check, legal actions and apply.


def _parse_shot(rs, verb: str, rest: list[str]) -> tuple[str, ...]:
    """``fire|attack <n> from <a> at <b>`` (``fire catapult ...`` too)."""
    if len(rest) != 5 or rest[1] != "from" or rest[3] != "at":
        raise common._usage(rs, verb)
    n = rest[0]
    if not (n.isdigit() and 1 <= int(n) <= 6) and not (verb == "fire" and n == "catapult"):
        raise common._usage(rs, verb)
    n = n if n == "catapult" else str(int(n))
    return (n, "from", forces._area(rs, rest[2]), "at", forces._area(rs, rest[4]))


def _archery(rs, state: State, aid: str) -> int:
    return sum(state["areas"][aid]["u"].get(t, 0) for t in ARCHERY)


def fire_dice(rs, state: State, seat: str, n: int, dst: str) -> tuple[int, bool]:
    """Dice rolled by ``n`` archer battalions at ``dst`` and whether the Gondor
        Banner exception applies (seed, Ranged Attack)."""
    banner = (seat == "evil" and rs.board.areas[dst].banner and state["areas"][dst]["side"] == "good")
    return (n // 2 if banner else n), banner


def _parse_fire(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return _parse_shot(rs, "fire", rest)


def _check_fire(rs, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
    n, src, dst = a[0], a[2], a[4]
    rec = state["areas"][src]
    if rec["side"] != seat or not rec["u"]:
        raise IllegalOrder(f"you have no battalions in {forces._name(rs, src)}", S_RANGED)
    if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
        raise IllegalOrder(f"no enemy battalions in {forces._name(rs, dst)}", S_RANGED)
    d = rs.board.distance(src, dst)
    if n == "catapult":
        if not rs.board.areas[src].catapult:
            raise IllegalOrder(f"there is no catapult in {forces._name(rs, src)}", S_RANGED)
        if src in state["catapults"] and not ignore_turn:
            raise IllegalOrder("a catapult performs one Ranged Attack per turn", S_RANGED)
        if d > rs.cards["limits"]["catapult_range"]:
            raise IllegalOrder(f"{forces._name(rs, dst)} is {d} Territories away; catapults reach 1, 2 or 3",
                               S_RANGED)
        return
    k = int(n)
    free = _archery(rs, state, src) - (0 if ignore_turn else state["fired"].get(src, 0))
    if k > free:
        raise IllegalOrder(f"{forces._name(rs, src)} has {max(free, 0)} archery battalions that have not fired "
                           "this turn (each fires once per turn)", S_RANGED)
    if d > rs.cards["limits"]["archer_range"]:
        raise IllegalOrder(f"{forces._name(rs, dst)} is {d} Territories away; archers reach 1 or 2", S_RANGED)
    dice, banner = fire_dice(rs, state, seat, k, dst)
    if banner:
        if k not in (2, 4, 6):
            raise IllegalOrder("at a Banner of Gondor, Evil fires with 2, 4 or 6 archer battalions "
                               "(1, 2 or 3 dice)", S_RANGED)
    elif k > 3:
        raise IllegalOrder("fire with 1, 2 or 3 archery battalions", S_RANGED)


def _legal_fire(rs, state: State, seat: str, aid: str) -> Iterator[Action]:
    B = rs.board
    if _archery(rs, state, aid) or B.areas[aid].catapult:
        for y in B.ids:
            if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"] and \
                    B.distance(aid, y) <= rs.cards["limits"]["catapult_range"]:
                for n in ("catapult", "6", "4", "3", "2", "1"):
                    yield Action("fire", (n, "from", aid, "at", y))


def _do_fire(rs, state, seat, a, dice):
    n, src, dst = a[0], a[2], a[4]
    turn._spend(rs, state)
    if n == "catapult":
        state["catapults"].append(src)
        k, banner = 1, False
        what = "the catapult"
    else:
        k, banner = fire_dice(rs, state, seat, int(n), dst)
        state["fired"][src] = state["fired"].get(src, 0) + int(n)
        what = _plural(int(n), "archery battalion")
    rolls = dice.roll(k, label="Ranged attack")
    hits = rolls.count(6)
    lost = losses._take_losses(rs, state, dst, hits)
    note = " (Banner of Gondor: half the dice)" if banner else ""
    return [Event(public=f"{TITLES[seat]} fires {what} from {forces._name(rs, src)} at {forces._name(rs, dst)}{note}: "
                         f"{rolls}; {_plural(hits, 'hit')}; {TITLES[OTHER[seat]]} loses {losses._loss_text(lost)}.",
                  section=S_RANGED)]


def _parse_attack(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return _parse_shot(rs, "attack", rest)


def _check_attack(rs, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
    n, src, dst = int(a[0]), a[2], a[4]
    rec = state["areas"][src]
    if rec["side"] != seat or not rec["u"]:
        raise IllegalOrder(f"you have no battalions in {forces._name(rs, src)}", S_GROUND)
    if n > 3:
        raise IllegalOrder("attack with 1, 2 or 3 battalions", S_GROUND)
    if dst not in rs.board.areas[src].adj:
        raise IllegalOrder(f"{forces._name(rs, dst)} does not border {forces._name(rs, src)}", S_GROUND)
    if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
        raise IllegalOrder(f"no enemy battalions in {forces._name(rs, dst)}", S_GROUND)
    # ruling: you attack across a border only where your attackers could move (walls, Gate)
    onto_wall = rs.board.areas[dst].kind == "wall"
    usable = sum(rec["u"].get(t, 0) for t in FOOT) if onto_wall else sum(rec["u"].values())
    if n > usable:
        what = "infantry battalions" if onto_wall else "battalions"
        raise IllegalOrder(f"{forces._name(rs, src)} has {usable} {what} that could attack there, not {n}", S_GROUND)
    probe = {"infantry": 1} if onto_wall else {}
    fake = dict(state)
    fake["areas"] = dict(state["areas"])
    fake["areas"][dst] = {"side": None, "u": {}, "leaders": []}
    why = movement._enter_ok(rs, fake, seat, src, dst, probe, [])
    if why:
        raise IllegalOrder(why + " (so you cannot attack there either)", S_WALLS)


def _legal_attacks(rs, state: State, seat: str, aid: str) -> Iterator[Action]:
    for y in rs.board.areas[aid].adj:
        if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"]:
            for n in (3, 2, 1):
                yield Action("attack", (str(n), "from", aid, "at", y))


def modifiers(rs, state: State, seat: str, src: str, dst: str) -> tuple[int, int, list[str]]:
    """(attack bonus, defence bonus, reasons) on the highest die (seed, Leaders table)."""
    att, dfn, why = 0, 0, []
    if state["areas"][src]["leaders"]:
        att += 1
        why.append("attacking leader +1")
    if seat == "evil" and src in state["towers"]:
        att += 1
        why.append("Siege Tower +1")
    if state["flags"].get("courage"):
        att += 1
        why.append("Courage in Battle +1")
    if state["areas"][dst]["leaders"]:
        dfn += 1
        why.append("defending leader +1")
    if OTHER[seat] == "good" and rs.board.areas[dst].banner:
        dfn += 1
        why.append("Banner of Gondor +1 in defence")
    return att, dfn, why


def defence_dice(rs, state: State, dst: str) -> int:
    return min(rs.cards["limits"]["defence_dice"], forces._bn(state, dst))


def resolve_ground(rs, state: State, seat: str, n: int, src: str, dst: str,
                   att: list[int], dfn: list[int], choose=None) -> dict:
    """Apply one ground attack with the given dice (already rolled). Returns what happened.
        Retreats needing the owner's choice stay in ``queue`` unless ``choose`` picks (the odds)."""
    am, dm, _ = modifiers(rs, state, seat, src, dst)
    A, D = sorted(att, reverse=True), sorted(dfn, reverse=True)
    A2, D2 = list(A), list(D)
    A2[0] += am
    D2[0] += dm
    a_loss = d_loss = 0
    for x, y in zip(A2, D2):
        if x > y:
            d_loss += 1
        else:
            a_loss += 1
    good, evil = (seat, OTHER[seat]) if seat == "good" else (OTHER[seat], seat)
    good_rolls = att if seat == "good" else dfn
    evil_rolls = att if seat == "evil" else dfn
    good6 = good_rolls.count(6)
    evil_side_area = src if seat == "evil" else dst
    good_side_area = src if seat == "good" else dst
    naz = "nazgul" in state["areas"][evil_side_area]["leaders"]
    evil6 = evil_rolls.count(6) if naz else 0
    out = {"att_loss": a_loss, "def_loss": d_loss, "a_lost": {}, "d_lost": {}, "retreats": [],
           "turn_ends": False, "advance": 0, "queue": [], "assumed": False}
    out["a_lost"] = losses._take_losses(rs, state, src, a_loss)
    out["d_lost"] = losses._take_losses(rs, state, dst, d_loss)
    queue = []
    for side, area, sixes in (("evil", evil_side_area, good6), ("good", good_side_area, evil6)):
        if sixes and state["areas"][area]["side"] == side and state["areas"][area]["u"]:
            queue.append({"side": side, "area": area, "sixes": sixes})
            if side == seat:
                out["turn_ends"] = True
    out["queue"] = retreat.run_retreats(rs, state, queue, out, choose)
    if not out["queue"]:
        out["advance"] = advance._free_advance(rs, state, seat, n, src, dst, out["turn_ends"])
    _ = good, evil
    return out


def _do_attack(rs, state, seat, a, dice):
    n, src, dst = int(a[0]), a[2], a[4]
    turn._spend(rs, state)
    nd = defence_dice(rs, state, dst)
    att = dice.roll(n, label="attack")
    dfn = dice.roll(nd, label="defence")
    am, dm, why = modifiers(rs, state, seat, src, dst)
    r = resolve_ground(rs, state, seat, n, src, dst, att, dfn)
    mods = f" [{'; '.join(why)}]" if why else ""
    text = (f"{TITLES[seat]} attacks {forces._name(rs, dst)} from {forces._name(rs, src)} with {n}: "
            f"attack {att}, defence {dfn}{mods}. {TITLES[seat]} loses {losses._loss_text(r['a_lost'])}; "
            f"{TITLES[OTHER[seat]]} loses {losses._loss_text(r['d_lost'])}.")
    for rt in r["retreats"]:
        text += retreat._retreat_text(rs, rt)
    retreating = r["retreats"] or r["queue"]
    events = [Event(public=text, section=S_RETREAT if retreating else S_GROUND)]
    battle = {"seat": seat, "n": n, "src": src, "dst": dst, "turn_ends": r["turn_ends"]}
    if r["queue"]:
        if not turn._finish_if_won(rs, state, events):
            events.append(retreat._ask_retreat(rs, state, r["queue"], battle))
        return events
    advance._after_battle(rs, state, battle, dice, events)
    return events


# an offer (engine/pending.py): the attacking cavalry may advance into the cleared Territory at once; any
# other order of the seat lets the offer lapse
