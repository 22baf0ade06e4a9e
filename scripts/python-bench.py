#!/usr/bin/env python3
"""The Python package's figures, side by side with the CLI in one run (issue 27).

    python scripts/python-bench.py --bin target/release/geomrender [--count 200] [--rounds 3]

Needs the package installed (a release wheel: `pip install ./python`) and a
release `geomrender` binary. Measures, interleaving the rounds:

1. throughput: `geomrender bench --backend cpu --variants <default sweep>` (PNG
   files written under --out, tmpfs by default) against `geomrender.Stream` over
   the same problems (bench's seed 1, depths 1–3) as PNG bytes and as arrays;
2. the GIL: two Python threads each rendering a batch on one Rust thread,
   against the same two batches one after the other;
3. memory: peak RSS of `render` of 1,000 images (arrays, then PNG bytes) in a
   fresh process, against `geomrender render` of the same 1,000 images.

Prints a table and writes the figures as JSON (--json).
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time


def bench_cli(bin_, count, spec, out):
    cmd = [bin_, "bench", "--backend", "cpu", "--count", str(count), "--variants", spec, "--out", out]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True)
    text = text.stdout + text.stderr
    m = re.search(r"([\d,.]+) images/s", text)
    if not m:
        raise SystemExit(f"no images/s in bench output:\n{text}")
    return float(m.group(1).replace(",", "")), text


def bench_stream(gr, count, spec, fmt):
    t0 = time.perf_counter()
    n = 0
    for _ in gr.Stream(seed=1, count=count, variants=spec, format=fmt):
        n += 1
    return n / (time.perf_counter() - t0), n


def gil(gr, n, rounds):
    """Best of `rounds`: two batches of `n` images (PNG bytes, one Rust thread each)
    one after the other, and in two Python threads at once."""
    problems = gr.generate(2 * n, seed=7)
    a, b = problems[:n], problems[n:]
    gr.render(a[:4], backend="cpu", threads=1)  # warm up
    kw = {"backend": "cpu", "threads": 1, "format": "png"}
    serial = parallel = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        gr.render(a, **kw)
        gr.render(b, **kw)
        serial = min(serial, time.perf_counter() - t0)
        threads = [threading.Thread(target=gr.render, args=(x,), kwargs=kw) for x in (a, b)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        parallel = min(parallel, time.perf_counter() - t0)
    return serial, parallel


# Peak RSS is read from /proc/self/status (VmHWM, reset by exec), not from
# getrusage, whose ru_maxrss a child inherits from the process that forked it.
RSS_CHILD = """
import sys, geomrender as gr
def hwm():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
problems = gr.generate(250, seed=1)
items = [v for p in problems for v in gr.variants(p, "fontsize=8,24;opacity=0.1")][:1000]
before = hwm()
out = gr.render(items, backend="cpu", format=sys.argv[1])
assert len(out) == 1000
size = sum(getattr(o, "nbytes", None) or len(o) for o in out)
print(before, hwm(), size)
"""


def rss(bin_, tmp):
    figures = {}
    for fmt in ("array", "png"):
        r = subprocess.run([sys.executable, "-c", RSS_CHILD, fmt], capture_output=True, text=True, check=True)
        before, peak, size = map(int, r.stdout.split())
        figures[fmt] = {"peak_kib": peak, "before_render_kib": before, "output_bytes": size}
    # The CLI on the same 1,000 images (250 problems × base + 3 variants), its
    # peak from GNU time (%M: the child's own maximum RSS).
    problems = os.path.join(tmp, "p.jsonl")
    subprocess.run([bin_, "generate", "--count", "250", "--seed", "1", "--out", problems], check=True,
                   capture_output=True)
    r = subprocess.run(["/usr/bin/time", "-f", "%M", bin_, "render", problems, "--backend", "cpu", "-q",
                        "--variants", "fontsize=8,24;opacity=0.1", "--out", os.path.join(tmp, "r")],
                       check=True, capture_output=True, text=True)
    figures["cli"] = {"peak_kib": int(r.stderr.strip().splitlines()[-1])}
    with open(os.path.join(tmp, "r", "manifest.jsonl")) as f:
        figures["cli"]["images"] = sum(1 for _ in f)
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/geomrender")
    ap.add_argument("--count", type=int, default=200, help="problems (× the default sweep's 14 images)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default="/dev/shm" if os.path.isdir("/dev/shm") else None,
                    help="where `bench` writes (default: /dev/shm, a tmpfs)")
    ap.add_argument("--json", default="python-bench.json")
    args = ap.parse_args()

    import geomrender as gr

    spec = gr.GEOMVERSE_SWEEP
    # Memory first, while this process is small.
    with tempfile.TemporaryDirectory() as tmp:
        memory = rss(args.bin, tmp)
    rounds = []
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory(dir=args.out) as out:
            cli, _ = bench_cli(args.bin, args.count, spec, out)
        png, n = bench_stream(gr, args.count, spec, "png")
        arr, _ = bench_stream(gr, args.count, spec, "array")
        rounds.append({"cli": cli, "stream_png": png, "stream_array": arr, "images": n})
        print(f"round {r + 1}: bench --backend cpu {cli:,.0f} images/s · Stream png {png:,.0f} · "
              f"Stream array {arr:,.0f} ({n} images)", flush=True)
    best = {k: max(x[k] for x in rounds) for k in ("cli", "stream_png", "stream_array")}
    serial, parallel = gil(gr, 400, args.rounds)
    result = {
        "machine": os.uname().nodename, "cpus": os.cpu_count(), "python": sys.version.split()[0],
        "geomrender": gr.__version__, "backend": gr._native.backend_name("cpu"),
        "rounds": rounds, "best": best,
        "stream_png_vs_cli": best["stream_png"] / best["cli"],
        "stream_array_vs_cli": best["stream_array"] / best["cli"],
        "gil": {"serial_s": serial, "two_threads_s": parallel, "speedup": serial / parallel},
        "rss_1000_images": memory,
    }
    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
    print(f"best: bench {best['cli']:,.0f} images/s, Stream png {best['stream_png']:,.0f} "
          f"({result['stream_png_vs_cli']:.2f}×), Stream array {best['stream_array']:,.0f} "
          f"({result['stream_array_vs_cli']:.2f}×)")
    print(f"GIL: two batches serial {serial:.2f} s, in two threads {parallel:.2f} s → {serial / parallel:.2f}×")
    for k, v in memory.items():
        print(f"RSS {k}: peak {v['peak_kib'] / 1024:.0f} MiB", {x: y for x, y in v.items() if x != "peak_kib"})
    print(f"figures: {args.json}")


if __name__ == "__main__":
    main()
