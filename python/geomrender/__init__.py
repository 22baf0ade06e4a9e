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

    loader = DataLoader(gr.Stream(task="relations"), batch_size=16, collate_fn=gr.collate)

Errors are :class:`GeomrenderError` subclasses carrying the CLI's message; every
argument is checked by type and range, and nothing aborts the interpreter (what
cannot fit in memory is refused up front, an allocation that fails is a
``MemoryError``).
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

from . import _args, _native  # noqa: E402
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
    from ._collate import collate
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
#: Most ``threads`` (as the CLI's ``--threads``).
MAX_THREADS: int = _native.MAX_THREADS
#: Largest ``size``: a Scene's largest width in pixels.
MAX_SIZE: int = _native.MAX_SIZE

__all__ = [
    "AXES",
    "Axis",
    "DEFAULT_INDETERMINATE",
    "GEOMVERSE_SWEEP",
    "GenerateError",
    "GeomrenderError",
    "GeomrenderWarning",
    "MAX_COUNT",
    "MAX_DEPTH",
    "MAX_SIZE",
    "MAX_THREADS",
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
    "collate",
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
    return _args.whole(name, value, 0, MAX_COUNT, GenerateError)


def _positive(name: str, value: Any, hi: int) -> Any:
    """``value`` when None or a whole number in 1..=hi, else :class:`OptionError`."""
    return _args.optional_whole(name, value, 1, hi)


def _threads(value: Any) -> Any:
    """``threads``: None (one per core) or 1..=:data:`MAX_THREADS`, as the CLI's ``--threads``."""
    return _positive("threads", value, MAX_THREADS)


def _size(value: Any) -> Any:
    """``size``: None (the Scene's own) or a width in 1..=:data:`MAX_SIZE` pixels."""
    return _positive("size", value, MAX_SIZE)


def _choice(name: str, value: Any, allowed: tuple) -> Any:
    return _args.choice(name, value, allowed)


def _depth(depth: Any) -> tuple:
    """``depth`` (N, or an inclusive (low, high) pair) as (low, high) in 1..=MAX_DEPTH."""
    expected = f"a whole number or a (low, high) pair of whole numbers in 1..={MAX_DEPTH}, low <= high"
    pair = (depth, depth) if _args.is_whole(depth) else depth
    try:
        lo, hi = pair  # type: ignore[misc]
    except (TypeError, ValueError):
        raise _args.fail(GenerateError, "depth", depth, expected) from None
    if isinstance(pair, (str, bytes, dict)) or not (_args.is_whole(lo) and _args.is_whole(hi)):
        raise _args.fail(GenerateError, "depth", depth, expected)
    if not 1 <= lo <= hi <= MAX_DEPTH:
        raise _args.fail(GenerateError, "depth", depth, expected)
    return (int(lo), int(hi))


#: generate's options per task, with their defaults (the CLI's).
_GEOMVERSE_OPTIONS = dict(
    depth=(1, 3), branch_prob=0.0, distractors=False, variablized=0.0,
    info="image", question="any", standard_only=False,
)
_RELATION_OPTIONS = dict(subset="all", domain="all", mode="text", indeterminate=DEFAULT_INDETERMINATE)


def _generator(seed: Any = 0, *, task: Any = "geomverse", **given: Any) -> "_native.Generator":
    """The Rust Generator of ``generate``'s options, each checked: its type and range
    here (the error names the argument), names (info, subset, …) by the Rust side.
    An option of the other task is refused, as the CLI refuses ``--depth`` with
    ``--task relations``; None stands for an option not given."""
    task = _args.choice("task", task, ("geomverse", "relations"), GenerateError)
    seed = _args.whole("seed", seed, 0, _args.U64_MAX, GenerateError)
    given = {k: v for k, v in given.items() if v is not None}
    known = {**_GEOMVERSE_OPTIONS, **_RELATION_OPTIONS}
    for name in given:
        if name not in known:
            raise GenerateError(
                f"unknown option {name!r}: generate takes seed, depth, start, task and "
                + ", ".join(k for k in known if k != "depth")
            )
    own, other, why = (
        (_GEOMVERSE_OPTIONS, _RELATION_OPTIONS, "it shapes relation items (task='relations')")
        if task == "geomverse"
        else (_RELATION_OPTIONS, _GEOMVERSE_OPTIONS, "it shapes GeomVerse problems (task='geomverse')")
    )
    for name in given:
        if name in other:
            raise GenerateError(f"{name} does not apply to task={task!r}: {why}")
    o = {**_GEOMVERSE_OPTIONS, **_RELATION_OPTIONS, **given}
    err = GenerateError
    return _native.Generator(
        task,
        seed,
        _depth(o["depth"]),
        _args.real("branch_prob", o["branch_prob"], 0.0, 1.0, err),
        _args.flag("distractors", o["distractors"], err),
        _args.real("variablized", o["variablized"], 0.0, 1.0, err),
        _args.text("info", o["info"], "image or text", err),
        _args.text("question", o["question"], "side, angle, area, perimeter or any", err),
        _args.flag("standard_only", o["standard_only"], err),
        _args.text("subset", o["subset"], "basic, advanced or all", err),
        _args.text("domain", o["domain"], "line, angle, shape or all", err),
        _args.text("mode", o["mode"], "text or visual", err),
        _args.real("indeterminate", o["indeterminate"], 0.0, 1.0, err),
    )


def generate(
    count: int,
    seed: int = 0,
    depth: "Union[int, Sequence[int], None]" = None,
    *,
    start: int = 0,
    task: str = "geomverse",
    **options: Any,
) -> "list[Problem]":
    """Problems ``start .. start + count`` of run ``seed``: the problems
    ``geomrender generate --count N --seed S`` writes, byte for byte
    (``Problem.to_json()`` is its line).

    ``depth`` is a whole number or an inclusive ``(low, high)`` pair in 1..=6
    (default ``(1, 3)``). ``task="relations"`` makes GeomRel relation items instead.
    Other options, as the CLI's flags: ``branch_prob``, ``distractors`` (True or
    False), ``variablized``, ``info`` (``"image"``/``"text"``), ``question``
    (``"side"``, ``"angle"``, ``"area"``, ``"perimeter"``, ``"any"``),
    ``standard_only``; for relation items ``subset`` (``"basic"``,
    ``"advanced"``, ``"all"``), ``domain`` (``"line"``, ``"angle"``, ``"shape"``,
    ``"all"``), ``mode`` (``"text"``, ``"visual"``), ``indeterminate``. An option
    of the other task is refused, as the CLI refuses it.

    The problems are made in chunks with the GIL released; Ctrl-C stops between
    chunks (``KeyboardInterrupt``). A count whose problems cannot fit in this
    process's memory is refused before any work (:class:`OptionError`: draw
    them as you go with :class:`Stream`, or in slices with ``start=``), and an
    allocation that fails raises ``MemoryError``.

    Raises :class:`GenerateError` for options out of range.
    """
    count = _count("count", count)
    start = _args.whole("start", start, 0, _args.U64_MAX - count, GenerateError)
    gen = _generator(seed, task=task, depth=depth, **options)
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
    grid = _args.flag("grid", grid)
    if spec is None:
        relation = isinstance(item, Problem) and item.task == "relations"
        spec = RELATION_SWEEP if relation else GEOMVERSE_SWEEP
    spec = _args.text("spec", spec, 'a SPEC string ("fontsize;annotation", "fontsize=8,24")', VariantError)
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
    (default: all cores, at most :data:`MAX_THREADS`) with the GIL released, in
    chunks: Ctrl-C stops it between chunks (``KeyboardInterrupt``).

    Arrays that cannot all fit in this process's memory (2,000 images at
    ``size=1024`` are 8 GiB) are refused before any work (:class:`OptionError`:
    render in slices, or draw them as you go with :class:`Stream`); an
    allocation that fails raises ``MemoryError``.
    """
    single = isinstance(items, (Problem, Variant, dict, str))
    batch = [items] if single else items
    _choice("format", format, ("array", "png", "pil", "svg"))
    backend = _args.text("backend", backend, "one of auto, gpu, cpu, resvg")
    out = _native.render(batch, _size(size), backend, format, _threads(threads))
    if format == "pil":
        from PIL import Image

        out = [Image.fromarray(a, "RGBA") for a in out]
    return out[0] if single else out


def score(
    manifest: "Union[str, os.PathLike]",
    predictions: "Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]",
    *,
    tolerance: float = _native.DEFAULT_TOLERANCE,
    zero_tolerance: float = _native.DEFAULT_ZERO_TOLERANCE,
    missing: str = "exclude",
    format: str = "auto",
    matched: bool = False,
) -> Report:
    """Scores model predictions against a run's ``manifest.jsonl``, as
    ``geomrender score`` does: answer extraction, relaxed accuracy per axis and
    value with Wilson intervals, paired flips against the base image.

    ``predictions`` is a file, directory or glob, or a list of them (one model per
    file; ``{"id", "prediction", "model"?}`` lines, lmms-eval ``--log_samples`` or
    VLMEvalKit tables). ``missing``: ``"exclude"`` or ``"wrong"``. ``format``:
    ``"auto"``, ``"geomrender"``, ``"lmms-eval"`` or ``"vlmevalkit"``.
    ``matched=True`` counts only the base problems with an image of every variant
    (and every model's prediction on each), as ``score --matched``.

    Raises :class:`ScoreError` when the inputs cannot be read, :class:`OptionError`
    for an argument out of range.
    """
    manifest = _args.path("manifest", manifest)
    if isinstance(predictions, (str, os.PathLike)):
        predictions = [predictions]
    if not isinstance(predictions, (list, tuple)) or not predictions:
        raise _args.fail(OptionError, "predictions", predictions, "a path or a non-empty list of paths")
    paths = [_args.path("predictions", p) for p in predictions]
    report, items = _native.score(
        manifest, paths,
        _args.real("tolerance", tolerance, 0.0, float("inf")),
        _args.real("zero_tolerance", zero_tolerance, 0.0, float("inf")),
        _choice("missing", missing, ("exclude", "wrong")),
        _choice("format", format, ("auto", "geomrender", "lmms-eval", "vlmevalkit")),
        _args.flag("matched", matched),
    )
    return Report(report, items)


def _problem_from_pickle(text: str) -> Problem:
    """Unpickles a :class:`Problem` (its JSON line, kept as it was)."""
    return _native.problem_from_pickle(text)


def _variant_from_pickle(state: str, label: str) -> Variant:
    """Unpickles a :class:`Variant` (its Scene, storage, source and texts)."""
    return _native.variant_from_pickle(state, label)


def __getattr__(name: str) -> Any:
    # Stream and collate are imported on first use: Stream subclasses torch's
    # IterableDataset when torch is installed, and importing torch takes seconds.
    if name == "Stream":
        from .stream import Stream

        return Stream
    if name == "collate":
        from ._collate import collate

        return collate
    raise AttributeError(f"module 'geomrender' has no attribute {name!r}")
