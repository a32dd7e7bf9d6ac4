"""Reinforcements (seed:002, 3. Exchange cards: Reinforcements; Minas Tirith cards):
battalions placed one Reinforcement card at a time onto a host card (Theoden, Aragorn,
Mordor: `reinforce <card> on <mt>`), and the host entering the board at its entry areas
(`enter <mt> at <area>`, an Action)."""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.rulesets.risk_minas_tirith.common import (
    TITLES, A_TITLE, S_REINF, S_MOVE, S_MT, _group_text,
)
from engine.rulesets.risk_minas_tirith import cards, common, forces, turn


# `reinforce` and `enter`: each order's parse, check, legal actions and apply.


def _parse_reinforce(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 3 or rest[1] != "on":
        raise common._usage(rs, "reinforce")
    if rest[0] not in rs.reinforcement_cards:
        raise IllegalOrder(f"`{rest[0][:12]}` is not a Reinforcement card", S_REINF)
    return (rest[0], "on", cards._mt_card(rs, state, seat, rest[2]))


def _check_reinforce(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    card, cid = a[0], a[2]
    if card not in state["hands"][seat]["reinf"]:
        raise IllegalOrder(f"you do not hold {card}", S_REINF)
    mt = forces._mt(rs, state, cid)
    if mt["kind"] != "host":
        raise IllegalOrder(f"battalions cannot be placed on {mt['name']}", S_REINF)
    if mt["side"] not in (seat, "both"):
        raise IllegalOrder(f"{mt['name']} is not {A_TITLE[seat]} card", S_MT)
    t = _host_type(rs, cid, card, state)
    if t is None:
        raise IllegalOrder(f"{mt['name']} takes {', '.join(mt['holds'])} battalions, not "
                           f"{rs.reinforcement_cards[card]['type']}", S_REINF)
    if forces._pool(rs, state, seat, t) < 1:
        raise IllegalOrder(f"no {t} battalion left in your supply", "Set up")


def _host_type(rs, cid: str, card: str, state: State) -> str | None:
    mt = forces._mt(rs, state, cid)
    ct = rs.reinforcement_cards[card]["type"]
    want = {"infantry": "infantry", "cavalry": "cavalry", "creature": "troll"}.get(ct, mt["holds"][0])
    return want if want in mt["holds"] else None


def _legal_reinforce(rs, state: State, seat: str, cid: str, hand: list[str]) -> Iterator[Action]:
    if forces._mt(rs, state, cid)["kind"] == "host":
        for card in hand:
            yield Action("reinforce", (card, "on", cid))


def _do_reinforce(rs, state, seat, a, dice):
    card, cid = a[0], a[2]
    t = _host_type(rs, cid, card, state)
    state["hands"][seat]["reinf"].remove(card)
    state["reinf_discard"].append(card)
    h = state["hosts"].setdefault(cid, {})
    h[t] = h.get(t, 0) + 1
    return [Event(public=f"{TITLES[seat]} places 1 {t} on {forces._mt(rs, state, cid)['name']} ({card}).",
                  section=S_REINF)]


def _parse_enter(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return cards._parse_card_at(rs, state, seat, "enter", rest)


def _check_enter(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    cid, aid = a[0], a[2]
    mt = forces._mt(rs, state, cid)
    if mt["kind"] != "host" or mt["side"] not in (seat, "both"):
        raise IllegalOrder(f"{mt['name']} does not bring battalions onto the board", S_MOVE)
    if not sum(state["hosts"].get(cid, {}).values()):
        raise IllegalOrder(f"no battalions on {mt['name']} yet: `reinforce <card> on {cid}` first", S_REINF)
    if aid not in rs.board.entries[mt["entries"]]:
        raise IllegalOrder(f"{mt['name']} enters at {', '.join(rs.board.entries[mt['entries']])}", S_MOVE)
    if forces._side_of(state, aid) not in (None, seat):
        raise IllegalOrder(f"{forces._name(rs, aid)} holds enemy battalions", S_MOVE)


def _legal_enter(rs, state: State, seat: str, cid: str) -> Iterator[Action]:
    mt = forces._mt(rs, state, cid)
    if mt["kind"] == "host":
        for aid in rs.board.entries[mt["entries"]]:
            yield Action("enter", (cid, "at", aid))


def _do_enter(rs, state, seat, a, dice):
    cid, aid = a[0], a[2]
    mt = forces._mt(rs, state, cid)
    g = state["hosts"].pop(cid)
    leaders = [mt["leader"]] if mt.get("leader") and not forces._on_board(rs, state, mt["leader"]) \
        and mt["leader"] not in state["lost"][seat]["leaders"] else []
    forces._add(rs, state, aid, seat, g, leaders)
    cards._discard_mt(rs, state, seat, cid)
    turn._spend(rs, state)
    return [Event(public=f"{mt['name']} enter the battle in {forces._name(rs, aid)}: {_group_text(g, leaders)}.",
                  section=S_MOVE)]
