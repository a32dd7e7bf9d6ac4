"""A lean HTTP/1.1 client for one request: an interaction's callback, a POST of a small JSON body that Discord
answers ``204 No Content`` (issue 25).

Every order's answer is one such POST. Through discord.py's webhook adapter and aiohttp it cost about 145 µs
of the bot's CPU (a lock, a ``ClientRequest`` and a ``ClientResponse``, URL building, header objects, the
rate-limit headers read), written here it costs about 16 µs (measured against a bare server on loopback,
uvloop; asyncio's loop: 223 -> 45 µs): a tenth of what a whole order costs the bot. It keeps a few
connections to the API's host alive and writes the request's bytes itself.

``LeanPoster.post`` gives the status and body it read, ``None`` when it sent nothing (no connection to be had),
or ``UNSURE`` when the request was written but its answer never came whole. The caller
(``bot/transports/callback.py``) takes a ``2xx`` as done and a ``404`` as ``discord.NotFound`` (the interaction's
3 s ran out: Discord's "Unknown interaction"), and sends anything else (a rate limit, a server error, another
refusal, a cut connection; and everything when a proxy is configured) the usual way, through discord.py, whose
retries and errors it keeps. After ``UNSURE`` the request may have been taken: Discord then refuses the second
one with ``40060`` ("already acknowledged"), which the caller counts as done.
"""
from __future__ import annotations

import asyncio
import ssl
from types import SimpleNamespace
from urllib.parse import urlsplit

import discord

MAX_IDLE = 16  # connections kept open between requests
MAX_OPEN = 64  # connections at once; past it, a request goes the usual way
# connections the bot's poster keeps connected ahead of need (issue 39): a request that finds one writes in its
# caller's step, with no connect to wait for (callback.py: an acknowledgement then leaves before the work after it)
SPARE = 2
TIMEOUT = 10.0  # seconds for a whole request: past it, the usual way (which the caller bounds itself)
MAX_HEAD = 64 * 1024  # a response's status line and headers, at most
MAX_BODY = 1024 * 1024
UNSURE = (0, b"")  # ``post``: the request was written, its answer never came whole


class _Failed(Exception):
    """This connection cannot give an answer (closed, cut, malformed): the request goes the usual way."""


