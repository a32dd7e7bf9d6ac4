"""What the variant leaves to the base game, declared and recorded (assist play): moving characters and
armies (`move <piece> <hex> [<hex> ...]`: the path; movement allowances are the base game's F, not
checked), battles (`attack <hex>`), losses (`lose <unit> <sp>`), deaths (`kill <character>`), control of
the places the victory conditions name (`capture <place>`), and a claim of a base-game victory (`claim`).
What the variant says about them is enforced: mobilization, the Restrictions on Alliances, Boromir's
mover (AA.2), Gondor eliminated (DD.1), Saruman's restraint after a mind battle (CC.1)."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import S_FIVE, S_HIDDEN, S_MOB, allied, refuse, title, units_in
from engine.rulesets.wotr.mobilization import ITHILIEN_GROUP
from engine.rulesets.wotr import aa_ring, dd_succession, hidden_movement, lookup, mobilization, nazgul

S_CC1, S_AA2, S_DD1 = "CC.1", "AA.2", "DD.1"


def _piece(rs, st, word) -> tuple[str, str]:
    w = word.lower()
    if w in st["units"]:
        return ("u", w)
    if w in st["nazgul"]:
        return ("n", w)
    return ("c", lookup._char(rs, st, w))


def _mover(rs, st, cid) -> str:
    """Who moves a character: AA.2, Boromir by the Fellowship while Gondor's demand is in force (and
        by Gondor otherwise) as long as he is one of the Fellowship's."""
    c = st["chars"][cid]
    if cid == "boromir" and c["seat"] == "fellowship":
        return "fellowship" if hidden_movement._demand_in_force(rs, st) else "gondor"
    return c["seat"]


def _p_move(rs, st, seat, w):
    if len(w) < 2:
        raise lookup._usage(rs, "move")
    lookup._turn_of(rs, st, seat, "moving")
    kind, mid = _piece(rs, st, w[0])
    path = [lookup._hex(rs, st, h) for h in w[1:]]
    if len(path) > 20:
        raise refuse("a path of 20 hexes at most")
    if kind == "n":  # a Nazgul, by its controller (the base game's F.5 movement: the table's)
        n = st["nazgul"][mid]
        if n["seat"] != seat:
            raise refuse(f"{n['name']} is {title(n['seat'])}'s to move")
        if path[-1] == n["hex"] and len(path) == 1:
            raise refuse("the piece is already there")
        err = nazgul._nazgul_move_error(rs, st, mid, path)
        if err:
            raise refuse(err, S_HIDDEN)
        return (mid, *path)
    if kind == "c":
        c = st["chars"][mid]
        if not c["alive"]:
            raise refuse(f"{c['name']} is dead")
        mover = _mover(rs, st, mid)
        if mover != seat:
            if mid == "boromir" and seat in ("fellowship", "gondor"):
                # the refusal goes to the seat that sent it only, and both know the demand (AA.2)
                raise refuse("Boromir is moved by " + title(mover) + " now (Gondor's demand, AA.2)", S_AA2)
            raise refuse(f"{c['name']} is not yours to move")
        start = c["hex"]
        nation = "gondor" if c["side"] == "gondor" else None
    else:
        u = st["units"][mid]
        if lookup._unit_seat(rs, st, mid) != seat:
            raise refuse(f"{u['name']} is not yours to move")
        if u["sp"] <= 0:
            raise refuse(f"{u['name']} is eliminated")
        start = u["hex"]
        nation = u["nation"]
    if path[-1] == start and len(path) == 1:
        raise refuse("the piece is already there")
    if nation == "gondor" and st["gondor_out"]:
        raise refuse("Gondor is eliminated: its units can no longer move", S_DD1)
    err = mobilization._mobilization_error(rs, st, kind, mid, path)
    if err:
        raise refuse(err, S_MOB)
    err = dd_succession._stack_error(rs, st, seat, [(kind, mid)], path[-1])
    if err:
        raise refuse(err)
    return (mid, *path)


def _a_move(rs, st, seat, args, dice):
    mid, path = args[0], list(args[1:])
    if mid in st["nazgul"]:
        return nazgul._a_move_nazgul(rs, st, seat, mid, path)
    if mid in st["chars"] and st["chars"][mid]["hidden"]:
        return hidden_movement._move_hidden(rs, st, seat, mid, path)
    kind = "u" if mid in st["units"] else "c"
    piece = st["units"][mid] if kind == "u" else st["chars"][mid]
    piece["hex"] = path[-1]
    if kind == "c":
        piece["path"] = path
    mobilization._after_mobile_move(rs, st, kind, mid, path[-1])
    ev = [Event(public=f"{title(seat)} moves {piece['name']} to {path[-1]}.")]
    ev += nazgul._spot_all(rs, st)
    ev += aa_ring._try_transfer(rs, st) + dd_succession._check_king(rs, st)
    return ev


# ------------------------------------------------------------------ battles and their results
def _p_attack(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "attack")
    lookup._turn_of(rs, st, seat, "attacking")
    hx = lookup._hex(rs, st, w[0])
    mine = [u for u in units_in(st, hx) if lookup._unit_seat(rs, st, u) == seat] + \
        [c for c, d in st["chars"].items() if d["alive"] and d["hex"] == hx and d["seat"] == seat]
    if not mine:
        raise refuse("you have nothing in that hex to attack with (a battle is where armies meet)")
    foes = [u for u in units_in(st, hx) if not allied(st, seat, lookup._unit_seat(rs, st, u))]
    if not foes:
        raise refuse("no enemy army there (an ally is not attacked)")
    nations = {st["units"][u]["nation"] for u in foes}
    if seat == "saruman" and st["restrained"] == st["turn"] and nations & {"gondor", "rohan"}:
        raise refuse("after Denethor's mind battle with Saruman, Saruman attacks no Gondor or Rohan unit this turn",
                     S_CC1)
    if seat in ("gondor",) and not mobilization._mobilized(rs, st, "gondor"):
        only = [m for m in mine if m not in ITHILIEN_GROUP]
        if not only and lookup._bd(rs, st).province_of[hx] not in ("south-ithilien", "north-ithilien"):
            raise refuse("before Gondor mobilizes its South Ithilien units attack only within Ithilien", S_MOB)
    return (hx,)


