"""Seats that stay filled (issue 28): a player's record across servers, your games everywhere, the
game's seat options (``checkin=``, ``min_ontime=``, ``autopilot=``, ``takeover=``), taking over a seat
on autopilot, the server's open seats (``/game open``, ``/game board``), and playing a player's forced
actions (``/me autoplay``).

``Seats(table, lobby)`` is a part of the service like the others: it holds the table (the commit path)
and calls only public methods. The record is kept by the commit path (a seat's part of a phase finished
before its deadline: on time) and by the deadline (``bot/clocks.py``: orders incomplete: missed; n in a
row: autopilot)."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from engine.modes import GM
from engine.options import Choice, Number, Option, Whole, find, read_value
from engine.rulesets import get_ruleset
from bot import deadlines as dl
from bot.storage import GameRow, PlayerRecord, SeatState
from bot.outcome import MAX_TEXT, Ctx, Outcome, Post, clip
from bot.table import locked, seated

CHECKIN = "checkin"  # the clock's phase key while the holders of a full game check in
TAKEOVER_MODES = ("open", "vote")
MIN_CHECKIN_HOURS = 0.25  # a quarter of an hour: a check-in shorter than that reopens every seat at once
MAX_CHECKIN_HOURS = 168.0
MAX_AUTOPILOT = 20

# a game's seat options (issue 39: declared as data, read by engine/options.py's one typed reader)
SEAT_OPTIONS = (
    Option("checkin", Number(MIN_CHECKIN_HOURS, MAX_CHECKIN_HOURS, "hours", off=True),
           about="every holder checks in within the hours once the game is full"),
    Option("min_ontime", Number(0, 100, "percent", suffix="%"), about="the on-time record a seat needs"),
    Option("autopilot", Whole(1, MAX_AUTOPILOT, "missed deadlines in a row", off=True),
           about="a seat goes on autopilot after that many missed deadlines"),
    Option("takeover", Choice(TAKEOVER_MODES), about="a takeover at once, or after a vote"),
)
SEAT_OPTION_KEYS = tuple(o.name for o in SEAT_OPTIONS)
MAX_LISTED = 10  # games shown by `/game open` (each with its buttons; Discord allows 25 buttons)
MAX_TAKEOVER_ASKS = 3  # issue 39: takeovers one player asks for in one game (open or by vote)
TAKEOVER_COOLDOWN = 3600.0  # issue 39: seconds between two of them


@dataclass(frozen=True)
class SeatRules:
    """A game's seat options, fixed at ``/game new`` (kept in its options)."""
    checkin: float = 0.0  # hours to check in once the last seat is taken (0: no check-in)
    min_ontime: float | None = None  # percent a player's record needs to take a seat (new players pass)
    autopilot: int = 0  # missed deadlines in a row that put a seat on autopilot (0: never)
    takeover: str = "open"  # `open`: at once; `vote`: the creator or a majority of the other seats approve

    @classmethod
    def parse(cls, options: dict, owner: str = "this game") -> "SeatRules":
        """The rules of ``options`` (``key=value`` texts); OptionError (a ValueError naming ``owner``) on a
        bad value."""
        got = {k: read_value(find(SEAT_OPTIONS, k), k, str(options[k]), owner) for k in SEAT_OPTION_KEYS
               if k in options}
        return cls(**got)

    @classmethod
    def of(cls, row: GameRow) -> "SeatRules":
        """A stored game's rules (checked at /game new; a value stored before a bound it now breaks, like
        a check-in under MIN_CHECKIN_HOURS, leaves that one rule at its default)."""
        opts, rules = row.options or {}, cls()
        for k in SEAT_OPTION_KEYS:
            try:
                rules = dataclasses.replace(rules, **{k: getattr(cls.parse({k: opts[k]}), k)}) if k in opts else rules
            except ValueError:
                pass
        return rules


def rate_text(rec: PlayerRecord) -> str:
    """A player's on-time rate as the table reads it."""
    p = rec.ontime_percent
    if p is None:
        return "new player"
    return f"on time {p:.0f}% of {rec.phases} phases"


async def holders_line(store, seats: dict[str, int], title) -> str:
    """Each seat holder's on-time rate (the join answer and `/game status`), one line."""
    parts = []
    for s, uid in seats.items():
        parts.append(f"{title(s)} <@{uid}>: {rate_text(await store.record(uid))}")
    return ("Records: " + "; ".join(parts) + ".") if parts else ""


