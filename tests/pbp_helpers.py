"""A tiny ruleset for play-by-post tests: two seats taking turns, dice, a
hidden card that a `peek` reveals, and optional odds. Registered on import:
a ruleset from outside the engine joins with one `register` call."""
from __future__ import annotations

from engine.core import Action, Event, IllegalOrder, InvalidOrder, Result, RulesetBase
from engine.dice import Dice, new_dice
from engine.rulesets import register


class Tiny(RulesetBase):
    has_odds = True
    name = "tiny-pbp"
    title = "Tiny PBP"
    seats = ("red", "blue")

    def new_game(self, options, seed, fixture=None):
        if options:
            raise InvalidOrder(f"unknown option `{sorted(options)[0]}` for tiny-pbp")
        st = {"dice": new_dice(seed), "turn": 1, "phase": "red", "done": [], "notes": [], "total": 0,
              "over": None, "hidden": {}}
        st["hidden"]["card"] = Dice(st["dice"]).randint(1, 9, "card")  # blue's secret
        return st

    def active_seats(self, st):
        return [] if st["over"] else [st["phase"]]

    def legal_actions(self, st, seat):
        if seat in self.active_seats(st):
            yield Action("note", ("a",))
            yield Action("roll")
            yield Action("done")

    def parse(self, st, seat, text):
        w = text.split()
        if not w or w[0] not in ("note", "roll", "peek", "done", "win", "owe", "pay"):
            raise InvalidOrder(f"`{text[:20]}` is not an order here")
        a = Action(w[0], tuple(w[1:]))
        self.check(st, seat, a)
        return a

    def format(self, a):
        return str(a)

    def check(self, st, seat, a):
        if seat not in self.active_seats(st):
            raise IllegalOrder("not your phase", "1.0")
        if a.verb == "done" and st.get("owed"):
            raise IllegalOrder("you owe a payment: `pay` first", "3.0")

    def deadline_action(self, st, seat):
        """At a `pass` deadline, a debt the rules require is paid first."""
        return Action("pay") if st.get("owed") and seat in self.active_seats(st) else None

    def apply(self, st, seat, a):
        if a.verb == "note":
            st["notes"].append(" ".join(a.args))
            return [Event(public=f"{seat} notes {' '.join(a.args)}")]
        if a.verb == "roll":
            d = Dice(st["dice"])
            v = d.d6("roll")
            st["total"] += v
            return [Event(public=f"{seat} rolls {v}", rolls=d.rolls)]
        if a.verb == "peek":
            return [Event(public=f"{seat} peeks", private={seat: f"the card is {st['hidden']['card']}"}, reveals=True)]
        if a.verb == "owe":
            st["owed"] = True
            return [Event(public=f"{seat} owes a payment (3.0)")]
        if a.verb == "pay":
            st["owed"] = False
            return [Event(public=f"{seat} pays (3.0)")]
        if a.verb == "win":
            st["over"] = {"winner": seat, "summary": f"{seat} wins"}
            return [Event(public=f"{seat} wins", new_phase=True)]
        st["done"].append(seat)
        st["phase"] = "blue" if st["phase"] == "red" else "red"
        if st["phase"] == "red":
            st["turn"] += 1
        return [Event(public=f"{seat} is done. {st['phase']} to act.", new_phase=True)]

    def view(self, st, seat):
        v = {"ruleset": self.name, "turn": st["turn"], "phase": st["phase"], "phase_title": f"{st['phase']} phase",
             "active": self.active_seats(st), "notes": list(st["notes"]), "total": st["total"], "units": [],
             "night": False, "turns": 99}
        if seat == "blue":
            v["card"] = st["hidden"]["card"]
        return v

    def secret_text(self, st, seat):
        return f"Your card is {st['hidden']['card']}." if seat == "blue" else None

    def result(self, st):
        return Result(st["over"]["winner"], st["over"]["summary"]) if st["over"] else None

    def help(self, topic=None):
        return "Tiny: note, roll, peek, done."

    def odds(self, st, seat, text):
        w = text.split()
        if len(w) != 2 or w[0] != "roll" or not w[1].isdigit():
            raise InvalidOrder("odds for `roll N`: the chance that a d6 is at least N")
        n = int(w[1])
        if not 1 <= n <= 6:
            raise IllegalOrder("N is 1 to 6", "2.0")
        return f"P(d6 ≥ {n}) = {7 - n}/6"


