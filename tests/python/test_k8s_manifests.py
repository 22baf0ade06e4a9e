"""deploy/k8s, checked offline: every manifest against the Kubernetes schemas
(kubernetes-validate, strict, Kubernetes 1.30), the fields the sweep relies on,
the Dockerfile's stages, and the Jobs' commands run as their pods would
(JOB_COMPLETION_INDEX = 0..completions-1, then the merge) with the real binary
($GEOMRENDER_BIN, else target/debug/geomrender), compared byte for byte with one
machine's run.

Needs tests/python/requirements-cluster.txt (kubernetes-validate, PyYAML).
"""

import os
import re
import shlex
import subprocess
from pathlib import Path, PurePosixPath

import pytest
from cluster_compare import same_run

if os.environ.get("CI"):
    import kubernetes_validate
    import yaml
else:  # a developer's venv without the cluster requirements
    kubernetes_validate = pytest.importorskip(
        "kubernetes_validate", reason="pip install -r tests/python/requirements-cluster.txt")
    yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "deploy" / "k8s"
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))
KUBERNETES_VERSION = "1.30.0"


def docs(path: Path):
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def manifests():
    out = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in docs(path):
            out[(doc["kind"], doc["metadata"]["name"])] = doc
    return out


def flag(command, name):
    """The value after `name` in an argv list (exactly once)."""
    at = [i for i, a in enumerate(command) if a == name]
    assert len(at) == 1, f"{name} appears {len(at)} times in {command}"
    assert at[0] + 1 < len(command), f"{name} has no value in {command}"
    return command[at[0] + 1]


def only_container(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1, job["metadata"]["name"]
    return containers[0]


def claim_mount(job, container):
    """(claimName, mountPath) of the container's PersistentVolumeClaim mount."""
    volumes = {v["name"]: v for v in job["spec"]["template"]["spec"]["volumes"]}
    found = [(volumes[m["name"]]["persistentVolumeClaim"]["claimName"], m["mountPath"])
             for m in container["volumeMounts"]
             if "persistentVolumeClaim" in volumes.get(m["name"], {})]
    assert len(found) == 1, f"{job['metadata']['name']}: want one PVC mount, got {found}"
    return found[0]


@pytest.fixture(scope="module")
def k8s():
    m = manifests()
    assert ("Job", "geomrender-sweep") in m and ("Job", "geomrender-merge") in m, sorted(m)
    assert ("PersistentVolumeClaim", "geomrender-data") in m, sorted(m)
    return m


@pytest.mark.parametrize("path", sorted(K8S.glob("*.yaml")), ids=lambda p: p.name)
def test_every_manifest_validates_strictly_against_kubernetes_1_30(path):
    found = docs(path)
    assert found, f"{path} has no YAML document"
    for doc in found:
        try:
            kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            where = ".".join(str(p) for p in e.path)
            pytest.fail(f"{path.name}: {doc['kind']}/{doc['metadata']['name']}: {where}: {e.message}")


def test_the_validator_rejects_what_it_should():
    """Guards against a validator that passes everything (e.g. a missing schema)."""
    job = manifests()[("Job", "geomrender-sweep")]
    bad = yaml.safe_load(yaml.safe_dump(job))
    bad["spec"]["completionz"] = 4  # unknown field: strict mode only
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES_VERSION, strict=True)
    bad = yaml.safe_load(yaml.safe_dump(job))
    bad["spec"]["completions"] = "four"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES_VERSION, strict=True)


def test_sweep_job_is_an_indexed_job_with_one_pod_per_shard(k8s):
    job = k8s[("Job", "geomrender-sweep")]
    spec = job["spec"]
    # The schema takes any string here: check the value ourselves.
    assert spec["completionMode"] == "Indexed"
    container = only_container(job)
    command = container["command"] + container.get("args", [])
    assert command[:2] == ["geomrender", "sweep"], command
    assert flag(command, "--shard") == "auto"
    shards = int(flag(command, "--shards"))
    assert spec["completions"] == spec["parallelism"] == shards == 4
    assert spec["template"]["spec"]["restartPolicy"] == "Never"
    requests = container["resources"]["requests"]
    assert "cpu" in requests and "memory" in requests
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    assert env.get("RAYON_NUM_THREADS") == str(requests["cpu"])
    # --out lies on the claim.
    claim, mount = claim_mount(job, container)
    out = PurePosixPath(flag(command, "--out"))
    assert out.is_absolute() and PurePosixPath(mount) in out.parents, (mount, out)
    pvc = k8s[("PersistentVolumeClaim", claim)]
    assert "ReadWriteMany" in pvc["spec"]["accessModes"]


