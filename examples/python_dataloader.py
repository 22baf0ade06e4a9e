"""Training on problems drawn on the fly: a PyTorch DataLoader over geomrender.Stream.

Each epoch draws a fresh, seeded set of problems (``set_epoch``, which reaches the
workers even when they persist across epochs); the 2 workers split the indices
between them (and ``shard=(rank, world)`` splits them across ranks first), so
every problem index is drawn exactly once per epoch. ``geomrender.collate`` batches
the samples: images stacked into one tensor, a relation item's 3 to 5 ``choices``
kept per sample (torch's default collate cannot stack them). Run:

    pip install ./python torch
    python examples/python_dataloader.py
"""

import torch
from torch.utils.data import DataLoader

import geomrender as gr


def main() -> None:
    rank, world = 0, 1  # e.g. torch.distributed.get_rank(), get_world_size()
    # GeomVerse problems with two font sizes, and GeomRel relation items (multiple choice).
    for task, variants in (("geomverse", "fontsize=8,24"), ("relations", "relabel")):
        stream = gr.Stream(seed=0, count=64, task=task, variants=variants, shard=(rank, world))
        loader = DataLoader(stream, batch_size=16, num_workers=2, persistent_workers=True,
                            collate_fn=gr.collate)
        for epoch in range(2):
            stream.set_epoch(epoch)  # before iterating: the persistent workers see it
            seen, first = 0, None
            for batch in loader:
                pixels = batch["image"].permute(0, 3, 1, 2).float() / 255  # B×4×H×W
                first = first or batch["id"][0]
                seen += len(batch["id"])
                # GeomVerse: batch["answer"] is a float64 tensor. Relations: a list of
                # letters, and batch["choices"] a list of each item's options.
                # model(pixels, batch["question"]) ... loss against the answers
            print(f"{task} epoch {epoch}: {seen} images, first {first}, last batch {tuple(pixels.shape)}")


if __name__ == "__main__":
    main()
