"""A group's own file (issue 15: "a group that owns the game loads its own map, cards and charts"): one TOML
file, given as `charts=` (`/game new ruleset:wotr charts:<file>`, `options: charts=@file.toml` in the
console), that may carry any of these parts; what it leaves out stays the reconstruction's:

- the map: `[provinces.<id>]` and `[places]` (the schema of data/map.toml, checked by ``Board.from_text``);
- `[start]`: any piece's start hex (`frodo = "W2011"`, `gon-mt = "E0228"`, `naz3 = "E1231"`);
- `[characters.<id>]`: `name`, `seat`, `race`, `hex`, and ratings (`ring_rating`, `combat`, `morale`,
  `endurance`, `sorcery`: the Sorcery Rating AA.2 (a) asks about); it replaces every character of data/forces.toml, so the ones the variant's rules name
  must be there, with the seat the variant gives them;
- `[forces.<id>]`: the army units, `name`, `nation`, `race`, `kind`, `sp`, `hex` (it replaces them all;
  the two the Modifications to Mobilization name, `gon-ith` at E0630 and `roh-em` at W3022, stay);
- `[cards.events]`: `"075" = "Boromir Attempts to Seize the Ring. ..."`, the group's Event Cards by number
  (the four the variant names among them), and `[cards.magic]`: `sting = "Sting"` or
  `[cards.magic.<id>]` with `name` and `start` (the cards the seed names keep their places);
- `[charts.<id>]`: a chart replacing the reconstructed one of data/charts.toml (`combat`, `individual`,
  `search`), or one of the group's own (``charts.check_chart``).

Everything is checked when the game is created; a bad file is refused with one short reason and no game
is made. The game carries the file's text in its state (replays and exports read the same file)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.rulesets.wotr.board import Board
from engine.rulesets.wotr.charts import check_chart
from engine.rulesets.wotr.common import NATIONS, NINE, SEATS, cached_by_text, load_toml, toml_text

ID_RE = re.compile(r"^[a-z][a-z0-9-]{0,23}$")
CARD_RE = re.compile(r"^\d{3}$")
RACES = ("hobbit", "man-gondor", "man-rohan", "man-west", "elf", "dwarf", "wizard", "orc", "dunlending", "man-east",
         "nazgul", "other")
RATINGS = ("ring_rating", "combat", "morale", "endurance", "sorcery")
# the characters the variant's rules name, with the seat it gives them (Four- and Five-Player War of the Ring)
NAMED = {**{c: "fellowship" for c in NINE}, "denethor": "gondor", "faramir": "gondor", "imrahil": "gondor",
         "theoden": "rohan", "theodred": "rohan", "eomer": "rohan", "eowyn": "rohan"}
FIXED_HEX = {"faramir": "E0630", "eomer": "W3022"}  # Modifications to Mobilization
FIXED_RING = {"denethor": 3, "boromir": 3}  # AA.1, AA.2 (b)
NAMED_UNITS = {"gon-ith": ("gondor", "E0630"), "roh-em": ("rohan", "W3022")}  # five SP of cavalry each
NAMED_EVENTS = ("075", "092", "093", "096")
# the Magic Cards the seed names (Historical Locations of Magic Cards), by the ids the rules use
NAMED_MAGIC = ("sting", "mithril", "glamdring", "anduril", "lembas", "elven-cloak", "elven-rope", "galadriels-light",
               "shadowfax", "athelas")
RESERVED = ("nazgul", "none", "all") + tuple(f"naz{i}" for i in range(1, 10))
PARTS = ("provinces", "places", "terrains", "start", "characters", "forces", "cards", "charts", "reconstructed",
         "reason", "title")


@dataclass
class GroupFile:
    text: str
    board: object | None = None  # a Board, if the file carries a map
    start: dict = field(default_factory=dict)
    characters: dict | None = None
    units: dict | None = None
    items: dict | None = None
    events: dict | None = None
    charts: dict = field(default_factory=dict)


def _short(x) -> str:
    return str(x)[:24]


def _int(where: str, v, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"{where}: a whole number from {lo} to {hi}, not `{_short(v)}`")
    return v


def _text(where: str, v, most: int = 40) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > most:
        raise ValueError(f"{where}: a text of 1 to {most} characters")
    return v.strip()


def _table(where: str, v) -> dict:
    if not isinstance(v, dict) or not v:
        raise ValueError(f"{where} is a table with entries")
    return v


def _id(kind: str, k: str) -> str:
    if not ID_RE.match(k) or k in RESERVED:
        raise ValueError(f"bad {kind} id `{_short(k)}` (lower-case letters, digits and -; not {', '.join(RESERVED[:3])} "
                         "or naz1-naz9)")
    return k


def load(text: str) -> GroupFile:
    """The group's file, checked (ValueError with a short reason). Cached by its text."""
    return cached_by_text(_CACHE, text, _load)


