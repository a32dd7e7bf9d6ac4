"""AA (the Ring in the four-player game), EE (the Ring in the five-player game) and the Ring parts of
DD.1 (heirs use it at -1, Aragorn as king without penalty; a ruler turned Semi-Ringwraith eliminates
Gondor).

Orders: `ring on`, `ring off` (the bearer's seat, Ring Phase), `ring to <character>` (a transfer the base
game allows: the bearer's seat, to a character in the same hex), `nazgul control` (Gondor, Ring Phase,
AA.1), `seizure held|lost|roll` (the Ringbearer's seat, after Event 075 or `seize`), `wraith <character>`
(the character's seat: the base game's Semi-Ringwraith), `palantir <character>` (the holder's seat hands it
on, same hex). What the base game decides (whether a removal or a seizure succeeds, M.3, E.5) is the
table's; `seizure roll` lets the game's dice decide a seizure instead (ruling, issue 42: one die, 1-3 held,
4-6 lost, an even chance, as M.3's procedure and the characters' ratings are not available), and it is
how a Ringbearer's seat nobody plays answers (never `held` every time: that would spend the attempt with
no contest)."""
from __future__ import annotations

from engine import pending
from engine.core import Action, Event
from engine.dice import Dice
from engine.rulesets.wotr.common import S_SEQ, alive, hex_of, refuse, title
from engine.rulesets.wotr import dd_succession, lookup, nazgul

S_AA1, S_AA2, S_EE, S_DD1, S_BB4 = "AA.1", "AA.2", "EE", "DD.1", "BB.4"
RING_RATING = {"denethor": 3, "boromir": 3}  # AA.1; AA.2 (b)


# ------------------------------------------------------------------ who holds what
def _bearer(rs, st) -> str | None:
    return st["ring"]["bearer"]


def _ring_seat(rs, st) -> str | None:
    b = _bearer(rs, st)
    return st["chars"][b]["seat"] if b in st["chars"] else None


def _ring_penalty(rs, st, cid) -> int:
    """DD.1: the heirs as ruler use the Ring at a penalty of one; Denethor and Aragorn as king at none."""
    return 1 if cid in ("boromir", "faramir", "imrahil") else 0


def _ring_phase_conditions(rs, st) -> dict:
    """AA.1: the ruler of Gondor must be in Minas Tirith, with the Palantir, wearing the Ring *at the
        start of the Ring Phase*: recorded then, and read by `nazgul control`."""
    r = dd_succession._ruler(rs, st)
    ok = bool(r and st["chars"][r]["race"] != "man-rohan" and hex_of(st, r) == lookup._bd(rs, st).places["minas-tirith"]
              and st["palantir"] == r and st["ring"]["bearer"] == r and st["ring"]["wearing"]
              and not st["gondor_out"])
    return {"ruler": r, "nazgul": ok}


# ------------------------------------------------------------------ ring on / off / to
def _p_ring(rs, st, seat, w):
    if not w or w[0] not in ("on", "off", "to") or (w[0] == "to") != (len(w) == 2) or len(w) > 2:
        raise lookup._usage(rs, "ring")
    b = _bearer(rs, st)
    if b is None or not alive(st, b):
        raise refuse("nobody bears the Ring")
    if _ring_seat(rs, st) != seat:
        raise refuse(f"the Ringbearer is not yours ({title(_ring_seat(rs, st))}'s)")
    if w[0] == "to":
        cid = lookup._char(rs, st, w[1])
        if cid == b:
            raise refuse(f"{st['chars'][cid]['name']} already bears the Ring")
        if hex_of(st, cid) != hex_of(st, b) or not lookup._sees_char(rs, st, seat, cid):
            raise refuse("the Ring passes only to a character in the Ringbearer's hex")
        return ("to", cid)
    if st["phase"] != "ring":
        raise refuse("the Ring is put on or taken off in the Ring Phase", S_SEQ)
    if (w[0] == "on") == st["ring"]["wearing"]:
        raise refuse(f"the Ring is already {'on' if w[0] == 'on' else 'off'}")
    return (w[0],)


