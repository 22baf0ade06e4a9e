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


def test_blur_is_the_pixel_stage_as_a_run_applies_it(problems, tmp_path):
    """A `blur` variant (the pixel stage) draws the base's Scene and blurs the
    pixels: its PNG is the one `geomrender render` writes, a pickled copy blurs
    too, and its SVG is the base's drawing."""
    import pickle
    p = problems[0]
    base, blurred = gr.variants(p, "blur=2")
    a, b = gr.render(base, backend="cpu"), gr.render(blurred, backend="cpu")
    assert a.shape == b.shape and not np.array_equal(a, b)
    assert abs(float(a[..., :3].mean()) - float(b[..., :3].mean())) < 0.5
    copy = pickle.loads(pickle.dumps(blurred))
    assert np.array_equal(gr.render(copy, backend="cpu"), b)
    (tmp_path / "p.jsonl").write_text(p.to_json() + "\n")
    cli("render", tmp_path / "p.jsonl", "--backend", "cpu", "-q", "--variants", "blur=2",
        "--out", tmp_path / "run")
    row = [json.loads(l) for l in (tmp_path / "run" / "manifest.jsonl").read_text().splitlines()][1]
    assert row["variant"] == {"blur": 2}
    assert (tmp_path / "run" / row["image"]).read_bytes() == gr.render(blurred, format="png", backend="cpu")


def test_gpu_backend_draws_what_the_cli_gpu_run_draws(problems, tmp_path):
    """backend="gpu" (lavapipe on a machine without one): the bytes of
    `geomrender render --backend gpu` for the same problems and variants. CI
    builds the wheel with --features gpu; a CPU-only wheel says how to get it."""
    if not gr._native.GPU:
        assert not os.environ.get("CI"), "CI builds the wheel with --features gpu"
        with pytest.raises(gr.OptionError, match="--features gpu"):
            gr.render(problems[0], backend="gpu")
        pytest.skip("the wheel was built without --features gpu")
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


def test_stream_text_only_rows_have_no_image_and_render_refuses_them():
    samples = list(gr.Stream(seed=11, count=3, variants="modality=text-dominant,text-only",
                             format="png"))
    text_only = [s for s in samples if s["variant"] == "modality=text-only"]
    dominant = {s["base_id"]: s for s in samples if s["variant"] == "modality=text-dominant"}
    assert len(text_only) == len(dominant) == 3
    for s in text_only:
        assert s["image"] is None, s["id"]
        assert s["answer"] == dominant[s["base_id"]]["answer"]
        assert s["question"].startswith("The diagram has ")
    for s in dominant.values():
        assert isinstance(s["image"], bytes) and s["image"].startswith(b"\x89PNG")
    [v] = [v for v in gr.variants(gr.generate(1, seed=11)[0], "modality=text-only")
           if v.id.endswith("text-only")]
    assert v.encoding is None
    with pytest.raises(Exception, match="text-only"):
        gr.render(v, format="png", backend="cpu")


def test_stream_refresh_values_draws_the_same_problems_with_other_givens():
    """refresh="values": epoch e is each problem's values=e, the CLI's variant of it,
    and the user's variants apply to that redraw."""
    st = gr.Stream(seed=11, count=3, refresh="values", variants="linewidth=4", format="png", errors="raise")
    base = list(st)
    st.set_epoch(2)
    two = list(st)
    assert [s["id"] for s in base] == [i for p in gr.generate(3, seed=11) for i in (p.id, p.id + "__linewidth-4")]
    redrawn = [s for s in two if s["variant"] == "base"]
    assert [s["id"] for s in redrawn] == [f"{s['id']}__values-2" for s in base if s["variant"] == "base"]
    assert [s["id"] for s in two if s["variant"] != "base"] == [s["id"] + "__linewidth-4" for s in redrawn]
    assert two == list(st)  # reproducible
    # The redraw's texts are the CLI's values=2 variant's, numbers and all.
    out = Path(__import__("tempfile").mkdtemp())
    cli("generate", "--count", 3, "--seed", 11, "--out", out / "p.jsonl")
    cli("render", out / "p.jsonl", "--variants", "values=2", "--backend", "cpu", "-q", "--out", out / "r")
    rows = [json.loads(line) for line in (out / "r" / "manifest.jsonl").read_text().splitlines()]
    want = {r["base_id"]: r for r in rows if r.get("variant", {}).get("values") == 2}
    assert len(want) == 3
    for s in redrawn:
        row = want[s["base_id"].removesuffix("__values-2")]
        assert (s["question"], s["answer"], s["cot"]) == (row["question"], row["answer"], row["cot"])
    assert [s["answer"] for s in redrawn] != [s["answer"] for s in base if s["variant"] == "base"]
    with pytest.raises(gr.OptionError, match="values"):
        gr.Stream(count=1, refresh="values", variants="values=1")
    with pytest.raises(gr.OptionError, match="refresh"):
        gr.Stream(count=1, refresh="numbers")


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
    with pytest.raises(gr.OptionError, match="invalid value '1000000000' for size: expected a whole number in 1..=8192"):
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


