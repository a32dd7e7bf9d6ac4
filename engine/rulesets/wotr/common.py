"""What every part of War of the Ring for four and five players shares (seed:001, Don Lowry's variant
of SPI's *War of the Ring*): the seats, the sequences of play, the seed's section names that errors
cite, the data (map, forces) and who controls what."""
from __future__ import annotations

import hashlib
import tomllib
from functools import lru_cache
from pathlib import Path

from engine.core import IllegalOrder

DATA = Path(__file__).parent / "data"
SEATS = ("fellowship", "dark-power", "saruman", "gondor", "rohan")
TITLES = {"fellowship": "Fellowship", "dark-power": "Dark Power", "saruman": "Saruman", "gondor": "Gondor",
          "rohan": "Rohan", "gm": "Moderator"}
# Sequence of Play 1 and 2: the order of draw for Event Cards and of the player turns
ORDER = {4: ("saruman", "fellowship", "gondor", "dark-power"),
         5: ("saruman", "fellowship", "rohan", "gondor", "dark-power")}

# the seed's headings, cited in refusals
S_FOUR = "Four-Player War of the Ring"
S_FIVE = "Five-Player War of the Ring"
S_SEQ = "Sequence of Play"
S_HIDDEN = "Hidden Movement"
S_ALLIANCE_R = "Restrictions on Alliances"
S_MOB = "Modifications to Mobilization"
S_AOW = "All Out War"
S_MAGIC = "Historical Locations of Magic Cards"

NINE = ("frodo", "sam", "merry", "pippin", "gandalf", "aragorn", "legolas", "gimli", "boromir")
HOBBITS = ("frodo", "sam", "merry", "pippin")
GONDOR_HEIRS = ("boromir", "faramir", "imrahil")  # DD.1, after Denethor
ROHAN_LINE = ("theoden", "theodred", "eomer", "eowyn")  # GG.1
NATION_SEAT = {"gondor": "gondor", "rohan": "rohan", "mordor": "dark-power", "isengard": "saruman",
               "dunland": "saruman", "elves": "fellowship", "dwarves": "fellowship", "west": "fellowship"}
NATIONS = ("mordor", "isengard", "dunland", "gondor", "rohan", "elves", "dwarves", "west")
# All Out War: the turn each nation mobilizes (Saruman's forces: Isengard and Dunland)
AOW_SCHEDULE = {"mordor": 1, "isengard": 2, "dunland": 2, "gondor": 3, "rohan": 4, "elves": 6, "dwarves": 6, "west": 6}
FREE_RACES = ("man-gondor", "man-rohan", "man-west", "elf", "dwarf")


def title(seat: str | None) -> str:
    return TITLES.get(seat or "", (seat or "nobody").title())


@lru_cache(maxsize=None)
def load_toml(name: str) -> dict:
    return tomllib.loads((DATA / name).read_text())


def refuse(message: str, section: str | None = None) -> IllegalOrder:
    return IllegalOrder(message, section)


def players(st) -> int:
    return st["players"]


def order(st) -> tuple[str, ...]:
    return ORDER[st["players"]]


def seat_of_side(st, side: str) -> str:
    """The seat that controls a character or army of ``side`` (rohan: Gondor's in the four-player game)."""
    if side == "rohan" and st["players"] == 4:
        return "gondor"
    return side


def nation_seat(st, nation: str) -> str:
    return seat_of_side(st, NATION_SEAT[nation])


def char_seat(st, cid: str) -> str:
    """Who moves a character now: Boromir by the Fellowship (AA.2) unless he has left the Fellowship
    (the seizure), Aragorn by Gondor once king (DD.1)."""
    c = st["chars"][cid]
    return c["seat"]


def alive(st, cid: str) -> bool:
    return cid in st["chars"] and st["chars"][cid]["alive"]


def hex_of(st, cid: str) -> str | None:
    c = st["chars"].get(cid)
    return c["hex"] if c and c["alive"] else None


def units_in(st, hx: str) -> list[str]:
    return [u for u, d in st["units"].items() if d["hex"] == hx and d["sp"] > 0]


def chars_in(st, hx: str) -> list[str]:
    return [c for c, d in st["chars"].items() if d["hex"] == hx and d["alive"]]


def allied(st, a: str, b: str) -> bool:
    return a == b or sorted((a, b)) in [sorted(p) for p in st["alliances"]]


def cached_by_text(cache: dict, text: str, build):
    """``build(text)`` once per text (a group's file, kept in the game's state, is read on every order):
    by the text's SHA-256, at most 32 kept."""
    key = hashlib.sha256(text.encode()).hexdigest()
    if key not in cache:
        if len(cache) >= 32:
            cache.clear()
        cache[key] = build(text)
    return cache[key]


def toml_text(text: str, what: str) -> dict:
    """A group's file read as TOML: ValueError with a short reason if it is not."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{what} is not TOML: {str(e)[:120]}") from None
