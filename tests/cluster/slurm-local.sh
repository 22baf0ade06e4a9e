#!/usr/bin/env bash
# slurm-local.sh — a throw-away, single-node Slurm cluster for CI and tests.
#
# Needs root and Debian's packages:  apt-get install -y slurm-wlm munge
# (slurm_install below does that).  No systemd, slurmdbd or cgroups needed.
#
# Use it sourced:
#     . tests/cluster/slurm-local.sh
#     dir=$(mktemp -d) && slurm_start "$dir"      # exports SLURM_CONF
#     id=$(sbatch --parsable --array=0-3 --wrap 'echo $SLURM_ARRAY_TASK_ID')
#     slurm_wait "$id" 120                        # 0 iff every task COMPLETED
#     slurm_stop "$dir"
# or run it:
#     slurm-local.sh start DIR        # then: export SLURM_CONF=DIR/slurm.conf
#     slurm-local.sh wait JOBID [TIMEOUT]   (needs SLURM_CONF)
#     slurm-local.sh stop DIR
#     slurm-local.sh run CMD [ARGS...]  # start in a temp dir (or $SLURM_LOCAL_DIR),
#                                       # run CMD with SLURM_CONF and SLURM_LOCAL_DIR
#                                       # exported, stop, exit with CMD's status
#
# Knobs (environment): SLURM_LOCAL_CTLD_PORT (6817), SLURM_LOCAL_SLURMD_PORT
# (6818), SLURM_LOCAL_START_TIMEOUT (60 s), SLURM_LOCAL_DEBUG (info).
#
# Layout under DIR: slurm.conf, pids ("name pid" per line), munge/ (key,
# socket, pid, log), state/, spool/, run/ (pid files), log/ (daemon logs and
# jobcomp.txt, one line per finished job).
#
# Finished-job states: without slurmdbd, sacct has no accounting data, so
#  - MinJobAge=86400 keeps finished jobs in slurmctld's memory, so
#    `scontrol show job -o ID` gives every (array) task's final JobState;
#  - JobCompType=jobcomp/filetxt also writes one line per finished job to
#    DIR/log/jobcomp.txt (readable with `sacct -c`), the fallback if the
#    controller no longer knows the job.

_slurm_local_say() { echo "slurm-local: $*" >&2; }

slurm_install() {
    local missing=0 b
    for b in munged slurmctld slurmd sbatch; do
        command -v "$b" >/dev/null 2>&1 || missing=1
    done
    [ "$missing" = 0 ] && return 0
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq slurm-wlm munge >/dev/null
}

# _slurm_local_alive NAME PID: PID is running and is the daemon NAME;
# NAME "job" accepts any command. Zombies count as gone.
_slurm_local_alive() {
    local comm
    [ -n "$2" ] && [ -r "/proc/$2/comm" ] || return 1
    grep -q '^State:[[:space:]]*Z' "/proc/$2/status" 2>/dev/null && return 1
    [ "$1" = job ] && return 0
    comm=$(cat "/proc/$2/comm" 2>/dev/null) || return 1
    case "$comm" in "$1"*) return 0 ;; *) return 1 ;; esac
}

# _slurm_local_pidfile NAME FILE TIMEOUT: wait for a daemon's pid file and
# append "NAME PID" to DIR/pids.
_slurm_local_pidfile() {
    local name=$1 file=$2 timeout=$3 pid="" i
    for ((i = 0; i < timeout * 10; i++)); do
        if [ -s "$file" ]; then
            pid=$(tr -dc '0-9' <"$file")
            if [ -n "$pid" ] && _slurm_local_alive "$name" "$pid"; then
                echo "$name $pid" >>"$_SLURM_LOCAL_PIDS"
                return 0
            fi
        fi
        sleep 0.1
    done
    _slurm_local_say "$name did not start (no live pid in $file)"
    return 1
}

# _slurm_local_ctld_up DIR TIMEOUT: slurmctld answers `scontrol ping`.
_slurm_local_ctld_up() {
    local pid i
    pid=$(awk '$1 == "slurmctld" { p = $2 } END { print p }' "$1/pids")
    for ((i = 0; i < $2 * 10; i++)); do
        _slurm_local_alive slurmctld "$pid" || { _slurm_local_say "slurmctld $pid died"; return 1; }
        case "$(scontrol ping 2>/dev/null)" in *UP*) return 0 ;; esac
        sleep 0.1
    done
    _slurm_local_say "slurmctld not answering after $2 s"
    return 1
}

