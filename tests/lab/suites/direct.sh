#!/bin/bash
# direct.sh - the back-to-back baseline: h1 and h2 on one veth pair, no switch:
#   rxe-lab run --direct tests/lab/suites/direct.sh
# The RTT through the switch beside the direct one (their difference is the
# bridge's share); the two need separate boots
# (`rxe-lab demo` does both and prints the difference).
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
T=90

devices() {
	rdma link show
	lab_expect_ge "ACTIVE rxe ports" "$(rdma link show | grep -c 'state ACTIVE')" 2 &&
		lab_host_gid h1 && lab_host_gid h2
}
no_switch() {
	local err
	err=$(lab_delay h1 1ms 2>&1)
	local rc=$?
	echo "EXPECT lab_delay to fail with a message about --direct; no namespace sw"
	echo "GOT status $rc: $err"
	[ "$rc" != 0 ] && [[ $err == *direct* ]] && [ ! -e /run/netns/sw ]
}
lat() {
	lab_pair 1 2 "$T" ib_send_lat -F -n 500 || return 1
	lab_result "direct ib_send_lat $(lab_lat_result)"
}
bw() {
	lab_pair 1 2 "$T" ib_send_bw -F -n 200 -s 65536 || return 1
	lab_result "direct ib_send_bw $(lab_bw_result)"
}

check "devices rxe_h1, rxe_h2 on one veth pair"                devices
check "no switch: switch helpers fail clearly"                 no_switch
check "ibv_rc_pingpong h2->h1 crosses the veth pair"           lab_assert_crossed 1000 lab_pair 1 2 "$T" ibv_rc_pingpong -n 200
check "perftest ib_send_lat h2->h1 direct"                     lat
check "perftest ib_send_bw h2->h1 direct 64 KiB"               bw
lab_summary
