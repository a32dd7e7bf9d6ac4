"""The render cache's folder on disk (issue 26): where built base layers, counter sprites and drawn
texts are kept (``$PALANTIR_RENDER_CACHE``, set from ``[render] cache_dir``), the digest of the
renderer's source that names every file anew when it changes, and the trim that keeps the folder under
its size. It imports nothing of render/, so every drawing module may use it."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

CACHE_ENV = "PALANTIR_RENDER_CACHE"   # the disk cache's folder; "off": none ([render] cache_dir sets it)
DISK_CACHE_BYTES = 256 * 2 ** 20      # at most this much kept on disk (the least recently written go first)
_digests: dict = {}


def cache_dir() -> Path | None:
    """Where built base layers are kept: ``$PALANTIR_RENDER_CACHE`` (``off``: nowhere), by default
    ``$XDG_CACHE_HOME/palantir/maps`` (``~/.cache/palantir/maps``)."""
    v = os.environ.get(CACHE_ENV, "")
    if v.strip().lower() == "off":
        return None
    if v:
        return Path(v).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "palantir" / "maps"


def set_cache_dir(path: str | None) -> None:
    """Name the disk cache's folder for this process and the render workers it starts ("" or None:
    leave it as it is, by default ``~/.cache/palantir/maps``; "off": no disk cache)."""
    if path:
        os.environ[CACHE_ENV] = str(path)


def _renderer_version() -> str:
    """A digest of the source of every module that draws a base layer: a change to any of them
    names every base anew."""
    if "version" not in _digests:
        here = Path(__file__).parent
        h = hashlib.sha256()
        for name in ("disk_cache.py", "hex_base.py", "hex_common.py", "hex_terrain.py", "hex_legend.py",
                     "style.py", "geometry.py", "counters.py"):
            h.update((here / name).read_bytes())
        import PIL

        h.update(PIL.__version__.encode())
        _digests["version"] = h.hexdigest()
    return _digests["version"]


TRIM_EVERY = 256  # sprites and texts written between two trims of the folder (a base layer trims it at once)
_written = 0


def trim(folder: Path) -> None:
    """Keep the folder's cache files (base layers, sprites, texts) under ``DISK_CACHE_BYTES``, the least
    recently written going first."""
    try:
        files = sorted([*folder.glob("*.base"), *folder.glob("*.sprite"), *folder.glob("*.text")],
                       key=lambda p: p.stat().st_mtime, reverse=True)
        kept = 0
        for f in files:
            kept += f.stat().st_size
            if kept > DISK_CACHE_BYTES:
                f.unlink(missing_ok=True)
    except OSError:  # a file another process removed meanwhile: the next trim sees the rest
        pass


def written(folder: Path) -> None:
    """A sprite or a text was written to the cache: every ``TRIM_EVERY`` of them the folder is trimmed
    (a header's text changes every turn, so texts would otherwise pile up between two base layers)."""
    global _written
    _written += 1
    if _written % TRIM_EVERY == 0:
        trim(folder)
