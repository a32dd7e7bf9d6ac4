"""Issue 43 (an explicit order path): rewrite calls through ``GameService``'s old name table into calls of its
typed parts, e.g. ``svc.order(ctx, t)`` -> ``svc.orders.order(ctx, t)``, ``svc.games`` -> ``svc.table.games``.

A one-time migration, kept for branches written against the old facade: ``python scripts/explicit_service_calls.py
[--check] FILE_OR_DIR...``. It walks the AST and rewrites only attributes read on something that is a service:
``svc``/``svc2``/``service``..., ``<x>.service``, ``_service(interaction)``, ``GameService(...)``, and the short
names (``s``, ``a``, ``b``, ``again``...) in a file that assigns them ``GameService(...)``. The tests check it."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

# the old facade's table: each method and the part that has it
PARTS = {
    "lobby": ("new_game", "join", "leave", "start", "autocomplete_seat", "autocomplete_taken_seat", "end",
              "table_rooms", "room_message", "room_logs", "spectators", "spectate", "admit", "sub", "checkin"),
    "orders": ("order", "whisper", "answer_button", "rule_vote", "done", "autocomplete_order", "odds", "roll"),
    "views": ("status", "status_text", "set_board", "board_edit", "map", "parse_around", "autocomplete_around",
              "log", "secret", "help_topics", "help", "rule", "autocomplete_rule"),
    "clocks": ("outbox_post", "fire_due", "extend", "pause", "resume", "set_quiet", "set_away"),
    "undo": ("undo", "undo_vote"),
    "archive": ("export_data", "export", "replay"),
    "recovery": ("announce_unanswered", "delivered", "refusal_seen"),
    "seats": ("my_games", "autoplay", "takeover", "autocomplete_takeover_seat", "takeover_vote", "open_games",
              "set_seat_board", "board_placed", "board_update", "join_game", "takeover_game"),
    "templates": ("template_save", "template_list", "template_delete", "autocomplete_template"),
    "rematch": ("rematch", "rematch_vote"),
    "digest": ("set_digest", "send_digests"),
    "results": ("record", "stats", "ratings", "recompute", "backfill"),
}
METHOD = {m: p for p, ms in PARTS.items() for m in ms}
KEEP = {"table", "store", *PARTS, "undo_part", "seats_part", "templates_part", "rematch_part", "digest_part"}
RENAMED = {"undo_part": "undo", "seats_part": "seats", "templates_part": "templates", "rematch_part": "rematch",
           "digest_part": "digest"}
SERVICE_NAME = re.compile(r"^(svc\w*|service\w*)$")
# what the table holds that callers read through the old facade (``svc.games`` -> ``svc.table.games``)
TABLE = {"clock", "delivery", "fixtures", "game_seq", "games", "load", "locks", "map_description", "on_timers_changed",
         "rebuild", "render_game", "render_pool", "renderer", "replay_from_start", "seed_source", "timekeeper",
         "waiting", "warm", "roll_rng", "deadline_defaults", "max_loaded", "shard", "engine", "prefs_changed",
         "on_result"}


def _short_names(tree: ast.AST, src: str) -> set[str]:
    """Other names a file gives a service: ``a, b = svc(sa), svc(sb)``, ``s = GameService(...)``,
    ``def f(s: GameService)``, and a namespace's ``two.a`` when it is built with ``a=a``."""
    makers = {f.name for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for r in ast.walk(f) if isinstance(r, ast.Return) and isinstance(r.value, ast.Call)
              and ast.unparse(r.value.func) == "GameService"}  # ``async def process(...): return GameService(...)``

    def made(v):
        v = v.value if isinstance(v, ast.Await) else v
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and (
            v.func.id == "GameService" or v.func.id in makers or SERVICE_NAME.match(v.func.id))
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name) and made(n.value):
                    out.add(t.id)
                elif isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple):
                    out |= {e.id for e, v in zip(t.elts, n.value.elts) if isinstance(e, ast.Name) and made(v)}
        elif isinstance(n, ast.arg) and n.annotation is not None and ast.unparse(n.annotation) == "GameService":
            out.add(n.arg)
    for name in set(out):
        for ns in re.findall(rf"(\w+) = SimpleNamespace\([^)]*\b{name}={name}\b", src):
            out.add(f"{ns}.{name}")
        if re.search(rf"\b{name}={name}\b", src) and "SimpleNamespace" in src:
            out |= {f"{v}.{name}" for v in re.findall(r"async def (\w+)\(", src)}  # a fixture's namespace
    return out - {"svc", "service"}


def _is_service(node: ast.expr, short: set[str]) -> bool:
    text = ast.unparse(node)
    if isinstance(node, ast.Name):
        return bool(SERVICE_NAME.match(node.id)) or node.id in short
    if isinstance(node, ast.Attribute):
        return node.attr in ("service", "svc") or text in short
    if isinstance(node, ast.Call):
        return text.startswith(("_service(", "GameService("))
    return False


def _is_short(node: ast.expr, short: set[str]) -> bool:
    return ast.unparse(node) in short and not (isinstance(node, ast.Name) and SERVICE_NAME.match(node.id))


def rewrite(src: str) -> tuple[str, list[str]]:
    tree = ast.parse(src)
    short = _short_names(tree, src)
    lines = src.splitlines(keepends=True)
    edits: list[tuple[int, int, str, str]] = []  # (line, byte col, insert, note)
    parts_read = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}  # ``svc.undo``.undo
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _is_service(node.value, short):
            continue
        name = node.attr
        if name in PARTS and id(node) in parts_read:
            continue
        if name.startswith("__") or name in ("service", "svc"):
            continue
        line = node.end_lineno - 1
        col = node.end_col_offset - len(name.encode())
        if name in RENAMED:
            edits.append((line, col, f"\0{name}", f"{ast.unparse(node)} -> .{RENAMED[name]}"))
        elif name in METHOD:
            edits.append((line, col, f"{METHOD[name]}.", f"{ast.unparse(node)} -> {METHOD[name]}"))
        elif name in TABLE or (name not in KEEP and not _is_short(node.value, short)):
            edits.append((line, col, "table.", f"{ast.unparse(node)} -> table"))
    for line, col, ins, _ in sorted(edits, reverse=True):
        b = lines[line].encode()
        if ins.startswith("\0"):
            old = ins[1:]
            b = b[:col] + RENAMED[old].encode() + b[col + len(old):]
        else:
            b = b[:col] + ins.encode() + b[col:]
        lines[line] = b.decode()
    return "".join(lines), [e[3] for e in edits]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"]
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    changed = 0
    for f in files:
        if ".venv" in f.parts or f.name == Path(__file__).name:
            continue
        src = f.read_text()
        new, notes = rewrite(src)
        if new != src:
            changed += 1
            for n in notes:
                print(f"{f}: {n}")
            if not check:
                f.write_text(new)
    print(f"{changed} file(s) {'to change' if check else 'changed'}", file=sys.stderr)
    return 1 if check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
