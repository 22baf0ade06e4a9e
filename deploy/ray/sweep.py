#!/usr/bin/env python3
"""A geomrender sweep on Ray: one Ray task per shard, then `geomrender merge`.

    python deploy/ray/sweep.py --out /shared/run --shards 8 --count 10000 --seed 0 \\
        [--variants SPEC] [--sinks parquet,webdataset,vlmevalkit,lmms-eval] \\
        [--binary /shared/bin/geomrender] [--address auto] [--cpus-per-task 1]

Each task runs `geomrender sweep ... --shard auto --out OUT` with
GEOMRENDER_SHARD=I/N in its environment, so shard I writes OUT/shards/I-of-N/;
when all have succeeded, the driver runs `geomrender merge OUT`, which writes the
whole run into OUT, byte for byte what one machine running the sweep writes.
A failed shard fails the script (exit 1) with its stderr; re-running the script
then re-runs every shard with --resume, which keeps the images already made.

--address: a running cluster (`auto`, or `ray://HOST:10001`); without it, Ray
starts a local instance on this machine. --binary and --out must be paths that
every node sees (a shared file system), as the tasks run there.

Ray's own settings come from the environment and are left to you: on a cluster,
its security and networking are the cluster's. For a throw-away local instance
on a shared machine the tests set RAY_AUTH_MODE=disabled (no token written to
~/.ray/auth_token) and RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 (the instance listens
on 127.0.0.1 only).
Ray tasks and resources: https://docs.ray.io/en/latest/ray-core/tasks.html
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

import ray


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="run directory (shared by all nodes)")
    p.add_argument("--shards", type=int, required=True, help="number of shards (Ray tasks)")
    p.add_argument("--count", type=int, required=True, help="problems in the whole run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variants", help="variant axes (geomrender's default if omitted)")
    p.add_argument("--sinks", help="comma-separated dataset sinks, e.g. parquet,webdataset")
    p.add_argument("--backend", default="cpu", help="cpu (default), gpu or auto; the same for all shards")
    p.add_argument("--binary", default=shutil.which("geomrender") or "geomrender",
                   help="geomrender binary (default: the one on PATH)")
    p.add_argument("--address", help="Ray cluster address; default: start a local instance")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local instance (default: all)")
    p.add_argument("--cpus-per-task", type=float, default=1, help="CPUs Ray reserves per shard")
    args = p.parse_args(argv)
    if args.shards < 1:
        p.error("--shards must be at least 1")
    args.out = os.path.abspath(args.out)
    if os.sep in args.binary:
        args.binary = os.path.abspath(args.binary)
    return args


def sweep_command(args):
    cmd = [args.binary, "sweep", "--count", str(args.count), "--seed", str(args.seed),
           "--backend", args.backend, "--out", args.out, "--shard", "auto", "--resume", "-q"]
    if args.variants is not None:
        cmd += ["--variants", args.variants]
    if args.sinks:
        cmd += ["--sink", args.sinks]
    return cmd


def run_shard(cmd, shard, shards, threads):
    """One shard, in a Ray worker: (shard, exit code, seconds, node, stderr tail)."""
    env = dict(os.environ, GEOMRENDER_SHARD=f"{shard}/{shards}", RAYON_NUM_THREADS=str(threads))
    for name in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"):  # not ours here
        env.pop(name, None)
    start = time.monotonic()
    try:
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, errors="replace")
        code, err = done.returncode, done.stderr
    except OSError as e:  # no such binary on that node, ...
        code, err = 127, f"{cmd[0]}: {e}"
    return shard, code, time.monotonic() - start, os.uname().nodename, err[-4000:]


def main(argv=None):
    args = parse_args(argv)
    init = {"address": args.address}
    if args.address is None and args.num_cpus is not None:
        init["num_cpus"] = args.num_cpus
    ray.init(**init)
    try:
        start = time.monotonic()
        task = ray.remote(num_cpus=args.cpus_per_task)(run_shard)
        threads = max(1, int(args.cpus_per_task))
        cmd = sweep_command(args)
        refs = [task.remote(cmd, i, args.shards, threads) for i in range(args.shards)]
        results = sorted(ray.get(refs))
    finally:
        ray.shutdown()
    for shard, code, secs, node, _ in results:
        print(f"shard {shard}/{args.shards}: exit {code} in {secs:.1f} s on {node}")
    failed = [r for r in results if r[1] != 0]
    if failed:
        for shard, code, _, node, err in failed:
            print(f"--- shard {shard}/{args.shards} failed (exit {code}) on {node}:\n{err}",
                  file=sys.stderr)
        raise SystemExit(f"{len(failed)} of {args.shards} shards failed; fix the cause and "
                         "run the same command again (finished images are kept)")
    sweep_s = time.monotonic() - start
    merge = subprocess.run([args.binary, "merge", args.out])
    if merge.returncode != 0:
        raise SystemExit(f"geomrender merge {args.out} failed (exit {merge.returncode})")
    print(f"{args.count} problems in {args.shards} shards: sweep {sweep_s:.1f} s, "
          f"merge {time.monotonic() - start - sweep_s:.1f} s -> {args.out}")


if __name__ == "__main__":
    main()