class _Connection(asyncio.Protocol):
    """One keep-alive connection, one request at a time: ``exchange`` writes it, its future is the response."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiter: asyncio.Future | None = None
        self.closed = False
        self.head: tuple[int, dict[str, str]] | None = None

    # -- asyncio.Protocol
    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self.waiter is None or self.waiter.done():  # bytes nobody asked for: this connection is not to be trusted
            self._close()
            return
        self.buf += data
        try:
            got = self._parse()
        except _Failed as e:
            self._close()
            self.waiter.set_exception(e)
            return
        if got is not None:
            self.waiter.set_result(got)

    def connection_lost(self, exc) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(_Failed(f"connection lost: {exc!r}"))

    # -- the response
    def _parse(self) -> tuple[int, bytes, bool] | None:
        """(status, body, keep-alive) once the whole response is in ``buf``, else None."""
        if self.head is None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > MAX_HEAD:
                    raise _Failed("response head too long")
                return None
            lines = bytes(self.buf[:end]).decode("latin-1").split("\r\n")
            del self.buf[:end + 4]
            parts = lines[0].split(" ", 2)
            if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
                raise _Failed(f"not an HTTP/1.x status line: {lines[0][:60]!r}")
            headers: dict[str, str] = {}
            for line in lines[1:]:
                name, sep, value = line.partition(":")
                if not sep:
                    raise _Failed("malformed header")
                headers[name.strip().lower()] = value.strip()
            status = int(parts[1])
            if 100 <= status < 200:  # an interim answer (none is asked for): the real one follows
                return self._parse()
            self.head = (status, headers)
        status, headers = self.head
        keep = headers.get("connection", "").lower() != "close"
        if status in (204, 304):
            body: bytes | None = b""
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = self._chunked()
        elif "content-length" in headers:
            try:
                n = int(headers["content-length"])
            except ValueError:
                raise _Failed("bad content-length") from None
            if n > MAX_BODY:
                raise _Failed("response body too long")
            if len(self.buf) < n:
                return None
            body = bytes(self.buf[:n])
            del self.buf[:n]
        else:  # a body that ends when the server closes: not worth waiting for, nor keeping the connection
            raise _Failed("response without a length")
        if body is None:
            return None
        self.head = None
        return status, body, keep and not self.buf

    def _chunked(self) -> bytes | None:
        out, i = bytearray(), 0
        buf = self.buf
        while True:
            eol = buf.find(b"\r\n", i)
            if eol < 0:
                return None
            try:
                size = int(bytes(buf[i:eol]).split(b";")[0], 16)
            except ValueError:
                raise _Failed("bad chunk size") from None
            if size > MAX_BODY or len(out) + size > MAX_BODY:
                raise _Failed("response body too long")
            start = eol + 2
            if size == 0:  # the last chunk, then trailers (none expected) up to an empty line
                end = buf.find(b"\r\n\r\n", eol)
                if end < 0:
                    return None
                del buf[:end + 4]
                return bytes(out)
            if len(buf) < start + size + 2:
                return None
            out += buf[start:start + size]
            i = start + size + 2

    # -- use
    def exchange(self, request: bytes) -> asyncio.Future:
        """Write ``request`` now, in the caller's own step, and return the future of its response (status, body,
        keep). Not a coroutine (issue 39): ``asyncio.wait_for`` runs a coroutine as a task of its own, a turn of
        the loop later, so an acknowledgement waited behind the first step of the work started before it (one
        that blocked the loop held it past Discord's 3 s); and that task was a cost of every POST."""
        if self.closed or self.transport is None or self.transport.is_closing():
            raise _Failed("connection closed")
        self.buf.clear()
        self.head = None
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return self.waiter

    def _close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class LeanPoster:
    """POSTs to one HTTP(S) origin over kept-alive connections; see the module's docstring."""

    def __init__(self, base_url: str, user_agent: str, spare: int = 0) -> None:
        """``spare``: idle connections kept ready (``SPARE``), each request topping them up in the background."""
        u = urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.host = u.hostname
        self.port = u.port or (443 if u.scheme == "https" else 80)
        self.prefix = u.path.rstrip("/")
        self.ssl = ssl.create_default_context() if u.scheme == "https" else None
        host_header = self.host if u.port is None else f"{self.host}:{u.port}"
        self._head = (f"Host: {host_header}\r\nUser-Agent: {user_agent}\r\nContent-Type: application/json\r\n"
                      "Accept: */*\r\n").encode("latin-1")
        self.idle: list[_Connection] = []
        self.open = 0
        self.sent = 0  # requests answered this way (tests, and to see it is used)
        self.spare = spare
        self._warming: set[asyncio.Task] = set()

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        _, conn = await loop.create_connection(_Connection, self.host, self.port, ssl=self.ssl,
                                               server_hostname=self.host if self.ssl else None)
        return conn

    def _top_up(self) -> None:
        while len(self.idle) + len(self._warming) < self.spare and self.open < MAX_OPEN:
            self.open += 1
            task = asyncio.ensure_future(self._warm())
            self._warming.add(task)
            task.add_done_callback(self._warming.discard)

    async def _warm(self) -> None:
        try:
            conn = await asyncio.wait_for(self._connect(), TIMEOUT)
        except (OSError, asyncio.TimeoutError, ssl.SSLError):
            self.open -= 1
            return
        except BaseException:  # (cancelled: closing)
            self.open -= 1
            raise
        if len(self.idle) < MAX_IDLE:
            self.idle.append(conn)
        else:
            conn._close()
            self.open -= 1

    async def post(self, path: str, body: bytes) -> tuple[int, bytes] | None:
        """(status, body) of ``POST <prefix><path>``; None if nothing was sent (no connection to be had); or
        ``UNSURE`` (status 0) if the request was written but no whole answer came back: the server may have
        taken it. Either way the caller sends it the usual way. A kept connection the server has closed
        meanwhile is found closed and replaced before anything is written on it; once the request is
        written, a failure is not retried here."""
        while self.idle:
            conn = self.idle.pop()
            if not conn.closed and conn.transport is not None and not conn.transport.is_closing():
                break
            self.open -= 1
        else:
            if self.open >= MAX_OPEN:
                return None
            self.open += 1
            try:
                conn = await asyncio.wait_for(self._connect(), TIMEOUT)
            except (OSError, asyncio.TimeoutError, ssl.SSLError):
                self.open -= 1
                return None
            except BaseException:  # (cancelled)
                self.open -= 1
                raise
        self._top_up()
        request = b"POST %s HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s" % (
            (self.prefix + path).encode("latin-1"), self._head, len(body), body)
        keep = False
        try:
            status, data, keep = await asyncio.wait_for(conn.exchange(request), TIMEOUT)
        except (_Failed, OSError, asyncio.TimeoutError, ssl.SSLError):
            return UNSURE
        finally:
            if keep and not conn.closed and len(self.idle) < MAX_IDLE:
                self.idle.append(conn)
            else:
                conn._close()
                self.open -= 1
        self.sent += 1
        return status, data

    def close(self) -> None:
        for task in self._warming:
            task.cancel()
        for conn in self.idle:
            conn._close()
        self.open -= len(self.idle)
        self.idle.clear()


def not_found(body: bytes) -> discord.NotFound:
    """The ``discord.NotFound`` discord.py raises for a 404, from its body (Discord's JSON error)."""
    try:
        message = discord.utils._from_json(body.decode("utf-8")) if body else ""
    except ValueError:
        message = body.decode("utf-8", "replace")
    return discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), message)
