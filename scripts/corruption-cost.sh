#!/usr/bin/env bash
# The README's table of what each pixel-stage value costs (issue 49): for each
# value, `render` of N problems drawing the base and that one variant (2N images)
# on the CPU backend into /dev/shm; prints images/s of the run, the pixel
# stage's busy time per variant image, and the same run without the variant.
# Usage: scripts/corruption-cost.sh [N] (default 200), after a release build.
set -euo pipefail
G=${GEOMRENDER_BIN:-target/release/geomrender}
N=${1:-200}
tmp=$(mktemp -d /dev/shm/corrupt-cost.XXXX)
trap 'rm -rf "$tmp"' EXIT
"$G" generate --count "$N" --seed 49 --out "$tmp/p.jsonl" 2>/dev/null
run() { # $1: variants spec or empty
    local args=()
    [ -n "$1" ] && args=(--variants "$1")
    "$G" render "$tmp/p.jsonl" --backend cpu --force --out "$tmp/out" "${args[@]}" 2>&1 >/dev/null
}
line() { # $1 label, $2 spec
    local log wall images px
    log=$(run "$2")
    images=$(grep -o 'wrote [0-9]* images' <<<"$log" | grep -o '[0-9]*')
    wall=$(grep -o 'in [0-9.]* s' <<<"$log" | head -1 | grep -o '[0-9.]*')
    px=$(grep -o 'pixels [0-9.]* s' <<<"$log" | grep -o '[0-9.]*' || echo 0)
    awk -v l="$1" -v n="$images" -v w="$wall" -v p="$px" -v N="$N" \
        'BEGIN { printf "| %s | %d | %.0f | %.1f |\n", l, n, n / w, (p * 1000) / N }'
}
echo "| value | images | images/s (base + variant) | pixel stage, ms of CPU per variant image |"
echo "|---|---:|---:|---:|"
line "base images only" ""
for v in gaussian_noise shot_noise impulse_noise speckle_noise gaussian_blur defocus_blur \
    glass_blur motion_blur zoom_blur fog snow brightness contrast saturate pixelate \
    jpeg_compression elastic_transform; do
    line "\`corrupt=$v-3\`" "corrupt=$v-3"
done
for v in sketch=1 sketch=3 photo=1 photo=3; do line "\`$v\`" "$v"; done
