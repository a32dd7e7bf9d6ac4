"""A game's board as the application needs it, whatever its kind: a place typed by a player
(``/game map around:``) parsed to its canonical name, places offered for autocomplete, and the
object the renderer draws from (handed to it: the renderer never fetches a ruleset).

``HexBoard`` wraps a hex map (the SPI games); ``AreaBoard`` a board of named areas (Risk)."""
from __future__ import annotations

from typing import Any, Iterable, Protocol

from engine.hexgrid import Hex, HexError


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


class Board(Protocol):
    kind: str  # "hex" or "area"

    def parse_place(self, text: str) -> str:
        """The canonical place for ``text``; ValueError with a short message otherwise."""

    def place_choices(self, prefix: str, view: dict) -> list[tuple[str, str]]:
        """Up to 25 (label, value) pairs for autocomplete; ``view`` is the public view."""

    @property
    def drawable(self) -> Any:
        """What the renderer is handed with a view (a hex map, an area board)."""


class HexBoard:
    kind = "hex"

    def __init__(self, hexmap=None):
        self.hexmap = hexmap

    @property
    def drawable(self):
        return self.hexmap

    def parse_place(self, text: str) -> str:
        try:
            h = Hex.parse(text)
        except HexError as e:
            raise ValueError(str(e)) from None
        if self.hexmap is not None and h not in self.hexmap:
            raise ValueError(f"Hex {_clip(text, 10)} is off the map.")
        return str(h)

    def place_choices(self, prefix: str, view: dict) -> list[tuple[str, str]]:
        """The hexes where the public map shows units."""
        cur = prefix.strip().lower()
        hexes = sorted({str(u["hex"]) for u in view.get("units", []) if u.get("hex")})
        return [(h, h) for h in hexes if h.startswith(cur)][:25]


class AreaBoard:
    kind = "area"

    def __init__(self, board):
        self.board = board  # has ``areas``: id -> an area with a ``name``

    @property
    def drawable(self):
        return self.board

    def _areas(self) -> dict:
        return self.board.areas if self.board is not None else {}

    def parse_place(self, text: str) -> str:
        areas = self._areas()
        t = text.strip().lower()
        if t in areas:
            return t
        cands = [a for a in areas if a.startswith(t)] or \
                [a for a, ar in areas.items() if t and t in str(getattr(ar, "name", "")).lower()]
        if len(cands) == 1:
            return cands[0]
        hint = f" Did you mean {', '.join(f'`{c}`' for c in cands[:5])}?" if cands else " Autocomplete lists the areas."
        raise ValueError(f"There is no area `{_clip(text, 30)}` on this board.{hint}")

    def place_choices(self, prefix: str, view: dict) -> list[tuple[str, str]]:
        cur = prefix.strip().lower()
        out = []
        for aid, ar in self._areas().items():
            name = str(getattr(ar, "name", aid))
            if not cur or cur in aid or cur in name.lower():
                out.append((_clip(f"{aid} ({name})" if name != aid else aid, 100), aid))
        starts = [c for c in out if c[1].startswith(cur)]
        return (starts + [c for c in out if c not in starts])[:25]


def merged_view(views: Iterable[dict], public: dict) -> dict:
    """Everything revealed: the public view with every seat's own knowledge of its units merged in; what a
    seat's view says of its own units (``side`` its ``seat``) last, so that it wins over what another seat
    sees of them (a dummy's hollow drop over the drop every other seat sees, engine/display.py)."""
    v = dict(public)
    views = list(views)
    units = {u["id"]: dict(u) for u in v.get("units", [])}
    for sv in views:  # the units in the order they are first seen
        for u in sv.get("units", []):
            units.setdefault(u["id"], {})
    for own in (False, True):
        for sv in views:
            seat = sv.get("seat")
            for u in sv.get("units", []):
                if (seat is not None and u.get("side") == seat) == own:
                    units[u["id"]].update(u)
    v["units"] = list(units.values())
    return v