def _a_ring(rs, st, seat, args, dice):
    r = st["ring"]
    b = r["bearer"]
    if args[0] == "to":
        r["bearer"], r["wearing"] = args[1], False
        ev = [Event(public=f"The Ring passes from {st['chars'][b]['name']} to {st['chars'][args[1]]['name']}.")]
        return ev + _after_ring_change(rs, st)
    r["wearing"] = args[0] == "on"
    ev = [Event(public=f"{st['chars'][b]['name']} {'puts on' if r['wearing'] else 'takes off'} the Ring.")]
    if not r["wearing"]:
        ev += _try_transfer(rs, st)
    return ev + _after_ring_change(rs, st)


def _after_ring_change(rs, st) -> list[Event]:
    """AA.1: once Gondor possesses the Ring its victory conditions become the Dark Power's (for good)."""
    if _ring_seat(rs, st) == "gondor" and not st["ring"]["gondor_had"]:
        st["ring"]["gondor_had"] = True
        return [Event(public="Gondor possesses the Ring: from now on its victory conditions are those of the "
                             "Dark Power (AA.1).", section=S_AA1)]
    return []


# ------------------------------------------------------------------ AA.1: control of a Nazgul
def _p_nazgul(rs, st, seat, w):
    """`nazgul control [<nazgul>]` (Gondor, AA.1) and `nazgul gain [<nazgul>]` (Saruman, ETPR W.2 as the
        table rules): which of the Dark Power's Nazgul changes hands (the first of them if none is named);
        it stays in its hex."""
    if not w or w[0] not in ("gain", "control") or len(w) > 2:
        raise lookup._usage(rs, "nazgul")
    nid = nazgul._nazgul_word(rs, st, seat, w[1] if len(w) == 2 else None, "dark-power")
    if w[0] == "gain":  # Saruman's control of a Nazgul (W.2 of the ETPR): the table's ruling, recorded
        if seat != "saruman":
            raise refuse("`nazgul gain` records Saruman's control of a Nazgul (ETPR W.2)")
        return ("gain", nid)
    if seat != "gondor":
        raise refuse("only the ruler of Gondor attempts this by AA.1 (Saruman: `nazgul gain`)", S_AA1)
    if st["phase"] != "ring":
        raise refuse("control of a Nazgul is attempted in the Ring Phase", S_AA1)
    if st["nazgul_tried"] == st["turn"]:
        raise refuse("one attempt a Ring Phase", S_AA1)
    cond = st["ring_start"]
    ruler = cond.get("ruler")
    if ruler in ("theoden", "theodred", "eomer", "eowyn"):
        raise refuse("no Rohan character may use the Ring to control Nazgul", S_EE)
    if not cond.get("nazgul"):
        raise refuse("the ruler of Gondor must be in Minas Tirith, with the Palantir, wearing the Ring at the "
                     "start of the Ring Phase", S_AA1)
    return ("control", nid)


def _a_nazgul(rs, st, seat, args, dice):
    nid = args[1] if len(args) > 1 else nazgul._nazgul_of(rs, st, "dark-power")[0]
    name, hx = st["nazgul"][nid]["name"], st["nazgul"][nid]["hex"]
    if args[0] == "gain":
        nazgul._nazgul_to(rs, st, nid, "saruman")
        return [Event(public=f"Saruman gains control of {name} at {hx} (ETPR W.2, as ruled at the table).")] + \
            nazgul._spot_all(rs, st)
    st["nazgul_tried"] = st["turn"]
    ruler = st["ring_start"]["ruler"]
    pen = _ring_penalty(rs, st, ruler)
    d = Dice(st["dice"])
    roll = d.d6(f"AA.1 {ruler} controls a Nazgul")
    ok = roll + pen <= 4
    text = f"{st['chars'][ruler]['name']} tries to control a Nazgul: rolls {roll}" + \
        (f" +{pen} (heir, DD.1)" if pen else "") + (f": success, Gondor controls {name} at {hx}." if ok else ": fails.")
    if ok:
        nazgul._nazgul_to(rs, st, nid, "gondor")
    return [Event(public=text, section=S_AA1, rolls=d.rolls)] + (nazgul._spot_all(rs, st) if ok else [])


