"""The Python package (python/, issue 27) against the CLI it binds.

The package is built with maturin into the test venv (.ci/run); the CLI is
$GEOMRENDER_BIN, else target/debug/geomrender. Every comparison is against what
the CLI writes for the same input: problems.jsonl lines, image SHA-256s from
manifest.jsonl, the decoded PNGs, errors.jsonl and stderr messages.
"""

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import geomrender as gr
import geomrender.stream

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))


def cli(*args, check=True):
    return subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, check=check)


@pytest.fixture(scope="session")
def sweep(tmp_path_factory):
    """The README's main job at 200 problems, drawn by the CLI's cpu backend."""
    out = tmp_path_factory.mktemp("sweep")
    cli("sweep", "--count", 200, "--seed", 0, "--backend", "cpu", "-q", "--out", out)
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    return out, rows


@pytest.fixture(scope="session")
def problems():
    return gr.generate(200, seed=0)


def test_generate_writes_the_cli_problems_byte_for_byte(sweep, problems, tmp_path):
    out, _ = sweep
    lines = (out / "problems.jsonl").read_text().splitlines()
    assert [p.to_json() for p in problems] == lines
    # Options as flags: a relation run, and a GeomVerse run with every option set.
    cli("generate", "--task", "relations", "--count", 60, "--seed", 3, "--mode", "visual",
        "--out", tmp_path / "r.jsonl")
    rel = gr.generate(60, seed=3, task="relations", mode="visual")
    assert [p.to_json() for p in rel] == (tmp_path / "r.jsonl").read_text().splitlines()
    assert {p.task for p in rel} == {"relations"} and all(p.answer in "ABCDE" for p in rel)
    cli("generate", "--count", 40, "--seed", 9, "--depth", "2..4", "--branch-prob", 0.5,
        "--distractors", "--variablized", 0.3, "--info", "text", "--question", "area",
        "--standard-only", "--out", tmp_path / "g.jsonl")
    got = gr.generate(40, seed=9, depth=(2, 4), branch_prob=0.5, distractors=True,
                      variablized=0.3, info="text", question="area", standard_only=True)
    assert [p.to_json() for p in got] == (tmp_path / "g.jsonl").read_text().splitlines()
    # A slice is the same problems as the whole run's.
    assert [p.to_json() for p in gr.generate(5, seed=0, start=100)] == lines[100:105]


def test_problem_round_trips_and_answers_like_its_json(problems):
    p = problems[7]
    d = p.to_dict()
    assert d["id"] == p.id and d["answer"] == p.answer and d["params"]["depth"] == p.depth
    assert gr.Problem.from_json(p.to_json()) == p
    assert gr.Problem.from_dict(d) == p
    assert hash(gr.Problem.from_dict(d)) == hash(p)
    assert p.question == d["question"]["coordinate"] and p.cot == d["cot"]["coordinate"]


def test_render_equals_the_cli_default_sweep(sweep, problems):
    """200 problems × the default sweep: every image the CLI wrote, the same
    SHA-256 from Python, and the arrays equal the decoded PNGs."""
    out, rows = sweep
    want = {r["id"]: r for r in rows}
    got_ids = []
    for k in range(0, len(problems), 20):
        vs = [v for p in problems[k:k + 20] for v in gr.variants(p)]
        pngs = gr.render(vs, backend="cpu", format="png")
        for v, png in zip(vs, pngs):
            row = want[v.id]
            assert hashlib.sha256(png).hexdigest() == row["sha256"], v.id
            assert v.question == row["question"] and v.answer == row["answer"], v.id
            assert v.variant == row["variant"] and v.base_id == row["base_id"]
            got_ids.append(v.id)
        # Arrays: every image, against the CLI's file decoded by PIL.
        for v, arr in zip(vs, gr.render(vs, backend="cpu")):
            decoded = np.asarray(Image.open(out / want[v.id]["image"]).convert("RGBA"))
            assert arr.shape == decoded.shape and np.array_equal(arr, decoded), v.id
    assert got_ids == [r["id"] for r in rows]  # same images, same order, none extra


def test_variant_dict_is_the_manifest_row_without_the_image_record(sweep, problems):
    _, rows = sweep
    v = gr.variants(problems[0], "fontsize=8")[1]
    row = next(r for r in rows if r["id"] == v.id)
    d = v.to_dict()
    # The image record, and the SHA-256 of the input line the run read.
    image_record = {"image", "width", "height", "sha256", "backend", "input_sha256"}
    assert d == {k: x for k, x in row.items() if k not in image_record}
    assert v.label == "fontsize=8" and v.encoding == "png" and (v.width, v.height) == (512, 512)
    # A Variant's Scene dict renders to the same image.
    assert gr.render(v.scene, backend="cpu", format="png") == gr.render(v, backend="cpu", format="png")


