"""Pictures of a game: PNG drawings of one seat's view (see ``render.hexmap``)."""
from __future__ import annotations

from render.hexmap import clear_cache, render_view


def render_frames(*args, **kwargs):  # pragma: no cover - later
    """Animated replays: not implemented yet."""
    raise NotImplementedError("render_frames is not implemented yet")


__all__ = ["render_view", "render_frames", "clear_cache"]
