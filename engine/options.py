"""Game options (issue 39): one typed reader for `/game new options:` and `palantir local --options`.

Each ruleset DECLARES its options as data beside it (``options = (Option(...), ...)`` on the
ruleset's class, a tuple); the service declares the game's own the same way (``bot/deadlines.py``,
``bot/seats.py``, ``engine/modes``). An option has a name (or a family, ``rally.<LEADER>``), a kind
(on|off, a whole number or a number in a range, a choice, a list, a text its ruleset checks) and, where
its values depend on the game (unit ids, a chart file), a check run with the ruleset.

The text (``pairs``) is ``key=value`` pairs separated by spaces (a comma between two pairs reads as a
space); keys are case-insensitive. A list's items are joined by ``+`` (``dead=ELE+ISI``), the one list
separator: a comma inside a value is refused, with the ``+`` form to use. Every refusal is one short
line naming the ruleset and the option, with what it takes: a key given twice, a key the game does not
have (the line lists the game's options), a value outside its kind.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from engine.core import InvalidOrder

MAX_TEXT = 500  # characters of options text
LIST_SEP = "+"
ON = ("on", "yes", "true", "1")
OFF = ("off", "no", "false", "0")
NONE_WORDS = ("off", "none")
_WHOLE = re.compile(r"[0-9]{1,9}")  # ASCII digits only: `²` and `١` are not numbers here
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?|\.[0-9]{1,9}")  # no exponent, no nan/inf, no `1_0`


class OptionError(InvalidOrder):
    """A refused option: one short line for the player (options are public: no hidden information)."""


def _clip(text: str, n: int = 30) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _num(x: float) -> str:
    return f"{x:g}"


# ------------------------------------------------------------------ kinds
class Kind:
    """What a value may be: ``short`` in the option lists, ``takes`` in a refusal; ``read`` gives the
    typed value or raises ValueError (the refusal then says what the option takes)."""

    short = "<text>"
    takes = "a text"

    def read(self, text: str) -> Any:
        return text


@dataclass(frozen=True)
class OnOff(Kind):
    """on or off (yes/no, true/false and 1/0 read the same)."""

    short = "on|off"
    takes = "on|off"

    def read(self, text: str) -> bool:
        v = text.strip().lower()
        if v in ON:
            return True
        if v in OFF:
            return False
        raise ValueError


@dataclass(frozen=True)
class Whole(Kind):
    """A whole number from ``lo`` to ``hi``; with ``off``, also `off` (read as 0)."""

    lo: int
    hi: int
    what: str = ""  # "missed deadlines": said in the refusal
    off: bool = False

    @property
    def short(self) -> str:
        return f"<{self.lo}-{self.hi}>" + ("|off" if self.off else "")

    @property
    def takes(self) -> str:
        what = f" ({self.what})" if self.what else ""
        return f"a whole number from {self.lo} to {self.hi}{what}" + (", or off" if self.off else "")

    def read(self, text: str) -> int:
        v = text.strip().lower()
        if self.off and v in NONE_WORDS:
            return 0
        if not _WHOLE.fullmatch(v) or not self.lo <= int(v) <= self.hi:
            raise ValueError
        return int(v)


@dataclass(frozen=True)
class Number(Kind):
    """A decimal number from ``lo`` to ``hi`` (plain digits and a point: no exponent); with ``off``,
    also `off` or `none` (read as 0); ``suffix`` (a `%`) may follow the number."""

    lo: float
    hi: float
    unit: str = "hours"
    off: bool = False
    suffix: str = ""

    @property
    def short(self) -> str:
        return f"<{self.unit} {_num(self.lo)}-{_num(self.hi)}>" + ("|off" if self.off else "")

    @property
    def takes(self) -> str:
        return (f"a number of {self.unit} from {_num(self.lo)} to {_num(self.hi)}"
                + (", or off" if self.off else ""))

    def read(self, text: str) -> float:
        v = text.strip().lower()
        if self.off and v in NONE_WORDS:
            return 0.0
        if self.suffix:
            v = v.removesuffix(self.suffix)
        if not _DECIMAL.fullmatch(v) or not self.lo <= float(v) <= self.hi:
            raise ValueError
        return float(v)


@dataclass(frozen=True)
class Choice(Kind):
    """One of ``values`` (``aliases`` read as another value)."""

    values: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...] = ()

    @property
    def short(self) -> str:
        return "|".join(self.values)

    @property
    def takes(self) -> str:
        return "|".join(self.values)

    def read(self, text: str) -> str:
        v = text.strip().lower()
        v = dict(self.aliases).get(v, v)
        if v not in self.values:
            raise ValueError
        return v


@dataclass(frozen=True)
class Items(Kind):
    """A list of ``what`` joined by ``+`` (``ELE+ISI``); ``upper`` reads ids in capitals."""

    what: str
    upper: bool = True
    most: int = 30

    @property
    def short(self) -> str:
        return f"<{self.what} joined by +>"

    @property
    def takes(self) -> str:
        return f"{self.what} joined by `+`"

    def read(self, text: str) -> tuple[str, ...]:
        out = items(text)
        if not out or len(out) > self.most:
            raise ValueError
        return tuple(x.upper() if self.upper else x.lower() for x in out)


@dataclass(frozen=True)
class ListOf(Kind):
    """Values of ``item`` joined by ``+`` (``remind=12+2``), at most ``most``; with ``off``, also `off`
    (read as none)."""

    item: Kind
    what: str
    most: int = 5
    off: bool = False

    @property
    def short(self) -> str:
        return f"<{self.what} joined by +>" + ("|off" if self.off else "")

    @property
    def takes(self) -> str:
        return f"{self.what} joined by `+` (at most {self.most}; each {self.item.takes})" + (", or off" if self.off else "")

    def read(self, text: str) -> tuple:
        if self.off and text.strip().lower() in NONE_WORDS:
            return ()
        out = items(text)
        if not out or len(out) > self.most:
            raise ValueError
        return tuple(self.item.read(x) for x in out)


@dataclass(frozen=True)
class Text(Kind):
    """A text its ruleset checks (``Option.check``): ``short`` and ``takes`` say what it is."""

    short: str = "<text>"
    takes: str = "a text"
    keep: bool = False  # keep spaces and case (a chart file)

    def read(self, text: str) -> str:
        if self.keep:  # (a file: its check says what is wrong, an empty one included)
            return text
        if not text.strip():
            raise ValueError
        return text.strip()


def items(text: str) -> list[str]:
    """A list value's items, joined by ``+`` (the one list separator); a comma is refused."""
    if "," in text:
        raise OptionError(f"is a list: join its items with `+`, not a comma: `{_clip(plus(text), 40)}`")
    return [x.strip() for x in text.split(LIST_SEP) if x.strip()]


