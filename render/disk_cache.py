"""The render cache's folder on disk (issue 26): where built base layers, counter sprites and drawn
texts are kept (``$PALANTIR_RENDER_CACHE``, set from ``[render] cache_dir``), the digest of the
renderer's source that names every file anew when it changes, and the trim that keeps the folder under
its size. It imports nothing of render/, so every drawing module may use it."""
from __future__ import annotations

import hashlib
import marshal
import os
import struct
import sys
import zlib
from functools import lru_cache
from pathlib import Path

CACHE_ENV = "PALANTIR_RENDER_CACHE"   # the disk cache's folder; "off": none ([render] cache_dir sets it)
DISK_CACHE_BYTES = 256 * 2 ** 20      # at most this much kept on disk (the least recently written go first)
_digests: dict = {}


def cache_dir() -> Path | None:
    """Where built base layers are kept: ``$PALANTIR_RENDER_CACHE`` (``off``: nowhere), by default
    ``$XDG_CACHE_HOME/palantir/maps`` (``~/.cache/palantir/maps``)."""
    env = os.environ
    return _folder(env.get(CACHE_ENV, ""), env.get("XDG_CACHE_HOME", ""), env.get("HOME", ""))


@lru_cache(maxsize=8)
def _folder(v: str, xdg: str, home: str) -> Path | None:
    """:func:`cache_dir` for these variables (asked for every sprite and text: building the path each
    time cost more than reading a sprite)."""
    if v.strip().lower() == "off":
        return None
    if v:
        return Path(v).expanduser()
    return Path(xdg or Path.home() / ".cache") / "palantir" / "maps"


def set_cache_dir(path: str | None) -> None:
    """Name the disk cache's folder for this process and the render workers it starts ("" or None:
    leave it as it is, by default ``~/.cache/palantir/maps``; "off": no disk cache)."""
    if path:
        os.environ[CACHE_ENV] = str(path)


