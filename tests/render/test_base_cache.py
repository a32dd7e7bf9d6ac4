"""The base layer kept on disk (issue 26): a process's first map is drawn from the stored terrain
layer, not built; the file is named by the map's data and the renderer's source; a corrupt file is
built again; two processes writing the same base at once leave one whole file."""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing

import pytest

from render import disk_cache, hex_base
from render.hexmap import clear_cache, render_view
from tests.render_sample import gondor_map, sample_view


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(hex_base.CACHE_ENV, str(tmp_path))
    clear_cache()
    yield tmp_path
    clear_cache()


def _draw(view, m) -> bytes:
    return render_view(view, m, focus=True)


def _unlink_packs(folder) -> None:
    """Remove the maps' packs (render/disk_cache.py: what a window's render used, in one file), so that
    a render takes its sprites, texts and masks from their own files."""
    for p in folder.glob("*.pack"):
        p.unlink()


def test_a_fresh_process_draws_from_the_stored_base(cache, monkeypatch):
    m = gondor_map()
    view = sample_view()
    first = _draw(view, m)
    files = sorted(cache.glob("*.base"))
    assert len(files) == 1
    clear_cache()  # as a new process: nothing in memory

    def no_build(*a, **kw):
        raise AssertionError("built again: the stored base was not used")

    monkeypatch.setattr(hex_base, "_build_base", no_build)
    assert _draw(view, m) == first


