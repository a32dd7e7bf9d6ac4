"""Votes: ``vote end`` (end the game, no winner) or ``vote replace <seat>`` (hand an absent player's seat
to someone else: once it passes, any player may `/game sub` that seat). The proposer votes for it;
every other seat (for a replacement: but the seat in question) answers ``accept v1`` / ``refuse v1``;
it passes when all have accepted, or when the moderator accepts it with a reason (the moderator's
ruling is final). One refusal ends it."""
from __future__ import annotations

from engine.core import Event, InvalidOrder, Result
from engine.modes.common import is_gm, parse_seat, refuse, table, title
from engine.orders import Order


def _votes(st) -> list:
    return table(st)["votes"]


def vote(st, vid):
    return next((v for v in _votes(st) if v["id"] == vid), None)


def parse_vote(rs, st, seat, words):
    if is_gm(seat):
        raise refuse("The moderator rules on votes and calls none: `/game end` ends a game.")
    if words == ["end"]:
        return ("end",)
    if len(words) == 2 and words[0].lower() == "replace":
        who = parse_seat(rs, words[1])
        if who == seat:
            raise refuse("To leave your seat, ask the creator (`/game sub`).")
        return ("replace", who)
    raise InvalidOrder("usage: `vote end` or `vote replace <seat>`")


def _needed(rs, v) -> list[str]:
    return [s for s in rs.inner.seats if s != v.get("seat")]


def _passes(rs, st, v, by: str, reason: str) -> list[Event]:
    v["status"] = "passed"
    v["ruling"] = {"by": by, "reason": reason}
    if v["kind"] == "end":
        table(st)["ended"] = {"summary": f"The game was ended by a vote ({v['id']}, {reason})."}
        return [Event(public=f"Vote {v['id']} passes ({reason}): the game ends, with no winner.", new_phase=True)]
    return [Event(public=f"Vote {v['id']} passes ({reason}): any player may now hand {title(v['seat'])}'s seat "
                         f"to someone else with `/game sub seat:{v['seat']}`.")]


def apply_vote(rs, st, seat, args, dice):
    vid = f"v{len(_votes(st)) + 1}"
    v = {"id": vid, "kind": args[0], "seat": args[1] if len(args) > 1 else None, "by": seat,
         "accepted_by": [seat], "status": "open", "ruling": None}
    _votes(st).append(v)
    what = "to end the game" if v["kind"] == "end" else f"to replace {title(v['seat'])}'s player"
    line = Event(public=f"{title(seat)} calls vote {vid} {what}: `accept {vid}` or `refuse {vid}`.")
    if set(v["accepted_by"]) >= set(_needed(rs, v)):
        return [line] + _passes(rs, st, v, "+".join(v["accepted_by"]), "every seat voting agreed")
    return [line]


def parse_answer(rs, st, seat, verb, vid, reason):
    v = vote(st, vid)
    if v is None:
        raise refuse(f"There is no vote `{vid[:10]}`.")
    if v["status"] != "open":
        raise refuse(f"Vote {vid} is already {v['status']}.")
    if is_gm(seat):
        if not reason:
            raise InvalidOrder(f"the moderator's ruling gives its reason: `{verb} {vid} because <reason>`")
    elif seat not in _needed(rs, v):
        raise refuse(f"{title(seat)} does not vote on {vid}.")
    elif seat in v["accepted_by"]:
        raise refuse(f"You have already voted for {vid}.")
    return (vid,) + (("because", reason) if reason else ())


def apply_answer(rs, st, seat, verb, args):
    v = vote(st, args[0])
    reason = " ".join(args[2:]) if len(args) > 2 else None
    if verb == "refuse":
        v["status"] = "refused"
        v["ruling"] = {"by": seat, "reason": reason}
        return [Event(public=f"{title(seat)} votes against {v['id']}" + (f" ({reason})" if reason else "")
                             + ": it fails.")]
    if is_gm(seat):
        return _passes(rs, st, v, seat, reason)
    v["accepted_by"].append(seat)
    if set(v["accepted_by"]) >= set(_needed(rs, v)):
        return [Event(public=f"{title(seat)} votes for {v['id']}.")] + _passes(
            rs, st, v, "+".join(sorted(v["accepted_by"])), "every seat voting agreed")
    return [Event(public=f"{title(seat)} votes for {v['id']}.")]


def result(st) -> Result | None:
    ended = table(st).get("ended")
    return Result(None, ended["summary"]) if ended else None


def passed_replacements(st) -> list[str]:
    return [v["seat"] for v in _votes(st) if v["kind"] == "replace" and v["status"] == "passed"]


VERBS = (
    Order("vote", "vote end | vote replace <seat>: every other seat (or the moderator) decides", parse_vote, apply_vote,
          unlisted='a vote is called when a seat wants one; offered by no turn', dice=False),
)
