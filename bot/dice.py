"""Dice roller behind ``/roll dice:<expression> [reason:<text>] [private:<bool>]``.

Pure logic (no discord import).  Parsing and evaluation are delegated to the
maintained `d20 <https://github.com/avrae/d20>`_ library (Avrae's dice engine),
so the full d20 notation works::

    1d20+5            4d6kh3   2d20kl1   4d6pl1     (keep / drop highest / lowest;
                                                  bare 4d6p1 drops every 1, as in d20)
    3d6e6             1d6ro1   1d6rr1    1d6ra6     (explode, reroll once / until, add-one)
    4d6mi2   4d6ma5   (1d6, 2d4)kh1      1d20 >= 15  (min/max, sets, comparisons)
    1d20+5 [to hit]   1d20+5 attack roll            (annotations, trailing label)

On top of d20 this module adds:

* several rolls in one command, separated by ``;`` or ``,`` at top level
  (``1d20+5 attack; 2d6+3 damage``), each with its own free-text label;
* Avrae-style repetition ``3#1d20`` (roll ``1d20`` three times);
* hard safety limits (see the ``MAX_*`` constants) so that hostile input gets a
  short :class:`DiceError` instead of a crash, a huge message or a hang;
* Discord-safe rendering: user text (labels, annotations, reason, name) has its
  markdown escaped and ``@`` mentions defused; the message never exceeds
  :data:`MAX_OUTPUT_CHARS`.

Randomness
----------
d20 draws every die with the *module-level* ``random.randrange`` (in
``d20.expression.Die._add_roll``).  Rather than monkey-patching the ``random``
module (global, not thread/async safe), we subclass d20's ``Dice``/``Die``
expression classes so that each die draws from an RNG carried by a per-call
:class:`d20.RollContext` subclass, and a ``Roller`` subclass whose
``_eval_dice`` builds those dice.  Rerolls are applied in dice order (d20
iterates a ``set``), so a seeded breakdown is fully reproducible.  Every call
to :func:`roll` gets a fresh
context, so concurrent rolls never share state.  Production uses
``random.SystemRandom()`` (OS entropy, not seedable); tests pass
``random.Random(seed)`` and can replay the exact draws: every die is exactly one
``rng.randrange(sides)`` call (+1), in left-to-right evaluation order
(``d%`` is ``rng.randrange(0, 100, 10)`` as in d20).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import d20
import lark
from d20 import diceast
from d20.expression import Dice as _D20Dice, Die as _D20Die, Number as _D20Number
from d20.expression import SetOperator as _D20SetOperator

__all__ = [
    "DiceError",
    "RollLine",
    "RollResult",
    "roll",
    "escape_text",
    "MAX_EXPRESSION_CHARS",
    "MAX_REASON_CHARS",
    "MAX_ROLLS",
    "MAX_DICE_PER_TERM",
    "MAX_SIDES",
    "MAX_TOTAL_DICE",
    "MAX_OUTPUT_CHARS",
]

MAX_EXPRESSION_CHARS = 200
MAX_REASON_CHARS = 200
MAX_ROLLS = 10
MAX_DICE_PER_TERM = 100
MAX_SIDES = 1000
MAX_TOTAL_DICE = 500
MAX_OUTPUT_CHARS = 1900

_SYSTEM_RNG = random.SystemRandom()


class DiceError(ValueError):
    """A roll could not be made.  ``str(err)`` is short and user-facing."""


# --------------------------------------------------------------------------- #
# RNG injection: d20 subclasses                                               #
# --------------------------------------------------------------------------- #
class _Context(d20.RollContext):
    """RollContext carrying the RNG; counts dice across the *whole* command.

    d20's ``Roller.roll`` calls ``reset()`` at the start of each expression; we
    make that a no-op so ``max_rolls`` bounds the total over every roll of one
    command (including explosions and rerolls, which is what stops
    ``1d1e1`` / ``1d6rr<7`` from looping forever).
    """

    def __init__(self, rng: random.Random, max_rolls: int = MAX_TOTAL_DICE):
        self.rng = rng
        super().__init__(max_rolls=max_rolls)

    def reset(self) -> None:  # cumulative across the command on purpose
        pass


class _Die(_D20Die):
    __slots__ = ()

    @classmethod
    def new(cls, size, context=None):
        inst = cls(size, [], context=context)
        inst._add_roll()
        return inst

    def _add_roll(self):
        if self.size != "%" and self.size < 1:
            raise d20.RollValueError("Cannot roll a 0-sided die.")
        ctx = self._context
        if ctx is not None:
            ctx.count_roll()
        rng = getattr(ctx, "rng", None) or _SYSTEM_RNG
        if self.size == "%":
            value = rng.randrange(0, 100, 10)
        else:
            value = rng.randrange(self.size) + 1
        self.values.append(d20.Literal(value))


class _Dice(_D20Dice):
    __slots__ = ()

    @classmethod
    def new(cls, num, size, context=None):
        return cls(num, size, [_Die.new(size, context=context) for _ in range(num)], context=context)

    def roll_another(self):
        self.values.append(_Die.new(self.size, context=self._context))

    def __copy__(self):
        return _Dice(num=self.num, size=self.size, context=self._context,
                     values=self.values.copy(), operations=self.operations.copy())


class _SetOperator(_D20SetOperator):
    """d20 iterates a Python ``set`` of dice when rerolling, so *which* die gets
    which fresh value depends on object ids.  Reroll in the dice's own order so
    a seeded RNG reproduces the exact same breakdown."""

    __slots__ = ()

    @staticmethod
    def _in_order(target, chosen) -> list:
        return [n for n in target.set if n in chosen]

    def reroll(self, target):
        to_reroll = self._in_order(target, self.select(target))
        while to_reroll:  # bounded by the context's max_rolls
            for die in to_reroll:
                die.reroll()
            to_reroll = self._in_order(target, self.select(target))

    def reroll_once(self, target):
        for die in self._in_order(target, self.select(target)):
            die.reroll()


class _Roller(d20.Roller):
    def _eval_dice(self, node: diceast.Dice) -> _Dice:
        return _Dice.new(node.num, node.size, context=self.context)

    def _eval_operatedset(self, node: diceast.OperatedSet):
        target = self._eval(node.value)
        for op in node.operations:
            the_op = _SetOperator.from_ast(op)
            the_op.operate(target)
            target.operations.append(the_op)
        return target


# --------------------------------------------------------------------------- #
# Text safety                                                                 #
# --------------------------------------------------------------------------- #
_MD_SPECIAL = re.compile(r"([\\*_~`|\[\]])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
_ZWSP = "\u200b"


def escape_text(text: str) -> str:
    """Make user text inert in a Discord message.

    Newlines/control characters become spaces, markdown characters are
    backslash-escaped and every ``@`` gets a zero-width space after it, so
    ``@everyone``, ``@here``, ``<@123>`` and ``<@&123>`` cannot ping.  (The cog
    should still send with ``allowed_mentions=AllowedMentions.none()``.)
    """
    text = _CONTROL.sub(" ", text)
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("@", "@" + _ZWSP)


def _code(text: str, limit: int = 40) -> str:
    """Echo user text inside an inline code span (no markdown inside, no pings)."""
    text = _CONTROL.sub(" ", _clip(text.strip(), limit)).replace("`", "'")
    return "`" + text.replace("@", "@" + _ZWSP) + "`"


def _clip(text: str, limit: int) -> str:
    """Truncate raw text to ``limit`` characters (ellipsis included)."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"