def _a_attack(rs, st, seat, args, dice):
    hx = args[0]
    foes = [u for u in units_in(st, hx) if not allied(st, seat, lookup._unit_seat(rs, st, u))]
    ev = [Event(public=f"{title(seat)} attacks at {hx}: " + ", ".join(st["units"][u]["name"] for u in foes) +
                       " (the base game's combat: the table resolves it; `lose <unit> <sp>` records losses).")]
    if seat == "gondor" and st["players"] == 5 and any(st["units"][u]["nation"] == "rohan" for u in foes) \
            and not st["rohan_attacked"]:
        st["rohan_attacked"] = True
        ev.append(Event(public="Gondor has attacked Rohan: Rohan's victory no longer needs Gondor to hold Minas "
                               "Tirith.", section=S_FIVE))
    return ev


def _p_lose(rs, st, seat, w):
    if len(w) != 2 or not w[1].isdigit():
        raise lookup._usage(rs, "lose")
    uid = w[0].lower()
    if uid not in st["units"]:
        raise refuse(f"no army unit `{w[0][:20]}`")
    if lookup._unit_seat(rs, st, uid) != seat:
        raise refuse("a seat records its own losses")
    n = int(w[1])
    if not 1 <= n <= st["units"][uid]["sp"]:
        raise refuse(f"{st['units'][uid]['name']} has {st['units'][uid]['sp']} SP")
    return (uid, str(n))


def _a_lose(rs, st, seat, args, dice):
    u = st["units"][args[0]]
    u["sp"] -= int(args[1])
    return [Event(public=f"{u['name']} loses {args[1]} SP" + (" and is eliminated." if u["sp"] <= 0 else
                                                               f" ({u['sp']} left)."))]


def _p_kill(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "kill")
    cid = lookup._char(rs, st, w[0])
    c = st["chars"][cid]
    if not c["alive"]:
        raise refuse(f"{c['name']} is dead already")
    if c["seat"] != seat and seat not in rs.active_seats(st):
        raise refuse("a character's death is recorded by its seat, or by the seat to act")
    return (cid,)


def _a_kill(rs, st, seat, args, dice):
    cid = args[0]
    c = st["chars"][cid]
    c["alive"] = False
    ruler_before = st.get("ruler_seen")
    ev = [Event(public=f"{c['name']} is killed.", reveals=c["hidden"])]
    if st["ring"]["bearer"] == cid:
        ev.append(Event(public=f"The Ring lies with {c['name']}'s body; the base game's rules say who takes it "
                               "(`ring to` by the table's ruling)."))
    if st["palantir"] == cid:
        st["palantir"] = None
    for item, holder in st["items"].items():
        if holder == cid:
            st["items"][item] = "@" + c["hex"]
    ev += _succession_news(rs, st, ruler_before)
    return ev + dd_succession._check_king(rs, st)


def _succession_news(rs, st, before) -> list[Event]:
    ev = []
    r = dd_succession._ruler(rs, st)
    if r != st.get("ruler_seen"):
        st["ruler_seen"] = r
        ev.append(Event(public=(f"{st['chars'][r]['name']} now rules Gondor." if r else "Gondor has no ruler now.")
                        + " (DD.1)", section="DD.1"))
    k = dd_succession._king_of_rohan(rs, st)
    if k != st.get("king_seen"):
        st["king_seen"] = k
        word = "Queen" if k == "eowyn" else "King"
        ev.append(Event(public=(f"{st['chars'][k]['name']} is {word} of Rohan." if k else "Rohan has no king.")
                        + " (GG.1)", section="GG.1"))
    return ev


def _p_capture(rs, st, seat, w):
    if len(w) != 1 or w[0].lower() not in lookup._bd(rs, st).places:
        raise lookup._usage(rs, "capture")
    lookup._turn_of(rs, st, seat, "taking a place")
    place = w[0].lower()
    hx = lookup._bd(rs, st).places[place]
    if st["control"].get(place) == seat:
        raise refuse("you control it already")
    if not any(lookup._unit_seat(rs, st, u) == seat for u in units_in(st, hx)):
        raise refuse("an army unit of yours must be in the place's hex")
    if any(not allied(st, seat, lookup._unit_seat(rs, st, u)) for u in units_in(st, hx)):
        raise refuse("enemy units are still there")
    return (place,)


def _a_capture(rs, st, seat, args, dice):
    place = args[0]
    before = st["control"].get(place)
    st["control"][place] = seat
    return [Event(public=f"{title(seat)} takes control of {place} (from {title(before)}).")]


def _p_claim(rs, st, seat, w):
    if w:
        raise lookup._usage(rs, "claim")
    if seat in st["claims"]:
        raise refuse("your claim stands")
    if seat == "rohan" or (seat == "gondor" and not st["ring"]["gondor_had"]):
        raise refuse(f"{title(seat)}'s victory conditions are the variant's, checked by the bot", S_FIVE)
    return ()


def _a_claim(rs, st, seat, args, dice):
    st["claims"].append(seat)
    return [Event(public=f"{title(seat)} claims its victory conditions (the base game's, or the Dark Power's "
                         "for a Gondor holding the Ring): the table contests it with a vote or the moderator.")]
