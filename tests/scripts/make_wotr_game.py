"""Writes tests/scripts/wotr_game.txt: a five-player War of the Ring over four game-turns through the
console (`palantir local wotr --seed 7 --options turns=4 --script <it>`), run by tests/e2e/test_wotr_console.py.
On the way: Gondor's secret demand (AA.2), the hidden Fellowship walking south, the Nazgul flying after it
(two more each turn) and searching where they are, searches that locate and miss, an alliance (CC.2), a barter (BB.2), refused orders (EE, AA.2), Boromir's attempt on the Ring (075), Denethor's death and the succession
(DD.1), and the victory check at the end."""
from pathlib import Path

SEATS = ("saruman", "fellowship", "rohan", "gondor", "dark-power")
L = ["# A five-player War of the Ring (seed:001) over four turns; written by tests/scripts/make_wotr_game.py."]


def say(seat, *orders):
    L.append(f"as {seat}")
    L.extend(orders)


def ring(extra=None):
    for s in SEATS:
        say(s, *((extra or {}).get(s, [])), "/done")


def events(cards):
    for s in SEATS:
        say(s, f"/order draw {cards.get(s, 'none')}")


WALK = {1: "W1911 W1814", 2: "W1915 W2917", 3: "W2620", 4: "W2719"}
SEARCH = {1: "/order search gorgoroth:1 nurn:1", 2: "/order search hollin:2", 3: "/order search lothlorien:4",
          4: "/order search lothlorien:6 nurn:2"}
# the Nazgul fly after the Fellowship: two out of Mordor on turn 1, two more each turn (Hidden Movement)
NAZGUL = {1: ["naz1 W2016", "naz2 W2016"], 2: ["naz1 W2818", "naz2 W2818", "naz3 W2818", "naz4 W2818"],
          3: ["naz5 W2818", "naz6 W2818"], 4: []}

for t in (1, 2, 3, 4):
    ring({"gondor": ["/order demand on"]} if t == 1 else None)
    events({"gondor": "075", "saruman": "041", "rohan": "096"} if t == 1 else {})
    say("dark-power", SEARCH[t])
    # player turns: Saruman, Fellowship, Rohan, Gondor, Dark Power
    say("saruman", *(["/order ally gondor"] if t == 1 else []), "/done")
    # Boromir walks with the Ringbearer while Gondor's demand holds (AA.2): until 075 is played in turn 3
    moves = [f"/order move {c} {WALK[t]}" for c in ("frodo", "sam", "boromir") if c != "boromir" or t <= 3]
    say("fellowship", *moves, *(["/order ally gondor"] if t == 2 else []), "/done")
    rohan = ["!expect-error /order event 096"] if t == 1 else []
    if t == 1:
        rohan.append("/order barter gondor Shadowfax for the Swan knights' help")
    say("rohan", *rohan, "/done")
    gondor = []
    if t == 1:
        gondor += ["!expect-error /order move boromir W2010", "/order agree b1", "/order ally saruman"]
    if t == 2:
        gondor += ["/order ally fellowship", "/order kill denethor"]
    if t == 3:
        gondor += ["/order event 075"]
    say("gondor", *gondor, "/done")
    if t == 3:
        say("fellowship", "/order seizure held")
    say("dark-power", *[f"/order move {m}" for m in NAZGUL[t]], "/done")
L.append("as gm")
L.append("/game status")
Path(__file__).with_name("wotr_game.txt").write_text("\n".join(L) + "\n")
