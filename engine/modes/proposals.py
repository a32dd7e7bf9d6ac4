"""Assist play: a declared action the engine does not know or refuses (``/order`` text it cannot
parse, or ``!`` before an order it refuses) becomes ``declare <text>``: a public proposal
(``d1``, ``d2``, …) with the engine's objection. The moderator rules with ``accept <id> because
<reason>`` or ``refuse <id> because <reason>``; without one, it takes effect once every other seat
has accepted it (one refusal ends it). A ruling is an order like any other: logged with who made it
and why, in ``/game log`` and the export, and replayed. ``accept``/``refuse`` of a pact id (``k1``)
is the pact's (``talk.py``). Once accepted, an order the engine refused only on a rule is carried
out by the engine with that rule set aside where the ruleset can (``apply_overriding``: the SPI
games' moves); otherwise the moderator (or the players, at tabletop) carry out its effect with the
table's vocabulary."""
from __future__ import annotations

from engine.core import Event, InvalidOrder, OrderError, clone
from engine.modes import talk, trade, votes
from engine.modes.common import free_text, is_gm, refuse, split_reason, table, title, with_reason
from engine.orders import Order


def objection(rs, st, seat, text) -> str:
    """What the engine says of the declared text (it is never applied by the engine)."""
    try:
        rs.inner.parse(st, seat, text)
    except OrderError as e:
        return f"{e.kind}: {e}"
    return "the engine would accept it as an order"


def parse_declare(rs, st, seat, words):
    if is_gm(seat):
        raise refuse("The moderator rules on declared actions and declares none.")
    text = free_text(words, "declared action")
    return (text,)


def apply_declare(rs, st, seat, args, dice):
    t = table(st)
    did = f"d{len(t['proposals']) + 1}"
    obj = objection(rs, st, seat, args[0])
    t["proposals"].append({"id": did, "seat": seat, "text": args[0], "objection": obj, "status": "open",
                           "accepted_by": [], "ruling": None})
    obj = obj if len(obj) <= 200 else obj[:199] + "…"
    t["proposals"][-1]["objection"] = obj
    shown = public_text(rs, args[0])
    ev = Event(public=f"Declared action {did} by {title(seat)}: `{shown}`. The engine: {obj}. "
                      f"The moderator (or, with none, every other seat) rules: `accept {did}` / `refuse {did}`.")
    if shown != args[0]:  # a secret order declared (Gondor's oil, 16.74): as typed to its seat and the moderator
        ev.private = {s: f"declared action {did} as typed: `{args[0]}`" for s in (seat, "gm")}
    return [ev]


def public_text(rs, text: str) -> str:
    """A declared text as the public reads it: the ruleset masks its own secret orders."""
    try:
        return rs.inner.public_order_text(text)
    except Exception:  # a text the ruleset cannot read is no order of its, so nothing of it is secret
        return text


def proposal(st, did):
    return next((p for p in table(st)["proposals"] if p["id"] == did), None)


def carry_out(rs, st, did) -> list[Event]:
    """An accepted declared action (assist play) that the engine refused only on a rule
    (IllegalOrder): applied with the rule check set aside where the ruleset can
    (``RulesetBase.apply_overriding``), on a copy, so that nothing changes if it cannot. Returns
    the events (with a first line saying so), or [] where the moderator carries it out by hand."""
    p = proposal(st, did)
    if rs.mode != "assist" or not p["objection"].startswith("illegal:"):
        return []
    trial = clone(st)
    try:
        events = rs.inner.apply_overriding(trial, p["seat"], p["text"])
    except Exception:  # noqa: BLE001 (a rule the engine could not set aside: by hand, as ever; deterministic)
        events = None
    if events is None:
        return []
    st.clear()
    st.update(trial)
    proposal(st, did)["applied"] = True
    return [Event(public=f"The engine carries out {did} as declared, the rule set aside by the ruling.")] + list(events)


def _by_hand(rs, st, did) -> str:
    p = proposal(st, did)
    if p.get("applied") or not p["objection"].startswith("illegal:") or rs.mode != "assist":
        return ""
    return " The engine cannot carry it out: the moderator does, with the table's vocabulary."


