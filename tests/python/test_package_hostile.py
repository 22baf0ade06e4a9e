"""The Python package against a hostile user (issue 44): every public argument
refused with the package's own error class when it is of the wrong kind or out of
range, bounded threads, memory that cannot fit refused up front and allocation
failure as MemoryError (never an abort), Ctrl-C honoured between chunks, and
Problems and Variants that pickle for multiprocessing.

Each case runs against the wheel built into the test venv (.ci/run)."""

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import geomrender as gr


@pytest.fixture(scope="module")
def problems():
    return gr.generate(6, seed=0) + gr.generate(2, seed=0, task="relations")


# ------------------------------------------------------------ argument validation

# (call, the argument the error must name, the error class): bool-ish strings, floats
# for whole numbers, huge and negative numbers, wrong types.
GENERATE = [
    (dict(distractors="no"), "distractors", gr.GenerateError),
    (dict(distractors=0), "distractors", gr.GenerateError),
    (dict(standard_only="False"), "standard_only", gr.GenerateError),
    (dict(depth=(1.9, 2.9)), "depth", gr.GenerateError),
    (dict(depth=2.0), "depth", gr.GenerateError),
    (dict(depth=(3, 1)), "depth", gr.GenerateError),
    (dict(depth="2"), "depth", gr.GenerateError),
    (dict(depth=(True, 2)), "depth", gr.GenerateError),
    (dict(depth=2**70), "depth", gr.GenerateError),
    (dict(branch_prob="x"), "branch_prob", gr.GenerateError),
    (dict(branch_prob=float("nan")), "branch_prob", gr.GenerateError),
    (dict(branch_prob=1.5), "branch_prob", gr.GenerateError),
    (dict(variablized=-0.1), "variablized", gr.GenerateError),
    (dict(variablized=True), "variablized", gr.GenerateError),
    (dict(info=1), "info", gr.GenerateError),
    (dict(info="pixels"), "info", gr.GenerateError),
    (dict(question=None, info="x"), "info", gr.GenerateError),
    (dict(seed=-1), "seed", gr.GenerateError),
    (dict(seed=2**64), "seed", gr.GenerateError),
    (dict(seed=1.0), "seed", gr.GenerateError),
    (dict(seed="0"), "seed", gr.GenerateError),
    (dict(start=-1), "start", gr.GenerateError),
    (dict(start=1.5), "start", gr.GenerateError),
    (dict(start=2**64 - 1), "start", gr.GenerateError),
    (dict(task=None), "task", gr.GenerateError),
    (dict(task="relations", indeterminate="x"), "indeterminate", gr.GenerateError),
    (dict(task="relations", indeterminate=2), "indeterminate", gr.GenerateError),
    (dict(task="relations", mode=True), "mode", gr.GenerateError),
    (dict(task="relations", subset="hard"), "subset", gr.GenerateError),
    # An option of the other task, as the CLI refuses it; an unknown option.
    (dict(task="relations", depth=2), "depth", gr.GenerateError),
    (dict(mode="visual"), "mode", gr.GenerateError),
    (dict(colour="red"), "colour", gr.GenerateError),
]


@pytest.mark.parametrize("kwargs,name,error", GENERATE)
def test_generate_refuses_each_bad_argument_by_name(kwargs, name, error):
    with pytest.raises(error, match=name):
        gr.generate(1, **kwargs)
    # The Stream takes the same options and checks them when made.
    stream = {k: v for k, v in kwargs.items() if k != "start"}
    if stream == kwargs:
        with pytest.raises(error, match=name):
            gr.Stream(count=1, **stream)


@pytest.mark.parametrize("count", [-1, 1.0, "3", True, 10**9, 2**64])
def test_count_is_a_whole_number_in_range(count):
    with pytest.raises(gr.GenerateError, match="for count"):
        gr.generate(count)
    with pytest.raises(gr.GenerateError, match="for count"):
        gr.Stream(count=count)


RENDER = [
    (dict(size=2**64), "size"),
    (dict(size=8193), "size"),
    (dict(size=0), "size"),
    (dict(size=256.0), "size"),
    (dict(size=True), "size"),
    (dict(threads=10**6), "threads"),
    (dict(threads=1025), "threads"),
    (dict(threads=0), "threads"),
    (dict(threads=2.0), "threads"),
    (dict(threads="4"), "threads"),
    (dict(backend=3), "backend"),
    (dict(backend="plotter"), "backend"),
    (dict(format=None), "format"),
]