def _renderer_version() -> str:
    """A digest of the source of every module that draws what is kept on disk (base layers, the
    layer under the counters, sprites, masks, texts, measures): a change to any of them names every
    file anew."""
    if "version" not in _digests:
        here = Path(__file__).parent
        h = hashlib.sha256()
        for name in ("disk_cache.py", "hex_base.py", "hex_common.py", "hex_terrain.py", "hex_legend.py",
                     "style.py", "geometry.py", "counters.py", "hex_pieces.py", "hex_underlay.py"):
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
        files = sorted([*folder.glob("*.base"), *folder.glob("*.sprite"), *folder.glob("*.text"), *folder.glob("*.memo"),
                        *folder.glob("*.under")],
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


def frame(magic: bytes, fmt: str, fields: tuple, body: bytes) -> bytes:
    """A cache file's bytes: ``magic``, then ``fields`` and the body's CRC packed with the ``struct`` format
    ``fmt`` (its last item the CRC), then the body."""
    return magic + struct.pack(fmt, *fields, zlib.crc32(body)) + body


def unframe(path: Path, magic: bytes, fmt: str) -> tuple[tuple, memoryview] | None:
    """What :func:`frame` wrote at ``path``: its fields (without the CRC) and its body, or None if the file is
    missing, of another kind, cut short or corrupt (the CRC)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(magic) + struct.calcsize(fmt)
    if len(data) < head or not data.startswith(magic):
        return None
    *fields, crc = struct.unpack(fmt, data[len(magic):head])
    body = memoryview(data)[head:]
    return (tuple(fields), body) if zlib.crc32(body) == crc else None


def store_file(folder: Path, path: Path, data: bytes, then=written) -> None:
    """``data`` kept as the cache file ``path`` in ``folder``: written under a unique name and renamed into
    place (a reader sees the old file, none, or the whole new one), then ``then(folder)`` (the trim's count;
    None: nothing). A read-only or full disk, or a file another process removed, keeps nothing: what was
    drawn is used all the same."""
    tmp = folder / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        return
    if then is not None:
        then(folder)


MEMO_MAGIC = b"palantir-memo 1\n"
MEMO_MAX = 50_000  # entries kept in one memo file; past it the file starts afresh


class DiskMemo:
    """Small values the renderer works out from its font for every map (the width of each hex number,
    the box of each counter id), kept in one file in the cache folder (``NAME-<digest>.memo``: the
    renderer's source and Python's version name it), loaded whole at the first lookup: a new process
    otherwise measures every hex number of the map again. Values are marshalled (tuples, numbers,
    strings); the file has its CRC; one that does not load is ignored (its values are worked out
    again). :meth:`flush` writes the file back when something was added (under a unique name, renamed
    into place: two processes flushing at once leave one whole file, the other's additions redone
    later). :meth:`forget` drops the values held in memory (clear_cache: as in a new process)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.data: dict | None = None
        self.dirty = False

    def _path(self, folder: Path) -> Path:
        key = repr((_renderer_version(), sys.version, self.name))
        return folder / f"{self.name}-{hashlib.sha256(key.encode()).hexdigest()[:24]}.memo"

    def _load(self) -> dict:
        folder = cache_dir()
        data: dict = {}
        if folder is not None:
            got = unframe(self._path(folder), MEMO_MAGIC, "<I")
            if got is not None:
                try:
                    loaded = marshal.loads(got[1])
                except (ValueError, EOFError, TypeError):
                    loaded = None
                if isinstance(loaded, dict):
                    data = loaded
        self.data = data
        return data

    def get(self, key, compute):
        """The value for ``key``: from memory, from the file, or ``compute()`` (kept for :meth:`flush`)."""
        data = self.data if self.data is not None else self._load()
        try:
            return data[key]
        except KeyError:
            pass
        value = data[key] = compute()
        self.dirty = True
        return value

    def flush(self) -> None:
        if not self.dirty or self.data is None:
            return
        self.dirty = False
        folder = cache_dir()
        if folder is None:
            return
        if len(self.data) > MEMO_MAX:
            self.data = {}
            return
        try:
            body = marshal.dumps(self.data)
        except ValueError:  # a value marshal refuses: worked out again next time
            return
        store_file(folder, self._path(folder), frame(MEMO_MAGIC, "<I", (), body), then=None)

    def forget(self) -> None:
        self.data = None
        self.dirty = False


IMAGE_MAGIC = b"palantir-image 1\n"
_IMAGE_HEAD = "<4sIIiiI"  # mode, width, height, two offsets, CRC of the pixels


def kept_image(key: tuple, draw):
    """A small image the view layer draws the same way every time (a marker chit, a mask, rungs or an
    arrow across a hexside), from its file in the cache folder or ``draw()`` (and stored there):
    ``draw`` gives an image, or an image and the two offsets it is placed by. One file a key (named by a
    digest of the renderer's source and ``key``), with its CRC; written under a unique name and renamed
    into place; one that does not load is drawn again and rewritten."""
    folder = cache_dir()
    if folder is None:
        return draw()
    from PIL import Image

    path = folder / (hashlib.sha256(repr((_renderer_version(), key)).encode()).hexdigest()[:40] + ".sprite")
    if (got := unframe(path, IMAGE_MAGIC, _IMAGE_HEAD)) is not None:
        (mode, w, h, ox, oy), body = got
        mode = mode.rstrip(b" ").decode("ascii", "replace")
        if mode in ("L", "RGB", "RGBA") and len(body) == w * h * len(mode):
            img = Image.frombytes(mode, (w, h), body)
            return (img, ox, oy) if ox != -2 ** 31 else img
    got = draw()
    img, ox, oy = got if isinstance(got, tuple) else (got, -2 ** 31, 0)
    body = img.tobytes()
    store_file(folder, path, frame(IMAGE_MAGIC, _IMAGE_HEAD, (img.mode.ljust(4).encode(), img.width, img.height, ox, oy),
                                   body))
    return got
