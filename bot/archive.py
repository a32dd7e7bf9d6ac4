"""The record of a game: export and the animated replay."""
from __future__ import annotations

import asyncio
import copy
import functools
import json
import time

from engine.core import Game, state_digest
from engine.rulesets import get_ruleset
from bot.history import entry_of, walk
from bot.storage import GameRow

from bot.outcome import clip, Outcome, Ctx, public_text, seat_title
from bot.table import seated

MAX_RECORD_BYTES = 10 * 2**20  # Discord's default upload limit


def build_record(rs, first: dict, entries: list[dict], data: dict, seat: str | None, over: bool, start: int = 0,
                 seat_title=None) -> bytes:
    """The HTML record (render/record.py) of a game: its ruleset ``rs``, first state, log ``entries``
    (bot/history.walk's) and ``data`` (the export's, whose log texts and lines it shows: masked as the export
    masks them). The pictures: ``seat``'s view (None: the public view) while the game is under way; the
    full view and each seat's once it is ``over``. ``start``: the log position it starts after."""
    keys = ["full", *rs.seats] if over else [seat or "public"]

    def taken(g) -> tuple[dict, dict]:
        raw = {s: rs.view(g.state, s) for s in [None] + [k for k in keys if k not in ("full", "public")]}
        pub = g.dress(raw[None])  # (each of the step's views taken once: the full one merges them)
        return pub, {key: rs.full_view(g.state, raw) if key == "full" else pub if key == "public" else g.dress(raw[key])
                     for key in keys}

    def each():
        if start == 0:
            yield 0, taken(Game(rs, first))
        for e, g, _ in walk(rs, first, entries):
            if e["seq"] >= start:  # (from the state ``start`` left, then every step after it)
                yield e["seq"], taken(g)
    return _record(rs, data, each(), seat, over, seat_title)


def display_of(data: dict):
    """The display vocabulary (engine/display.py) of the game an export is of: its ruleset's, as a game with
    its options has it whatever the seed (a game made again from them, not played)."""
    from bot.verify import game_of

    rs, state = game_of({**data, "seed": "display"})
    return Game(rs, state).view(None).get("display")


def public_views(rs, first: dict, entries: list[dict], display=None) -> dict:
    """The public view of every step of a game under way, for its export (issue 40: `palantir record` makes the
    public record from it, without the seed): the first whole, then each log row's as what changed
    (:func:`view_patch`). Nothing in it that the public map does not show; the game's display vocabulary,
    when it is ``display`` (:func:`display_of`), is not copied: ``"display": "ruleset"``."""
    before = Game(rs, first).view(None)
    out = {"first": before, "steps": []}
    if display is not None and before.get("display") == display:
        out = {"first": {k: v for k, v in before.items() if k != "display"}, "display": "ruleset", "steps": []}
    for _, g, _ in walk(rs, first, entries):
        now = g.view(None)
        out["steps"].append(view_patch(before, now))
        before = now
    return out


def _keyed(v) -> bool:
    """A list of records each with its own ``id`` (a view's units)."""
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) and "id" in x for x in v) and \
        len({json.dumps(x["id"]) for x in v}) == len(v)


def view_patch(a: dict, b: dict) -> dict:
    """What makes view ``a`` into ``b`` (:func:`patched`): ``set``, each top-level key whose value changed, with
    its new value, but for a list of records with ids (units): ``items``, the records that changed or are new,
    and ``ids``, their order if it changed; ``drop``, the keys gone."""
    out: dict = {"set": {}, "items": {}, "drop": [k for k in a if k not in b]}
    for k, v in b.items():
        if k in a and a[k] == v:
            continue
        if k in a and _keyed(a[k]) and _keyed(v):
            old = {json.dumps(x["id"]): x for x in a[k]}
            ids = [x["id"] for x in v]
            out["items"][k] = {"ids": ids if ids != [x["id"] for x in a[k]] else None,
                               "changed": [x for x in v if old.get(json.dumps(x["id"])) != x]}
        else:
            out["set"][k] = v
    return {k: v for k, v in out.items() if v}