@pytest.mark.parametrize("kwargs,name", RENDER)
def test_render_and_stream_refuse_each_bad_argument_by_name(problems, kwargs, name):
    """threads=10**6 used to start 4,570 OS threads for one image; size=2**64 raised
    OverflowError. Now each is an OptionError naming the argument and its range."""
    with pytest.raises(gr.OptionError, match=f"for {name}"):
        gr.render(problems[0], **kwargs)
    with pytest.raises(gr.OptionError, match=f"for {name}"):
        gr.Stream(count=1, **kwargs)


def test_threads_bound_is_the_clis():
    assert gr.MAX_THREADS == 1024 and gr.MAX_SIZE == 8192
    gr.Stream(count=1, threads=1024)  # the bound itself is accepted
    with pytest.raises(gr.OptionError, match=r"1\.\.=1024"):
        gr.render(gr.generate(1)[0], threads=1025)


@pytest.mark.parametrize("kwargs,name", [
    (dict(epoch=-1), "epoch"), (dict(epoch=0.5), "epoch"),
    (dict(batch=0), "batch"), (dict(batch=1.5), "batch"), (dict(batch=2**64), "batch"),
    (dict(shard=(True, 2)), "shard"), (dict(shard=(0, 2.0)), "shard"), (dict(shard="0/2"), "shard"),
    (dict(errors="ignore"), "errors"), (dict(variants=3), "variants"),
])
def test_stream_refuses_each_bad_argument_by_name(kwargs, name):
    with pytest.raises(gr.GeomrenderError, match=f"for {name}"):
        gr.Stream(count=1, **kwargs)


def test_variants_and_score_refuse_bad_arguments_by_name(problems, tmp_path):
    with pytest.raises(gr.OptionError, match="for grid"):
        gr.variants(problems[0], "fontsize", grid="yes")
    with pytest.raises(gr.VariantError, match="for spec"):
        gr.variants(problems[0], 8)
    with pytest.raises(gr.OptionError, match="for errors"):
        gr.variants(problems[0], errors="ignore")
    m = tmp_path / "m.jsonl"
    for kwargs, name in [
        (dict(tolerance="0.03"), "tolerance"), (dict(tolerance=-1), "tolerance"),
        (dict(tolerance=float("inf")), "tolerance"), (dict(zero_tolerance=float("nan")), "zero_tolerance"),
        (dict(matched="no"), "matched"), (dict(missing=None), "missing"), (dict(format="csv"), "format"),
    ]:
        with pytest.raises(gr.OptionError, match=f"for {name}"):
            gr.score(m, m, **kwargs)
    with pytest.raises(gr.OptionError, match="for manifest"):
        gr.score(3, m)
    with pytest.raises(gr.OptionError, match="for predictions"):
        gr.score(m, [])
    with pytest.raises(gr.OptionError, match="for predictions"):
        gr.score(m, [m, 3])


# ------------------------------------------------------------ memory

MEMORY = """
import resource, sys
import geomrender as gr
import geomrender.stream  # torch, when installed (its import maps 3 GB)
used = next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (used + {limit}, resource.RLIM_INFINITY))
try:
{body}
    print("ok")
except gr.OptionError as e:
    print("OptionError:", e)
except MemoryError as e:
    print("MemoryError:", e)
"""


def _limited(body, limit=3 << 30, budget=None):
    """Runs `body` in a child whose address space is limited to `limit` bytes more
    than it has once imported (`budget`: what the package is told it may allocate,
    its up-front check's)."""
    code = MEMORY.format(limit=limit, body=textwrap.indent(textwrap.dedent(body), "    "))
    env = dict(os.environ)
    if budget is not None:
        env["GEOMRENDER_MEMORY_BUDGET"] = str(budget)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])  # never SIGABRT (-6)
    return r.stdout.strip().splitlines()[-1]


