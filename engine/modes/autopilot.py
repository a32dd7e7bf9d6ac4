"""A seat on autopilot in a game played at a level of play (issue 28; ``engine/modes/table.py``):
- the moderator's seat (`gm`) is never on autopilot: it gives no order of the game (None);
- `enforced` and `assist`: the ruleset's own policy (its ``autopilot_action``): the table adds nothing a
  seat must do, and the autopilot answers no declared action, vote, pact, trade or whisper (each is a
  decision of the seat's player; an unanswered one waits, as it does for a seat that is away);
- `tabletop`: the seat passes its turn (`done`, the table's; None). The players, not the engine, run the
  game's sequence at tabletop, so the autopilot moves no piece, draws no card and rolls nothing; a game
  whose every seat is on autopilot goes round after round until the players come back, or the moderator
  or a vote ends it (docs/modes.md)."""
from __future__ import annotations

from engine.autopilot import accepted
from engine.core import Action, State
from engine.modes.common import is_gm


def autopilot_action(rs, state: State, seat: str) -> Action | None:
    if is_gm(seat) or rs.mode == "tabletop" or rs.result(state) is not None:
        return None
    a = rs.inner.autopilot_action(state, seat)
    return a if a is not None and accepted(rs, state, seat, a) else None