def _markup_balanced(prefix: str) -> bool:
    return (prefix.count("~~") % 2 == 0 and prefix.count("**") % 2 == 0
            and not prefix.endswith("\\") and not prefix.endswith("@"))


def _truncate_markup(text: str, budget: int) -> str:
    """Cut dice text to at most ``budget`` chars at a point where ``**``/``~~``
    are balanced, ending in "…"."""
    if len(text) <= budget:
        return text
    if budget < 1:
        return ""
    limit = budget - 2  # room for " …"
    for cut in range(min(limit, len(text)), 0, -1):
        if text[cut - 1] not in ", (" and text[cut] not in ", )":
            continue  # only cut between tokens
        prefix = text[:cut].rstrip(", ")
        if prefix and _markup_balanced(prefix):
            return prefix + " …"
    return "…"


# --------------------------------------------------------------------------- #
# Stringifier: d20 markdown, plus our die classes and escaped annotations     #
# --------------------------------------------------------------------------- #
class _Stringifier(d20.MarkdownStringifier):
    """d20's markdown output: dropped/rerolled values in ~~strike~~, 1s and
    max faces in **bold**, exploded dice marked ``!``, min/max as ``1 -> 3``."""

    def __init__(self):
        super().__init__()
        self._nodes[_Dice] = self._str_dice
        self._nodes[_Die] = self._str_die

    def _stringify(self, node: _D20Number) -> str:
        if not node.kept and not self._context.in_dropped:
            self._context.in_dropped = True
            try:
                inside = self._stringify_inner(node)
            finally:
                self._context.in_dropped = False
            return f"~~{inside}~~"
        return self._stringify_inner(node)

    def _stringify_inner(self, node: _D20Number) -> str:
        inside = self._nodes[type(node)](node)
        if node.annotation:
            return f"{inside} {escape_text(node.annotation)}"
        return inside


