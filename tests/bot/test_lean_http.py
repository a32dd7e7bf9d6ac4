"""bot/transports/lean_http.py and its use by bot/transports/callback.py (issue 25): an interaction's callback
by a lean HTTP/1.1 client over kept-alive connections. It must read every way a server may frame an answer,
notice a kept connection the server closed, and leave anything but a plain 2xx or 404 to discord.py's way,
saying whether its own request may have been taken (UNSURE) so that only then a refusal as "already
acknowledged" counts as done."""
from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import discord
import pytest

from bot.transports import callback
from bot.transports.lean_http import SPARE, UNSURE, LeanPoster, not_found
from tests.e2e.test_e2e_discord import World


class Server:
    """A bare HTTP server on loopback that answers each request with the next scripted reply: bytes to write,
    or "close" (read the request, answer nothing, close), or "close-after" (answer, then close)."""

    def __init__(self, replies: list):
        self.replies = list(replies)
        self.requests: list[bytes] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc):
        for w in self.writers:
            w.close()
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                n = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                             if line.lower().startswith(b"content-length:")))
                self.requests.append(head + await reader.readexactly(n))
                reply = self.replies.pop(0)
                if reply == "close":
                    writer.close()
                    return
                close_after = isinstance(reply, tuple)
                writer.write(reply[0] if close_after else reply)
                await writer.drain()
                if close_after:
                    writer.close()
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


NO_CONTENT = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"


def poster(port: int) -> LeanPoster:
    return LeanPoster(f"http://127.0.0.1:{port}/api/v10", "DiscordBot (test, 1)")


async def test_a_204_is_done_and_the_connection_is_kept_for_the_next_request():
    async with Server([NO_CONTENT, NO_CONTENT]) as s:
        p = poster(s.port)
        assert await p.post("/interactions/1/a/callback", b'{"type":4}') == (204, b"")
        assert await p.post("/interactions/2/b/callback", b'{"type":5}') == (204, b"")
        assert s.connections == 1 and p.sent == 2
        first = s.requests[0]
        assert first.startswith(b"POST /api/v10/interactions/1/a/callback HTTP/1.1\r\n")
        assert b"\r\nContent-Type: application/json\r\n" in first and b"\r\nContent-Length: 10\r\n" in first
        assert b"\r\nUser-Agent: DiscordBot (test, 1)\r\n" in first and first.endswith(b'\r\n\r\n{"type":4}')
        p.close()


