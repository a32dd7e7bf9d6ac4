"""Cards (seed:002, 3. Exchange cards; Special Exchange; Minas Tirith cards): sets of
Reinforcement cards traded for Minas Tirith cards (`exchange`, with its Special Exchange
options and `keep`), and the Minas Tirith cards played: leaders, siege towers, ladders,
extra actions, courage, healing (`play`), Grond (`ram`) and the Fell Beasts (`strike`)."""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, AmbiguousOrder, Event, IllegalOrder, InvalidOrder, State
from engine.rulesets.risk_minas_tirith.common import (
    TITLES, A_TITLE, OTHER, CODES, FROM_CODE, ALIASES, FOOT, S_EXCH, S_SPECIAL, S_WALLS, S_LEADERS, S_MT, _REVEALS, _plural,
)
from engine.rulesets.risk_minas_tirith import common, forces, losses, turn


# `exchange`, `keep`, `play`, `ram`, `strike`: each order's parse, check, legal actions and apply.


def _mt_card(rs, state: State, seat: str, tok: str) -> str:
    t = tok.lower()
    hand = state["hands"][seat]["mt"]
    if t in state["mt_defs"]:
        if t not in hand:
            raise IllegalOrder(f"you do not hold the Minas Tirith card `{t}`", S_MT)
        return t
    m = [c for c in hand if state["mt_defs"][c] == t or c.startswith(t)]
    if len(m) == 1:
        return m[0]
    if len(m) > 1:
        raise AmbiguousOrder(f"`{tok[:20]}` could be {', '.join(m)}", candidates=m)
    raise IllegalOrder(f"you hold no Minas Tirith card `{tok[:20]}`", S_MT)


def _card_key(c: str):
    i = 0
    while not c[i].isdigit():
        i += 1
    return ({"inf": 0, "cav": 1, "cre": 2, "wild": 3}[c[:i]], int(c[i:]))


def _parse_exchange(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) < 3:
        raise common._usage(rs, "exchange")
    cards = rest[:3]
    for c in cards:
        if c not in rs.reinforcement_cards:
            raise IllegalOrder(f"`{c[:12]}` is not a Reinforcement card (ids like inf3, cav12, cre5, wild1)",
                               S_EXCH)
    if len(set(cards)) != 3:
        raise InvalidOrder("three different cards, please")
    cards = sorted(cards, key=_card_key)
    tail = rest[3:]
    if not tail:
        return tuple(cards)
    if tail[0] != "special" or len(tail) < 2:
        raise common._usage(rs, "exchange")
    if tail[1:] == ["draw"]:
        return (*cards, "special", "draw")
    if tail[1] == "take" and len(tail) == 3:
        t = tail[2]
        if t not in state["mt_defs"]:
            m = [c for c in state["mt_discard"] if state["mt_defs"][c] == t]
            if not m:
                raise IllegalOrder(f"no Minas Tirith card `{t[:20]}` in the discard pile", S_SPECIAL)
            t = m[0]
        return (*cards, "special", "take", t)
    if tail[1] == "place" and len(tail) == 5 and tail[3] == "at":
        code = ALIASES.get(tail[2])
        if code is None:
            raise InvalidOrder(f"`{tail[2][:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum)")
        return (*cards, "special", "place", code, "at", forces._area(rs, tail[4]))
    raise common._usage(rs, "exchange")


def _check_set(rs, state: State, seat: str, cards: list[str], special: bool) -> str:
    """Whether ``seat`` may exchange the three ``cards`` (``special``: in a Special Exchange), whatever it
    takes for them: the set's type, else why not."""
    hand = state["hands"][seat]["reinf"]
    for c in cards:
        if c not in hand:
            raise IllegalOrder(f"you do not hold {c}", S_EXCH)
    typ = _set_type(rs, cards)
    if typ is None:
        raise IllegalOrder("a set is three of a kind (a wild card is any); one of each is not a set", S_EXCH)
    if not special:
        return typ
    if state["flags"]["special"]:
        raise IllegalOrder("one Special Exchange per turn", S_SPECIAL)
    if not any(rs.reinforcement_cards[c]["shield"] == seat for c in cards):
        raise IllegalOrder(f"a Special Exchange needs a card with the {TITLES[seat]} shield in the set", S_SPECIAL)
    return typ


