"""deploy/ray/sweep.py on a real (local, single-node) Ray instance: 3 shards as
Ray tasks, then the merge, compared byte for byte with one machine's sweep; and a
failing shard fails the script with its stderr, without a merge.

The binary: $GEOMRENDER_BIN, else target/debug/geomrender. Needs
tests/python/requirements-cluster.txt (ray). Ray runs as a child process of the
script (ray.init() starts it, ray.shutdown() stops it); the test checks that no
Ray process of its own is left.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cluster_compare import same_run

if not os.environ.get("CI"):  # a developer's venv without the cluster requirements
    pytest.importorskip("ray", reason="pip install -r tests/python/requirements-cluster.txt")

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "deploy" / "ray" / "sweep.py"
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))

COUNT, SEED = "12", "5"
VARIANTS = "opacity=0.25;fontsize=8"
SINKS = "parquet,webdataset,vlmevalkit,lmms-eval"


@pytest.fixture
def ray_tmp():
    """Ray's temp dir, short (its socket paths must stay under 108 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="gr-ray-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def ray_env(ray_tmp):
    """A throw-away local Ray: no auth token in ~/.ray, listening on 127.0.0.1 only,
    its session files under ray_tmp; no shard variables or RAY_ADDRESS from outside."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_ARRAY_", "GEOMRENDER_SHARD", "JOB_COMPLETION_INDEX", "RAY_"))}
    env.update(RAY_AUTH_MODE="disabled", RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0",
               RAY_TMPDIR=str(ray_tmp), RAY_USAGE_STATS_ENABLED="0")
    return env


def ray_processes(ray_tmp):
    """PIDs of live processes whose command line names this test's Ray temp dir."""
    mine = str(ray_tmp).encode()
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if mine in (proc / "cmdline").read_bytes() and _state(proc) != b"Z":
                pids.append(int(proc.name))
        except OSError:
            pass
    return pids


def _state(proc):
    for line in (proc / "status").read_bytes().splitlines():
        if line.startswith(b"State:"):
            return line.split()[1]
    return b""


def run_script(tmp_path, ray_tmp, *extra, binary=BIN, shards="3"):
    cmd = [sys.executable, str(SCRIPT), "--out", str(tmp_path / "ray-run"), "--shards", shards,
           "--count", COUNT, "--seed", SEED, "--variants", VARIANTS, "--sinks", SINKS,
           "--binary", binary, "--num-cpus", "2", "--cpus-per-task", "1", *extra]
    start = time.monotonic()
    try:
        done = subprocess.run(cmd, env=ray_env(ray_tmp), capture_output=True, text=True, timeout=600)
    finally:
        # ray.shutdown() in the script stops what it started; give stragglers a moment.
        for _ in range(100):
            if not ray_processes(ray_tmp):
                break
            time.sleep(0.1)
    print(f"sweep.py: {time.monotonic() - start:.1f} s, exit {done.returncode}")
    print(done.stdout)
    print(done.stderr[-3000:], file=sys.stderr)
    assert not ray_processes(ray_tmp), f"Ray processes left: {ray_processes(ray_tmp)}"
    return done




def test_ray_sweep_of_3_shards_merges_to_one_machines_bytes(tmp_path, ray_tmp):
    done = run_script(tmp_path, ray_tmp)
    assert done.returncode == 0, done.stderr[-3000:]
    merged = tmp_path / "ray-run"
    for i in range(3):
        assert (merged / "shards" / f"{i}-of-3" / "done.json").is_file(), i
        assert f"shard {i}/3: exit 0" in done.stdout
    single = tmp_path / "single"
    start = time.monotonic()
    subprocess.run([BIN, "sweep", "--count", COUNT, "--seed", SEED, "--variants", VARIANTS,
                    "--sink", SINKS, "--backend", "cpu", "-q", "--out", str(single)],
                   env=ray_env(ray_tmp), check=True)
    print(f"single-machine sweep: {time.monotonic() - start:.1f} s")
    same_run(merged, single)


def test_a_failing_shard_fails_the_script_with_its_stderr_and_no_merge(tmp_path, ray_tmp):
    fake = tmp_path / "geomrender"
    fake.write_text('#!/bin/sh\n'
                    'case "$GEOMRENDER_SHARD" in 1/2) echo "shard one broke" >&2; exit 3;; esac\n'
                    'case "$1" in merge) touch "$2/MERGED";; esac\n')
    fake.chmod(0o755)
    done = run_script(tmp_path, ray_tmp, binary=str(fake), shards="2")
    assert done.returncode != 0
    assert "shard 1/2 failed (exit 3)" in done.stderr and "shard one broke" in done.stderr
    assert "1 of 2 shards failed" in done.stderr
    assert not (tmp_path / "ray-run" / "MERGED").exists()