# ------------------------------------------------------------------ AA.2: the seizure and the transfer
def _p_seize(rs, st, seat, w):
    """AA.1: Denethor (and the ruler of Gondor) may attempt to seize the Ring by M.3; EE: no Rohan
        character may; Boromir's attempt is Event 075 (AA.2). Other seats' characters by the base game."""
    if len(w) != 1:
        raise lookup._usage(rs, "seize")
    cid = lookup._char(rs, st, w[0])
    c = st["chars"][cid]
    if cid == "boromir":
        raise refuse("Boromir's attempt is Event Card 075", S_AA2)
    if c["seat"] != seat or not c["alive"]:
        raise refuse(f"{c['name']} is not one of your living characters")
    if c["side"] == "rohan":
        raise refuse("none of the Rohan characters may attempt to seize the Ring", S_EE)
    if c["side"] == "gondor" and cid not in ("denethor", dd_succession._ruler(rs, st)):
        raise refuse("in Gondor, Denethor (or the ruler after him) attempts to seize the Ring", S_AA1)
    b = _bearer(rs, st)
    if st["ring"]["seizure"] is not None:
        raise refuse("a seizure is pending")
    if b is None or b == cid or hex_of(st, b) != c["hex"] or not lookup._sees_char(rs, st, seat, b):
        # one refusal whether or not a hidden Ringbearer is there: no probing for it
        raise refuse("a seizure is attempted in the Ringbearer's hex, the Ringbearer in sight (M.3)")
    lookup._turn_of(rs, st, seat, "seizing the Ring")
    return (cid,)


def _a_seize(rs, st, seat, args, dice):
    st["ring"]["seizure"] = {"from": st["ring"]["bearer"], "by": args[0]}
    return [Event(public=f"{st['chars'][args[0]]['name']} attempts to seize the Ring (M.3 at the table): "
                         f"{title(_ring_seat(rs, st))} answers `seizure held` or `seizure lost`, or `seizure roll` "
                         "to let the dice decide.", section=S_AA1)]


SEIZURE_HELD_MAX = 3  # `seizure roll` (ruling, issue 42): one die, 1-3 the Ringbearer keeps the Ring, 4-6 it is seized


def _p_seizure(rs, st, seat, w):
    if len(w) != 1 or w[0] not in ("held", "lost", "roll"):
        raise lookup._usage(rs, "seizure")
    p = next(iter(rs.waiting_decisions(st)), None)
    if p is None:
        raise refuse("no seizure of the Ring is pending", SEIZURE_AA_2.section)
    if seat != p["seat"]:
        raise refuse("the Ringbearer's seat answers the attempt (by M.3 and E.5 at the table)", SEIZURE_AA_2.section)
    return (w[0],)


# ------------------------------------------------------------------ the answer as a pending decision (engine/pending.py)
def waiting_decisions(rs, st) -> list[dict]:
    """The seizure waiting for the Ringbearer's seat's answer (AA.1, AA.2), as a decision record read from
        ``st["ring"]["seizure"]`` (the one place it is kept): an offer, answered at any time, while every
        seat goes on playing (the seat to answer is not made active: nothing waits on it)."""
    z = st["ring"]["seizure"]
    if z is None:
        return []
    return [pending.new(SEIZURE_AA_2, _ring_seat(rs, st), by=z["by"])]


def _seizure_legal(rs, st, p):
    yield Action("seizure", ("held",))
    yield Action("seizure", ("lost",))
    yield Action("seizure", ("roll",))


