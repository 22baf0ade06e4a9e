"""``geomrender.collate``: a DataLoader ``collate_fn`` for :class:`geomrender.Stream`.

torch's default collate stacks every field of a batch of samples, and fails (or
worse, transposes) where samples differ in length: a relation item's ``choices``
has 3 to 5 entries, so ``DataLoader(Stream(task="relations"), batch_size=8)``
raises "each element in list of batch should be of equal size", and a batch whose
items all have 4 choices comes out as 4 tuples of 8 instead of 8 lists of 4.

This collate stacks what has one shape across the batch, as the default does
(images of one size into a ``B×H×W×4`` uint8 tensor; numbers into a tensor), and
keeps every other field as a list with one entry per sample: ``choices`` (lists),
texts, PNG bytes, PIL images, None, and images whose sizes differ (the
``resolution`` axis), which become a list of tensors.
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence


def _stackable(values: Sequence[Any]) -> bool:
    """Whether the default collate stacks these values into one tensor."""
    import numpy as np

    first = values[0]
    if isinstance(first, np.ndarray):
        return all(
            isinstance(v, np.ndarray) and v.shape == first.shape and v.dtype == first.dtype
            for v in values
        )
    if isinstance(first, numbers.Number) and not isinstance(first, bool):
        return all(isinstance(v, numbers.Number) and not isinstance(v, bool) for v in values)
    return False


def collate(batch: Sequence[dict]) -> dict:
    """A batch of Stream samples as one dict: each field a tensor where the samples'
    values stack (arrays of one shape, numbers), else a list of the values in
    sample order (arrays of different shapes as a list of tensors)."""
    import numpy as np
    import torch
    from torch.utils.data import default_collate

    if not batch:
        return {}
    keys = list(batch[0])
    for s in batch[1:]:
        keys += [k for k in s if k not in keys]
    out = {}
    for key in keys:
        values = [s.get(key) for s in batch]
        if _stackable(values):
            out[key] = default_collate(values)
        elif all(isinstance(v, np.ndarray) for v in values):
            out[key] = [torch.from_numpy(v) for v in values]
        else:
            out[key] = values
    return out