def patched(a: dict, patch: dict) -> dict:
    """View ``a`` with ``patch`` (:func:`view_patch`) applied: a new dict, ``a`` unchanged."""
    v = {k: x for k, x in a.items() if k not in (patch.get("drop") or [])}
    v.update(patch.get("set") or {})
    for k, ch in (patch.get("items") or {}).items():
        by_id = {json.dumps(x["id"]): x for x in a[k]}
        by_id.update({json.dumps(x["id"]): x for x in ch["changed"]})
        v[k] = [by_id[json.dumps(i)] for i in (ch["ids"] if ch.get("ids") is not None else [x["id"] for x in a[k]])]
    return v


def public_record(rs, data: dict, seat_title=None) -> bytes:
    """The public record of a game under way from its export's public views (:func:`public_views`)."""
    pv = data["public_views"]
    if len(pv["steps"]) != len(data["log"]):
        raise ValueError(f"{len(pv['steps'])} public views for {len(data['log'])} log rows")

    def each():
        v = {**pv["first"], "display": display_of(data)} if pv.get("display") == "ruleset" else pv["first"]
        yield 0, (v, {"public": v})
        for item, patch in zip(data["log"], pv["steps"]):
            v = patched(v, patch)
            yield item["seq"], (v, {"public": v})
    return _record(rs, data, each(), None, False, seat_title)


def _record(rs, data: dict, taken, seat: str | None, over: bool, seat_title=None) -> bytes:
    """The record's page from each step's (seq, (public view, {key: view pictured})), ``taken`` in order."""
    from render.record import Pictures, header_texts, page

    title_of = seat_title or (lambda s: str(s))
    views = ([("full", "Everything")] + [(s, f"{title_of(s)}'s view") for s in rs.seats]) if over else \
        [(seat or "public", f"{title_of(seat)}'s view" if seat else "Public view")]
    pictures = Pictures(rs.game_board().drawable)
    shown: dict[str, list[int]] = {k: [] for k, _ in views}
    steps: list[dict] = []
    by_seq = {item["seq"]: item for item in data["log"]}
    for seq, (pub, pictured) in taken:
        head, sub = header_texts(pub)
        item = by_seq.get(seq)
        what = f"after #{seq} {item['order']}" if item else "the start"
        steps.append({"seq": seq, "turn": pub.get("turn") or 0, "phase": f"{pub.get('turn')}:{pub.get('phase_title')}",
                      "head": head, "sub": sub, "alt": f"Map of {rs.title}, {head}, {what}."})
        for key, _ in views:
            shown[key].append(pictures.add(pictured[key], key))
    log, phase = [], None
    steps_of = {s["seq"]: i for i, s in enumerate(steps)}
    for item in data["log"]:
        if item["seq"] not in steps_of:
            continue
        i = steps_of[item["seq"]]
        row = {"step": i, "seq": item["seq"], "seat": title_of(item["seat"]) if item.get("seat") else "",
               "text": item["order"] if item.get("kind", "order") == "order" else f"{item.get('kind')}: {item['order']}",
               "rolls": " ".join(str(r) for r in item.get("rolls") or []), "public": item.get("public") or []}
        if steps[i]["phase"] != phase:
            row["phase"] = steps[i]["head"]
            phase = steps[i]["phase"]
        log.append(row)
    result = data.get("result") or {}
    res = result.get("summary") or ""
    history = [f"{title_of(h['seat'])}: held from {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(h['from_at']))}"
               + (f" to {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(h['to_at']))}" if h.get("to_at") else "")
               + (f" ({h['how']})" if h.get("how") and h["how"] != "join" else "")
               for h in data.get("seat_history") or [] if isinstance(h, dict) and h.get("from_at")]
    whose = "Everything revealed, with a switch between each seat's view" if over else \
        (f"{title_of(seat)}'s own view" if seat else "The public view")
    return page(title=f"{rs.title}: game record", subtitle=f"{len(data.get('orders') or [])} orders, {data['status']}",
                whose=whose, result=res or None, steps=steps, log=log, views=views, shown=shown, pictures=pictures,
                seat_history=history)


