#!/usr/bin/env bash
# Prints SHA-256s of the outputs a refactor must not change, for a closing note's
# before/after table: the README's main job, every variant axis in PNG and SVG, a
# 500-problem generate, and every dataset sink.
# Usage: scripts/same-bytes.sh [BINARY] [WORKDIR]   (default: target/release/geomrender, a temp dir)
set -euo pipefail
bin=$(realpath "${1:-target/release/geomrender}")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
work=$(realpath "$work")
cd "$work"
rm -rf main axes sinks problems*.jsonl
# The axes to sweep, each at its default sweep (AXES=... to change; the default is the 14
# axes of issue 24's start, so that a new axis does not change the comparison).
axes=${AXES:-"opacity;linewidth;fontsize;annotation;info;resolution;palette;relabel;rotation;jpeg;phrasing;backward;aux;unrelated"}

"$bin" sweep --out main >/dev/null 2>&1
"$bin" generate --count 500 --seed 0 --out problems500.jsonl >/dev/null 2>&1
"$bin" generate --count 40 --seed 7 --out problems40.jsonl >/dev/null 2>&1
"$bin" render problems40.jsonl --out axes --variants "$axes" --format png,svg --backend cpu >/dev/null 2>&1
"$bin" render problems40.jsonl --out sinks --variants "fontsize;annotation" --backend cpu \
  --sink parquet,webdataset,vlmevalkit,lmms-eval >/dev/null 2>&1

# The images of a run, concatenated in manifest order (png, then svg where written).
images() {
  python3 - "$1" <<'PY'
import json, sys, os
d = sys.argv[1]
h = __import__("hashlib").sha256()
n = 0
for line in open(os.path.join(d, "manifest.jsonl")):
    row = json.loads(line)
    for key in ("image", "svg"):
        if row.get(key):
            h.update(open(os.path.join(d, row[key]), "rb").read()); n += 1
print(h.hexdigest(), f"({n} files)")
PY
}
# Every file of a run but the run record, as one digest; the work directory's absolute path
# (lmms-eval's YAML names its Parquet files by it) is replaced by WORK.
tree() {
  python3 - "$1" "$work" <<'PY'
import hashlib, os, sys
d, work = sys.argv[1], os.path.realpath(sys.argv[2]).encode()
h = hashlib.sha256()
names = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs
               if not f.startswith(".geomrender."))
for name in names:
    data = open(os.path.join(d, name), "rb").read().replace(work, b"WORK")
    h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
print(h.hexdigest(), f"({len(names)} files)")
PY
}

printf 'axes swept: %s\n' "$axes"
printf '%-34s %s\n' \
  "main job manifest" "$(sha256sum < main/manifest.jsonl | cut -d' ' -f1)" \
  "main job images" "$(images main)" \
  "main job every file" "$(tree main)" \
  "generate 500 seed 0" "$(sha256sum < problems500.jsonl | cut -d' ' -f1)" \
  "every axis manifest" "$(sha256sum < axes/manifest.jsonl | cut -d' ' -f1)" \
  "every axis images (png+svg)" "$(images axes)" \
  "every axis every file" "$(tree axes)" \
  "sinks every file" "$(tree sinks)"