def test_a_corrupt_or_truncated_file_is_built_again(cache):
    m = gondor_map()
    view = sample_view()
    first = _draw(view, m)
    (path,) = cache.glob("*.base")
    whole = path.read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0xFF  # one pixel's byte changed on disk: its CRC no longer matches
    for bad in (b"not a base", whole[: len(whole) // 2], bytes(flipped)):
        path.write_bytes(bad)
        for under in cache.glob("*.under"):  # the base with the view's zone, levels... on: the base is needed
            under.unlink()
        clear_cache()
        assert _draw(view, m) == first
        assert path.read_bytes() != bad  # rewritten whole
    assert not list(cache.glob(".*.tmp"))


def test_the_name_follows_the_maps_data_and_off_keeps_nothing(cache, monkeypatch):
    from dataclasses import replace

    m = gondor_map()
    view = sample_view()
    _draw(view, m)
    h = sorted(m.hexes)[len(m.hexes) // 2]
    m.hexes[h] = replace(m.hexes[h], terrain="forest" if m.hexes[h].terrain != "forest" else "clear")
    clear_cache()  # a map edited in place
    _draw(view, m)
    assert len(list(cache.glob("*.base"))) == 2
    monkeypatch.setenv(hex_base.CACHE_ENV, "off")
    off = cache / "off"
    assert hex_base.cache_dir() is None and not off.exists()


def _render_in_child(folder: str) -> bytes:
    import os

    os.environ[hex_base.CACHE_ENV] = folder
    clear_cache()
    return _draw(sample_view(), gondor_map())


def test_two_processes_writing_the_same_base_leave_one_whole_file(cache):
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(2, mp_context=ctx) as pool:
        outs = list(pool.map(_render_in_child, [str(cache)] * 4))
    assert len(set(outs)) == 1
    assert len(list(cache.glob("*.base"))) == 1 and not list(cache.glob(".*.tmp"))
    clear_cache()
    assert _draw(sample_view(), gondor_map()) == outs[0]


# ---------------------------------------------------------------------------------------------
# Counter sprites kept on disk beside the base (issue 26: the cold first render drew each sprite)
# ---------------------------------------------------------------------------------------------
def test_a_fresh_process_draws_its_counters_from_the_stored_sprites(cache, monkeypatch):
    from render import counters as C

    m = gondor_map()
    view = sample_view()
    first = _draw(view, m)
    files = sorted(cache.glob("*.sprite"))
    assert len(files) >= 5
    clear_cache()  # as a new process

    def no_draw(*a, **kw):
        raise AssertionError("drawn again: the stored sprite was not used")

    monkeypatch.setattr(C, "draw_counter", no_draw)
    assert _draw(view, m) == first


def test_a_corrupt_sprite_file_is_drawn_again_and_the_name_follows_what_it_shows(cache):
    from render import counters as C

    args = (40, (139, 26, 26), "infantry", "OI12", "4-3")
    want = C.draw_counter(*args).tobytes()
    C.counter_sprite(*args)
    (path,) = cache.glob("*.sprite")
    whole = path.read_bytes()
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0xFF
    for bad in (b"not a sprite", whole[: len(whole) // 2], bytes(flipped)):
        path.write_bytes(bad)
        C.counter_sprite.cache_clear()
        assert C.counter_sprite(*args).tobytes() == want
        assert path.read_bytes() == whole  # rewritten whole
    C.counter_sprite(40, (139, 26, 26), "infantry", "OI13", "4-3")  # another id: another file
    assert len(list(cache.glob("*.sprite"))) == 2 and not list(cache.glob(".*.tmp"))


def test_a_fresh_process_takes_its_texts_from_disk_and_a_corrupt_one_is_drawn_again(cache, monkeypatch):
    """The texts stamped on a map (header, hex numbers over counters, stack counts) are kept on disk
    too: a fresh process draws none of them; a corrupt file is drawn again and rewritten whole."""
    from render import style as S

    m = gondor_map()
    view = sample_view()
    first = _draw(view, m)
    files = sorted(cache.glob("*.text"))
    assert len(files) >= 5
    whole = files[0].read_bytes()
    clear_cache()
    drawn = S._draw_text_mask

    def no_draw(*a, **kw):
        raise AssertionError("drawn again: the stored text was not used")

    monkeypatch.setattr(S, "_draw_text_mask", no_draw)
    assert _draw(view, m) == first
    monkeypatch.setattr(S, "_draw_text_mask", drawn)
    flipped = bytearray(whole)
    flipped[-1] ^= 0xFF
    for bad in (b"not a text", whole[: len(whole) // 2], bytes(flipped)):
        files[0].write_bytes(bad)
        _unlink_packs(cache)  # the text is in the map's pack too: needed without it
        clear_cache()
        assert _draw(view, m) == first
        assert files[0].read_bytes() == whole
    assert not list(cache.glob(".*.tmp"))


def test_texts_written_between_two_base_layers_are_trimmed_too(cache, monkeypatch):
    """A header's text changes every turn, so texts are written long after the base layer: every
    ``TRIM_EVERY`` sprites or texts written, the folder is trimmed to ``DISK_CACHE_BYTES`` as well,
    the least recently written first (the base layer, written before them, goes first here)."""
    import os

    from render import style as S

    m = gondor_map()
    _draw(sample_view(), m)
    (base,) = cache.glob("*.base")
    os.utime(base, (1, 1))  # the oldest file of the folder
    monkeypatch.setattr(disk_cache, "TRIM_EVERY", 3)
    monkeypatch.setattr(disk_cache, "DISK_CACHE_BYTES", base.stat().st_size - 1)  # no room for the base
    for turn in range(1, 7):
        S._text_mask(f"Game-Turn {turn} of 16", 14, "la", 0)
    assert not base.exists()
    assert len(list(cache.glob("*.text"))) >= 6  # the texts just written are kept


def test_a_fresh_process_takes_hex_number_widths_and_id_boxes_from_the_memo_file(cache, monkeypatch):
    """The width of each hex number and the boxes of each counter id a map works out from the font are
    kept in one ``.memo`` file (issue 26: a new process measured the whole map's hex numbers and drew
    every id's mask again): a fresh process measures and draws none of them, in every kind of map; a
    corrupt or cut file is worked out again and rewritten whole."""
    m = gondor_map()
    view = sample_view("westernesse", 80)
    kinds = ({}, {"around": "1907"}, {"focus": True})
    first = [render_view(view, m, **k) for k in kinds]
    (memo,) = cache.glob("*.memo")
    whole = memo.read_bytes()
    clear_cache()  # as a new process

    def strict_flush(self):
        assert not self.dirty, "worked out again: the memo file was not used"

    monkeypatch.setattr(disk_cache.DiskMemo, "flush", strict_flush)
    assert [render_view(view, m, **k) for k in kinds] == first
    assert memo.read_bytes() == whole  # nothing new: not written again
    monkeypatch.undo()
    monkeypatch.setenv(hex_base.CACHE_ENV, str(cache))
    flipped = bytearray(whole)
    flipped[-1] ^= 0xFF
    for bad in (b"not a memo", whole[: len(whole) // 2], bytes(flipped)):
        memo.write_bytes(bad)
        _unlink_packs(cache)  # the hex numbers' boxes are in the map's pack too: measured again without it
        clear_cache()
        assert [render_view(view, m, **k) for k in kinds] == first
        assert memo.read_bytes() == whole  # worked out again, rewritten whole
    assert not list(cache.glob(".*.tmp"))


def test_a_fresh_process_takes_its_chits_masks_and_hexside_marks_from_disk(cache, monkeypatch):
    """Marker chits, the zone's, held levels' and ringed hexes' masks, rungs and arrows across hexsides
    are kept on disk like the counters (issue 26: drawn supersampled, they were most of a fresh
    process's first crop round a siege): a fresh process draws none of them; a corrupt or cut file is
    drawn again and rewritten whole."""
    from render import hex_common

    m = gondor_map()
    view = sample_view("westernesse", 80)
    view["zone"] = ["1907", "2007", "1908"]
    kinds = ({}, {"around": "1907"}, {"focus": True})
    first = [render_view(view, m, **k) for k in kinds]
    for under in cache.glob("*.under"):  # the masks are drawn on the base kept with them: needed without it
        under.unlink()
    clear_cache()  # as a new process
    real = hex_common.kept_image
    seen = set()

    def strict(key, draw, *packed):
        def no_draw():
            raise AssertionError(f"drawn again: {key}")
        seen.add(key[1])
        return real(key, no_draw, *packed)

    monkeypatch.setattr(hex_common, "kept_image", strict)
    assert [render_view(view, m, **k) for k in kinds] == first
    assert {"rungs_sprite", "ready_arrow_sprite", "marker_sprite", "_hex_mask", "_hatch_mask",
            "_ring_mask"} <= seen, seen
    monkeypatch.setattr(hex_common, "kept_image", real)
    files = sorted(cache.glob("*.sprite"), key=lambda p: p.stat().st_size)
    small = [f for f in files if f.read_bytes().startswith(disk_cache.IMAGE_MAGIC)]
    assert small
    whole = small[0].read_bytes()
    flipped = bytearray(whole)
    flipped[-1] ^= 0xFF
    for bad in (b"not an image", whole[: len(whole) // 2], bytes(flipped)):
        for f in small:
            f.write_bytes(bad)
        for under in cache.glob("*.under"):
            under.unlink()
        _unlink_packs(cache)
        clear_cache()
        assert [render_view(view, m, **k) for k in kinds] == first
        assert small[0].read_bytes() == whole  # drawn again, rewritten whole
    assert not list(cache.glob(".*.tmp"))


def test_a_fresh_process_loads_what_lies_under_the_counters_drawn_on_the_base(cache, monkeypatch):
    """The base with the zone, held levels, ringed hexes, gates and cracks drawn on is kept on disk
    like the base itself (render/hex_underlay.py): a fresh process whose view has the same of those
    loads it and draws none of them (nor loads the bare base); with one of them changed, it draws."""
    from render import hex_underlay

    m = gondor_map()
    view = sample_view("westernesse", 80)
    view["zone"] = ["1907", "2007"]
    kinds = ({}, {"around": "1907"}, {"focus": True})
    first = [render_view(view, m, **k) for k in kinds]
    clear_cache()  # as a new process
    drawn = hex_underlay._draw
    loads = []

    def no_draw(*a, **kw):
        raise AssertionError("drawn again: the stored underlay was not used")

    monkeypatch.setattr(hex_underlay, "_draw", no_draw)
    monkeypatch.setattr(hex_base, "_build_base", no_draw)
    monkeypatch.setattr(hex_base, "_base", lambda *a, **kw: loads.append(a) or no_draw())
    assert [render_view(view, m, **k) for k in kinds] == first
    assert not loads
    monkeypatch.setattr(hex_underlay, "_draw", lambda *a: loads.append(a) or drawn(*a))
    view["zone"] = ["1907"]
    with pytest.raises(AssertionError, match="drawn again"):  # a new zone: the bare base is needed
        render_view(view, m, around="1907")


def test_every_module_drawing_what_is_kept_on_disk_names_its_files():
    """A change to the source of any module that draws a kept file (bases, the under-layer, sprites,
    masks, texts, measures) names every file anew: none is read back drawn by older code."""
    import inspect

    src = inspect.getsource(disk_cache._renderer_version)
    for name in ("hex_base.py", "hex_underlay.py", "hex_pieces.py", "counters.py", "style.py", "hex_terrain.py",
                 "hex_legend.py", "hex_common.py"):
        assert f'"{name}"' in src, name


# ---------------------------------------------------------------------------------------------
# The map's pack (issue 26: the cold first render read a file for every sprite, text and mask)
# ---------------------------------------------------------------------------------------------
def test_a_fresh_process_takes_all_but_the_base_from_one_pack_per_window(cache, monkeypatch):
    """Everything a render of a map's window used besides the base (the counters cut to their ink and
    their ids' plates, texts, chits and masks, the hex numbers' boxes and the place names' spots) is kept
    in one ``.pack`` file a window: a fresh process reads it, and no sprite or text file, draws none of
    them, and writes nothing new."""
    from render import counters as C
    from render import hex_common
    from render import style as S

    m = gondor_map()
    view = sample_view("westernesse", 80)
    view["zone"] = ["1907", "2007", "1908"]
    kinds = ({}, {"around": "1907"}, {"focus": True})
    first = [render_view(view, m, **k) for k in kinds]
    packs = {p: p.read_bytes() for p in cache.glob("*.pack")}
    assert len(packs) == 3  # one a window
    for f in [*cache.glob("*.sprite"), *cache.glob("*.text"), *cache.glob("*.under")]:
        f.unlink()
    clear_cache()  # as a new process

    def no_draw(*a, **kw):
        raise AssertionError("drawn again: the pack was not used")

    real = hex_common.kept_image
    monkeypatch.setattr(C, "draw_counter", no_draw)
    monkeypatch.setattr(S, "_draw_text_mask", no_draw)
    monkeypatch.setattr(hex_common, "kept_image", lambda key, draw, *packed: real(key, no_draw, *packed))
    from render import hex_pieces

    monkeypatch.setattr(hex_pieces, "_number_width", no_draw)  # the hex numbers' boxes: not measured either
    assert [render_view(view, m, **k) for k in kinds] == first
    assert {p: p.read_bytes() for p in cache.glob("*.pack")} == packs  # nothing new: not written again
    assert not list(cache.glob("*.sprite")) and not list(cache.glob("*.text"))


def test_a_corrupt_or_cut_pack_is_worked_out_again_and_rewritten_whole(cache):
    import marshal

    m = gondor_map()
    view = sample_view("westernesse", 80)
    first = _draw(view, m)
    (path,) = cache.glob("*.pack")
    whole = path.read_bytes()
    # (the widths the first render measured for the memo file, kept there, are not measured again)
    keys = {k for k in marshal.loads(whole[len(disk_cache.PACK_MAGIC) + 4:]) if k[0] != "len"}
    assert {k[0] for k in keys} >= {"ink", "plate", "text", "kept", "frame-texts"}
    flipped = bytearray(whole)
    flipped[len(whole) // 2] ^= 0xFF
    for bad in (b"not a pack", whole[: len(whole) // 2], bytes(flipped), disk_cache.frame(
            disk_cache.PACK_MAGIC, "<I", (), marshal.dumps({("counter", 1): "not an image", ("text", "x"): 3}))):
        path.write_bytes(bad)
        for under in cache.glob("*.under"):  # drawn again, as at first: the same masks used
            under.unlink()
        clear_cache()
        assert _draw(view, m) == first
        got = disk_cache.unframe(path, disk_cache.PACK_MAGIC, "<I")
        assert got is not None and keys <= set(marshal.loads(got[1]))  # rewritten whole
    assert not list(cache.glob(".*.tmp"))


def _packed(path) -> dict:
    import marshal

    return marshal.loads(path.read_bytes()[len(disk_cache.PACK_MAGIC) + 4:])


def test_a_pack_past_its_size_keeps_what_was_used_since_it_was_written(cache, monkeypatch):
    """A pack grows with what its window's renders use (a counter moved, a new turn's header); past
    ``PACK_MAX`` bytes it keeps only what was used since it was last written."""
    m = gondor_map()
    view = sample_view("westernesse", 80)
    _draw(view, m)
    (path,) = cache.glob("*.pack")
    monkeypatch.setattr(disk_cache, "PACK_MAX", disk_cache._size(tuple(_packed(path).values())))  # (full)
    monkeypatch.setattr(disk_cache, "PACK_SHARE", 10 ** 9)  # (written whatever is new: see the next test)
    for turn in (4, 5, 6):
        view["turn"] = turn
        _draw(view, m)
        assert disk_cache._size(tuple(_packed(path).values())) <= disk_cache.PACK_MAX
    texts = {k[1] for k in _packed(path) if k[0] == "text"}
    assert any("Turn 6" in t for t in texts) and not any("Turn 3 " in t for t in texts)


def test_a_pack_is_written_again_once_an_eighth_of_it_is_new_and_keeps_what_waited(cache, monkeypatch):
    """A new turn's header adds a few KiB to a pack of some MiB: the pack is not written again for it
    (``PACK_SHARE``), but kept in memory for the process's later maps, and written with the rest once what
    is new reaches an eighth of what the pack holds; the header bands as drawn are not packed."""
    m = gondor_map()
    view = sample_view("westernesse", 80)
    _draw(view, m)
    (path,) = cache.glob("*.pack")
    first = path.read_bytes()
    assert not any(k[0] in ("header", "footer") for k in _packed(path))
    view["turn"] = 4
    _draw(view, m)
    assert path.read_bytes() == first  # (a new header's texts: not enough to write the pack again)
    monkeypatch.setattr(disk_cache, "PACK_SHARE", 10 ** 9)  # (whatever is new is enough)
    view["turn"] = 5
    _draw(view, m)
    texts = {k[1] for k in _packed(path) if k[0] == "text"}
    assert any("Turn 4" in t for t in texts) and any("Turn 5" in t for t in texts)
    assert not any(k[0] in ("header", "footer") for k in _packed(path))
