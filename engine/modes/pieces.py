"""Generic pieces (tabletop play, and the moderator's adjustments): ``place``, ``move``, ``remove``,
``flip``. A piece may be hidden from the other seats: ``hidden`` (face down: others see a counter at
its place, not what it is) or ``secret`` (others do not see it at all). Its owner and the moderator
see it as it is. An order on a hidden piece carries the word in its canonical text, so that the
public log masks it (``redact``) without reading the state."""
from __future__ import annotations

from engine.core import Event, InvalidOrder, clone
from engine.modes.common import is_gm, need_id, parse_seat, refuse, split_reason, table, title, with_reason
from engine.orders import Order

HIDING = ("hidden", "secret")


def _pieces(st) -> dict:
    return table(st)["pieces"]


def _place(rs, text: str) -> str:
    try:
        return rs.inner.game_board().parse_place(text)
    except ValueError as e:
        raise InvalidOrder(str(e)) from None


def can_see(piece: dict, seat: str | None) -> bool:
    """Whether ``seat`` sees the piece as it is."""
    return not piece["hide"] or (seat is not None and (is_gm(seat) or seat == piece["owner"]))


def inner_unit(rs, st, seat: str, uid: str) -> dict | None:
    """A unit of the inner game that ``seat`` may adjust: the moderator any it sees (all), a seat at
    tabletop its own side's; None if not a unit (or not one the seat may handle, which reads the same)."""
    if uid in _pieces(st) or f"{seat}.{uid}" in _pieces(st):
        return None
    if is_gm(seat):
        units = rs.inner.full_view(st).get("units") or []
    elif rs.mode == "tabletop":
        units = [u for u in rs.inner.view(st, seat).get("units") or [] if u.get("side") == seat]
    else:
        return None
    return next((u for u in units if str(u.get("id")) == uid), None)


def key_of(pid: str, owner: str | None, hide: str | None) -> str:
    """A hidden piece is kept as ``<owner>.<id>``: ids typed have no dot, so no seat's piece, placed or
    refused, can tell that another seat's hidden piece has the same id."""
    return f"{owner}.{pid}" if hide else pid


def _visible_piece(st, seat: str, pid: str) -> dict:
    p = _pieces(st).get(pid)
    if p is None or not can_see(p, seat):
        p = _pieces(st).get(f"{seat}.{pid}") or p  # one's own hidden piece, by the id one gave it
    # one answer whether the piece does not exist or is hidden from this seat: nothing leaks
    if p is None or not can_see(p, seat):
        raise refuse(f"There is no piece `{pid}` that you can see.")
    return p


def _may_handle(p: dict, seat: str) -> None:
    if not (is_gm(seat) or p["owner"] in (None, seat)):
        raise refuse(f"`{p['id']}` belongs to {title(p['owner'])}: only they or the moderator handle it.")


def _gm_reason(rs, seat, reason):
    if is_gm(seat) and rs.mode != "tabletop" and not reason:
        raise InvalidOrder("the moderator gives a reason: `... because <reason>`")


# place <id> <place> [<kind>] [for <seat>] [hidden|secret] [because <reason>]
def parse_place(rs, st, seat, words):
    words, reason = split_reason(words)
    if len(words) < 2:
        raise InvalidOrder("usage: `place <id> <place> [<kind>] [for <seat>] [hidden|secret]`")
    pid, where, rest = need_id(words[0], "piece id"), _place(rs, words[1]), words[2:]
    hide = None
    if rest and rest[-1].lower() in HIDING:
        hide = rest.pop().lower()
    owner = None if is_gm(seat) else seat
    if len(rest) >= 2 and rest[-2].lower() == "for":
        if not is_gm(seat):
            raise refuse("Only the moderator places a piece for another seat.")
        owner = parse_seat(rs, rest[-1])
        rest = rest[:-2]
    if len(rest) > 1:
        raise InvalidOrder("usage: `place <id> <place> [<kind>] [for <seat>] [hidden|secret]`")
    kind = need_id(rest[0], "kind").lower() if rest else "piece"
    if hide and owner is None:
        raise InvalidOrder("a hidden piece has an owner: `for <seat>`")
    key = key_of(pid, owner, hide)
    if key in _pieces(st) or (hide is None and any(p["hide"] is None and p["id"] == pid for p in _pieces(st).values())):
        raise refuse(f"A piece `{pid}` is already on the table; choose another id.")
    _gm_reason(rs, seat, reason)
    args = [pid, where, kind]
    if is_gm(seat) and owner:
        args += ["for", owner]
    if hide:
        args.append(hide)
    return with_reason(tuple(args), reason)


