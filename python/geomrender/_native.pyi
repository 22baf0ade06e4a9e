"""Type stubs of the Rust extension ``geomrender._native`` (python/src/)."""

from os import PathLike
from typing import Any, Iterable, Optional, Union

import numpy as np
import numpy.typing as npt

__version__: str
GEOMVERSE_SWEEP: str
RELATION_SWEEP: str
DEFAULT_INDETERMINATE: float
MAX_DEPTH: int
DEFAULT_TOLERANCE: float
DEFAULT_ZERO_TOLERANCE: float

Answer = Union[float, str]

class Problem:
    """One generated problem; ``to_json()`` is the line ``geomrender generate`` writes."""

    @property
    def id(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def question(self) -> str: ...
    @property
    def cot(self) -> str: ...
    @property
    def answer(self) -> Answer: ...
    @property
    def depth(self) -> int: ...
    @property
    def question_type(self) -> str: ...
    @property
    def task(self) -> str: ...
    @property
    def choices(self) -> Optional[list[str]]: ...
    @staticmethod
    def from_json(text: str) -> Problem: ...
    @staticmethod
    def from_dict(value: dict[str, Any]) -> Problem: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def _repr_png_(self) -> bytes: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Variant:
    """One image of a problem under a variant (``label == "base"`` for the base image)."""

    @property
    def id(self) -> str: ...
    @property
    def base_id(self) -> str: ...
    @property
    def variant(self) -> dict[str, Any]: ...
    @property
    def label(self) -> str: ...
    @property
    def question(self) -> Optional[str]: ...
    @property
    def cot(self) -> Optional[str]: ...
    @property
    def answer(self) -> Optional[Answer]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def encoding(self) -> str: ...
    @property
    def scene(self) -> dict[str, Any]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def _repr_png_(self) -> bytes: ...

class Generator:
    """A run's generation options, checked when made (see ``geomrender.generate``)."""

    def __init__(
        self,
        task: str,
        seed: int,
        depth: tuple[int, int],
        branch_prob: float,
        distractors: bool,
        variablized: float,
        info: str,
        question: str,
        standard_only: bool,
        subset: str,
        domain: str,
        mode: str,
        indeterminate: float,
    ) -> None: ...
    @property
    def noun(self) -> str: ...

def generate(generator: Generator, start: int, count: int) -> list[Problem]: ...
def variants(
    item: Union[Problem, dict[str, Any], str], spec: str, grid: bool = False
) -> tuple[list[Variant], list[tuple[str, str, str]], list[Exception]]: ...
def axes() -> list[dict[str, Any]]: ...
def render(
    items: Iterable[Union[Problem, Variant, dict[str, Any], str]],
    size: Optional[int] = None,
    backend: str = "auto",
    format: str = "array",
    threads: Optional[int] = None,
) -> list[Union[npt.NDArray[np.uint8], bytes, str]]: ...
def backend_name(name: str = "auto") -> str: ...
def stream_batch(
    generator: Generator,
    spec: str,
    indices: list[int],
    format: str = "array",
    backend: str = "cpu",
    threads: Optional[int] = None,
    size: Optional[int] = None,
) -> tuple[list[dict[str, Any]], list[Exception]]: ...
def epoch_seed(seed: int, epoch: int) -> int: ...
def score(
    manifest: Union[str, PathLike[str]],
    predictions: list[str],
    tolerance: float,
    zero_tolerance: float,
    missing: str,
    format: str,
) -> tuple[str, str]: ...

class PixelBuffer:
    """The base object of an array from ``render``: the Rust buffer the renderer
    drew into (handed back to the renderers when the last array on it is freed)."""
