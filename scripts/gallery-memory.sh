#!/usr/bin/env bash
# Peak memory and time of `geomrender gallery` and `geomrender audit` as a run
# grows (issue 44): a real sweep of 200 problems (2,800 PNG + SVG images) whose
# manifest rows are replicated under new ids (`c<k>-<id>`, base ids likewise) that
# name the same files, so every row is intact and every variant has its base and
# its SVG for the audit. Peak RSS from /usr/bin/time -v.
#
#   GEOMRENDER_BIN=target/release/geomrender bash scripts/gallery-memory.sh [ROWS...]
#
# Default sizes: 20000 100000 1000000 rows (the 1,000,000-row manifest is 2.2 GB).
set -euo pipefail
G=${GEOMRENDER_BIN:?set GEOMRENDER_BIN to the geomrender binary}
W=${WORK:-$(mktemp -d)}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20000 100000 1000000)

[ -f "$W/base/manifest.jsonl" ] || "$G" sweep --count 200 --seed 3 --backend cpu -q \
    --format png,svg --out "$W/base" >/dev/null 2>&1

peak() { # LABEL CMD...: prints peak RSS (MB) and wall time of CMD
    local label=$1; shift
    /usr/bin/time -v "$@" >/dev/null 2>"$W/time.txt" || true
    local kb s
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$W/time.txt")
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$W/time.txt")
    printf '%-28s peak RSS %7.1f MB  wall %s\n' "$label" "$(echo "$kb / 1024" | bc -l)" "$s"
}

for n in "${sizes[@]}"; do
    d="$W/x$n"
    rm -rf "$d"
    mkdir -p "$d"
    cp -al "$W/base/images" "$d/images"  # the same files (a link to the directory is refused)
    python3 - "$W/base/manifest.jsonl" "$d/manifest.jsonl" "$n" <<'EOF'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = [json.loads(l) for l in open(src)]
with open(dst, "w") as f:
    k = 0
    while k * len(rows) < n:
        for r in rows[: n - k * len(rows)]:
            f.write(json.dumps({**r, "id": f"c{k}-{r['id']}", "base_id": f"c{k}-{r['base_id']}"}) + "\n")
        k += 1
EOF
    echo "== $n rows, manifest $(du -h "$d/manifest.jsonl" | cut -f1)"
    peak "gallery --no-audit" "$G" gallery --no-audit "$d"
    peak "audit" "$G" audit "$d"
    peak "gallery (with its audit)" "$G" gallery "$d"
    rm -rf "$d"
done