def _split_args(args):
    args = list(args)
    reason = None
    if "because" in args:
        i = args.index("because")
        reason, args = " ".join(args[i + 1:]), args[:i]
    return args, reason


def apply_place(rs, st, seat, args, dice):
    a, reason = _split_args(args)
    hide = a.pop() if a[-1] in HIDING else None
    owner = a[4] if len(a) >= 5 and a[3] == "for" else (None if is_gm(seat) else seat)
    pid, where, kind = a[0], a[1], a[2]
    t = table(st)
    t["next_token"] += 1
    key = key_of(pid, owner, hide)
    _pieces(st)[key] = {"id": key, "at": where, "kind": kind, "owner": owner, "hide": hide, "token": t["next_token"]}
    pid = key
    why = f" ({reason})" if reason else ""
    full = f"{title(seat)} places {kind} `{pid}` at {where}" + (f" for {title(owner)}" if is_gm(seat) and owner else "") + why
    if hide is None:
        return [Event(public=full + ".")]
    public = (f"{title(seat)} places a face-down piece ?{t['next_token']} at {where}{why}." if hide == "hidden"
              else f"{title(seat)} places a secret piece{why}.")
    return [Event(public=public, private=_to_knowers(owner, full + f" ({hide})."))]


def _to_knowers(owner, text):
    return {s: text for s in {owner, "gm"} if s}


def _marked(p, args):
    return tuple(args) + ((p["hide"],) if p["hide"] else ())


# move <id> <place> [hidden|secret] [because <reason>]
def parse_move(rs, st, seat, words):
    words, reason = split_reason(words)
    if words and words[-1].lower() in HIDING:
        words = words[:-1]
    if len(words) != 2:
        raise InvalidOrder("usage: `move <id> <place>`")
    if inner_unit(rs, st, seat, words[0]) is not None:  # one of the game's own units
        _gm_reason(rs, seat, reason)
        where = _place(rs, words[1])
        rs.inner.adjust(clone(st), words[0], where)  # refused here if the game does not allow it
        return with_reason((words[0], where), reason)
    p = _visible_piece(st, seat, words[0])
    _may_handle(p, seat)
    where = _place(rs, words[1])
    if where == p["at"]:
        raise refuse(f"`{p['id']}` is already at {where}.")
    _gm_reason(rs, seat, reason)
    return with_reason(_marked(p, (p["id"], where)), reason)


def apply_move(rs, st, seat, args, dice):
    a, reason = _split_args(args)
    why = f" ({reason})" if reason else ""
    if a[0] not in _pieces(st):  # the game's own unit (parse checked it)
        return [Event(public=f"{title(seat)}: {rs.inner.adjust(st, a[0], a[1])}{why}.")]
    p = _pieces(st)[a[0]]
    before, p["at"] = p["at"], a[1]
    why = f" ({reason})" if reason else ""
    full = f"{title(seat)} moves {p['kind']} `{p['id']}` {before} → {p['at']}{why}."
    if not p["hide"]:
        return [Event(public=full)]
    public = (f"{title(seat)} moves face-down piece ?{p['token']} {before} → {p['at']}{why}." if p["hide"] == "hidden"
              else f"{title(seat)} moves a secret piece{why}.")
    return [Event(public=public, private=_to_knowers(p["owner"], full))]


# remove <id> [hidden|secret] [because <reason>]
def parse_remove(rs, st, seat, words):
    words, reason = split_reason(words)
    if words and words[-1].lower() in HIDING:
        words = words[:-1]
    if len(words) != 1:
        raise InvalidOrder("usage: `remove <id>`")
    if inner_unit(rs, st, seat, words[0]) is not None:
        _gm_reason(rs, seat, reason)
        rs.inner.adjust(clone(st), words[0], None)
        return with_reason((words[0],), reason)
    p = _visible_piece(st, seat, words[0])
    _may_handle(p, seat)
    _gm_reason(rs, seat, reason)
    return with_reason(_marked(p, (p["id"],)), reason)


