"""geomrender: GeomVerse-style geometry problems, rendered with controlled
robustness variants, from Python.

The Rust core does the work (the same code, and the same bytes, as the
``geomrender`` CLI), with the GIL released::

    import geomrender as gr

    problems = gr.generate(200, seed=0)          # == geomrender generate --count 200
    for v in gr.variants(problems[0]):           # base + the default sweep
        image = gr.render(v)                     # H×W×4 uint8, owns the Rust buffer

    for sample in gr.Stream(seed=0, variants="fontsize"):   # on the fly, for training
        sample["image"], sample["question"], sample["answer"]

Errors are :class:`GeomrenderError` subclasses carrying the CLI's message.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence, Union

# Mesa's device-select Vulkan layer prints "XDG_RUNTIME_DIR is invalid" on headless
# machines when backend="auto" looks for a GPU; as the CLI does (src/cli/mod.rs),
# it is switched off when no session is present.
if "XDG_RUNTIME_DIR" not in os.environ:
    os.environ.setdefault("NODEVICE_SELECT", "1")

from . import _native  # noqa: E402
from ._errors import (  # noqa: E402
    GenerateError,
    GeomrenderError,
    GeomrenderWarning,
    OptionError,
    RenderError,
    SceneError,
    ScoreError,
    VariantError,
)
from ._native import Problem, Variant  # noqa: E402
from ._report import Report  # noqa: E402

if TYPE_CHECKING:  # pragma: no cover
    from .stream import Stream

__version__: str = _native.__version__

#: The sweep ``geomrender sweep`` runs by default (GeomVerse's four axes).
GEOMVERSE_SWEEP: str = _native.GEOMVERSE_SWEEP
#: The default sweep of relation items.
RELATION_SWEEP: str = _native.RELATION_SWEEP
#: Largest reasoning depth.
MAX_DEPTH: int = _native.MAX_DEPTH
#: Share of relation items answered "Cannot be inferred" by default.
DEFAULT_INDETERMINATE: float = _native.DEFAULT_INDETERMINATE
#: Largest ``count`` (as the CLI's ``--count``).
MAX_COUNT = 100_000_000

__all__ = [
    "AXES",
    "Axis",
    "DEFAULT_INDETERMINATE",
    "GEOMVERSE_SWEEP",
    "GenerateError",
    "GeomrenderError",
    "GeomrenderWarning",
    "MAX_DEPTH",
    "OptionError",
    "Problem",
    "RELATION_SWEEP",
    "RenderError",
    "Report",
    "SceneError",
    "ScoreError",
    "Stream",
    "Variant",
    "VariantError",
    "generate",
    "render",
    "score",
    "variants",
]


@dataclass(frozen=True)
class Axis:
    """One variant axis, as ``geomrender variants --list`` describes it."""

    name: str
    #: What a value of the axis changes, and nothing else.
    changes: str
    #: Where it comes from (a paper, or ours).
    source: str
    #: The base image's value.
    base: str
    #: The values swept when a SPEC names the axis alone.
    sweep: tuple
    #: The values it accepts.
    accepts: str
    #: Values on a scale (True) or categories.
    numeric: bool
    #: How it applies to a bare Scene.
    scenes: str
    #: What ``geomrender audit`` lets a value of it change.
    may_change: tuple
    #: Whether relation items have it.
    relations: bool


#: Every axis, in the order ``geomrender variants --list`` shows them (from the Rust table).
AXES: tuple = tuple(
    Axis(**{**a, "sweep": tuple(a["sweep"]), "may_change": tuple(a["may_change"])})
    for a in _native.axes()
)


def _count(name: str, value: Any) -> int:
    """``value`` as a count, refused as the CLI refuses ``--count``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GenerateError(f"invalid value '{value}' for {name}: expected a whole number")
    if not 0 <= value <= MAX_COUNT:
        raise GenerateError(f"invalid value '{value}' for {name}: {value} is not in 0..={MAX_COUNT}")
    return value


