"""What every part of the LOTR Risk: Minas Tirith rules shares (seed:002): the two Forces
(seed, Set up), the battalion types and their codes in orders (``2inf 1cav``), which types
stand on the walls (Walls and Territory of Minas Tirith), fire (Ranged Attack) or ride
(Movement Actions), the default loss order (How to do Battle), and the names of the seed's
headings that rule references in errors cite."""
from __future__ import annotations

from pathlib import Path

from engine.core import Action, Event, InvalidOrder, State
from engine.orders import parse_order

DATA = Path(__file__).parent / "data"
SEATS = ("good", "evil")
TITLES = {"good": "Good", "evil": "Evil"}
A_TITLE = {"good": "a Good", "evil": "an Evil"}  # "an Evil card", not "a Evil card"
COLORS = {"good": "#2f7d32", "evil": "#1b1b1b"}
OTHER = {"good": "evil", "evil": "good"}
STATE_VERSION = 1

TYPES = ("infantry", "archer", "cavalry", "horse-archer", "troll", "mumak")
CODES = {"infantry": "inf", "archer": "arc", "cavalry": "cav", "horse-archer": "hor", "troll": "tro", "mumak": "mum"}
FROM_CODE = {v: k for k, v in CODES.items()}
ALIASES = {"infantry": "inf", "inf": "inf", "archers": "arc", "archer": "arc", "arc": "arc", "crossbows": "arc",
           "cavalry": "cav", "cav": "cav", "hor": "hor", "horse-archer": "hor", "horse-archers": "hor",
           "troll": "tro", "trolls": "tro", "tro": "tro", "mumak": "mum", "mumakil": "mum", "mum": "mum"}
FOOT = ("infantry", "archer")                  # may stand on the walls (seed, Walls)
MOUNTED = ("cavalry", "horse-archer")
ARCHERY = ("archer", "horse-archer")
LOSS_ORDER = ("infantry", "archer", "cavalry", "horse-archer", "troll", "mumak")
SET_TYPES = ("infantry", "cavalry", "creature")

S_TURN = "Gameplay"
S_DIE = "1. Select an Action die"
S_DRAW = "2. Draw Reinforcement cards"
S_EXCH = "3. Exchange cards"
S_SPECIAL = "Special Exchange"
S_REINF = "Reinforcements"
S_ACT = "4. Actions"
S_MOVE = "Movement Actions"
S_WALLS = "Walls and Territory of Minas Tirith"
S_RANGED = "Ranged Attack"
S_GROUND = "Ground Attack"
S_RETREAT = "Retreat"
S_BATTLE = "How to do Battle"
S_LEADERS = "Leaders"
S_WIN = "Winning the Game"
S_POINTS = "Calculating Points"
S_MT = "Minas Tirith cards"


_REVEALS = {"reveals": True} if "reveals" in getattr(Event, "__dataclass_fields__", {}) else {}


def _group_text(g: dict[str, int], leaders: list[str]) -> str:
    parts = [f"{g[t]}{CODES[t]}" for t in TYPES if g.get(t)]
    return " ".join(parts + sorted(leaders))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _usage(rs, verb: str) -> InvalidOrder:
    """The refusal of an order's words that do not parse: its usage (its ``ORDERS`` record)."""
    return InvalidOrder(f"usage: `{rs.orders[verb].usage}`")


def _parse(rs, state: State, seat: str, text: str) -> Action:
    """An order's text to its action, through its record (``ORDERS``); not yet checked."""
    if len(text) > 200:
        raise InvalidOrder("that order is too long (200 characters at most)")
    w = text.strip().lower().split()
    if not w:
        raise InvalidOrder("empty order; see `/help` (e.g. `take 4`, `attack 3 from fort-e at osgiliath-w`, `done`)")
    verb, rest = w[0], w[1:]
    order = rs.orders.get(verb)
    if order is None:
        raise InvalidOrder(f"unknown order `{verb[:20]}`; orders: {', '.join(rs.orders)}")

    return parse_order(order, rs, state, seat, rest)
