"""BB and EE: which seat may play which Event Card. The event texts are the base game's (not available):
a seat draws in the Events Phase in the order of draw (`draw <nnn>`: the number of the card it drew
from the table's deck, kept in its hand privately; `draw none`), and plays a card from its hand in its own
player turn (`event <nnn> [note]`; the table carries out the text). The variant's own rules are enforced:
- BB.1: Gondor plays any card the Fellowship could, except 096 and 092;
- EE: Rohan plays any card Gondor can, except 075;
- AA.2: Gondor plays 075 "Boromir Attempts to Seize the Ring" at any time that Boromir is in the same hex
  as the Ringbearer (the Fellowship then answers `seizure held` or `seizure lost`, or `seizure roll`);
- BB.4: Gondor nullifies 093 by having Denethor put on the Ring (`nullify 093`, Denethor bearing it)."""
from __future__ import annotations

import re

from engine.core import Event
from engine.rulesets.wotr.common import S_SEQ, alive, hex_of, refuse, title
from engine.rulesets.wotr import lookup, sequence

S_BB1, S_BB4, S_EE, S_AA2 = "BB.1", "BB.4", "EE", "AA.2"
CARD_RE = re.compile(r"^\d{3}$")
NOT_GONDOR = {"096": "Mind Battle: Elrond and Galadriel Distract Sauron", "092": "Aragorn Uses Palantir; Sauron Challenged!"}


def _p_draw(rs, st, seat, w):
    if len(w) != 1 or not (CARD_RE.match(w[0]) or w[0] == "none"):
        raise lookup._usage(rs, "draw")
    if st["phase"] != "events" or seat not in rs.active_seats(st):
        raise refuse("Event Cards are drawn in the Events Phase, in the order of draw", S_SEQ)
    deck = st.get("event_texts")
    if deck and w[0] != "none" and w[0] not in deck:
        raise refuse(f"Event Card {w[0]} is not in the group's deck (its file's [cards.events])")
    return (w[0],)


def _card_text(rs, st, card) -> str:
    """The card's text from the group's file (`[cards.events]`), or nothing (the base game's, at the table)."""
    return (st.get("event_texts") or {}).get(card, "")


def _a_draw(rs, st, seat, args, dice):
    card = args[0]
    if card != "none":
        st["hands"][seat].append(card)
    ev = [Event(public=f"{title(seat)} draws an Event Card.",
                private={seat: (f"You hold Event Card {card}" + (f": {_card_text(rs, st, card)}" if
                                _card_text(rs, st, card) else ".")) if card != "none" else "You drew nothing."})]
    return ev + sequence._a_done(rs, st, seat, (), None)


def _p_event(rs, st, seat, w):
    if not w or not CARD_RE.match(w[0]):
        raise lookup._usage(rs, "event")
    card = w[0]
    note = " ".join(w[1:])[:120]
    if card not in st["hands"].get(seat, []):
        raise refuse(f"Event Card {card} is not in your hand")
    if seat in ("gondor", "rohan") and card in NOT_GONDOR:
        raise refuse(f"{title(seat)} may not play {card}, \"{NOT_GONDOR[card]}\"", S_BB1 if seat == "gondor" else S_EE)
    if card == "075":
        if seat == "rohan":
            raise refuse("the Rohan player may not play Event Card 075", S_EE)
        if seat != "gondor":
            raise refuse("075 is Gondor's in this variant (AA.2)", S_AA2)
        if st["boromir_attempted"] or not alive(st, "boromir") or st["ring"]["bearer"] in (None, "boromir"):
            raise refuse("Boromir can no longer attempt to seize the Ring", S_AA2)
        if hex_of(st, "boromir") != hex_of(st, st["ring"]["bearer"]):
            # Gondor knows Boromir's hex and the Fellowship's demand; the refusal reaches Gondor alone
            raise refuse("075 is played when Boromir is in the same hex as the Ringbearer", S_AA2)
    else:
        lookup._turn_of(rs, st, seat, "playing an Event Card")
    return (card, *w[1:]) if note else (card,)


def _a_event(rs, st, seat, args, dice):
    card = args[0]
    st["hands"][seat].remove(card)
    st["played"].append({"card": card, "seat": seat, "turn": st["turn"]})
    note = " ".join(args[1:])
    text = _card_text(rs, st, card)  # the group's card text (the variant's rules for the card stay)
    ev = [Event(public=f"{title(seat)} plays Event Card {card}" + (f": {note}" if note else "") + "."
                + (f' The card reads: "{text}"' if text else ""))]
    if card == "075":
        st["boromir_attempted"] = True
        st["demand"] = False
        st["ring"]["seizure"] = {"from": st["ring"]["bearer"], "by": "boromir"}
        ev.append(Event(public="Boromir attempts to seize the Ring (M.3 at the table): the Fellowship answers "
                               "`seizure held` or `seizure lost`, or `seizure roll` to let the dice decide.",
                        section=S_AA2))
    return ev


def _p_nullify(rs, st, seat, w):
    if w != ["093"]:
        raise lookup._usage(rs, "nullify")
    if seat != "gondor":
        raise refuse("Gondor nullifies 093", S_BB4)
    last = st["played"][-1] if st["played"] else None
    if not last or last["card"] != "093" or last.get("nullified") or last["turn"] != st["turn"]:
        raise refuse("093 has not just been played", S_BB4)
    if st["ring"]["bearer"] != "denethor" or not alive(st, "denethor"):
        raise refuse("only by having Denethor put on the Ring: he must bear it", S_BB4)
    return ("093",)


def _a_nullify(rs, st, seat, args, dice):
    st["played"][-1]["nullified"] = True
    st["ring"]["wearing"] = True
    return [Event(public="Denethor II puts on the Ring: Event Card 093 is nullified.", section=S_BB4)]