def _parse_ruling(verb):
    def parse(rs, st, seat, words):
        words, reason = split_reason(words)
        if not words:
            raise InvalidOrder(f"usage: `{verb} <id> [because <reason>]`")
        kid = words[0].lower()
        if kid.startswith("v"):
            if len(words) != 1:
                raise InvalidOrder(f"usage: `{verb} <vote id> [because <reason>]`")
            return votes.parse_answer(rs, st, seat, verb, kid, reason)
        if kid.startswith("t"):
            if reason:
                raise InvalidOrder("a trade is answered without a reason")
            return trade.parse_answer(st, seat, verb, kid, words[1:])
        if kid.startswith("k"):
            if reason:
                raise InvalidOrder("a pact is answered without a reason")
            return talk.parse_answer(st, seat, verb, kid, words[1:])
        if len(words) != 1:
            raise InvalidOrder(f"usage: `{verb} <id> [because <reason>]`")
        p = proposal(st, kid)
        if p is None:
            raise refuse(f"There is no proposal or pact `{kid[:10]}` that you can see.")
        if p["status"] != "open":
            raise refuse(f"Declared action {kid} is already {p['status']}.")
        if is_gm(seat):
            if not reason:
                raise InvalidOrder(f"the moderator's ruling gives its reason: `{verb} {kid} because <reason>`")
        elif seat == p["seat"]:
            raise refuse("The other seats (or the moderator) rule on your declared action.")
        elif verb == "accept" and seat in p["accepted_by"]:
            raise refuse(f"You have already accepted {kid}.")
        return with_reason((kid,), reason)
    return parse


def _apply_ruling(verb):
    def apply(rs, st, seat, args, dice):
        if args[0].startswith("k"):
            return talk.apply_answer(st, seat, verb, args[0])
        if args[0].startswith("t"):
            return trade.apply_answer(st, seat, verb, args[0])
        if args[0].startswith("v"):
            return votes.apply_answer(rs, st, seat, verb, args)
        did = args[0]
        reason = " ".join(args[2:]) if len(args) > 2 else None
        if is_gm(seat):
            done = carry_out(rs, st, did) if verb == "accept" else []  # before the ruling: it may swap the state
            p = proposal(st, did)
            p["status"] = "accepted" if verb == "accept" else "refused"
            p["ruling"] = {"by": seat, "reason": reason}
            hand = _by_hand(rs, st, did) if verb == "accept" else ""
            return [Event(public=f"Ruling on {p['id']} (`{public_text(rs, p['text'])}`): **{p['status']}** by the "
                                 f"moderator: {reason}.{hand}")] + done
        p = proposal(st, did)
        if verb == "refuse":
            p["status"] = "refused"
            p["ruling"] = {"by": seat, "reason": reason}
            return [Event(public=f"{title(seat)} refuses declared action {p['id']}"
                                 + (f": {reason}" if reason else "") + ". It does not take effect.")]
        p["accepted_by"].append(seat)
        others = [s for s in rs.inner.seats if s != p["seat"]]
        line = f"{title(seat)} accepts declared action {p['id']}" + (f": {reason}" if reason else "") + "."
        done: list[Event] = []
        if set(p["accepted_by"]) >= set(others):
            done = carry_out(rs, st, did)
            p = proposal(st, did)
            p["status"] = "accepted"
            p["ruling"] = {"by": "+".join(sorted(p["accepted_by"])), "reason": "every other seat accepted"}
            line += f" Every other seat has: **accepted** (`{public_text(rs, p['text'])}`).{_by_hand(rs, st, did)}"
        return [Event(public=line)] + done
    return apply


def view_part(rs, st, seat) -> list[dict]:
    out = []
    for p in table(st)["proposals"]:
        p = dict(p)
        if not (seat is not None and (is_gm(seat) or seat == p["seat"])):
            p["text"] = public_text(rs, p["text"])
        out.append(p)
    return out


VERBS = (
    Order("declare", "declare <text>: a declared action, for a ruling (or `!<order>`)", parse_declare, apply_declare,
          modes=("assist", "tabletop"), unlisted='free text', dice=False),
    Order("accept", "accept <id> [because <reason>]: a declared action (the moderator gives a reason), a pact, a trade or a vote",
          _parse_ruling("accept"), _apply_ruling("accept"),
          redact=lambda args: "accept (secret)" if "secret" in args[:2] else None,
          unlisted='a reply to the declared action, pact, trade or vote it names by id', dice=False),
    Order("refuse", "refuse <id> [because <reason>]", _parse_ruling("refuse"), _apply_ruling("refuse"),
          redact=lambda args: "refuse (secret)" if "secret" in args[:2] else None,
          unlisted='a reply to the declared action, pact, trade or vote it names by id', dice=False),
)
