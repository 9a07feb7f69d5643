#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-lat.sh - what `rperf run`'s LSG shares with `rperf lat`, h2 -> h1
# across the switch, one boot, 2 hosts:
#   rxe-lab run --hosts 2 tests/lab/suites/run-lat.sh
#  - timestamps (auto, the default): Soft-RoCE has no completion
#    timestamps, so CPU stamps, and the note rperf lat prints says why (in
#    the text and in JSON timestamps_note), not a silent fall-back;
#  - timestamps = cpu: CPU stamps, no note; timestamps = nic: the instance
#    fails with lat's words, exit 3;
#  - iters = 2000 in a 20 s window: exactly 2000 samples, the run ends
#    long before the window; iters = 10^8 in a 1 s window: the window
#    ends it, the instance's error says how many were taken;
#  - two hosts on one device (a second agent on h1 with the same rxe_h1):
#    the LSG source refuses the sink's QP on its own device and port, as
#    rperf lat's client does, exit 3.
# The LSG busy-polls (tests/lab/README.md: only a latency client may);
# its sink sleeps on events. Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=60

host_ini() { # host_ini NAME CONTROL DEVICE-HOST: a [host] on rxe_hDEVICE-HOST
	printf '[host %s]\ncontrol = %s\ndevice = rxe_h%s\ngid_index = %s\n' \
		"$1" "$2" "$3" "$(lab_host_gid "h$3")"
}
# job NAME DURATION LSG-KEYS: $OUT/NAME.ini, one LSG h2 -> h1
job() {
	{
		printf '[global]\nduration = %s\nwarmup = 0.2s\n' "$2"
		host_ini h1 10.77.0.1 1
		host_ini h2 10.77.0.2 2
		printf '[lsg %s]\nfrom = h2\nto = h1\nqp_timeout = 18\n%s' "$1" "$3"
	} > "$OUT/$1.ini"
}
# run_job NAME: rperf run -> $OUT/NAME.json, its text in /tmp/NAME.out; RC
run_job() {
	timeout "$T" rperf run --key-file "$LAB_KEY" --out_json_file "$OUT/$1.json" \
		"$OUT/$1.ini" > "/tmp/$1.out" 2> "/tmp/$1.err"
	RC=$?
	sed 's/^/  [out] /' "/tmp/$1.out" | tail -n 30
	sed 's/^/  [err] /' "/tmp/$1.err"
	echo "  -> rperf run $1: status $RC"
}
# gen NAME FIELD: the first generator's FIELD in $OUT/NAME.json
gen() { jq -r ".generators[0].$2" "$OUT/$1.json"; }

setup() { lab_agents_start 2; }

stamps_auto() {
	local ts note n
	job auto 2s ''
	run_job auto
	ts=$(gen auto timestamps) note=$(gen auto timestamps_note) n=$(gen auto samples)
	lab_result "auto status=$RC samples=$n timestamps=$ts note='$note'"
	echo "EXPECT status 0, samples > 0, timestamps cpu, a timestamps_note naming rxe_h2, the note in the text"
	echo "GOT status $RC, samples $n, timestamps $ts, note '$note'"
	[ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$ts" = cpu ] &&
		[ "$note" != null ] && [[ $note == *rxe_h2* ]] &&
		grep -q "h2: auto: note: .*: CPU completion stamps (timestamps auto)" "/tmp/auto.out"
}

stamps_cpu() {
	local ts note n
	job cpu 2s $'timestamps = cpu\n'
	run_job cpu
	ts=$(gen cpu timestamps) note=$(gen cpu timestamps_note) n=$(gen cpu samples)
	lab_result "cpu status=$RC samples=$n timestamps=$ts note=$note"
	echo "EXPECT status 0, samples > 0, timestamps cpu, timestamps_note null, no note in the text"
	echo "GOT status $RC, samples $n, timestamps $ts, note $note"
	[ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$ts" = cpu ] && [ "$note" = null ] &&
		! grep -q "CPU completion stamps" "/tmp/cpu.out"
}

stamps_nic() {
	job nic 2s $'timestamps = nic\n'
	run_job nic
	lab_result "nic status=$RC"
	echo "EXPECT status 3 and lat's words: 'timestamps nic: ...; accepted: cpu or auto'"
	echo "GOT status $RC, $(grep -ho 'timestamps nic:[^;]*; accepted: cpu or auto' /tmp/nic.out /tmp/nic.err | head -n 1)"
	[ "$RC" = 3 ] && grep -q 'timestamps nic: .*; accepted: cpu or auto' /tmp/nic.out /tmp/nic.err
}

iters_exact() {
	local n s e
	job it 20s $'iters = 2000\n'
	run_job it
	n=$(gen it samples) s=$(gen it seconds) e=$(gen it error)
	lab_result "iters=2000 status=$RC samples=$n seconds=$s error='$e'"
	echo "EXPECT status 0, samples exactly 2000, no error, the measured run well inside the 20 s window (< 15 s)"
	echo "GOT status $RC, samples $n, error '$e', seconds $s"
	[ "$RC" = 0 ] && [ "$n" = 2000 ] && [ -z "$e" ] && lab_expect_range "seconds" "$s" 0 15
}

iters_window() {
	local n e
	job itw 1s $'iters = 100M\n'
	run_job itw
	n=$(gen itw samples) e=$(gen itw error)
	lab_result "iters=100M window=1s status=$RC samples=$n error='$e'"
	echo "EXPECT status 3, 0 < samples < 10^8, the error 'the window (duration) ended after N of iters = 100000000 samples' with N = samples"
	echo "GOT status $RC, samples $n, error '$e'"
	[ "$RC" = 3 ] && [ "$n" -gt 0 ] && [ "$n" -lt 100000000 ] &&
		[ "$e" = "the window (duration) ended after $n of iters = 100000000 samples" ]
}

# a second agent on h1 (port 18522), the same device rxe_h1 for both hosts
same_device() {
	local pid
	rperf agent --bind 10.77.0.1 --port 18522 --key-file "$LAB_KEY" > /tmp/agent-h1b.log 2>&1 &
	pid=$!
	for _ in $(seq 100); do ss -Hltn 'sport = :18522' | grep -q . && break; sleep 0.1; done
	{
		printf '[global]\nduration = 1s\nwarmup = 0.2s\n'
		host_ini a 10.77.0.1 1
		host_ini b 10.77.0.1:18522 1
		printf '[lsg same]\nfrom = a\nto = b\n'
	} > "$OUT/same.ini"
	run_job same
	kill "$pid"
	wait "$pid" 2> /dev/null
	lab_result "same-device status=$RC"
	echo "EXPECT status 3 and the refusal 'answered from this host's own device rxe_h1 port 1: that measures a loopback inside the device'"
	echo "GOT status $RC, $(grep -ho "own device [^:]*: that measures a loopback inside the device" /tmp/same.out /tmp/same.err | head -n 1)"
	[ "$RC" = 3 ] && grep -q "answered from this host's own device rxe_h1 port 1: that measures a loopback inside the device" /tmp/same.out /tmp/same.err "$OUT/same.json"
}

check "rperf agent on h1 and h2"                                   setup
check "timestamps auto: CPU stamps on rxe, with lat's note"         stamps_auto
check "timestamps = cpu: CPU stamps, no note"                       stamps_cpu
check "timestamps = nic on rxe: lat's refusal, exit 3"              stamps_nic
check "iters = 2000: exactly 2000 samples, inside the window"       iters_exact
check "iters = 100M in 1 s: the window ends it, the error says so"  iters_window
check "two hosts on one device: the LSG refuses the loopback"       same_device
lab_agents_stop
lab_summary
