"""``geomrender.Stream``: problems generated, varied and drawn on the fly.

Sample ``k`` of problem ``i`` depends only on (seed, epoch, i, the options): the
stream splits the problem indices across PyTorch DataLoader workers
(``torch.utils.data.get_worker_info()``) and ranks (``shard=(rank, ranks)``) by
stride, so N workers × M ranks draw each index exactly once, and their samples are
those of a single-process stream. Like webdataset, it subclasses torch's
``IterableDataset`` when torch is installed and a plain class otherwise.

The epoch is shared with the DataLoader's workers (``_epoch.SharedEpoch``), so
``set_epoch`` reaches workers that already exist (``persistent_workers=True``).
"""

from __future__ import annotations

import itertools
import sys
import warnings
from typing import Any, Iterator, Optional, Sequence, Tuple, Union

from . import _args, _native
from ._epoch import SharedEpoch
from ._errors import GenerateError, GeomrenderWarning, OptionError, VariantError

try:  # webdataset's pattern: a DataLoader needs an IterableDataset to iterate it.
    from torch.utils.data import IterableDataset as _Base
except ImportError:  # pragma: no cover - torch is optional
    _Base = object  # type: ignore[assignment,misc]


def _worker_info() -> Tuple[int, int]:
    """(worker id, workers) of the DataLoader worker this runs in, (0, 1) outside one.

    torch is looked up, not imported: a DataLoader worker has it already."""
    torch = sys.modules.get("torch")
    if torch is None:
        return (0, 1)
    info = torch.utils.data.get_worker_info()
    return (0, 1) if info is None else (info.id, info.num_workers)


def _epoch_value(value: Any) -> int:
    return _args.whole("epoch", value, 0, _args.U64_MAX)


