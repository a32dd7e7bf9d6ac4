"""bot/transports/callback.py (issue 25): each interaction's callback is a lock of its own in discord.py's
webhook adapter, which serialises requests per (webhook_id, webhook_token). One shared bucket made
discord.py send every callback one at a time: under a burst they queued past Discord's 3 s."""
from types import SimpleNamespace

from bot.transports.callback import route


def test_each_interactions_callback_is_a_bucket_of_its_own():
    a = route(SimpleNamespace(id=111, token="tok-a"))
    b = route(SimpleNamespace(id=222, token="tok-b"))
    assert a.url.endswith("/interactions/111/tok-a/callback") and a.method == "POST"
    # discord.py's webhook adapter locks on (route.webhook_id, route.webhook_token) (discord/webhook/async_.py)
    assert (a.webhook_id, a.webhook_token) == (111, "tok-a") and (b.webhook_id, b.webhook_token) == (222, "tok-b")