def _seizure_awaited(rs, st, p) -> str:
    return "answer the attempt to seize the Ring: `seizure held`, `seizure lost` or `seizure roll`"


def _seizure_first(rs, st, p) -> str:
    return "answer the attempt to seize the Ring: `seizure held`, `seizure lost` or `seizure roll`"


def _seizure_autopilot(rs, st, p) -> Action:
    """Issue 42: a Ringbearer's seat nobody plays has the seizure rolled with the game's dice (M.3 is a
        contest the rules resolve by a die roll: never granted to one side)."""
    return Action("seizure", ("roll",), memo={"why": "the attempt on the Ring is rolled with the game's dice "
                                                     f"(1-{SEIZURE_HELD_MAX} held, {SEIZURE_HELD_MAX + 1}-6 seized)"})


# AA.2 (and AA.1's seize by M.3): an offer of the Ringbearer's seat that holds up nobody
SEIZURE_AA_2 = pending.Decision("seizure", S_AA2, ("seizure",), legal=_seizure_legal, awaited=_seizure_awaited,
                                first=_seizure_first, offer=True, autopilot=_seizure_autopilot)


def _a_seizure(rs, st, seat, args, dice):
    r = st["ring"]
    victim, by = r["seizure"]["from"], r["seizure"]["by"]
    r["seizure"] = None
    who = st["chars"][by]["name"]
    section = S_AA2 if by == "boromir" else S_AA1
    rolled: list[Event] = []
    if args[0] == "roll":  # ruling (issue 42): the game's dice decide, an even chance
        d = Dice(st["dice"])
        roll = d.d6(f"{who} attempts to seize the Ring")
        held = roll <= SEIZURE_HELD_MAX
        rolled = [Event(public=f"The seizure is rolled: {roll} ({'held' if held else 'seized'} on "
                               f"{'1' if held else SEIZURE_HELD_MAX + 1}-{SEIZURE_HELD_MAX if held else 6}).",
                        section=section, rolls=d.rolls)]
        args = ("held" if held else "lost",)
    if args[0] == "held":
        return rolled + [Event(public=f"{who} fails to seize the Ring; {st['chars'][victim]['name']} keeps it.",
                               section=section)]
    r["bearer"], r["wearing"] = by, False
    if by != "boromir":
        return rolled + [Event(public=f"{who} seizes the Ring from {st['chars'][victim]['name']}.", section=S_AA1)] + \
            _after_ring_change(rs, st)
    b = st["chars"]["boromir"]
    rules = "(AA.2; E.5 with the variant's exceptions: Ring Rating 3)"
    if st.get("seizure_public"):
        # options seizure=public: Boromir leaves the Fellowship a Gondor character on the map, where he is
        b["seat"], b["hidden"], b["located"], b["spotted"] = "gondor", False, [], []
        ev = [Event(public=f"Boromir seizes the Ring at {b['hex']}! He leaves the Fellowship and is moved by "
                           f"Gondor {rules}.", section=S_AA2, reveals=True)]
    else:
        # the default (ruling: the seed is silent, and the hex would tell every seat where the hidden
        # Fellowship just was): Boromir leaves the Fellowship but stays hidden, Gondor's now; Gondor and the
        # Fellowship are told the hex privately; Gondor may `reveal boromir` when it chooses
        b["seat"] = "gondor"
        where = f"Boromir has the Ring at {b['hex']} ({lookup._bd(rs, st).terrain[b['hex']]})."
        ev = [Event(public=f"Boromir seizes the Ring! He leaves the Fellowship and is moved by Gondor, still "
                           f"hidden {rules}.", private={"gondor": where, "fellowship": where},
                    section=S_AA2, reveals=True)]
    return rolled + ev + _after_ring_change(rs, st) + _try_transfer(rs, st)