def _check_exchange(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    typ = _check_set(rs, state, seat, list(a[:3]), len(a) > 3)
    if len(a) == 3:
        return
    opt = a[4]
    if opt == "draw":
        if not state["hidden"]["mt_deck"]:
            raise IllegalOrder("the Minas Tirith deck is empty", S_SPECIAL)
    elif opt == "take":
        cid = a[5]
        if cid not in state["mt_discard"]:
            raise IllegalOrder(f"{cid} is not in the Minas Tirith discard pile", S_SPECIAL)
        if forces._mt(rs, state, cid)["side"] not in (seat, "both"):
            raise IllegalOrder(f"{cid} is not {A_TITLE[seat]} card", S_SPECIAL)
    else:
        t = FROM_CODE[a[5]]
        aid = a[7]
        allowed = {"infantry": ["infantry", "archer"],
                   "cavalry": ["cavalry", "horse-archer"] if seat == "good" else ["cavalry"],
                   "creature": ["troll", "mumak"] if seat == "evil" else []}[typ]
        if t not in allowed:
            raise IllegalOrder(f"a {typ} set places {' or '.join(allowed) or 'nothing for Good'}", S_SPECIAL)
        if t not in rs.cards["forces"][seat]:
            raise IllegalOrder(f"{TITLES[seat]} has no {t} battalions", S_SPECIAL)
        if forces._pool(rs, state, seat, t) < 1:
            raise IllegalOrder(f"no {t} battalion left in your supply", "Set up")
        rec = state["areas"][aid]
        if rec["side"] != seat or not rec["u"]:
            raise IllegalOrder(f"place it in a Territory where you have battalions; {aid} is not one", S_SPECIAL)
        if rs.board.areas[aid].kind == "wall" and t not in FOOT:
            raise IllegalOrder("only infantry may stand on the walls", S_WALLS)


def _set_type(rs, cards: list[str]) -> str | None:
    types = {rs.reinforcement_cards[c]["type"] for c in cards} - {"wild"}
    return types.pop() if len(types) == 1 else None


def _legal_exchanges(rs, combos: list[tuple[str, ...]]) -> Iterator[Action]:
    for c in combos:
        yield Action("exchange", c)


def _legal_special_exchanges(rs, state: State, seat: str, combos: list[tuple[str, ...]],
                             mine: list[str]) -> Iterator[Action]:
    """The Special Exchanges worth checking: of each set the exchange may take in one (:func:`_check_set`,
    asked once a set, not once for each of its hundred choices of what it gives)."""
    for c in combos:
        try:
            _check_set(rs, state, seat, list(c), True)
        except IllegalOrder:
            continue
        yield Action("exchange", (*c, "special", "draw"))
        for d in state["mt_discard"]:
            yield Action("exchange", (*c, "special", "take", d))
        for code in CODES.values():
            for aid in mine:
                yield Action("exchange", (*c, "special", "place", code, "at", aid))


def _draw_mt(rs, state: State, seat: str) -> tuple[str | None, str]:
    deck = state["hidden"]["mt_deck"]
    if not deck:
        return None, "the Minas Tirith deck is empty (no reshuffle)"
    c = deck.pop(0)
    mt = forces._mt(rs, state, c)
    if mt["side"] in (seat, "both"):
        state["hands"][seat]["mt"].append(c)
        return c, f"draws {mt['name']} ({c})"
    state["mt_discard"].append(c)
    return None, f"draws {mt['name']} ({c}), {A_TITLE[OTHER[seat]]} card, and discards it"


def _do_exchange(rs, state, seat, a, dice):
    cards = list(a[:3])
    hand = state["hands"][seat]["reinf"]
    for c in cards:
        hand.remove(c)
    state["reinf_discard"].extend(cards)
    typ = _set_type(rs, cards)
    head = f"{TITLES[seat]} exchanges {', '.join(cards)} ({typ} set)"
    if len(a) == 3:
        _, what = _draw_mt(rs, state, seat)
        return [Event(public=f"{head} and {what}.", section=S_EXCH, **_REVEALS)]
    state["flags"]["special"] = True
    opt = a[4]
    if opt == "draw":
        deck = state["hidden"]["mt_deck"]
        two = [deck.pop(0) for _ in range(min(2, len(deck)))]
        mine = [c for c in two if forces._usable(rs, state, c, seat)]
        for c in two:
            if c not in mine:
                state["mt_discard"].append(c)
        names = ", ".join(f"{forces._mt(rs, state, c)['name']} ({c})" for c in two)
        if len(mine) == 2:
            state["pending"] = pending.new(KEEP_ONE, seat, keep=mine)
            return [Event(public=f"{head}, a Special Exchange: draws {names}; keeps one (`keep <card>`).",
                          section=S_SPECIAL, **_REVEALS)]
        state["hands"][seat]["mt"].extend(mine)
        kept = f"keeps {mine[0]}" if mine else "can use neither; both discarded"
        return [Event(public=f"{head}, a Special Exchange: draws {names}; {kept}.", section=S_SPECIAL, **_REVEALS)]
    if opt == "take":
        cid = a[5]
        state["mt_discard"].remove(cid)
        state["hands"][seat]["mt"].append(cid)
        return [Event(public=f"{head}, a Special Exchange: takes {forces._mt(rs, state, cid)['name']} ({cid}) from the "
                             "discard pile.", section=S_SPECIAL)]
    t, aid = FROM_CODE[a[5]], a[7]
    forces._add(rs, state, aid, seat, {t: 1}, [])
    return [Event(public=f"{head}, a Special Exchange: places 1 {t} in {forces._name(rs, aid)}.", section=S_SPECIAL)]


def _parse_keep(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 1:
        raise common._usage(rs, "keep")
    return (rest[0],)


def _check_keep(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    pend = state["pending"] or {}
    if "keep" not in pend:
        raise IllegalOrder("there is no card to choose now", S_SPECIAL)
    if a[0] not in pend["keep"]:
        raise IllegalOrder(f"keep one of {', '.join(pend['keep'])}", S_SPECIAL)


def _legal_keep(rs, pend: dict) -> Iterator[Action]:
    for c in pend["keep"]:
        yield Action("keep", (c,))


def _do_keep(rs, state, seat, a, dice):
    two = state["pending"]["keep"]
    state["pending"] = None
    for c in two:
        (state["hands"][seat]["mt"] if c == a[0] else state["mt_discard"]).append(c)
    other = [c for c in two if c != a[0]]
    return [Event(public=f"{TITLES[seat]} keeps {a[0]} and discards {', '.join(other)}.", section=S_SPECIAL)]


def _parse_play(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) == 1:
        return (_mt_card(rs, state, seat, rest[0]),)
    if len(rest) == 3 and rest[1] == "at":
        return (_mt_card(rs, state, seat, rest[0]), "at", forces._area(rs, rest[2]))
    raise common._usage(rs, "play")


def _check_play(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    cid = a[0]
    mt = forces._mt(rs, state, cid)
    if not forces._usable(rs, state, cid, seat):
        raise IllegalOrder(f"{mt['name']} is not {A_TITLE[seat]} card", S_MT)
    kind = mt["kind"]
    at = a[2] if len(a) == 3 else None
    if kind in ("host", "ram", "strike"):
        raise IllegalOrder(f"{mt['name']} is used as an action: "
                           f"`{'enter' if kind == 'host' else kind} {cid}{' at <area>' if kind != 'ram' else ''}`",
                           S_MT)
    if kind in ("leader", "siege-tower"):
        if at is None:
            raise IllegalOrder(f"say where: `play {cid} at <area>`", S_MT)
        rec = state["areas"][at]
        if rec["side"] != seat or not rec["u"]:
            raise IllegalOrder(f"{forces._name(rs, at)} holds none of your battalions", S_MT)
        if kind == "leader":
            lid = mt["leader"]
            c = forces.leader_color(rs, lid)
            if forces._on_board(rs, state, lid):
                raise IllegalOrder(f"{forces._lname(rs, lid)} is already on the board", S_MT)
            if lid in state["lost"][seat]["leaders"]:
                raise IllegalOrder(f"{forces._lname(rs, lid)} is lost and does not come back", S_MT)
            if any(forces.leader_color(rs, x) == c for x in rec["leaders"]):
                raise IllegalOrder(f"two {c} leaders may not occupy the same Territory", S_LEADERS)
        else:
            if rs.board.areas[at].kind in ("wall", "city") or not any(
                    rs.board.areas[x].kind == "wall" for x in rs.board.areas[at].adj):
                raise IllegalOrder("a Siege Tower stands in a Territory bordering a wall of Minas Tirith", S_WALLS)
            if at in state["towers"]:
                raise IllegalOrder(f"a Siege Tower already stands in {forces._name(rs, at)}", S_WALLS)
        return
    if at is not None:
        raise IllegalOrder(f"{mt['name']} is played without an area: `play {cid}`", S_MT)
    if kind == "healing":
        if not state["lost"][seat].get("infantry"):
            raise IllegalOrder("none of your infantry is lost", S_MT)
        if state["areas"]["city"]["side"] not in (seat, None):
            raise IllegalOrder("the City is not yours", S_MT)
    if kind == "ladders" and state["flags"]["ladders"]:
        raise IllegalOrder("Scaling Ladders are already in use this turn", S_WALLS)
    if kind == "courage" and state["flags"]["courage"]:
        raise IllegalOrder("Courage is already in play this turn", S_MT)


def _legal_play(rs, state: State, seat: str, cid: str, mine: list[str]) -> Iterator[Action]:
    if forces._mt(rs, state, cid)["kind"] in ("leader", "siege-tower"):
        for aid in mine:
            yield Action("play", (cid, "at", aid))
    else:
        yield Action("play", (cid,))


def _discard_mt(rs, state, seat, cid):
    state["hands"][seat]["mt"].remove(cid)
    state["mt_discard"].append(cid)


def _do_play(rs, state, seat, a, dice):
    cid = a[0]
    mt = forces._mt(rs, state, cid)
    kind = mt["kind"]
    at = a[2] if len(a) == 3 else None
    text = f"{TITLES[seat]} plays {mt['name']}"
    if kind == "leader":
        forces._add(rs, state, at, seat, {}, [mt["leader"]])
        _discard_mt(rs, state, seat, cid)
        text += f": {forces._lname(rs, mt['leader'])} joins the force in {forces._name(rs, at)}."
    elif kind == "siege-tower":
        state["hands"][seat]["mt"].remove(cid)
        state["mt_used"].append(cid)
        state["towers"].append(at)
        text += f" in {forces._name(rs, at)}: Evil infantry may climb the walls from there; +1 in attack from it."
    elif kind == "ladders":
        _discard_mt(rs, state, seat, cid)
        state["flags"]["ladders"] = True
        text += ": this turn Evil infantry and leaders may climb onto any wall from a bordering Territory."
    elif kind == "actions":
        _discard_mt(rs, state, seat, cid)
        state["actions"] += mt["bonus"]
        text += f": +{mt['bonus']} Action points this turn ({state['actions']} in all)."
    elif kind == "courage":
        _discard_mt(rs, state, seat, cid)
        state["flags"]["courage"] = True
        text += ": +1 on the highest die of your ground attacks this turn."
    elif kind == "healing":
        _discard_mt(rs, state, seat, cid)
        n = min(2, state["lost"][seat].get("infantry", 0), rs.cards["forces"][seat]["infantry"])
        state["lost"][seat]["infantry"] -= n
        forces._add(rs, state, "city", seat, {"infantry": n}, [])
        text += f": {_plural(n, 'lost infantry battalion')} return to the City."
    return [Event(public=text, section=S_MT)]


def _parse_card_at(rs, state: State, seat: str, verb: str, rest: list[str]) -> tuple[str, ...]:
    """``<verb> <mt> at <area>`` (enter, strike)."""
    if len(rest) != 3 or rest[1] != "at":
        raise common._usage(rs, verb)
    return (_mt_card(rs, state, seat, rest[0]), "at", forces._area(rs, rest[2]))


def _parse_ram(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 1:
        raise common._usage(rs, "ram")
    return (_mt_card(rs, state, seat, rest[0]),)


def _check_ram(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    mt = forces._mt(rs, state, a[0])
    if mt["kind"] != "ram" or not forces._usable(rs, state, a[0], seat):
        raise IllegalOrder(f"{mt['name']} is not a battering ram", S_MT)
    if state["gate_broken"]:
        raise IllegalOrder("the Gate is already broken", S_MT)
    g = rs.board.gate[1]
    if state["areas"][g]["side"] != seat or not state["areas"][g]["u"]:
        raise IllegalOrder(f"Grond needs your battalions in {forces._name(rs, g)}, under the Gate", S_MT)


def _legal_ram(rs, state: State, seat: str, cid: str) -> Iterator[Action]:
    if forces._mt(rs, state, cid)["kind"] == "ram":
        yield Action("ram", (cid,))


def _do_ram(rs, state, seat, a, dice):
    turn._spend(rs, state)
    g = rs.board.gate[1]
    need = 3 if state["areas"][g]["leaders"] else 4
    roll = dice.d6("Grond")
    if roll >= need:
        state["gate_broken"] = True
        _discard_mt(rs, state, seat, a[0])
        text = f"Grond strikes the Gate: {roll} (needs {need}+). The Gate is broken!"
    else:
        text = f"Grond strikes the Gate: {roll} (needs {need}+). The Gate holds."
    return [Event(public=text, section=S_MT)]


def _parse_strike(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return _parse_card_at(rs, state, seat, "strike", rest)


def _check_strike(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    mt = forces._mt(rs, state, a[0])
    if mt["kind"] != "strike" or not forces._usable(rs, state, a[0], seat):
        raise IllegalOrder(f"{mt['name']} does not strike", S_MT)
    aid = a[2]
    if state["areas"][aid]["side"] != OTHER[seat] or not state["areas"][aid]["u"]:
        raise IllegalOrder(f"no enemy battalions in {forces._name(rs, aid)}", S_MT)


def _legal_strike(rs, state: State, seat: str, cid: str) -> Iterator[Action]:
    if forces._mt(rs, state, cid)["kind"] == "strike":
        for y in rs.board.ids:
            if state["areas"][y]["side"] == OTHER[seat]:
                yield Action("strike", (cid, "at", y))


def _do_strike(rs, state, seat, a, dice):
    aid = a[2]
    turn._spend(rs, state)
    rolls = dice.roll(2, label="Fell Beasts")
    hits = rolls.count(6)
    lost = losses._take_losses(rs, state, aid, hits)
    _discard_mt(rs, state, seat, a[0])
    return [Event(public=f"Fell Beasts swoop on {forces._name(rs, aid)}: {rolls}; {_plural(hits, 'hit')}; "
                         f"{TITLES[OTHER[seat]]} loses {losses._loss_text(lost)}.", section=S_MT)]


# the pending decision (engine/pending.py): which of the two cards a Special Exchange drew to keep
def _legal_kept(rs, state: State, p: dict) -> Iterator[Action]:
    return _legal_keep(rs, p)


def _awaited_keep(rs, state: State, p: dict) -> str:
    return "choose which of the two drawn cards to keep"


def _first_keep(rs, state: State, p: dict) -> str:
    return "first choose which of the two drawn cards to keep: `keep <card>`"


KEEP_ONE = pending.Decision("keep", S_SPECIAL, answers=("keep",), legal=_legal_kept, awaited=_awaited_keep,
                            first=_first_keep)
