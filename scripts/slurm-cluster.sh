#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, from Debian's packages (slurm-wlm, munge), for the
# tests of deploy/slurm/: munged, slurmctld and slurmd on localhost, every file (key, config,
# state, logs, pid files) in one directory of its own, ports away from a real cluster's.
#
#   scripts/slurm-cluster.sh check          exit 0 when the packages are installed, else say what is missing (exit 1)
#   scripts/slurm-cluster.sh up DIR         start it (DIR must be empty or absent); waits until the node is idle
#   scripts/slurm-cluster.sh down DIR       cancel its jobs, stop its daemons (by their pid files), wait until they are gone
#
# Then: SLURM_CONF=DIR/slurm.conf sbatch|sinfo|squeue … talk to it. Needs root (slurmd starts jobs
# as their user). Nothing under /etc is touched and nothing is started that `down` does not stop.
# Ports: TW16_SLURM_PORT (slurmctld, default 16817) and TW16_SLURMD_PORT (slurmd, default the next one).
set -euo pipefail

usage() { echo "usage: $0 check | up DIR | down DIR" >&2; exit 2; }
die() { echo "slurm-cluster: $*" >&2; exit 1; }

SBIN=(munged slurmctld slurmd)
BIN=(sbatch sinfo squeue scancel scontrol)

check() {
  local missing=()
  for c in "${SBIN[@]}" "${BIN[@]}"; do
    command -v "$c" >/dev/null 2>&1 || [[ -x /usr/sbin/$c ]] || missing+=("$c")
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    echo "slurm-cluster: not installed: ${missing[*]} (apt-get install slurm-wlm munge)" >&2
    return 1
  fi
}

# The path of a daemon (Debian puts them in /usr/sbin, which a non-login PATH may lack).
sbin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

# Alive: the process exists and is not a zombie waiting for a parent that does not reap it.
pid_alive() {
  [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null || return 1
  [[ $(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) != Z ]]
}

# Wait up to $2 seconds for the process in pid file $1 to exit.
wait_gone() {
  local pid; pid=$(cat "$1" 2>/dev/null || true)
  for _ in $(seq 1 $(($2 * 10))); do pid_alive "$pid" || return 0; sleep 0.1; done
  return 1
}

up() {
  local dir=$1
  check || exit 1
  [[ $(id -u) -eq 0 ]] || die "needs root (slurmd starts jobs as their user)"
  if [[ -e $dir ]] && [[ -n $(ls -A "$dir") ]]; then die "$dir is not empty"; fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  chmod 700 "$dir"
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 700 "$dir/munge"

  local host; host=$(hostname -s)
  local cpus; cpus=$(nproc)
  local port=${TW16_SLURM_PORT:-16817}
  local dport=${TW16_SLURMD_PORT:-$((port + 1))}
  # Memory the node offers jobs (MB): what the machine has, less 512 MB for everything else.
  local mem; mem=$(awk '/^MemTotal:/ { m = int($2 / 1024) - 512; print (m > 512 ? m : 512) }' /proc/meminfo)

  # munge: a fresh key, its own socket.
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  "$(sbin munged)" --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    || die "munged did not start (see $dir/munge/munged.log)"

  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-cluster.sh: one node, this host, everything under $dir.
ClusterName=tw16test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$dport
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
MaxArraySize=10001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=tw16 Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf

  "$(sbin slurmctld)" -f "$dir/slurm.conf" -c || die "slurmctld did not start (see $dir/slurmctld.log)"
  "$(sbin slurmd)" -f "$dir/slurm.conf" -N "$host" || die "slurmd did not start (see $dir/slurmd.log)"

  # Ready when the node is idle (up to 60 s).
  local state=""
  for _ in $(seq 1 120); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
    [[ $state == idle ]] && { echo "slurm-cluster: up: $host ($cpus CPUs), SLURM_CONF=$dir/slurm.conf"; return 0; }
    sleep 0.5
  done
  echo "slurm-cluster: the node did not become idle within 60 s (state: ${state:-none}); logs in $dir" >&2
  tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
  down "$dir"
  exit 1
}

down() {
  local dir=$1
  [[ -d $dir ]] || return 0
  dir=$(cd "$dir" && pwd)
  if [[ -f $dir/slurm.conf ]] && [[ -f $dir/slurmctld.pid ]] && pid_alive "$(cat "$dir/slurmctld.pid")"; then
    SLURM_CONF=$dir/slurm.conf timeout 10 scancel --full --quiet --partition tw16 >/dev/null 2>&1 || true
  fi
  local ok=0
  # slurmd first (it ends the job steps it started), then slurmctld, then munged.
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
    [[ -f $f ]] || continue
    local pid; pid=$(cat "$f" 2>/dev/null || true)
    if pid_alive "$pid"; then
      kill -TERM "$pid" 2>/dev/null || true
      if ! wait_gone "$f" 15; then
        kill -KILL "$pid" 2>/dev/null || true
        wait_gone "$f" 5 || { echo "slurm-cluster: process $pid ($f) would not stop" >&2; ok=1; }
      fi
    fi
  done
  return $ok
}

case "${1:-}" in
  check) check ;;
  up) [[ $# -eq 2 ]] || usage; up "$2" ;;
  down) [[ $# -eq 2 ]] || usage; down "$2" ;;
  *) usage ;;
esac
