"""The daily digest (issue 41): `/me digest at:<hh:mm>|off`, one private message a day at that local time (the
zone from `/me quiet tz:`, else UTC), sent only when something waits for the player: every game across servers
whose phase waits for them (with its deadline, as a Discord timestamp), the votes, proposals and takeover
requests that wait for their answer (an undo to agree to, a declared action, a trade, a pact or a vote of the
table, a takeover of a seat, a rematch to confirm), and the results of their games since the last digest.

When it falls due (``digests.due_at`` in storage, looked at by the scheduler beside the games' timers: the
bot's ``_scheduler`` and the console's clock call ``send_digests``), it goes to the outbox in the same
transaction that moves it to the next day (``Store.digest_done``), so it is sent once; then by the private
way of every private message (a DM; where DMs are closed, held and shown with the player's next command).
While the player is away, none is sent (the next one is the first after their return); one that falls in
their quiet hours waits for their end; changing the time zone, the quiet hours or the absence moves it
(``resync``, called by ``Clocks`` through the table's ``prefs_changed``).

``Digest(table, seats, rematch)`` is a part of the service like the others."""
from __future__ import annotations

from engine.modes import split_name
from engine.rulesets import get_ruleset
from bot import deadlines as dl
from bot.orders import answerers
from bot.outcome import MAX_TEXT, Ctx, Outcome, clip
from bot.seats import game_link
from bot.storage import OutboxPost

MAX_LINES = 12  # lines of each list in one digest (the rest counted)


async def results_since(table, user_id: int, since: float) -> list[tuple[object, str]]:
    """The player's games that ended after ``since``: (the game, its result in one line). Read from the
    games table (status and the final position's result); the one place to point at a table of results."""
    out = []
    for row in await table.store.finished_games_of(user_id, since):
        if row.status == "over":
            res = (await table.rebuild(row)).result()
            line = res.line if res is not None else "over"
        else:
            line = "ended without a result"
        out.append((row, line))
    return out