def plus(text: str) -> str:
    """A value with commas between its items, written the one way: ``ELE,ISI`` -> ``ELE+ISI``."""
    return LIST_SEP.join(x.strip() for x in re.split(r"[,+]", text) if x.strip())


# ------------------------------------------------------------------ options
@dataclass(frozen=True)
class Option:
    """One declared option. ``name`` ending in ``.`` is a family (``rally.`` takes ``rally.GAN=7``;
    ``member`` names its second part in the lists). ``check(ruleset, value)`` (a family's:
    ``check(ruleset, member, value)``; optional) checks a value against the game and returns what the
    game keeps; ValueError (OptionError, InvalidOrder) with a reason, said after the option's name."""

    name: str
    kind: Kind
    check: Callable[[Any, Any], Any] | None = None
    member: str = "<id>"
    about: str = ""  # what it does, in a few words (the declaration's note)

    @property
    def family(self) -> bool:
        return self.name.endswith(".")

    def matches(self, key: str) -> bool:
        return key.startswith(self.name) and len(key) > len(self.name) if self.family else key == self.name

    @property
    def usage(self) -> str:
        return f"{self.name}{self.member if self.family else ''}={self.kind.short}"


Declared = tuple  # a game's options: a tuple of ``Option``, in the order its lists show them