_slurm_local_dump_logs() {
    local dir=$1 f
    for f in "$dir"/munge/munged.log "$dir"/log/slurmctld.log "$dir"/log/slurmd.log \
             "$dir"/log/*.stderr; do
        [ -s "$f" ] || continue
        echo "----- $f (last 40 lines) -----" >&2
        tail -n 40 "$f" >&2
    done
    echo "----- sinfo -----" >&2
    sinfo -N -l >&2 2>&1 || true
}

slurm_start() {
    local dir=${1:?usage: slurm_start DIR}
    local host cpus mem_mb timeout=${SLURM_LOCAL_START_TIMEOUT:-60}
    local ctld_port=${SLURM_LOCAL_CTLD_PORT:-6817} slurmd_port=${SLURM_LOCAL_SLURMD_PORT:-6818}
    local debug=${SLURM_LOCAL_DEBUG:-info} b i state

    for b in munged munge slurmctld slurmd sinfo scontrol; do
        if ! command -v "$b" >/dev/null 2>&1; then
            _slurm_local_say "$b not found: apt-get install -y slurm-wlm munge (or slurm_install)"
            return 1
        fi
    done
    if [ "$(id -u)" != 0 ]; then
        _slurm_local_say "must run as root (SlurmUser=root, munged as root)"
        return 1
    fi
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd -P) || return 1
    if [ -s "$dir/pids" ]; then
        _slurm_local_say "$dir/pids exists: a cluster may already run there (slurm_stop $dir)"
        return 1
    fi

    for b in "$ctld_port" "$slurmd_port"; do
        if command -v ss >/dev/null 2>&1 && [ -n "$(ss -Hltn "sport = :$b" 2>/dev/null)" ]; then
            _slurm_local_say "TCP port $b is in use (another Slurm?); set SLURM_LOCAL_CTLD_PORT/SLURM_LOCAL_SLURMD_PORT"
            return 1
        fi
    done
    host=$(hostname -s)
    cpus=$(nproc)
    # RealMemory must not exceed what slurmd detects, or the node is drained.
    mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)

    mkdir -p "$dir"/munge "$dir"/state "$dir"/spool "$dir"/run "$dir"/log || return 1
    chmod 0700 "$dir"/munge "$dir"/state "$dir"/spool
    _SLURM_LOCAL_PIDS=$dir/pids
    : >"$_SLURM_LOCAL_PIDS"

    # munge key: munged runs as root here (the packaged "munge" user could
    # not traverse a 0700 mktemp dir), so the key belongs to root, 0400.
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none || return 1
    chown root:root "$dir/munge/munge.key"
    chmod 0400 "$dir/munge/munge.key"

    cat >"$dir/slurm.conf" <<EOF
# generated by tests/cluster/slurm-local.sh
ClusterName=geomrender-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=$debug
SlurmdDebug=$debug
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=86400
MaxJobCount=100000
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF=$dir/slurm.conf

    # munged: --force because the socket's parent dirs are not world-searchable
    # (mktemp -d is 0700) and it runs as root; it then only warns.
    munged --force \
        --socket="$dir/munge/munge.socket" \
        --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" \
        --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed" \
        2>>"$dir/log/munged.stderr" \
        && _slurm_local_pidfile munged "$dir/munge/munged.pid" 10 \
        && munge -n -S "$dir/munge/munge.socket" | unmunge -S "$dir/munge/munge.socket" >/dev/null \
        || { _slurm_local_say "munged failed"; _slurm_local_dump_logs "$dir"; slurm_stop "$dir"; return 1; }

    # slurmctld/slurmd daemonise themselves and write pid files. The tag lets
    # slurm_stop find this cluster's slurmstepd processes (they inherit
    # slurmd's environment, never the jobs' one).
    env _SLURM_LOCAL_DAEMON_TAG="$dir" SLURM_CONF="$dir/slurm.conf" \
        slurmctld -c -f "$dir/slurm.conf" </dev/null >>"$dir/log/slurmctld.stderr" 2>&1 \
        && _slurm_local_pidfile slurmctld "$dir/run/slurmctld.pid" 20 \
        && _slurm_local_ctld_up "$dir" 20 \
        || { _slurm_local_say "slurmctld failed"; _slurm_local_dump_logs "$dir"; slurm_stop "$dir"; return 1; }
    env _SLURM_LOCAL_DAEMON_TAG="$dir" SLURM_CONF="$dir/slurm.conf" \
        slurmd -f "$dir/slurm.conf" </dev/null >>"$dir/log/slurmd.stderr" 2>&1 \
        && _slurm_local_pidfile slurmd "$dir/run/slurmd.pid" 20 \
        || { _slurm_local_say "slurmd failed"; _slurm_local_dump_logs "$dir"; slurm_stop "$dir"; return 1; }

    for ((i = 0; i < timeout * 2; i++)); do
        state=$(sinfo -h -n "$host" -o '%T' 2>/dev/null | head -n 1) || true
        if [ "$state" = idle ]; then
            _slurm_local_say "node $host idle ($dir)"
            return 0
        fi
        sleep 0.5
    done
    _slurm_local_say "node $host not idle after ${timeout}s (state: ${state:-none})"
    _slurm_local_dump_logs "$dir"
    slurm_stop "$dir"
    return 1
}

slurm_stop() {
    local dir=${1:?usage: slurm_stop DIR}
    local conf name pid i left p tag pids=() names=()
    [ -d "$dir" ] || { _slurm_local_say "no such dir $dir"; return 1; }
    dir=$(cd "$dir" && pwd -P) || return 1
    conf=$dir/slurm.conf
    [ -s "$dir/pids" ] || return 0

    # 1. Cancel every job of this cluster and let slurmstepd clean up
    #    (only if slurmctld is alive: the clients hang ~30 s otherwise).
    pid=$(awk '$1 == "slurmctld" { p = $2 } END { print p }' "$dir/pids")
    if [ -n "$pid" ] && _slurm_local_alive slurmctld "$pid" && [ -s "$conf" ]; then
        SLURM_CONF=$conf scancel --quiet --partition=debug >/dev/null 2>&1 || true
        for ((i = 0; i < 20; i++)); do
            [ -z "$(SLURM_CONF=$conf squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    # 2. Record what is left of this cluster's jobs: slurmstepd processes
    #    tagged with DIR (see slurm_start) and all their descendants.
    local -A kids=()
    local steps=() ppid
    for p in /proc/[0-9]*; do
        [ "$(cat "$p/comm" 2>/dev/null)" = slurmstepd ] || continue
        tag=$(tr '\0' '\n' 2>/dev/null <"$p/environ" | sed -n 's/^_SLURM_LOCAL_DAEMON_TAG=//p') || true
        [ "$tag" = "$dir" ] && steps+=("${p#/proc/}")
    done
    if [ ${#steps[@]} -gt 0 ]; then
        for p in "${steps[@]}"; do echo "slurmstepd $p" >>"$dir/pids"; kids[$p]=1; done
        left=1
        while [ "$left" = 1 ]; do   # transitive closure over PPid
            left=0
            for p in /proc/[0-9]*; do
                pid=${p#/proc/}
                [ -n "${kids[$pid]:-}" ] && continue
                ppid=$(awk '/^PPid:/ { print $2 }' "$p/status" 2>/dev/null) || continue
                if [ -n "$ppid" ] && [ -n "${kids[$ppid]:-}" ]; then
                    kids[$pid]=1; left=1
                    echo "job $pid" >>"$dir/pids"
                fi
            done
        done
    fi
    # 3. TERM the recorded processes (job processes, slurmstepd, slurmd,
    #    slurmctld, munged: the reverse of the order recorded), wait, KILL.
    while read -r name pid; do
        [ -n "$pid" ] || continue
        _slurm_local_alive "$name" "$pid" || continue
        names+=("$name") pids+=("$pid")
    done < <(tac "$dir/pids")
    for i in "${!pids[@]}"; do kill -TERM "${pids[$i]}" 2>/dev/null || true; done
    for ((i = 0; i < 100; i++)); do
        left=0
        for p in "${!pids[@]}"; do
            _slurm_local_alive "${names[$p]}" "${pids[$p]}" && left=1
        done
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    for p in "${!pids[@]}"; do
        if _slurm_local_alive "${names[$p]}" "${pids[$p]}"; then
            _slurm_local_say "${names[$p]} ${pids[$p]} ignored TERM; KILL"
            kill -KILL "${pids[$p]}" 2>/dev/null || true
        fi
    done
    # Daemonised processes are re-parented to PID 1, which may reap them late:
    # give their zombies a moment to go, so `ps` shows nothing afterwards.
    for ((i = 0; i < 50; i++)); do
        left=0
        for p in "${!pids[@]}"; do [ -e "/proc/${pids[$p]}" ] && left=1; done
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    mv "$dir/pids" "$dir/pids.stopped"
    [ "${SLURM_CONF:-}" = "$conf" ] && unset SLURM_CONF
    return 0
}

# "key=value ..." job records (scontrol -o / jobcomp.txt) -> "ID STATE EXIT",
# ID being ARRAYJOB_TASK(JOBID) for array tasks.
_slurm_local_states() {
    awk '{
        delete f
        for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); if (!(k in f)) f[k] = v }
        if (!("JobId" in f) || !("JobState" in f)) next
        id = f["JobId"]
        if (f["ArrayJobId"] != "" && f["ArrayTaskId"] != "") id = f["ArrayJobId"] "_" f["ArrayTaskId"] "(" f["JobId"] ")"
        print id, f["JobState"], f["ExitCode"]
    }'
}

# slurm_wait JOBID [TIMEOUT_S=300]
# Waits until JOBID (all tasks, for an array) has left the queue. Returns
#   0 every task ended COMPLETED,  1 some task ended otherwise (FAILED,
#   CANCELLED — e.g. a killed never-satisfiable dependency —, TIMEOUT, ...),
#   2 a task is pending on DependencyNeverSatisfied (returned at once rather
#   than waiting for the scheduler to cancel it),  3 timeout,  4 unknown job.
# Prints each task's final "JobId State ExitCode" on stderr.
slurm_wait() {
    local id=${1:?usage: slurm_wait JOBID [TIMEOUT]} timeout=${2:-300}
    local deadline out rc states
    id=${id%%;*}   # sbatch --parsable may print "id;cluster"
    deadline=$((SECONDS + timeout))
    while :; do
        out=$(squeue -h -j "$id" -o '%i %T %r' 2>&1) && rc=0 || rc=$?
        if [ $rc -ne 0 ]; then
            case "$out" in
                *"Invalid job id"*) break ;;   # purged: fall back to jobcomp below
                *) _slurm_local_say "squeue: $out" ;;
            esac
        elif [ -z "$out" ]; then
            break
        elif grep -q 'DependencyNeverSatisfied' <<<"$out"; then
            _slurm_local_say "job $id can never run:"; echo "$out" >&2
            return 2
        fi
        if [ $SECONDS -ge $deadline ]; then
            _slurm_local_say "timeout after ${timeout}s waiting for job $id:"; echo "$out" >&2
            return 3
        fi
        sleep 0.5
    done

    # Final state of every task. One line per task while slurmctld remembers
    # the job (MinJobAge); otherwise the jobcomp/filetxt record.
    states=$(scontrol -o show job "$id" 2>/dev/null | _slurm_local_states) || true
    if [ -z "$states" ]; then
        local loc
        loc=$(scontrol show config 2>/dev/null | sed -n 's/^JobCompLoc *= *//p') || true
        if [ -n "$loc" ] && [ -r "$loc" ]; then
            states=$(grep -E "^JobId=$id |ArrayJobId=$id " "$loc" | _slurm_local_states) || true
        fi
    fi
    if [ -z "$states" ]; then
        _slurm_local_say "job $id: no record of it"
        return 4
    fi
    echo "$states" | sed 's/^/slurm-local: job /' >&2
    if awk '$2 != "COMPLETED" { bad = 1 } END { exit bad ? 0 : 1 }' <<<"$states"; then
        return 1
    fi
    return 0
}

