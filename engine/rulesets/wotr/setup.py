"""Options and the game's start (seed:001; data/forces.toml, data/map.toml, both reconstructed)."""
from __future__ import annotations

from engine.core import InvalidOrder
from engine.options import option_refused, read
from engine.dice import new_dice
from engine.rulesets.wotr import group_file, lookup, sequence
from engine.rulesets.wotr.common import NATIONS, NINE, load_toml, seat_of_side
from engine.rulesets.wotr.options import DEFAULTS, OPTIONS

STATE_VERSION = 2  # 2: the Nazgul are pieces (hex, controlling seat), not counts


def parse_options(options: dict, owner: str) -> dict:
    """The options (``options.py``, read by ``engine.options``) over the defaults, as texts."""
    out = dict(DEFAULTS)
    out.update({k: str(v) for k, v in read(OPTIONS, options, owner=owner).items()})
    return out


def upgrade_state(rs, st) -> None:
    """A game stored by the release before the Nazgul were pieces (state version 1) brought to this
        layout in place, keeping the rules it began with: its Nazgul counts become pieces in Gorgoroth
        and Nurn (the Dark Power's first, then Saruman's and Gondor's), and its searches still name any
        province up to the seat's strength (``searches_anywhere``), so its logged searches replay as they
        were played. The group's map it carried moves to ``group``; characters get their Ring Ratings and
        the magic cards their names from the reconstructed forces."""
    # a game begun before the seizure could be kept secret (issue 27) announced its hex: it keeps doing so
    st.setdefault("seizure_public", True)
    if st.get("version", STATE_VERSION) >= 2:
        return
    forces = load_toml("forces.toml")
    if isinstance(st.get("map"), str):
        st["group"], st["map"] = st["map"], True
    else:
        st["group"], st["map"] = None, None
    st.setdefault("event_texts", {})
    for cid, c in st["chars"].items():
        f = forces["characters"].get(cid, {})
        c.setdefault("ratings", {"ring_rating": f["ring_rating"]} if "ring_rating" in f else {})
    st.setdefault("item_names", {iid: it["name"] for iid, it in forces["items"].items()})
    counts = st["nazgul"]
    seats = [s for s in ("dark-power", "saruman", "gondor") for _ in range(int(counts.get(s, 0)))]
    seats += ["dark-power"] * (len(forces["nazgul"]) - len(seats))
    b = lookup._bd(rs, st)
    mordor = [hx for hx in b.terrain if b.province_of[hx] in ("gorgoroth", "nurn")]
    st["nazgul"] = {}
    for i, ((nid, hx), seat) in enumerate(zip(forces["nazgul"].items(), seats), 1):
        hx = str(hx).upper()
        if hx not in b.terrain or b.province_of[hx] not in ("gorgoroth", "nurn"):
            hx = mordor[(i - 1) % len(mordor)]  # the group's own map: its Mordor
        st["nazgul"][nid] = {"name": f"Nazgul {i}", "hex": hx, "seat": seat}
    st["searches_anywhere"] = True
    st["version"] = STATE_VERSION