def _by_id(samples):
    return {s["id"]: s for s in samples}


def test_set_epoch_reaches_persistent_workers_forked_and_spawned():
    """Issue 44: with persistent_workers=True each worker keeps the Stream it was
    given at start; set_epoch(1) in the parent must still make it draw epoch 1
    (other problems than epoch 0, the same as a single-process epoch 1)."""
    from torch.utils.data import DataLoader

    n = 6
    want = [_by_id(gr.Stream(seed=8, count=n, epoch=e)) for e in (0, 1)]
    assert not set(want[0]) & set(want[1])
    for ctx in ("fork", "spawn"):
        stream = gr.Stream(seed=8, count=n, batch=2)
        loader = DataLoader(stream, batch_size=None, num_workers=2, persistent_workers=True,
                            multiprocessing_context=ctx)
        for epoch in (0, 1, 0):
            stream.set_epoch(epoch)
            got = _by_id(loader)
            assert sorted(got) == sorted(want[epoch]), (ctx, epoch)
            for i, s in got.items():
                assert np.array_equal(s["image"].numpy(), want[epoch][i]["image"]), (ctx, epoch, i)
                assert s["question"] == want[epoch][i]["question"]
        assert stream.epoch == 0


def test_stream_epoch_is_checked_when_made_and_set():
    for bad in (-1, 2**64, 1.0, "1", True):
        with pytest.raises(gr.OptionError, match="for epoch: expected a whole number in 0..="):
            gr.Stream(count=1, epoch=bad)
        with pytest.raises(gr.OptionError, match="for epoch"):
            gr.Stream(count=1).set_epoch(bad)
    assert gr.Stream(count=1, epoch=2**64 - 1).epoch == 2**64 - 1


