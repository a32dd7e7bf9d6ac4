"""Between games (issue 41): every finished game's result kept, the server's statistics (`/stats`), opt-in ratings
(`/ratings`, `/me record`). A part of the service (``Results(table, seats)``); the ratings' maths and policy are
``bot/ratings.py``, the chart ``render/barchart.py``, the rows ``bot/storage`` (``results``, ``result_players``).

- A game's result is kept as it ends (``keep``: the table calls it after the order that ended the game, ``Table.
  on_result``); a game that ended before schema 8, or whose result a crash kept from being written, gets it at the
  next start (``backfill``: the game rebuilt from its log, as a load does).
- What is kept: the winning sides (``Result.sides``), the grade where the rules grade it (``Result.grade``), turns
  played (the public view's ``turn``), days from the start to the end, each seat's holders over time (the seat
  history), the ruleset (its level of play aside), its scenario options and every option, whether it is rated,
  and each seat's players with their outcome.
- A player who left the server is not shown in a table of names (the transport says who is still there:
  ``present``), and a table of more than ``PAGE`` names pages (buttons ``res:<table>:<ruleset>:<page>``)."""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Awaitable, Callable

from bot import ratings as rt
from bot.outcome import MAX_TEXT, Ctx, Outcome, Post, clip, seat_title
from bot.storage import GameResult, GameRow
from engine.core import Game
from engine.modes import GM, split_name
from engine.options import OnOff, Option, find, read_value
from engine.rulesets import get_ruleset, ruleset_names
from render.barchart import bar_chart

log = logging.getLogger("palantir.results")

RESULT_OPTIONS = (
    Option("rated", OnOff(), about="the game counts for `/ratings` (not in tabletop mode)"),
)
PAGE = 25  # names a table shows at once (Discord's 25 choices/buttons: the same bound for a list read on a phone)
TOP = 10  # names each ruleset shows in `/ratings` without a ruleset
DAY = 86400.0

Present = Callable[[list[int]], Awaitable[set[int]]] | None


def rated_asked(options: dict) -> bool:
    """``rated=on`` among a game's options (checked at /game new; a bad stored value reads as off)."""
    if "rated" not in (options or {}):
        return False
    try:
        return bool(read_value(find(RESULT_OPTIONS, "rated"), "rated", str(options["rated"]), "this game"))
    except ValueError:
        return False


def check_rated(options: dict, mode: str | None, owner: str) -> None:
    """/game new: ``rated=`` read by its kind; a rated tabletop game refused (nobody enforces its rules)."""
    if "rated" not in options:
        return
    if read_value(find(RESULT_OPTIONS, "rated"), "rated", str(options["rated"]), owner) and mode == "tabletop":
        raise ValueError(f"{owner}: `rated=on` needs the rules enforced: a tabletop game is never rated "
                         "(use mode=enforced or mode=assist)")


def scenario_of(ruleset: str, options: dict) -> str:
    """The scenario options of a game: the ruleset's own declared options, ``k=v`` sorted (a group's chart file:
    ``charts=own``). Games are grouped by it in `/stats`."""
    declared = get_ruleset(ruleset).options
    bits = []
    for k in sorted(options or {}):
        if find(declared, k) is None:
            continue
        bits.append("charts=own" if k == "charts" else f"{k}={options[k]}")
    return " ".join(bits)


def _int(x) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


def result_of(row: GameRow, game: Game, history: list[dict], seats: dict[str, int], ended_at: float) -> GameResult | None:
    """A finished game's result as kept (None: the game has none). The seat a player held when the game started
    is theirs for the result: a holder who stayed to the end gets the side's outcome; one whose tenure ended
    before (left, taken over, handed on) gets ``left`` (a loss); a later holder gets the side's outcome but is
    never rated. Rated (``rated=on``) unless tabletop or a person held two sides at the start."""
    res = game.result()
    if res is None:
        return None
    base, mode = split_name(row.ruleset)
    sides = [s for s in game.ruleset.seats if s != GM]
    winners = [s for s in res.sides if s in sides]
    started = row.started_at if row.started_at is not None else row.created_at
    holders: dict[str, list] = {}
    for h in history:
        holders.setdefault(h["seat"], []).append([h["user_id"], h["from_at"], h["to_at"], h["how"]])
    for s, uid in seats.items():  # a game from before the seat history (schema 7): its last holders
        holders.setdefault(s, [[uid, started, None, "join"]])
    starters: dict[str, list] = {}
    for s in sides:
        tenures = holders.get(s) or []
        first = next((t for t in tenures if t[1] <= started and (t[2] is None or t[2] > started)), None)
        if first is None and tenures:
            first = tenures[0]
        if first is not None:
            starters[s] = first
    users = [t[0] for t in starters.values()]
    rated = (rated_asked(row.options) and mode != "tabletop" and len(set(users)) == len(users) >= 2)
    players: list[tuple[str, int, str, bool]] = []
    for s in sides:
        side = "win" if s in winners else ("draw" if not winners else "loss")
        first = starters.get(s)
        seen = set()
        if first is not None:
            stayed = first[2] is None or first[2] >= ended_at
            players.append((s, first[0], side if stayed else rt.LEFT, rated))
            seen.add(first[0])
        for t in holders.get(s, []):
            if t[0] not in seen:
                players.append((s, t[0], side, False))
                seen.add(t[0])
    turns = _int(game.view(None).get("turn"))
    return GameResult(game_id=row.id, guild_id=row.guild_id, ruleset=base, scenario=scenario_of(base, row.options or {}),
                      options=dict(row.options or {}), winners=winners, grade=res.grade, turns=turns,
                      days=max(0.0, (ended_at - started) / DAY), holders=holders, rated=rated, ended_at=ended_at,
                      players=players)