class Digest:
    def __init__(self, table, seats, rematch):
        self.table = table
        self.seats = seats
        self.rematch = rematch

    # ------------------------------------------------------------ the command
    async def set_digest(self, ctx: Ctx, at: str) -> Outcome:
        text = (at or "").strip().lower()
        store = self.table.store
        if text in ("off", "none", "no"):
            await store.set_digest(ctx.user_id, None, None, self.table.clock())
            return Outcome.private("Daily digest off.")
        try:
            when = dl.parse_hhmm(text)
        except ValueError as e:
            return Outcome.error(f"{e}, or `off`.")
        p = await store.prefs(ctx.user_id)
        tz = p.tz or "UTC"
        due = dl.digest_due(self.table.clock(), when, tz, self.table.timekeeper.quiet(p), p.away_until)
        await store.set_digest(ctx.user_id, f"{when:%H:%M}", due, self.table.clock())
        self.table.timekeeper.wake()
        zone = "" if p.tz else " (set your zone with `/me quiet tz:`)"
        return Outcome.private(f"Daily digest on: every day at {when:%H:%M} {tz}{zone}, only when something waits "
                               f"for you (not while you are away; after your quiet hours). The next: {dl.stamp(due)}.")

    async def resync(self, user_id: int) -> None:
        """The player's zone, quiet hours or absence changed: their next digest moves with them."""
        d = await self.table.store.digest(user_id)
        if d is None:
            return
        p = await self.table.store.prefs(user_id)
        due = dl.digest_due(self.table.clock(), dl.parse_hhmm(d["at"]), p.tz or "UTC", self.table.timekeeper.quiet(p),
                            p.away_until)
        await self.table.store.set_digest(user_id, d["at"], due, self.table.clock())

    # ------------------------------------------------------------ the scheduler's work
    async def send_digests(self) -> int:
        """Every digest due now: sent (to the outbox) if there is something to say, and moved to the next day
        either way, in one transaction each. Direct messages are shard 0's (as on Discord's gateway).
        Returns how many were sent."""
        if self.table.shard is not None and not self.table.shard.owns(None):
            return 0
        store, now, sent = self.table.store, self.table.clock(), 0
        for d in await store.due_digests(now):
            user = d["user_id"]
            p = await store.prefs(user)
            quiet, tz, at = self.table.timekeeper.quiet(p), p.tz or "UTC", dl.parse_hhmm(d["at"])
            if p.away_until and now < p.away_until:  # away: the first after their return
                await store.digest_done(user, d["due_at"], dl.digest_due(now, at, tz, quiet, p.away_until), None, now)
                continue
            if dl.in_quiet(now, quiet):  # (quiet hours set since it was due): at their end
                await store.digest_done(user, d["due_at"], dl.quiet_end(now, quiet), None, now)
                continue
            text = await self.digest_text(user, d["last_at"] or 0.0, now)
            post = OutboxPost(None, {"text": text}, now, user_id=user) if text else None
            if await store.digest_done(user, d["due_at"], dl.digest_due(now, at, tz, quiet), post, now) and post:
                sent += 1
        return sent

    async def digest_text(self, user_id: int, since: float, now: float) -> str | None:
        """The digest's text, or None when nothing waits for the player and nothing ended."""
        waiting, answers = [], []
        for row, mine, waits, clock, _ in await self.seats.standing(user_id):
            if row.status != "active":
                continue
            title = get_ruleset(row.ruleset).title
            where = f"{title} · {game_link(row)}"
            if waits:
                due = (f"deadline {dl.stamp(clock.deadline_at)}" if clock and clock.deadline_at and clock.paused_at is None
                       else "paused" if clock and clock.paused_at is not None else "no deadline")
                waiting.append(f"- {where} · {', '.join(self.table.seat_title(s) for s in mine)} · {due}")
            answers += [f"- {where} · {a}" for a in await self._asks(row, mine, user_id)]
        for rm in await self.rematch.waiting_for(user_id):
            row = await self.table.store.game(rm["game_id"])
            answers.append(f"- {get_ruleset(row.ruleset).title} · {game_link(row)} · a rematch to confirm")
        results = [f"- {get_ruleset(row.ruleset).title} · {game_link(row)} · {line}"
                   for row, line in await results_since(self.table, user_id, since)]
        if not (waiting or answers or results):
            return None
        lines = [f"**Your daily digest** ({dl.stamp(now)})"]
        for head, items in (("Waiting for you", waiting), ("Waiting for your answer", answers),
                            ("Results since your last digest", results)):
            if items:
                more = len(items) - MAX_LINES
                lines += [f"**{head}** ({len(items)}):"] + [clip(i, 200) for i in items[:MAX_LINES]]
                if more > 0:
                    lines.append(f"… and {more} more (`/me games`).")
        return clip("\n".join(lines), MAX_TEXT)

    async def _asks(self, row, mine: list[str], user_id: int) -> list[str]:
        """What in a running game waits for the player's answer: an undo request to agree to, a takeover to
        vote on, the table's open proposals, trades, pacts and votes (read as the bot reads who must answer
        after an order: ``bot/orders.py: answerers``)."""
        out, store = [], self.table.store
        for req in await store.open_undo_requests(row.id):
            if req["at_seq"] == row.seq and user_id in req["needed"] and not req["votes"].get(user_id):
                out.append(f"an undo asked by {self.table.seat_title(req['seat'])} (the buttons in the channel)")
        seats = row.seats or {}
        gone = await self.table.departed(row.id)
        voters = {u for s, u in seats.items() if s not in gone} | {row.creator_id}
        for s, st in (await store.seat_states(row.id)).items():
            if st.autopilot and st.takeover and st.takeover.get("user") != user_id and user_id in voters \
                    and user_id not in st.takeover.get("votes", {}):
                out.append(f"<@{st.takeover['user']}> asks to take over {self.table.seat_title(s)}: your vote")
        if split_name(row.ruleset)[1]:  # a level of play with a table (engine/modes): proposals, trades, votes, pacts
            game = await self.table.load(row)
            rs = game.ruleset
            for s in mine:
                view = rs.table_view(game.state, s)
                view["proposals"] = [p for p in view.get("proposals", []) if s not in (p.get("accepted_by") or [])]
                view["votes"] = [v for v in view.get("votes", []) if s not in (v.get("accepted_by") or [])]
                for kind, status in (("proposals", "open"), ("trades", "open"), ("votes", "open"), ("pacts", "proposed")):
                    for item in view.get(kind) or []:
                        if item.get("status") == status and s in answerers(rs, {}, {kind: [item]}, "", []):
                            out.append(f"{kind[:-1]} {item.get('id', '')} for {self.table.seat_title(s)}")
        return out
