"""geomrender from Python: generate, vary, render and score in one process.

    pip install ./python pillow pandas
    python examples/python_quickstart.py
"""

import geomrender as gr

# The problems `geomrender generate --count 3 --seed 0` writes, byte for byte.
problems = gr.generate(3, seed=0)
p = problems[0]
print(p.id, p.depth, p.question_type, p.answer)
print(p.question)

# The axis table comes from the Rust side, as `geomrender variants --list` shows it.
for axis in gr.AXES[:4]:
    print(f"{axis.name:10} base {axis.base:>10}  sweep {', '.join(axis.sweep)}")

# The base image and GeomVerse's default sweep, drawn in parallel with the GIL released.
variants = gr.variants(p)
images = gr.render(variants, backend="cpu")  # 512×512×4 uint8 arrays, no copy
for v, image in zip(variants[:3], images):
    print(v.label, image.shape, v.question[:50])

# PNG bytes as the CLI writes them, a PIL image, the exact SVG.
png = gr.render(p, format="png")
gr.render(variants[1], format="pil").save("variant.png")
svg = gr.render(p, format="svg")
print(len(png), "PNG bytes;", len(svg), "SVG characters")
