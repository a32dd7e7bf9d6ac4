"""`palantir local <ruleset>`: play a game in the terminal, no Discord token.

Typed commands are the slash commands (`/order deploy OA1 2325`, `/done`,
`/game map mine:true`, `/roll 2d6`), plus `as <seat>` to switch seats. Public
posts print as they would appear in the channel; private ones (ephemeral
answers, DMs) print with a `[to <seat>]` prefix; images go to `--out`.

With `--script FILE`, commands are read from the file, one a line (`#` starts
a comment); the run exits non-zero if a command was refused, unless its line
starts with `!expect-error ` (and then it must be refused).

The console's clock (issue 28): there is no scheduler, so after every command
(and once the game is set up) whatever is due by the wall clock runs, as the
bot's scheduler would run it: a seat on autopilot plays, a forced action of a
player with `/me autoplay on` is played, a passed deadline or a check-in's end
acts; what that posts prints like any post. Every seat is played at this one
keyboard, so a game with `checkin=` checks each seat in as it is set up (and
`/game checkin` is the Check in button, for a game made with `/game new`).
"""
from __future__ import annotations

import asyncio
import dataclasses
import io
import re
import shlex
import uuid
import sys
import tempfile
import threading
from pathlib import Path
from typing import TextIO

from bot.seats import SeatRules
from bot.service import MAX_CHARTS_BYTES, Ctx, GameService, Outcome, Post, charts_text
from bot.storage import open_store
from bot.transports.inbound import valid_text
from engine.modes import mode_of, moded_name, split_name
from engine.options import pairs
from engine.rulesets import get_ruleset

CHANNEL = 1
GUILD = 1
MAX_TICK_FIRES = 200  # timers fired after one command, at most


OPTION_NAMES = {"text", "seat", "dice", "reason", "private", "topic", "around", "mine", "ruleset", "options",
                "thread", "last", "hours", "since", "from", "to", "tz", "until", "user", "whole", "radius", "value", "case",
                "template", "swap", "name", "page", "at", "player", "format"}