def apply_remove(rs, st, seat, args, dice):
    a, reason = _split_args(args)
    if a[0] not in _pieces(st):
        return [Event(public=f"{title(seat)}: {rs.inner.adjust(st, a[0], None)}" + (f" ({reason})" if reason else "") + ".")]
    p = _pieces(st).pop(a[0])
    why = f" ({reason})" if reason else ""
    full = f"{title(seat)} removes {p['kind']} `{p['id']}` from {p['at']}{why}."
    if not p["hide"]:
        return [Event(public=full)]
    public = (f"{title(seat)} removes face-down piece ?{p['token']} from {p['at']}{why}." if p["hide"] == "hidden"
              else f"{title(seat)} removes a secret piece{why}.")
    return [Event(public=public, private=_to_knowers(p["owner"], full))]


# flip <id> [hidden|secret]: a hidden piece is revealed; a shown one with an owner turns face down
def parse_flip(rs, st, seat, words):
    words, reason = split_reason(words)
    if words and words[-1].lower() in HIDING:
        words = words[:-1]
    if len(words) != 1:
        raise InvalidOrder("usage: `flip <id>`")
    p = _visible_piece(st, seat, words[0])
    _may_handle(p, seat)
    if not p["hide"] and p["owner"] is None:
        raise refuse(f"`{p['id']}` has no owner to hide it from the others.")
    _gm_reason(rs, seat, reason)
    return with_reason(_marked(p, (p["id"],)), reason)


def apply_flip(rs, st, seat, args, dice):
    a, reason = _split_args(args)
    p = _pieces(st)[a[0]]
    why = f" ({reason})" if reason else ""
    if p["hide"]:
        p["hide"] = None
        return [Event(public=f"{title(seat)} reveals ?{p['token']}: {p['kind']} `{p['id']}` at {p['at']}{why}.",
                      reveals=True)]
    p["hide"] = "hidden"
    return [Event(public=f"{title(seat)} turns `{p['id']}` face down (now ?{p['token']}){why}.")]


def redact(verb):
    def r(args):
        a, _ = _split_args(args)
        if a and a[-1] == "secret":
            return f"{verb} (a secret piece)"
        if a and a[-1] == "hidden":
            if verb == "place":
                return f"place (a face-down piece) {a[1]}"
            if verb == "move":
                return f"move (a face-down piece) {a[1]}"
            return f"{verb} (a face-down piece)"
        return None
    return r


def view_units(rs, st, seat) -> list[dict]:
    """The pieces as the renderer's units, as ``seat`` sees them."""
    key = "area" if rs.inner.board_kind == "area" else "hex"
    out = []
    for p in _pieces(st).values():
        if can_see(p, seat):
            u = {"id": p["id"], "side": p["owner"], "type": p["kind"], "table": True,
                 **({"face_down": True} if p["hide"] else {})}
        elif p["hide"] == "hidden":
            u = {"id": f"?{p['token']}", "side": p["owner"], "type": "face-down", "table": True, "face_down": True}
        else:
            continue
        u.update({"hex": p["at"], "count": 1, "ratings": "", "reduced": False, "disrupted": False})
        if key == "area":
            u["area"] = p["at"]
        out.append(u)
    return out


def secret_lines(st, seat) -> list[str]:
    return [f"your {p['hide']} piece `{p['id']}` ({p['kind']}) at {p['at']}" if not is_gm(seat)
            else f"{title(p['owner'])}'s {p['hide']} piece `{p['id']}` ({p['kind']}) at {p['at']}"
            for p in _pieces(st).values() if p["hide"] and (is_gm(seat) or p["owner"] == seat)]


VERBS = (
    Order("place", "place <id> <place> [<kind>] [for <seat>] [hidden|secret] [because <reason>]",
          parse_place, apply_place, redact=redact("place"), vocabulary=True,
          unlisted="the table's pieces go where the players say (free places and reasons)", dice=False),
    Order("move", "move <id> <place> [because <reason>]", parse_move, apply_move, redact=redact("move"), vocabulary=True,
          unlisted="the table's pieces go where the players say (free places and reasons)", dice=False),
    Order("remove", "remove <id> [because <reason>]", parse_remove, apply_remove, redact=redact("remove"), vocabulary=True,
          unlisted="the table's pieces go where the players say (free places and reasons)", dice=False),
    Order("flip", "flip <id>: reveal a hidden piece, or turn one of yours face down", parse_flip, apply_flip,
          redact=redact("flip"), vocabulary=True,
          unlisted='a piece is turned when its owner chooses; offered by no turn', dice=False),
)
