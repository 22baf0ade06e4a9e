"""The README's picture of one diagram under every `corrupt` value at severity 3,
`sketch` 1-3 and `photo` 1-3 (docs/corruptions.jpg), from a run's manifest:

    geomrender generate --count 2 --seed 5 --out p.jsonl
    geomrender render p.jsonl --backend cpu --variants "corrupt;sketch;photo" --out run
    python scripts/corruption-sheet.py run s5-000001 docs/corruptions.jpg

Needs Pillow. Each cell is the image at half size (256 px), captioned by its value.
"""

import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw

run, base, out = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
rows = [json.loads(line) for line in (run / "manifest.jsonl").read_text().splitlines()]
rows = [r for r in rows if r["base_id"] == base]
cells = [(("base" if not r["variant"] else " ".join(f"{k}={v}" for k, v in r["variant"].items())),
          run / r["image"]) for r in rows]
side, caption, cols = 256, 18, 6
grid = Image.new("RGB", (cols * side, -(-len(cells) // cols) * (side + caption)), "white")
draw = ImageDraw.Draw(grid)
for i, (label, path) in enumerate(cells):
    x, y = (i % cols) * side, (i // cols) * (side + caption)
    grid.paste(Image.open(path).convert("RGB").resize((side, side), Image.LANCZOS), (x, y + caption))
    draw.text((x + 4, y + 3), label, fill="black")
grid.save(out, quality=85)
