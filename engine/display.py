"""The display vocabulary (issue 26): what a ruleset may ask the shared renderer (``render/``) to draw.

The renderer names no game and no piece. A ruleset *declares* how its pieces look, in a data file
(``engine/rulesets/<game>/data/display.json``, loaded with :func:`load`) that its view sends as
``view["display"]``, and its view code puts *generic marks* on each unit (``unit["look"]``, see
:func:`look`). Adding a piece to a game edits that declaration and the view, never ``render/``.

The declaration (every key optional)::

    {"shapes":  {"<unit type>": "<shape>"},       # the symbol drawn on a counter of that type
     "markers": {"<marker type>": {"style": "<marker style>", "label": "...", "across": bool,
                                   "when_used": bool}},
     "legend":  [{"label": "...", "draw": "<legend draw>", "shape": "<shape>", "glow": bool,
                  "arrows": bool, "band": "lit" | "plain", "when": ["<shape or mark>", ...]}],
     "level_names": {"<city level>": "<its name>"},           # shown in the legend's city levels' title
     "anatomy": ["<one line under the legend's counter: what the game's counter texts mean>"]}

* ``shapes``: a unit type not listed is drawn with the shape of the same name if the renderer has one,
  else as a plain box with the type's first three letters. :data:`SHAPES` are the shapes the renderer
  draws (a symbol library keyed by shape, not by any game's unit type).
* ``markers``: a marker (``view["markers"]``, ``{"type": ..., "hex": ..., "hexside": ...}``) of a
  declared type is drawn in its ``style`` (:data:`MARKER_STYLES`): ``crack`` on its hexside (a gap in a
  wall), ``rungs`` as a chit in its hex *and* leaning across its hexside (``across``), every other style as
  a chit in its hex. An undeclared type is a chit with its first four letters. A marker with a ``label``
  has a line in the legend: always on a walled map unless ``when_used`` (then, as off a walled map, only
  when the view has one); a ``crack`` marker's line is with the hexsides (a wall drawn cracked).
* ``legend``: the piece keys of the legend, in order; each is drawn as ``draw`` (:data:`LEGEND_DRAWS`):
  ``drop`` (a full and a hollow drop), ``counter`` (a grey counter of ``shape``, with ``glow``,
  ``arrows`` or a ``band``), ``hatch`` (a hatched city hex: the view's ``levels``), ``ring`` (a ringed hex: the view's
  ``road``). On a walled map every key shows; elsewhere a key shows when the view uses one of its
  ``when`` names: a shape some unit is drawn with, a mark some unit has, ``levels`` or ``road``.

The marks a view may put on a unit (``unit["look"]``, :data:`MARKS`), each drawn the same in every game:

* ``beside``: a short text (a number) right of the symbol; ``bottom``: the text at the counter's foot
  (in place of its ratings);
* ``drop``: ``"full"`` or ``"hollow"``, a drop on the counter's right edge. Hidden information: a view
  sends ``"hollow"`` only to a seat that may know (its owner); everyone else sees ``"full"`` whatever the
  truth;
* ``fade``: the symbol drawn faint (a dummy, in its owner's view);
* ``glow``: a red glow round the counter with a lightning mark;
* ``arrows``: hexsides (``"0101/n"``): a green rim and an arrow toward each;
* ``band``: ``"lit"`` (a gold band in a fiery glow, top right) or ``"plain"`` (a plain gold band,
  bottom right).

An *area* board (``render/areamap.py``) reads instead (every key optional)::

    {"fills":  {"kinds": {"<area kind>": rgb}, "zones": {"<zone>": rgb}, "areas": {"<area id>": rgb}},
     "lines":  [{"between": "<board data key listing area pairs>" | "zones": [inner, outer] |
                 "around_kind": "<area kind>", "around": [area ids], "color": rgb, "width": n,
                 "preview_width": n}],
     "texts":  [{"text": ..., "x": n, "y": n, "size": n, "color": rgb, "anchor": "mm"}],   # x, y < 0: from the right, bottom
     "emblems": {"<area flag in the board data>": "pennant" | "thrower"},
     "area_marks": {"<area key in the view>": {"label": ...}},
     "side_tint": {"<seat>": rgb},
     "armies": {"order": [types], "label": {type: "Inf"}, "letter": {type: "I"}, "colors": {seat: {type: rgb}}},
     "decks":  [["<deck key>", "<name>", "<prefix of its cards>"]],
     "key": [{"army": type, "label": ...} | {"emblem": "pennant" | "thrower", "label": ...}],
     "key_text": "..."}

Generic unit keys the renderer reads besides: ``id``, ``type``, ``side``, ``hex``, ``ratings``,
``reduced``, ``disrupted``, ``real`` (a REAL / DUMMY band, only in the owner's view), ``face_down``, and a
leader's ``rally`` / ``magic``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SHAPES = ("infantry", "cavalry", "archer", "leader", "club", "thrower", "tower", "ram", "pot", "beast", "flag")
MARKER_STYLES = ("flame", "rungs", "head", "star", "cross", "crack")
LEGEND_DRAWS = ("drop", "counter", "hatch", "ring")
MARKS = ("beside", "bottom", "drop", "fade", "glow", "arrows", "band")
_KEYS = {"shapes", "markers", "legend", "level_names", "anatomy", "fills", "lines", "texts", "emblems", "area_marks", "side_tint", "armies",
         "decks", "key", "key_text"}
EMBLEMS = ("pennant", "thrower")


def check(decl: dict) -> dict:
    """``decl`` if it uses only the vocabulary above (a ruleset's declaration is checked when loaded)."""
    if not isinstance(decl, dict) or set(decl) - _KEYS:
        raise ValueError(f"a display declaration has only {sorted(_KEYS)}: {sorted(decl) if isinstance(decl, dict) else decl}")
    for kind, shape in decl.get("shapes", {}).items():
        if shape not in SHAPES:
            raise ValueError(f"unit type {kind!r}: unknown shape {shape!r} (one of {SHAPES})")
    for kind, m in decl.get("markers", {}).items():
        if m.get("style") not in MARKER_STYLES:
            raise ValueError(f"marker {kind!r}: unknown style {m.get('style')!r} (one of {MARKER_STYLES})")
    for flag, style in decl.get("emblems", {}).items():
        if style not in EMBLEMS:
            raise ValueError(f"emblem {flag!r}: unknown style {style!r} (one of {EMBLEMS})")
    for e in decl.get("legend", []):
        if e.get("draw") not in LEGEND_DRAWS or not e.get("label"):
            raise ValueError(f"legend entry {e!r}: a label and a draw (one of {LEGEND_DRAWS})")
        if e["draw"] == "counter" and e.get("shape") not in SHAPES:
            raise ValueError(f"legend entry {e['label']!r}: unknown shape {e.get('shape')!r}")
    return decl


def load(path: str | Path) -> dict[str, Any]:
    """A ruleset's display declaration from its JSON file, checked."""
    return check(json.loads(Path(path).read_text()))


def look(unit: dict) -> dict:
    """The generic marks of a unit's view (created empty), for a view to fill."""
    return unit.setdefault("look", {})


def track_value(track: dict, sep: str = "/") -> str:
    """A track's value as every screen prints it (the header, the panel, the status board, a phase's notice):
    ``points/level``, or the points alone for a track with no maximum (a score: ``level`` absent, None or "")."""
    pts, lvl = track.get("points", "?"), track.get("level")
    return f"{pts}{sep}{lvl}" if lvl not in (None, "", "-") else f"{pts}"
