"""Orders of battle as data (TOML), shared by the SPI rulesets."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

COMBAT_TYPES = {"infantry", "cavalry", "archer", "mumak", "troll"}
SIEGE_TYPES = {"catapult", "siege_tower", "grond"}

_RATINGS_RE = re.compile(r"^([A-E])?([a-e])?-([1-4])-([W-Z])$")


@dataclass(frozen=True)
class Ratings:
    """SPI combat ratings, e.g. ``De-3-X``: melee D, missile e, Armor
    Protection 3, Morale X (facts.md 1.2)."""

    melee: str | None
    missile: str | None
    armor: int
    morale: str

    @classmethod
    def parse(cls, text: str) -> "Ratings":
        m = _RATINGS_RE.match(text)
        if not m or not (m.group(1) or m.group(2)):
            raise ValueError(f"`{text}` is not an SPI rating (like De-3-X)")
        return cls(m.group(1), m.group(2), int(m.group(3)), m.group(4))

    def __str__(self) -> str:
        return f"{self.melee or ''}{self.missile or ''}-{self.armor}-{self.morale}"


@dataclass(frozen=True)
class UnitDef:
    id: str
    side: str
    type: str
    name: str
    ratings: Ratings | None
    setup: str
    section: str
    arrives: int | str | None = None
    magic: int | None = None
    oil: int | None = None
    tags: frozenset[str] = frozenset()
    army: str | None = None
    movement: int | None = None  # printed allowance, where it differs from the chart
    reduced: Ratings | None = None  # the reduced side (1/2E); default: one grade worse
    night_rally: int | None = None  # leaders with a second (night) Rally Rating
    dem: int | None = None  # a demoralization value printed on the counter (FoC 9.12), else the formula's
    ability: str | None = None  # a printed special ability (FoC 17.x leaders, 18.x units)

    @property
    def is_cavalry(self) -> bool:
        return self.type == "cavalry"

    @property
    def is_mounted(self) -> bool:
        """Cavalry and Mumakil: cavalry movement costs in rough ground, and no
        walls, ladders or siege towers for them (Gondor 15.22, 16.48)."""
        return self.type in ("cavalry", "mumak")

    @property
    def is_infantry(self) -> bool:
        return self.type in ("infantry", "archer")

    @property
    def has_zoc(self) -> bool:
        return self.is_combat

    def reduced_ratings(self) -> Ratings | None:
        """The reduced side. Where a counter's back is not known: the attack
        letters one grade worse (E the floor) and the Morale one grade worse."""
        if self.reduced or not self.ratings:
            return self.reduced
        r = self.ratings
        worse = {"A": "B", "B": "C", "C": "D", "D": "E", "E": "E"}
        return Ratings(worse[r.melee] if r.melee else None,
                       worse[r.missile.upper()].lower() if r.missile else None,
                       r.armor, {"W": "X", "X": "Y", "Y": "Z", "Z": "Z"}[r.morale])

    @property
    def is_combat(self) -> bool:
        return self.type in COMBAT_TYPES

    @property
    def is_leader(self) -> bool:
        return self.type == "leader"

    @property
    def is_siege(self) -> bool:
        return self.type in SIEGE_TYPES

    def label(self) -> str:
        r = f" {self.ratings}" if self.ratings else ""
        return f"{self.id} ({self.name}{r})"


def load_oob(path: str | Path) -> dict[str, UnitDef]:
    data = tomllib.loads(Path(path).read_text())
    out: dict[str, UnitDef] = {}
    for entry in data["unit"]:
        ids = [entry["id"]] if "id" in entry else [f"{entry['prefix']}{i}" for i in range(1, entry["count"] + 1)]
        for uid in ids:
            if uid in out:
                raise ValueError(f"duplicate unit id {uid}")
            out[uid] = UnitDef(
                id=uid,
                side=entry["side"],
                type=entry["type"],
                name=entry["name"],
                ratings=Ratings.parse(entry["ratings"]) if "ratings" in entry else None,
                setup=entry["setup"],
                section=entry["section"],
                arrives=entry.get("arrives"),
                magic=entry.get("magic"),
                oil=entry.get("oil"),
                tags=frozenset(entry.get("tags", ())),
                army=entry.get("army", entry["side"]),
                movement=entry.get("movement"),
                reduced=Ratings.parse(entry["reduced"]) if "reduced" in entry else None,
                night_rally=entry.get("night_rally"),
                dem=entry.get("dem"),
                ability=entry.get("ability"),
            )
    return out
