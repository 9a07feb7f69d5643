#!/bin/bash
# place.sh - placement, preflight and VL checks (issue 12), one boot with 2
# hosts behind the switch:
#   rxe-lab run --hosts 2 tests/lab/suites/place.sh
# Ends with "N passed, M failed"; status 0 only if nothing failed.
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
T=120 # per-run timeout, seconds

need_rperf() {
	[ -x /usr/bin/rperf ] && return 0
	echo "SKIP no rperf binary in this boot (build target rperf_bin in the --build folder)"
	return 77
}

# rperf info --json: both rxe devices with NUMA node -1 (Soft-RoCE has no
# PCI device), the new device keys, and a preflight array in which the
# emulated machine (no constant_tsc/nonstop_tsc, clocksource hpet) fails
# the invariant-TSC check with its reason.
info_json() {
	need_rperf || return 77
	rperf info --json --spin 20ms > /tmp/info.json 2> /tmp/info.err || { cat /tmp/info.err; return 1; }
	jq -c '[.devices[] | {name, numa_node, pcie, irq_cpus, fw_ver}]' /tmp/info.json
	jq -c '.preflight[]' /tmp/info.json
	local n nn tsc why
	n=$(jq '[.devices[] | select(.name | test("^rxe_h[12]$"))] | length' /tmp/info.json)
	nn=$(jq '[.devices[] | select(.numa_node == -1 and has("pcie") and has("irq_cpus"))] | length' /tmp/info.json)
	tsc=$(jq -r '.preflight[] | select(.check == "invariant_tsc") | .ok' /tmp/info.json)
	why=$(jq -r '.preflight[] | select(.check == "invariant_tsc") | .detail' /tmp/info.json)
	lab_expect_ge "rxe devices listed" "$n" 2 &&
		lab_expect_ge "devices with numa_node -1, pcie and irq_cpus keys" "$nn" 2 &&
		lab_expect_range "preflight checks" "$(jq '.preflight | length' /tmp/info.json)" 7 12 || return 1
	echo "EXPECT invariant_tsc ok=false with its reason (constant_tsc / clocksource)"
	echo "GOT invariant_tsc ok=$tsc: $why"
	[ "$tsc" = false ] && [[ $why == *constant_tsc* ]] && [[ $why == *clocksource* ]]
}

# rperf info (text): a preflight section and the VL line of an Ethernet port.
info_text() {
	need_rperf || return 77
	rperf info --spin 20ms > /tmp/info.txt 2>&1 || { cat /tmp/info.txt; return 1; }
	sed -n '/^devices/,$p' /tmp/info.txt
	grep -q '^preflight' /tmp/info.txt && grep -q 'invariant_tsc: WARN' /tmp/info.txt &&
		grep -q 'numa node -1: unknown/no NUMA' /tmp/info.txt && grep -q 'RoCE classes traffic with --tclass' /tmp/info.txt
}

# rperf lat with --mem-node 0 --cpu-node 0 succeeds and reports the placement
# (text and JSON); the preflight warnings come once, on stderr.
lat_placed() {
	need_rperf || return 77
	timeout $T rperf lat -d rxe_h1 > /tmp/srv.log 2>&1 &
	timeout $T rperf lat -d rxe_h2 -n 500 --warmup 50 --mem-node 0 --cpu-node 0 \
		--out_json_file /tmp/lat.json 10.77.0.1 > /tmp/lat.out 2> /tmp/lat.err
	local rc=$?
	wait
	cat /tmp/lat.err; grep -E 'placement|buffers|preflight' /tmp/lat.out
	jq -c '.placement' /tmp/lat.json
	echo "EXPECT status 0; placement cpu_node 0 (--cpu-node), mem_node 0 (--mem-node), nic_node null"
	echo "GOT status $rc"
	[ "$rc" = 0 ] || { cat /tmp/lat.out /tmp/srv.log; return 1; }
	jq -e '.placement.cpu_node == 0 and .placement.mem_node == 0 and .placement.nic_node == null
		and .placement.cpu_source == "--cpu-node" and .placement.mem_source == "--mem-node"
		and .placement.remote == false and (.preflight | length) >= 7
		and ([.preflight[] | select(.check == "invariant_tsc" and .ok == false)] | length) == 1' \
		/tmp/lat.json > /dev/null || return 1
	grep -q 'placement    : cpu node 0 (--cpu-node), memory node 0 (--mem-node), NIC node unknown' /tmp/lat.out &&
		[ "$(grep -c 'preflight invariant_tsc' /tmp/lat.err)" = 1 ]
}

# a node that does not exist: a usage error naming the accepted range
bad_node() {
	need_rperf || return 77
	rperf lat -d rxe_h2 --cpu-node 5 10.77.0.1 > /tmp/bad.out 2> /tmp/bad.err
	local rc=$?
	cat /tmp/bad.err
	echo "EXPECT status 2, '--cpu-node: node 5 does not exist'"
	echo "GOT status $rc"
	[ "$rc" = 2 ] && grep -q -- '--cpu-node: node 5 does not exist' /tmp/bad.err
}

# --use_hugepages with no huge pages reserved: the run goes on with normal
# pages and says so (warning and placement.buffers_note)
hugepages_fallback() {
	need_rperf || return 77
	echo "INFO nr_hugepages=$(cat /proc/sys/vm/nr_hugepages 2> /dev/null)"
	timeout $T rperf lat -d rxe_h1 > /tmp/srv.log 2>&1 &
	timeout $T rperf lat -d rxe_h2 -n 200 --warmup 20 --use_hugepages \
		--out_json_file /tmp/huge.json 10.77.0.1 > /tmp/huge.out 2>&1
	local rc=$?
	wait
	jq -c '.placement' /tmp/huge.json
	echo "EXPECT status 0, hugepages 2M with a fallback note"
	echo "GOT status $rc"
	[ "$rc" = 0 ] && jq -e '.placement.hugepages == "2M" and (.placement.buffers_note | test("huge pages"))
		and ([.warnings[] | select(test("huge pages"))] | length) == 1' /tmp/huge.json > /dev/null
}

# --vl on RoCE: refused, naming the alternative
vl_roce() {
	need_rperf || return 77
	rperf lat -d rxe_h2 --vl 1 10.77.0.1 > /tmp/vl.out 2> /tmp/vl.err
	local rc=$?
	cat /tmp/vl.err
	echo "EXPECT status 2, one line naming --tclass"
	echo "GOT status $rc"
	[ "$rc" = 2 ] && grep -q -- '--tclass' /tmp/vl.err && [ "$(wc -l < /tmp/vl.err)" = 1 ]
}

check "rperf info --json: rxe devices (node -1), preflight fails invariant_tsc" info_json
check "rperf info text: preflight section, node -1, VL line"                    info_text
check "rperf lat --mem-node 0 --cpu-node 0 runs and reports the placement"      lat_placed
check "rperf lat --cpu-node 5: usage error"                                     bad_node
check "rperf lat --use_hugepages without huge pages: fallback + warning"        hugepages_fallback
check "rperf lat --vl on RoCE: refused, names --tclass"                         vl_roce
lab_summary