class Stream(_Base):  # type: ignore[misc,valid-type]
    """An iterable of samples, each a dict: ``image`` (per ``format``), ``id``,
    ``base_id``, ``index`` (the problem's), ``variant`` (``"base"`` or
    ``"axis=value"``), ``question``, ``answer``, ``cot``, ``annotation``,
    ``depth``, ``question_type``, ``task`` (and a relation item's ``choices``,
    ``answer_text``, ``relation``, ``domain``, ``subset``, ``mode``; and on
    ``modality=vision-only`` the ``caption``, the question drawn in the image).

    Problems ``0 .. count`` (endless when ``count`` is None) of run ``seed``, each
    drawn with ``variants`` (a SPEC; ``None``: the base image only), base first.
    ``shard=(rank, ranks)`` keeps this rank's indices; inside a DataLoader worker
    the rank's indices are split again across the workers. ``set_epoch(e)`` (or
    ``epoch=``) draws a fresh, seeded set of problems per epoch; epoch 0 is the
    CLI's run ``seed``. With ``refresh="values"`` an epoch draws the same problems
    with other givens instead (DynaMath's value variants): epoch ``e`` > 0 is each
    problem's ``values=e`` redraw, id ``<id>__values-e``, varied under
    ``variants`` (which then may not name ``values``); a problem with no such
    redraw is left out as a variant is. ``set_epoch`` reaches DataLoader workers that already
    exist (``persistent_workers=True``; fork, spawn or forkserver): call it
    before iterating the loader, as with torch's ``DistributedSampler``. The
    other options are :func:`geomrender.generate`'s.

    Indices are drawn ``batch`` problems at a time, in parallel on ``threads``
    threads (default: all cores) with the GIL released; Ctrl-C stops a batch
    within about 64 images. A ``batch`` whose images cannot fit in memory is
    refused when the stream is made. A variant that cannot be made is left out
    with a :class:`GeomrenderWarning` (``errors="warn"``), silently (``"skip"``),
    or raises (``"raise"``). For a DataLoader with ``batch_size``, pass
    ``collate_fn=geomrender.collate`` (a relation item's ``choices`` has 3 to 5
    entries, which torch's default collate cannot stack).
    """

    def __init__(
        self,
        seed: int = 0,
        count: Optional[int] = None,
        variants: Optional[str] = None,
        depth: Union[int, Sequence[int], None] = None,
        *,
        shard: Tuple[int, int] = (0, 1),
        epoch: int = 0,
        refresh: str = "problems",
        task: str = "geomverse",
        format: str = "array",
        backend: str = "cpu",
        size: Optional[int] = None,
        batch: int = 16,
        threads: Optional[int] = None,
        errors: str = "warn",
        **options: Any,
    ) -> None:
        from . import MAX_COUNT, _choice, _generator, _size, _threads

        count = _args.optional_whole("count", count, 0, MAX_COUNT, GenerateError)
        try:
            rank, ranks = shard
        except (TypeError, ValueError):
            rank, ranks = None, None
        if not (_args.is_whole(ranks) and _args.is_whole(rank) and 0 <= rank < ranks <= 2**32):
            raise _args.fail(OptionError, "shard", shard, "(rank, ranks) with 0 <= rank < ranks <= 2^32")
        batch = _args.whole("batch", batch, 1, MAX_COUNT)
        threads = _threads(threads)
        size = _size(size)
        _choice("errors", errors, ("raise", "warn", "skip"))
        _choice("refresh", refresh, ("problems", "values"))
        _choice("format", format, ("array", "png", "pil", "svg"))
        backend = _args.text("backend", backend, "one of auto, gpu, cpu, resvg")
        spec = variants or ""
        if variants is not None:
            spec = _args.text("variants", variants, "a SPEC string or None", VariantError)
        self.seed = seed
        self.count = count
        self.spec = spec
        self.shard = (int(rank), int(ranks))
        self._epoch = SharedEpoch(_epoch_value(epoch))
        self.refresh = refresh
        self.format = format
        self.backend = backend
        self.size = size
        self.batch = batch
        self.threads = threads
        self.errors = errors
        self._options = dict(depth=depth, task=task, **options)
        # Every option is checked now, not in a worker (the stream keeps plain
        # values only, so that it pickles for spawned DataLoader workers).
        _native.stream_batch(
            _generator(seed, **self._options), self.spec, [], format, backend, threads, size, self._values(1)
        )
        _native.check_stream(self.spec, batch, format, size)

    @property
    def epoch(self) -> int:
        """The epoch the stream draws (shared with its DataLoader workers)."""
        return self._epoch.get()

    def set_epoch(self, epoch: int) -> None:
        """Draw epoch ``epoch``'s problems (run seed derived from (seed, epoch);
        with ``refresh="values"``, the same problems' ``values=epoch`` redraws),
        here and in the DataLoader workers that hold this stream, the running ones
        included; call it before iterating the loader."""
        self._epoch.set(_epoch_value(epoch))

    def _values(self, epoch: int) -> int:
        """The ``values=k`` redraw epoch ``epoch`` draws (0: the problems as generated)."""
        return epoch if self.refresh == "values" else 0

    def _seed(self, epoch: int) -> int:
        """The run seed epoch ``epoch`` draws its problems from."""
        return self.seed if self.refresh == "values" else _native.epoch_seed(self.seed, epoch)

    def indices(self, worker: Optional[Tuple[int, int]] = None) -> Iterator[int]:
        """The problem indices this rank (and DataLoader worker) draws, in order."""
        wid, workers = worker if worker is not None else _worker_info()
        rank, ranks = self.shard
        slot, slots = rank * workers + wid, ranks * workers
        if self.count is None:
            return itertools.count(slot, slots)
        return iter(range(slot, self.count, slots))

    def __iter__(self) -> Iterator[dict]:
        from . import _generator

        epoch = self._epoch.get()
        gen = _generator(self._seed(epoch), **self._options)
        todo = self.indices()
        while True:
            chunk = list(itertools.islice(todo, self.batch))
            if not chunk:
                return
            samples, failed = _native.stream_batch(
                gen, self.spec, chunk, self.format, self.backend, self.threads, self.size, self._values(epoch)
            )
            for e in failed:
                if self.errors == "raise":
                    raise e
                if self.errors == "warn":
                    warnings.warn(str(e), GeomrenderWarning, stacklevel=2)
            if self.format == "pil":
                from PIL import Image

                for s in samples:
                    s["image"] = Image.fromarray(s["image"], "RGBA")
            yield from samples

    def __repr__(self) -> str:
        return (
            f"Stream(seed={self.seed}, count={self.count}, variants={self.spec!r}, "
            f"shard={self.shard}, epoch={self.epoch}, refresh={self.refresh!r}, format={self.format!r})"
        )
