"""Names the Gondor files share: the seats, the special counters, small parsers."""
from __future__ import annotations

from pathlib import Path

from engine.core import InvalidOrder
from engine.hexgrid import HexError, Hexside

DATA = Path(__file__).parent / "data"
SEATS = ("sauron", "westernesse")
SIDE_TITLES = {"sauron": "Sauron", "westernesse": "Westernesse"}
SIDE_COLORS = {"sauron": "#8b1a1a", "westernesse": "#1f4e9c"}
STATE_VERSION = 2

BANNER = "BAN"
GROND = "GRD"
NAZGUL = "NAZ"
GANDALF = "GAN"
ARAGORN = "ARA"
TUNNEL_RULES = ("morale-w", "armor-4", "armor-1", "none")
FORM_TITLES = {"shieldwall": "Shield Wall", "wedge": "Wedge"}
POUR_MODES = ("any", "towers", "hold")
ZOC_THROUGH_WALLS = ("towers", "both-ways")  # 16.44: the seed's reading, or each side through a scaled wall
INFANTRY_TYPES = ("infantry", "archer", "troll")  # 16.51 "infantry-type": foot units


def _hexside(token: str) -> str:
    try:
        return str(Hexside.parse(token))
    except (HexError, ValueError) as e:
        raise InvalidOrder(str(e)) from None