def record_main(path: str, output: str | None = None) -> int:
    """`palantir record EXPORT.json [-o FILE]`: the HTML record of an export file: everything revealed once
    the game is over (the export holds its seed, to replay it); the public view of a game under way (from
    the public views its export holds, :func:`public_views`)."""
    from pathlib import Path

    from bot.history import HistoryError
    from bot.verify import entries_of, game_of
    from engine.core import OrderError

    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        print(f"palantir record: cannot read {path}: {e}")
        return 2
    if not isinstance(data, dict) or "log" not in data or "ruleset" not in data:
        print(f"palantir record: {path} is not a palantir export (no ruleset or log)")
        return 2
    if not data.get("seed") and not isinstance(data.get("public_views"), dict):
        print("palantir record: the export was made while the game was under way (no seed) by an earlier version, "
              "without the public views, so its steps cannot be made again here: export it again, or ask the bot "
              "for `/game export format:html`")
        return 2
    try:
        if data.get("seed"):
            rs, first = game_of(data)
            html = build_record(rs, first, entries_of(data), data, None, True, seat_title=seat_title)
        else:  # a game under way: its public view
            html = public_record(get_ruleset(data["ruleset"]), data, seat_title)
    except (KeyError, ValueError, TypeError, OrderError, HistoryError) as e:
        print(f"palantir record: the game cannot be replayed from {path}: {e}")
        return 1
    out = Path(output) if output else Path(path).with_suffix(".html")
    out.write_bytes(html)
    print(f"palantir record: {out} ({len(html) / 2**20:.1f} MiB, {len(data['log'])} log rows)")
    return 0


