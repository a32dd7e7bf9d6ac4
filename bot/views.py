"""What a player reads: status, the map, the log, secrets, help."""
from __future__ import annotations

import asyncio

from engine import cases
from engine.core import OrderError
from engine.display import track_value
from engine.rulesets import get_ruleset, ruleset_names

from bot.outcome import MAX_TEXT, Post, Outcome, Ctx, public_text, clip, fit_lines, split_text
from bot import deadlines as dl
from bot.seats import CHECKIN, history_lines, holders_line


MAP_RADIUS = (2, 12)  # `/game map radius:`, hexes either side of `around:` (render.hexmap.RADIUS_MIN/MAX)



class Views:
    """Status, the map, the log, secrets and help: an object holding the table and the lobby (who watches)."""

    def __init__(self, table, lobby):
        self.table = table
        self.lobby = lobby

    async def status(self, ctx: Ctx, public: bool = False) -> Outcome:
        """The game's status, privately (with the caller's own reminders); with ``public``, posted in
        the channel as the game's status board, which the bot then edits in place after every order
        instead of posting it again."""
        row = await self.table.current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        text = await self.status_text(row)
        if public:
            if row.status not in ("open", "active"):
                return Outcome.error("The game is over: its status board stays as it was.")
            out = Outcome.public_reply(clip(text, MAX_TEXT))
            out.board = row.id
            return out
        if row.status == "open":
            return Outcome.private(text)
        rs = get_ruleset(row.ruleset)
        seats = await self.table.holding(row, await self.table.store.seats(row.id))
        game = await self.table.load(row)
        for seat in (s for s in rs.seats if seats.get(s) == ctx.user_id):
            own = game.view(seat)
            left = [u["id"] for u in own["units"] if u["side"] == seat and u["hex"] is None]
            # reminders are for a game still being played: an ended game (over, or ended by
            # `/game end` during the set-up) has nothing left to deploy (issue 27)
            if left and own.get("turn") == 0 and row.status == "active" and game.result() is None:
                text += f"\n{self.table.seat_title(seat)}: still to deploy: {', '.join(left)}."
        return Outcome.private(clip(text, MAX_TEXT))

    async def status_text(self, row) -> str:
        """What anyone may read of the game's state (the status board's text)."""
        rs = get_ruleset(row.ruleset)
        seats = await self.table.store.seats(row.id)
        # a plain game's moderator (the lobby's, engine/modes/gm.py) is listed once the seat is taken
        listed = (*rs.seats, *(("gm",) if "gm" in seats and "gm" not in rs.seats else ()))
        gone = await self.table.departed(row.id) if row.status == "active" else set()  # issue 28: holders who left

        def holder(s: str) -> str:
            if s not in seats:
                return "free"
            return f"nobody (<@{seats[s]}> left; on autopilot)" if s in gone else f"<@{seats[s]}>"
        seat_list = ", ".join(f"{self.table.seat_title(s)}: {holder(s)}" for s in listed)
        # a game made with a level of play says which (a plain game is enforced, as it always was)
        level = f"Level of play: **{rs.mode}**." if rs.optional_seats else ""
        watching = (await self.lobby.spectators(row.id))["admitted"]
        if watching:  # admitted by the creator (bot/lobby.py): they read what the public reads
            seat_list += ". Spectators: " + ", ".join(f"<@{u}>" for u in watching)
        game = await self.table.load(row)
        v = game.view(None)
        rules = f"\n{v['rules']}." if v.get("rules") else ""  # issue 42: the rules in force
        if row.status == "open":
            return (f"**{rs.title}**, waiting to start. Seats: {seat_list}.{' ' + level if level else ''}{rules}"
                    + await self._seat_lines(row, seats))
        head, _ = self.table.turn_line(game, seats, ping=False)
        tracks = "\n".join(f"- {t.get('name', '?')}: {track_value(t, ' / ')}"
                           for t in v.get("tracks", []) if isinstance(t, dict))
        text = (f"**{rs.title}** ({row.status}). Seats: {seat_list}.{' ' + level if level else ''}{rules}\n{head}\n"
                f"{await self.table.timekeeper.deadline_line(row)}\n{tracks}\nOrders so far: {row.seq}.")
        table = v.get("table") if rs.optional_seats else None
        if table:  # a game with a level of play: what waits for an answer (public)
            waiting = [f"declared {p['id']} (`{clip(p['text'], 60)}`)" for p in table.get("proposals", [])
                       if p["status"] == "open"]
            waiting += [f"vote {x['id']} ({x['kind']}{' ' + x['seat'] if x.get('seat') else ''})"
                        for x in table.get("votes", []) if x["status"] == "open"]
            waiting += [f"pact {k['id']}" for k in table.get("pacts", []) if k["status"] == "proposed"]
            waiting += [f"trade {t['id']} ({t['from']} → {t['to']})" for t in table.get("trades", [])
                        if t["status"] == "open"]
            if waiting:
                text += "\nAwaiting an answer: " + ", ".join(waiting) + "."
        if row.status in ("over", "ended") and game.result() is None:
            text += "\nResult: none, the game was ended by its creator or a moderator."
        for line in await self.table.delivery.status_lines(row.id, self.table.seat_title):  # issue 25: no silent drop
            text += "\n" + line
        text += await self._seat_lines(row, seats)
        return text

    async def _seat_lines(self, row, seats: dict[str, int]) -> str:
        """Issue 28: each holder's on-time rate, the seats on autopilot, and who held each seat when."""
        order = list(get_ruleset(row.ruleset).seats) + ["gm"]  # in the ruleset's order (the lobby's moderator last)
        seats = {s: seats[s] for s in sorted(seats, key=lambda s: order.index(s) if s in order else len(order))}
        text = ""
        line = await holders_line(self.table.store, seats, self.table.seat_title)
        if line:
            text += "\n" + line
        states = await self.table.store.seat_states(row.id)
        if row.status == "open":
            clock = await self.table.store.clock(row.id)
            if clock is not None and clock.phase_key == CHECKIN:
                waiting = [s for s in seats if not (states.get(s) and states[s].checked_in)]
                timers = await self.table.store.timers(row.id, pending_only=True)
                until = f" by {dl.stamp(timers[0].due_at)}" if timers else ""
                text += ("\nCheck-in" + until + ": still to check in: "
                         + (", ".join(self.table.seat_title(s) for s in waiting) or "nobody") + ".")
        auto = [s for s, st in states.items() if st.autopilot and s in seats]
        if auto and row.status == "active":
            text += ("\nOn autopilot, up for takeover (`/game takeover seat:<seat>`): "
                     + ", ".join(self.table.seat_title(s) for s in auto) + ".")
        history = await self.table.store.seat_history(row.id)
        if any(h["how"] != "join" or h.get("to_at") for h in history):  # only once a seat changed hands
            text += "\nSeat history: " + "; ".join(history_lines(history, self.table.seat_title)) + "."
        return text

    async def set_board(self, game_id: int, channel_id: int, message_id: int) -> None:
        """The transport posted a game's status board: remember where, to edit it in place."""
        await self.table.store.set_setting(f"board:{game_id}", f"{channel_id}:{message_id}")
        if game_id in self.table.games:  # (what an order read before this write does not replace it: ``load``)
            self.table.boards[game_id] = f"{channel_id}:{message_id}"
        else:
            self.table.boards.pop(game_id, None)

    async def board_edit(self, game_id: int) -> tuple[int, int, str] | None:
        """(channel, message, text) of the game's status board as it should read now, if it has one."""
        at = await self.table.board_at(game_id)
        if not at:
            return None
        channel_id, message_id = (int(x) for x in at.split(":"))
        return channel_id, message_id, clip(await self.status_text(await self.table.store.game(game_id)), MAX_TEXT)

    async def map(self, ctx: Ctx, around: str | None = None, mine: bool = False, whole: bool = False,
                  radius: int | str | None = None) -> Outcome:
        """The map: by default cropped to where the action is (hex games); ``whole`` the whole map;
        ``around`` a place, zoomed, ``radius`` hexes either side (MAP_RADIUS)."""
        if radius is not None:
            r = str(radius).strip()
            if not (r.isdigit() and MAP_RADIUS[0] <= int(r) <= MAP_RADIUS[1]):
                return Outcome.error(f"`radius` is a number of hexes from {MAP_RADIUS[0]} to {MAP_RADIUS[1]}.")
            if not around:
                return Outcome.error("`radius` goes with `around:<hex>`.")
            radius = int(r)
        if whole and around:
            return Outcome.error("Choose `whole` or `around`, not both.")
        row = await self.table.current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        game = await self.table.load(row)
        seat = None
        if mine:
            seats = await self.table.holding(row, await self.table.store.seats(row.id))
            who = self.table.seat_for(game, seats, ctx.user_id, None)
            if isinstance(who, Outcome):
                return who
            seat = who
        if around:
            try:
                around = self.parse_around(game.ruleset, around)
            except (ValueError, OrderError) as e:
                return Outcome.error(str(e))
        try:
            img = await self.table.render_async(game, seat, around, whole=whole, radius=radius, game_id=row.id)
        except ValueError as e:  # the drawing refused the place after all
            return Outcome.error(str(e))
        label = f"{self.table.seat_title(seat)}'s own view (private)" if seat else "Public map"
        text = f"{label}" + (f", around {around}" if around else "") + (", whole" if whole else "") + "."
        return Outcome(reply=Post(text=text, image=img, alt=self.table.map_alt(game, seat, around)), ephemeral=bool(seat))

    @staticmethod
    def parse_around(rs, text: str) -> str:
        """The canonical place for ``/game map around:`` (at most 40 characters), as the ruleset
        reads it (``RulesetBase.parse_around``: its board's ``parse_place``)."""
        text = (text or "").strip()
        if len(text) > 40:
            raise ValueError("`around` is a hex or an area id (40 characters at most).")
        return rs.parse_around(text)

    async def autocomplete_around(self, ctx: Ctx, current: str) -> list[tuple[str, str]]:
        """(label, value) pairs for ``/game map around:``: an area game's areas; for a hex game,
        the hexes where the public map shows units."""
        if self.table.not_mine(ctx):  # another process's guild: nothing loaded here
            return []
        row = await self.table.store.latest_game(ctx.channel_id)
        if row is None:
            return []
        rs = get_ruleset(row.ruleset)
        cur = (current or "").strip().lower()
        public = (await self.table.load(row)).view(None) if rs.board_kind == "hex" else {}  # hexes with units
        return [(clip(str(n), 100), str(v)[:100]) for n, v in rs.around_choices(cur, public)][:25]

    async def log(self, ctx: Ctx, last: int | None = None) -> Outcome:
        row = await self.table.current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        n = max(1, min(int(last or 20), 200))
        every = await self.table.store.actions(row.id)
        rows = every[-n:]
        rs = get_ruleset(row.ruleset)
        if row.status in ("over", "ended"):  # nothing is secret any more
            rs = None
        if not rows:
            return Outcome.private("No orders yet.")
        lines = []
        undone = {a.ref_seq: a.seq for a in every if a.kind == "undo"}
        for a in rows:
            if a.kind == "undo":
                lines.append(f"`#{a.seq}` {a.seat}: takes back #{a.ref_seq} ({public_text(rs, a.text)})")
                continue
            secs = sorted({e["section"] for e in a.events if e.get("section")})
            dice = [str(r["value"]) for e in a.events for r in e.get("rolls", [])]
            extra = (f" 🎲 {' '.join(dice)}" if dice else "") + (f" ({', '.join(secs)})" if secs else "")
            gone = f" (taken back by #{undone[a.seq]})" if a.seq in undone else ""
            lines.append(f"`#{a.seq}` {a.seat}: `{public_text(rs, a.text)}`{extra}{gone}")
        history = await self.table.store.seat_history(row.id)
        if any(h["how"] != "join" or h.get("to_at") for h in history):  # issue 28: once a seat changed hands
            lines.append("Seat history: " + "; ".join(history_lines(history, self.table.seat_title)))
        chunks = split_text("\n".join(lines), 1800)
        if len(chunks) > 1:  # one message: the newest entries, and say so
            shown = chunks[-1].count("\n") + 1
            return Outcome.private(f"(the last {shown} of {len(every)} entries; `/game export` has them all)\n"
                                   + chunks[-1])
        return Outcome.private(chunks[0])

    async def secret(self, ctx: Ctx) -> Outcome:
        row = await self.table.live(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status != "active":
            return Outcome.error("The game has not started yet.")
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        gone = await self.table.departed(row.id)  # issue 28: a seat its holder left tells them nothing more
        mine = {s: u for s, u in seats.items() if u == ctx.user_id and s not in gone}
        if not mine:
            return Outcome.error("You hold no seat in this game.")
        dms = await self.table.secrets_dms(game, mine)
        if not dms:
            return Outcome.private("Your seat has no hidden information right now.")
        # the answer itself is private and always arrives (an ephemeral reply); a copy goes by the usual
        # private way, and the transport says where it went (never claimed before it is sent)
        for p in dms[ctx.user_id]:
            p.copy = True
        return self.table.stamp(Outcome(reply=Post(text="\n\n".join(p.text for p in dms[ctx.user_id])), ephemeral=True,
                                  dms=dms), row.id)

    async def help_topics(self, ctx: Ctx, current: str) -> list[str]:
        """`/help topic:` autocomplete: the topics of this channel's game (those its help answers
        with more than its general text), then the rulesets."""
        cur = (current or "").strip().lower()
        row = await self.table.store.live_game(ctx.channel_id)
        topics: list[str] = []
        if row:
            rs = get_ruleset(row.ruleset)
            general = rs.help()
            topics = [t for t in rs.help_topics() if rs.help(t) != general]
        topics += ruleset_names()
        return [t for t in topics if cur in t][:25]

    async def help(self, ctx: Ctx, topic: str | None = None) -> Outcome:
        topic = (topic or "").strip().lower()
        if topic in ruleset_names():
            return Outcome.private(clip(get_ruleset(topic).help(), MAX_TEXT))
        row = await self.table.store.live_game(ctx.channel_id)
        if topic in ("modes", "table") and not (row and get_ruleset(row.ruleset).mode != "enforced"):
            from engine.modes import modes_help

            return Outcome.private(clip(modes_help(), MAX_TEXT))
        if topic and not row:
            return Outcome.error(f"No help topic `{clip(topic, 30)}` here: a topic such as `orders` belongs to "
                                 f"this channel's game, and there is none. Rulesets: {', '.join(ruleset_names())}.")
        if row and topic:  # a topic of this channel's game (`/help topic:orders`)
            rs = get_ruleset(row.ruleset)
            text = rs.help(topic)
            if text != rs.help():
                return Outcome.private(clip(text, MAX_TEXT))
            return Outcome.error(f"No help topic `{clip(topic, 30)}` for {rs.title}. "
                                 f"Try `/help` alone, or a ruleset: {', '.join(ruleset_names())}.")
        general = (
            "**palantir** moderates wargames in this channel.\n"
            "`/game new ruleset:` creates a game; `/game join seat:`, then `/game start`.\n"
            "`/order text:` gives an order (autocomplete offers every legal one); `/done` ends your part of the phase.\n"
            "`/game map` shows the map (`mine:true` for your own view), `/game status`, `/game log`, `/secret`.\n"
            "`/roll dice:2d6+1` rolls dice for anyone. "
            "`/game new options: mode=assist` (or `tabletop`) adds a moderator's `gm` seat, declared actions and "
            "a generic vocabulary of pieces, decks and tracks; `/whisper seat: text:` talks privately "
            "(`/help topic:modes`).\n"
            "`/me games` lists your games in every server; `/game open` the seats free or up for takeover here "
            "(`/game takeover seat:`); `/me record` your record.\n"
            "`/rule case:16.71` (or a word: `oil`) looks a rule case up, privately (`ruleset:` outside a game).\n"
            f"Rulesets: {', '.join(ruleset_names())} (`/help topic:<ruleset>`)."
        )
        if row:
            rules = (await self.table.load(row)).view(None).get("rules")
            if rules:  # issue 42: this game's options, as they change the rules the help describes (first: not clipped)
                general += f"\n\n**This game** ({row.ruleset}): {rules}."
            general += "\n\n" + get_ruleset(row.ruleset).help()
        return Outcome.private(clip(general, MAX_TEXT))

    # ----------------------------------------------------------- /rule (issue 42)
    async def _rule_game(self, ctx: Ctx, ruleset: str | None):
        """(ruleset, options, state) that `/rule` reads: ``ruleset:`` if given (this channel's game's options
        when it is that game's), else this channel's game; an Outcome when neither."""
        row = await self.table.store.live_game(ctx.channel_id) if not self.table.not_mine(ctx) else None
        name = (ruleset or "").strip().lower()
        if name and name not in ruleset_names():
            return Outcome.error(f"No ruleset `{clip(name, 30)}`. Rulesets: {', '.join(ruleset_names())}.")
        if row is None or (name and cases.base_ruleset(get_ruleset(row.ruleset)).name != name):
            if not name:
                return Outcome.error("No game in this channel: give `ruleset:` "
                                     f"({', '.join(ruleset_names())}).")
            return get_ruleset(name), None, None
        if row.status == "open":  # not begun: the options it was made with
            return get_ruleset(row.ruleset), dict(row.options or {}), None
        game = await self.table.load(row)
        return game.ruleset, game.state.get("options", {}), game.state

    async def rule(self, ctx: Ctx, case: str, ruleset: str | None = None) -> Outcome:
        """`/rule case:<number or word> [ruleset:]`: the case, privately (engine/cases.py: the project's own
        summary, the orders it governs, the reconstructed chart values, this game's options)."""
        text = (case or "").strip()
        if not text or len(text) > 60:
            return Outcome.error("`case` is a rule case's number (`16.71`) or a word (`oil`), 60 characters at most.")
        got = await self._rule_game(ctx, ruleset)
        if isinstance(got, Outcome):
            return got
        rs, options, state = got
        found, lines = await asyncio.to_thread(cases.answer, rs, text, options, state)
        return Outcome.private(fit_lines(lines, MAX_TEXT)) if found else Outcome.error(lines[0][1])

    async def autocomplete_rule(self, ctx: Ctx, current: str, ruleset: str | None = None) -> list[tuple[str, str]]:
        """(label, number) for `/rule case:` autocomplete, at most 25."""
        got = await self._rule_game(ctx, ruleset)
        if isinstance(got, Outcome):
            return []
        return (await asyncio.to_thread(cases.index(got[0]).choices, current or ""))[:25]
