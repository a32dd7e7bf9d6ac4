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
             "nazgul control": "Minas Tirith", "mind-battle saruman": "wears the Ring"}


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
