#!/usr/bin/env bash
# The README's Slurm recipe, run for real: brings up a single-node Slurm (slurmctld and slurmd
# from Debian's slurm-wlm, authentication by munge) in a scratch directory, submits the job
# array of the README, requeues one running task (as a preemption or a node failure would), and
# checks that `--resume` finished it: the merged shards hold every game exactly once, replay,
# and give the same table as one unsharded run.
#
#   bench/slurm.sh                       # a match (default)
#   KIND=tournament bench/slurm.sh       # a tournament of four bots at tables of three
#   SHARDS=4 GAMES=40 bench/slurm.sh
#   CROUPIER=path bench/slurm.sh         # that binary (default: the release build, in
#                                        # $CARGO_TARGET_DIR if set)
#
# Needs root (slurmd runs jobs as their users) and: apt-get install slurm-wlm munge
# Not a test: it starts daemons; it prints what it showed and exits non-zero on a mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
KIND=${KIND:-match}  # or tournament
SHARDS=${SHARDS:-4}
GAMES=${GAMES:-60}
if [ "$(id -u)" != 0 ]; then
    echo "bench/slurm.sh: needs root (to run slurmd and munged)" >&2
    exit 2
fi
for tool in slurmctld slurmd sbatch squeue scontrol munged; do
    command -v "$tool" >/dev/null || {
        echo "bench/slurm.sh: $tool is missing: apt-get install slurm-wlm munge" >&2
        exit 2
    }
done
# shellcheck source=bench/binary.sh
source bench/binary.sh
W=$(mktemp -d /tmp/croupier-slurm.XXXXXX)
mkdir -p "$W/state" "$W/spool" "$W/log" "$W/run"
export SLURM_CONF=$W/slurm.conf
cleanup() {
    for d in slurmd slurmctld; do
        [ -f "$W/$d.pid" ] && kill "$(cat "$W/$d.pid")" 2>/dev/null || true
    done
}
trap cleanup EXIT

# munge: one daemon per machine; start it when none answers.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge && chown munge:munge /run/munge
    su -s /bin/sh munge -c /usr/sbin/munged
    sleep 1
fi
host=$(hostname)
cat >"$SLURM_CONF" <<EOF
ClusterName=croupier
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
KillWait=5
SlurmctldPort=16917
SlurmdPort=16918
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=bench Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c
slurmd
for _ in $(seq 50); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 0.2
done
echo "slurm: $(sinfo -h -o '%P %D %T %c') (slurm-wlm $(slurmctld -V | awk '{print $2}'))"

# The README's recipe, scaled down. The bots are built in, so the runs are reproducible; pimc
# makes a shard take long enough to be requeued in the middle.
case $KIND in
match) what="match rikken --bot new=pimc:samples=8,playouts=64 --bot old=simple" ;;
tournament) what="tournament kul --players 3 --bot pimc=pimc:samples=8,playouts=64 --bot simple=simple --bot random=random --bot mix=mix:p=0.5" ;;
*)
    echo "bench/slurm.sh: KIND is match or tournament" >&2
    exit 2
    ;;
esac
cat >"$W/run/job.sh" <<EOF
#!/bin/bash
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --cpus-per-task=1
#SBATCH --output=$W/run/task-%a.out
#SBATCH --open-mode=append
#SBATCH --requeue
echo "start of task \$SLURM_ARRAY_TASK_ID (restart \${SLURM_RESTART_COUNT:-0})"
$C $what --games $GAMES --seed 42 --quiet \\
    --shard \${SLURM_ARRAY_TASK_ID}/$SHARDS --record shard-\${SLURM_ARRAY_TASK_ID}.jsonl --resume
echo "end of task \$SLURM_ARRAY_TASK_ID: exit \$?"
EOF
cd "$W/run"
job=$(sbatch --parsable job.sh)
echo "submitted job array $job ($SHARDS tasks, $GAMES deals)"
# Requeue task 0 once it has recorded some games but not all.
requeued=no
for _ in $(seq 600); do
    if [ -s shard-0.jsonl ] && squeue -h -j "${job}_0" -t RUNNING 2>/dev/null | grep -q .; then
        before=$(wc -l <shard-0.jsonl)
        scontrol requeue "${job}_0"
        requeued="yes, after $before game(s)"
        break
    fi
    sleep 0.1
done
echo "task 0 requeued: $requeued"
for _ in $(seq 3000); do
    squeue -h -j "$job" 2>/dev/null | grep -q . || break
    sleep 0.2
done
cat task-0.out
"$C" replay shard-*.jsonl
"$C" stats shard-*.jsonl >merged.txt 2>merged.err
cat merged.txt
if [ -s merged.err ]; then
    echo "stats said:"
    cat merged.err
fi
# One unsharded run of the same games.
"$C" $what --games "$GAMES" --seed 42 --quiet --record one.jsonl >/dev/null
# Times (ms/decision, max ms) differ from run to run; every other number must not.
numbers() {
    "$C" stats --json "$@" | python3 -c '
import json, sys
for line in sys.stdin:
    g = json.loads(line)
    for b in g.get("bots", []):
        b.pop("ms_per_decision", None)
        b.pop("max_ms", None)
    print(json.dumps(g, sort_keys=True))'
}
if [ "$(numbers shard-*.jsonl)" = "$(numbers one.jsonl)" ]; then
    echo "merged shards = one run (every number but the times): yes"
else
    echo "merged shards = one run: NO"
    diff <(numbers shard-*.jsonl) <(numbers one.jsonl) || true
    exit 1
fi
