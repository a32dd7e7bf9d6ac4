"""The hand-written parts against the maintained alternative (issue 43), printed, not asserted:
``python -m benchmarks.bench_libraries [-n 7]``.

Each figure is on the worst case a user waits for, in CPU time (``time.process_time()``: the machine is shared),
the median of ``-n`` rounds, the two ways interleaved. docs/architecture.md ("Hand-written parts, and why") keeps
the decision each figure supports.

* The PNG writer: since issue 43 Pillow's own (render/png.py's ``save``: zlib, level 6, no metadata), its share
  of the whole Gondor map's cached render with 80 counters (the largest map a player waits for), and of the
  16-turn Gondor game's record (``/game export format:html``, the largest thing made at once: bench_record).
  The hand-written writer it replaced (libdeflate) saved 20 ms of a whole map's 36 and 0.03 s of the record's
  pictures (this benchmark at the commit that added it, before the writer went).
* The disk cache (render/disk_cache.py: base layers, sprites, texts and packs as raw framed files): a cold
  render (every in-memory cache cleared, as in a new process: the first map after a restart) with the
  cache's files on disk, and with no disk cache (``PALANTIR_RENDER_CACHE=off``: everything drawn); and the
  largest file it keeps, the whole map's base layer, read back from its raw file against a plain PNG file of
  it read by Pillow (what a plain file cache of images would store).

The interaction's answer (bot/transports/callback.py) is measured with the order path: benchmarks/bench_ack.py
prints the bot's CPU per order.
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from PIL import Image

clock = time.process_time


def ms(fn) -> float:
    t = clock()
    fn()
    return (clock() - t) * 1000


def writer(n: int) -> None:
    from render import clear_cache, render_view
    from render import png
    from tests.render_sample import gondor_map, sample_view

    clear_cache()
    img = {}
    real_encode = png.encode

    def grab(picture):  # the RGB picture the renderer hands to its encoder
        img["rgb"] = picture
        return real_encode(picture)

    png.encode = grab
    try:
        render_view(sample_view("westernesse", 80), gondor_map())
    finally:
        png.encode = real_encode
    q = png.quantize(img["rgb"])[0]
    view, m = sample_view("westernesse", 80), gondor_map()
    writes, renders = [], []
    for _ in range(n):
        writes.append(ms(lambda: png.save(q)))
        renders.append(ms(lambda: render_view(view, m)))
    print(f"PNG writer (Pillow's, zlib level 6), the whole Gondor map {q.width}x{q.height}, 80 counters (median of {n}):")
    print(f"  the PNG written  {statistics.median(writes):7.1f} ms  {len(png.save(q)) / 1024:7.1f} KiB")
    print(f"  the cached render, PNG included  {statistics.median(renders):7.1f} ms")

    # the record: every picture it encodes
    from benchmarks.bench_record import GAMES, record

    spent = {"writer": 0.0, "pictures": 0}
    real_save = png.save

    def timed_save(pic):
        spent["pictures"] += 1
        t = clock()
        out = real_save(pic)
        spent["writer"] += (clock() - t) * 1000
        return out

    png.save = timed_save
    try:
        name, seed, script, options = GAMES[0]
        t = clock()
        took, size, orders = record(name, seed, script, options)
        cpu = clock() - t
    finally:
        png.save = real_save
    print(f"PNG writer, the {name} game's record ({orders} orders, {spent['pictures']} pictures, {size / 2**20:.1f} MiB):")
    print(f"  the pictures written  {spent['writer'] / 1000:7.2f} s of the record's {took:.1f} s "
          f"(CPU, the game's play included: {cpu:.1f} s)")


def disk_cache(n: int) -> None:
    from render import clear_cache, render_view
    from render import disk_cache as dc
    from tests.render_sample import gondor_map, sample_view

    m, view = gondor_map(), sample_view("westernesse", 80)
    folder, before = tempfile.mkdtemp(prefix="palantir-bench-"), os.environ.get(dc.CACHE_ENV)
    try:
        os.environ[dc.CACHE_ENV] = folder
        clear_cache()
        render_view(view, m)  # fills the disk cache
        on_disk, drawn = [], []
        for _ in range(n):
            os.environ[dc.CACHE_ENV] = folder
            clear_cache()
            on_disk.append(ms(lambda: render_view(view, m)))
            os.environ[dc.CACHE_ENV] = "off"
            clear_cache()
            drawn.append(ms(lambda: render_view(view, m)))
        print(f"Disk cache, a cold render of the whole Gondor map, 80 counters (the first map after a restart; "
              f"median of {n}):")
        print(f"  its files on disk (render/disk_cache.py)  {statistics.median(on_disk):7.1f} ms")
        print(f"  no disk cache (everything drawn)          {statistics.median(drawn):7.1f} ms")
        # the largest file it keeps: the whole map's base layer, raw, against a plain PNG of the same picture
        from render import hex_base

        bases = sorted(Path(folder).rglob("*"), key=lambda p: p.stat().st_size if p.is_file() else 0)
        base_file = bases[-1]
        got = dc.unframe(base_file, hex_base.MAGIC, "<IIiI")
        (w, h, _), body = got
        picture = Image.frombytes("RGB", (w, h), bytes(body))
        plain = Path(folder) / "plain.png"
        picture.save(plain, format="PNG", compress_level=1)
        raw_t, png_t = [], []
        for _ in range(n):
            raw_t.append(ms(lambda: Image.frombytes("RGB", (w, h), dc.unframe(base_file, hex_base.MAGIC, "<IIiI")[1])))
            png_t.append(ms(lambda: Image.open(io.BytesIO(plain.read_bytes())).load()))
        print(f"Disk cache, the whole map's base layer {w}x{h} read back (median of {n}):")
        print(f"  its raw file, CRC checked ({base_file.stat().st_size / 2**20:.1f} MiB)  {statistics.median(raw_t):7.1f} ms")
        print(f"  a plain PNG file by Pillow ({plain.stat().st_size / 2**20:.1f} MiB)    {statistics.median(png_t):7.1f} ms")
    finally:
        os.environ[dc.CACHE_ENV] = before
        clear_cache()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=7, help="rounds for the medians")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="palantir-bench-")  # the renderer's disk cache: this run's own
    os.environ["PALANTIR_RENDER_CACHE"] = folder
    try:
        disk_cache(args.n)
        writer(args.n)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
