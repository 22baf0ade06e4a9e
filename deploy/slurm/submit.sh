#!/usr/bin/env bash
# submit.sh — a geomrender sweep on Slurm: the shards as one job array
# (sweep.sbatch, one task per shard), then the merge (merge.sbatch), which starts
# only once every array task has ended with exit code 0 (afterok on the array's
# job id covers all its tasks) and is cancelled if one fails.
#
#   [SHARDS=4] [GEOMRENDER=path] [OUT=dir] [COUNT=200] [SEED=0] [VARIANTS=spec] \
#   [SINKS=list] [BACKEND=cpu] [CPUS_PER_TASK=4] [EXTRA_ARGS="flags"] \
#       deploy/slurm/submit.sh [more sbatch options for both jobs, e.g. --partition=cpu]
#
# Prints the array job id, then the merge job id (the last line), on stdout:
#   merge=$(deploy/slurm/submit.sh | tail -n 1)
# Logs: $OUT/logs/sweep-ARRAYID_TASK.out and $OUT/logs/merge-JOBID.out.
# GEOMRENDER and OUT must be paths every node sees (a shared file system).
#
# Slurm's docs followed here:
#   job arrays and dependencies on them: https://slurm.schedmd.com/job_array.html
#   sbatch --array, --parsable, --dependency, --kill-on-invalid-dep, --export:
#     https://slurm.schedmd.com/sbatch.html
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

SHARDS=${SHARDS:-4}
CPUS_PER_TASK=${CPUS_PER_TASK:-4}
GEOMRENDER=${GEOMRENDER:-$(command -v geomrender || true)}
OUT=${OUT:-$PWD/geomrender-run}
COUNT=${COUNT:-200}
SEED=${SEED:-0}
VARIANTS=${VARIANTS:-opacity;linewidth;fontsize;annotation}
SINKS=${SINKS:-}
BACKEND=${BACKEND:-cpu}
EXTRA_ARGS=${EXTRA_ARGS:-}

die() { echo "submit.sh: $*" >&2; exit 2; }
case "$SHARDS" in '' | *[!0-9]* | 0*) die "SHARDS must be a positive integer, not '$SHARDS'" ;; esac
case "$CPUS_PER_TASK" in '' | *[!0-9]* | 0*) die "CPUS_PER_TASK must be a positive integer, not '$CPUS_PER_TASK'" ;; esac
[ -n "$GEOMRENDER" ] || die "no geomrender on PATH: set GEOMRENDER=/path/to/geomrender"
command -v sbatch >/dev/null || die "sbatch not found"
# The jobs run elsewhere, maybe from another directory: absolute paths.
case "$GEOMRENDER" in */*) GEOMRENDER=$(realpath -m -- "$GEOMRENDER") ;; esac
OUT=$(realpath -m -- "$OUT")
mkdir -p -- "$OUT/logs"   # Slurm does not create the --output directory

# The settings reach the jobs as environment variables. --export=ALL,NAME,...
# names them without values: a value such as SINKS=parquet,webdataset would be
# cut at its comma by --export's own comma-separated list.
export GEOMRENDER OUT COUNT SEED VARIANTS SINKS BACKEND EXTRA_ARGS
vars=ALL,GEOMRENDER,OUT,COUNT,SEED,VARIANTS,SINKS,BACKEND,EXTRA_ARGS

# --parsable prints "jobid" or "jobid;cluster".
array=$(sbatch --parsable --array="0-$((SHARDS - 1))" --cpus-per-task="$CPUS_PER_TASK" \
    --export="$vars" --output="$OUT/logs/sweep-%A_%a.out" "$@" "$here/sweep.sbatch")
array=${array%%;*}
# afterok on the array job id waits for every task; if one fails, the dependency
# can never be satisfied and --kill-on-invalid-dep=yes cancels the merge at once
# instead of leaving it pending (DependencyNeverSatisfied).
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --export="$vars" --output="$OUT/logs/merge-%j.out" "$@" "$here/merge.sbatch")
merge=${merge%%;*}

echo "submit.sh: sweep: array job $array, $SHARDS tasks (--array=0-$((SHARDS - 1))), $COUNT problems, seed $SEED -> $OUT" >&2
echo "submit.sh: merge: job $merge (--dependency=afterok:$array); logs in $OUT/logs/" >&2
echo "$array"
echo "$merge"
