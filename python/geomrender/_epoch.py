"""A Stream's epoch, shared with the DataLoader workers that hold a copy of it.

A DataLoader with ``persistent_workers=True`` gives each worker a copy of the
dataset once, when the worker starts: forked, it is a copy of the parent's memory;
spawned (or forkserver), the dataset is pickled into it. A plain attribute set by
``set_epoch`` afterwards never reaches them, and epoch 1 repeats epoch 0.

So the epoch lives in shared memory (``multiprocessing.RawValue``, a 64-bit word in
an mmap'd arena): a forked worker maps the same page, and a spawned one gets it
passed as a file descriptor while the process starts (multiprocessing allows that
only then: ``get_spawning_popen()``). Each worker reads the epoch when an epoch's
iteration starts, so ``set_epoch(e)`` before iterating the loader reaches every
worker, those already running included. (torch's ``DistributedSampler`` needs
none of this: a map-style dataset's sampler runs in the main process. An
IterableDataset has no sampler, so OpenCLIP's webdataset pipeline keeps its epoch
in a ``multiprocessing.Value`` for the same reason.)

Where the memory cannot be shared, the epoch is a plain value, and the package
says so loudly, once: a copy pickled outside a process start (``pickle.dumps``,
a Ray task, ``copy.deepcopy``) holds the epoch it was pickled with, and a stream
whose shared memory could not be made (no /dev/shm) reaches no worker.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import warnings
from multiprocessing import context as _context
from typing import Any, Optional

from ._errors import GeomrenderWarning


def _warn_once(owner: "SharedEpoch", message: str) -> None:
    if not owner._warned:
        owner._warned = True
        warnings.warn(message, GeomrenderWarning, stacklevel=4)


class SharedEpoch:
    """A u64 shared with the processes a DataLoader starts (see the module's text)."""

    def __init__(self, epoch: int) -> None:
        self._shared: Optional[Any] = None
        self._value = epoch
        self._why_not: Optional[str] = None
        self._copied = False
        self._warned = False
        self._pid = os.getpid()
        try:
            self._shared = multiprocessing.RawValue(ctypes.c_uint64, epoch)
        except OSError as e:  # no shared memory (/dev/shm) in this environment
            self._why_not = f"shared memory could not be made ({e})"

    def get(self) -> int:
        """The current epoch (as the parent last set it, where it is shared)."""
        if self._shared is not None:
            return int(self._shared.value)
        if self._why_not is not None and os.getpid() != self._pid:
            _warn_once(
                self,
                f"geomrender.Stream: {self._why_not}; this worker keeps epoch {self._value} "
                "whatever set_epoch() says in the parent (with persistent_workers=True, "
                "every epoch repeats it)",
            )
        return self._value

    def set(self, epoch: int) -> None:
        if self._shared is not None:
            self._shared.value = epoch
        self._value = epoch
        if self._copied:
            _warn_once(
                self,
                f"geomrender.Stream.set_epoch({epoch}): this Stream was pickled outside a "
                "process start (pickle.dumps, a Ray task, copy.deepcopy): those copies keep "
                "the epoch they were pickled with; DataLoader workers (fork, spawn, "
                "forkserver) do see it",
            )
        elif self._why_not is not None:
            _warn_once(
                self,
                f"geomrender.Stream.set_epoch({epoch}): {self._why_not}, so DataLoader "
                "workers that already exist (persistent_workers=True) keep the epoch they "
                "started with; pass persistent_workers=False, or make a Stream per epoch",
            )

    def __getstate__(self) -> dict:
        if self._shared is not None and _context.get_spawning_popen() is not None:
            # A process start (spawn, forkserver): the child maps the same memory.
            return {"shared": self._shared, "value": self._value, "pid": self._pid}
        # Anything else gets a snapshot; set_epoch will say that it cannot reach it.
        self._copied = True
        return {"shared": None, "value": self.get(), "pid": self._pid}

    def __setstate__(self, state: dict) -> None:
        if state["shared"] is None:
            # A snapshot: a stream of its own, its epoch shared with its own workers.
            self.__init__(state["value"])  # type: ignore[misc]
        else:
            self._shared = state["shared"]
            self._value = state["value"]
            self._why_not = None
            self._copied = False
            self._warned = False
            self._pid = state["pid"]