def test_set_epoch_warns_once_when_a_copy_cannot_follow():
    """A copy pickled outside a process start (a Ray task, pickle.dumps) keeps the
    epoch it was pickled with: set_epoch says so, once, and the copy is a stream of
    its own."""
    import pickle
    import warnings

    stream = gr.Stream(seed=8, count=2)
    copy = pickle.loads(pickle.dumps(stream))
    with pytest.warns(gr.GeomrenderWarning, match="pickled outside a process start"):
        stream.set_epoch(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stream.set_epoch(2)  # once
        copy.set_epoch(3)  # the copy warns for its own copies only
    assert (stream.epoch, copy.epoch) == (2, 3)
    assert [s["id"] for s in copy] == [s["id"] for s in gr.Stream(seed=8, count=2, epoch=3)]


@pytest.fixture(scope="session")
def relation_run(tmp_path_factory):
    """A relation sweep (GeomRel's own axes) scored for two models."""
    out = tmp_path_factory.mktemp("relations")
    cli("sweep", "--task", "relations", "--count", 30, "--seed", 1, "--backend", "cpu", "-q", "--out", out)
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    for model, k in (("a", 2), ("b", 3)):
        with (out / f"{model}.jsonl").open("w") as f:
            for i, r in enumerate(rows[: len(rows) - 5]):  # some missing
                letter = r["answer"] if i % k else "A"
                f.write(json.dumps({"id": r["id"], "model": model, "prediction": f"answer: ({letter.lower()})"}) + "\n")
    return out, rows


def test_tables_join_and_value_has_one_type(sweep, relation_run, tmp_path):
    """Issue 44: items.value was a number or NaN, rows.value a string, so
    items.merge(rows, on=["axis", "value"]) matched 100 of 1,400 rows. Now every
    item row finds its row, in every table value is text, and items carry the
    relation keys that join the relation breakdowns."""
    import pandas as pd
    from geomrender._report import BREAKDOWNS, TABLES

    out, rows = sweep
    preds = tmp_path / "model.jsonl"
    preds.write_text("".join(json.dumps({"id": r["id"], "prediction": f"{r['answer']}"}) + "\n"
                             for r in rows[::2]))
    report = gr.score(out / "manifest.jsonl", preds)
    items, table = report.to_pandas("items"), report.to_pandas("rows")
    assert len(items) == len(rows) == 2800
    merged = items.merge(table, on=["model", "axis", "value"], how="left", indicator=True)
    assert len(merged) == len(items) and (merged["_merge"] == "both").all()
    merged = items.merge(table, on=["axis", "value"])  # the issue's own call (one model)
    assert len(merged) == len(items)
    assert (items["task"] == "geomverse").all() and "relation" not in items
    for name in ("rows", "items", "cannot_be_inferred", "breakdowns"):
        df = report.to_pandas(name)
        assert df.empty or df["value"].map(type).eq(str).all(), name
    # Every table the docstring lists works (empty where the report has none).
    for name in TABLES:
        assert isinstance(report.to_pandas(name), pd.DataFrame), name
    with pytest.raises(gr.OptionError, match="table"):
        report.to_pandas("nope")
    with pytest.raises(gr.OptionError, match="by"):
        report.to_pandas("breakdowns", by="colour")

    # Relation items: task, relation, domain, subset and mode, joined to the breakdowns.
    rel, rel_rows = relation_run
    report = gr.score(rel / "manifest.jsonl", [rel / "a.jsonl", rel / "b.jsonl"])
    items = report.to_pandas("items")
    assert len(items) == 2 * len(rel_rows)
    assert (items["task"] == "relations").all()
    assert items[["relation", "domain", "subset", "mode"]].notna().all().all()
    want = {r["id"]: r for r in rel_rows}
    for row in report.items[:40]:
        m = want[row["id"]]
        assert (row["relation"], row["domain"], row["subset"], row["mode"]) == (
            m["relation"], m["domain"], m["subset"], m["mode"])
    merged = items.merge(report.to_pandas("rows"), on=["model", "axis", "value"], how="left", indicator=True)
    assert (merged["_merge"] == "both").all()
    scored = items[~items["missing"]]
    for by in ("relation", "domain", "subset", "mode"):
        cells = report.to_pandas("breakdowns", by=by)
        assert cells.equals(report.to_pandas(by))  # to_pandas("relation") works
        assert set(cells["group"]) == set(items[by])
        m = scored.merge(cells, left_on=["model", "axis", "value", by],
                         right_on=["model", "axis", "value", "group"], how="left", indicator=True)
        assert (m["_merge"] == "both").all(), by
        # The cell's n counts exactly its items.
        n = scored.groupby(["model", "axis", "value", by]).size()
        assert all(n[(c.model, c.axis, c.value, c.group)] == c.n for c in cells.itertuples()), by
    every = report.to_pandas("breakdowns")
    assert set(every["by"]) == set(BREAKDOWNS)


def test_score_matched_is_the_cli_matched_report(relation_run, tmp_path):
    rel, _ = relation_run
    cli("score", "--manifest", rel / "manifest.jsonl", "--predictions", rel / "a.jsonl", "--matched",
        "--out", tmp_path / "score")
    want = json.loads((tmp_path / "score" / "report.json").read_text())
    got = gr.score(rel / "manifest.jsonl", rel / "a.jsonl", matched=True)
    assert got.to_dict() == want and want["base_set"]["set"] == "matched"
    assert gr.score(rel / "manifest.jsonl", rel / "a.jsonl").to_dict()["base_set"]["set"] == "all"


def test_collate_batches_relation_items_in_a_real_dataloader():
    """Issue 44: torch's default collate fails on a relation Stream (choices has 3 to
    5 entries). geomrender.collate stacks the images and keeps choices per sample."""
    import torch
    from torch.utils.data import DataLoader

    stream = gr.Stream(seed=2, count=12, task="relations", variants="relabel")
    whole = _by_id(stream)
    lengths = {len(s["choices"]): s for s in whole.values()}
    assert len(lengths) > 1  # ragged: what torch's default collate cannot batch
    with pytest.raises(RuntimeError, match="equal size"):
        torch.utils.data.default_collate(list(lengths.values()))
    seen = 0
    for batch in DataLoader(stream, batch_size=4, num_workers=2, collate_fn=gr.collate):
        k = len(batch["id"])
        assert batch["image"].shape == (k, 512, 512, 4) and batch["image"].dtype == torch.uint8
        assert isinstance(batch["choices"], list) and len(batch["choices"]) == k
        assert batch["depth"].shape == (k,) and isinstance(batch["answer"], list)
        for j, i in enumerate(batch["id"]):
            s = whole[i]
            assert batch["choices"][j] == s["choices"] and batch["answer"][j] == s["answer"]
            assert np.array_equal(batch["image"][j].numpy(), s["image"])
        seen += k
    assert seen == len(whole)
    # Images of different sizes (the resolution axis) stay a list of tensors.
    mixed = gr.collate(list(gr.Stream(seed=1, count=1, variants="resolution=256")))
    assert [tuple(t.shape) for t in mixed["image"]] == [(512, 512, 4), (256, 256, 4)]
    assert mixed["answer"].dtype == torch.float64


def test_dataloader_example_runs_both_tasks_with_fresh_epochs(tmp_path):
    r = subprocess.run([sys.executable, str(REPO / "examples" / "python_dataloader.py")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "geomverse epoch 0", "geomverse epoch 1", "relations epoch 0", "relations epoch 1"]
    # 64 problems × (base + 2 font sizes); relation items with their relabel variant.
    assert lines[0].split(": ")[1].startswith("192 images")
    firsts = [line.split("first ")[1].split(",")[0] for line in lines]
    assert firsts[0] != firsts[1] and firsts[2] != firsts[3]  # a fresh set per epoch