def find(declared: Declared, key: str) -> Option | None:
    return next((o for o in declared if o.matches(key)), None)


def listing(declared: Declared) -> str:
    return ", ".join(o.usage for o in declared) or "none"


def unknown(declared: Declared, key: str, owner: str, shared: Declared = ()) -> OptionError:
    """The refusal of a key the game does not have: its options listed (and the game's own, ``shared``)."""
    tail = f"; and every game's: {listing(shared)}" if shared else ""
    return OptionError(f"{owner} has no option `{_clip(key)}`; its options are: {listing(declared)}{tail}")


def option_refused(owner: str, key: str, reason: str) -> OptionError:
    """A value the game refuses, said the one way: ``<ruleset>: `<key>` <reason>``."""
    return OptionError(f"{owner}: `{_clip(key)}` {reason}")


def check_keys(declared: Declared, given: Mapping[str, str], owner: str, shared: Declared = ()) -> None:
    """Every key of ``given`` is the game's or one of ``shared`` (the game's own); else the refusal, with
    both lists. (The values are read where they are used, each by its option.)"""
    for k in given:
        key = str(k).strip().lower()
        if find(declared, key) is None and find(shared, key) is None:
            raise unknown(declared, key, owner, shared)


def read(declared: Declared, given: Mapping[str, str], ruleset=None, *, owner: str | None = None) -> dict[str, Any]:
    """The typed values of ``given`` (only the keys given; defaults are the game's); any key not
    declared is refused with the list. ``ruleset`` (its ``name`` the owner) runs each option's check."""
    owner = owner or ruleset.name
    out: dict[str, Any] = {}
    for k, v in given.items():
        key = str(k).strip().lower()
        opt = find(declared, key)
        if opt is None:
            raise unknown(declared, key, owner)
        out[key] = read_value(opt, key, str(v), owner, ruleset)
    return out


def read_value(opt: Option, key: str, text: str, owner: str, ruleset=None) -> Any:
    """One value read by its option's kind and check; every refusal names the owner and the key."""
    try:
        value = opt.kind.read(text)
    except OptionError as e:
        raise option_refused(owner, key, str(e)) from None
    except ValueError:
        raise option_refused(owner, key, f"takes {opt.kind.takes}, not `{_clip(text, 20)}`") from None
    if opt.check is not None and ruleset is not None:
        try:
            value = opt.check(ruleset, value) if not opt.family else opt.check(ruleset, key[len(opt.name):], value)
        except ValueError as e:  # (OptionError and InvalidOrder are ValueErrors too)
            raise option_refused(owner, key, str(e)) from None
    return value


def pairs(text: str | None, owner: str) -> dict[str, str]:
    """``key=value`` pairs from the options text: separated by spaces (a comma between two pairs reads
    as a space); a key given twice, a piece that is not ``key=value`` and a comma inside a value (write
    a list with ``+``) are refused, each naming ``owner`` (the ruleset)."""
    if not text or not text.strip():
        return {}
    if len(text) > MAX_TEXT:
        raise OptionError(f"{owner}: the options are too long ({MAX_TEXT} characters at most)")
    out: dict[str, str] = {}
    for word in text.split():
        parts = word.split(",")
        if len(parts) > 1 and "=" in parts[0] and any(p and "=" not in p for p in parts[1:]):
            k, _, v = word.partition("=")
            raise OptionError(f"{owner}: `{_clip(word, 40)}`: join a list's items with `+`, not a comma: "
                              f"`{_clip(k.strip().lower() + '=' + plus(v), 40)}`")
        for part in parts:
            if not part:
                continue
            k, sep, v = part.partition("=")
            k, v = k.strip().lower(), v.strip()
            if not sep or not k or not v:
                raise OptionError(f"{owner}: option `{_clip(part)}` is not key=value")
            if k in out:
                raise OptionError(f"{owner}: `{_clip(k)}` is given twice (`{_clip(out[k], 20)}`, then "
                                  f"`{_clip(v, 20)}`); give it once")
            out[k] = v
    return out