def game_link(row: GameRow) -> str:
    """Where a game is played: a link to its channel (a mention, in direct messages)."""
    return (f"https://discord.com/channels/{row.guild_id}/{row.channel_id}" if row.guild_id
            else f"<#{row.channel_id}>")


def _when(t: float) -> str:
    return f"<t:{int(t)}:f>"


def history_lines(history: list[dict], title) -> list[str]:
    """Who held each seat from when to when (`/game status`, the log)."""
    out = []
    for h in history:
        until = _when(h["to_at"]) if h.get("to_at") else "now"
        out.append(f"{title(h['seat'])}: <@{h['user_id']}> from {_when(h['from_at'])} to {until}"
                   + (f" ({h['how']})" if h.get("how") and h["how"] != "join" else ""))
    return out


async def other_seat(table, row: GameRow, seats: dict[str, int], user_id: int, seat: str) -> str | None:
    """Issue 39, one seat per person once play has begun: the seat that ``user_id`` holds in ``row``'s
    running game besides ``seat``, if any, when ``seat`` is a side. A seat they left (``Table.departed``)
    is not theirs; the moderator's `gm` counts (it sees every side's secrets: as before, a player with
    a side may take the `gm` seat, a moderator may not take a side). None before the start (solo and
    hot-seat play: one person may take several seats then; `/game join` takes no side once the game
    runs) and for ``seat`` `gm`. Asked where a seat changes hands, under the game's lock: `/game sub`
    and a takeover (open, and at its approval by vote), whichever command or button led there."""
    if row.status != "active" or seat == GM:
        return None
    gone = await table.departed(row.id)
    return next((s for s, u in seats.items() if u == user_id and s != seat and s not in gone), None)


def one_seat_refusal(table, who: str, held: str) -> Outcome:
    """The private answer when a hand-over would give ``who`` (`You` or a mention) a second seat."""
    have = "hold" if who == "You" else "holds"
    return Outcome.error(f"{who} {have} **{table.seat_title(held)}** in this game already: once play has begun, a "
                         "side goes only to a player who holds no other seat.")