# --------------------------------------------------------------------------- #
# Results                                                                     #
# --------------------------------------------------------------------------- #
@dataclass
class RollLine:
    """One evaluated expression.

    ``expression`` is what the user typed (minus the label), ``text`` is the
    markdown breakdown showing every die (without the ``= total``), ``dice``
    is a structured list of every die group: ``{"sides", "count", "rolls":
    [{"value", "kept", "exploded"}]}`` (rerolled-away values have
    ``kept=False``).
    """

    expression: str
    label: str | None
    total: int
    text: str
    dice: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"expression": self.expression, "label": self.label, "total": self.total,
                "text": self.text, "dice": self.dice}


@dataclass
class RollResult:
    lines: list[RollLine]
    reason: str | None
    private: bool

    # -- rendering --------------------------------------------------------
    def render(self, who: str | None = None) -> str:
        """The Discord message text (always <= MAX_OUTPUT_CHARS characters)."""
        full = self._render(who, compact=False)
        if len(full) <= MAX_OUTPUT_CHARS:
            return full
        text = self._render(who, compact=True)
        if len(text) > MAX_OUTPUT_CHARS:  # belt and braces; should not happen
            text = text[: MAX_OUTPUT_CHARS - 1] + "…"
        return text

    @staticmethod
    def _total_str(total: int, compact: bool) -> str:
        s = str(total)
        if compact and len(s) > 40:
            s = f"{s[:20]}…({len(s)} digits)"
        return s

    def _render(self, who: str | None, compact: bool) -> str:
        who_s = escape_text(_clip(who, 64)) if (who and compact) else (escape_text(who) if who else None)
        reason_raw = self.reason
        if reason_raw and compact:
            reason_raw = _clip(reason_raw, 100)
        reason_s = f" ({escape_text(reason_raw)})" if reason_raw else ""
        lead = f"**{who_s}** rolls" if who_s else "🎲"

        def head(line: RollLine) -> str:
            expr, label = line.expression, line.label
            if compact:
                expr = _clip(expr, 40)
                label = _clip(label, 30) if label else label
            s = escape_text(expr)
            if label:
                s += f" — {escape_text(label)}"
            return s

        def tail(line: RollLine) -> str:
            return f" = **{self._total_str(line.total, compact)}**"

        single = len(self.lines) == 1
        if single:
            line = self.lines[0]
            prefixes = [f"{lead} {head(line)}{reason_s}: "]
        else:
            prefixes = [f"• {head(line)}: " for line in self.lines]
        header = "" if single else f"{lead}{reason_s}:"
        tails = [tail(line) for line in self.lines]
        texts = [line.text for line in self.lines]

        if compact:
            fixed = len(header) + sum(len(p) + len(t) for p, t in zip(prefixes, tails))
            fixed += len(self.lines) - (1 if single else 0)  # newlines
            texts = _fit_texts(texts, MAX_OUTPUT_CHARS - fixed - 50)

        rows = [f"{p}{t}{tl}" for p, t, tl in zip(prefixes, texts, tails)]
        if single:
            return rows[0]
        out = header
        for i, row in enumerate(rows):
            more = len(rows) - i
            candidate = f"{out}\n{row}"
            if compact and len(candidate) > MAX_OUTPUT_CHARS - 40 and more > 0:
                out += f"\n… {more} more roll{'s' if more != 1 else ''} not shown"
                break
            out = candidate
        return out

    # -- data -------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        return [line.total for line in self.lines]

    def to_json(self) -> dict[str, Any]:
        return {
            "lines": [line.to_json() for line in self.lines],
            "reason": self.reason,
            "private": self.private,
        }