def test_what_cannot_fit_is_refused_up_front_pointing_to_stream():
    """Under a 3 GB limit, generate(100_000_000) and 2,000 arrays at 1024 px aborted
    the interpreter (SIGABRT). Both are now refused before any work."""
    t = time.perf_counter()
    out = _limited("gr.generate(100_000_000)")
    assert out.startswith("OptionError: generate(100000000)") and "geomrender.Stream" in out, out
    out = _limited("""
        ps = gr.generate(20, seed=0)
        gr.render([ps[i % 20] for i in range(2000)], size=1024, backend="cpu")
    """)
    assert out.startswith("OptionError: render of 2000 images (the first 1024×1024)") and "Stream" in out, out
    out = _limited("gr.Stream(batch=100_000, variants='fontsize', size=1024)")
    assert out.startswith("OptionError: a Stream batch of 100000 problems") and "batch=" in out, out
    assert time.perf_counter() - t < 60
    # What fits is made.
    assert _limited("assert len(gr.render(gr.generate(20, seed=0), size=1024, backend='cpu')) == 20") == "ok"


def test_allocation_failure_is_a_memory_error_not_an_abort():
    """Where the up-front check passes (told here that 10 PB are free) and memory
    runs out all the same, the allocations that fail are MemoryErrors: each image's
    pixel buffer, each chunk of problems. The process never aborts."""
    huge = 10**16
    out = _limited("""
        ps = gr.generate(8, seed=0)
        gr.render(ps * 150, backend="cpu")
    """, limit=420 << 20, budget=huge)
    assert out.startswith("MemoryError: item ") and "512×512 image: cannot allocate 1.0 MiB" in out, out
    out = _limited("gr.generate(10_000_000)", limit=520 << 20, budget=huge)
    assert out.startswith("MemoryError: generate(10000000)"), out
    # The budget is what the up-front check uses.
    out = _limited("gr.generate(1000)", budget=1000)
    assert out.startswith("OptionError: generate(1000)") and "GEOMRENDER_MEMORY_BUDGET" in out, out


# ------------------------------------------------------------ Ctrl-C


@pytest.mark.parametrize("call", [
    "gr.generate(400_000)",
    "gr.render(gr.generate(8) * 1000, backend='cpu')",
    "next(iter(gr.Stream(batch=5000, format='png')))",
])
def test_ctrl_c_stops_a_long_call_within_a_second(call):
    """generate() ignored Ctrl-C until it returned (16 s for 400,000 problems), a
    Stream until its batch was done: now a chunk is about 0.1 s."""
    code = f"import geomrender as gr\nimport geomrender.stream\nprint('go', flush=True)\n{call}\nprint('done')"
    # SIGINT restored to its default in the child: a shell without job control
    # starts background commands with it ignored, and Python then installs no
    # KeyboardInterrupt handler (a CI started with `&` would test nothing).
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert p.stdout.readline().strip() == "go"
    time.sleep(1.0)
    t = time.perf_counter()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=10)
    finally:
        p.kill()
    took = time.perf_counter() - t
    assert "KeyboardInterrupt" in err and "done" not in out, (out, err[-500:])
    assert took < 2.0, took


# ------------------------------------------------------------ pickling


def test_problems_and_variants_pickle_exactly(problems):
    for p in problems:
        q = pickle.loads(pickle.dumps(p))
        assert q == p and q.to_json() == p.to_json() and q.task == p.task
        for v in gr.variants(p, "fontsize=8;jpeg=30;relabel" if p.task == "relations" else "fontsize=8;jpeg=30"):
            w = pickle.loads(pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL))
            assert (w.id, w.label, w.base_id, w.encoding, w.variant) == (v.id, v.label, v.base_id, v.encoding, v.variant)
            assert w.to_dict() == v.to_dict() and w.scene == v.scene
            assert gr.render(w, format="png", backend="cpu") == gr.render(v, format="png", backend="cpu")


@pytest.mark.parametrize("ctx", ["fork", "spawn"])
def test_pool_map_renders_problems_and_variants(problems, ctx):
    """Pool.map(gr.render, problems) failed: a Problem could not be pickled."""
    items = problems[:4] + gr.variants(problems[0], "fontsize=8;annotation")
    with multiprocessing.get_context(ctx).Pool(2) as pool:
        got = pool.map(gr.render, items)
    assert all(np.array_equal(a, b) for a, b in zip(got, gr.render(items)))
    assert len(got) == len(items)