async def test_a_404_body_by_length_and_a_chunked_body_are_read_whole():
    err = json.dumps({"message": "Unknown interaction", "code": 10062}).encode()
    chunked = (b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5\r\n{\"mes\r\n" + f"{len(err) - 5:x}".encode() + b"\r\n" + err[5:] + b"\r\n0\r\n\r\n")
    async with Server([b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n%s" % (len(err), err), chunked,
                       NO_CONTENT]) as s:
        p = poster(s.port)
        status, body = await p.post("/interactions/1/a/callback", b"{}")
        assert status == 404 and json.loads(body)["code"] == 10062
        e = not_found(body)
        assert isinstance(e, discord.NotFound) and e.code == 10062 and e.status == 404
        status, body = await p.post("/interactions/2/b/callback", b"{}")
        assert (status, body) == (400, b'{"mes' + err[5:])
        assert await p.post("/interactions/3/c/callback", b"{}") == (204, b"")
        assert s.connections == 1  # every answer was framed right: the connection stayed in step
        p.close()


async def test_a_kept_connection_the_server_closed_is_replaced_before_anything_is_written_on_it():
    async with Server([(NO_CONTENT,), NO_CONTENT]) as s:  # answers, then closes (an idle timeout, say)
        p = poster(s.port)
        assert await p.post("/interactions/1/a/callback", b"{}") == (204, b"")
        for _ in range(50):  # the close reaches the client
            await asyncio.sleep(0.01)
            if not p.idle or p.idle[0].closed:
                break
        assert await p.post("/interactions/2/b/callback", b"{}") == (204, b"")
        assert s.connections == 2 and len(s.requests) == 2
        p.close()


async def test_connection_close_is_honoured():
    async with Server([b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", NO_CONTENT]) as s:
        p = poster(s.port)
        assert await p.post("/x", b"{}") == (204, b"")
        assert p.idle == [] and p.open == 0
        assert await p.post("/y", b"{}") == (204, b"")
        assert s.connections == 2
        p.close()


async def test_a_request_written_and_never_answered_is_unsure():
    async with Server(["close"]) as s:
        p = poster(s.port)
        assert await p.post("/x", b"{}") is UNSURE
        assert p.open == 0 and p.idle == []


async def test_a_malformed_answer_is_unsure_and_its_connection_dropped():
    async with Server([b"SPDY/3 whatever\r\n\r\n", NO_CONTENT]) as s:
        p = poster(s.port)
        assert await p.post("/x", b"{}") is UNSURE
        assert p.open == 0
        assert await p.post("/y", b"{}") == (204, b"")  # a new connection
        p.close()


async def test_no_server_means_nothing_was_sent():
    async with Server([]) as s:
        port = s.port
    p = poster(port)  # the server is gone: the connection is refused
    assert await p.post("/x", b"{}") is None and p.open == 0


# ---------------------------------------------------------------- callback.py's use of it
class _Interaction:
    def __init__(self, lean):
        self.id, self.token, self._session = 77, "tok", None
        self.response = SimpleNamespace(is_done=lambda: False, _response_type=None)
        self.client = SimpleNamespace(_lean_poster=lean, http=SimpleNamespace(proxy=None, proxy_auth=None))


class _Lean:
    def __init__(self, got):
        self.got, self.calls = got, 0

    async def post(self, path, body):
        self.calls += 1
        return self.got


class _Adapter:
    def __init__(self, error: discord.HTTPException | None):
        self.error, self.calls = error, 0

    def get(self):
        return self

    async def request(self, route, session, **kw):
        self.calls += 1
        if self.error is not None:
            raise self.error


def _refusal(code: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"), {"code": code, "message": "no"})


@pytest.mark.parametrize("lean_got, adapter_error, outcome", [
    ((204, b""), None, "done, lean"),
    ((404, b'{"code": 10062, "message": "Unknown interaction"}'), None, discord.NotFound),
    ((429, b'{"retry_after": 0.1}'), None, "done, adapter"),  # a rate limit: discord.py's way retries
    (UNSURE, _refusal(callback.ALREADY_ACKNOWLEDGED), "done, adapter"),  # the lean request was taken
    ((400, b'{"code": 40060}'), _refusal(callback.ALREADY_ACKNOWLEDGED), discord.HTTPException),  # a real second answer
    (None, _refusal(callback.ALREADY_ACKNOWLEDGED), discord.HTTPException),  # nothing sent: someone else answered
    (UNSURE, _refusal(50035), discord.HTTPException),  # any other refusal stands
])
async def test_callback_leaves_all_but_2xx_and_404_to_discord_py_and_counts_a_lost_answer_as_taken(
        monkeypatch, lean_got, adapter_error, outcome):
    lean, adapter = _Lean(lean_got), _Adapter(adapter_error)
    monkeypatch.setattr(callback, "async_context", adapter)
    i = _Interaction(lean)
    if isinstance(outcome, type):
        with pytest.raises(outcome):
            await callback.send(i, ephemeral=False, content="hi")
        assert i.response._response_type is None
    else:
        await callback.send(i, ephemeral=False, content="hi")
        assert i.response._response_type == discord.InteractionResponseType.channel_message
        assert (lean.calls, adapter.calls) == ((1, 0) if outcome == "done, lean" else (1, 1))


async def test_a_bot_answers_through_the_lean_way_over_the_fake_discord(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "lean.db")
        r = await w.cmd(w.alice, "roll", dice="2d6")
        assert "2d6" in r.content
        r = await w.cmd(w.bob, "roll", dice="1d20")
        assert "1d20" in r.content
        lean = w.bot._lean_poster  # (it counts an answer once the fake's 204 is read: after the fake shows it)
        await w.server.wait_for(lambda: lean.sent == 2, timeout=10)
        assert lean.open == 1 + SPARE  # both answers on one connection, and the spares kept ready (issue 39)
        w.server.assert_clean()
