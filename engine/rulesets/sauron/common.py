"""Names the Sauron files share: the seats, the leaders, the items."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
SEATS = ("sauron", "westernesse")
SIDE_TITLES = {"sauron": "Sauron", "westernesse": "Westernesse"}
SIDE_COLORS = {"sauron": "#8b1a1a", "westernesse": "#1f4e9c"}
STATE_VERSION = 1

SAURON = "SAU"
RINGWRAITH = "RW"
GORGOL = "GOR"
NUMENOREANS = ("ELE", "ISI", "ANA")  # 19.211: who may bear Narsil's shards
RING = "ring"
NARSIL = "narsil"
AIGLOS = "aiglos"
ITEM_TITLES = {RING: "the One Ring", NARSIL: "Narsil", AIGLOS: "Aiglos", "shards": "the shards of Narsil"}
NATIONALITIES = ("men", "dwarves", "elves", "mordor")
