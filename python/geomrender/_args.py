"""Checks of the public functions' keyword arguments, each raising the package's own
error class with the argument's name and what it accepts: no Python truthiness
(``distractors="no"`` is not True), no truncation (``depth=1.9`` is not 1), no
OverflowError or TypeError from the Rust side for a value out of range.

``bool`` is refused where a number is expected (it is an ``int`` to Python), and
numbers where a flag is. NumPy scalars count as what they are (``np.int64(3)`` is a
whole number, ``np.bool_(True)`` a flag).
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any, Optional, Sequence, Type

from ._errors import GeomrenderError, OptionError

#: Largest u64 (seeds, epochs, problem indices).
U64_MAX = 2**64 - 1


def _shown(value: Any) -> str:
    """``'value'``, as the CLI quotes a value it refuses (cut at 60 characters)."""
    text = str(value)
    return "'" + (text if len(text) <= 60 else text[:57] + "...") + "'"


def fail(error: Type[GeomrenderError], name: str, value: Any, expected: str) -> GeomrenderError:
    """The error for ``name=value``, saying what ``name`` accepts."""
    return error(f"invalid value {_shown(value)} for {name}: expected {expected}")


def is_whole(value: Any) -> bool:
    """An int (or NumPy integer), not a bool."""
    return isinstance(value, numbers.Integral) and not _is_flag(value)


def _is_flag(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"


def whole(
    name: str, value: Any, lo: int, hi: int, error: Type[GeomrenderError] = OptionError
) -> int:
    """``value`` as an int in ``lo..=hi``."""
    if not is_whole(value) or not lo <= int(value) <= hi:
        raise fail(error, name, value, f"a whole number in {lo}..={hi}")
    return int(value)


def optional_whole(
    name: str, value: Any, lo: int, hi: int, error: Type[GeomrenderError] = OptionError
) -> Optional[int]:
    """``value`` as an int in ``lo..=hi``, or None."""
    return None if value is None else whole(name, value, lo, hi, error)


def real(
    name: str,
    value: Any,
    lo: float,
    hi: float,
    error: Type[GeomrenderError] = OptionError,
) -> float:
    """``value`` as a finite float in ``lo..=hi``."""
    ok = isinstance(value, numbers.Real) and not _is_flag(value)
    if not ok or not math.isfinite(float(value)) or not lo <= float(value) <= hi:
        expected = f"a finite number >= {lo:g}" if math.isinf(hi) else f"a number in {lo:g}..={hi:g}"
        raise fail(error, name, value, expected)
    return float(value)


def flag(name: str, value: Any, error: Type[GeomrenderError] = OptionError) -> bool:
    """``value`` as a bool: True or False only (``"no"`` and 0 are refused)."""
    if not _is_flag(value):
        raise fail(error, name, value, "True or False")
    return bool(value)


def choice(
    name: str, value: Any, allowed: Sequence[str], error: Type[GeomrenderError] = OptionError
) -> str:
    """``value`` when it is one of ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise fail(error, name, value, "one of " + ", ".join(allowed))
    return value


def text(name: str, value: Any, what: str, error: Type[GeomrenderError] = OptionError) -> str:
    """``value`` when it is a string."""
    if not isinstance(value, str):
        raise fail(error, name, value, what)
    return value


def path(name: str, value: Any, error: Type[GeomrenderError] = OptionError) -> str:
    """``value`` as a path string (str or os.PathLike)."""
    if isinstance(value, (str, os.PathLike)):
        p = os.fspath(value)
        if isinstance(p, str) and p:
            return p
    raise fail(error, name, value, "a path (str or os.PathLike)")