def new_game(rs, options, seed, fixture=None):
    o = parse_options(options, rs.name)
    forces = load_toml("forces.toml")
    st = {"version": STATE_VERSION, "dice": new_dice(seed), "players": int(o["players"]),
          "scenario": o["scenario"], "magic": o["magic"], "last_turn": int(o["turns"]),
          "turn": 1, "phase": "ring", "at": 0, "done": [], "over": None,
          "chars": {}, "units": {}, "items": {},
          "mobilized": {n: None for n in NATIONS},
          "ring": {"bearer": "frodo", "wearing": False, "failures": 0, "transfer_turn": 0, "seizure": None,
                   "gondor_had": False},
          "boromir_attempted": False, "demand": False, "palantir": "denethor", "paths": False,
          "king": None, "wraiths": [], "gondor_out": False,
          "nazgul": {}, "nazgul_tried": 0, "ring_start": {},
          "searched": [], "hands": {s: [] for s in rs.seats}, "played": [],
          "alliances": [], "offers": [], "permanent": [], "barters": [],
          "commands": {}, "mind_battle": 0, "restrained": 0, "shadow_lost": 0,
          "control": {}, "held": {"gondor": True, "rohan": True, "rohan_mt": True},
          "seizure_public": o.get("seizure") == "public",  # AA.2: where Boromir seized the Ring (ruling)
          "map": None, "group": None, "event_texts": {}, "rohan_attacked": False, "claims": [], "prisoners": [], "ruler_seen": "denethor", "king_seen": "theoden"}
    start, group = {}, None
    if o.get("charts"):  # the group's own file: map, starts, characters, forces, cards, charts
        try:
            group = group_file.load(o["charts"])
        except ValueError as e:
            raise option_refused(rs.name, "charts", f"was refused: {e}") from None
        st["group"] = o["charts"]
        st["map"] = group.board is not None  # the map is the group file's (read from st["group"])
        start = group.start
        if group.events is not None:
            st["event_texts"] = dict(group.events)
    b = lookup._bd(rs, st)
    chars = group.characters if group and group.characters is not None else forces["characters"]
    units = group.units if group and group.units is not None else forces["units"]
    items = group.items if group and group.items is not None else forces["items"]
    for pid in list(chars) + list(units):
        hx = str(start.get(pid, chars.get(pid, units.get(pid, {})).get("hex"))).upper()
        if hx not in b.terrain:
            raise InvalidOrder(f"the map has no hex {hx[:10]} for {pid}'s start: give it in the file's [start] table")
    for cid, c in chars.items():
        ratings = dict(c.get("ratings") or {k: c[k] for k in ("ring_rating", "sorcery") if k in c})
        st["chars"][cid] = {"name": c["name"], "seat": seat_of_side(st, c["side"]), "side": c["side"],
                            "race": c["race"], "hex": str(start.get(cid, c["hex"])).upper(), "alive": True, "hidden": cid in NINE,
                            "located": [], "spotted": [], "path": [], "frozen": False, "ratings": ratings}
    for uid, u in units.items():
        st["units"][uid] = {"name": u["name"], "nation": u["nation"], "race": u["race"], "kind": u["kind"],
                            "sp": u["sp"], "hex": str(start.get(uid, u["hex"])).upper(), "frozen": False}
    for iid, it in items.items():
        where = it["start"]
        if where in st["chars"]:  # Sting, the Mithril, Glamdring, Anduril start with their owners (2)
            st["items"][iid] = where
        else:
            st["items"][iid] = ("@" + where) if st["magic"] == "historical" and where else None
    st["item_names"] = {iid: it["name"] for iid, it in items.items()}
    for i, (nid, hx) in enumerate(forces["nazgul"].items(), 1):  # Hidden Movement: in Gorgoroth and Nurn
        hx = str(start.get(nid, hx)).upper()
        if hx not in b.terrain or b.province_of[hx] not in ("gorgoroth", "nurn"):
            raise InvalidOrder(f"{nid} starts in Gorgoroth or Nurn (Hidden Movement): give it in the file's [start] table")
        st["nazgul"][nid] = {"name": f"Nazgul {i}", "hex": hx, "seat": "dark-power"}
    st["control"] = {"minas-tirith": "gondor", "dol-amroth": "gondor",
                     "helms-deep": seat_of_side(st, "rohan"), "dunharrow": seat_of_side(st, "rohan"),
                     "edoras": seat_of_side(st, "rohan"), "rivendell": "fellowship", "lothlorien": "fellowship",
                     "isengard": "saruman", "barad-dur": "dark-power"}
    assert set(st["control"]) == set(b.places)
    if fixture:  # a test, or a group resuming a table game, fixes the hidden positions
        for cid, hx in (fixture.get("hexes") or {}).items():
            st["chars"][cid]["hex"] = b.hex(hx)
        if "demand" in fixture:
            st["demand"] = bool(fixture["demand"])
    sequence._begin_turn(rs, st)
    return st
