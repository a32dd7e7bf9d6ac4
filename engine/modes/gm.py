"""The moderator's seat on a game played without a level of play (a plain, enforced game).

A game created with ``mode=`` (or ``whispers=``) is wrapped (``engine/modes/table.py``) and has the
``gm`` seat in its ruleset. A plain game keeps its ruleset, its stored name, its state and its log
exactly as before; the moderator there is a seat of the *lobby*, not of the engine: the service
loads a plain game with ``with_gm_seat(ruleset)``, which adds ``gm`` to the seats (optional, never
to act) and answers for it (every seat's view merged, every seat's secrets), and hands everything
else to the ruleset unchanged. The moderator gives no order, so the log, a replay and
``palantir verify`` never meet it: an export of a game with a moderator is the same as without."""
from __future__ import annotations

from engine.core import InvalidOrder
from engine.modes import GM
from engine.modes.common import every_seats_secrets

_CACHE: dict[str, "GmSeat"] = {}


class GmSeat:
    """``ruleset`` plus the lobby's ``gm`` seat (its name, state and orders are the ruleset's)."""

    optional_seats = (GM,)
    lobby_gm = True  # the moderator is the lobby's: it sees, it does not play

    def __init__(self, inner):
        self.inner = inner
        self.seats = (*inner.seats, GM)

    def __getattr__(self, name):  # everything not about the moderator is the ruleset's own
        return getattr(self.inner, name)

    def view(self, state, seat):
        if seat == GM:
            return dict(self.inner.full_view(state), seat=GM)
        return self.inner.view(state, seat)

    def full_view(self, state, views=None):
        return self.inner.full_view(state, views)

    def secret_text(self, state, seat):
        if seat != GM:
            return self.inner.secret_text(state, seat)
        return "\n".join(every_seats_secrets(self.inner, state)) or None

    def parse(self, state, seat, text):
        if seat == GM:
            raise InvalidOrder("The moderator gives no order in a game without a level of play "
                               "(`/game new options: mode=assist` for rulings).")
        return self.inner.parse(state, seat, text)

    def check(self, state, seat, action):
        if seat == GM:
            raise InvalidOrder("The moderator gives no order here.")
        return self.inner.check(state, seat, action)

    def legal_actions(self, state, seat):
        return iter(()) if seat == GM else self.inner.legal_actions(state, seat)

    def legal_actions_matching(self, state, seat, words):
        return iter(()) if seat == GM else self.inner.legal_actions_matching(state, seat, words)

    def deadline_action(self, state, seat):
        return None if seat == GM else self.inner.deadline_action(state, seat)

    def autopilot_action(self, state, seat):
        return None if seat == GM else self.inner.autopilot_action(state, seat)  # gm is never on autopilot

    def odds(self, state, seat, text):
        if seat == GM:
            raise InvalidOrder("odds are for a seat that attacks")
        return self.inner.odds(state, seat, text)


def with_gm_seat(ruleset):
    """The ruleset as the service plays it: a wrapped (moded) ruleset already has ``gm``; a plain
    one gets the lobby's moderator (one object per ruleset)."""
    if GM in ruleset.seats:
        return ruleset
    g = _CACHE.get(ruleset.name)
    if g is None or g.inner is not ruleset:
        g = _CACHE[ruleset.name] = GmSeat(ruleset)
    return g