def test_array_owns_the_rust_buffer_without_a_copy(problems):
    arr = gr.render(problems[0], backend="cpu")
    assert arr.dtype == np.uint8 and arr.shape == (512, 512, 4) and arr.flags.c_contiguous
    # The pixels stay in the Rust buffer the renderer drew into: the array does
    # not own its data, its base is the Rust owner of that buffer.
    assert not arr.flags.owndata
    assert type(arr.base) is gr._native.PixelBuffer
    address = arr.__array_interface__["data"][0]
    arr[0, 0] = (1, 2, 3, 4)
    assert tuple(arr[0, 0]) == (1, 2, 3, 4)
    # Freed, the buffer is drawn into again: the next array has the same address,
    # so the first one was the renderer's own memory, not a copy of it.
    del arr
    again = gr.render(problems[1], backend="cpu", threads=1)
    assert again.__array_interface__["data"][0] == address
    assert not np.array_equal(again, gr.render(problems[0], backend="cpu"))
    # A kept array is never drawn over.
    kept = gr.render(problems[2], backend="cpu", threads=1)
    before = kept.copy()
    gr.render(problems[:8], backend="cpu", threads=1)
    assert np.array_equal(kept, before)


def test_formats_and_jupyter(problems):
    p = problems[1]
    png = gr.render(p, format="png", backend="cpu")
    assert p._repr_png_() == png
    v = gr.variants(p, "opacity=0.1")[1]
    assert v._repr_png_() == gr.render(v, format="png", backend="cpu")
    pil = gr.render(p, format="pil", backend="cpu")
    assert pil.mode == "RGBA" and np.array_equal(np.asarray(pil), gr.render(p, backend="cpu"))
    svg = gr.render(p, format="svg")
    assert svg.startswith("<?xml") and "</svg>" in svg
    small = gr.render(p, size=256, backend="cpu")
    assert small.shape == (256, 256, 4)
    # A JPEG variant: its bytes are the JPEG a run writes, its array what they decode to.
    j = gr.variants(p, "jpeg=30")[1]
    data = gr.render(j, format="png", backend="cpu")
    assert data[:2] == b"\xff\xd8" and j.encoding == "jpeg"
    assert gr.render(j, backend="cpu").shape == (512, 512, 4)


def test_gpu_backend_draws_what_the_cli_gpu_run_draws(problems, tmp_path):
    """backend="gpu" (lavapipe on a machine without one): the bytes of
    `geomrender render --backend gpu` for the same problems and variants."""
    items = [v for p in problems[:3] for v in gr.variants(p, "fontsize=8;annotation")]
    (tmp_path / "p.jsonl").write_text("".join(p.to_json() + "\n" for p in problems[:3]))
    cli("render", tmp_path / "p.jsonl", "--backend", "gpu", "-q", "--variants", "fontsize=8;annotation",
        "--out", tmp_path / "out")
    rows = {json.loads(x)["id"]: json.loads(x) for x in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()}
    pngs = gr.render(items, backend="gpu", format="png")
    assert [v.id for v in items] == list(rows)
    for v, png in zip(items, pngs):
        assert hashlib.sha256(png).hexdigest() == rows[v.id]["sha256"], v.id


def test_render_releases_the_gil(problems):
    """While one thread renders (one Rust thread), another runs Python code."""
    items = problems[:24]
    done = threading.Event()
    spins = []

    def spin():
        n = 0
        while not done.is_set():
            n += 1
        spins.append(n)

    t = threading.Thread(target=spin)
    t.start()
    t0 = time.perf_counter()
    gr.render(items, backend="cpu", threads=1)
    took = time.perf_counter() - t0
    done.set()
    t.join()
    # Were the GIL held for the whole call, the spinner could not run until it
    # returned (a few iterations); released, it spins millions of times a second.
    assert spins[0] > 100_000 and took > 0.05, (spins, took)


def test_stream_splits_workers_and_ranks_exactly_once(monkeypatch):
    n = 10
    whole = list(gr.Stream(seed=4, count=n, variants="fontsize=8;annotation", batch=3))
    assert sorted({s["index"] for s in whole}) == list(range(n))
    seen = []
    for rank in range(2):
        for worker in range(2):
            monkeypatch.setattr(geomrender.stream, "_worker_info", lambda w=worker: (w, 2))
            part = list(gr.Stream(seed=4, count=n, variants="fontsize=8;annotation",
                                  shard=(rank, 2), batch=2))
            seen.append(part)
    monkeypatch.undo()
    indices = [s["index"] for part in seen for s in part]
    assert sorted(set(indices)) == list(range(n))
    merged = sorted((s for part in seen for s in part), key=lambda s: (s["index"], s["id"]))
    expected = sorted(whole, key=lambda s: (s["index"], s["id"]))
    assert [s["id"] for s in merged] == [s["id"] for s in expected]
    for a, b in zip(merged, expected):
        assert np.array_equal(a["image"], b["image"])
        assert {k: v for k, v in a.items() if k != "image"} == {k: v for k, v in b.items() if k != "image"}
    # Each index once per problem: its base image and both variants, in order.
    per = {}
    for s in whole:
        per.setdefault(s["index"], []).append(s["variant"])
    assert all(v[0] == "base" for v in per.values())


