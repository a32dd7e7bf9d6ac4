"""Battle (seed:002, Battle Actions: Ranged Attack; Ground Attack; How to do Battle;
Leaders (the modifiers table)): `fire` (archers and catapults, a hit per 6, the Banner of
Gondor exception), `attack` (up to 3 against up to 2 dice, highest against highest, ties
to the defender, leader / tower / courage / banner modifiers), the free cavalry `advance`
into a cleared Territory, losses taken and given to the opponent, and the standing loss
priority (`losses`)."""
from __future__ import annotations

import itertools
from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.rulesets.risk_minas_tirith.common import (
    SEATS, TITLES, OTHER, TYPES, CODES, FROM_CODE, ALIASES, FOOT, MOUNTED, ARCHERY, LOSS_ORDER, S_WALLS, S_RANGED,
    S_GROUND, S_RETREAT, S_BATTLE, _group_text, _plural,
)


# `fire`, `attack`, `advance`, `losses`: each order's parse, check, legal actions and apply.


def _parse_shot(self, verb: str, rest: list[str]) -> tuple[str, ...]:
    """``fire|attack <n> from <a> at <b>`` (``fire catapult ...`` too)."""
    if len(rest) != 5 or rest[1] != "from" or rest[3] != "at":
        raise self._usage(verb)
    n = rest[0]
    if not (n.isdigit() and 1 <= int(n) <= 6) and not (verb == "fire" and n == "catapult"):
        raise self._usage(verb)
    n = n if n == "catapult" else str(int(n))
    return (n, "from", self._area(rest[2]), "at", self._area(rest[4]))


def _archery(self, state: State, aid: str) -> int:
    return sum(state["areas"][aid]["u"].get(t, 0) for t in ARCHERY)


