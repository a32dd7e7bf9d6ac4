"""`palantir db copy --from URL --to URL` (issue 16): move a database between backends (or
between two files or servers) without losing a row, then prove it.

Every table is copied as it is, ids included: games, seats, the log, snapshots, stored answers,
settings, clocks, timers, the outbox, players' preferences, undo requests, private deliveries, players'
records, seat histories and seat states, saved set-ups, rematch proposals, daily digests and games' results
(issue 41), in one transaction on the target (a copy that fails leaves the target as it was). The target must hold no game.
Afterwards each game is checked on the copy: its log replayed from its first snapshot (undos
honoured) must give the same state digest as on the source, rebuilding from its last snapshot
must give the same, and a game created from its seed (not a hand-set fixture) must pass
``palantir verify`` (bot/verify.py) on its export from the copy. Stop the bot while copying."""
from __future__ import annotations

import dataclasses
import sys

from bot.storage import StorageError, open_store, parse_url, storage_url

# (table, ordering columns); parents before children
TABLES: list[tuple[str, str]] = [
    ("games", "id"), ("seats", "game_id, seat"), ("snapshots", "game_id, seq"), ("actions", "game_id, seq"),
    ("responses", "interaction_id"), ("settings", "key"), ("clocks", "game_id"), ("timers", "id"),
    ("outbox", "id"), ("prefs", "user_id"), ("undo_requests", "id"), ("deliveries", "id"), ("held_posts", "id"),
    ("player_records", "user_id"), ("seat_history", "id"), ("seat_states", "game_id, seat"),
    ("templates", "guild_id, name_key"), ("rematches", "game_id"), ("digests", "user_id"),  # issue 41
    ("results", "n"), ("result_players", "game_id, seat, user_id"),  # issue 41
]
SERIALS = ("games", "timers", "outbox", "undo_requests", "deliveries", "held_posts", "seat_history")
SERIAL_COLUMNS = {"results": "n"}  # issue 41: a sequence (moved past the copied ids) on another column than `id`
CHUNK = 2000


class CopyError(RuntimeError):
    pass


def _is_pg(store) -> bool:
    return type(store).__name__ == "PostgresStore"


async def _pg_types(tx) -> dict[tuple[str, str], str]:
    rows = await tx.fetchall("SELECT table_name, column_name, data_type FROM information_schema.columns"
                             " WHERE table_schema = current_schema()")
    return {(r[0], r[1]): r[2] for r in rows}


def _coerce(value, pg_type: str | None):
    """A SQLite value as the PostgreSQL column wants it (SQLite's column types are only hints)."""
    if value is None or pg_type is None:
        return value
    if pg_type == "double precision":
        return float(value)
    if pg_type in ("bigint", "integer"):
        return int(value)
    if pg_type == "text":
        return value if isinstance(value, str) else str(value)
    return value


async def copy_tables(src, dst, log=print) -> dict[str, int]:
    """Every row of every table from ``src`` to ``dst`` (an empty store), in one transaction on
    ``dst``. Returns the row count per table."""
    counts: dict[str, int] = {}
    async with dst.transaction() as wtx:
        (n,) = (await wtx.fetchall("SELECT COUNT(*) FROM games"))[0]
        if n:
            raise CopyError(f"the target already holds {n} games; copy into an empty database")
        types = await _pg_types(wtx) if _is_pg(dst) else {}
        for table, order in TABLES:
            copied = 0
            while True:
                async with src.transaction() as rtx:
                    rows = await rtx.fetchall(f"SELECT * FROM {table} ORDER BY {order} LIMIT ? OFFSET ?",
                                              (CHUNK, copied))
                if not rows:
                    break
                cols = list(dict(rows[0]).keys())
                sql = (f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})")
                batch = []
                for r in rows:
                    d = dict(r)
                    batch.append(tuple(_coerce(d[c], types.get((table, c))) for c in cols))
                await wtx.executemany(sql, batch)
                copied += len(rows)
            counts[table] = copied
            log(f"  {table}: {copied} rows")
        if _is_pg(dst):
            for table, col in [(t, "id") for t in SERIALS] + list(SERIAL_COLUMNS.items()):
                await wtx.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{col}'),"
                                  f" COALESCE((SELECT MAX({col}) FROM {table}), 0) + 1, false)")
    return counts


