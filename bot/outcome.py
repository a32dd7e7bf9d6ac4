"""What the service answers and how it reads a command: ``Ctx`` (who, where, which
interaction), ``Outcome`` and ``Post`` (what to send, where, to whom), the limits of a
message, and the text helpers every part of the service uses. Nothing here imports discord."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.spi.chartguard import MAX_BYTES, decode_chart
from engine.options import pairs


MAX_TEXT = 2000
MAX_ORDER_TEXT = 200
RECOVER_HOURS = 1.0  # an answer lost in a crash is announced at the next start if it is this recent
NEW_GAME_SECONDS = 10.0  # a new game's options and chart file are checked within this
AUTOCOMPLETE_SECONDS = 0.8  # an autocomplete answers with what its worker found in this time
REPEAT_MINUTES = 15.0  # and the same order from the same player is questioned once for this long


# --------------------------------------------------------------------------
# What a command produces
# --------------------------------------------------------------------------
@dataclass
class Post:
    text: str = ""
    image: bytes | None = None
    filename: str = "map.png"
    attachment: bytes | None = None  # any other file (e.g. the export)
    attachment_name: str = "file.bin"
    mentions: list[int] = field(default_factory=list)  # users this post may ping
    alt: str = ""  # the image's description (alt text: screen readers, previews), at most 1,024 characters
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (custom_id, label)
    # a DM whose very sending could tell something (hidden information that changed
    # mid-game): if it cannot be delivered, say so only to its own reader, never in public
    quiet: bool = False
    # a DM that the command's caller must hear of, privately, if it cannot be delivered (a whisper's)
    undelivered: str = ""
    # a private message's game and seat: where it goes when Discord refuses the DM (the seat's private
    # thread in the game's channel, bot/delivery.py)
    game_id: int | None = None
    seat: str | None = None
    # a copy of what the answer itself shows privately (``/secret``): if no private way takes it, it
    # is not held for later, and the transport says where the copy went
    copy: bool = False


@dataclass
class Outcome:
    reply: Post | None = None  # the answer to the caller
    ephemeral: bool = True  # whether that answer is private
    public: list[Post] = field(default_factory=list)  # further posts in the channel
    dms: dict[int, list[Post]] = field(default_factory=dict)  # user id -> private messages
    ok: bool = True
    replayed: bool = False  # answered from a redelivered interaction
    map_after: tuple[int, str | None] | None = None  # (game id, seat or None): post this map next
    # a phase's notice (what begins, who must act, the deadline): posted once, with map_after's image
    notice: Post | None = None
    elsewhere: dict[int, list[Post]] = field(default_factory=dict)  # channel (e.g. a new thread) -> posts
    board: int | None = None  # this public reply is that game's status board: remember its message
    # (text, ephemeral) of the answer already stored with the order's own log row (one transaction):
    # the commit path then does not write it a second time
    stored: tuple[str, bool] | None = None
    # issue 39: the log position the order was written at (``Table.commit``): what follows the commit reads it
    # here, never from the loaded games (a bounded cache another game's load may have pushed this one out of)
    seq: int | None = None
    board_edit: tuple[int, int, str] | None = None  # (channel, message, text): edit the board in place
    # (user, game, seat): check that the user can be reached privately (a seat taken in a game with
    # hidden information); the transport tries a short DM and tells the caller the fallback in use
    probe: tuple[int, int, str] | None = None
    # the game's private threads to archive (a game that ended)
    archive_rooms: list[int] = field(default_factory=list)
    # issue 28: (game, seat, user): a holder who left a running game, to take out of the seat's private thread
    leave_rooms: list[tuple[int, str, int]] = field(default_factory=list)
    # issue 28: (thread, user, True to add / False to take out): the players' private rooms (`/game table`)
    # of a seat that changed hands follow it
    room_moves: list[tuple[int, int, bool]] = field(default_factory=list)
    # issue 28: the server whose open-seat board this outcome's post in ``elsewhere`` is (`/game board`):
    # the transport hands where the message went to ``Seats.board_placed``
    seat_board: int | None = None
    # issue 39: the reply says that the posts in ``elsewhere`` were made (`/game board`: "the board is in #x"):
    # the transport makes them first and, if one cannot be made, answers this instead, privately, its "{why}"
    # the reason (the missing permission, a channel it cannot find). Nothing is claimed before it is done
    if_unposted: str | None = None

    @classmethod
    def error(cls, text: str, limit: int = 400) -> "Outcome":
        return cls(reply=Post(text=clip(text, limit)), ephemeral=True, ok=False)

    @classmethod
    def private(cls, text: str, **kw) -> "Outcome":
        return cls(reply=Post(text=text, **kw), ephemeral=True)

    @classmethod
    def public_reply(cls, text: str, **kw) -> "Outcome":
        return cls(reply=Post(text=text, **kw), ephemeral=False)


@dataclass
class Ctx:
    """Who is asking, where."""

    channel_id: int
    user_id: int
    guild_id: int | None = None
    interaction_id: str | None = None
    is_moderator: bool = False  # Manage Server in this guild
    user_name: str | None = None
    # Discord's clock (issue 25): when the interaction stops taking its first answer (its creation
    # plus 3 s, seconds since the epoch; None: no such limit, the console), and whether the transport
    # has acknowledged it (then the answer has 15 minutes). An order that commits while its
    # interaction is unacknowledged may reach its player late: a repeat of it is asked about
    expires_at: float | None = None
    acked: bool = False
    # (issue 39) an acknowledgement sent before ``expires_at``, Discord's reply not yet read: its player likely
    # waits, so its turn does not drop it as one nobody waits for (bot/table.py: STALE_SECONDS)
    ack_sent: bool = False


class PlaceError(Exception):
    """The transport could not open the place (a thread) a new game was to live in; the
    message is shown to the caller privately."""


MAX_CHARTS_BYTES = MAX_BYTES  # a chart file (attachment or console file) at most


def charts_text(data: bytes) -> str:
    """A chart file's bytes as text: at most 64 KB, UTF-8; ValueError (for the caller) otherwise."""
    try:
        text = decode_chart(data)
    except ValueError as e:
        raise ValueError(f"the chart file {e}") from None
    if not text.strip():
        raise ValueError("the chart file is empty")
    return text


