"""Names the Field of Celebrant files share: the seats, armies, areas and abilities."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"
SEATS = ("shadow", "westernesse")
SIDE_TITLES = {"shadow": "Shadow", "westernesse": "Westernesse"}
SIDE_COLORS = {"shadow": "#8b1a1a", "westernesse": "#1f4e9c"}
ARMIES = {"westernesse": ("gondor", "eotheod"), "shadow": ("orcs", "balchoth")}
AREAS = ("NW", "NE", "SE")
STATE_VERSION = 2  # 2: the Eotheod entry area is a queued decision (14.31); 1: chosen before `done`

# leader special abilities (17.x): name -> (title, section, the phase kind and side it is used in)
ABILITIES = {
    "death-and-glory": ("Death and Glory", "17.11", "A-westernesse"),
    "arise": ("Arise, Arise!", "17.21", "F-westernesse"),
    "tactics": ("Tactics", "17.31", "A-westernesse"),
    "form-up": ("Form up!", "17.41", "A-westernesse"),
    "despair": ("Despair", "17.51", "A-shadow"),
    "iron-fist": ("Iron Fist", "17.61", "A-shadow"),
    "blood-lust": ("Blood Lust", "17.71", "A-shadow"),
    "whip": ("By the Whip", "17.81", "A-shadow"),
}
