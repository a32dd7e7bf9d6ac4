"""War of the Ring, a seat on autopilot (issue 28): the seat passes (`done`) at each of its phases, and
plays only what the sequence forces, never a secret decision:
- the Events phase: `draw none` (it draws no card; the public reads `draw (a card)` whatever is drawn,
  so nothing is told by it), as at a deadline;
- a seizure of the Ring to answer (AA.1, AA.2, the bearer's seat, though it is not among the seats to act):
  `seizure roll`, the game's dice decide (issue 42: M.3 is a contest the rules resolve by a die roll, so
  it is never granted to one side; `seizure held` every time would spend Gondor's one attempt with no
  individual combat fought), its reason in the action's ``memo["why"]`` (``engine.autopilot.decided``);
- nothing hidden: no hidden character moves or is revealed (the Fellowship's), no Nazgul search is made,
  Gondor gives no demand, no card or item is played, no barter or ally is offered or agreed;
- where the rules refuse `done` and nothing above applies, the first legal action that is not a secret
  order (its public text unmasked), as the engine offers them.
It reads the game only through ``active_seats``, ``check``, ``legal_actions`` and ``waiting_decisions``."""
from __future__ import annotations

from engine.autopilot import accepted, decided, first_legal, may_pass
from engine.core import Action, State

DRAW_NONE = Action("draw", ("none",))


def autopilot_action(rs, state: State, seat: str) -> Action | None:
    if (a := decided(rs, state, seat)) is not None:  # AA.2: the seizure rolled (issue 42)
        return a
    if seat in rs.active_seats(state) and accepted(rs, state, seat, DRAW_NONE):
        return DRAW_NONE  # the Events phase: no card (a masked order, but no choice: the public reads the same)
    if may_pass(rs, state, seat):
        return None
    return first_legal(rs, state, seat)
