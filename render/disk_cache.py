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
import threading
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from zlib import crc32  # (libdeflate's until issue 43: 2 ms for the whole map's 7 MiB base layer, not 0.3; unfelt)

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


KINDS = (".base", ".sprite", ".text", ".memo", ".under", ".pack")  # the cache files' names end so


def trim(folder: Path) -> None:
    """Keep the folder's cache files (base layers, sprites, texts) under ``DISK_CACHE_BYTES``, the least
    recently written going first. One listing of the folder and one ``stat`` a file (a glob a kind and two
    ``stat``s a file were 1 % of the test suite's CPU, the folder holding thousands of sprites and texts);
    a file another process removed meanwhile is passed over."""
    files = []
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                if e.name.endswith(KINDS):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    files.append((st.st_mtime, st.st_size, e.path))
    except OSError:  # (no folder)
        return
    files.sort(key=lambda f: f[0], reverse=True)
    kept = 0
    for _, size, path in files:
        kept += size
        if kept > DISK_CACHE_BYTES:
            try:
                os.unlink(path)
            except OSError:
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
    return magic + struct.pack(fmt, *fields, crc32(body)) + body


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
    return (tuple(fields), body) if crc32(body) == crc else None


def unframe_dict(path: Path, magic: bytes) -> dict:
    """A marshalled dict that :func:`frame` wrote at ``path`` with one ``<I`` field (a memo, a pack), or {}
    if the file is missing, of another kind, cut short, corrupt, or not a dict."""
    got = unframe(path, magic, "<I")
    if got is None:
        return {}
    try:
        loaded = marshal.loads(got[1])
    except (ValueError, EOFError, TypeError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


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
            data = unframe_dict(self._path(folder), MEMO_MAGIC)
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


def kept_image(key: tuple, draw, packed: tuple | None = None):
    """A small image the view layer draws the same way every time (a marker chit, a mask, rungs or an
    arrow across a hexside), from its file in the cache folder or ``draw()`` (and stored there):
    ``draw`` gives an image, or an image and the two offsets it is placed by. One file a key (named by a
    digest of the renderer's source and ``key``), with its CRC; written under a unique name and renamed
    into place; one that does not load is drawn again and rewritten. With ``packed``, the render's pack
    is asked first (:func:`pack_get`: :func:`dump_kept`'s value)."""
    if packed is not None:
        got = load_kept(pack_get(packed))
        if got is not None:
            return got
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


# --------------------------------------------------------------------------
# A map's pack (issue 26: the cold first render read a file for every sprite, text, chit and mask, each
# with its open, its name's digest and its CRC): one file a base layer (``<the base's name>.pack``) holding
# everything a render of that map and window used besides the base itself (counter sprites, text masks,
# chits and masks, the hex numbers' boxes and the place names' spots), loaded whole, with one read and
# one CRC, at the first render of that window in a process. A render runs inside :func:`pack_for`;
# the caches below it ask :func:`pack_get` on a miss in memory, and tell :func:`pack_note` what they gave
# (a hit in memory too): when a render used something the file lacks, the file is written anew at its
# end (at most PACK_MAX bytes: past that, what was used since the last write). Values are marshalled
# (tuples, numbers, strings, bytes); the file has its CRC; one that does not load is ignored (its values
# come from their own files or are drawn again, and the pack is written anew).
# --------------------------------------------------------------------------
PACK_MAGIC = b"palantir-pack 1\n"
PACK_MAX = 16 * 2 ** 20   # bytes of values kept in one pack
PACK_SHARE = 8            # a pack is rewritten once what is new is an eighth of what it holds (or it is past PACK_MAX)
PACKS_KEPT = 8            # packs held in memory (their keys, and their values until a render takes them)
_pack_var: ContextVar["Pack | None"] = ContextVar("palantir_render_pack", default=None)
_packs: "OrderedDict[object, Pack]" = OrderedDict()
_pack_lock = threading.Lock()


def _size(v) -> int:
    if isinstance(v, (bytes, bytearray)):
        return len(v)
    if isinstance(v, tuple):
        return sum(_size(x) for x in v) + 8
    return 8


class Pack:
    """One map and window's pack file (see above): ``stored`` what the file holds (loaded at the first
    lookup; ``stored_bytes`` its size), ``new`` what renders used that it lacks (key: (value, dump)), ``fresh``
    those dumped and not yet written (``fresh_bytes``), ``seen`` the stored keys used since the last write.

    A pack is written at the end of a render that used something it lacks when it holds nothing yet, when
    what is new reaches ``1 / PACK_SHARE`` of what it holds, or when the whole would be past ``PACK_MAX``
    (then it keeps what was used since it was last written): a new turn's header is a few KiB and a window's
    pack some MiB, and writing it whole for every new header cost a scripted game's 230 maps 1.2 GiB of
    writes and a tenth of their time. What is not written yet is in memory for the process's later maps;
    a restarted process draws it again (a few milliseconds)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stored: dict | None = None
        self.stored_bytes = 0
        self.new: dict = {}
        self.fresh: dict = {}
        self.fresh_bytes = 0
        self.seen: set = set()
        self.lock = threading.Lock()

    def load(self) -> dict:
        data = self.stored = unframe_dict(self.path, PACK_MAGIC)
        self.stored_bytes = _size(tuple(data.values()))
        return data

    def get(self, key):
        stored = self.stored if self.stored is not None else self.load()
        got = stored.get(key)
        if got is not None:
            self.seen.add(key)
            return got
        return self.fresh.get(key)

    def note(self, key, value, dump) -> None:
        stored = self.stored if self.stored is not None else self.load()
        if key in stored:
            self.seen.add(key)
        elif key not in self.new and key not in self.fresh:
            self.new[key] = (value, dump)

    def flush(self) -> None:
        if not self.new:
            return
        with self.lock:
            new, self.new = self.new, {}
            stored = self.stored if self.stored is not None else self.load()
            for key, (value, dump) in new.items():
                if key in stored or key in self.fresh:
                    continue
                try:
                    self.fresh[key] = dumped = dump(value)
                except (ValueError, TypeError, AttributeError):
                    continue
                self.fresh_bytes += _size(dumped)
            if not self.fresh or (stored and self.fresh_bytes * PACK_SHARE < self.stored_bytes
                                  and self.stored_bytes + self.fresh_bytes <= PACK_MAX):
                return  # (kept in memory until there is enough to write)
            fresh, body = self.fresh, None
            for data in ({**stored, **fresh}, {**{k: stored[k] for k in self.seen if k in stored}, **fresh}):
                size = _size(tuple(data.values()))
                if size > PACK_MAX:
                    continue
                try:
                    body = marshal.dumps(data)
                except ValueError:  # a key or value marshal refuses: not kept
                    self.fresh, self.fresh_bytes = {}, 0
                    return
                self.stored, self.stored_bytes, self.seen = data, size, set()
                self.fresh, self.fresh_bytes = {}, 0
                break
            if body is None:  # (what is new alone is past PACK_MAX: not kept)
                self.fresh, self.fresh_bytes = {}, 0
                return
        folder = self.path.parent
        store_file(folder, self.path, frame(PACK_MAGIC, "<I", (), body), then=written)


@contextmanager
def pack_for(key, name):
    """Run a render inside the pack of ``key`` (in memory; ``name()`` gives its file's name, without the
    folder: only asked at the first use of ``key`` in a process); at the end, what the render used that
    the file lacks is written to it. No disk cache: no pack."""
    folder = cache_dir()
    if folder is None:
        yield None
        return
    with _pack_lock:
        p = _packs.get(key)
        if p is None or p.path.parent != folder:
            p = _packs[key] = Pack(folder / (name() + ".pack"))
            while len(_packs) > PACKS_KEPT:
                _packs.popitem(last=False)
        else:
            _packs.move_to_end(key)
    token = _pack_var.set(p)
    try:
        yield p
    finally:
        _pack_var.reset(token)
    p.flush()


def pack_get(key):
    """The stored value of ``key`` in the current render's pack (None: no pack, or not in it)."""
    p = _pack_var.get()
    return None if p is None else p.get(key)


def pack_note(key, value, dump) -> None:
    """The current render used ``value`` for ``key`` (``dump(value)`` is what its pack keeps: marshallable,
    and what :func:`pack_get` gives back)."""
    p = _pack_var.get()
    if p is not None:
        p.note(key, value, dump)


def forget_packs() -> None:
    """Drop the packs held in memory (clear_cache: as in a new process)."""
    with _pack_lock:
        _packs.clear()


def dump_image(img) -> tuple:
    """An image as a pack keeps it: (mode, width, height, pixels)."""
    return (img.mode, img.width, img.height, img.tobytes())


def load_image(raw, mode: str | None = None):
    """:func:`dump_image`'s image (None: not one, or not of ``mode``)."""
    from PIL import Image

    try:
        m, w, h, body = raw
    except (TypeError, ValueError):
        return None
    if m not in ("L", "RGB", "RGBA") or (mode is not None and m != mode) or not isinstance(body, bytes) \
            or not isinstance(w, int) or not isinstance(h, int) or w <= 0 or h <= 0 or len(body) != w * h * len(m):
        return None
    return Image.frombuffer(m, (w, h), body, "raw", m, 0, 1)  # on the pack's bytes: no copy (read-only: a
    # drawing on it would copy it first)


def dump_kept(got) -> tuple:
    """:func:`kept_image`'s image (and offsets) as a pack keeps it."""
    img, ox, oy = got if isinstance(got, tuple) else (got, None, None)
    return dump_image(img) + (ox, oy)


def as_is(value):
    """A pack's dump of a value it keeps as it is (numbers, strings, tuples of them)."""
    return value


def load_kept(raw, mode: str | None = None):
    """:func:`dump_kept`'s image, or image and offsets (None: not one, or not of ``mode``)."""
    if not isinstance(raw, tuple) or len(raw) != 6:
        return None
    img = load_image(raw[:4], mode)
    if img is None:
        return None
    ox, oy = raw[4:]
    if ox is None:
        return img
    return (img, ox, oy) if isinstance(ox, int) and isinstance(oy, int) else None