def _positive(name: str, value: Any) -> Any:
    """``value`` when None or a whole number ≥ 1, else :class:`OptionError`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(f"invalid value '{value}' for {name}: expected a whole number >= 1")
    return value


def _choice(name: str, value: Any, allowed: tuple) -> Any:
    if value not in allowed:
        raise OptionError(f"invalid value '{value}' for {name}: expected one of {', '.join(allowed)}")
    return value


def _depth(depth: Union[int, Sequence[int]]) -> tuple:
    if isinstance(depth, int) and not isinstance(depth, bool):
        return (depth, depth)
    try:
        lo, hi = depth  # type: ignore[misc]
        return (int(lo), int(hi))
    except (TypeError, ValueError):
        raise GenerateError(f"bad depth {depth!r}: expected N or (A, B)") from None


def _generator(
    seed: int = 0,
    depth: Union[int, Sequence[int]] = (1, 3),
    *,
    task: str = "geomverse",
    branch_prob: float = 0.0,
    distractors: bool = False,
    variablized: float = 0.0,
    info: str = "image",
    question: str = "any",
    standard_only: bool = False,
    subset: str = "all",
    domain: str = "all",
    mode: str = "text",
    indeterminate: float = DEFAULT_INDETERMINATE,
) -> "_native.Generator":
    lo, hi = _depth(depth)
    if not (0 <= lo <= 255 and 0 <= hi <= 255):
        raise GenerateError(f"depth {depth!r} must lie within 1..={MAX_DEPTH}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise GenerateError(f"invalid value '{seed}' for seed: expected a whole number in 0..2^64")
    return _native.Generator(
        task, seed, (lo, hi), float(branch_prob), bool(distractors), float(variablized),
        info, question, bool(standard_only), subset, domain, mode, float(indeterminate),
    )


def generate(
    count: int,
    seed: int = 0,
    depth: Union[int, Sequence[int]] = (1, 3),
    *,
    start: int = 0,
    task: str = "geomverse",
    **options: Any,
) -> "list[Problem]":
    """Problems ``start .. start + count`` of run ``seed``: the problems
    ``geomrender generate --count N --seed S`` writes, byte for byte
    (``Problem.to_json()`` is its line).

    ``depth`` is a number or an inclusive ``(low, high)`` range (1..=6).
    ``task="relations"`` makes GeomRel relation items instead. Other options, as
    the CLI's flags: ``branch_prob``, ``distractors``, ``variablized``, ``info``
    (``"image"``/``"text"``), ``question`` (``"side"``, ``"angle"``, ``"area"``,
    ``"perimeter"``, ``"any"``), ``standard_only``; for relation items ``subset``
    (``"basic"``, ``"advanced"``, ``"all"``), ``domain`` (``"line"``, ``"angle"``,
    ``"shape"``, ``"all"``), ``mode`` (``"text"``, ``"visual"``), ``indeterminate``.

    Raises :class:`GenerateError` for options out of range.
    """
    count = _count("count", count)
    start = _count("start", start) if start else 0
    gen = _generator(seed, depth, task=task, **options)
    return _native.generate(gen, start, count)


def variants(
    item: Union[Problem, dict, str],
    spec: "str | None" = None,
    *,
    grid: bool = False,
    errors: str = "raise",
) -> "list[Variant]":
    """The images of ``item`` under the variant ``spec`` (``"fontsize;annotation"``,
    ``"fontsize=8,24"``; default: :data:`GEOMVERSE_SWEEP`, or :data:`RELATION_SWEEP`
    for a relation item), base image first, as ``geomrender render --variants``
    makes them: a variant the problem has none of, or one whose image and texts
    would equal the base's, is left out.

    ``item`` is a :class:`Problem`, a Problem or Scene dict, or a JSON line.
    ``grid=True`` crosses the axes instead of varying one at a time. A variant that
    cannot be made raises (``errors="raise"``), is warned about (``"warn"``) or is
    left out (``"skip"``).

    Raises :class:`VariantError` for an unknown axis or value, :class:`SceneError`
    for a malformed item.
    """
    _choice("errors", errors, ("raise", "warn", "skip"))
    if spec is None:
        relation = isinstance(item, Problem) and item.task == "relations"
        spec = RELATION_SWEEP if relation else GEOMVERSE_SWEEP
    made, _skipped, failed = _native.variants(item, spec, grid)
    for e in failed:
        if errors == "raise":
            raise e
        if errors == "warn":
            warnings.warn(str(e), GeomrenderWarning, stacklevel=2)
    return made


_Item = Union[Problem, Variant, dict, str]


def render(
    items: "Union[_Item, Iterable[_Item]]",
    size: "int | None" = None,
    backend: str = "auto",
    format: str = "array",
    threads: "int | None" = None,
) -> Any:
    """Draws ``items``: :class:`Problem` (its base image), :class:`Variant`, Scene
    dicts or JSON lines. One item gives one result, a list gives a list.

    ``format``:
      - ``"array"``: ``numpy.ndarray`` H×W×4 ``uint8`` (RGBA, C-contiguous) that owns
        the Rust pixel buffer (no copy; ``arr.base`` is the Rust owner);
      - ``"png"``: the file bytes a run writes (JPEG for a ``jpeg=Q`` variant);
      - ``"pil"``: ``PIL.Image.Image`` (RGBA);
      - ``"svg"``: the Scene's exact SVG as a string.

    ``size`` scales each image to that width in pixels (default: the Scene's own,
    512 for a base diagram; the ``resolution`` axis sets its own). ``backend``:
    ``"auto"`` (a hardware GPU if there is one, else the CPU rasteriser), ``"cpu"``,
    ``"resvg"`` or ``"gpu"``. The batch is drawn in parallel on ``threads`` threads
    (default: all cores) with the GIL released.
    """
    single = isinstance(items, (Problem, Variant, dict, str))
    batch = [items] if single else items
    _choice("format", format, ("array", "png", "pil", "svg"))
    out = _native.render(batch, _positive("size", size), backend, format, _positive("threads", threads))
    if format == "pil":
        from PIL import Image

        out = [Image.fromarray(a, "RGBA") for a in out]
    return out[0] if single else out


def score(
    manifest: str,
    predictions: "Union[str, Sequence[str]]",
    *,
    tolerance: float = _native.DEFAULT_TOLERANCE,
    zero_tolerance: float = _native.DEFAULT_ZERO_TOLERANCE,
    missing: str = "exclude",
    format: str = "auto",
) -> Report:
    """Scores model predictions against a run's ``manifest.jsonl``, as
    ``geomrender score`` does: answer extraction, relaxed accuracy per axis and
    value with Wilson intervals, paired flips against the base image.

    ``predictions`` is a file, directory or glob, or a list of them (one model per
    file; ``{"id", "prediction", "model"?}`` lines, lmms-eval ``--log_samples`` or
    VLMEvalKit tables). ``missing``: ``"exclude"`` or ``"wrong"``. ``format``:
    ``"auto"``, ``"geomrender"``, ``"lmms-eval"`` or ``"vlmevalkit"``.

    Raises :class:`ScoreError` when the inputs cannot be read.
    """
    if isinstance(predictions, (str, os.PathLike)):
        predictions = [predictions]
    report, items = _native.score(
        os.fspath(manifest), [os.fspath(p) for p in predictions],
        float(tolerance), float(zero_tolerance), missing, format,
    )
    return Report(report, items)


def __getattr__(name: str) -> Any:
    # Stream is imported on first use: it subclasses torch's IterableDataset when
    # torch is installed, and importing torch takes seconds.
    if name == "Stream":
        from .stream import Stream

        return Stream
    raise AttributeError(f"module 'geomrender' has no attribute {name!r}")