class Console:
    def __init__(self, service: GameService, ruleset: str, out_dir: str | None, stream: TextIO = sys.stdout,
                 options: str | None = None):
        self.service = service
        self.options = options  # `/game new options:` of the game the console starts
        self.rs = get_ruleset(ruleset)
        self.ruleset = ruleset
        self.out_dir = Path(out_dir) if out_dir else None
        self.stream = stream
        self.users = {seat: i + 1 for i, seat in enumerate(self.rs.seats)}  # one local user per seat
        self.seat_of_user = {u: s for s, u in self.users.items()}
        self.names: dict[str, int] = {}  # local players who joined by `/game sub`
        self.seat = self.rs.seats[0]
        self.images = 0
        self.interaction = 0
        self.session = uuid.uuid4().hex[:12]  # interaction ids stay unique when a --db game resumes

    # ------------------------------------------------------------ output
    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def _names(self, text: str) -> str:
        by_name = {u: n for n, u in self.names.items()}
        return re.sub(r"<@(\d+)>", lambda m: "@" + by_name.get(int(m.group(1))) if int(m.group(1)) in by_name
                      else "@" + self.seat_of_user.get(int(m.group(1)), m.group(1)), text)

    def _save(self, data: bytes | None, label: str, ext: str = "png") -> str:
        if data is None:
            return "[image: rendering is off]"
        self.images += 1
        if not self.out_dir:
            return "[image: not saved; use --out DIR]"
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"{self.images:04d}-{label}.{ext}"
        path.write_bytes(data)
        return f"[{'image' if ext in ('png', 'gif') else 'file'}: {path}]"

    def _post(self, post: Post, private_to: str | None, label: str) -> None:
        prefix = f"[to {private_to}] " if private_to else ""
        if post.text:
            for line in self._names(post.text).split("\n"):
                self.say(prefix + line)
        if post.image is not None:
            ext = post.filename.rsplit(".", 1)[-1] if "." in post.filename else "png"
            self.say(prefix + self._save(post.image, label, ext))
        if post.attachment is not None:
            stem, _, ext = post.attachment_name.rpartition(".")
            self.say(prefix + self._save(post.attachment, stem or ext, ext if stem else "json"))

    async def show(self, out: Outcome) -> None:
        if out.reply:
            self._post(out.reply, self.seat if out.ephemeral else None,
                       f"{self.seat}-view" if out.ephemeral else "map")
        for p in out.public:
            self._post(p, None, "map")
        if out.map_after or out.notice:
            img, caption = (await self.service.table.render_game(*out.map_after)) if out.map_after else (None, None)
            seat = out.map_after[1] if out.map_after else None
            if out.notice:
                self._post(Post(text=out.notice.text, image=img), seat, "map")
            else:
                self._post(Post(text=caption, image=img), seat, "map")
        for cid, posts in out.elsewhere.items():
            for p in posts:
                self._post(p, None, "post")
        for uid, posts in out.dms.items():
            for p in posts:
                if p.copy:  # a copy of the private answer just shown (`/secret`): in a terminal, once is enough
                    continue
                self._post(p, self.seat_of_user.get(uid, str(uid)), "dm")

    async def tick(self) -> int:
        """The console's clock (see the module's text): fire every timer that is due, as the bot's
        scheduler does, and print what they posted (the outbox). Returns how many timers fired."""
        svc, fired = self.service, 0
        for _ in range(MAX_TICK_FIRES):  # (a game whose every seat is on autopilot goes on at the next command)
            n = await svc.clocks.fire_due()
            if not n:
                break
            fired += n
        await svc.digest.send_digests()  # issue 41: a daily digest that fell due (printed as a private message)
        while items := await svc.store.pending_outbox():
            for item in items:
                payload = item["payload"]
                if not (payload.get("seatboard") or payload.get("board")):  # (no boards in a terminal)
                    post = await svc.clocks.outbox_post(payload)
                    uid = item["user_id"]
                    self._post(post, self.seat_of_user.get(uid, str(uid)) if uid else None, "dm" if uid else "map")
                await svc.store.mark_sent(item["id"], svc.table.clock())
        return fired

    # ----------------------------------------------------------- commands
    def ctx(self) -> Ctx:
        self.interaction += 1
        uid = self.users[self.seat]
        return Ctx(channel_id=CHANNEL, guild_id=GUILD, user_id=uid, interaction_id=f"local-{self.session}-{self.interaction}",
                   is_moderator=(uid == 1 or self.seat == "gm"), user_name=self.seat)

    async def setup(self) -> str | None:
        """A new game with every seat taken, started; or the game already in --db. The reason when
        no game could be created (bad ``--options``): one line, and the run stops there."""
        existing = await self.service.store.live_game(CHANNEL)
        if existing and existing.ruleset == self.ruleset:
            self.say(f"Resuming game {existing.id} ({existing.seq} orders).")
            return None
        first = self.seat
        try:
            options, charts = self.charts_file(self.options, split_name(self.ruleset)[0])
        except ValueError as e:
            return f"Bad options: {e}"
        created = await self.service.lobby.new_game(self.ctx(), self.ruleset, options, charts=charts)
        if not created.ok:
            text = created.reply.text if created.reply else "the game could not be created"
            return " ".join(text.split())  # one line, whatever the refusal's own layout
        await self.show(created)
        for seat in self.rs.seats:
            self.seat = seat
            await self.show(await self.service.lobby.join(self.ctx(), seat))
        row = await self.service.store.live_game(CHANNEL)
        if row is not None and row.status == "open" and SeatRules.of(row).checkin > 0:
            # issue 28: every seat is at this keyboard: each checks in now (the last one starts the game)
            for seat in self.rs.seats:
                if seat in (row.seats or await self.service.store.seats(row.id)):
                    self.seat = seat
                    await self.show(await self.service.lobby.checkin(self.ctx(), row.id))
        self.seat = first
        if (await self.service.store.live_game(CHANNEL)).status == "open":
            await self.show(await self.service.lobby.start(self.ctx()))
        await self.tick()
        active = (await self.service.table.load(await self.service.store.live_game(CHANNEL))).active_seats()
        if active:
            self.seat = active[0]
            self.say(f"(you are now {self.seat}; `as <seat>` switches)")
        return None

    @staticmethod
    def _kv(words: list[str]) -> tuple[list[str], dict[str, str]]:
        """Discord's option form, as typed on Discord: ``name:value`` where a value runs on to the
        next ``name:`` (``/odds text:melee LO4 at 1807``, ``/roll dice:2d6 reason:to cross the ford``);
        words before the first option are positional."""
        rest, kv, key = [], {}, None
        for w in words:
            k, sep, v = w.partition(":")
            if sep and k.lower() in OPTION_NAMES:
                key = k.lower()
                kv[key] = v
            elif key is not None:
                kv[key] = f"{kv[key]} {w}".strip()
            else:
                rest.append(w)
        return rest, {k: v for k, v in kv.items() if v != ""}

    @staticmethod
    def charts_file(options: str | None, owner: str = "this game") -> tuple[str | None, str | None]:
        """``charts=@path/to/file.toml`` in the options: the file's text (at most 64 KB, UTF-8),
        taken out of the options and passed on as the chart file. The options are read by the one
        reader (``engine.options.pairs``: a refusal names ``owner``, the ruleset)."""
        given = pairs(options, owner)
        if not given.get("charts", "").startswith("@"):
            return options, None
        path = Path(given.pop("charts")[1:]).expanduser()
        try:
            if path.stat().st_size > MAX_CHARTS_BYTES:
                raise ValueError(f"{path} is over {MAX_CHARTS_BYTES // 1024} KB")
            charts = charts_text(path.read_bytes())
        except OSError as e:
            raise ValueError(f"cannot read the chart file {path}: {e.strerror or e}") from None
        return (" ".join(f"{k}={v}" for k, v in given.items()) or None), charts

    async def run_command(self, line: str) -> Outcome | None:
        line = valid_text(line).strip()  # a lone surrogate (a C locale's undecodable byte): U+FFFD (issue 39)
        if not line:
            return None
        if line.startswith("as "):
            seat = line[3:].strip().lower()
            if seat not in self.users:
                out = Outcome.error(f"`{seat}` is not a seat here. Seats: {', '.join(self.rs.seats)}.")
            else:
                self.seat = seat
                self.say(f"(you are now {seat})")
                return Outcome()
            await self.show(out)
            return out
        if not line.startswith("/"):
            out = Outcome.error("Commands start with `/` (try `/help`), or `as <seat>`.")
            await self.show(out)
            return out
        head, _, tail = line[1:].partition(" ")
        svc = self.service
        try:
            words = shlex.split(tail)
        except ValueError:
            words = tail.split()
        rest, kv = self._kv(words)
        if head == "order":
            text = tail.strip().removeprefix("text:") if not kv.get("seat") else kv.get("text", "")
            out = await svc.orders.order(self.ctx(), text, kv.get("seat"))
        elif head == "whisper":
            out = await svc.orders.whisper(self.ctx(), kv.get("seat") or (rest[0] if rest else ""),
                                    kv.get("text") or " ".join(rest[1:]))
        elif head == "done":
            out = await svc.orders.done(self.ctx(), kv.get("seat") or (rest[0] if rest else None))
        elif head == "secret":
            out = await svc.views.secret(self.ctx())
        elif head == "odds":
            out = await svc.orders.odds(self.ctx(), kv.get("text") or tail.strip().removeprefix("text:"))
        elif head == "me":
            sub = rest[0] if rest else ""
            if sub == "quiet":
                out = await svc.clocks.set_quiet(self.ctx(), kv.get("from", ""), kv.get("to", ""), kv.get("tz", ""))
            elif sub == "away":
                out = await svc.clocks.set_away(self.ctx(), kv.get("until") or (rest[1] if len(rest) > 1 else ""))
            elif sub == "games":
                out = await svc.seats.my_games(self.ctx())
            elif sub == "record":
                out = await svc.results.record(self.ctx())
            elif sub == "autoplay":
                out = await svc.seats.autoplay(self.ctx(), rest[1] if len(rest) > 1 else kv.get("value", ""))
            elif sub == "digest":  # issue 41
                out = await svc.digest.set_digest(self.ctx(), kv.get("at") or (rest[1] if len(rest) > 1 else ""))
            else:
                out = Outcome.error("Unknown `/me` command: quiet from:<hh:mm> to:<hh:mm> tz:<zone>, away until:<date>, "
                                    "games, record, autoplay on|off, digest at:<hh:mm>|off.")
        elif head == "stats":  # issue 41: `/stats [ruleset:<name>] [player:<seat>]` (a seat's local player)
            who = kv.get("player")
            if who is not None and who not in self.users and who not in self.names:
                out = Outcome.error(f"`{who[:20]}` is not a player here: name a seat ({', '.join(self.rs.seats)}).")
            else:
                out = await svc.results.stats(self.ctx(), kv.get("ruleset") or (rest[0] if rest else None),
                                      None if who is None else self.users.get(who) or self.names.get(who),
                                      page=int(kv["page"]) - 1 if kv.get("page", "").isdigit() else 0)
        elif head == "ratings":  # issue 41
            out = await svc.results.ratings(self.ctx(), kv.get("ruleset") or (rest[0] if rest else None),
                                    page=int(kv["page"]) - 1 if kv.get("page", "").isdigit() else 0)
        elif head == "help":
            out = await svc.views.help(self.ctx(), kv.get("topic") or (rest[0] if rest else None))
        elif head == "rule":  # `/rule 16.71`, `/rule case:oil ruleset:gondor`
            out = await svc.views.rule(self.ctx(), kv.get("case") or " ".join(rest), kv.get("ruleset"))
        elif head == "roll":
            dice = kv.pop("dice", None)
            reason = kv.pop("reason", None)
            private = kv.pop("private", "false").lower() in ("true", "yes", "1")
            if dice is None:
                dice = " ".join(rest)
            out = await svc.orders.roll(self.ctx(), dice, reason, private)
        elif head == "game":
            sub = rest[0] if rest else ""
            args = rest[1:]
            if sub == "map":
                yes = ("true", "yes", "1")
                out = await svc.views.map(self.ctx(), kv.get("around"), kv.get("mine", "false").lower() in yes,
                                    kv.get("whole", "false").lower() in yes, kv.get("radius"))
            elif sub == "status":
                out = await svc.views.status(self.ctx())
            elif sub == "log":
                last = kv.get("last") or (args[0] if args else None)
                out = await svc.views.log(self.ctx(), int(last) if last and last.isdigit() else None)
            elif sub == "export":
                out = await svc.archive.export(self.ctx(), kv.get("format") or "json", kv.get("since"))
            elif sub == "end":
                out = await svc.lobby.end(self.ctx())
            elif sub == "undo":
                out = await svc.undo.undo(self.ctx())
            elif sub == "extend":
                out = await svc.clocks.extend(self.ctx(), kv.get("hours") or (args[0] if args else ""))
            elif sub == "pause":
                out = await svc.clocks.pause(self.ctx())
            elif sub == "resume":
                out = await svc.clocks.resume(self.ctx())
            elif sub == "replay":
                out = await svc.archive.replay(self.ctx(), kv.get("since") or (" ".join(args) or None))
            elif sub == "new":
                try:
                    options, charts = self.charts_file(kv.get("options"), kv.get("ruleset") or (args[0] if args else ""))
                except ValueError as e:
                    out = Outcome.error(f"Bad options: {e}")
                else:
                    out = await svc.lobby.new_game(self.ctx(), kv.get("ruleset") or (args[0] if args else ""), options,
                                             charts=charts, template=kv.get("template"))
            elif sub == "join":
                out = await svc.lobby.join(self.ctx(), kv.get("seat") or (args[0] if args else ""))
            elif sub == "leave":
                out = await svc.lobby.leave(self.ctx())
            elif sub == "start":
                out = await svc.lobby.start(self.ctx())
            elif sub == "sub":
                out = await self.substitute(kv.get("seat") or (args[0] if args else ""),
                                            kv.get("user") or (args[1] if len(args) > 1 else ""))
            elif sub == "takeover":
                out = await self.take_over(kv.get("seat") or (args[0] if args else ""),
                                           kv.get("user") or (args[1] if len(args) > 1 else ""))
            elif sub == "open":
                out = await svc.seats.open_games(self.ctx())
            elif sub == "rematch":  # issue 41: `/game rematch [swap:true]`; `confirm` / `decline` are its buttons
                out = await self.rematch(args[0].lower() if args else "", kv.get("swap", "false"))
            elif sub == "checkin":  # the Check in button (issue 28)
                row = await svc.store.live_game(CHANNEL)
                out = (await svc.lobby.checkin(self.ctx(), row.id) if row is not None
                       else Outcome.error("There is no game here to check in to."))
            else:
                out = Outcome.error("Unknown `/game` command: new, join, leave, start, checkin, status, map, log, "
                                    "export, end, undo, extend, pause, resume, replay, sub, takeover, open, rematch.")
        elif head == "template":  # issue 41: this server's saved set-ups
            sub = rest[0] if rest else ""
            if sub == "save":
                out = await svc.templates.template_save(self.ctx(), kv.get("name", ""), kv.get("ruleset", ""),
                                                       kv.get("options"))
            elif sub == "list":
                page = kv.get("page") or (rest[1] if len(rest) > 1 else None)
                out = await svc.templates.template_list(self.ctx(), page)
            elif sub == "delete":
                out = await svc.templates.template_delete(self.ctx(), kv.get("name") or " ".join(rest[1:]))
            else:
                out = Outcome.error("Unknown `/template` command: save name:<name> ruleset:<game> [options:<...>], "
                                    "list [page:<n>], delete name:<name>.")
        else:
            out = Outcome.error(f"Unknown command `/{head[:20]}`. Try `/help`.")
        await self.show(out)
        await self.tick()  # the console's clock: what is due now runs (an autopilot's play, a passed deadline)
        return out

    async def substitute(self, seat: str, who: str) -> Outcome:
        """``/game sub seat:<seat> user:<name>``: a new local player (or the one of that name) takes
        over the seat; ``as <seat>`` then speaks for the new holder."""
        who = who.strip().lstrip("@").lower()
        if not who:
            return Outcome.error("Usage: `/game sub seat:<seat> user:<name>` (the new player).")
        uid = self.names.get(who) or self.users.get(who)
        if uid is None:
            uid = max([*self.users.values(), *self.names.values()]) + 1
            self.names[who] = uid
        out = await self.service.lobby.sub(self.ctx(), seat, uid)
        if out.ok:
            seat = seat.strip().lower()
            self.users[seat] = uid
            self.seat_of_user[uid] = seat
        return out

    async def take_over(self, seat: str, who: str) -> Outcome:
        """``/game takeover seat:<seat> [user:<name>]``: the current speaker, or a new local player of that
        name, takes over a seat on autopilot (issue 28); ``as <seat>`` then speaks for the new holder."""
        who = who.strip().lstrip("@").lower()
        uid = None
        if who:
            uid = self.names.get(who) or self.users.get(who)
            if uid is None:
                uid = max([*self.users.values(), *self.names.values()]) + 1
                self.names[who] = uid
        ctx = self.ctx()
        if uid is not None:
            ctx = dataclasses.replace(ctx, user_id=uid, is_moderator=False, user_name=who)
        out = await self.service.seats.takeover(ctx, seat)
        row = await self.service.store.live_game(CHANNEL)
        if out.ok and row is not None and (await self.service.store.seats(row.id)).get(seat.strip().lower()) == ctx.user_id:
            seat = seat.strip().lower()
            self.users[seat] = ctx.user_id
            self.seat_of_user[ctx.user_id] = seat
        return out

    async def rematch(self, word: str, swap: str) -> Outcome:
        """``/game rematch [swap:true]`` proposes a rematch of the game that ended here; ``/game rematch confirm``
        and ``/game rematch decline`` are its buttons, pressed by the current seat's player (issue 41). Once it
        begins, each seat speaks for its new holder (``as <seat>``: sides swapped, the players follow)."""
        svc = self.service
        if word in ("", "swap"):
            return await svc.rematch.rematch(self.ctx(),
                                             swap.strip().lower() in ("true", "yes", "1", "on") or word == "swap")
        if word not in ("confirm", "decline"):
            return Outcome.error("`/game rematch [swap:true]`, then `/game rematch confirm` or `decline` (its buttons).")
        row = await svc.store.finished_game(CHANNEL)
        rm = await svc.store.rematch(row.id) if row is not None else None
        if rm is None:
            return Outcome.error("No rematch is proposed here: `/game rematch [swap:true]` proposes one.")
        out = await svc.rematch.rematch_vote(self.ctx(), row.id, rm["round"], word == "confirm")
        new = await svc.store.live_game(CHANNEL)
        if out.ok and new is not None and (rm := await svc.store.rematch(row.id))["new_game_id"] == new.id:
            self.users = {s: u for s, u in rm["seats"].items()}
            self.seat_of_user = {u: s for s, u in sorted(rm["seats"].items(), reverse=True)}
        return out

    async def run_script(self, path: str) -> int:
        failures = 0
        for n, raw in enumerate(Path(path).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
            if not line:
                continue
            expect = line.startswith("!expect-error ")
            if expect:
                line = line[len("!expect-error "):].strip()
            self.say(f"> {line}")
            out = await self.run_command(line)
            refused = out is not None and not out.ok
            if refused and not expect:
                self.say(f"!! line {n}: refused")
                failures += 1
            elif expect and not refused:
                self.say(f"!! line {n}: expected an error, but it was accepted")
                failures += 1
        if failures:
            self.say(f"{failures} line(s) of {path} did not go as written.")
        return 1 if failures else 0

    async def interactive(self) -> int:
        self.say("Type slash commands (`/order ...`, `/done`, `/game map`, `/help`), `as <seat>`, or `quit`.")
        if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
            sys.stdin.reconfigure(errors="replace")  # a byte that is not UTF-8 reads as U+FFFD, not an exit (issue 39)
        while True:
            try:
                line = await read_line(f"[{self.seat}]> ")
            except EOFError:
                return 0
            if line.strip() in ("quit", "exit"):
                return 0
            await self.run_command(line)


def read_line(prompt: str) -> asyncio.Future:
    """The next line typed (``input``, with its prompt and line editing), read in a daemon thread: a game
    stopped while it waits (SIGTERM, issue 39) exits at once, where a worker of asyncio's own pool would be
    joined at the loop's end, holding the process until a line came."""
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def settle(value=None, exc: BaseException | None = None) -> None:
        if not fut.done():
            fut.set_exception(exc) if exc is not None else fut.set_result(value)

    def read() -> None:
        try:
            line = input(prompt)
        except BaseException as e:  # EOFError (the end of input), KeyboardInterrupt
            loop.call_soon_threadsafe(settle, None, e)
        else:
            loop.call_soon_threadsafe(settle, line)

    global _reader
    _reader = threading.Thread(target=read, name="palantir-input", daemon=True)
    _reader.start()
    return fut


_reader: threading.Thread | None = None


def still_reading() -> bool:
    """A line is still being waited for (the game was stopped at its prompt): the process must end with
    ``os._exit``, since Python's own end would wait for the reading thread's hold on stdin and abort."""
    return _reader is not None and _reader.is_alive()


def local_ruleset(name: str, mode: str | None, options: str | None) -> str:
    """The game `palantir local` plays: ``--mode X`` is ``--options mode=X`` (given both, they must agree:
    `/game new` refuses them otherwise, in its one line); neither: the game's default level of play."""
    if mode is None:
        try:
            mode = mode_of(pairs(options, name), name)
        except ValueError:
            mode = None  # (a bad option: `/game new` refuses it, in its one line)
    mode = mode or get_ruleset(name).default_mode
    return moded_name(name, mode) if mode else name


async def run_local(ruleset: str, seed: str | None, script: str | None, out_dir: str | None,
                    db_path: str | None = None, stream: TextIO = sys.stdout, images: bool = True,
                    options: str | None = None) -> int:
    tmp = None
    if db_path is None:
        tmp = tempfile.TemporaryDirectory(prefix="palantir-")
        db_path = str(Path(tmp.name) / "local.db")
    store = await open_store(db_path)
    try:
        kw: dict = {"seed_source": (lambda: f"local-{seed}")} if seed is not None else {}
        if not images:
            kw["renderer"] = None
        service = GameService(store, **kw)
        console = Console(service, ruleset, out_dir, stream, options=options)
        if (refused := await console.setup()) is not None:
            # a usage error (an unknown or unsupported option): one line and status 2, like argparse's own
            print(f"palantir local: {refused}", file=sys.stderr, flush=True)
            return 2
        if script:
            return await console.run_script(script)
        return await console.interactive()
    finally:
        await store.close()
        if tmp:
            tmp.cleanup()
