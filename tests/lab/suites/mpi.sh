#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rxe-lab: openmpi
# mpi.sh - `rperf run --mpi` launched by Open MPI's mpirun, one boot:
#   rxe-lab run --hosts 3 tests/lab/suites/mpi.sh
# (the line above makes rxe-lab copy mpirun, orted and Open MPI's component
# trees into the VM). The ranks are local processes in the VM's initial
# namespace, where every lab host lives; each agent binds its host's
# address (10.77.0.I) and uses its host's rxe device; MPI itself talks TCP
# and shared memory only (pml ob1, btl self,vader,tcp), never the rxe
# devices. Job: h1 the destination, an LSG h2 -> h1, a BSG h3 -> h1.
#  - mpirun -np 3: rank i runs host i's agent, rank 0 also the controller;
#    the run passes, every host is reported, real traffic crossed the
#    switch (ports h2-sw, h3-sw), nothing is marked dry run;
#  - mpirun -np 4: rank 0 only the controller; the same;
#  - mpirun -np 2: refused before anything starts, naming -np 3 (exit 2).
# Skips (77) when this rperf was built without MPI or the host has no
# Open MPI. Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=120 # timeout(1) around every mpirun, seconds
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
# one node, no ssh in the VM: the launcher that needs no rsh agent
export OMPI_MCA_plm=isolated
export OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
JOB=/tmp/mpi3.ini

job_write() {
	local i
	{
		printf '[global]\nduration = 3s\nwarmup = 1s\ntimeout = 30s\nsink_completion = event\n'
		for i in 1 2 3; do
			printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
				"$i" "$i" "$i" "$(lab_host_gid "h$i")"
		done
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\npair_order = sequential\n'
		printf '[bsg load]\nfrom = h3\nto = h1\nsize = 4K\ntx_depth = 16\nrate = 20M\ncompletion = event\n'
	} > "$JOB"
}

# mpi_run NP TAG: mpirun -np NP rperf run --mpi; output in $OUT/TAG.txt
mpi_run() {
	timeout "$T" mpirun --oversubscribe -np "$1" rperf run --mpi "$JOB" \
		--out_json_file "$OUT/$2.json" > "$OUT/$2.txt" 2>&1
}

# passes NP TAG: the launch exits 0, reports h1..h3, measured for real
passes() {
	local np=$1 tag=$2 rc=0 before after j=$OUT/$2.json p50 gbps rx2 rx3 fails
	before=$(lab_counters)
	mpi_run "$np" "$tag" || rc=$?
	after=$(lab_counters)
	sed 's/^/  | /' "$OUT/$tag.txt" | tail -n 40
	echo "EXPECT mpirun -np $np exits 0"
	echo "GOT exit $rc"
	[ "$rc" = 0 ] || return 1
	fails=$(jq -r '.failed_hosts | length' "$j")
	echo "EXPECT hosts h1 h2 h3 reported, none failed, not a dry run"
	echo "GOT hosts $(jq -c '[.hosts[] | .name]' "$j"), failed $fails, dry_run $(jq -r .dry_run "$j")"
	[ "$(jq -c '[.hosts[] | select(.failed == false) | .name]' "$j")" = '["h1","h2","h3"]' ] &&
		[ "$fails" = 0 ] && [ "$(jq -r .dry_run "$j")" = false ] || return 1
	p50=$(jq -r '[.generators[] | select(.kind == "lsg")][0].rtt_ns.p50 // 0' "$j")
	gbps=$(jq -r '[.generators[] | select(.kind == "bsg")][0].receiver_gbps // 0' "$j")
	lab_result "mpi $tag LSG p50_ns=$p50 BSG receiver_gbps=$gbps setup_s=$(jq -r .control_plane.setup_seconds "$j") go_rx_spread_ns=$(jq -r .control_plane.go_rx_spread_ns "$j")"
	grep -q "rperf run --mpi: $np rank(s)" "$OUT/$tag.txt" || { echo "GOT no rank summary line"; return 1; }
	rx2=$(printf '%s\n%s\n' "$before" "$after" | awk '$1 == "h2-sw" { if (n++) print $2 - r; else r = $2 }')
	rx3=$(printf '%s\n%s\n' "$before" "$after" | awk '$1 == "h3-sw" { if (n++) print $2 - r; else r = $2 }')
	echo "INFO switch ports received: h2-sw $rx2, h3-sw $rx3 packets"
	lab_expect_range "LSG p50 (ns)" "$p50" 1 1000000000 &&
		lab_expect_range "BSG receiver Gb/s" "$gbps" 0.000001 100 &&
		lab_expect_ge "packets from h2 (LSG) through the switch" "$rx2" 100 &&
		lab_expect_ge "packets from h3 (BSG) through the switch" "$rx3" 100
}

refused() {
	local rc=0
	mpi_run 2 np2 || rc=$?
	echo "EXPECT exit 2 naming -np 3"
	echo "GOT exit $rc: $(grep 'rperf run --mpi' "$OUT/np2.txt" | head -n 1)"
	[ "$rc" = 2 ] && grep -q 'mpirun -np 3' "$OUT/np2.txt"
}

command -v mpirun > /dev/null || { echo "SKIP: no mpirun in the VM (install openmpi-bin on the host)"; exit 77; }
grep -q 'libmpi\.so' "$(command -v rperf)" || # the VM has no ldd
	{ echo "SKIP: this rperf was built without MPI (cmake -DRPERF_MPI=ON)"; exit 77; }
job_write
check "mpirun -np 3 rperf run --mpi: 3 hosts, all reported" passes 3 np3
check "mpirun -np 4: rank 0 only the controller, all reported" passes 4 np4
check "mpirun -np 2 for 3 hosts: refused naming -np 3 (exit 2)" refused
lab_summary
