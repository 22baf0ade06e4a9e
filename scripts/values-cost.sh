#!/usr/bin/env bash
# What a `values` image costs against a base image's generate + render (issue 46):
# one run of either side of the README's comparison, in a fresh directory under
# /dev/shm (so that file creation on a disk does not set the figure).
#
#   GEOMRENDER_BIN=target/release/geomrender DEPTH=3 bash scripts/values-cost.sh base
#       generate 1,200 problems and render them: 1,200 base images
#   GEOMRENDER_BIN=target/release/geomrender DEPTH=3 bash scripts/values-cost.sh values
#       generate 200 problems and render them with values=1..5: 1,200 images,
#       200 bases and 1,000 values images
#
# Timed in pairs, e.g. `farm-bench -n 9 --vs "bash scripts/values-cost.sh base"
# -- bash scripts/values-cost.sh values`; a values image then costs
# (A/B − 1/6) / (5/6) of a base image's generate + render.
set -euo pipefail
G=${GEOMRENDER_BIN:?set GEOMRENDER_BIN to the geomrender binary}
DEPTH=${DEPTH:-3}
d=$(mktemp -d /dev/shm/values-cost.XXXXXX)
trap 'rm -rf "$d"' EXIT
case "${1:?base or values}" in
    base)
        "$G" generate --count 1200 --depth "$DEPTH" --seed 9 --out "$d/p.jsonl" 2>/dev/null
        "$G" render "$d/p.jsonl" --backend cpu -q --out "$d/o"
        ;;
    values)
        "$G" generate --count 200 --depth "$DEPTH" --seed 9 --out "$d/p.jsonl" 2>/dev/null
        "$G" render "$d/p.jsonl" --variants values=1,2,3,4,5 --backend cpu -q --out "$d/o"
        ;;
    *) echo "usage: values-cost.sh base|values" >&2; exit 2 ;;
esac
