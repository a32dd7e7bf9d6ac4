"""Pictures of a game: PNG drawings of one seat's view (see ``render.hexmap``)
and animated replays (``render.replay.render_frames``)."""
from __future__ import annotations

from render.hexmap import clear_cache
from render.hexmap import render_view as _hex_render_view


def render_view(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
                focus: bool = False) -> bytes:
    """PNG of ``view``: an area game (``view["board"] == "area"``) is drawn by
    ``render.areamap`` (its own layout: ``radius`` and ``focus`` do not apply); every other game
    by ``render.hexmap`` (the whole map; ``focus``: where the action is; ``around`` a hex,
    ``radius`` hexes either side)."""
    if isinstance(view, dict) and view.get("board") == "provinces":  # a board of provinces
        from render.provinces import render_view as _province_render_view

        return _province_render_view(view, hexmap, around=around, focus=focus)
    if isinstance(view, dict) and view.get("board") == "area":
        from render.areamap import render_view as _area_render_view

        return _area_render_view(view, hexmap, around=around, focus=focus)
    return _hex_render_view(view, hexmap, around=around, radius=radius, focus=focus)


__all__ = ["render_view", "clear_cache"]