class Seats:
    """`/me record`, `/me games`, `/me autoplay`, `/game takeover`, `/game open`, `/game board`: an
    object holding the table (the commit path) and the lobby (joining from the open-seat list)."""

    def __init__(self, table, lobby):
        self.table = table
        self.lobby = lobby

    # ------------------------------------------------------------ the player
    async def record(self, ctx: Ctx) -> Outcome:
        r = await self.table.store.record(ctx.user_id)
        pct = r.ontime_percent
        rate = "no phase counted yet (a new player)" if pct is None else f"{pct:.0f}% on time"
        return Outcome.private(
            f"**Your record** (every server): {rate}. Phases on time: {r.phases_on_time}; missed: "
            f"{r.phases_missed}. Games finished: {r.games_finished}; abandoned: {r.games_abandoned}. "
            f"Seats you took over: {r.seats_taken_over}; your seats taken over by others: {r.seats_lost}.")

    async def standing(self, user_id: int) -> list[tuple[GameRow, list[str], bool, object, set[str]]]:
        """Every live game where ``user_id`` holds a seat they have not left, in every server: (the game, their
        seats, whether it waits for them now, its clock, its seats on autopilot). `/me games` and the daily
        digest (issue 41) read it."""
        out = []
        for row in await self.table.store.games_of(user_id):
            gone = await self.table.departed(row.id)  # a seat the caller left is no longer theirs
            held = [s for s in seated(row.ruleset).seats if (row.seats or {}).get(s) == user_id]
            mine = [s for s in held if s not in gone]
            if held and not mine:
                continue
            waits, clock = False, None
            if row.status != "open":
                game = await self.table.load(row)
                waits = any(s in set(game.active_seats()) for s in mine)
                clock = await self.table.store.clock(row.id)
            auto = {s for s, st in (await self.table.store.seat_states(row.id)).items() if st.autopilot}
            out.append((row, mine, waits, clock, auto))
        return out

    async def my_games(self, ctx: Ctx, server_names: dict[int, str] | None = None) -> Outcome:
        """Every live game where the caller holds a seat, in every server (and DMs): the game, the
        server, a link to its channel, the seat, whether it waits for them now, the deadline."""
        rows = await self.standing(ctx.user_id)
        if not rows:
            return Outcome.private("You hold no seat in a running or open game.")
        names = server_names or {}
        lines, waiting = [], 0
        for row, mine, waits, clock, auto in rows:
            rs = get_ruleset(row.ruleset)
            where = game_link(row)
            server = names.get(row.guild_id) or (f"server {row.guild_id}" if row.guild_id else "direct messages")
            now = ""
            if row.status == "open":
                now = "waiting to start"
            else:
                if waits:
                    waiting += 1
                    now = "**waits for you**"
                else:
                    now = "waits for others"
                if clock and clock.deadline_at and clock.paused_at is None:
                    now += f", deadline <t:{int(clock.deadline_at)}:R>"
                elif clock and clock.paused_at is not None:
                    now += ", paused"
            lines.append(f"- {rs.title} · {clip(server, 60)} · {where} · "
                         + ", ".join(self.table.seat_title(s) + (" (on autopilot)" if s in auto else "") for s in mine)
                         + f" · {now}")
        head = f"**Your games** ({len(lines)}; {waiting} wait for you):"
        return Outcome.private(clip("\n".join([head] + lines), MAX_TEXT))

    async def autoplay(self, ctx: Ctx, value: str) -> Outcome:
        v = (value or "").strip().lower()
        if v not in ("on", "off"):
            return Outcome.error("`/me autoplay` takes `on` or `off`.")
        p = await self.table.store.prefs(ctx.user_id)
        p.autoplay = v == "on"
        await self.table.store.set_prefs(p)
        if p.autoplay:
            return Outcome.private("Autoplay on: when your only legal action is forced (a single retreat, `done` "
                                   "with nothing else legal), the bot plays it for you and says so in the channel.")
        return Outcome.private("Autoplay off: the bot plays nothing for you.")

    # ------------------------------------------------------------ taking over
    async def open_seats(self, row: GameRow, seats: dict[str, int] | None = None) -> tuple[list[str], list[str]]:
        """(free seats, seats up for takeover) of a live game."""
        rs = seated(row.ruleset)
        seats = seats if seats is not None else await self.table.store.seats(row.id)
        free = [s for s in rs.seats if s not in seats and s not in rs.optional_seats] if row.status == "open" else []
        up = []
        if row.status == "active":
            states = await self.table.store.seat_states(row.id)
            up = [s for s in rs.seats if s in seats and s in states and states[s].autopilot]
        return free, up

    async def autocomplete_takeover_seat(self, ctx: Ctx, current: str) -> list[str]:
        """`/game takeover seat:` offers the seats of this channel's game that are up for takeover."""
        row = await self.table.store.live_game(ctx.channel_id)
        if row is None:
            return []
        _, up = await self.open_seats(row)
        cur = (current or "").lower()
        return [s for s in up if cur in s][:25]

    @locked(needs_game=True)
    async def takeover(self, ctx: Ctx, row: GameRow, seat: str, game_id: int | None = None) -> Outcome:
        """`/game takeover seat:` (or the button on the open-seat list): a seat on autopilot goes to the
        caller at once (`takeover=open`) or once the creator or a majority of the other seats approve."""
        if game_id is not None and game_id != row.id:
            return Outcome.error("This button is for a game that is no longer running there.")
        rs = seated(row.ruleset)
        seat = (seat or "").strip().lower()
        if seat not in rs.seats:
            return Outcome.error(f"`{clip(seat, 30)}` is not a seat of this channel's game. Seats: {', '.join(rs.seats)}."
                                 " (`/game open` lists the server's seats up for takeover.)")
        if row.status != "active":
            return Outcome.error("This game has not started: take a free seat with `/game join`.")
        seats = await self.table.store.seats(row.id)
        states = await self.table.store.seat_states(row.id)
        st = states.get(seat) or SeatState(row.id, seat)
        if seat not in seats or not st.autopilot:
            return Outcome.error(f"`{seat}` is held and its holder is playing: it is not up for takeover.")
        gone = await self.table.departed(row.id)
        if seats[seat] == ctx.user_id and seat not in gone:
            return Outcome.error(f"You hold `{seat}` already: your next order takes it off autopilot.")
        # (a holder who left the seat takes it back like anyone else, under the game's takeover rule)
        others = {s: u for s, u in seats.items() if s != seat and s not in gone}
        held = await other_seat(self.table, row, seats, ctx.user_id, seat)  # asked again at the change itself
        if held:
            return one_seat_refusal(self.table, "You", held)
        rules = SeatRules.of(row)
        refusal = await self._too_unreliable(ctx.user_id, rules)
        if refusal:
            return refusal
        vote = rules.takeover == "vote" and not self.table.can_admin(ctx, row)
        if vote and st.takeover and st.takeover.get("user") not in (None, ctx.user_id):
            return Outcome.error(f"<@{st.takeover['user']}> has asked for this seat already; wait for the vote.")
        refusal = await self._ask_limit(row, ctx.user_id, states)
        if refusal:
            return refusal
        if vote:
            st.takeover = {"user": ctx.user_id, "votes": {}}
            await self.table.store.set_seat_state(st)
            voters = sorted({row.creator_id, *others.values()} - {ctx.user_id})
            named, pings = await self.table.timekeeper.mention(voters)  # notified: not in quiet hours, not away
            out = Outcome.public_reply(
                f"<@{ctx.user_id}> asks to take over **{self.table.seat_title(seat)}** (on autopilot). The creator, or a "
                f"majority of the other seats, approve with the buttons." + (f" {named}" if named else ""),
                mentions=pings)
            out.reply.buttons = [(f"tkv:{row.id}:{seat}:y", "Approve"), (f"tkv:{row.id}:{seat}:n", "Refuse")]
            return out
        return await self._hand_over(ctx, row, seat, ctx.user_id, seats, st)

    @locked(needs_game=True)
    async def takeover_vote(self, ctx: Ctx, row: GameRow, game_id: int, seat: str, yes: bool) -> Outcome:
        if game_id != row.id:
            return Outcome.error("This button is for a game that is no longer running here.")
        seats = await self.table.store.seats(row.id)
        st = (await self.table.store.seat_states(row.id)).get(seat)
        if st is None or not st.takeover or not st.autopilot:
            return Outcome.error("Nobody is asking for this seat any more.")
        taker = st.takeover["user"]
        gone = await self.table.departed(row.id)
        others = {u for s, u in seats.items() if s != seat and s not in gone}
        creator = ctx.user_id == row.creator_id or ctx.is_moderator
        if not creator and ctx.user_id not in others:
            return Outcome.error("Only the game's creator or the holders of the other seats vote on a takeover.")
        if ctx.user_id == taker:
            return Outcome.error("You cannot vote on your own takeover.")
        if creator:
            approved, refused = yes, not yes
        else:
            st.takeover["votes"][ctx.user_id] = bool(yes)
            votes = st.takeover["votes"]
            voters = others - {taker}
            need = len(voters) // 2 + 1
            approved = sum(1 for u in voters if votes.get(u) is True) >= need
            refused = sum(1 for u in voters if votes.get(u) is False) > len(voters) - need
        if refused:
            st.takeover = None
            await self.table.store.set_seat_state(st)
            return Outcome.public_reply(f"The takeover of **{self.table.seat_title(seat)}** by <@{taker}> is refused.")
        if not approved:
            await self.table.store.set_seat_state(st)
            return Outcome.private("Your vote is counted; the takeover waits for a majority.")
        return await self._hand_over(ctx, row, seat, taker, seats, st)

    async def _ask_limit(self, row: GameRow, user_id: int, states: dict[str, SeatState]) -> Outcome | None:
        """Issue 39: one player's takeover requests in one game are limited: one waiting for its vote at a
        time, ``MAX_TAKEOVER_ASKS`` in all, ``TAKEOVER_COOLDOWN`` apart (each pings the table; a takeover
        taken back and asked again must not be a way to stall it). None: this request is counted."""
        waiting = next((s for s, st in states.items() if st.autopilot and st.takeover
                        and st.takeover.get("user") == user_id), None)
        if waiting:
            return Outcome.error(f"You have asked for **{self.table.seat_title(waiting)}** already; wait for that "
                                 "vote.")
        key, now = f"takeovers:{row.id}", self.table.clock()
        asked = json.loads(await self.table.store.get_setting(key) or "{}")
        mine = asked.get(str(user_id), [])
        if len(mine) >= MAX_TAKEOVER_ASKS:
            return Outcome.error(f"You have asked for a takeover {len(mine)} times in this game: no more. The creator "
                                 "may still hand you a seat (`/game sub`).")
        if mine and now < mine[-1] + TAKEOVER_COOLDOWN:
            return Outcome.error(f"You asked for a takeover in this game <t:{int(mine[-1])}:R>; ask again "
                                 f"<t:{int(mine[-1] + TAKEOVER_COOLDOWN) + 1}:R>.")
        asked[str(user_id)] = mine + [now]
        await self.table.store.set_setting(key, json.dumps(asked))
        return None

    async def _too_unreliable(self, user_id: int, rules: SeatRules) -> Outcome | None:
        if rules.min_ontime is None:
            return None
        rec = await self.table.store.record(user_id)
        pct = rec.ontime_percent
        if pct is not None and pct < rules.min_ontime:
            return Outcome.error(f"This game asks for an on-time record of at least {rules.min_ontime:g}%; yours is "
                                 f"{pct:.0f}% (`/me record`).")
        return None

    async def _hand_over(self, ctx: Ctx, row: GameRow, seat: str, user_id: int, seats: dict[str, int],
                         st: SeatState) -> Outcome:
        """The seat to ``user_id``: its history, both records, off autopilot, its secrets by the private
        path, and, for a real new holder of a seat that must act in this phase, a full phase once
        (``Timekeeper.new_holder_time``). Refused, here at the change, if it would give them a second
        seat (issue 39: a request approved after they took another seat); that request is withdrawn."""
        store, now = self.table.store, self.table.clock()
        held = await other_seat(self.table, row, seats, user_id, seat)
        if held:
            if st.takeover and st.takeover.get("user") == user_id:
                st.takeover = None
                await store.set_seat_state(st)
            return one_seat_refusal(self.table, "You" if ctx.user_id == user_id else f"<@{user_id}>", held)
        old = seats[seat]
        held_before = old == user_id or any(h["seat"] == seat and h["user_id"] == user_id
                                            for h in await store.seat_history(row.id))
        await store.set_seat_holder(row.id, seat, user_id)
        await store.seat_changed(row.id, seat, user_id, now, "takeover")
        if old != user_id:  # (a holder who left and takes the seat back neither took it over nor lost it)
            await store.add_record(user_id, seats_taken_over=1)
            await store.add_record(old, seats_lost=1)
        await store.set_seat_state(SeatState(row.id, seat, checked_in=st.checked_in))
        game = await self.table.load(row)
        clock = await store.clock(row.id)
        tail = ""
        if clock is not None and clock.phase_key != "ended":  # (the timers follow: the seat is off autopilot)
            before = clock.deadline_at
            await self.table.timekeeper.new_holder_time(row, game, clock, seat, held_before)
            deadline = await self.table.timekeeper.reschedule(row, game, clock)
            if deadline:
                tail = f" Deadline{' (unchanged)' if deadline == before else ''}: {dl.stamp(deadline)}."
        was = "they had left it, on autopilot" if old == user_id else f"was <@{old}>, on autopilot"
        out = Outcome.public_reply(f"<@{user_id}> takes over **{self.table.seat_title(seat)}** ({was}); the seat is "
                                   f"played by them from now on.{tail}", mentions=[user_id])
        out.dms = await self.table.secrets_dms(game, {seat: user_id})
        if not out.dms and game.ruleset.hidden_information:
            out.probe = (user_id, row.id, seat)
        out.board_edit = await self.table.board_edit(row.id)
        rooms = await self.lobby.seat_rooms(row.id, [seat])  # the seat's private rooms with the other players
        kept = await self.lobby.seat_rooms(row.id, [seat], [s for s, u in seats.items() if u == old and s != seat])
        out.room_moves = ([(tid, old, False) for tid in kept if old != user_id]
                          + [(tid, user_id, True) for tid in rooms])
        return out

    # ------------------------------------------------------------ the server's open seats
    async def open_list(self, guild_id: int | None) -> tuple[str, list[tuple[str, str]]]:
        """The text and buttons of the server's open seats (`/game open`, the board)."""
        if guild_id is None:
            return "Open seats are listed per server: use `/game open` there.", []
        lines, buttons = [], []
        for row in await self.table.store.open_games(guild_id):
            seats = row.seats or {}
            free, up = await self.open_seats(row, seats)
            if not free and not up:
                continue
            if len(lines) >= MAX_LISTED:
                lines.append("… and more.")
                break
            rs = get_ruleset(row.ruleset)
            hours = self.table.timekeeper.rules(row).hours
            bits = []
            if free:
                bits.append("free: " + ", ".join(f"`{s}`" for s in free))
            if up:
                bits.append("up for takeover: " + ", ".join(f"`{s}`" for s in up))
            lines.append(f"- **{rs.title}** in <#{row.channel_id}> · {len(rs.seats)} seats · "
                         f"{'; '.join(bits)} · deadline {f'{hours:g} h' if hours else 'none'} · by <@{row.creator_id}>")
            for s in free:
                if len(buttons) < 25:
                    buttons.append((f"sjoin:{row.id}:{s}", clip(f"Join {s} ({rs.title})", 80)))
            for s in up:
                if len(buttons) < 25:
                    buttons.append((f"stake:{row.id}:{s}", clip(f"Take over {s} ({rs.title})", 80)))
        if not lines:
            return "No game in this server has a free seat or a seat up for takeover.", []
        return clip("**Open seats in this server:**\n" + "\n".join(lines), MAX_TEXT), buttons

    async def open_games(self, ctx: Ctx) -> Outcome:
        text, buttons = await self.open_list(ctx.guild_id)
        return Outcome.private(text, buttons=buttons)

    async def set_seat_board(self, ctx: Ctx, channel_id: int) -> Outcome:
        """`/game board channel:` (Manage Server): the open-seat list kept as one message there."""
        if ctx.guild_id is None:
            return Outcome.error("A board belongs to a server: run this there.")
        if not ctx.is_moderator:
            return Outcome.error("Only a member with Manage Server names the board's channel.")
        text, buttons = await self.open_list(ctx.guild_id)
        out = Outcome.private(f"The open-seat board is in <#{channel_id}>; the bot keeps it up to date.")
        out.elsewhere[channel_id] = [Post(text=text, buttons=buttons)]
        out.seat_board = ctx.guild_id  # the transport records where the board's message went (board_placed)
        # issue 39: said only once the board is there; else why not, and nothing changes
        out.if_unposted = "No open-seat board was placed: {why}. Nothing changed; name another channel, or let me post there."
        return out

    async def board_placed(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """The transport posted a server's open-seat board: remember where, to edit it in place."""
        await self.table.store.set_setting(f"seatboard:{guild_id}", f"{channel_id}:{message_id}")

    async def board_update(self, guild_id: int | None) -> tuple[int, int, str, list] | None:
        """(channel, message, text, buttons) of the server's board as it should read now, if it has one."""
        if guild_id is None:
            return None
        at = await self.table.store.get_setting(f"seatboard:{guild_id}")
        if not at:
            return None
        ch, msg = (int(x) for x in at.split(":"))
        text, buttons = await self.open_list(guild_id)
        return ch, msg, text, buttons

    async def join_game(self, ctx: Ctx, game_id: int, seat: str) -> Outcome:
        """The Join button of the open-seat list (in any channel of the server)."""
        row = await self.table.store.game(game_id)
        if row is None or row.status != "open" or row.guild_id != ctx.guild_id:
            return Outcome.error("That game no longer has a free seat to join.")
        return _moved(await self.lobby.join(dataclasses.replace(ctx, channel_id=row.channel_id), seat),
                      ctx.channel_id, row.channel_id)

    async def takeover_game(self, ctx: Ctx, game_id: int, seat: str) -> Outcome:
        """The Take over button of the open-seat list (in any channel of the server)."""
        row = await self.table.store.game(game_id)
        if row is None or row.status != "active" or row.guild_id != ctx.guild_id:
            return Outcome.error("That game no longer has a seat up for takeover.")
        return _moved(await self.takeover(dataclasses.replace(ctx, channel_id=row.channel_id), seat, game_id=game_id),
                      ctx.channel_id, row.channel_id)


def _moved(out: Outcome, here: int, game_channel: int) -> Outcome:
    """A public answer to a button pressed outside the game's channel goes to the game's channel; the
    presser reads a short private note."""
    if not out.ok or out.ephemeral or here == game_channel or out.reply is None:
        return out
    out.elsewhere.setdefault(game_channel, []).append(out.reply)
    # issue 39: "see #game" only once it is there; else the answer itself, privately, and why it is not there
    out.if_unposted = out.reply.text + f"\n-# (Not posted in <#{game_channel}>: {{why}}.)"
    out.reply = Post(text=f"Done: see <#{game_channel}>.")
    out.ephemeral = True
    return out
