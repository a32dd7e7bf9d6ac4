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


# `reinforce` and `enter`: each order's parse, check, legal actions and apply.


def _parse_reinforce(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    if len(rest) != 3 or rest[1] != "on":
        raise self._usage("reinforce")
    if rest[0] not in self.reinforcement_cards:
        raise IllegalOrder(f"`{rest[0][:12]}` is not a Reinforcement card", S_REINF)
    return (rest[0], "on", self._mt_card(state, seat, rest[2]))


def _check_reinforce(self, state: State, seat: str, a: tuple[str, ...]) -> None:
    card, cid = a[0], a[2]
    if card not in state["hands"][seat]["reinf"]:
        raise IllegalOrder(f"you do not hold {card}", S_REINF)
    mt = self._mt(state, cid)
    if mt["kind"] != "host":
        raise IllegalOrder(f"battalions cannot be placed on {mt['name']}", S_REINF)
    if mt["side"] not in (seat, "both"):
        raise IllegalOrder(f"{mt['name']} is not {A_TITLE[seat]} card", S_MT)
    t = self._host_type(cid, card, state)
    if t is None:
        raise IllegalOrder(f"{mt['name']} takes {', '.join(mt['holds'])} battalions, not "
                           f"{self.reinforcement_cards[card]['type']}", S_REINF)
    if self._pool(state, seat, t) < 1:
        raise IllegalOrder(f"no {t} battalion left in your supply", "Set up")


def _host_type(self, cid: str, card: str, state: State) -> str | None:
    mt = self._mt(state, cid)
    ct = self.reinforcement_cards[card]["type"]
    want = {"infantry": "infantry", "cavalry": "cavalry", "creature": "troll"}.get(ct, mt["holds"][0])
    return want if want in mt["holds"] else None


def _legal_reinforce(self, state: State, seat: str, cid: str, hand: list[str]) -> Iterator[Action]:
    if self._mt(state, cid)["kind"] == "host":
        for card in hand:
            yield Action("reinforce", (card, "on", cid))


def _do_reinforce(self, state, seat, a, dice):
    card, cid = a[0], a[2]
    t = self._host_type(cid, card, state)
    state["hands"][seat]["reinf"].remove(card)
    state["reinf_discard"].append(card)
    h = state["hosts"].setdefault(cid, {})
    h[t] = h.get(t, 0) + 1
    return [Event(public=f"{TITLES[seat]} places 1 {t} on {self._mt(state, cid)['name']} ({card}).",
                  section=S_REINF)]


def _parse_enter(self, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return self._parse_card_at(state, seat, "enter", rest)


def _check_enter(self, state: State, seat: str, a: tuple[str, ...]) -> None:
    cid, aid = a[0], a[2]
    mt = self._mt(state, cid)
    if mt["kind"] != "host" or mt["side"] not in (seat, "both"):
        raise IllegalOrder(f"{mt['name']} does not bring battalions onto the board", S_MOVE)
    if not sum(state["hosts"].get(cid, {}).values()):
        raise IllegalOrder(f"no battalions on {mt['name']} yet: `reinforce <card> on {cid}` first", S_REINF)
    if aid not in self.board.entries[mt["entries"]]:
        raise IllegalOrder(f"{mt['name']} enters at {', '.join(self.board.entries[mt['entries']])}", S_MOVE)
    if self._side_of(state, aid) not in (None, seat):
        raise IllegalOrder(f"{self._name(aid)} holds enemy battalions", S_MOVE)


def _legal_enter(self, state: State, seat: str, cid: str) -> Iterator[Action]:
    mt = self._mt(state, cid)
    if mt["kind"] == "host":
        for aid in self.board.entries[mt["entries"]]:
            yield Action("enter", (cid, "at", aid))


def _do_enter(self, state, seat, a, dice):
    cid, aid = a[0], a[2]
    mt = self._mt(state, cid)
    g = state["hosts"].pop(cid)
    leaders = [mt["leader"]] if mt.get("leader") and not self._on_board(state, mt["leader"]) \
        and mt["leader"] not in state["lost"][seat]["leaders"] else []
    self._add(state, aid, seat, g, leaders)
    self._discard_mt(state, seat, cid)
    self._spend(state)
    return [Event(public=f"{mt['name']} enter the battle in {self._name(aid)}: {_group_text(g, leaders)}.",
                  section=S_MOVE)]