def fit_lines(lines: list[tuple[str, str]], limit: int = MAX_TEXT) -> str:
    """Join ``(kind, line)`` pairs into one message within ``limit`` characters, in order:
    ``keep`` lines (who must act and their pings, the deadline) always stay whole; ``trim``
    lines (the report) are cut from the end as needed; ``opt`` lines (a hint) go first."""
    lines = [(k, t) for k, t in lines if t]
    size = sum(len(t) + 1 for _, t in lines) - 1
    if size > limit:
        lines = [(k, t) for k, t in lines if k != "opt"]
    room = limit + 1 - sum(len(t) + 1 for k, t in lines if k == "keep")  # n lines, n - 1 line breaks
    out = []
    for k, t in lines:
        if k in ("keep", "opt"):
            out.append(t)
            continue
        if room <= 1:
            continue
        if len(t) + 1 <= room:
            out.append(t)
            room -= len(t) + 1
        else:
            out.append(clip(t, room - 1))
            room = 0
    return "\n".join(out)[:limit]


def public_text(rs, text: str) -> str:
    """An order as the public may read it (a ruleset may mask secret orders; ``rs`` None: a
    finished game, nothing is secret any more)."""
    return text if rs is None else rs.public_order_text(text)


def seat_title(seat: str) -> str:
    """A seat as players read it: ``dark-power`` is "Dark Power", ``gm`` the "Moderator"."""
    return "Moderator" if seat == "gm" else seat.replace("-", " ").title()


def rematch_buttons(game_id: int) -> list[tuple[str, str]]:
    """Issue 41: the buttons under a game's end-of-game post (bot/rematch.py answers them)."""
    return [(f"rematch:{game_id}", "Rematch"), (f"rematch:{game_id}:swap", "Rematch, sides swapped")]


def clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split on line breaks into chunks within Discord's message limit."""
    out, cur = [], ""
    for line in text.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if len(cur) + len(line) + (1 if cur else 0) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur or not out:
        out.append(cur)
    return out


def parse_options(text: str | None, owner: str = "this game") -> dict[str, str]:
    """``key=value`` pairs separated by spaces (``engine.options.pairs``: a key twice, or a comma inside
    a value, is refused naming ``owner``, the ruleset)."""
    return pairs(text, owner)


# renderer(view, board, around, *, whole=False, radius=None) -> PNG bytes (bot.table.default_renderer)
Renderer = Callable[..., bytes]