TINY = register(Tiny())


class Trio(RulesetBase):
    """Three seats with a fixed player-turn order (issue 14): each round begins with a council where
    all three act at once (each `done` when finished), then each seat has its own turn in
    ``turn_order``; `note` and `roll` in between."""

    name = "trio-pbp"
    title = "Trio PBP"
    seats = ("north", "east", "south")
    turn_order = ("south", "north", "east")

    def new_game(self, options, seed, fixture=None):
        if options:
            raise InvalidOrder(f"unknown option `{sorted(options)[0]}` for trio-pbp")
        return {"dice": new_dice(seed), "round": 1, "phase": "council", "at": 0, "done": [], "notes": [],
                "over": None}

    def active_seats(self, st):
        if st["over"]:
            return []
        if st["phase"] == "council":
            return [s for s in self.turn_order if s not in st["done"]]
        return [self.turn_order[st["at"]]]

    def legal_actions(self, st, seat):
        if seat in self.active_seats(st):
            yield Action("note", ("x",))
            yield Action("done")

    def parse(self, st, seat, text):
        w = text.split()
        if not w or w[0] not in ("note", "roll", "done", "win"):
            raise InvalidOrder(f"`{text[:20]}` is not an order here")
        a = Action(w[0], tuple(w[1:]))
        if seat not in self.active_seats(st):
            raise IllegalOrder("not your turn", "1.0")
        return a

    def format(self, a):
        return str(a)

    def check(self, st, seat, a):
        self.parse(st, seat, str(a))

    def apply(self, st, seat, a):
        if a.verb == "note":
            st["notes"].append(f"{seat}: {' '.join(a.args)}")
            return [Event(public=f"{seat} notes {' '.join(a.args)}")]
        if a.verb == "roll":
            d = Dice(st["dice"])
            return [Event(public=f"{seat} rolls {d.d6('roll')}", rolls=d.rolls)]
        if a.verb == "win":
            st["over"] = {"winner": seat, "summary": f"{seat} wins"}
            return [Event(public=f"{seat} wins", new_phase=True)]
        if st["phase"] == "council":
            st["done"].append(seat)
            if self.active_seats(st):
                return [Event(public=f"{seat} is done with the council.")]
            st["phase"], st["at"], st["done"] = "turns", 0, []
            return [Event(public=f"The council ends; {self.turn_order[0]}'s turn.", new_phase=True)]
        st["at"] += 1
        if st["at"] == len(self.turn_order):
            st["round"] += 1
            st["phase"], st["at"] = "council", 0
            return [Event(public=f"Round {st['round']}: the council.", new_phase=True)]
        return [Event(public=f"{self.turn_order[st['at']]}'s turn.", new_phase=True)]

    def view(self, st, seat):
        title = "council" if st["phase"] == "council" else f"{self.turn_order[st['at']]}'s turn"
        return {"ruleset": self.name, "turn": st["round"], "phase": f"{st['phase']}-{st['at']}",
                "phase_title": f"Round {st['round']}: {title}", "active": self.active_seats(st),
                "notes": list(st["notes"]), "units": [], "night": False, "turns": 99, "done": list(st["done"])}

    def result(self, st):
        return Result(st["over"]["winner"], st["over"]["summary"]) if st["over"] else None

    def help(self, topic=None):
        return "Trio: note, roll, done; a council, then each seat's turn."


TRIO = register(Trio())