def _fit_texts(texts: list[str], budget: int) -> list[str]:
    """Share ``budget`` characters between dice texts (short ones keep theirs)."""
    n = len(texts)
    if budget <= 0:
        return ["…"] * n
    alloc = [0] * n
    remaining = budget
    order = sorted(range(n), key=lambda i: len(texts[i]))
    for k, i in enumerate(order):
        share = remaining // (n - k)
        alloc[i] = min(len(texts[i]), share)
        remaining -= alloc[i]
    return [_truncate_markup(t, a) or "…" for t, a in zip(texts, alloc)]


# --------------------------------------------------------------------------- #
# Parsing the command text                                                    #
# --------------------------------------------------------------------------- #
_REPEAT = re.compile(r"\s*([0-9]+)\s*#(.*)", re.DOTALL)
_LOOKS_LIKE_DICE = re.compile(r"\s*(?:[0-9(+\-.]|d(?:[0-9]|%))", re.IGNORECASE)


def _split_top_level(text: str) -> list[tuple[str, str]]:
    """Split on ``;``/``,`` outside ``( )`` and ``[ ]``.  Returns (sep_before, segment)."""
    out: list[tuple[str, str]] = []
    depth = 0
    in_bracket = False
    start = 0
    sep = ""
    for i, ch in enumerate(text):
        if in_bracket:
            if ch == "]":
                in_bracket = False
        elif ch == "[":
            in_bracket = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch in ";," and depth == 0:
            out.append((sep, text[start:i]))
            sep, start = ch, i + 1
    out.append((sep, text[start:]))
    return out


def _parse(roller: _Roller, segment: str) -> diceast.Expression:
    try:
        return roller.parse(segment, allow_comments=True)
    except d20.RollSyntaxError as e:
        raise DiceError(_syntax_message(segment, getattr(e, "col", None))) from None
    except (lark.exceptions.LarkError, IndexError, TypeError, AttributeError):
        raise DiceError(_syntax_message(segment, None)) from None
    except RecursionError:
        raise DiceError("That expression is nested too deeply.") from None


def _syntax_message(segment: str, col: int | None) -> str:
    where = f" (at character {col})" if isinstance(col, int) and col > 0 else ""
    return f"I can't read the dice {_code(segment)}{where}. Try e.g. `1d20+5` or `4d6kh3`."


def _dice_nodes(node: diceast.Node):
    if isinstance(node, diceast.Dice):
        yield node
    for child in node.children:
        yield from _dice_nodes(child)


def _check_dice(tree: diceast.Expression) -> int:
    """Reject oversize terms before rolling; return the number of dice."""
    count = 0
    for d in _dice_nodes(tree):
        sides = d.size
        if d.num > MAX_DICE_PER_TERM or (sides != "%" and sides > MAX_SIDES):
            raise DiceError(
                f"{_code(f'{d.num}d{sides}', 24)} is too big: at most "
                f"{MAX_DICE_PER_TERM} dice of at most {MAX_SIDES} sides per term.")
        if sides != "%" and sides < 1:
            raise DiceError("Dice need at least 1 side.")
        count += d.num
    return count


@dataclass
class _Planned:
    expression: str
    label: str | None
    tree: diceast.Expression