def _load(text: str) -> GroupFile:
    data = toml_text(text, "the group file")
    unknown = [k for k in data if k not in PARTS]
    if unknown:
        raise ValueError(f"unknown part `[{_short(unknown[0])}]` in the group file; parts: provinces, places, start, "
                         "characters, forces, cards, charts")
    if not any(k in data for k in ("provinces", "places", "start", "characters", "forces", "cards", "charts")):
        raise ValueError("the group file carries none of [provinces], [start], [characters], [forces], [cards], "
                         "[charts]")
    g = GroupFile(text)
    g.board = Board.from_text(text) if ("provinces" in data or "places" in data) else None
    board = g.board or Board.load()
    forces = load_toml("forces.toml")

    def hex_of(where, v) -> str:
        if not isinstance(v, str) or v.upper() not in board.terrain:
            raise ValueError(f"{where}: no hex `{_short(v)}` on the map")
        return v.upper()

    if "characters" in data:
        g.characters = {}
        names = {}
        for cid, c in _table("[characters]", data["characters"]).items():
            _id("character", cid)
            w = f"[characters.{cid}]"
            c = _table(w, c)
            seat = c.get("seat", c.get("side"))
            if seat not in SEATS:
                raise ValueError(f"{w}: unknown seat `{_short(seat)}`; seats: {', '.join(SEATS)}")
            if cid in NAMED and seat != NAMED[cid]:
                raise ValueError(f"{w}: the variant gives {cid} to the {NAMED[cid]} seat")
            race = c.get("race", "other")
            if race not in RACES:
                raise ValueError(f"{w}: unknown race `{_short(race)}`; races: {', '.join(RACES)}")
            name = _text(f"{w} name", c.get("name"))
            if name.lower() in names:
                raise ValueError(f"{w}: the name `{name}` is {names[name.lower()]}'s too")
            names[name.lower()] = cid
            hx = hex_of(w, c.get("hex"))
            if cid in FIXED_HEX and hx != FIXED_HEX[cid]:
                raise ValueError(f"{w}: the seed puts {cid} at {FIXED_HEX[cid]} (Modifications to Mobilization)")
            ratings = {r: _int(f"{w} {r}", c[r], 0, 20) for r in RATINGS if r in c}
            if cid in FIXED_RING and ratings.setdefault("ring_rating", 3) != FIXED_RING[cid]:
                raise ValueError(f"{w}: the variant gives {cid} a Ring Rating of three (AA.1, AA.2)")
            bad = [k for k in c if k not in ("name", "seat", "side", "race", "hex", "hidden", *RATINGS)]
            if bad:
                raise ValueError(f"{w}: unknown key `{_short(bad[0])}`")
            g.characters[cid] = {"name": name, "side": seat, "race": race, "hex": hx, "ratings": ratings}
        missing = [c for c in NAMED if c not in g.characters]
        if missing:
            raise ValueError(f"[characters] lacks {', '.join(missing[:4])}: the variant's rules name them")
    if "forces" in data:
        g.units = {}
        for uid, u in _table("[forces]", data["forces"]).items():
            _id("army unit", uid)
            w = f"[forces.{uid}]"
            u = _table(w, u)
            if u.get("nation") not in NATIONS:
                raise ValueError(f"{w}: unknown nation `{_short(u.get('nation'))}`; nations: {', '.join(NATIONS)}")
            race = u.get("race", "other")
            if race not in RACES:
                raise ValueError(f"{w}: unknown race `{_short(race)}`")
            sp = _int(f"{w} sp", u.get("sp"), 1, 99)
            hx = hex_of(w, u.get("hex"))
            if uid in NAMED_UNITS and (u["nation"], hx, sp) != (*NAMED_UNITS[uid], 5):
                raise ValueError(f"{w}: the seed gives it: five SP of {NAMED_UNITS[uid][0].title()} cavalry at "
                                 f"{NAMED_UNITS[uid][1]}")
            bad = [k for k in u if k not in ("name", "nation", "race", "kind", "sp", "hex")]
            if bad:
                raise ValueError(f"{w}: unknown key `{_short(bad[0])}`")
            g.units[uid] = {"name": _text(f"{w} name", u.get("name")), "nation": u["nation"], "race": race,
                            "kind": _text(f"{w} kind", u.get("kind", "infantry"), 20), "sp": sp, "hex": hx}
        for uid in NAMED_UNITS:
            if uid not in g.units:
                raise ValueError(f"[forces] lacks {uid}: the Modifications to Mobilization name it")
    chars = g.characters or forces["characters"]
    both = sorted(set(chars) & set(g.units or forces["units"]))
    if both:
        raise ValueError(f"duplicate id `{both[0]}`: a character and an army unit")
    cards = data.get("cards")
    if cards is not None:
        _table("[cards]", cards)
        bad = [k for k in cards if k not in ("events", "magic")]
        if bad:
            raise ValueError(f"unknown key `[cards.{_short(bad[0])}]`: events or magic")
    if cards and "events" in cards:
        g.events = {}
        for num, t in _table("[cards.events]", cards["events"]).items():
            if not CARD_RE.match(num):
                raise ValueError(f"[cards.events]: `{_short(num)}` is not a card number of three digits")
            g.events[num] = _text(f"[cards.events] {num}", t, 300)
        missing = [n for n in NAMED_EVENTS if n not in g.events]
        if missing:
            raise ValueError(f"[cards.events] lacks {', '.join(missing)}: the variant's rules name them")
    if cards and "magic" in cards:
        g.items = {}
        base = forces["items"]
        for iid, m in _table("[cards.magic]", cards["magic"]).items():
            _id("magic card", iid)
            w = f"[cards.magic.{iid}]"
            m = {"name": m} if isinstance(m, str) else _table(w, m)
            start = m.get("start", base.get(iid, {}).get("start"))
            if iid in NAMED_MAGIC and start != base[iid]["start"]:
                raise ValueError(f"{w}: the seed starts it at {base[iid]['start']} (Historical Locations)")
            if start is not None and start not in chars and start not in board.places:
                raise ValueError(f"{w}: start `{_short(start)}` is neither a character nor a place")
            g.items[iid] = {"name": _text(f"{w} name", m.get("name")), "start": start}
        missing = [i for i in NAMED_MAGIC if i not in g.items]
        if missing:
            raise ValueError(f"[cards.magic] lacks {', '.join(missing[:4])}: the seed names them")
    if "start" in data:
        g.start = dict(_table("[start]", data["start"]))
        known = set(chars) | set(g.units or forces["units"]) | {f"naz{i}" for i in range(1, 10)}
        for pid, hx in g.start.items():
            if pid not in known:
                raise ValueError(f"[start] {_short(pid)}: no such piece")
            g.start[pid] = hex_of(f"[start] {pid}", hx)
            if pid in FIXED_HEX and g.start[pid] != FIXED_HEX[pid]:
                raise ValueError(f"[start] {pid}: the seed puts {pid} at {FIXED_HEX[pid]}")
            if pid.startswith("naz") and board.province_of[g.start[pid]] not in ("gorgoroth", "nurn"):
                raise ValueError(f"[start] {pid}: the Nazgul start in Gorgoroth and Nurn (Hidden Movement)")
    if "charts" in data:
        for cid, ch in _table("[charts]", data["charts"]).items():
            g.charts[cid] = check_chart(cid, ch)
    return g


_CACHE: dict[str, GroupFile] = {}


def _group(rs, st) -> GroupFile | None:
    """The group's own file the game carries (`charts=`), checked and cached; None without one."""
    return load(st["group"]) if st.get("group") else None
