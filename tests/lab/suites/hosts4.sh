#!/bin/bash
# hosts4.sh - 4 hosts up at once behind one switch:
#   rxe-lab run --hosts 4 tests/lab/suites/hosts4.sh
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
T=90

devices4() {
	local d i g
	rdma link show
	d=$(rdma link show | grep -c 'state ACTIVE')
	for i in 1 2 3 4; do
		g=$(lab_host_gid h$i) || { echo "GOT no RoCE v2 GID on rxe_h$i"; return 1; }
		echo "INFO rxe_h$i 10.77.0.$i GID index $g"
	done
	lab_expect_ge "ACTIVE rxe ports (rxe_h1..rxe_h4)" "$d" 4
}
# h4 -> h3: crosses the switch on ports h3-sw and h4-sw only
pingpong_34() {
	local before after
	before=$(lab_counters)
	lab_assert_crossed 1000 lab_pair 3 4 "$T" ibv_rc_pingpong -n 200 || return 1
	after=$(lab_counters)
	printf '%s\n%s\n' "$before" "$after" | awk '
		{ if ($1 in rx) d[$1] = ($2 - rx[$1]) + ($3 - tx[$1]); else { rx[$1] = $2; tx[$1] = $3 } }
		END { printf "INFO port packets (rx+tx):"; for (p in d) printf " %s+%d", p, d[p]; print "";
		      printf "EXPECT h3-sw, h4-sw >= 1000 packets; h1-sw, h2-sw <= 5\n";
		      printf "GOT h1-sw %d, h2-sw %d, h3-sw %d, h4-sw %d\n", d["h1-sw"], d["h2-sw"], d["h3-sw"], d["h4-sw"];
		      exit !(d["h3-sw"] >= 1000 && d["h4-sw"] >= 1000 && d["h1-sw"] <= 5 && d["h2-sw"] <= 5) }'
}
lat_14() {
	lab_pair 4 1 "$T" ib_send_lat -F -n 300 || return 1
	lab_result "hosts4 ib_send_lat h1->h4 $(lab_lat_result)"
}

check "4 devices rxe_h1..rxe_h4 ACTIVE with RoCE v2 GIDs"       devices4
check "ibv_rc_pingpong h4->h3 crosses ports h3-sw/h4-sw only"  pingpong_34
check "perftest ib_send_lat h1->h4 through the switch"         lat_14
lab_summary