def _plan(expression: str, roller: _Roller) -> list[_Planned]:
    # 1. split into segments, re-joining "label, more label" pieces split on a comma
    raw: list[str] = []
    labelled_prev = False
    for sep, seg in _split_top_level(expression):
        if not seg.strip():
            labelled_prev = False
            continue
        if sep == "," and raw and labelled_prev and not _LOOKS_LIKE_DICE.match(seg) \
                and not _REPEAT.match(seg):
            try:
                roller.parse(seg.strip(), allow_comments=True)
            except Exception:  # not a roll: it's the rest of the previous label
                raw[-1] = f"{raw[-1]},{seg}"
                continue
        raw.append(seg)
        labelled_prev = _has_label(roller, seg)

    if not raw:
        raise DiceError("Nothing to roll. Try e.g. `1d20+5` or `4d6kh3`.")

    # 2. expand N#expr, parse, validate
    planned: list[_Planned] = []
    for seg in raw:
        repeat = 1
        m = _REPEAT.match(seg)
        if m:
            repeat = int(m.group(1))
            seg = m.group(2)
            if repeat < 1:
                raise DiceError("The repeat count before `#` must be at least 1.")
            if repeat > MAX_ROLLS:
                raise DiceError(f"At most {MAX_ROLLS} rolls per command.")
            if not seg.strip():
                raise DiceError("Nothing to roll after `#`. Try e.g. `3#1d20`.")
        seg = seg.strip()
        tree = _parse(roller, seg)
        comment = (tree.comment or "").strip() or None
        expr_text = seg
        if tree.comment and seg.endswith(tree.comment.rstrip()):
            expr_text = seg[: len(seg) - len(tree.comment.rstrip())].strip() or str(tree.roll)
        elif tree.comment:
            expr_text = str(tree.roll)
        planned.extend(_Planned(expr_text, comment, tree) for _ in range(repeat))
        if len(planned) > MAX_ROLLS:
            raise DiceError(f"At most {MAX_ROLLS} rolls per command.")

    total_dice = sum(_check_dice(p.tree) for p in planned)
    if total_dice > MAX_TOTAL_DICE:
        raise DiceError(f"That's {total_dice} dice; the limit is {MAX_TOTAL_DICE} per command.")
    return planned


def _has_label(roller: _Roller, seg: str) -> bool:
    m = _REPEAT.match(seg)
    if m:
        seg = m.group(2)
    try:
        return bool((roller.parse(seg.strip(), allow_comments=True).comment or "").strip())
    except Exception:
        return False


# --------------------------------------------------------------------------- #
# Evaluation                                                                  #
# --------------------------------------------------------------------------- #
def _collect_dice(node: _D20Number, out: list[dict[str, Any]]) -> None:
    if isinstance(node, _D20Dice):
        rolls = []
        for die in node.values:
            for lit in die.values:
                rolls.append({"value": lit.number, "kept": bool(die.kept and lit.kept),
                              "exploded": bool(lit.exploded)})
        out.append({"sides": node.size, "count": node.num, "rolls": rolls})
        return
    for child in node.children:
        _collect_dice(child, out)


def _evaluate(roller: _Roller, item: _Planned) -> RollLine:
    result = roller.roll(item.tree, stringifier=_Stringifier())
    expr = result.expr
    total = int(expr.total)  # d20 semantics: floats truncate toward zero
    text = _Stringifier().stringify(expr.roll)
    dice: list[dict[str, Any]] = []
    _collect_dice(expr.roll, dice)
    return RollLine(expression=item.expression, label=item.label, total=total, text=text, dice=dice)


def roll(expression: str, reason: str | None = None, private: bool = False,
         rng: random.Random | None = None) -> RollResult:
    """Parse and roll ``expression``; raise :class:`DiceError` on bad input.

    ``rng`` defaults to a ``random.SystemRandom``; pass ``random.Random(seed)``
    for reproducible rolls.
    """
    if not isinstance(expression, str):
        raise DiceError("The dice expression must be text.")
    expression = expression.strip()
    if not expression:
        raise DiceError("Nothing to roll. Try e.g. `1d20+5` or `4d6kh3`.")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise DiceError(f"That expression is too long (max {MAX_EXPRESSION_CHARS} characters).")
    if reason is not None:
        if not isinstance(reason, str):
            raise DiceError("The reason must be text.")
        reason = reason.strip() or None
        if reason is not None and len(reason) > MAX_REASON_CHARS:
            raise DiceError(f"The reason is too long (max {MAX_REASON_CHARS} characters).")

    roller = _Roller(_Context(rng if rng is not None else _SYSTEM_RNG))
    planned = _plan(expression, roller)

    lines: list[RollLine] = []
    for item in planned:
        try:
            lines.append(_evaluate(roller, item))
        except d20.TooManyRolls:
            raise DiceError(f"Too many dice rolled (limit {MAX_TOTAL_DICE}): an exploding or "
                            "reroll rule probably never stops.") from None
        except d20.RollValueError as e:
            raise DiceError(_clip(str(e), 150) or "That roll has an invalid value.") from None
        except ZeroDivisionError:
            raise DiceError("Cannot divide by zero.") from None
        except (OverflowError, ValueError):
            raise DiceError("That result is too large to compute.") from None
        except RecursionError:
            raise DiceError("That expression is nested too deeply.") from None
    return RollResult(lines=lines, reason=reason, private=bool(private))