async def verify_copy(src, dst, log=print) -> list[str]:
    """Each game checked on the copy; the list of problems (empty: all good)."""
    from bot.service import GameService
    from bot.verify import verify_export
    from engine.core import state_digest
    from engine.rulesets import get_ruleset
    from bot.deadlines import ruleset_options

    a = GameService(src, renderer=None)
    b = GameService(dst, renderer=None)
    problems: list[str] = []
    async with src.transaction() as tx:
        ids = [r[0] for r in await tx.fetchall("SELECT id FROM games ORDER BY id")]
    verified = 0
    for gid in ids:
        ra, rb = await src.game(gid), await dst.game(gid)
        if rb is None or dataclasses.asdict(ra) != dataclasses.asdict(rb):
            problems.append(f"game {gid}: its row differs on the copy")
            continue
        if await src.actions(gid) != await dst.actions(gid):
            problems.append(f"game {gid}: its log differs on the copy")
            continue
        da = state_digest((await a.table.replay_from_start(ra)).state)
        db_ = state_digest((await b.table.replay_from_start(rb)).state)
        if da != db_:
            problems.append(f"game {gid}: replay digest {db_[:12]} on the copy, {da[:12]} on the source")
            continue
        if state_digest((await b.table.rebuild(rb)).state) != db_:
            problems.append(f"game {gid}: rebuilt from its last snapshot it differs from its replay")
            continue
        # a game made from its seed (not a hand-set fixture) must pass `palantir verify`
        try:
            rs = get_ruleset(rb.ruleset)
            opts = ruleset_options({str(k): str(v) for k, v in (rb.options or {}).items()})
            from_seed = state_digest(rs.new_game(opts, rb.seed, None)) == state_digest(await dst.first_snapshot(gid))
        except Exception:  # noqa: BLE001 - a ruleset that cannot remake it: the digests above stand
            from_seed = False
        if from_seed:
            export = await b.archive.export_data(dataclasses.replace(rb, status="over"))  # with the seed
            ok, lines = verify_export(export)
            if not ok:
                problems.append(f"game {gid}: palantir verify on the copy: {lines[-1]}")
                continue
            verified += 1
    log(f"  {len(ids)} games: replay digests equal on the copy; {verified} verified from their seed")
    return problems


async def copy_database(src_url: str, dst_url: str, log=print) -> int:
    """The command: 0 when copied and verified, 1 when a check failed, 2 when nothing was copied for a
    bad argument (a url of no backend, the same database twice, a source that does not exist, a target
    that holds games), 4 when a database cannot be used (``StorageError``). A refusal is one line on
    stderr, and creates nothing: a SQLite source is opened only where its file is (issue 39)."""
    def refuse(line: str, status: int = 2) -> int:
        print(f"palantir db copy: {line}", file=sys.stderr)
        return status

    try:
        for url in (src_url, dst_url):
            parse_url(storage_url(url))
    except ValueError as e:
        return refuse(str(e))
    if storage_url(src_url) == storage_url(dst_url):
        return refuse("--from and --to name the same database")
    try:
        src = await open_store(src_url, create=False)
    except StorageError as e:
        return refuse(f"the source: {e}", e.status)
    try:
        try:
            dst = await open_store(dst_url)
        except StorageError as e:
            return refuse(f"the target: {e}", e.status)
        try:
            log(f"copying {src.path} -> {dst.path}")
            try:
                await copy_tables(src, dst, log)
            except CopyError as e:
                return refuse(str(e))
            problems = await verify_copy(src, dst, log)
            for p in problems:
                log(f"MISMATCH {p}")
            log("copied and verified." if not problems else "NOT VERIFIED.")
            return 1 if problems else 0
        finally:
            await dst.close()
    finally:
        await src.close()
