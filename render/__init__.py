"""Pictures of a game: PNG drawings of one seat's view (see ``render.hexmap``)
and animated replays (``render.replay``)."""
from __future__ import annotations

from render.hexmap import clear_cache
from render.hexmap import render_view as _hex_render_view


def render_view(view: dict, hexmap, *, around: str | None = None) -> bytes:
    """PNG of ``view``: an area game (``view["board"] == "area"``) is drawn by
    ``render.areamap``; every other game by ``render.hexmap``, unchanged."""
    if isinstance(view, dict) and view.get("board") == "area":
        from render.areamap import render_view as _area_render_view

        return _area_render_view(view, hexmap, around=around)
    return _hex_render_view(view, hexmap, around=around)


def render_frames(frames, hexmap, renderer=None, **kw) -> bytes:
    """An animated GIF of ``frames`` ((caption, view) pairs); see ``render.replay``."""
    from render.replay import render_frames as _render

    if renderer is None:
        def renderer(view, hm, around=None):
            return render_view(view, hm, around=around)
    return _render(frames, hexmap, renderer, **kw)


__all__ = ["render_view", "render_frames", "clear_cache"]
