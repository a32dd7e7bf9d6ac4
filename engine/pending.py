"""A pending decision, the same way in every game: one seat must answer before play goes on (a retreat
to choose, Standard Rules 7.5; the Eotheod entry area the chits leave to a side in Field of Celebrant,
14.31, answered as they resolve; the card to keep of a Special Exchange and the path of a retreat in
Risk), or may take an offer that lapses with its next other order (Risk's free cavalry advance), or must
answer a question among its other orders before it is done (Sauron's challenge to Mortal Combat, 22.3; the
Ring-bearer's answer to Boromir's seizure in War of the Ring, AA.2, at any time).

Two declared fields say which: ``offer`` (other orders allowed while it waits) and ``before_done`` (it
must still be answered before its seat is done). Neither: it holds up play (7.5, 14.31). ``offer`` alone:
it lapses with the seat's next other order (Risk's advance). Both: the seat plays on but cannot be done
until it answers (22.3).

In the state a decision is a JSON record, ``{"kind", "seat", "section", ...the fields of its kind}``
(``new``); a game keeps it where its layout always had it (the Standard Rules: a queue, the list
``state["pending"]``, the first entry waited for (a 7.5 retreat, a 14.31 entry area); Risk: the one record
or None). What a kind allows is
a ``Decision``, a record of functions the game declares (``DECISIONS = (RETREAT_7_5,)``, found through
``decision_table`` as orders are through ``engine.orders.order_table``): its ``legal`` answers, which
are the only legal actions of the seat facing it (``legal_answers``), and the words a refusal of
anything else gives, with its section (``check_answer``). The kind stored in the state is data, the
key of that table; no function is looked up by a name built from it.

A game's standing orders (Risk's ``losses``: a standing order either seat may give at any time) are
not answers: the game lets them through before it asks this module.

Every game lists the records waiting now with ``waiting_decisions(state)`` (its stored ones and those its
own state implies: a challenge asked lives in ``state["sau"]["mortal"]``, a seizure in
``st["ring"]["seizure"]``, and the decision record is read from there, so no fact is kept twice)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from engine.core import Action, IllegalOrder, State


@dataclass(frozen=True)
class Decision:
    """What one kind of pending decision allows.

    - ``answers``: the verbs that answer it (their ``Order`` records parse, check and apply them);
    - ``legal(rs, state, p) -> Iterator[Action]``: every legal answer, in the order offered;
    - ``awaited(rs, state, p) -> str``: what it waits for, in words that follow "waiting for <seat> to"
      (said to the other seats);
    - ``first(rs, state, p) -> str``: what the seat facing it is told when it gives another order;
    - ``offer``: True when the seat may give its other orders while it waits (its answers are then
      listed with the seat's other actions, not instead of them, and no seat is held up); unless
      ``before_done``, any such order lets it lapse (``lapses``);
    - ``before_done``: an offer its seat must still answer before it is done with the phase (22.3; 14.31
      in a Field of Celebrant game stored before the entry area was queued): ``check_done`` refuses `done`
      with ``first`` and the section while one waits, and it does not lapse;
    - ``autopilot(rs, state, p) -> Action | None``: how a seat nobody plays answers it (issue 42), where
      the answer is a contest an opponent could otherwise farm: by what costs the seat's side less (22.3),
      or rolled with the game's dice (AA.2); the action's ``memo["why"]`` is its public reason, which reads
      nothing hidden (``engine/autopilot.py: decided``). None: the game's general policy answers it."""
    kind: str
    section: str
    answers: tuple[str, ...]
    legal: Callable[..., Iterator[Action]]
    awaited: Callable[..., str]
    first: Callable[..., str]
    offer: bool = False
    before_done: bool = False
    autopilot: Callable[..., Action | None] | None = None

    def __post_init__(self):
        if not self.answers or not self.section:
            raise ValueError(f"decision `{self.kind}`: give the verbs that answer it and its section")


def new(decision: Decision, seat: str, **fields) -> dict:
    """A decision's record in the state: its kind, the seat that answers, its section, its own fields."""
    return {"kind": decision.kind, "seat": seat, "section": decision.section, **fields}


def decision_table(decisions: tuple[Decision, ...]) -> dict[str, Decision]:
    return {d.kind: d for d in decisions}


def first_of(pending) -> dict | None:
    """The decision waited for now: the head of a queue (a list), the one record, or None."""
    if isinstance(pending, list):
        return pending[0] if pending else None
    return pending or None


def blocking(table: dict[str, Decision], pending) -> dict | None:
    """The decision that holds up play now (an offer holds up nothing), or None."""
    p = first_of(pending)
    return p if p is not None and not table[p["kind"]].offer else None


def lapses(table: dict[str, Decision], pending, action: Action) -> bool:
    """Whether ``action`` lets the offer waiting now lapse (any order that does not take it; an offer
    that must be answered before `done` does not lapse)."""
    p = first_of(pending)
    if p is None:
        return False
    d = table[p["kind"]]
    return d.offer and not d.before_done and action.verb not in d.answers


def legal_answers(table: dict[str, Decision], rs, state: State, p: dict, seat: str) -> Iterator[Action]:
    """The legal actions of ``seat`` facing ``p``: its answers (none for another seat)."""
    if p["seat"] == seat:
        yield from table[p["kind"]].legal(rs, state, p)


def check_seat(table: dict[str, Decision], rs, state: State, p: dict, seat: str,
               title: Callable[[str], str]) -> None:
    """Refuse any order of another seat than the one ``p`` waits for (with its section)."""
    d = table[p["kind"]]
    if p["seat"] != seat and not d.offer:
        raise IllegalOrder(f"waiting for {title(p['seat'])} to {d.awaited(rs, state, p)}", d.section)


def check_answer(table: dict[str, Decision], rs, state: State, p: dict, seat: str, action: Action,
                 title: Callable[[str], str]) -> None:
    """Refuse, with the decision's section, an order of another seat while ``p`` waits, or an order of
    its seat that does not answer it (an offer refuses nothing); what answers it the order's own check
    then checks."""
    d = table[p["kind"]]
    if d.offer:
        return
    check_seat(table, rs, state, p, seat, title)
    if action.verb not in d.answers:
        raise IllegalOrder(d.first(rs, state, p), d.section)


def answers_of(table: dict[str, Decision], rs, state: State, records, seat: str,
               verb: str | None = None) -> Iterator[Action]:
    """The answers of every record in ``records`` that ``seat`` faces (those of ``verb`` alone if given),
    in the order of the records: how an offer's answers join the seat's other legal actions."""
    for p in records:
        for a in legal_answers(table, rs, state, p, seat):
            if verb is None or a.verb == verb:
                yield a


def check_done(table: dict[str, Decision], rs, state: State, records, seat: str) -> None:
    """Refuse `done` while ``seat`` faces a decision it must answer first (``before_done``)."""
    for p in records:
        d = table[p["kind"]]
        if p["seat"] == seat and d.before_done:
            raise IllegalOrder(d.first(rs, state, p), d.section)
