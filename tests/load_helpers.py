"""The bot past its capacity (issue 25), shared by tests/e2e/test_overload_e2e.py and
benchmarks/bench_ack.py: the real bot in its own process (tests/load_runner.py) over the fake
Discord, many tabletop games of Gondor, bursts of orders, processes that keep the CPUs busy, and
the classification of every interaction by what its player saw.

The orders are tabletop `roll 2d6 for <tag>` by the seat to act: legal in any order, and harmful
if applied twice (each takes two dice from the game's stream and a line of its log). Each tag is
unique, so the answer of an order can be found wherever it went."""
from __future__ import annotations

import asyncio
import collections
import datetime as _dt
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.fakediscord import GUILD_READY_TIMEOUT, FakeDiscord
from tests.fakediscord.server import ACK_DEADLINE, DISCORD_EPOCH_MS, FakeMessage, InteractionResult

ROOT = Path(__file__).resolve().parent.parent
GAME_OPTIONS = {"ruleset": "gondor", "options": "mode=tabletop"}
BUSY_LOOP = "while True: pass"


@contextlib.contextmanager
def busy_cpus(n: int = 2):
    """``n`` processes that spin until this block ends (always killed, even on a failure)."""
    procs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(n)]
    try:
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


class BotProcess:
    """The bot (tests/load_runner.py) in its own process: ``start()``, ``stop()``. With ``shard=(i, n)``,
    the process of shard i of n (PostgreSQL only: issue 16), serving the guilds of that shard."""

    def __init__(self, tmp: Path, server: FakeDiscord, guild: int, db: str, defer_after: float | None = None,
                 shard: tuple[int, int] | None = None, **options):
        """``options``: more of tests/load_runner.py's keys (``busy_lag``, ``lag_window``, ``block_orders``)."""
        self.tmp, self.server, self.shard = Path(tmp), server, shard
        name = "load_bot" if shard is None else f"load_bot{shard[0]}"
        self.cfg = self.tmp / f"{name}.json"
        self.cfg.write_text(json.dumps({"token": server.token, "api_base": server.api_base, "guild": guild,
                                        "db": db, "defer_after": defer_after,
                                        "guild_ready_timeout": GUILD_READY_TIMEOUT}
                                       | ({"shard_ids": [shard[0]], "shard_count": shard[1]} if shard else {})
                                       | options))
        self.proc: subprocess.Popen | None = None
        self.log = self.tmp / f"{name}.log"

    async def start(self) -> None:
        before = self.server.identify_count
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.load_runner", str(self.cfg)], cwd=str(ROOT),
                                     stdout=subprocess.DEVNULL, stderr=open(self.log, "w"))
        if self.shard is not None:
            live = lambda: self.server.shard_session_live(self.shard[0])  # noqa: E731
        else:
            live = lambda: self.server.identify_count > before  # noqa: E731
        await self.server.wait_for(lambda: live() or self.proc.poll() is not None, timeout=60)
        if self.proc.poll() is not None:
            raise RuntimeError(f"the bot exited at start-up:\n{self.log.read_text()[-3000:]}")
        await self.server.wait_connected(timeout=60)

    def cpu_seconds(self) -> float:
        """CPU time (user + system, all threads) the bot's process has used so far (Linux)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, AttributeError):
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def main_thread_sched(self) -> tuple[float, float]:
        """Seconds the bot's main thread (its event loop) has run on a core, and has waited, runnable, for one
        (Linux's /proc/<pid>/schedstat; NaN elsewhere): a loop that waits for a core as long as it runs is
        short of CPU, whatever its own work costs."""
        try:
            run_ns, wait_ns = Path(f"/proc/{self.proc.pid}/schedstat").read_text().split()[:2]
        except (OSError, AttributeError, ValueError):
            return float("nan"), float("nan")
        return int(run_ns) / 1e9, int(wait_ns) / 1e9

    async def stop(self) -> None:
        """SIGTERM (the bot closes its gateway and its store), then SIGKILL if it is not gone in 10 s. Waited for
        without blocking the loop: the fake Discord the bot says goodbye to runs on it (a blocking wait left the
        bot's close unanswered until it was killed, 10 s later)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                await asyncio.to_thread(self.proc.wait, 10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                await asyncio.to_thread(self.proc.wait)

    def errors(self) -> list[str]:
        """The exception ending each traceback the bot logged (its log is plain messages)."""
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        out, in_tb = [], False
        for line in lines:
            if line.startswith("Traceback"):
                in_tb = True
            elif in_tb and line and not line[0].isspace() and not line.startswith("The above exception") \
                    and not line.startswith("During handling"):
                out.append(line)
                in_tb = False
        return out


@dataclass
class Table:
    """One game: its channel and its two players."""

    k: int
    cid: int
    sauron: int
    west: int


@dataclass
class Sent:
    """One order offered to the bot and what became of it."""

    table: Table
    text: str
    result: InteractionResult | None = None
    error: str = ""
    delay: float = 0.0  # created that long before its delivery (``slash(..., delay=)``)
    sent_at: float = 0.0  # the event loop's time when the test sent it

    def gateway_lag(self) -> float | None:
        """Seconds from sending it to the fake's gateway frame leaving (not counted in Discord's 3 s
        by the fake, which starts them when the frame is sent: its own backlog is not the bot's)."""
        r = self.result
        return None if r is None or r.dispatched_at is None else r.dispatched_at - self.sent_at


def guilds_on_shards(server: FakeDiscord, count: int) -> list[int]:
    """A guild on each shard of ``count``, in shard order: guild ``i`` is on shard ``(id >> 22) % count == i``
    (the fake's ids are time-based snowflakes, so a new guild is made until each shard has one)."""
    found: dict[int, int] = {}
    while len(found) < count:
        g = server.add_guild(f"g{len(found)}")
        found.setdefault((g >> 22) % count, g)
        time.sleep(0.0015)
    return [found[i] for i in range(count)]


def make_world(server: FakeDiscord, games: int, shards: int = 1) -> tuple[list[int], list[Table]]:
    """``games`` channels with two players each, over one guild, or (``shards`` > 1) over a guild of each
    shard in turn. Returns the guilds (by shard) and the tables."""
    guilds = [server.add_guild("load")] if shards <= 1 else guilds_on_shards(server, shards)
    tables = []
    for k in range(games):
        gid = guilds[k % len(guilds)]
        cid = server.add_channel(gid, f"game-{k}")
        tables.append(Table(k, cid, server.add_user(f"sauron{k}", guild_id=gid),
                            server.add_user(f"west{k}", guild_id=gid)))
    return guilds, tables


async def set_up(server: FakeDiscord, tables: list[Table], parallel: int = 8) -> None:
    """A tabletop game of Gondor started in every channel (Sauron to act), ``parallel`` at a time."""
    sem = asyncio.Semaphore(parallel)

    async def one(t: Table) -> None:
        async with sem:
            r = await server.slash(t.sauron, t.cid, "game", "new", options=dict(GAME_OPTIONS), timeout=60)
            assert not r.ephemeral and "Gondor" in (r.content or ""), r
            for user, seat in ((t.sauron, "sauron"), (t.west, "westernesse")):
                r = await server.slash(user, t.cid, "game", "join", options={"seat": seat}, timeout=60)
                assert not r.ephemeral, r
            r = await server.slash(t.sauron, t.cid, "game", "start", timeout=60)
            assert not r.ephemeral, r

    await asyncio.gather(*(one(t) for t in tables))


def roll_text(t: Table, i: int) -> str:
    return f"roll 2d6 for o{t.k}-{i}"


async def send(server: FakeDiscord, s: Sent, *, timeout: float = 60.0) -> Sent:
    s.sent_at = asyncio.get_running_loop().time()
    try:
        s.result = await server.slash(s.table.sauron, s.table.cid, "order", options={"text": s.text},
                                      timeout=timeout, delay=s.delay, late_ok=True)
    except Exception as e:  # noqa: BLE001 - recorded and reported as a problem of that order
        s.error = f"{type(e).__name__}: {e}"
    return s


def is_busy(r: InteractionResult | None) -> bool:
    return bool(r and not r.expired and r.messages and all(m.ephemeral for m in r.messages)
                and (r.messages[0].content or "").lstrip().lower().startswith("busy"))


def late_messages(server: FakeDiscord, cid: int) -> list[FakeMessage]:
    """The bot's plain messages in a channel (not an interaction's answer or followup)."""
    return [m for m in server.messages(cid) if m.interaction_id is None and m.webhook_id is None
            and m.author_id == server.bot_user_id]


def late_posts(server: FakeDiscord, cid: int) -> list[str]:
    return [m.content or "" for m in late_messages(server, cid)]


def answer_seconds(server: FakeDiscord, s: Sent, answers: dict[str, dict]) -> float | None:
    """Seconds from the interaction's creation (its snowflake) to its order's answer reaching the
    channel, where its player reads it: in the interaction, or (expired) as a plain message."""
    r = s.result
    text = (answers.get(str(r.interaction_id)) or {}).get("text") if r is not None else None
    if not text:
        return None
    if r.expired:
        msgs = [m for m in late_messages(server, s.table.cid) if text in (m.content or "")]
    else:
        msgs = [m for m in r.messages if text.splitlines()[0] in (m.content or "")]
    if not msgs:
        return None
    created = ((r.interaction_id >> 22) + DISCORD_EPOCH_MS) / 1000
    return min(_dt.datetime.fromisoformat(m.edited_timestamp or m.timestamp).timestamp() for m in msgs) - created


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def read_sqlite(path: Path) -> tuple[list[tuple[int, str, str]], dict[str, dict]]:
    """The action log (game id, interaction id, text) and the stored answers, by interaction id."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        actions = [(g, i, t) for g, i, t in con.execute("SELECT game_id, interaction_id, text FROM actions")]
        answers = {i: json.loads(r) for i, r in con.execute("SELECT interaction_id, response FROM responses")}
    finally:
        con.close()
    return actions, answers


def answered(server: FakeDiscord, s: Sent, applied: dict[str, int], answers: dict[str, dict]) -> bool:
    """Whether what became of ``s`` is final: its answer seen where its player sees it (in the
    interaction, or for an expired one in the channel), or a refusal."""
    r = s.result
    if r is None:
        return True
    iid = str(r.interaction_id)
    text = (answers.get(iid) or {}).get("text")
    if r.expired:
        return not applied.get(iid) or bool(text and any(text in p for p in late_posts(server, s.table.cid)))
    if is_busy(r) or not applied.get(iid):
        return bool(r.messages)
    return bool(text) and any(text.splitlines()[0] in (m.content or "") for m in r.messages)


async def wait_answered(server: FakeDiscord, sent: list[Sent], read, within: float,
                        quiet: float = 1.5) -> tuple[dict, dict]:
    """Wait (polling the store with ``read()``: applied counts, stored answers) until every order
    of ``sent`` is answered (see ``answered``) and the bot has been quiet for ``quiet`` seconds
    (nothing more applied, stored or posted: an expired order still in the bot's queue may yet be
    applied), or ``within`` seconds; returns the last read."""
    deadline = time.monotonic() + within
    last, since = None, time.monotonic()
    while True:
        applied, answers = await read()
        mark = (sum(applied.values()), len(answers), len(server._messages))
        if mark != last:
            last, since = mark, time.monotonic()
        if (time.monotonic() - since >= quiet and all(answered(server, s, applied, answers) for s in sent)) \
                or time.monotonic() > deadline:
            return applied, answers
        await asyncio.sleep(0.25)


def sqlite_reader(path: Path):
    async def read() -> tuple[dict, dict]:
        actions, answers = await asyncio.to_thread(read_sqlite, path)
        return collections.Counter(i for _, i, _ in actions if i), answers
    return read


@dataclass
class Classes:
    """Every interaction of a burst in exactly one class (issue 25), and what is wrong."""

    in_time: list[Sent] = field(default_factory=list)  # (a) acknowledged within 3 s, answered
    late_in_channel: list[Sent] = field(default_factory=list)  # (b) expired, applied, answered in the channel
    busy: list[Sent] = field(default_factory=list)  # (c) "Busy ..." privately, nothing applied
    expired_unapplied: list[Sent] = field(default_factory=list)  # (d) expired, nothing applied
    problems: list[str] = field(default_factory=list)

    def kinds(self) -> dict[str, int]:
        """The problems by kind (their text after the order's name, numbers left out)."""
        import re

        out: dict[str, int] = collections.Counter()
        for p in self.problems:
            tail = p.split("`: ", 1)[-1]
            out[re.sub(r"[\d.]+", "#", tail.split(" (")[0])[:90]] += 1
        return dict(out)

    def counts(self) -> str:
        return (f"{len(self.in_time)} answered in time, {len(self.late_in_channel)} late in the channel, "
                f"{len(self.busy)} busy, {len(self.expired_unapplied)} expired unapplied")


def classify(server: FakeDiscord, sent: list[Sent], applied: dict[str, int], answers: dict[str, dict]) -> Classes:
    """``applied``: interaction id -> how many log rows carry it; ``answers``: the stored answers."""
    c = Classes()
    for s in sent:
        r = s.result
        who = f"game {s.table.k} `{s.text}`"
        if r is None:
            c.problems.append(f"{who}: no result ({s.error})")
            continue
        iid = str(r.interaction_id)
        n = applied.get(iid, 0)
        if n > 1:
            c.problems.append(f"{who}: interaction {iid} applied {n} times")
        if r.expired:
            if not n:
                c.expired_unapplied.append(s)
                continue
            text = (answers.get(iid) or {}).get("text")
            if text and any(text in p for p in late_posts(server, s.table.cid)):
                c.late_in_channel.append(s)
            else:
                c.problems.append(f"{who}: expired after {ACK_DEADLINE}s, applied (interaction {iid}), "
                                  f"never answered in the channel (stored answer {text!r})")
            continue
        age = r.acknowledged_age
        if age is None or age >= ACK_DEADLINE:
            c.problems.append(f"{who}: acknowledged {age}s after creation, yet not expired")
            continue
        if is_busy(r):
            if n:
                c.problems.append(f"{who}: answered busy ({r.content!r}) but applied")
            else:
                c.busy.append(s)
            continue
        if not r.messages:
            c.problems.append(f"{who}: acknowledged, never answered")
            continue
        text = (answers.get(iid) or {}).get("text")
        if not n:
            c.problems.append(f"{who}: answered in time but not applied: {r.content!r}")
        elif not text or not any(text.splitlines()[0] in (m.content or "") for m in r.messages):
            c.problems.append(f"{who}: answered {r.content!r}, its stored answer is {text!r}")
        else:
            c.in_time.append(s)
    return c
