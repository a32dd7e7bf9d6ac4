"""Orders and what helps give them: `/order`, `/done`, autocomplete, odds, and `/roll`."""
from __future__ import annotations

import asyncio
import time

from engine.core import OrderError
from engine.modes import split_name
from bot.storage import GameRow

from bot.outcome import AUTOCOMPLETE_SECONDS, MAX_TEXT, MAX_ORDER_TEXT, Post, Outcome, Ctx, clip
from bot.table import locked


class Orders:
    """`/order`, `/done`, autocomplete, odds and `/roll`: an object holding the table and the recovery part
    (which asks about a repeat of an order whose answer may not have arrived)."""

    def __init__(self, table, recovery):
        self.table = table
        self.recovery = recovery

    @locked(needs_game=True, remembered=True)
    async def order(self, ctx: Ctx, row: GameRow, text: str, seat: str | None = None) -> Outcome:
        words = (text or "").split()
        if words and words[0].lower() == "whisper" and row.status == "active":
            game = await self.table.load(row)
            if game.ruleset.whispers(game.state) == "on":  # as `/whisper`: nothing in the channel
                return await self._whisper(ctx, row, words[1] if len(words) > 1 else "", " ".join(words[2:]), seat)
        return await self._order(ctx, row, text, seat)

    @locked(needs_game=True)
    async def whisper(self, ctx: Ctx, row: GameRow, seat: str, text: str) -> Outcome:
        """`/whisper seat: text:`: a private message to another seat's holder (the moderator reads it
        too), logged as the order `whisper <seat> <text>`, whose public text is masked; with
        `whispers=public-only` it is said in the channel (`say`), with `off` refused. `/order whisper
        <seat> <text>` is the same."""
        return await self._whisper(ctx, row, seat, text)

    async def _whisper(self, ctx: Ctx, row: GameRow, seat: str, text: str, as_seat: str | None = None) -> Outcome:
        if row.status != "active":
            return Outcome.error("Whispers begin once the game has started.")
        rs = (await self.table.load(row)).ruleset
        policy = rs.whispers((await self.table.load(row)).state)
        if policy == "off":
            return Outcome.error("Private talk through the bot is off in this game (`whispers=off`, or a game "
                                 "created without a level of play: `/game new options: mode=... whispers=on`).")
        to = (seat or "").strip().lower()
        if to not in rs.seats:
            return Outcome.error(f"`{clip(to, 30)}` is not a seat here. Seats: {', '.join(rs.seats)}.")
        if not (text or "").strip():
            return Outcome.error("The whisper is empty.")
        out = await self._order(ctx, row, f"{'whisper' if policy == 'on' else 'say'} {to} {text}", as_seat)
        if out.ok and policy == "on":
            out.elsewhere = {}  # nothing in the channel, not even that a whisper was sent
            seats = await self.table.store.seats(row.id)
            for s in (to, "gm"):  # a DM that cannot be delivered: the sender is told, privately
                for p in out.dms.get(seats.get(s), []) if seats.get(s) != ctx.user_id else []:
                    p.undelivered = (f"Your whisper could not reach **{self.table.seat_title(s)}** by direct message or a "
                                     "private thread (their DMs are closed): it is held and shown to them privately "
                                     "at their next command.")
            out.reply = Post(text=clip(f"Whispered to **{self.table.seat_title(to)}** (the moderator reads it too): "
                                       f"{' '.join(text.split())}", MAX_TEXT))
            out.ephemeral = True
        return out

    async def _order(self, ctx: Ctx, row: GameRow, text: str, seat: str | None) -> Outcome:
        if row.status != "active":
            return Outcome.error("The game has not started yet: take the seats, then `/game start`.")
        if len(text) > MAX_ORDER_TEXT:
            return Outcome.error(f"That order is too long ({MAX_ORDER_TEXT} characters at most).")
        game = await self.table.load(row)
        # read with the row under the channel's lock (``order_context``); no order changes a seat
        seats = row.seats if row.seats is not None else await self.table.store.seats(row.id)
        # issue 28: a seat its holder left is not theirs to play (read with the row, else on its own)
        gone = set(row.departed) if row.departed is not None else await self.table.departed(row.id)
        who = self.table.seat_for(game, {s: u for s, u in seats.items() if s not in gone}, ctx.user_id, seat)
        if isinstance(who, Outcome):
            left = [s for s in sorted(gone) if seats.get(s) == ctx.user_id]
            if left and (not seat or seat.strip().lower() in left):
                return Outcome.error(f"You left **{self.table.seat_title(left[0])}**: it is on autopilot. To play it "
                                     f"again, take it over like anyone else: `/game takeover seat:{left[0]}`.")
            return who
        try:
            action, events, new_state, changed = await self.table.engine.run(
                self.table.engine.kind(game.ruleset.name, text), self.table.try_order, game, who, text, seats)
        except OrderError as e:
            return Outcome.error(f"Refused ({e.kind}): {e}")
        if self.recovery.recovered and (asked := self.recovery.repeat_asked(row, ctx, game.ruleset.format(action))):
            return asked
        moded = bool(split_name(game.ruleset.name)[1])  # a level of play: a table of proposals, trades, votes
        before = game.ruleset.table_view(game.state, None) if moded else {}  # what waits for an answer, before
        out = await self.table.commit(ctx, row, game, seats, who, action, events, new_state, changed_secrets=changed,
                                      gone=gone)
        canon = game.ruleset.format(action)
        if out.ok and out.stored is not None:
            self.recovery.watch(row, ctx, canon, out.seq)  # issue 39: the order's own position, not the cache's
        asks: list = []
        if out.ok and out.reply and canon.startswith("declare ") and split_name(game.ruleset.name)[1] in ("assist", "tabletop"):
            # a declared action (assist play): the other seats answer by button; the moderator rules
            # with `/order accept|refuse <id> because <reason>`
            did = next((p["id"] for p in reversed(game.ruleset.table_view(game.state, None)["proposals"])), None)
            if did:
                out.reply.buttons = [(f"rule:{row.id}:{did}:y", "Accept"), (f"rule:{row.id}:{did}:n", "Refuse")]
        elif out.ok and out.reply:
            # an order another seat answers (Sauron 22.3: a challenge to Mortal Combat): its buttons play
            # the answer from that seat (``answer_button``)
            asks = game.ruleset.answer_buttons(new_state, who, action)
            out.reply.buttons += [(f"ans:{row.id}:{s}:{t}", label) for s, t, label in asks
                                  if len(f"ans:{row.id}:{s}:{t}") <= 100]
        # the public post of this order: its answer, or the channel's masked line of a secret order (a trade's
        # offer, whose giver reads the order privately)
        post = out.reply if not out.ephemeral else next(iter(out.elsewhere.get(ctx.channel_id, [])), None)
        if out.ok and post is not None and row.status == "active":
            # issue 28: whoever must answer this order (a challenge, a proposal, a trade, a vote, a pact) is
            # pinged with it, once, unless in their quiet hours or away (then named, not notified)
            after = game.ruleset.table_view(game.state, None) if moded else {}
            must = answerers(game.ruleset, before, after, who, [s for s, _, _ in asks])
            users = sorted({seats[s] for s in must if s in seats and s not in gone} - {ctx.user_id}
                           - set(post.mentions))
            named, users = await self.table.timekeeper.mention(users)
            if named:
                post.text = clip(post.text + "\nTo answer: " + named, MAX_TEXT)
                post.mentions = sorted(set(post.mentions) | set(users))
        return out

    @locked(needs_game=True)
    async def answer_button(self, ctx: Ctx, row: GameRow, game_id: int, seat: str, text: str) -> Outcome:
        """A button under an order another seat answers (``answer_buttons``): the order ``text`` from
        ``seat``, if the clicking player holds it (the rules then decide whether it may be given now)."""
        if game_id != row.id or row.status != "active":
            return Outcome.error("This button is for a game that is no longer running here.")
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        if seat not in game.ruleset.seats or seats.get(seat) != ctx.user_id:
            return Outcome.error(f"This answer is for **{self.table.seat_title(seat) if seat in game.ruleset.seats else seat}**"
                                 "'s player.")
        return await self._order(ctx, row, text, seat)

    @locked(needs_game=True)
    async def rule_vote(self, ctx: Ctx, row: GameRow, game_id: int, did: str, agree: bool) -> Outcome:
        """A button under a declared action: the clicking player's answer, as the order
        `accept <id>` / `refuse <id>` from their seat (not the proposer's, not the moderator's)."""
        if game_id != row.id or row.status != "active":
            return Outcome.error("This button is for a game that is no longer running here.")
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        props = game.ruleset.table_view(game.state, None)["proposals"] if split_name(game.ruleset.name)[1] else []
        prop = next((p for p in props if p["id"] == did), None)
        if prop is None:
            return Outcome.error("This button is not one of this game's declared actions.")
        mine = [s for s in game.ruleset.seats if seats.get(s) == ctx.user_id]
        if mine == ["gm"]:
            return Outcome.error(f"The moderator rules with a reason: `/order {'accept' if agree else 'refuse'} "
                                 f"{did} because <reason>`.")
        voters = [s for s in mine if s not in ("gm", prop["seat"])]
        if not voters:
            return Outcome.error("Only the other seats answer a declared action.")
        open_ = [s for s in voters if s not in prop["accepted_by"]] or voters
        return await self._order(ctx, row, f"{'accept' if agree else 'refuse'} {did}", open_[0])

    async def done(self, ctx: Ctx, seat: str | None = None) -> Outcome:
        return await self.order(ctx, "done", seat)

    async def autocomplete_order(self, ctx: Ctx, current: str, limit: int = 25) -> list[str]:
        if self.table.not_mine(ctx):  # another process's guild: nothing loaded here
            return []
        _, row = await self.table.store.order_context(ctx.channel_id, None)  # the live game and its seats, one read
        if row is None or row.status != "active":
            return []
        game = await self.table.load(row)
        who = self.table.seat_for(game, await self.table.holding(row, row.seats), ctx.user_id, None)
        if isinstance(who, Outcome):
            return []
        # the search runs in a worker with a budget: whatever a position holds, the event loop (every
        # other game) is not held, and the answer (what was found in time) goes back within Discord's 3 s
        budget = AUTOCOMPLETE_SECONDS
        if ctx.expires_at is not None:  # Discord's clock: an autocomplete that reached us late has less
            budget = max(0.05, min(budget, ctx.expires_at - time.time() - 0.5))
        until = time.monotonic() + budget
        texts = await asyncio.to_thread(game.legal_texts, who, current or "", limit + 25,
                                        lambda: time.monotonic() > until)
        # Discord's choices hold 100 characters at most: longer ones are left out before the 25 are counted
        return [t for t in texts if len(t) <= 100][:limit]

    async def odds(self, ctx: Ctx, text: str) -> Outcome:
        row = await self.table.live(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status != "active":
            return Outcome.error("The game has not started yet.")
        if len(text or "") > MAX_ORDER_TEXT:
            return Outcome.error(f"That is too long ({MAX_ORDER_TEXT} characters at most).")
        game = await self.table.load(row)
        fn = game.ruleset.odds
        if not game.ruleset.has_odds:
            return Outcome.error(f"Odds are not available for {game.ruleset.title}.")
        seats = await self.table.holding(row, await self.table.store.seats(row.id))
        who = self.table.seat_for(game, seats, ctx.user_id, None)
        if isinstance(who, Outcome):
            return who
        try:
            answer = await asyncio.to_thread(fn, game.state, who, text or "")
        except OrderError as e:
            return Outcome.error(f"No odds ({e.kind}): {e}")
        return Outcome.private(clip(str(answer), MAX_TEXT))

    # ============================================================ replay

    async def roll(self, ctx: Ctx, dice: str, reason: str | None = None, private: bool = False) -> Outcome:
        from bot.dice import DiceError, roll

        try:
            result = roll(dice, reason=reason, private=private, rng=self.table.roll_rng)
        except DiceError as e:
            return Outcome.error(f"Cannot roll that: {e}")
        who = ctx.user_name or f"<@{ctx.user_id}>"
        text = result.render(who)
        return Outcome(reply=Post(text=clip(text, MAX_TEXT)), ephemeral=bool(private))

    # ============================================================ deadlines


def answerers(rs, before: dict, after: dict, actor: str, asked: list[str]) -> list[str]:
    """Issue 28: the seats that must answer what an order just opened, read from the public view's table
    (engine/modes: proposals, trades, votes, pacts; a secret pact is not in the public view, and its parties
    hear of it privately) and from the ruleset's answer buttons (Sauron 22.3: a challenge)."""
    def new(kind: str, status: str) -> list[dict]:
        old = {x.get("id") for x in before.get(kind, []) or []}
        return [x for x in after.get(kind, []) or [] if x.get("id") not in old and x.get("status") == status]

    players = [s for s in rs.seats if s not in rs.optional_seats]
    must: list[str] = list(asked)
    for p in new("proposals", "open"):
        must += [s for s in rs.seats if s != p.get("seat")]  # the other seats answer; the moderator rules
    for t in new("trades", "open"):
        must.append(t.get("to"))
    for v in new("votes", "open"):
        must += [s for s in players if s != v.get("seat") and s not in (v.get("accepted_by") or [])]
    for k in new("pacts", "proposed"):
        must += [s for s in k.get("parties") or [] if s not in (k.get("agreed") or [])]
    return [s for s in dict.fromkeys(must) if s and s != actor]
