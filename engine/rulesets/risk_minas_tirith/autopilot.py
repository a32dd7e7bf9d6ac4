"""LOTR Risk: Minas Tirith, a seat on autopilot (issue 28): it passes (`done`) wherever the rules let it,
and otherwise plays only what the turn sequence forces, by the cheapest legal choice (the game has no
secret decision: hands are face up, only the decks' order is hidden):
- a retreat it must choose: the path that loses fewest battalions (its ``deadline_action``, Retreat);
- a Minas Tirith card to keep (`keep`): the first offered;
- the Action die at the start of its turn (1. Select an Action die): the first offered, the highest
  (its cards drawn bring the end of the game on points nearer; the Action points go unused);
- seven or more Reinforcement cards (3. Exchange): the first plain exchange of three offered, no
  Special Exchange;
- never a standing loss priority (`losses`: no order of the turn) nor an attack, move or card played.
The policy reads the game only through ``active_seats``, ``check`` and ``legal_actions``."""
from __future__ import annotations

from engine.autopilot import accepted, is_secret, may_pass
from engine.core import Action, State, iter_limit

# what the sequence forces, cheapest first (a Special Exchange is never chosen while a plain one is legal)
FORCED = ("retreat", "keep", "take", "exchange")


def autopilot_action(rs, state: State, seat: str) -> Action | None:
    if may_pass(rs, state, seat):
        return None
    a = rs.deadline_action(state, seat)  # a retreat: the path that loses fewest
    if a is not None and accepted(rs, state, seat, a):
        return a
    offered = [a for a in iter_limit(rs.legal_actions(state, seat), 400)
               if a.verb != "losses" and not is_secret(rs, a)]
    for verb in FORCED:
        for a in offered:
            if a.verb == verb and "special" not in a.args:
                return a
    return offered[0] if offered else None
