#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# packaging/test-slurm.sh DEB|DIR WORK - the README's Slurm recipe on one node:
# a clean Debian 12 root (chroot-lib.sh; cached with Debian's slurmctld,
# slurmd, slurm-client, munge and libpmix-dev), the rperf package installed
# with dpkg -i, munged + slurmctld + slurmd on 127.0.0.1 (ports picked at
# random, no cgroups: proctrack/linuxproc, task/none), then
#   srun -n 3 --mpi=pmix rperf run --mpi --dry-run JOB  (rank 0 controller only)
#   srun -n 2 --mpi=pmix rperf run --mpi --dry-run JOB  (rank 0 also h1's agent)
#   srun -n 4 ...: refused, exit 2, naming 2 or 3
# with a 2-host job whose hosts are 127.0.0.1, the agents dry (no RDMA: the
# chroot has no device; what stays untested is in the README). Exit 77
# (skip) as test-deb.sh.
set -uo pipefail
deb=$(realpath "${1:?usage: test-slurm.sh DEB|DIR WORK}")
# a directory: the package build-deb.sh left in it
[ -d "$deb" ] && deb=$(ls "$deb"/rperf_*.deb 2> /dev/null | tail -1)
[ -f "$deb" ] || { echo "FAIL no rperf_*.deb in ${1} (packaging/build-deb.sh makes it)"; exit 1; }
work=$(realpath -m "${2:?usage: test-slurm.sh DEB WORK}")
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
[ "$(id -u)" = 0 ] || { echo "test-slurm: needs root (chroot, slurmd): skipped"; exit 77; }
command -v debootstrap > /dev/null ||
	{ echo "test-slurm: needs debootstrap (bash tests/install-deps.sh): skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/chroot-lib.sh
. "$here/chroot-lib.sh"
t_start=$(date +%s)

# shellcheck disable=SC2046 # one name per word
base=$(pkg_base man-db systemd $(pkg_depends "$deb")) ||
	{ bad "debootstrap bookworm from $(pkg_mirror)"; exit 1; }
# Debian's pmix plugin of Slurm dlopens pmix2/lib/libpmix.so: libpmix-dev
slurm=$(pkg_extend "$base" slurm slurmctld slurmd slurm-client munge libpmix-dev) ||
	{ bad "apt-get install of Slurm in the root"; exit 1; }
root=$work/root
cleanup() {
	pkg_stop "$root"
	pkg_umount "$root"
}
trap cleanup EXIT
pkg_clean "$work"
mkdir -p "$work"
pkg_copy "$slurm" "$root"
in_root() { pkg_in "$root" "$@"; }
cp "$deb" "$root/tmp/rperf.deb"
in_root dpkg -i /tmp/rperf.deb > "$work/dpkg.log" 2>&1 ||
	{ bad "dpkg -i: $(tail -5 "$work/dpkg.log")"; exit 1; }
slurm_version=$(in_root dpkg-query -W -f='${Version}' slurmd)

port=$((20000 + RANDOM % 20000))
mkdir -p "$root/etc/slurm" "$root/var/spool/slurmctld" "$root/var/spool/slurmd"
cat > "$root/etc/slurm/slurm.conf" << CONF
ClusterName=rperf
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmdParameters=config_overrides
SlurmctldLogFile=/var/log/slurmctld.log
SlurmdLogFile=/var/log/slurmd.log
NodeName=localhost NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
in_root sh -c 'mkdir -p /run/munge && chown munge:munge /run/munge' &&
	in_root setpriv --reuid=munge --regid=munge --init-groups munged > "$work/munged.log" 2>&1 &&
	in_root slurmctld -i && in_root slurmd -N localhost ||
	{ bad "starting munged, slurmctld, slurmd: $(tail -3 "$root"/var/log/slurm*.log 2> /dev/null)"; exit 1; }
for ((t = 0; t < 60; t++)); do
	in_root sinfo -h -o %T 2> /dev/null | grep -qx idle && break
	sleep 0.5
done
in_root sinfo -h -o %T 2> /dev/null | grep -qx idle &&
	ok "Slurm $slurm_version: slurmctld + slurmd on 127.0.0.1:$port, node idle" ||
	{ bad "the node is not idle: $(in_root sinfo 2>&1; tail -5 "$root/var/log/slurmd.log")"; exit 1; }

printf '[global]\nduration = 1s\nwarmup = 0s\ntimeout = 10s\n[host h1]\ncontrol = 127.0.0.1\n[host h2]\ncontrol = 127.0.0.1\n[lsg probe]\nfrom = h2\nto = h1\n[bsg load]\nfrom = h1\nto = h2\n' \
	> "$root/tmp/job.ini"
# srun N: the README's line (Open MPI kept off RDMA devices), 120 s at most
srun_rperf() {
	in_root sh -c "cd /tmp && OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp timeout 120 srun -n $1 --mpi=pmix rperf run --mpi --dry-run --out_json_file /tmp/r$1.json /tmp/job.ini" \
		> "$work/srun$1.out" 2> "$work/srun$1.err"
}
srun_rperf 3
rc=$?
if [ "$rc" = 0 ] && grep -q '3 rank(s) on 1 node(s), rank 0 only the controller' "$work/srun3.err" &&
	grep -q '"dry_run": *true' "$root/tmp/r3.json"; then
	ok "srun -n 3 --mpi=pmix rperf run --mpi: exit 0, $(grep -m1 'rank(s) on' "$work/srun3.err")"
else
	bad "srun -n 3: exit $rc: $(tail -5 "$work/srun3.out" "$work/srun3.err")"
fi
srun_rperf 2
rc=$?
if [ "$rc" = 0 ] && grep -q '2 rank(s) on 1 node(s); each agent' "$work/srun2.err" &&
	grep -q '"dry_run": *true' "$root/tmp/r2.json"; then
	ok "srun -n 2 (rank 0 also an agent): exit 0, $(grep -m1 'rank(s) on' "$work/srun2.err")"
else
	bad "srun -n 2: exit $rc: $(tail -5 "$work/srun2.out" "$work/srun2.err")"
fi
srun_rperf 4
rc=$?
if [ "$rc" = 2 ] && grep -q 'launch 2 .* or 3' "$work/srun4.err"; then
	ok "srun -n 4: refused, exit 2: $(grep -m1 'MPI rank' "$work/srun4.err")"
else
	bad "srun -n 4: exit $rc (expected 2 naming 2 or 3): $(tail -3 "$work/srun4.err")"
fi
echo "test-slurm: $(($(date +%s) - t_start)) s in all"
[ "$fails" = 0 ] && { cleanup; trap - EXIT; pkg_clean "$work"; }
[ "$fails" = 0 ]