def test_merge_job_reads_the_same_claim_and_path(k8s):
    sweep, merge = k8s[("Job", "geomrender-sweep")], k8s[("Job", "geomrender-merge")]
    sc, mc = only_container(sweep), only_container(merge)
    command = mc["command"] + mc.get("args", [])
    assert command[:2] == ["geomrender", "merge"] and len(command) == 3, command
    assert command[2] == flag(sc["command"] + sc.get("args", []), "--out")
    assert claim_mount(merge, mc) == claim_mount(sweep, sc)
    assert mc["image"] == sc["image"]
    assert merge["spec"].get("completionMode", "NonIndexed") == "NonIndexed"
    assert merge["spec"]["template"]["spec"]["restartPolicy"] == "Never"


def test_dockerfile_builds_in_rust_and_runs_on_slim_debian_with_lavapipe():
    text = (K8S / "Dockerfile").read_text()
    # Instructions, with continuation lines joined and comments dropped.
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]
    instructions = re.sub(r"\\\n", " ", "\n".join(lines)).splitlines()
    instructions = [i.strip() for i in instructions if i.strip()]
    froms = [i.split() for i in instructions if i.upper().startswith("FROM ")]
    assert len(froms) == 2, froms
    assert froms[0][1] == "rust:1-bookworm" and froms[0][2].upper() == "AS", froms[0]
    builder = froms[0][3]
    assert froms[1][1] == "debian:bookworm-slim", froms[1]
    builder_part, runtime_part = text.split(" ".join(froms[1][:2]), 1)
    assert "cargo build --release --locked" in builder_part
    runs = [i for i in instructions if i.upper().startswith("RUN ")]
    install = [r for r in runs if "apt-get install" in r]
    assert install and "mesa-vulkan-drivers" in shlex.split(install[-1])
    assert "mesa-vulkan-drivers" in runtime_part
    copies = [i.split() for i in instructions if i.upper().startswith("COPY ")]
    assert any(c[1] == f"--from={builder}" and c[-1].endswith("/geomrender") for c in copies), copies
    assert re.search(r"^ENV NVIDIA_DRIVER_CAPABILITIES=\S*graphics", text, re.M)
    ignore = (K8S / "Dockerfile.dockerignore").read_text().split()
    assert "target" in ignore and ".git" in ignore


# ---- the Jobs' commands, run as their pods would, against one machine's run ----



def test_the_jobs_commands_shard_and_merge_to_one_machines_bytes(k8s, tmp_path):
    """Pods simulated: the sweep Job's command with JOB_COMPLETION_INDEX=0..N-1 and
    the merge Job's command, /data mapped to a temp dir and --count made small."""
    sweep, merge = k8s[("Job", "geomrender-sweep")], k8s[("Job", "geomrender-merge")]
    sc, mc = only_container(sweep), only_container(merge)
    _, mount = claim_mount(sweep, sc)
    data = tmp_path / "data"

    def local(argv):
        argv = [BIN] + list(argv[1:])
        argv = [str(data) + a[len(mount):] if a == mount or a.startswith(mount + "/") else a
                for a in argv]
        if "--count" in argv:
            argv[argv.index("--count") + 1] = "4"
        return argv

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_ARRAY_", "GEOMRENDER_SHARD", "JOB_COMPLETION_INDEX"))}
    env.update({e["name"]: e["value"] for e in sc.get("env", [])})
    sweep_argv = local(sc["command"] + sc.get("args", []))
    for index in range(sweep["spec"]["completions"]):
        subprocess.run(sweep_argv, env={**env, "JOB_COMPLETION_INDEX": str(index)}, check=True)
    subprocess.run(local(mc["command"] + mc.get("args", [])), env=env, check=True)

    # One machine: the same flags without the shard ones.
    single_argv, skip = [], 0
    for a in sweep_argv:
        if skip:
            skip -= 1
        elif a in ("--shard", "--shards", "--out"):
            skip = 1
        else:
            single_argv.append(a)
    single = tmp_path / "single"
    subprocess.run(single_argv + ["--out", str(single)], env=env, check=True)
    merged = Path(local(mc["command"] + mc.get("args", []))[2])
    same_run(merged, single)
