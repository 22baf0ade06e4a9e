#!/usr/bin/env bash
# slurm_test.sh — deploy/slurm proven on a real (single-node) Slurm.
#
# Starts a throw-away Slurm with tests/cluster/slurm-local.sh (installing
# slurm-wlm + munge first if they are missing; needs root), submits
# deploy/slurm/submit.sh for a 4-shard sweep, waits for the merge job, and
# checks that the merged run is byte for byte the run one machine makes with
# the same flags. Then re-runs one damaged shard outside Slurm
# (GEOMRENDER_SHARD=1/4 ... --shard auto --resume) and another inside Slurm
# (scontrol requeue: the task resumes), merges and compares again each time; and
# checks that a failing shard keeps the merge from running.
#
#   bash tests/cluster/slurm_test.sh        # binary: $GEOMRENDER_BIN, else target/debug/geomrender
#
# Exits non-zero on any failure, naming the first difference; never skips.
# Always stops the daemons it started (by PID, slurm_stop). Keeps its temp dir
# on failure (printed), removes it on success (KEEP=1 keeps it).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BIN=${GEOMRENDER_BIN:-$repo/target/debug/geomrender}
# shellcheck source=tests/cluster/slurm-local.sh
. "$repo/tests/cluster/slurm-local.sh"

# The sweep: small, every sink.
SHARDS=4
COUNT=12
SEED=5
VARIANTS="opacity=0.25;fontsize=8"
SINKS=parquet,webdataset,vlmevalkit,lmms-eval
BACKEND=cpu
WAIT_S=${SLURM_TEST_WAIT_S:-600}

T0=$SECONDS
checks=0
say() { echo "slurm_test: $*" >&2; }
fail() { echo "slurm_test: FAIL: $*" >&2; exit 1; }
ok() { checks=$((checks + 1)); say "ok: $* ($((SECONDS - T0)) s)"; }
timed() { # timed LABEL CMD...: runs CMD, prints how long it took
    local label=$1 t=$SECONDS rc=0
    shift
    "$@" || rc=$?
    say "$label: $((SECONDS - t)) s (exit $rc)"
    return $rc
}

[ "$(id -u)" = 0 ] || fail "needs root (slurm-local runs slurmctld/slurmd/munged as root)"
[ -x "$BIN" ] || fail "no geomrender binary at $BIN (cargo build, or set GEOMRENDER_BIN)"
BIN=$(realpath -- "$BIN")
"$BIN" --version >&2 || fail "$BIN --version failed"