# ------------------------------------------------------------------ the Ringbearer captured (AA.2 b)
def _p_prisoner(rs, st, seat, w):
    if len(w) != 2 or w[1] not in ("on", "off"):
        raise lookup._usage(rs, "prisoner")
    cid = lookup._char(rs, st, w[0])
    if st["chars"][cid]["seat"] != seat and seat not in rs.active_seats(st):
        raise refuse("a capture is recorded by the character's seat, or by the seat to act")
    if (cid in st["prisoners"]) == (w[1] == "on"):
        raise refuse("so recorded already")
    return (cid, w[1])


def _a_prisoner(rs, st, seat, args, dice):
    cid, on = args[0], args[1] == "on"
    if on:
        st["prisoners"].append(cid)
    else:
        st["prisoners"].remove(cid)
    name = st["chars"][cid]["name"]
    return [Event(public=f"{name} is {'captured' if on else 'free again'} (the base game's ruling).")]


def _try_transfer(rs, st) -> list[Event]:
    """AA.2 (c): Boromir in Minas Tirith with the Ring, not wearing it, Denethor alive there: 1-3 gives
        the Ring to Denethor, else Boromir puts it on; one is added for each earlier failure. Once a turn."""
    r = st["ring"]
    mt = lookup._bd(rs, st).places["minas-tirith"]
    if not (r["bearer"] == "boromir" and not r["wearing"] and hex_of(st, "boromir") == mt
            and alive(st, "denethor") and hex_of(st, "denethor") == mt and r["transfer_turn"] != st["turn"]):
        return []
    r["transfer_turn"] = st["turn"]
    d = Dice(st["dice"])
    roll = d.d6("AA.2 (c) Boromir gives the Ring to Denethor")
    total = roll + r["failures"]
    extra = f" +{r['failures']} (earlier failures) = {total}" if r["failures"] else ""
    if total <= 3:
        r["bearer"] = "denethor"
        text = f"Boromir reaches Minas Tirith with the Ring: rolls {roll}{extra}; he gives it to Denethor II."
    else:
        r["failures"] += 1
        r["wearing"] = True
        text = f"Boromir reaches Minas Tirith with the Ring: rolls {roll}{extra}; Boromir puts on the Ring!"
    return [Event(public=text, section=S_AA2, rolls=d.rolls)] + _after_ring_change(rs, st)


# ------------------------------------------------------------------ Semi-Ringwraith, the Palantir
def _p_wraith(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "wraith")
    cid = lookup._char(rs, st, w[0])
    if st["chars"][cid]["seat"] != seat:
        raise refuse(f"{st['chars'][cid]['name']} is not yours")
    if cid in st["wraiths"]:
        raise refuse("already a Semi-Ringwraith")
    return (cid,)


def _a_wraith(rs, st, seat, args, dice):
    cid = args[0]
    ruler = dd_succession._ruler(rs, st)
    st["wraiths"].append(cid)
    ev = [Event(public=f"{st['chars'][cid]['name']} becomes a Semi-Ringwraith.")]
    if cid == ruler and not st["gondor_out"]:
        st["gondor_out"] = True
        ev.append(Event(public="The ruler of Gondor is a Semi-Ringwraith: Gondor is eliminated; its units can no "
                               "longer move (Rohan's still can).", section=S_DD1))
    return ev


def _p_palantir(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "palantir")
    cid = lookup._char(rs, st, w[0])
    holder = st["palantir"]
    if holder is None or not alive(st, holder) or st["chars"][holder]["seat"] != seat:
        raise refuse("the Palantir is not with one of your characters")
    if hex_of(st, cid) != hex_of(st, holder) or cid == holder or not lookup._sees_char(rs, st, seat, cid):
        raise refuse("the Palantir passes to another character in the same hex")
    return (cid,)


def _a_palantir(rs, st, seat, args, dice):
    st["palantir"] = args[0]
    return [Event(public=f"The Palantir of Minas Tirith passes to {st['chars'][args[0]]['name']}.")]
