#!/usr/bin/env bash
# The GPU checks in one script, for the day a machine with a GPU is lent (16 cores
# expected; under 8 minutes of wall time there): a release build, `doctor`, the
# integration tests with CI=true (a GPU test that cannot open an adapter fails, it
# never skips), `bench --backend gpu --against cpu` on the default sweep at 512² and
# on the `resolution` axis, then one JSON summary: the adapter, images/s per backend,
# stage shares (the GPU path's host-side work — prepare: tessellation and text
# shaping; gpu submit: encoding frames and glyph rasterisation; gpu wait + readback;
# encode: PNG; write), and the GPU's pixel agreement with resvg (the oracle that the
# cpu backend is also held to, RASTER_LIMITS).
#
#   scripts/gpu-check.sh [--bin PATH] [--out DIR] [--profile release|dev] [--count N]
#                        [--allow-software]
#
#   --bin PATH        use this geomrender binary and skip building it (the tests
#                     are still built: they are the GPU checks)
#   --out DIR         where the logs and gpu-check.json go (default target/gpu-check)
#   --profile P       cargo profile of the build and the tests (default release)
#   --count N         problems per bench run (default 200: 2,800 images a round)
#   --allow-software  accept a software adapter (lavapipe/llvmpipe): for trying the
#                     script without a GPU; the summary then says "software": true
#
# Exit status: 0 all checks passed on a hardware adapter (or a software one with
# --allow-software), 1 otherwise; the summary is written either way.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=target/gpu-check
PROFILE=release
BIN=""
COUNT=200
SOFTWARE=no
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) BIN=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --profile) PROFILE=$2; shift 2 ;;
        --count) COUNT=$2; shift 2 ;;
        --allow-software) SOFTWARE=yes; shift ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "gpu-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$PROFILE" in
    release) CARGO_PROFILE=(--release); TARGET_DIR=release ;;
    dev) CARGO_PROFILE=(); TARGET_DIR=debug ;;
    *) echo "gpu-check: --profile is release or dev" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export CI=true
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then export NODEVICE_SELECT=1; fi
# The default sweep's axes (variants::GEOMVERSE_SWEEP), as `sweep` renders them.
SWEEP="opacity;linewidth;fontsize;annotation"
# Bench runs write to tmpfs when there is one, so that the disk does not bound them.
BENCH_DIR=$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")" gpu-check.XXXXXX)
trap 'rm -rf "$BENCH_DIR"' EXIT

START=$(date +%s)
declare -A SECONDS_OF STATUS_OF
step() { # NAME CMD...: runs CMD, its output in $OUT/NAME.log; records status and time
    local name=$1; shift
    local t=$(date +%s)
    echo "== $name ($(( t - START )) s in)"
    set +e
    "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    set -e
    SECONDS_OF[$name]=$(( $(date +%s) - t ))
    STATUS_OF[$name]=$rc
    [ "$rc" -eq 0 ] || { echo "   failed (exit $rc): tail of $OUT/$name.log"; tail -15 "$OUT/$name.log"; }
}

if [ -z "$BIN" ]; then
    step build cargo build "${CARGO_PROFILE[@]}" --locked --features gpu,parquet
    BIN=target/$TARGET_DIR/geomrender
fi
[ -x "$BIN" ] || { echo "gpu-check: no binary at $BIN" >&2; exit 1; }
step doctor "$BIN" doctor
step gpu-tests env GEOMRENDER_AGREEMENT_JSON="$OUT/agreement.json" \
    cargo test "${CARGO_PROFILE[@]}" --locked --features gpu,parquet --lib --test it
step bench-512 "$BIN" bench --backend gpu --against cpu --count "$COUNT" --variants "$SWEEP" \
    --rounds 3 --out "$BENCH_DIR" --json "$OUT/bench-512.json"
step bench-resolution "$BIN" bench --backend gpu --against cpu --count "$(( (COUNT + 1) / 2 ))" \
    --variants resolution --rounds 2 --out "$BENCH_DIR" --json "$OUT/bench-resolution.json"
WALL=$(( $(date +%s) - START ))

# The summary, from the files the steps wrote.
STATUS_JSON=$(for k in "${!STATUS_OF[@]}"; do printf '%s %s %s\n' "$k" "${STATUS_OF[$k]}" "${SECONDS_OF[$k]}"; done)
python3 - "$OUT" "$WALL" "$SOFTWARE" "$STATUS_JSON" <<'PY'
import json, os, re, sys
out, wall, allow_software, status = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "yes", sys.argv[4]
def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None
steps = {}
for line in status.splitlines():
    name, rc, secs = line.split()
    steps[name] = {"exit": int(rc), "seconds": int(secs)}
doctor = open(os.path.join(out, "doctor.log")).read() if os.path.exists(os.path.join(out, "doctor.log")) else ""
m = re.search(r"--backend gpu would use: (.*?)(?: because .*)?$", doctor, re.M)
adapter = m.group(1).strip() if m else None
software = bool(re.search(r"software|llvmpipe|lavapipe|SwiftShader", adapter or "software"))
tests = open(os.path.join(out, "gpu-tests.log")).read() if os.path.exists(os.path.join(out, "gpu-tests.log")) else ""
results = re.findall(r"test result: (\w+)\. (\d+) passed; (\d+) failed; (\d+) ignored", tests)
def bench(name):
    b = load(name)
    if not b:
        return None
    return {"machine": b["machine"], "ratio_gpu_over_cpu": b["ratio"],
            "backends": [{"backend": x["backend"], "images": x["images"],
                          "images_per_s": round(x["images_per_s"], 1),
                          "stage_shares": {k: round(v["share"], 3) for k, v in x["stages"].items() if v["busy_s"] > 0}}
                         for x in b["best"]]}
summary = {
    "adapter": adapter,
    "software": software,
    "wall_seconds": wall,
    "steps": steps,
    "tests": [{"result": r[0], "passed": int(r[1]), "failed": int(r[2]), "ignored": int(r[3])} for r in results],
    "bench_512": bench("bench-512.json"),
    "bench_resolution": bench("bench-resolution.json"),
    "agreement_with_resvg": load("agreement.json"),
}
ok = all(s["exit"] == 0 for s in steps.values()) and (allow_software or not software)
summary["ok"] = ok
path = os.path.join(out, "gpu-check.json")
json.dump(summary, open(path + ".tmp", "w"), indent=2)
os.replace(path + ".tmp", path)
print(json.dumps(summary, indent=2))
print(f"gpu-check: {'ok' if ok else 'FAILED'} in {wall} s; summary: {path}")
sys.exit(0 if ok else 1)
PY
