"""What every ruleset's autopilot shares (issue 28): a seat on autopilot plays its ruleset's declared
safe default, ``RulesetBase.autopilot_action`` (None: the seat passes with `done`, which is then legal).
Each game's policy is in a file of its own (``engine/spi/autopilot.py`` for the three SPI games,
``engine/rulesets/<game>/autopilot.py``, ``engine/modes/autopilot.py``); these are the checks they share,
all through the ruleset's public methods (``check``, ``legal_actions``, ``public_order_text``,
``waiting_decisions``).

Issue 42: an absent seat gives nothing away. A pending decision that an opponent could otherwise farm by
repeating what raises it (a challenge declined every time, 22.3; a seizure always held, AA.2) declares how
a seat nobody plays answers it (``pending.Decision.autopilot``): by what costs the seat's side less by the
engine's own odds, or rolled with the game's dice. ``decided`` gives that answer first, with its public
reason in ``Action.memo["why"]`` (the bot prints it with the order: ``bot/clocks.py``)."""
from __future__ import annotations

from engine.core import Action, IllegalOrder, InvalidOrder, State, iter_limit

DONE = Action("done")


def accepted(rs, state: State, seat: str, action: Action) -> bool:
    """The ruleset's ``check`` passes: the action is legal now."""
    try:
        rs.check(state, seat, action)
        return True
    except (IllegalOrder, InvalidOrder):
        return False


def is_secret(rs, action: Action) -> bool:
    """A secret order: its public text is masked (Gondor's `pour`, 16.74; War of the Ring's hidden
    moves and demand). An autopilot never makes one."""
    text = rs.format(action)
    return rs.public_order_text(text) != text


def decided(rs, state: State, seat: str) -> Action | None:
    """The answer to a decision ``seat`` faces now whose kind declares the autopilot's answer (issue 42),
    if that answer is legal now; None otherwise."""
    table = rs.decisions
    for p in rs.waiting_decisions(state):
        d = table.get(p["kind"])
        if p["seat"] == seat and d is not None and d.autopilot is not None:
            a = d.autopilot(rs, state, p)
            if a is not None and accepted(rs, state, seat, a):
                return a
    return None


def may_pass(rs, state: State, seat: str) -> bool:
    """The seat has nothing to do now, or may end its part with `done`: the autopilot's None."""
    return seat not in rs.active_seats(state) or accepted(rs, state, seat, DONE)


def first_legal(rs, state: State, seat: str, verb: str | None = None, limit: int = 400,
                skip: tuple[str, ...] = ()) -> Action | None:
    """The first legal action (of ``verb``; none of the verbs in ``skip``) that is not a secret order,
    among the first ``limit`` ``legal_actions`` offers: the last resort where the rules refuse `done`
    and nothing cheaper is owed."""
    for a in iter_limit(rs.legal_actions(state, seat), limit):
        if (verb is None or a.verb == verb) and a.verb not in skip and not is_secret(rs, a):
            return a
    return None