class Archive:
    """Export and the animated replay: an object holding the table and the lobby (the private rooms' talk)."""

    def __init__(self, table, lobby):
        self.table = table
        self.lobby = lobby

    async def export_data(self, row: GameRow, digests: bool = True) -> dict:
        """The export of game ``row``; ``digests``: with each step's state digest once the game is over (the
        whole game replayed: the HTML record, which shows none, asks for none)."""
        seats = await self.table.store.seats(row.id)
        rows = await self.table.store.actions(row.id)
        over = row.status in ("over", "ended")
        rs = get_ruleset(row.ruleset)

        def shown(t: str) -> str:  # secret orders stay masked until the game is over (16.74)
            return t if over else public_text(rs, t)
        log = [{"seq": a.seq, "seat": a.seat, "kind": a.kind, "order": shown(a.text), "ref_seq": a.ref_seq,
                "dice": [a.dice_before, a.dice_after],
                "rolls": [r["value"] for e in a.events for r in e.get("rolls", [])],
                "public": [e["public"] for e in a.events if e.get("public")]} for a in rows]
        data = {
            "palantir_export": 2,
            "ruleset": row.ruleset,
            "options": row.options,
            "status": row.status,
            "commitment": row.commitment,
            "seed": row.seed if over else None,
            "seats": seats,
            "orders": [shown(a.text) for a in rows if a.kind == "order"],
            "log": log,
            # issue 28: who held each seat from when to when (a seat taken over lists both holders)
            "seat_history": await self.table.store.seat_history(row.id),
        }
        if over:  # the private rooms' talk (`/game table`), like whispers, only once the game is over
            rooms = await self.lobby.room_logs(row.id)
            if rooms:
                data["rooms"] = rooms
        if over and digests:  # the state digests would let a guess at hidden facts be checked, so only now
            game = Game(get_ruleset(row.ruleset), await self.table.store.first_snapshot(row.id))
            data["initial_digest"] = state_digest(game.state)
            entries = [entry_of(a) for a in rows]

            def each_digest(start: dict) -> list[str]:  # the whole game again: off the event loop
                return [state_digest(g.state) for _, g, _ in walk(row.ruleset, start, entries)]
            ds = await asyncio.to_thread(each_digest, game.state)
            for d, item in zip(ds, log):
                item["digest"] = d
            data["final_digest"] = ds[-1] if ds else data["initial_digest"]
        if over:
            res = (await self.table.load(row)).result()
            data["result"] = ({"winner": res.winner, "summary": res.summary, "section": res.section} if res else
                              {"winner": None, "summary": "Ended by the creator or a moderator, without a result.",
                               "section": None})
        return data

    async def export(self, ctx: Ctx, fmt: str = "json", since: str | None = None) -> Outcome:
        row = await self.table.current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        if fmt == "html":
            return await self.record(ctx, row, since)
        if fmt != "json":
            return Outcome.error("`format` is `json` or `html`.")
        data = await self.export_data(row)
        if not data["seed"]:  # issue 40: what `palantir record` makes the public record from, without the seed
            rs, rows = get_ruleset(row.ruleset), await self.table.store.actions(row.id)
            first = await self.table.store.first_snapshot(row.id)
            data["public_views"] = await asyncio.to_thread(  # (the whole game again: off the event loop)
                lambda: public_views(rs, first, [entry_of(a) for a in rows], display_of(data)))
        blob = json.dumps(data, indent=1).encode()
        note = "" if data["seed"] else " The dice seed is withheld until the game is over."
        if data.get("result"):
            note = f" {clip(data['result']['summary'], 600)}" + note
        return Outcome.private(f"Export of game {row.id} ({len(data['orders'])} orders).{note}",
                               attachment=blob, attachment_name=f"palantir-game-{row.id}.json")

    async def record(self, ctx: Ctx, row: GameRow, since: str | None = None) -> Outcome:
        """`/game export format:html` (issue 40): the game's record, one self-contained page, from the
        caller's own seat's view (the public view for anyone else) while the game is under way, every
        seat's view and the full view once it is over."""
        if row.status == "open":
            return Outcome.error("The game has not started yet.")
        over = row.status in ("over", "ended")
        seats = await self.table.holding(row, await self.table.store.seats(row.id))
        rs = get_ruleset(row.ruleset)
        mine = [s for s in seated(row.ruleset).seats if seats.get(s) == ctx.user_id]
        seat = None if over else (mine[0] if mine else None)
        rows = await self.table.store.actions(row.id)
        first = await self.table.store.first_snapshot(row.id)
        try:
            start = self._replay_start(rows, first, seated(row.ruleset), since, mine)
        except ValueError as e:
            return Outcome.error(str(e))
        data = await self.export_data(row, digests=False)  # (the page shows no digest: no replay for them)
        html = await asyncio.to_thread(build_record, rs, first, [entry_of(a) for a in rows], data, seat, over,
                                       start, self.table.seat_title)
        day = time.strftime("%Y-%m-%d", time.gmtime(self.table.clock()))
        name = f"palantir-{row.ruleset}-game-{row.id}-{day}.html"
        if len(html) > MAX_RECORD_BYTES:
            return Outcome.error(f"The record is {len(html) / 2**20:.1f} MiB, over Discord's 10 MiB for a file: "
                                 "ask for part of it, `/game export format:html since:turn N` (or `since:last`).")
        whose = "everything revealed" if over else (f"{self.table.seat_title(seat)}'s own view" if seat else "the public view")
        return Outcome.private(f"Record of game {row.id}, {whose}: open the file in a browser, offline.",
                               attachment=html, attachment_name=name)

    async def replay(self, ctx: Ctx, since: str | None = None) -> Outcome:
        row = await self.table.current(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status == "open":
            return Outcome.error("The game has not started yet.")
        over = row.status in ("over", "ended")
        seats = await self.table.holding(row, await self.table.store.seats(row.id))  # (not a seat one left)
        rs = seated(row.ruleset)  # a plain game's moderator replays from the full view too
        mine = [s for s in rs.seats if seats.get(s) == ctx.user_id]
        seat = None if over else (mine[0] if mine else None)
        rows = await self.table.store.actions(row.id)
        first = await self.table.store.first_snapshot(row.id)
        try:
            start_seq = self._replay_start(rows, first, rs, since, mine)
        except ValueError as e:
            return Outcome.error(str(e))
        frames: list[tuple[str, dict]] = []

        def label(v: dict, seq: int) -> str:
            turn = "Set-up" if v.get("turn") == 0 else f"Turn {v.get('turn')}"
            return f"{turn}: {v.get('phase_title', '')} (after #{seq})" if seq else f"{turn}: {v.get('phase_title', '')}"

        def collect() -> None:  # the whole game again: off the event loop
            game0 = Game(rs, first)
            if start_seq == 0:
                frames.append((label(game0.view(None), 0), self._frame_view(game0, seat, over)))
            g = game0
            for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
                if e["seq"] <= start_seq:
                    continue
                if any(ev.new_phase for ev in events) or e["kind"] == "undo":  # one frame a phase (and each undo)
                    frames.append((label(g.view(None), e["seq"]), self._frame_view(g, seat, over)))
            if not frames or frames[-1][0] != label(g.view(None), row.seq):
                frames.append((label(g.view(None), row.seq), self._frame_view(g, seat, over)))
        await asyncio.to_thread(collect)
        if self.table.renderer is None:
            return Outcome.private(f"Replay: {len(frames)} frames (drawing is off here).")
        from render.replay import MAX_FRAMES as REPLAY_FRAMES, render_frames

        gif = await asyncio.to_thread(render_frames, frames, rs.game_board().drawable,
                                      functools.partial(self.table.renderer, whole=True))  # every frame the whole map
        whose = "everything revealed" if over else (f"{self.table.seat_title(seat)}'s own view" if seat else "the public view")
        shown = min(len(frames), REPLAY_FRAMES)
        alt = clip(f"Animated replay of {rs.title}, {whose}: {shown} maps, from \"{frames[0][0]}\" to "
                   f"\"{frames[-1][0]}\".", 1024)
        return Outcome.private(f"Replay of game {row.id}, {whose}: {shown} frames.",
                               image=gif, filename=f"palantir-replay-{row.id}.gif", alt=alt)

    @staticmethod
    def _frame_view(game: Game, seat: str | None, over: bool) -> dict:
        """A frame's view, copied: the replay's game moves on in place (``walk``)."""
        return copy.deepcopy(game.view(seat) if not over else game.ruleset.full_view(game.state))

    @staticmethod
    def _replay_start(rows, first: dict, rs, since: str | None, mine: list[str]) -> int:
        """The log position the replay starts after: 0 (everything), the phase of the caller's
        last move (`last`), or the start of turn N (`turn N`)."""
        text = (since or "").strip().lower()
        if not text or text in ("all", "start"):
            return 0
        if text in ("last", "my last move", "mine"):
            own = [a.seq for a in rows if a.kind == "order" and a.seat in mine]
            if not own:
                raise ValueError("You have made no move in this game yet.")
            phase_start = 0
            for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
                if e["seq"] >= own[-1]:
                    break
                if any(ev.new_phase for ev in events):
                    phase_start = e["seq"]
            return phase_start
        import re

        m = re.fullmatch(r"(?:turn\s*)?(\d{1,3})", text)
        if not m:
            raise ValueError("`since` is `last` (your last move) or `turn N`.")
        n = int(m.group(1))
        prev = 0
        for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
            if (g.view(None).get("turn") or 0) >= n:
                return prev
            prev = e["seq"]
        raise ValueError(f"Turn {n} has not been played yet.")
