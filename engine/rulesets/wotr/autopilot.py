"""War of the Ring, a seat on autopilot (issue 28): the seat passes (`done`) at each of its phases, and
plays only what the sequence forces, never a secret decision:
- the Events phase: `draw none` (it draws no card; the public reads `draw (a card)` whatever is drawn,
  so nothing is told by it), as at a deadline;
- a seizure of the Ring to answer (AA.2, the bearer's seat): `seizure held` (nothing changes hands: the
  engine cannot roll the table's M.3 for an absent player);
- nothing hidden: no hidden character moves or is revealed (the Fellowship's), no Nazgul search is made,
  Gondor gives no demand, no card or item is played, no barter or ally is offered or agreed;
- where the rules refuse `done` and nothing above applies, the first legal action that is not a secret
  order (its public text unmasked), as the engine offers them.
It reads the game only through ``active_seats``, ``check`` and ``legal_actions``."""
from __future__ import annotations

from engine.autopilot import accepted, first_legal, may_pass
from engine.core import Action, State

DRAW_NONE = Action("draw", ("none",))
SEIZURE_HELD = Action("seizure", ("held",))


def autopilot_action(self, state: State, seat: str) -> Action | None:
    if seat in self.active_seats(state) and accepted(self, state, seat, DRAW_NONE):
        return DRAW_NONE  # the Events phase: no card (a masked order, but no choice: the public reads the same)
    if accepted(self, state, seat, SEIZURE_HELD):
        return SEIZURE_HELD
    if may_pass(self, state, seat):
        return None
    return first_legal(self, state, seat)
