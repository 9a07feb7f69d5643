#!/bin/bash
# basic.sh - the lab's main suite, one boot with 2 hosts behind the switch:
#   rxe-lab run --hosts 2 tests/lab/suites/basic.sh [rperf-devices=N]
# rperf-devices=N: require `rperf info --json` to list >= N devices (default 2).
# Ends with "N passed, M failed"; status 0 only if nothing failed.
# (lab-lib.sh is loaded by rxe-lab; sourcing it again is harmless)
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
RPERF_DEVICES=2 # rperf info lists rxe_h1 and rxe_h2 (rperf-devices=0 turns it off)
for a in "$@"; do case $a in rperf-devices=*) RPERF_DEVICES=${a#*=} ;; esac; done
T=90   # per-tool timeout, seconds

devices() {
	local d i
	rdma link show
	d=$(rdma link show | grep -c 'state ACTIVE')
	ibv_devices
	for i in 1 2; do
		echo "INFO rxe_h$i RoCE v2 GID index for 10.77.0.$i: $(lab_host_gid h$i)"
		lab_host_gid h$i > /dev/null || { echo "GOT no RoCE v2 GID on rxe_h$i"; return 1; }
	done
	lab_expect_ge "ACTIVE rxe ports (rxe_h1, rxe_h2)" "$d" 2
}

send_lat() {  # send_lat LABEL N: ib_send_lat h2 -> h1; sets LAT (a RESULT string)
	lab_pair 1 2 "$T" ib_send_lat -F -n "$2" || return 1
	LAT=$(lab_lat_result) || { echo "GOT no latency table in the client output"; return 1; }
	lab_result "ib_send_lat $1 $LAT"
}

# perftest's own clock fit can fail on a loaded machine ("Correlation
# coefficient r^2 < 0.9") and print 0.00 MB/s although the transfer worked:
# a third-party hiccup, so up to three attempts, each one printed.
send_bw() {
	local r a
	for a in 1 2 3; do
		r=
		if lab_pair 1 2 "$T" ib_send_bw -F -n 200 -s 65536; then
			r=$(lab_bw_result) || echo "NOTE attempt $a: no bandwidth table in ib_send_bw's output"
		else
			echo "NOTE attempt $a: ib_send_bw failed"
		fi
		lab_result "ib_send_bw attempt=$a $r"
		[ -n "$r" ] && awk -v b="$(lab_field "$r" bw_avg_MBps)" 'BEGIN { exit !(b >= 0.1) }' && break
		[ "$a" -lt 3 ] && echo "NOTE ib_send_bw attempt $a unusable (perftest's clock fit or its connection); retrying"
	done
	[ -n "$r" ] || { echo "GOT no usable ib_send_bw run in 3 attempts"; return 1; }
	lab_expect_ge "ib_send_bw MB/s" "$(lab_field "$r" bw_avg_MBps)" 0.1
}

send_lat_ev() {  # send_lat_ev LABEL N: like send_lat, completion events on both sides
	lab_pair 1 2 "$T" ib_send_lat -F -e -n "$2" || return 1
	LAT=$(lab_lat_result) || { echo "GOT no latency table in the client output"; return 1; }
	lab_result "ib_send_lat-events $1 $LAT"
}
# netem 2 ms on both switch ports: every packet waits 2 ms once on its way,
# so the half round trip that ib_send_lat reports grows by 2 ms. Measured
# with completion events (-e): with both ends busy-polling, the 2 vCPUs are
# saturated and the delayed packets wait for a scheduler tick (+4 ms seen
# instead of +2). The check is on the MINIMUM's increase: the injected delay
# shows in every sample, while a slow host (a busy CI machine, a noisy
# neighbour) only adds to the typical value (+4 ms typical with +2.4 ms
# minimum seen in CI). The baseline is taken in the same boot, right before. TCG
# makes netem overshoot (+2.1..2.8 ms). A busy host can still disturb one
# attempt, so there are three; all are printed.
netem_once() {
	local base delayed rc
	send_lat_ev base 300 > /tmp/base.log 2>&1 || { cat /tmp/base.log; return 2; }
	base=$LAT
	lab_delay h1 2ms && lab_delay h2 2ms || return 2
	send_lat_ev "netem-2ms" 200 > /tmp/delayed.log 2>&1
	rc=$?
	lab_delay_clear h1
	lab_delay_clear h2
	[ "$rc" = 0 ] || { cat /tmp/delayed.log; return 2; }
	delayed=$LAT
	local inc_typ
	inc_typ=$(awk -v a="$(lab_field "$base" t_typical_us)" -v b="$(lab_field "$delayed" t_typical_us)" 'BEGIN { printf "%.3f", (b - a) / 1000 }')
	INC=$(awk -v a="$(lab_field "$base" t_min_us)" -v b="$(lab_field "$delayed" t_min_us)" 'BEGIN { printf "%.3f", (b - a) / 1000 }')
	lab_result "netem attempt=$1 base_typical_us=$(lab_field "$base" t_typical_us) delayed_typical_us=$(lab_field "$delayed" t_typical_us) increase_typical_ms=$inc_typ increase_min_ms=$INC expected_ms=2.000"
	awk -v g="$INC" 'BEGIN { exit !(g >= 1.8 && g <= 3.2) }'
}
# perftest itself can fail on a loaded machine (its clock fit: "Correlation
# coefficient r^2 < 0.9"): such an attempt is retried too, and said so.
netem_delay() {
	local a rc
	for a in 1 2 3; do
		netem_once "$a"
		rc=$?
		[ "$rc" = 0 ] && break
		[ "$rc" = 2 ] && echo "NOTE attempt $a: ib_send_lat itself failed (perftest); retrying"
	done
	lab_expect_range "ib_send_lat minimum increase (ms) with 2 ms netem on h1-sw and h2-sw" "$INC" 1.8 3.2
}

# the GRH traffic class is the IPv4 TOS byte on the wire; a strict-priority
# lane on the switch port towards h1 takes it, everything else the FIFO band
tclass_lane() {
	local caps b1 b2 a1 a2
	lab_prio h1 96 || return 1
	b1=$(lab_band_pkts h1 1) b2=$(lab_band_pkts h1 2)
	lab_capture_start h1 || return 1
	lab_pair 1 2 "$T" ib_send_lat -F -n 100 --tclass=96 > /tmp/tc96.log 2>&1 || { cat /tmp/tc96.log; lab_capture_stop; return 1; }
	caps=$(lab_capture_stop)
	a1=$(lab_band_pkts h1 1) a2=$(lab_band_pkts h1 2)
	echo "INFO TOS of RoCEv2 packets on h1: $(echo "$caps" | tr '\n' ';')"
	echo "INFO lane band packets +$((a1 - b1)), FIFO band packets +$((a2 - b2))"
	lab_result "tclass=96 tos_on_wire=$(echo "$caps" | awk '{ printf "%s%s:%s", s, $3, $1; s = "," }') lane_pkts=$((a1 - b1)) fifo_pkts=$((a2 - b2))"
	local n60 nother
	n60=$(echo "$caps" | awk '$3 == "0x60" { print $1 }')
	nother=$(echo "$caps" | awk '$3 != "0x60" { s += $1 } END { print s + 0 }')
	lab_expect_ge "packets with TOS 0x60 on h1" "${n60:-0}" 100 &&
		lab_expect_range "packets with another TOS" "$nother" 0 0 &&
		lab_expect_ge "lane (band 1) packets on h1-sw" "$((a1 - b1))" 100 &&
		lab_expect_range "FIFO (band 2) packets on h1-sw" "$((a2 - b2))" 0 0
}
default_fifo_band() {
	local b1 b2 a1 a2
	b1=$(lab_band_pkts h1 1) b2=$(lab_band_pkts h1 2)
	lab_pair 1 2 "$T" ib_send_lat -F -n 100 > /tmp/tc0.log 2>&1 || { cat /tmp/tc0.log; return 1; }
	a1=$(lab_band_pkts h1 1) a2=$(lab_band_pkts h1 2)
	lab_prio_stats h1
	lab_port_reset h1
	lab_result "tclass=0 lane_pkts=$((a1 - b1)) fifo_pkts=$((a2 - b2))"
	lab_expect_ge "FIFO (band 2) packets on h1-sw" "$((a2 - b2))" 100 &&
		lab_expect_range "lane (band 1) packets on h1-sw" "$((a1 - b1))" 0 0
}

rperf_info() {
	local n
	if [ ! -x /usr/bin/rperf ]; then
		echo "SKIP no rperf binary in this boot (build target rperf_bin in the --build folder)"
		return 77
	fi
	rperf info --json > /tmp/info.json 2> /tmp/info.err
	local rc=$?
	cat /tmp/info.json /tmp/info.err
	echo "EXPECT status 0 and a JSON object with schema_version"
	echo "GOT status $rc, $(head -c 200 /tmp/info.json | tr '\n' ' ')"
	[ "$rc" = 0 ] && jq -e 'has("schema_version")' /tmp/info.json > /dev/null || return 1
	n=$(jq '[.devices[]?] | length' /tmp/info.json 2> /dev/null)
	echo "INFO rperf info --json lists ${n:-0} device(s): $(jq -r '[.devices[]? | (.name // .)] | join(" ")' /tmp/info.json 2> /dev/null)"
	[ "$RPERF_DEVICES" -gt 0 ] || return 0
	lab_expect_ge "devices listed by rperf info --json" "${n:-0}" "$RPERF_DEVICES"
}

check "devices rxe_h1, rxe_h2 ACTIVE with RoCE v2 GIDs"          devices
check "ibv_rc_pingpong h2->h1 crosses the bridge (counters)"      lab_assert_crossed 1000 lab_pair 1 2 "$T" ibv_rc_pingpong -n 200
check "perftest ib_send_lat h2->h1 through the switch"           send_lat switch 500
check "perftest ib_send_bw h2->h1 64 KiB"                         send_bw
check "netem 2 ms on the switch raises ib_send_lat by 2 ms"       netem_delay
check "tclass 96 -> TOS 0x60 on the wire, in the priority lane"   tclass_lane
check "tclass 0 -> FIFO band, not the lane"                       default_fifo_band
check "rperf info --json runs, valid JSON with schema_version"    rperf_info
lab_summary