def fire_dice(self, state: State, seat: str, n: int, dst: str) -> tuple[int, bool]:
    """Dice rolled by ``n`` archer battalions at ``dst`` and whether the Gondor
        Banner exception applies (seed, Ranged Attack)."""
    banner = (seat == "evil" and self.board.areas[dst].banner and state["areas"][dst]["side"] == "good")
    return (n // 2 if banner else n), banner


def _parse_fire(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return self._parse_shot("fire", rest)


def _check_fire(self, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
    n, src, dst = a[0], a[2], a[4]
    rec = state["areas"][src]
    if rec["side"] != seat or not rec["u"]:
        raise IllegalOrder(f"you have no battalions in {self._name(src)}", S_RANGED)
    if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
        raise IllegalOrder(f"no enemy battalions in {self._name(dst)}", S_RANGED)
    d = self.board.distance(src, dst)
    if n == "catapult":
        if not self.board.areas[src].catapult:
            raise IllegalOrder(f"there is no catapult in {self._name(src)}", S_RANGED)
        if src in state["catapults"] and not ignore_turn:
            raise IllegalOrder("a catapult performs one Ranged Attack per turn", S_RANGED)
        if d > self.cards["limits"]["catapult_range"]:
            raise IllegalOrder(f"{self._name(dst)} is {d} Territories away; catapults reach 1, 2 or 3",
                               S_RANGED)
        return
    k = int(n)
    free = self._archery(state, src) - (0 if ignore_turn else state["fired"].get(src, 0))
    if k > free:
        raise IllegalOrder(f"{self._name(src)} has {max(free, 0)} archery battalions that have not fired this turn "
                           "(each fires once per turn)", S_RANGED)
    if d > self.cards["limits"]["archer_range"]:
        raise IllegalOrder(f"{self._name(dst)} is {d} Territories away; archers reach 1 or 2", S_RANGED)
    dice, banner = self.fire_dice(state, seat, k, dst)
    if banner:
        if k not in (2, 4, 6):
            raise IllegalOrder("at a Banner of Gondor, Evil fires with 2, 4 or 6 archer battalions "
                               "(1, 2 or 3 dice)", S_RANGED)
    elif k > 3:
        raise IllegalOrder("fire with 1, 2 or 3 archery battalions", S_RANGED)


def _legal_fire(self, state: State, seat: str, aid: str) -> Iterator[Action]:
    B = self.board
    if self._archery(state, aid) or B.areas[aid].catapult:
        for y in B.ids:
            if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"] and \
                    B.distance(aid, y) <= self.cards["limits"]["catapult_range"]:
                for n in ("catapult", "6", "4", "3", "2", "1"):
                    yield Action("fire", (n, "from", aid, "at", y))


def _do_fire(self, state, seat, a, dice):
    n, src, dst = a[0], a[2], a[4]
    self._spend(state)
    if n == "catapult":
        state["catapults"].append(src)
        k, banner = 1, False
        what = "the catapult"
    else:
        k, banner = self.fire_dice(state, seat, int(n), dst)
        state["fired"][src] = state["fired"].get(src, 0) + int(n)
        what = _plural(int(n), "archery battalion")
    rolls = dice.roll(k, label="Ranged attack")
    hits = rolls.count(6)
    lost = self._take_losses(state, dst, hits)
    note = " (Banner of Gondor: half the dice)" if banner else ""
    return [Event(public=f"{TITLES[seat]} fires {what} from {self._name(src)} at {self._name(dst)}{note}: "
                         f"{rolls}; {_plural(hits, 'hit')}; {TITLES[OTHER[seat]]} loses {self._loss_text(lost)}.",
                  section=S_RANGED)]


def _parse_attack(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return self._parse_shot("attack", rest)


def _check_attack(self, state: State, seat: str, a: tuple[str, ...], ignore_turn: bool = False) -> None:
    n, src, dst = int(a[0]), a[2], a[4]
    rec = state["areas"][src]
    if rec["side"] != seat or not rec["u"]:
        raise IllegalOrder(f"you have no battalions in {self._name(src)}", S_GROUND)
    if n > 3:
        raise IllegalOrder("attack with 1, 2 or 3 battalions", S_GROUND)
    if dst not in self.board.areas[src].adj:
        raise IllegalOrder(f"{self._name(dst)} does not border {self._name(src)}", S_GROUND)
    if state["areas"][dst]["side"] != OTHER[seat] or not state["areas"][dst]["u"]:
        raise IllegalOrder(f"no enemy battalions in {self._name(dst)}", S_GROUND)
    # ruling: you attack across a border only where your attackers could move (walls, Gate)
    onto_wall = self.board.areas[dst].kind == "wall"
    usable = sum(rec["u"].get(t, 0) for t in FOOT) if onto_wall else sum(rec["u"].values())
    if n > usable:
        what = "infantry battalions" if onto_wall else "battalions"
        raise IllegalOrder(f"{self._name(src)} has {usable} {what} that could attack there, not {n}", S_GROUND)
    probe = {"infantry": 1} if onto_wall else {}
    fake = dict(state)
    fake["areas"] = dict(state["areas"])
    fake["areas"][dst] = {"side": None, "u": {}, "leaders": []}
    why = self._enter_ok(fake, seat, src, dst, probe, [])
    if why:
        raise IllegalOrder(why + " (so you cannot attack there either)", S_WALLS)


def _legal_attacks(self, state: State, seat: str, aid: str) -> Iterator[Action]:
    for y in self.board.areas[aid].adj:
        if state["areas"][y]["side"] == OTHER[seat] and state["areas"][y]["u"]:
            for n in (3, 2, 1):
                yield Action("attack", (str(n), "from", aid, "at", y))


def modifiers(self, state: State, seat: str, src: str, dst: str) -> tuple[int, int, list[str]]:
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
    if OTHER[seat] == "good" and self.board.areas[dst].banner:
        dfn += 1
        why.append("Banner of Gondor +1 in defence")
    return att, dfn, why


def defence_dice(self, state: State, dst: str) -> int:
    return min(self.cards["limits"]["defence_dice"], self._bn(state, dst))


def resolve_ground(self, state: State, seat: str, n: int, src: str, dst: str,
                   att: list[int], dfn: list[int], choose=None) -> dict:
    """Apply one ground attack with the given dice (already rolled). Returns what happened.
        Retreats needing the owner's choice stay in ``queue`` unless ``choose`` picks (the odds)."""
    am, dm, _ = self.modifiers(state, seat, src, dst)
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
    out["a_lost"] = self._take_losses(state, src, a_loss)
    out["d_lost"] = self._take_losses(state, dst, d_loss)
    queue = []
    for side, area, sixes in (("evil", evil_side_area, good6), ("good", good_side_area, evil6)):
        if sixes and state["areas"][area]["side"] == side and state["areas"][area]["u"]:
            queue.append({"side": side, "area": area, "sixes": sixes})
            if side == seat:
                out["turn_ends"] = True
    out["queue"] = self.run_retreats(state, queue, out, choose)
    if not out["queue"]:
        out["advance"] = self._free_advance(state, seat, n, src, dst, out["turn_ends"])
    _ = good, evil
    return out


def _free_advance(self, state: State, seat: str, n: int, src: str, dst: str, turn_ends: bool) -> int:
    """How many attacking cavalry may move in for free (seed, How to do Battle, Note)."""
    if turn_ends or self._side_of(state, dst) is not None or state["areas"][src]["side"] != seat:
        return 0
    cav = sum(state["areas"][src]["u"].get(t, 0) for t in MOUNTED)
    if cav and self._enter_ok(state, seat, src, dst, {"cavalry": 1}, []) is None:
        return min(n, cav)
    return 0


def _after_battle(self, state: State, battle: dict, dice: Dice, events: list[Event]) -> None:
    """Once every retreat of a ground attack is done: the free cavalry advance,
        or the end of a turn whose side was forced back (seed, Retreat)."""
    seat, src, dst = battle["seat"], battle["src"], battle["dst"]
    if self._finish_if_won(state, events):
        return
    adv = self._free_advance(state, seat, battle["n"], src, dst, battle["turn_ends"])
    if adv:
        state["pending"] = pending.new(FREE_ADVANCE, seat, advance={"from": src, "to": dst, "max": adv})
        events.append(Event(public=f"{self._name(dst)} is cleared: up to {adv} attacking cavalry may "
                                   f"advance for free (`advance <n>cav from {src} to {dst}`).", section=S_GROUND))
    if battle["turn_ends"]:
        events.append(Event(public=f"{TITLES[seat]} was forced to retreat: the turn ends.", section=S_RETREAT))
        events.extend(self._end_turn(state, dice))


def _do_attack(self, state, seat, a, dice):
    n, src, dst = int(a[0]), a[2], a[4]
    self._spend(state)
    nd = self.defence_dice(state, dst)
    att = dice.roll(n, label="attack")
    dfn = dice.roll(nd, label="defence")
    am, dm, why = self.modifiers(state, seat, src, dst)
    r = self.resolve_ground(state, seat, n, src, dst, att, dfn)
    mods = f" [{'; '.join(why)}]" if why else ""
    text = (f"{TITLES[seat]} attacks {self._name(dst)} from {self._name(src)} with {n}: attack {att}, defence "
            f"{dfn}{mods}. {TITLES[seat]} loses {self._loss_text(r['a_lost'])}; "
            f"{TITLES[OTHER[seat]]} loses {self._loss_text(r['d_lost'])}.")
    for rt in r["retreats"]:
        text += self._retreat_text(rt)
    retreat = r["retreats"] or r["queue"]
    events = [Event(public=text, section=S_RETREAT if retreat else S_GROUND)]
    battle = {"seat": seat, "n": n, "src": src, "dst": dst, "turn_ends": r["turn_ends"]}
    if r["queue"]:
        if not self._finish_if_won(state, events):
            events.append(self._ask_retreat(state, r["queue"], battle))
        return events
    self._after_battle(state, battle, dice, events)
    return events


def _parse_advance(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return self._parse_route(state, seat, "advance", rest)


def _check_advance(self, state: State, seat: str, a: tuple[str, ...]) -> None:
    pend = state["pending"] or {}
    adv = pend.get("advance")
    g, leaders, src, via, dst = self._split_move(a)
    if not adv or adv["from"] != src or adv["to"] != dst:
        raise IllegalOrder("a free advance follows at once an attack that cleared the Territory", S_GROUND)
    if leaders or any(t not in MOUNTED for t in g):
        raise IllegalOrder("only the attacking cavalry advance for free", S_GROUND)
    if sum(g.values()) > adv["max"]:
        raise IllegalOrder(f"at most {adv['max']} attacking cavalry may advance", S_GROUND)
    self._check_group_at(state, seat, src, g, leaders, S_GROUND)
    why = self._enter_ok(state, seat, src, dst, g, leaders)
    if why:
        raise IllegalOrder(why, S_GROUND)


def _legal_advance(self, state: State, pend: dict) -> Iterator[Action]:
    adv = pend.get("advance")
    if adv:
        rec = state["areas"][adv["from"]]
        for g in self._advance_groups(rec, adv["max"]):
            yield Action("advance", (*_group_text(g, []).split(), "from", adv["from"], "to", adv["to"]))


@staticmethod
def _advance_groups(rec: dict, most: int) -> Iterator[dict[str, int]]:
    """Every split of the area's cavalry of at most ``most`` battalions (at most 3: the
        attackers), largest counts first (seed, How to do Battle, Note)."""
    types = [t for t in TYPES if rec["u"].get(t) and t in MOUNTED]
    for counts in itertools.product(*(range(min(rec["u"][t], most), -1, -1) for t in types)):
        g = {t: c for t, c in zip(types, counts) if c}
        if g and sum(g.values()) <= most:
            yield g


def _do_advance(self, state, seat, a, dice):
    g, leaders, src, via, dst = self._split_move(a)
    self._remove(state, src, g, leaders)
    self._add(state, dst, seat, g, leaders)
    self._move_fired(state, src, dst, g)
    state["pending"] = None
    return [Event(public=f"{TITLES[seat]}'s cavalry advance for free: {_group_text(g, [])} from "
                         f"{self._name(src)} to {self._name(dst)}.", section=S_GROUND)]


def default_priority(self, side: str) -> list[str]:
    """Cheapest first (LOSS_ORDER), only the types ``side`` has (seed, Set up)."""
    return [t for t in LOSS_ORDER if t in self.cards["forces"][side]]


def loss_priority(self, state: State, side: str) -> list[str]:
    """The owner's standing loss priority (``losses`` order), first lost first."""
    have = (state.get("loss_priority") or {}).get(side) or []
    return list(have) + [t for t in LOSS_ORDER if t not in have]


def _take_losses(self, state: State, aid: str, n: int) -> dict[str, int]:
    """Remove ``n`` battalions in the owner's standing loss priority (``losses``
        order; default cheapest first) and hand them to the opponent; if the area is
        emptied of battalions its leaders are captured (seed, How to do Battle)."""
    rec = state["areas"][aid]
    side = rec["side"]
    lost: dict[str, int] = {}
    order = self.loss_priority(state, side) if side in SEATS else list(LOSS_ORDER)
    for _ in range(n):
        for t in order:
            if rec["u"].get(t):
                rec["u"][t] -= 1
                if not rec["u"][t]:
                    del rec["u"][t]
                lost[t] = lost.get(t, 0) + 1
                state["lost"][side][t] = state["lost"][side].get(t, 0) + 1
                break
    arch = sum(rec["u"].get(t, 0) for t in ARCHERY)
    if state["fired"].get(aid, 0) > arch:
        state["fired"][aid] = arch
    if not rec["u"] and rec["leaders"] and side is not None:
        state["lost"][side]["leaders"].extend(rec["leaders"])
        lost["leaders"] = len(rec["leaders"])
        rec["leaders"] = []
    if not rec["u"] and not rec["leaders"]:
        rec["side"] = None
    return lost


@staticmethod
def _loss_text(lost: dict[str, int]) -> str:
    many = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse-archers",
            "troll": "trolls", "mumak": "mumakil", "leaders": "leaders"}
    parts = [f"{n} {t if t != 'leaders' else 'leader'}" if n == 1 else f"{n} {many.get(t, t)}"
             for t, n in lost.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _parse_losses(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    """``losses cav inf`` -> the full priority: the types named first, in that order,
        then the seat's other types in their current order (canonical: every type)."""
    if not rest:
        raise self._usage("losses")
    if seat not in SEATS:
        raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
    mine = self.default_priority(seat)
    if rest == ["default"]:
        return tuple(CODES[t] for t in mine)
    named: list[str] = []
    for word in rest:
        code = ALIASES.get(word)
        if code is None:
            raise InvalidOrder(f"`{word[:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum); "
                               "e.g. `losses inf arc cav`")
        t = FROM_CODE[code]
        if t not in mine:
            raise IllegalOrder(f"{TITLES[seat]} has no {t} battalions; its types are "
                               f"{' '.join(CODES[x] for x in mine)}", S_BATTLE)
        if t in named:
            raise InvalidOrder(f"`{code}` is named twice; give each type once, first lost first")
        named.append(t)
    cur = [t for t in self.loss_priority(state, seat) if t in mine]
    return tuple(CODES[t] for t in named + [t for t in cur if t not in named])


def _check_losses(self, state: State, seat: str, a: tuple[str, ...]) -> None:
    mine = [CODES[t] for t in self.default_priority(seat)]
    if sorted(a) != sorted(mine):
        raise InvalidOrder(f"name each of your types once: {' '.join(mine)}")


def _loss_suggestions(self, state: State, seat: str) -> Iterator[Action]:
    """A few sensible standing loss priorities (any seat, any time), offered only
        when the seat has two or more battalion types on the board and they differ from
        the current one: cheapest first (the default), archers kept longest, dearest first.
        Any other order of the types is accepted when typed."""
    mine = self.default_priority(seat)
    have = {t for r in state["areas"].values() if r["side"] == seat for t, n in r["u"].items() if n}
    if len(have) < 2:
        return
    cur = [t for t in self.loss_priority(state, seat) if t in mine]
    arch_last = [t for t in mine if t not in ARCHERY] + [t for t in mine if t in ARCHERY]
    seen = [cur]
    for cand in (mine, arch_last, mine[::-1]):
        if cand not in seen:
            seen.append(cand)
            yield Action("losses", tuple(CODES[t] for t in cand))


def _do_losses(self, state, seat, a, dice):
    old = self.loss_priority(state, seat)
    new = [FROM_CODE[c] for c in a]
    state.setdefault("loss_priority", {s: self.default_priority(s) for s in SEATS})[seat] = new
    names = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse archers",
             "troll": "trolls", "mumak": "mumakil"}
    same = " (unchanged)" if [t for t in old if t in new] == new else ""
    return [Event(public=f"{TITLES[seat]}'s standing loss priority{same}, first lost first: "
                         f"{', '.join(names[t] for t in new)} (`losses {' '.join(a)}`).", section=S_BATTLE)]


# an offer (engine/pending.py): the attacking cavalry may advance into the cleared Territory at once; any
# other order of the seat lets the offer lapse
def _legal_free_advance(self, state: State, p: dict) -> Iterator[Action]:
    return self._legal_advance(state, p)


def _awaited_advance(self, state: State, p: dict) -> str:
    return "advance its cavalry"


def _first_advance(self, state: State, p: dict) -> str:
    return "a free advance follows at once an attack that cleared the Territory"


FREE_ADVANCE = pending.Decision("advance", S_GROUND, answers=("advance",), legal=_legal_free_advance,
                                awaited=_awaited_advance, first=_first_advance, offer=True)
