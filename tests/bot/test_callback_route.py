"""bot/transports/callback.py (issue 25): each interaction's callback is a rate-limit bucket of its own in
discord.py's HTTP client, as its webhook adapter makes it. One shared bucket made discord.py send every
callback one at a time until Discord told it the limit: under a burst they queued past Discord's 3 s."""
from types import SimpleNamespace

from bot.transports.callback import route


def test_each_interactions_callback_is_a_bucket_of_its_own():
    a = route(SimpleNamespace(id=111, token="tok-a"))
    b = route(SimpleNamespace(id=222, token="tok-b"))
    assert a.url.endswith("/interactions/111/tok-a/callback") and a.method == "POST"
    # discord.py keys a bucket on the route's path and its major parameters (discord/http.py: HTTPClient.request)
    assert a.key == b.key and a.major_parameters != b.major_parameters
    assert "111" in a.major_parameters and "222" in b.major_parameters
