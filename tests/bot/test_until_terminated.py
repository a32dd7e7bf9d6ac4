"""Issue 39: SIGTERM (a service manager's stop) and Ctrl-C end `palantir run` and `palantir local` as a normal
stop, status 0, every time. A bot sent SIGTERM just as it connected ran on for good in about one full
suite run of three: the one cancel it was sent was lost in Python 3.11's ``asyncio.wait_for`` (which returns
its inner result when a cancel arrives with it; discord.py's gateway handshake runs in one). The stop is now
asked of the bot (it closes itself), and a cancel is repeated while a coroutine runs on."""
import asyncio
import os
import signal

from bot.cli import _until_terminated


async def _signal_soon(sig=signal.SIGTERM):
    await asyncio.sleep(0.05)
    os.kill(os.getpid(), sig)


async def test_a_lost_cancel_is_sent_again():
    """A coroutine that drops the first cancel (as 3.11's wait_for may) is cancelled again: it ends, status 0
    (it ran on for good, with a single cancel)."""
    cancels = []

    async def swallows_the_first_cancel():
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                cancels.append(1)
                if len(cancels) > 1:
                    raise

    asyncio.get_running_loop().call_soon(asyncio.ensure_future, _signal_soon())
    code = await asyncio.wait_for(_until_terminated(swallows_the_first_cancel(), grace=0.1), 60)
    assert code == 0 and len(cancels) == 2, cancels


async def test_a_stop_event_is_asked_first_and_nothing_is_cancelled():
    """With ``stop``, the signal sets it and the coroutine ends by itself (the bot closes itself: no cancel in
    flight to lose); its own status is returned. Ctrl-C (SIGINT) is the same stop."""
    stop = asyncio.Event()
    cancelled = []

    async def watches_stop():
        try:
            await stop.wait()
        except asyncio.CancelledError:
            cancelled.append(1)
            raise
        return 0

    for sig in (signal.SIGTERM, signal.SIGINT):
        stop.clear()
        asyncio.get_running_loop().call_soon(asyncio.ensure_future, _signal_soon(sig))
        code = await asyncio.wait_for(_until_terminated(watches_stop(), stop, grace=30), 60)
        assert code == 0 and not cancelled


async def test_a_coroutine_that_ends_by_itself_keeps_its_status_and_the_handlers_go():
    async def done():
        return 7

    assert await _until_terminated(done()) == 7
    loop = asyncio.get_running_loop()
    assert not loop.remove_signal_handler(signal.SIGTERM)  # (False: none left installed)
