"""Victory (seed:001). Enforced: Gondor's and Rohan's conditions, continuous from the first turn and lost
for good when broken (checked at the end of every player turn):
- four-player Gondor: control of Minas Tirith, Dol Amroth, Helm's Deep and Dunharrow, all four;
- five-player Gondor: Minas Tirith and Dol Amroth (Helm's Deep and Dunharrow dropped);
- five-player Rohan: Helm's Deep and Dunharrow, and only if Gondor keeps Minas Tirith, a requirement
  dropped once Gondor attacks Rohan;
- AA.1: once Gondor possesses the Ring its conditions are the Dark Power's (the base game's: `claim`).
The Fellowship's, the Dark Power's and Saruman's are the base game's: each seat may `claim` them, and
the table (a vote, or the moderator) contests a claim. The game ends after its last turn (`turns=`, a
reconstruction) with the winners: the conditions held and the claims standing."""
from __future__ import annotations

from engine.core import Event, Result
from engine.rulesets.wotr.common import S_FIVE, S_FOUR, title
from engine.rulesets.wotr import cc_diplomacy

S_AA1 = "AA.1"


def _gondor_places(rs, st) -> tuple[str, ...]:
    if st["players"] == 4:
        return ("minas-tirith", "dol-amroth", "helms-deep", "dunharrow")
    return ("minas-tirith", "dol-amroth")


def _end_player_turn(rs, st, seat) -> list[Event]:
    ev = []
    h = st["held"]
    if h["gondor"] and any(st["control"].get(p) != "gondor" for p in _gondor_places(rs, st)):
        h["gondor"] = False
        lost = [p for p in _gondor_places(rs, st) if st["control"].get(p) != "gondor"]
        ev.append(Event(public=f"Gondor no longer holds {', '.join(lost)}: its continuous victory condition is "
                               "lost for good.", section=S_FOUR if st["players"] == 4 else S_FIVE))
    if st["players"] == 5:
        if h["rohan"] and any(st["control"].get(p) != "rohan" for p in ("helms-deep", "dunharrow")):
            h["rohan"] = False
            ev.append(Event(public="Rohan no longer holds Helm's Deep and Dunharrow: its continuous victory "
                                   "condition is lost for good.", section=S_FIVE))
        if h["rohan_mt"] and st["control"].get("minas-tirith") != "gondor":
            h["rohan_mt"] = False
            if not st["rohan_attacked"]:
                ev.append(Event(public="Gondor has lost Minas Tirith: Rohan's victory needed it (until Gondor "
                                       "attacks Rohan).", section=S_FIVE))
    return ev


def _winners(rs, st) -> list[str]:
    out = []
    h = st["held"]
    if not st["ring"]["gondor_had"] and h["gondor"] and not st["gondor_out"]:
        out.append("gondor")
    if st["players"] == 5 and h["rohan"] and (h["rohan_mt"] or st["rohan_attacked"]):
        out.append("rohan")
    out += [s for s in st["claims"] if s not in out]
    return [s for s in cc_diplomacy._playing(rs, st) if s in out]


def _finish(rs, st, why) -> list[Event]:
    winners = _winners(rs, st)
    summary = f"{why} Winners: " + (", ".join(title(s) for s in winners) if winners else "none") + "."
    st["over"] = {"winners": winners, "summary": summary}
    st["phase"] = "over"
    return [Event(public=summary, new_phase=True)]


def result(rs, st):
    if not st["over"]:
        return None
    w = st["over"]["winners"]
    # one winner, or None: several seats may win a multi-player game (the summary names them all)
    names = [title(s) for s in w]
    short = (f"{' and '.join(names)} win{'s' if len(names) == 1 else ''}" if names else "Nobody wins")
    return Result(w[0] if len(w) == 1 else None, st["over"]["summary"], short=short, winners=tuple(w))