def _key(guild_id: int | None, ruleset: str) -> str:
    return f"ratings:{guild_id if guild_id is not None else 'dm'}:{ruleset}"


def _avg(total, n) -> str:
    return f"{total / n:.1f}" if n else "–"


class Results:
    """Results kept, `/stats`, `/ratings` and `/me record` (issue 41): an object holding the table and the seats part
    (whose record `/me record` shows first)."""

    def __init__(self, table, seats):
        self.table = table
        self.seats = seats

    # ------------------------------------------------------------ keeping results
    async def keep(self, row: GameRow, game: Game, ended_at: float) -> None:
        """The result of a game that just ended, kept (called by the table after the order that ended it). A
        failure here costs no order: the next start's ``backfill`` keeps it."""
        try:
            store = self.table.store
            got = result_of(row, game, await store.seat_history(row.id), await store.seats(row.id), ended_at)
            if got is not None:
                await store.save_result(got)
                if got.rated:  # the ratings' cache carried forward now, one game: `/ratings` then only reads it
                    await self.ratings_of(got.guild_id, got.ruleset)
        except Exception:  # noqa: BLE001 - logged; the game is over either way, and backfill catches up
            log.exception("game %s: its result could not be kept now (the next start keeps it)", row.id)

    async def backfill(self) -> int:
        """Every game over without a kept result (ended before schema 8, or a crash between its last order and
        its result) gets it, rebuilt from its log; returns how many. A game whose rebuild fails is logged and left
        for the next start."""
        store, done = self.table.store, 0
        failed: set[int] = set()
        while True:
            ids = [g for g in await store.games_without_result() if g not in failed]
            if not ids:
                return done
            for gid in ids:
                row = await store.game(gid)
                try:
                    game = await self.table.rebuild(row)
                    got = result_of(row, game, await store.seat_history(gid), await store.seats(gid),
                                    row.ended_at or row.started_at or row.created_at)
                except Exception:  # noqa: BLE001 - one game's log must not stop the start
                    log.exception("game %s: its result could not be computed from its log", gid)
                    failed.add(gid)
                    continue
                if got is None:
                    failed.add(gid)
                    continue
                await store.save_result(got)
                done += 1

    # ------------------------------------------------------------ ratings
    async def ratings_of(self, guild_id: int | None, ruleset: str) -> dict[int, rt.Rating]:
        """The server's ratings of a ruleset: the cache (a setting) carried forward by the rated games kept since
        (``rt.rate_game``, the same steps as ``rt.compute`` over every rated game: the same numbers)."""
        store = self.table.store
        raw = await store.get_setting(_key(guild_id, ruleset))
        cache = json.loads(raw) if raw else {"n": 0, "table": {}}
        table = {int(u): rt.Rating(*v) for u, v in cache["table"].items()}
        new = await store.rated_results(guild_id, ruleset, cache["n"])
        if new:
            for _, players in new:
                rt.rate_game(table, players)
            cache = {"n": new[-1][0], "table": {str(u): [r.mu, r.sigma, r.games] for u, r in table.items()}}
            await store.set_setting(_key(guild_id, ruleset), json.dumps(cache, sort_keys=True))
        return table

    async def recompute(self, guild_id: int | None, ruleset: str) -> dict[int, rt.Rating]:
        """The ratings from the stored results alone (the cache dropped and made again)."""
        await self.table.store.set_setting(_key(guild_id, ruleset), json.dumps({"n": 0, "table": {}}))
        return await self.ratings_of(guild_id, ruleset)

    @staticmethod
    def _ruleset(name: str | None) -> tuple[str | None, Outcome | None]:
        if not name:
            return None, None
        base = split_name(name.strip().lower())[0]
        if base not in ruleset_names():
            return None, Outcome.error(f"Unknown ruleset `{clip(name, 30)}`. Available: {', '.join(ruleset_names())}.")
        return base, None

    @staticmethod
    async def _present(present: Present, users: list[int]) -> set[int]:
        return set(users) if present is None or not users else await present(users)

    @staticmethod
    def _pages(kind: str, ruleset: str | None, page: int, pages: int) -> list[tuple[str, str]]:
        tag = ruleset or "*"
        out = []
        if page > 0:
            out.append((f"res:{kind}:{tag}:{page - 1}", "◀ Previous"))
        if page + 1 < pages:
            out.append((f"res:{kind}:{tag}:{page + 1}", "Next ▶"))
        return out

    async def ratings(self, ctx: Ctx, ruleset: str | None = None, present: Present = None, page: int = 0) -> Outcome:
        """`/ratings [ruleset:]`: the server's table (established players first, by openskill's ordinal), a
        ruleset's paged by ``PAGE``; without a ruleset, each rated ruleset's first ``TOP``."""
        base, bad = self._ruleset(ruleset)
        if bad:
            return bad
        if ctx.guild_id is None:
            return Outcome.error("Ratings are kept per server: use `/ratings` in a server.")
        names = [base] if base else await self.table.store.rated_rulesets(ctx.guild_id)
        if not names:
            return Outcome.private("No rated game has finished in this server yet. A game counts when it is made with "
                                   "`/game new options: rated=on`.")
        lines, buttons = [], []
        for name in names:
            table = rt.ranked(await self.ratings_of(ctx.guild_id, name))
            here = await self._present(present, [u for u, _ in table])
            table = [(u, r) for u, r in table if u in here]
            title = get_ruleset(name).title
            if not table:
                lines.append(f"**{title}**: no rated player here yet.")
                continue
            if base:
                pages = (len(table) + PAGE - 1) // PAGE
                page = max(0, min(page, pages - 1))
                shown, first = table[page * PAGE:(page + 1) * PAGE], page * PAGE
                lines.append(f"**Ratings: {title}** ({len(table)} players"
                             + (f", page {page + 1} of {pages}" if pages > 1 else "") + ")")
                buttons = self._pages("ratings", base, page, pages)
            else:
                shown, first = table[:TOP], 0
                lines.append(f"**{title}**" + (f" (top {TOP} of {len(table)}: `/ratings ruleset:{name}`)"
                                                 if len(table) > TOP else ""))
            for i, (u, r) in enumerate(shown, first + 1):
                lines.append(f"{i}. <@{u}> **{r.ordinal:.1f}** (μ {r.mu:.1f}, σ {r.sigma:.1f}) · {r.games} game"
                             + ("s" if r.games != 1 else "") + (" · provisional" if r.provisional else ""))
        lines.append(f"-# openskill (Plackett-Luce), sides as teams; provisional until {rt.PROVISIONAL_GAMES} rated games.")
        out = Outcome.private(clip("\n".join(lines), MAX_TEXT))
        out.reply.buttons = buttons
        return out

    # ------------------------------------------------------------ statistics
    async def stats(self, ctx: Ctx, ruleset: str | None = None, player: int | None = None, present: Present = None,
                    page: int = 0) -> Outcome:
        """`/stats [ruleset:] [player:]`: the server's finished games, wins per side per ruleset and scenario, the
        average length in turns and days, a chart of wins per side, and the players (paged); for a player, their
        results by ruleset and side."""
        base, bad = self._ruleset(ruleset)
        if bad:
            return bad
        if ctx.guild_id is None:
            return Outcome.error("Statistics are kept per server: use `/stats` in a server.")
        store = self.table.store
        if player is not None:
            return await self._player_stats(ctx, base, player, present)
        rows = await store.result_counts(ctx.guild_id, base)
        if not rows:
            return Outcome.private("No game has finished in this server yet" + (f" of {get_ruleset(base).title}." if base else "."))
        groups: dict[tuple[str, str], dict] = {}
        for rs_name, scenario, winners, n, turns, with_turns, days in rows:
            g = groups.setdefault((rs_name, scenario), {"games": 0, "turns": 0, "with_turns": 0, "days": 0.0,
                                                        "wins": {}, "draws": 0})
            g["games"] += n
            g["turns"] += turns or 0
            g["with_turns"] += with_turns or 0
            g["days"] += days or 0.0
            won = json.loads(winners)
            if not won:
                g["draws"] += n
            for s in won:
                g["wins"][s] = g["wins"].get(s, 0) + n
        total = sum(g["games"] for g in groups.values())
        lines = [f"**Finished games in this server{': ' + get_ruleset(base).title if base else ''}: {total}**"]
        chart = []
        for (rs_name, scenario), g in sorted(groups.items()):
            rs = get_ruleset(rs_name)
            head = rs.title + (f" ({scenario})" if scenario else "")
            sides = [s for s in rs.seats if s != GM]
            wins = " · ".join(f"{seat_title(s)} {g['wins'].get(s, 0)}" for s in sides)
            draws = f" · draws {g['draws']}" if g["draws"] else ""
            lines.append(f"{clip(head, 80)}: {g['games']} games; wins {wins}{draws}; average "
                         f"{_avg(g['turns'], g['with_turns'])} turns, {_avg(g['days'], g['games'])} days")
            chart.append((clip(f"{head}: {g['games']} games", 60),
                          [(seat_title(s), g["wins"].get(s, 0), None) for s in sides]
                          + ([("Draw", g["draws"], None)] if g["draws"] else [])))
        players = await store.player_totals(ctx.guild_id, base)
        here = await self._present(present, [u for u, _, _ in players])
        players = [p for p in players if p[0] in here]
        buttons = []
        if players:
            pages = (len(players) + PAGE - 1) // PAGE
            page = max(0, min(page, pages - 1))
            lines.append(f"**Players** ({len(players)}" + (f", page {page + 1} of {pages}" if pages > 1 else "") + "):")
            for i, (u, games, wins) in enumerate(players[page * PAGE:(page + 1) * PAGE], page * PAGE + 1):
                lines.append(f"{i}. <@{u}>: {wins} won of {games}")
            buttons = self._pages("stats", base, page, pages)
        image = await asyncio.to_thread(bar_chart, "Wins per side", chart) if chart else None
        out = Outcome(reply=Post(text=clip("\n".join(lines), MAX_TEXT), image=image, filename="stats.png",
                                 alt="Wins per side: " + "; ".join(f"{h}: " + ", ".join(f"{b[0]} {b[1]}" for b in bars)
                                                                  for h, bars in chart)[:900] if image else ""),
                      ephemeral=True)
        out.reply.buttons = buttons
        return out

    async def _player_stats(self, ctx: Ctx, base: str | None, player: int, present: Present) -> Outcome:
        if player not in await self._present(present, [player]):
            return Outcome.error("That player is not in this server.")
        rows = await self.table.store.player_result_counts(ctx.guild_id, player, base)
        if not rows:
            return Outcome.private(f"<@{player}> has no finished game in this server"
                                   + (f" of {get_ruleset(base).title}." if base else "."))
        by: dict[tuple[str, str], dict[str, int]] = {}
        for rs_name, seat, outcome, n in rows:
            by.setdefault((rs_name, seat), {})[outcome] = n
        lines = [f"**Results of <@{player}> in this server**"]
        for (rs_name, seat), c in sorted(by.items()):
            games = sum(c.values())
            bits = [f"won {c.get('win', 0)}", f"lost {c.get('loss', 0)}"]
            bits += [f"drawn {c['draw']}"] if c.get("draw") else []
            bits += [f"left {c['left']}"] if c.get("left") else []
            lines.append(f"{get_ruleset(rs_name).title} as {seat_title(seat)}: {games} games, " + ", ".join(bits))
        return Outcome.private(clip("\n".join(lines), MAX_TEXT))

    # ------------------------------------------------------------ /me record
    async def record(self, ctx: Ctx) -> Outcome:
        """`/me record`: the player's record (bot/seats.py), then their ratings in this server."""
        out = await self.seats.record(ctx)
        if ctx.guild_id is None:
            return out
        lines = []
        for name in await self.table.store.rated_rulesets(ctx.guild_id):
            table = await self.ratings_of(ctx.guild_id, name)
            r = table.get(ctx.user_id)
            if r is not None:
                place = [u for u, _ in rt.ranked(table)].index(ctx.user_id) + 1
                lines.append(f"{get_ruleset(name).title}: **{r.ordinal:.1f}** (μ {r.mu:.1f}, σ {r.sigma:.1f}), "
                             f"{r.games} rated game{'s' if r.games != 1 else ''}, #{place} of {len(table)}"
                             + (" · provisional" if r.provisional else ""))
        extra = ("**Your ratings here:** " + "; ".join(lines)) if lines else "No rated game of yours here yet."
        out.reply.text = clip(out.reply.text + "\n" + extra, MAX_TEXT)
        return out