_slurm_local_main() {
    local cmd=${1:-} dir rc own=0
    shift || true
    case "$cmd" in
        start) slurm_start "$@" && echo "export SLURM_CONF=$SLURM_CONF" ;;
        stop) slurm_stop "$@" ;;
        wait) slurm_wait "$@" ;;
        install) slurm_install ;;
        run)
            [ $# -gt 0 ] || { echo "usage: $0 run CMD [ARGS...]" >&2; return 64; }
            dir=${SLURM_LOCAL_DIR:-}
            if [ -z "$dir" ]; then dir=$(mktemp -d /tmp/slurm-local.XXXXXX) || return 1; own=1; fi
            slurm_start "$dir" || return 1
            export SLURM_LOCAL_DIR=$dir SLURM_LOCAL_SH=$_SLURM_LOCAL_SELF
            trap 'slurm_stop "$SLURM_LOCAL_DIR"' EXIT
            trap 'exit 130' INT
            trap 'exit 143' TERM
            trap 'exit 129' HUP
            "$@" && rc=0 || rc=$?
            trap - EXIT INT TERM HUP
            slurm_stop "$dir"
            [ "$own" = 1 ] && [ $rc -eq 0 ] && rm -rf "$dir"
            return $rc
            ;;
        *)
            echo "usage: $0 start DIR | stop DIR | wait JOBID [TIMEOUT] | run CMD [ARGS...] | install" >&2
            return 64
            ;;
    esac
}

_SLURM_LOCAL_SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)/$(basename "${BASH_SOURCE[0]}")
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    _slurm_local_main "$@"
    exit $?
fi
