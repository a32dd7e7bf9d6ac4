"""The turn sequence (seed:002, Gameplay; 1. Select an Action die; 2. Draw Reinforcement
cards; 4. Actions; Leaders; Winning the Game; Calculating Points): rounds of three turns, the
Action dice, `take <die>` (Action points and cards drawn), `done`, the end of a turn (a
leader alone, or two leaders of one colour, removed), and the end of the game."""
from __future__ import annotations

from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, Result, State
from engine.dice import Dice
from engine.rulesets.risk_minas_tirith.common import (
    SEATS, TITLES, OTHER, TYPES, S_TURN, S_DIE, S_DRAW, S_EXCH, S_ACT, S_LEADERS, S_WIN, S_POINTS, _REVEALS, _plural,
)
from engine.rulesets.risk_minas_tirith import common, forces


# Rounds, turns, `take`, `done`, the end of a turn and of the game.


def active_seats(rs, state: State) -> list[str]:
    if state["over"]:
        return []
    p = pending.blocking(rs.decisions, state["pending"])  # a retreat's owner, or the card's keeper
    return [p["seat"]] if p is not None else [state["active"]]


def result(rs, state: State) -> Result | None:
    o = state["over"]
    return Result(o["winner"], o["summary"], o.get("section"), _result_line(o)) if o else None


def _result_line(o: dict) -> str:
    """The result in one short line, the winner first (the summary is the reasoning)."""
    w, sec = o.get("winner"), o.get("section")
    why = {"leaders": "two Evil leaders lost", "city": "Minas Tirith occupied"}.get(o.get("how"), "")
    p = o.get("points")
    if o.get("how") == "points" and isinstance(p, dict):
        why = f"{p.get('good')} points to {p.get('evil')}" if w == "good" else f"{p.get('evil')} points to {p.get('good')}"
    if not w:
        return f"A draw: {why} ({sec})" if why else f"A draw ({sec})"
    return f"{TITLES[w]} wins: {why} ({sec})" if why else f"{TITLES[w]} wins ({sec})"


def _new_round(rs, state: State, dice: Dice) -> list[Event]:
    state["round"] += 1
    state["roller"] = "good" if state["round"] % 2 == 1 else "evil"
    state["action_dice"] = dice.roll(3, label="Action dice")
    state["turn_in_round"] = 0
    return _new_turn(rs, state, round_start=True)


def _new_turn(rs, state: State, round_start: bool = False) -> list[Event]:
    state["turn"] += 1
    state["turn_in_round"] += 1
    r = state["roller"]
    state["active"] = r if state["turn_in_round"] in (1, 3) else OTHER[r]
    state["phase"], state["die"], state["actions"] = "die", None, 0
    state["fired"], state["catapults"] = {}, []
    state["flags"] = {"special": False, "ladders": False, "courage": False}
    state["pending"] = None
    head = ""
    if round_start:
        head = (f"Round {state['round']}: {TITLES[r]} rolls the Action dice: "
                f"{', '.join(map(str, state['action_dice']))}. ")
    return [Event(public=head + f"Turn {state['turn']}: {TITLES[state['active']]} chooses an Action die.",
                  section=S_TURN, new_phase=True)]


def _end_turn(rs, state: State, dice: Dice | None = None) -> list[Event]:
    seat = state["active"]
    events: list[Event] = []
    # Leaders (seed): alone at the end of the turn -> removed; two of one colour -> one removed
    for aid in rs.board.ids:
        rec = state["areas"][aid]
        if rec["side"] != seat or not rec["leaders"]:
            continue
        if not rec["u"]:
            gone = list(rec["leaders"])
            state["lost"][seat]["leaders"].extend(gone)
            rec["leaders"], rec["side"] = [], None
            events.append(Event(public=f"{', '.join(forces._lname(rs, x) for x in gone)} alone in "
                                       f"{forces._name(rs, aid)} at the end of the turn: removed, lost to "
                                       f"{TITLES[OTHER[seat]]}.", section=S_LEADERS))
            continue
        seen: dict[str, str] = {}
        for lid in list(rec["leaders"]):
            c = forces.leader_color(rs, lid)
            if c in seen:
                rec["leaders"].remove(lid)
                state["lost"][seat]["leaders"].append(lid)
                events.append(Event(public=f"Two {c} leaders in {forces._name(rs, aid)}: {forces._lname(rs, lid)} is "
                                           f"removed, lost to {TITLES[OTHER[seat]]}.", section=S_LEADERS))
            else:
                seen[c] = lid
    _check_towers(rs, state)
    if _finish_if_won(rs, state, events):
        return events
    if state["turn_in_round"] >= 3:
        events.extend(_new_round(rs, state, dice or Dice(state["dice"])))
    else:
        events.extend(_new_turn(rs, state))
    return events


def _check_towers(rs, state: State) -> None:
    for aid in list(state["towers"]):
        if state["areas"][aid]["side"] != "evil" or not state["areas"][aid]["u"]:
            state["towers"].remove(aid)