def test_stream_samples_equal_generate_and_render():
    problems = gr.generate(4, seed=11)
    samples = list(gr.Stream(seed=11, count=4, variants="linewidth=4", format="png"))
    want = [v for p in problems for v in gr.variants(p, "linewidth=4")]
    assert [s["id"] for s in samples] == [v.id for v in want]
    for s, v in zip(samples, want):
        assert s["image"] == gr.render(v, format="png", backend="cpu")
        assert (s["question"], s["answer"], s["cot"], s["base_id"]) == (v.question, v.answer, v.cot, v.base_id)
    # Epochs: epoch 0 is the run seed; another epoch other problems, reproducibly.
    st = gr.Stream(seed=11, count=2)
    st.set_epoch(1)
    q1 = [s["question"] for s in st]
    assert q1 == [s["question"] for s in st]
    st.set_epoch(0)
    assert [s["question"] for s in st] == [p.question for p in problems[:2]]
    assert q1 != [p.question for p in problems[:2]]


def test_stream_of_relation_items_carries_the_choices():
    s = next(iter(gr.Stream(seed=2, count=1, task="relations", variants=gr.RELATION_SWEEP)))
    assert s["task"] == "relations" and s["answer"] in "ABCDE"
    assert s["choices"][ord(s["answer"]) - 65] == s["answer_text"]
    assert "Cannot be inferred" in s["choices"]


def test_axes_are_the_rust_table():
    listing = cli("variants", "--list").stdout
    blocks = [b for b in listing.split("\n\n") if "\n  changes:" in b]
    assert [a.name for a in gr.AXES] == [b.splitlines()[0] for b in blocks]
    fontsize = next(a for a in gr.AXES if a.name == "fontsize")
    assert f"  sweep:    {', '.join(fontsize.sweep)}" in listing
    assert gr.GEOMVERSE_SWEEP == "opacity;linewidth;fontsize;annotation"


def test_bad_input_raises_typed_errors_with_the_cli_message(tmp_path, problems):
    # A malformed Scene dict: the message errors.jsonl has for the same line.
    bad = {"version": 1, "id": "x", "width": 64}
    (tmp_path / "bad.jsonl").write_text(json.dumps(bad) + "\n")
    cli("render", tmp_path / "bad.jsonl", "--out", tmp_path / "out", "--backend", "cpu", check=False)
    row = json.loads((tmp_path / "out" / "errors.jsonl").read_text())
    with pytest.raises(gr.SceneError) as e:
        gr.render(bad)
    assert str(e.value) == f'item 0: "x": {row["message"]}'
    with pytest.raises(gr.SceneError):
        gr.variants(bad, "opacity")
    # An unknown axis: the CLI's --variants message.
    stderr = cli("sweep", "--count", 1, "--variants", "bogus", "--out", tmp_path / "s", check=False).stderr
    with pytest.raises(gr.VariantError) as e:
        gr.variants(problems[0], "bogus")
    assert f"error: --variants: {e.value}" in stderr
    with pytest.raises(gr.VariantError, match="fontsize"):
        gr.variants(problems[0], "fontsize=-3")
    with pytest.raises(gr.VariantError):
        list(gr.Stream(count=1, variants="nope"))
    # A negative count: refused as the CLI refuses --count=-1.
    stderr = cli("generate", "--count=-1", "--out", tmp_path / "g.jsonl", check=False).stderr
    assert "invalid value '-1' for '--count" in stderr
    with pytest.raises(gr.GenerateError, match="invalid value '-1' for count"):
        gr.generate(-1)
    with pytest.raises(gr.GenerateError, match="depth"):
        gr.generate(1, depth=(0, 9))
    with pytest.raises(gr.GenerateError, match="invalid value 'cubes' for task"):
        gr.generate(1, task="cubes")
    with pytest.raises(gr.SceneError):
        gr.Problem.from_json('{"id": "x", "diagram": 3}')
    with pytest.raises(gr.SceneError, match="malformed JSON"):
        gr.Problem.from_json("{")
    with pytest.raises(gr.OptionError, match="backend"):
        gr.render(problems[0], backend="plotter")
    with pytest.raises(TypeError):
        gr.render([3.5])
    # Data that is not JSON, and options out of range: typed, never an abort.
    scene = gr.variants(problems[0], "opacity=0.1")[1].scene
    with pytest.raises(gr.SceneError, match="not JSON data"):
        gr.render(dict(scene, width=float("nan")))
    with pytest.raises(gr.SceneError, match="not JSON data"):
        gr.render({"id": object()})
    with pytest.raises(gr.SceneError, match="width: must be in 1..=8192, got 100000"):
        gr.render(dict(scene, width=100000))
    with pytest.raises(gr.OptionError, match="size 1000000000: width: must be in 1..=8192"):
        gr.render(problems[0], size=10**9)
    for bad in ({"size": -5}, {"threads": 0}, {"threads": -1}, {"format": "gif"}):
        with pytest.raises(gr.OptionError):
            gr.render(problems[0], **bad)
    for bad in ({"shard": (2, 2)}, {"shard": 3}, {"batch": 0}, {"format": "gif"}, {"errors": "ignore"}):
        with pytest.raises(gr.OptionError):
            gr.Stream(count=1, **bad)
    with pytest.raises(gr.OptionError, match="missing"):
        gr.score(tmp_path / "m.jsonl", tmp_path / "p.jsonl", missing="maybe")
    # All typed errors are GeomrenderErrors and ValueErrors where the input is bad.
    assert issubclass(gr.SceneError, ValueError) and issubclass(gr.VariantError, gr.GeomrenderError)
    assert issubclass(gr.OptionError, ValueError) and issubclass(gr.RenderError, gr.GeomrenderError)


