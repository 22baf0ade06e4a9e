"""Training on problems drawn on the fly: a PyTorch DataLoader over geomrender.Stream.

Each epoch draws a fresh, seeded set of problems (``set_epoch``); the 2 workers
split the indices between them (and ``shard=(rank, world)`` splits them across
ranks first), so every problem index is drawn exactly once per epoch. Run:

    pip install ./python torch
    python examples/python_dataloader.py
"""

import torch
from torch.utils.data import DataLoader

import geomrender as gr


def main() -> None:
    rank, world = 0, 1  # e.g. torch.distributed.get_rank(), get_world_size()
    stream = gr.Stream(seed=0, count=256, variants="fontsize=8,24", shard=(rank, world))
    # Images are H×W×4 uint8 arrays: the default collate stacks them into a tensor.
    loader = DataLoader(stream, batch_size=32, num_workers=2)
    for epoch in range(2):
        stream.set_epoch(epoch)
        seen = 0
        for batch in loader:
            pixels = batch["image"].permute(0, 3, 1, 2).float() / 255  # B×4×H×W
            answers = batch["answer"]  # float64 tensor (GeomVerse answers)
            seen += len(batch["id"])
            # model(pixels, batch["question"]) ... loss against answers
        print(f"epoch {epoch}: {seen} images, last batch {tuple(pixels.shape)}, "
              f"first answer {answers[0].item():.2f}")


if __name__ == "__main__":
    main()
