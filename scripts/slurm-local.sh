#!/usr/bin/env bash
# A real single-node Slurm on this machine, for `gpuforge study run --backend slurm` and
# its test: Debian's munge, slurmctld and slurmd, configured for localhost and started
# without systemd. Idempotent: a running cluster that answers is left alone.
#
#   scripts/slurm-local.sh install   # apt-get the packages when missing (make setup)
#   scripts/slurm-local.sh start     # configure and start munged, slurmctld, slurmd
#   scripts/slurm-local.sh stop
#   scripts/slurm-local.sh status
#
# Files: /etc/slurm/slurm.conf (written only if absent or written by this script),
# state under /var/spool/slurm{ctld,d}, logs in /var/log/slurm/.
set -euo pipefail

PACKAGES="munge slurmctld slurmd slurm-client"
CONF=/etc/slurm/slurm.conf
MARK="# written by gpuforge scripts/slurm-local.sh"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

install() {
    local missing=""
    for c in munged slurmctld slurmd sbatch; do command -v "$c" >/dev/null 2>&1 || missing=1; done
    if [ -n "$missing" ]; then
        echo "installing: $PACKAGES"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $PACKAGES
    fi
    for c in munged slurmctld slurmd sbatch; do
        command -v "$c" >/dev/null 2>&1 || { echo "error: $c is still missing after apt-get install $PACKAGES"; exit 1; }
    done
}

answers() {
    timeout 5 sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'
}

configure() {
    local host cpus mem
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
    if [ -f "$CONF" ] && ! grep -q "$MARK" "$CONF"; then
        echo "keeping $CONF (not written by this script)"
        return
    fi
    $SUDO mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    $SUDO tee "$CONF" >/dev/null <<EOF
$MARK
ClusterName=gpuforge
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
MaxArraySize=100001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
    if pgrep -x munged >/dev/null && munge -n </dev/null | unmunge >/dev/null 2>&1; then
        return
    fi
    if [ ! -s /etc/munge/munge.key ]; then
        $SUDO mkdir -p /etc/munge
        if command -v mungekey >/dev/null; then $SUDO mungekey --create --force; else $SUDO dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none; fi
        $SUDO chown munge:munge /etc/munge/munge.key
        $SUDO chmod 400 /etc/munge/munge.key
    fi
    $SUDO mkdir -p /run/munge /var/log/munge /var/lib/munge
    $SUDO chown munge:munge /run/munge /var/log/munge /var/lib/munge
    $SUDO runuser -u munge -- /usr/sbin/munged
    munge -n </dev/null | unmunge >/dev/null
}

start() {
    install
    if answers; then
        echo "slurm is up: $(sinfo -h -o '%P %D %T')"
        return
    fi
    configure
    start_munge
    pgrep -x slurmctld >/dev/null || $SUDO slurmctld
    pgrep -x slurmd >/dev/null || $SUDO slurmd
    for _ in $(seq 1 60); do
        if answers; then
            echo "slurm is up: $(sinfo -h -o '%P %D %T')"
            return
        fi
        # a node left DOWN by an earlier stop comes back
        $SUDO scontrol update nodename="$(hostname -s)" state=resume >/dev/null 2>&1 || true
        sleep 1
    done
    echo "error: slurm did not come up; logs in /var/log/slurm/"
    tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log 2>/dev/null || true
    exit 1
}

stop() {
    for pid in /run/slurmd.pid /run/slurmctld.pid; do
        [ -s "$pid" ] && $SUDO kill "$(cat "$pid")" 2>/dev/null || true
    done
}

case "${1:-start}" in
    install) install ;;
    start) start ;;
    stop) stop ;;
    status) if answers; then sinfo; else echo "slurm is not answering"; exit 1; fi ;;
    *) echo "usage: $0 install|start|stop|status"; exit 2 ;;
esac