def test_score_matches_the_cli_report(sweep, tmp_path):
    out, rows = sweep
    preds = tmp_path / "model.jsonl"
    with preds.open("w") as f:
        for i, r in enumerate(rows):
            answer = r["answer"] if i % 3 else r["answer"] * 2 + 1
            f.write(json.dumps({"id": r["id"], "prediction": f"The answer is {answer}."}) + "\n")
        f.write("not json\n")
    cli("score", "--manifest", out / "manifest.jsonl", "--predictions", preds,
        "--out", tmp_path / "score", check=False)
    want = json.loads((tmp_path / "score" / "report.json").read_text())
    report = gr.score(out / "manifest.jsonl", preds)
    assert report.to_dict() == want
    assert report.counts["malformed_lines"] == 1 and len(report.errors) == 1
    df = report.to_pandas()
    assert len(df) == len(want["rows"]) and {"axis", "value", "accuracy"} <= set(df.columns)
    items = report.to_pandas("items")
    assert len(items) == len(rows)
    with pytest.raises(gr.ScoreError):
        gr.score(tmp_path / "missing.jsonl", preds)


def test_readme_example_and_quickstart_run(tmp_path):
    text = (REPO / "README.md").read_text()
    block = text.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md (From Python)", "exec"), {})
    r = subprocess.run([sys.executable, str(REPO / "examples" / "python_quickstart.py")],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert Image.open(tmp_path / "variant.png").size == (512, 512)


def test_real_dataloader_two_workers_by_two_ranks_draws_each_index_once():
    """torch's DataLoader(num_workers=2) on 2 ranks: every problem index drawn
    exactly once, the samples those of a single-process stream (forked workers,
    and spawned ones, which pickle the Stream)."""
    import torch
    from torch.utils.data import DataLoader

    n, spec = 12, "fontsize=8"
    whole = {s["id"]: s for s in gr.Stream(seed=6, count=n, variants=spec)}
    assert isinstance(gr.Stream(count=1), torch.utils.data.IterableDataset)
    for ctx in ("fork", "spawn"):
        got = []
        for rank in range(2):
            stream = gr.Stream(seed=6, count=n, variants=spec, shard=(rank, 2), batch=2)
            loader = DataLoader(stream, batch_size=None, num_workers=2, multiprocessing_context=ctx)
            got += list(loader)
        assert sorted(int(s["index"]) for s in got) == sorted([i for i in range(n)] * 2), ctx
        assert sorted(s["id"] for s in got) == sorted(whole), ctx
        for s in got:
            want = whole[s["id"]]
            assert np.array_equal(s["image"].numpy(), want["image"]), s["id"]
            assert (s["question"], s["variant"]) == (want["question"], want["variant"])
    # Batched: the default collate stacks the arrays into one uint8 tensor.
    # (Each of the 2 workers holds 2 of the 4 problems: its batches have 2 images.)
    batch = next(iter(DataLoader(gr.Stream(seed=6, count=4), batch_size=4, num_workers=2)))
    assert batch["image"].shape == (2, 512, 512, 4)
    assert batch["image"].dtype == torch.uint8
