"""War of the Ring's help names real orders (issue 20, as tests/bot/test_help.py does for the SPI games): every
backticked order in every help topic is accepted by some seat at some moment of a fresh game (the Ring
Phase, the Events Phase, the Search Phase, each seat's player turn); the few that need a situation a fresh game lacks (a
card just played, the Ring on Denethor) are refused for that situation, never for their form."""
import re

from engine.core import InvalidOrder, OrderError
from engine.rulesets.wotr import USAGE
from tests.wotr_helpers import RS, new, to_phase

BACKTICK = re.compile(r"`([^`]+)`")
SITUATION = {"nullify 093": "093 has not just been played", "event 075": "not in your hand", "mind-battle sauron": "wears the Ring",
             "nazgul control": "Minas Tirith", "mind-battle saruman": "wears the Ring",
             # the orders topic's examples (issue 27) that need a situation a fresh game lacks
             "attack E0127": "nothing in that hex to attack with", "capture minas-tirith": "must be in the place's hex",
             "seizure held": "no seizure of the Ring is pending", "seize denethor": "in the Ringbearer's hex",
             "palantir faramir": "another character in the same hex", "dissolve fellowship": "not allied",
             "agree b1": "no open barter", "item sting frodo": "holds it already",
             "use athelas aragorn": "does not hold"}


def moments():
    out = [new(5), to_phase(new(5), "events")]
    g = new(5)
    g.state["turn"] = 3
    out.append(to_phase(g, "search"))
    for seat in ("saruman", "fellowship", "rohan", "gondor", "dark-power"):
        out.append(to_phase(new(5), "turn", seat))
    return out


def test_every_order_a_wotr_help_text_names_is_accepted_somewhere():
    games = moments()
    texts = [RS.help()] + [RS.help(t) for t in RS.help_topics()]
    ran = 0
    for frag in sorted({f for t in texts for f in BACKTICK.findall(t)}):
        words = frag.split()
        if any(c in frag for c in "<|…") or "..." in frag or words[0] not in USAGE or (len(words) == 1 and frag != "done"):
            continue  # a form (`move <piece> <hex>`), a verb named, a word
        errors = []
        for g in games:
            for seat in RS.seats:
                try:
                    RS.parse(g.state, seat, frag)
                    break
                except OrderError as e:
                    assert not isinstance(e, InvalidOrder) or "usage" not in str(e), (frag, str(e))
                    errors.append(str(e))
            else:
                continue
            break
        else:
            assert frag in SITUATION and any(SITUATION[frag] in e for e in errors), (frag, errors[:3])
        ran += 1
    assert ran >= 8, ran


def test_wotr_help_topics_are_like_the_other_games_issue_27():
    """`/help topic:orders` lists every order with its usage and an example (the examples run above),
    `phases`, `setup` and `secrets` answer under their titles, a verb gives its line; each fits a Discord
    message with the assist mode's note."""
    from engine.rulesets import get_ruleset
    rs = get_ruleset("wotr@assist")
    orders = rs.help("orders")
    assert orders.startswith("**War of the Ring: the orders**") and len(orders) <= 2000
    for verb, usage in USAGE.items():
        if verb != "done":
            assert f"`{usage}`" in orders, verb
    assert orders.count(" e.g. `") >= len(USAGE) - 5  # an example for every order but the one-word ones
    want = {"phases": "the sequence of play", "setup": "set-up", "secrets": "hidden information"}
    for topic, title in want.items():
        text = rs.help(topic)
        assert f"**War of the Ring: {title}**" in text and len(text) <= 2000, topic
    assert rs.help("move").startswith("`move <piece> <hex> [<hex> ...]` e.g. `move naz1 E0720`")
    assert rs.help("ring").startswith("**The Ring**")  # a topic of its own, not the verb's line
    general = rs.help()
    for headline in ("the Ring in Gondor's hands", "secret demand", "hidden movement", "succession"):
        assert headline in general, headline
    assert "`/help topic:orders`" in general and len(general) <= 2000


def test_a_mistyped_order_is_refused_with_its_own_form_not_the_moderators_verb_issue_27():
    """A seat's `move frodo` (no hex) in assist play: the refusal names `move`'s form, not "`move` is the
    moderator's here" (the table's own `move` verb is the moderator's, but the game has a `move`)."""
    from engine.core import Game
    from engine.rulesets import get_ruleset
    rs = get_ruleset("wotr@assist")
    g = Game.new(rs, {}, seed="h")
    for text in ("move frodo", "move"):
        try:
            g.parse("fellowship", text)
            raise AssertionError(f"{text} accepted")
        except OrderError as e:
            assert "moderator's" not in str(e) and "move <piece> <hex>" in str(e), str(e)
    try:  # a verb the game does not have stays the moderator's
        g.parse("fellowship", "set dem 3")
        raise AssertionError("accepted")
    except OrderError as e:
        assert "moderator's" in str(e)