work=$(mktemp -d /tmp/geomrender-slurm-test.XXXXXX)
cluster=$work/slurm
started=0
cleanup() {
    local rc=$?
    trap - EXIT INT TERM HUP
    if [ "$started" = 1 ]; then
        slurm_stop "$cluster" || say "slurm_stop failed"
    fi
    if [ $rc -eq 0 ] && [ -z "${KEEP:-}" ]; then
        rm -rf "$work"
    else
        say "kept $work"
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

timed "slurm install (if missing)" slurm_install || fail "could not install slurm-wlm + munge"
started=1
timed "slurm start" slurm_start "$cluster" || fail "could not start the local Slurm"

# ---- helpers -----------------------------------------------------------------

show_logs() {
    local f
    for f in "$1"/logs/*.out; do
        [ -e "$f" ] || continue
        echo "----- $f -----" >&2
        tail -n 30 "$f" >&2
    done
}

# listing DIR SUB: the files under DIR/SUB, relative, sorted (empty if no SUB).
listing() { if [ -d "$1/$2" ]; then (cd "$1/$2" && find . -type f | LC_ALL=C sort); fi; }

# same_file A B REL: A/REL and B/REL are the same bytes.
same_file() {
    [ -f "$1/$3" ] || fail "$1/$3 is missing"
    [ -f "$2/$3" ] || fail "$2/$3 is missing"
    cmp -- "$1/$3" "$2/$3" >&2 || fail "$3 differs: $1/$3 vs $2/$3"
}

# same_tree A B SUB [normalise]: the same file list under A/SUB and B/SUB, and
# every file the same bytes (normalise: A's and B's own paths replaced by DIR
# first, for files that name the run directory).
same_tree() {
    local a=$1 b=$2 sub=$3 norm=${4:-} la lb f n=0
    la=$(listing "$a" "$sub")
    lb=$(listing "$b" "$sub")
    [ -n "$lb" ] || fail "$b/$sub/ is empty or missing"
    if [ "$la" != "$lb" ]; then
        diff <(echo "$la") <(echo "$lb") | head -n 20 >&2 || true
        fail "$sub/ has different files: $a/$sub vs $b/$sub (diff above, < merged, > single)"
    fi
    while IFS= read -r f; do
        f=${f#./}
        if [ -n "$norm" ]; then
            cmp -- <(sed "s#$a#DIR#g" "$a/$sub/$f") <(sed "s#$b#DIR#g" "$b/$sub/$f") >&2 \
                || fail "$sub/$f differs (after replacing the run directories by DIR): $a/$sub/$f vs $b/$sub/$f"
        else
            cmp -- "$a/$sub/$f" "$b/$sub/$f" >&2 || fail "$sub/$f differs: $a/$sub/$f vs $b/$sub/$f"
        fi
        n=$((n + 1))
    done <<<"$la"
    say "  $sub/: $n files identical${norm:+ (paths replaced)}"
}

# same_run MERGED SINGLE: everything a single-machine run writes, byte for byte.
same_run() {
    local a=$1 b=$2 f
    for f in problems.jsonl manifest.jsonl vlmevalkit/GeomRender.tsv; do same_file "$a" "$b" "$f"; done
    same_tree "$a" "$b" images
    same_tree "$a" "$b" data
    same_tree "$a" "$b" wds
    same_tree "$a" "$b" lmms_eval normalise
    same_tree "$a" "$b" contact
    cmp -- <(sed "s#$a#DIR#g" "$a/README.md") <(sed "s#$b#DIR#g" "$b/README.md") >&2 \
        || fail "README.md differs (after replacing the run directories by DIR)"
}

sweep_flags=(--count "$COUNT" --seed "$SEED" --variants "$VARIANTS" --sink "$SINKS" --backend "$BACKEND" -q)

# ---- 1. the sweep on Slurm: array + merge ---------------------------------------

run=$work/cluster
t=$SECONDS
ids=$(GEOMRENDER=$BIN OUT=$run COUNT=$COUNT SEED=$SEED VARIANTS=$VARIANTS SINKS=$SINKS \
    BACKEND=$BACKEND SHARDS=$SHARDS CPUS_PER_TASK=1 bash "$repo/deploy/slurm/submit.sh") \
    || fail "submit.sh failed"
array=$(head -n 1 <<<"$ids")
merge=$(tail -n 1 <<<"$ids")
if ! { [ "$(wc -l <<<"$ids")" = 2 ] && [[ $array =~ ^[0-9]+$ ]] && [[ $merge =~ ^[0-9]+$ ]]; }; then
    fail "submit.sh printed '$ids', not two job ids"
fi
dep=$(scontrol -o show job "$merge" | grep -o 'Dependency=[^ ]*' || true)
say "array job $array, merge job $merge ($dep)"
rc=0; slurm_wait "$array" "$WAIT_S" || rc=$?
[ $rc -eq 0 ] || { show_logs "$run"; fail "the sweep array $array did not complete (slurm_wait $rc)"; }
ntasks=$(scontrol -o show job "$array" | grep -c 'ArrayTaskId=' || true)
[ "$ntasks" = "$SHARDS" ] || fail "array $array has $ntasks tasks, not $SHARDS"
rc=0; slurm_wait "$merge" "$WAIT_S" || rc=$?
[ $rc -eq 0 ] || { show_logs "$run"; fail "the merge job $merge did not complete (slurm_wait $rc)"; }
say "slurm sweep + merge: $((SECONDS - t)) s"
for ((i = 0; i < SHARDS; i++)); do
    [ -s "$run/shards/$i-of-$SHARDS/done.json" ] || { show_logs "$run"; fail "no $run/shards/$i-of-$SHARDS/done.json"; }
    [ -s "$run/logs/sweep-${array}_$i.out" ] || fail "no log $run/logs/sweep-${array}_$i.out"
done
[ -s "$run/logs/merge-$merge.out" ] || fail "no log $run/logs/merge-$merge.out"
ok "array of $SHARDS tasks then the merge ran on Slurm; every shard wrote done.json; logs in OUT/logs"

# ---- 2. the same sweep on one machine -----------------------------------------

single=$work/single
timed "single-machine sweep" "$BIN" sweep "${sweep_flags[@]}" --out "$single" \
    || fail "the single-machine sweep failed"
t=$SECONDS
same_run "$run" "$single"
ok "merged Slurm run == single-machine run, byte for byte ($((SECONDS - t)) s to compare)"

# ---- 3. a damaged shard: merge refuses, the shard resumes, merge again ----------

shard=$run/shards/1-of-$SHARDS
rm -f -- "$shard/done.json"
mapfile -t gone < <(listing "$shard" images | head -n 3)
[ ${#gone[@]} -eq 3 ] || fail "shard 1 has fewer than 3 images"
for f in "${gone[@]}"; do rm -f -- "$shard/images/${f#./}"; done
say "removed $shard/done.json and ${#gone[*]} images: ${gone[*]}"
rc=0; "$BIN" merge "$run" 2>"$work/merge-refused.err" || rc=$?
sed 's/^/  merge: /' "$work/merge-refused.err" >&2
[ $rc -ne 0 ] || fail "merge succeeded although shard 1 has no done.json"
[ -s "$work/merge-refused.err" ] || fail "merge refused without saying why (empty stderr)"
ok "merge refuses a run whose shard 1 is unfinished (exit $rc)"

# Outside Slurm: no SLURM_ARRAY_* here, GEOMRENDER_SHARD names the shard.
timed "shard 1 re-run (--resume)" env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT \
    -u SLURM_ARRAY_TASK_MIN -u SLURM_ARRAY_TASK_MAX -u JOB_COMPLETION_INDEX \
    GEOMRENDER_SHARD=1/$SHARDS "$BIN" sweep "${sweep_flags[@]}" --shard auto --resume --out "$run" \
    || fail "re-running shard 1 with --resume failed"
[ -s "$shard/done.json" ] || fail "the re-run shard 1 wrote no done.json"
for f in "${gone[@]}"; do [ -s "$shard/images/${f#./}" ] || fail "the re-run did not restore $f"; done
# Merge from the repaired shards alone: the first merge's outputs removed.
(cd "$run" && rm -rf problems.jsonl manifest.jsonl images data wds vlmevalkit lmms_eval contact README.md)
timed "merge again" "$BIN" merge "$run" || fail "merge after the re-run failed"
same_run "$run" "$single"
ok "after re-running shard 1 and merging again: still identical to the single-machine run"

# ---- 3b. a damaged shard re-run by Slurm: requeue the array task --------------

shard=$run/shards/2-of-$SHARDS
rm -f -- "$shard/done.json"
mapfile -t gone < <(listing "$shard" images | tail -n 2)
for f in "${gone[@]}"; do rm -f -- "$shard/images/${f#./}"; done
t=$SECONDS
# A requeued job waits for a begin time about two minutes on; starttime=now skips that.
scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2 failed"
scontrol update jobid="${array}_2" starttime=now || fail "scontrol update ${array}_2 starttime=now failed"
rc=0; slurm_wait "$array" "$WAIT_S" || rc=$?
[ $rc -eq 0 ] || { show_logs "$run"; fail "the requeued task ${array}_2 did not complete (slurm_wait $rc)"; }
grep -q -- '--resume' "$run/logs/sweep-${array}_2.out" \
    || { show_logs "$run"; fail "the requeued task did not run with --resume"; }
[ -s "$shard/done.json" ] || fail "the requeued shard 2 wrote no done.json"
for f in "${gone[@]}"; do [ -s "$shard/images/${f#./}" ] || fail "the requeued task did not restore $f"; done
merge=$(GEOMRENDER=$BIN OUT=$run sbatch --parsable --export=ALL,GEOMRENDER,OUT \
    --output="$run/logs/merge-%j.out" "$repo/deploy/slurm/merge.sbatch") || fail "sbatch merge.sbatch failed"
rc=0; slurm_wait "${merge%%;*}" "$WAIT_S" || rc=$?
[ $rc -eq 0 ] || { show_logs "$run"; fail "the merge job $merge did not complete (slurm_wait $rc)"; }
say "requeue + merge on Slurm: $((SECONDS - t)) s"
same_run "$run" "$single"
ok "after requeueing task ${array}_2 (it resumed) and merging on Slurm again: still identical"

# ---- 4. a failing shard: the merge never runs -----------------------------------

bad=$work/failing
ids=$(GEOMRENDER=/bin/false OUT=$bad SHARDS=2 CPUS_PER_TASK=1 bash "$repo/deploy/slurm/submit.sh") \
    || fail "submit.sh (failing run) failed"
array=$(head -n 1 <<<"$ids")
merge=$(tail -n 1 <<<"$ids")
rc=0; slurm_wait "$array" "$WAIT_S" || rc=$?
[ $rc -eq 1 ] || fail "an array of failing tasks gave slurm_wait $rc, not 1 (failed)"
rc=0; slurm_wait "$merge" "$WAIT_S" || rc=$?
[ $rc -eq 1 ] || [ $rc -eq 2 ] || fail "the merge after failed shards gave slurm_wait $rc (want cancelled: 1, or never satisfiable: 2)"
[ ! -e "$bad/logs/merge-$merge.out" ] || fail "the merge ran although the shards failed"
ok "failing shards: the merge job $merge is cancelled, never run"

echo "slurm_test: $checks passed, 0 failed (total $((SECONDS - T0)) s)"