def points(rs, state: State) -> dict[str, int]:
    P = rs.cards["points"]
    out = {}
    for s in SEATS:
        lost = state["lost"][OTHER[s]]
        p = sum(P[t] * lost.get(t, 0) for t in TYPES if t not in ("troll", "mumak"))
        if s == "good":
            p += P["troll"] * lost.get("troll", 0) + P["mumak"] * lost.get("mumak", 0)
        p += P["leader"] * len(lost["leaders"])
        if s == "evil":
            p += P["wall"] * sum(1 for w in rs.board.walls if state["areas"][w]["side"] == "evil"
                                 and state["areas"][w]["u"])
            p += P["gate"] if state["gate_broken"] else 0
        out[s] = p
    return out


def _finish_if_won(rs, state: State, events: list[Event]) -> bool:
    if state["over"]:
        return True
    evil_lost = [x for x in state["lost"]["evil"]["leaders"]]
    if len(evil_lost) >= 2:
        text = (f"Two Evil leaders are lost ({', '.join(forces._lname(rs, x) for x in evil_lost)}): "
                "the Forces of Good win.")
        state["over"] = {"winner": "good", "summary": text, "section": S_WIN, "how": "leaders"}
    elif state["areas"]["city"]["side"] == "evil" and state["areas"]["city"]["u"]:
        text = "Evil battalions occupy the Minas Tirith Territory: the Forces of Evil win."
        state["over"] = {"winner": "evil", "summary": text, "section": S_WIN, "how": "city"}
    else:
        return False
    state["pending"] = None  # nothing is waited for once the game is over
    events.append(Event(public=text, section=S_WIN, new_phase=True))
    return True


def _end_on_points(rs, state: State, events: list[Event]) -> None:
    p = points(rs, state)
    w = "good" if p["good"] > p["evil"] else "evil" if p["evil"] > p["good"] else None
    res = f"the Forces of {TITLES[w]} win" if w else "a draw (ruling: equal points)"
    text = (f"The last Reinforcement card is drawn: Good {p['good']} points, Evil {p['evil']} points; {res}.")
    state["over"] = {"winner": w, "summary": text, "section": S_POINTS, "how": "points", "points": p}
    events.append(Event(public=text, section=S_POINTS, new_phase=True))


def _parse_take(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 1 or not rest[0].isdigit() or not 1 <= int(rest[0]) <= 6:
        raise common._usage(rs, "take")
    return (str(int(rest[0])),)


def _check_take(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    if state["phase"] != "die":
        raise IllegalOrder("the Action die is chosen at the start of the turn", S_DIE)
    if int(a[0]) not in state["action_dice"]:
        raise IllegalOrder(f"no {a[0]} among the Action dice left ({', '.join(map(str, state['action_dice']))})",
                           S_DIE)


def _legal_take(rs, state: State) -> Iterator[Action]:
    for n in sorted(set(state["action_dice"]), reverse=True):
        yield Action("take", (str(n),))


def _do_take(rs, state, seat, a, dice):
    n = int(a[0])
    state["action_dice"].remove(n)
    acts, draws = rs.cards["action_dice"]["table"][str(n)]
    state["die"], state["actions"], state["phase"] = n, acts, "cards"
    deck = state["hidden"]["reinf_deck"]
    got = []
    for _ in range(draws):
        if not deck:
            break
        got.append(deck.pop(0))
    state["hands"][seat]["reinf"].extend(got)
    text = (f"{TITLES[seat]} takes the {n}: {_plural(acts, 'Action')}, "
            f"{_plural(len(got), 'Reinforcement card')} drawn" + (f" ({', '.join(_card_label(rs, c) for c in got)})"
                                                                    if got else "") + ".")
    events = [Event(public=text, section=S_DRAW, **(_REVEALS if got else {}))]
    if got and not deck:
        _end_on_points(rs, state, events)
    return events


def _parse_done(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if rest:
        raise common._usage(rs, "done")
    return ()


def _check_done(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    if state["phase"] == "cards" and len(state["hands"][seat]["reinf"]) > rs.cards["limits"]["hand"]:
        raise IllegalOrder(f"you hold {len(state['hands'][seat]['reinf'])} Reinforcement cards; with 7 or more "
                           "you must exchange", S_EXCH)


def _do_done(rs, state, seat, a, dice):
    if state["phase"] == "cards":
        state["phase"] = "actions"
        return [Event(public=f"{TITLES[seat]} begins the Actions with {_plural(state['actions'], 'Action point')}.",
                      section=S_ACT)]
    left = state["actions"]
    ev = [Event(public=f"{TITLES[seat]} ends the turn" + (f" with {_plural(left, 'Action point')} unused."
                                                           if left else "."),
                section=S_ACT)]
    return ev + _end_turn(rs, state, dice)


def _spend(rs, state: State) -> None:
    state["actions"] -= 1


def _card_label(rs, c: str) -> str:
    d = rs.reinforcement_cards[c]
    return f"{c} {d['type']}" + (f", {d['shield']} shield" if d["shield"] else "")
