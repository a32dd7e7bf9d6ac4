"""Private diplomacy: ``whisper <seat> <text>`` (to that seat's holder and the moderator; the public
reads only that a whisper was sent), ``say <seat> <text>`` (the same, in public: a game with
``whispers=public-only``), and pacts between seats: ``pact <seat>[+<seat>...] <text>`` in public or
``pact secret <seat>[+<seat>...] <text>`` known only to its parties and the moderator; each party
agrees with ``accept <pact id>`` (``k1``, ``k2``, …). Everything is in the state, so it replays and
is revealed in the export once the game is over."""
from __future__ import annotations

from engine.core import Event, InvalidOrder
from engine.modes.common import free_text, is_gm, parse_seat, refuse, table, title
from engine.orders import Order


def _policy(st) -> str:
    return table(st)["whispers"]


def parse_whisper(rs, st, seat, words):
    if _policy(st) != "on":
        raise refuse("Whispers are not allowed in this game" + (": talk in the channel (`say`)."
                                                               if _policy(st) == "public-only" else "."))
    if len(words) < 2:
        raise InvalidOrder("usage: `whisper <seat> <text>`")
    to = parse_seat(rs, words[0], gm_ok=True)
    if to == seat:
        raise refuse("You cannot whisper to yourself.")
    return (to, free_text(words[1:]))


def apply_whisper(rs, st, seat, args, dice):
    to, text = args
    t = table(st)
    t["whispers_log"].append({"n": len(t["whispers_log"]) + 1, "from": seat, "to": to, "text": text})
    private = {to: f"whisper from {title(seat)}: {text}"}
    if not (is_gm(to) or is_gm(seat)):
        private["gm"] = f"whisper {title(seat)} → {title(to)}: {text}"
    return [Event(public="", private=private)]


def parse_say(rs, st, seat, words):
    if _policy(st) == "off":
        raise refuse("Table talk through the bot is off in this game.")
    if len(words) < 2:
        raise InvalidOrder("usage: `say <seat> <text>`")
    return (parse_seat(rs, words[0], gm_ok=True), free_text(words[1:]))


def apply_say(rs, st, seat, args, dice):
    return [Event(public=f"{title(seat)} to {title(args[0])}: {args[1]}")]


def parse_pact(rs, st, seat, words):
    secret = bool(words) and words[0].lower() == "secret"
    words = words[1:] if secret else words
    if len(words) < 2:
        raise InvalidOrder("usage: `pact [secret] <seat>[+<seat>...] <text>`")
    if is_gm(seat):
        raise refuse("The moderator is party to no pact.")
    others = sorted({parse_seat(rs, w) for w in words[0].split("+")})
    if seat in others:
        raise refuse("A pact is with other seats.")
    return (*(("secret",) if secret else ()), "+".join(others), free_text(words[1:]))


def apply_pact(rs, st, seat, args, dice):
    secret = args[0] == "secret"
    others, text = (args[1], args[2]) if secret else (args[0], args[1])
    t = table(st)
    kid = f"k{len(t['pacts']) + 1}"
    parties = sorted({seat, *others.split("+")})
    t["pacts"].append({"id": kid, "by": seat, "parties": parties, "text": text, "secret": secret,
                       "agreed": [seat], "status": "proposed"})
    line = f"{title(seat)} proposes pact {kid} with {', '.join(title(s) for s in others.split('+'))}: {text}"
    if not secret:
        return [Event(public=line + f" (each party: `accept {kid}`).")]
    return [Event(public="", private={s: f"secret {line} (`accept {kid} secret`)." for s in [*parties, "gm"] if s != seat})]


def pact(st, kid) -> dict | None:
    return next((k for k in table(st)["pacts"] if k["id"] == kid), None)


def visible(k, seat) -> bool:
    return not k["secret"] or (seat is not None and (is_gm(seat) or seat in k["parties"]))


def parse_answer(st, seat, verb, kid, rest):
    """``accept``/``refuse`` of a pact (called by proposals.parse_ruling)."""
    k = pact(st, kid)
    if k is None or not visible(k, seat):
        raise refuse(f"There is no proposal or pact `{kid}` that you can see.")
    if seat not in k["parties"]:
        raise refuse(f"You are no party to pact {kid}.")
    if k["status"] != "proposed":
        raise refuse(f"Pact {kid} is already {k['status']}.")
    if verb == "accept" and seat in k["agreed"]:
        raise refuse(f"You have already accepted pact {kid}.")
    return (kid, *(("secret",) if k["secret"] else ()))


def apply_answer(st, seat, verb, kid):
    k = pact(st, kid)
    if verb == "refuse":
        k["status"] = "refused"
        line = f"{title(seat)} refuses pact {kid}."
    else:
        k["agreed"].append(seat)
        line = f"{title(seat)} accepts pact {kid}."
        if set(k["agreed"]) >= set(k["parties"]):
            k["status"] = "agreed"
            line += f" Pact {kid} is agreed: {k['text']}"
    if not k["secret"]:
        return [Event(public=line)]
    return [Event(public="", private={s: f"(secret) {line}" for s in [*k["parties"], "gm"] if s != seat})]


def view_part(st, seat) -> dict:
    t = table(st)
    return {
        "whispers": _policy(st),
        "pacts": [dict(k) for k in t["pacts"] if visible(k, seat)],
        "whispered": [dict(w) for w in t["whispers_log"]
                      if seat is not None and (is_gm(seat) or seat in (w["from"], w["to"]))],
    }


def secret_lines(st, seat) -> list[str]:
    return [f"secret pact {k['id']} ({k['status']}) of {', '.join(title(s) for s in k['parties'])}: {k['text']}"
            for k in table(st)["pacts"] if k["secret"] and (is_gm(seat) or seat in k["parties"])]


VERBS = (
    Order("whisper", "whisper <seat> <text>: privately, through the bot (the moderator reads it too)",
          parse_whisper, apply_whisper, redact=lambda args: "whisper (private)", unlisted='free text', dice=False,
          touches=("table",)),
    Order("say", "say <seat> <text>: to a seat, in public", parse_say, apply_say, unlisted='free text', dice=False,
          touches=()),
    Order("pact", "pact [secret] <seat>[+<seat>...] <text>: an agreement; each party `accept <id>`",
          parse_pact, apply_pact, redact=lambda args: "pact (secret)" if args[0] == "secret" else None,
          unlisted='free text', dice=False),
)
