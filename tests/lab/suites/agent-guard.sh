#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# agent-guard.sh - what a plan may make an `rperf agent` do (issue 19):
#   rxe-lab run --hosts 4 tests/lab/suites/agent-guard.sh
# Agents with the lab key (TLS-PSK, $LAB_KEY) on h1..h4; h2's restarted
# --insecure for the hand-made controller, which speaks the plain channel
# (an authenticated controller that is hostile: the agent's own check is
# the same on either channel).
#  - a job whose host h1 runs on h4's device (its endpoints carry h4's GID,
#    not h1's address): the controller relays nothing (exit 3, "not
#    relayed") and h4's switch port sees no packet;
#  - a hand-made controller (bash, /dev/tcp: no rperf run checks in the
#    way; h2's agent --insecure for it, then with the key again) hands
#    h2's agent a CONNECT whose endpoint is h4's GID: the agent
#    answers ERROR naming the third party, connects nothing, h4's switch
#    port sees no packet, and the agent serves the next run;
#  - the issue's [bsg big] size = 1G job h2 -> h1 is refused before
#    anything is created: exit 3, the limit and the figure named (--max-
#    memory, "would pin"), both agents alive and their peak RSS (VmHWM)
#    far below 1 GiB; the previous results file is left byte-identical and
#    the aborted report goes to FILE.aborted.json; the agents serve the
#    next run.
# Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
export LC_ALL=C
OUT=${LAB_OUT:-/tmp}
T=60

agent_pid() { cat "/tmp/agent-h$1.pid"; }
# alive PID: running, not a zombie (an OOM-killed agent stays one until
# this script reaps it, and kill -0 succeeds on a zombie)
alive() { [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }
agent_logs() {
	local i
	for i in 1 2 3 4; do
		[ -s "/tmp/agent-h$i.log" ] && echo "INFO agent h$i log: $(tail -n 4 "/tmp/agent-h$i.log" | tr '\n' '|')"
	done
	return 0
}
# host_sect I [DEVICE_HOST]: [host hI] on its own device (or on hJ's)
host_sect() {
	local d=${2:-$1}
	printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
		"$1" "$1" "$d" "$(lab_host_gid "h$d")"
}
# h4's switch port: packets both ways
h4_pkts() { echo $(($(lab_port_rx h4) + $(lab_port_tx h4))); }

setup() {
	lab_agents_start 4 || return 1
	echo "INFO $(grep -h 'limits per PLAN' /tmp/agent-h1.log | head -1)"
	echo "INFO MemAvailable: $(awk '/^MemAvailable/ { print $2 " " $3 }' /proc/meminfo)"
}

# ------------------------------------------------ 3. the 1 GiB plan
PREV=$OUT/guard-results.json
big_refused() {
	local job=$OUT/guard-big.ini rc h1 h2 p1 p2
	{
		printf '[global]\nduration = 2s\nwarmup = 0s\ntimeout = 5s\n'
		host_sect 1
		host_sect 2
		printf '[bsg big]\nfrom = h2\nto = h1\nsize = 1G\ncompletion = event\n'
	} > "$job"
	printf '{"previous": "results", "kept": true}\n' > "$PREV"
	cp "$PREV" /tmp/guard-prev.copy
	rm -f "${PREV%.json}.aborted.json"
	p1=$(agent_pid 1) p2=$(agent_pid 2)
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$PREV" > /tmp/big.out 2> /tmp/big.err
	rc=$?
	sed 's/^/  [err] /' /tmp/big.err
	h1=$(hwm_kb "$p1") h2=$(hwm_kb "$p2")
	lab_result "big_plan status=$rc agent_h1_hwm_kb=$h1 agent_h2_hwm_kb=$h2"
	echo "EXPECT exit 3; stderr names 'would pin' and '--max-memory'; agents h1, h2 alive with VmHWM < 128 MiB"
	echo "GOT exit $rc; agents alive: h1 $(alive "$p1" && echo yes || echo NO), h2 $(alive "$p2" && echo yes || echo NO); VmHWM h1 ${h1:-?} kB, h2 ${h2:-?} kB; kernel: $(dmesg | grep -c -i 'out of memory') OOM kill(s)"
	[ "$rc" = 3 ] && grep -q "would pin .*--max-memory" /tmp/big.err &&
		alive "$p1" && alive "$p2" && [ "${h1:-999999}" -lt 131072 ] && [ "${h2:-999999}" -lt 131072 ] ||
		{ agent_logs; return 1; }
}
big_kept() {
	local ab=${PREV%.json}.aborted.json
	echo "EXPECT $PREV byte-identical to before the run; the aborted report in $ab (aborted: true)"
	echo "GOT $(cmp -s "$PREV" /tmp/guard-prev.copy && echo identical || echo CHANGED: "$(head -c 200 "$PREV")"); $ab: $(jq -c '{aborted, abort_reason}' "$ab" 2> /dev/null | head -c 300)"
	cmp -s "$PREV" /tmp/guard-prev.copy && jq -e '.aborted == true' "$ab" > /dev/null
}
# after the refusal both agents serve a normal run
big_then_normal() {
	local job=$OUT/guard-normal.ini rc
	{
		printf '[global]\nduration = 1s\nwarmup = 0s\ntimeout = 5s\n'
		host_sect 1
		host_sect 2
		printf '[bsg small]\nfrom = h2\nto = h1\nsize = 4K\nrate = 20M\ncompletion = event\n'
	} > "$job"
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$OUT/guard-normal.json" > /tmp/normal.out 2>&1
	rc=$?
	echo "EXPECT exit 0 and Gb/s > 0"
	echo "GOT exit $rc, $(jq -c '[.generators[] | {name, gbps}]' "$OUT/guard-normal.json" 2> /dev/null)"
	[ "$rc" = 0 ] && jq -e '.generators[0].gbps > 0' "$OUT/guard-normal.json" > /dev/null || { sed 's/^/  [run] /' /tmp/normal.out; agent_logs; return 1; }
}

# ------------------------------------------------ 1. controller: not relayed
h1_on_h4() {
	local job=$OUT/guard-third.ini rc a b
	{
		printf '[global]\nduration = 2s\nwarmup = 0s\ntimeout = 5s\n'
		host_sect 1 4 # host h1's agent on h4's device: h4's GID
		host_sect 2
		printf '[bsg load]\nfrom = h2\nto = h1\nsize = 4K\nrate = 20M\ncompletion = event\n'
	} > "$job"
	a=$(h4_pkts)
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" > /tmp/third.out 2> /tmp/third.err
	rc=$?
	sleep 1
	b=$(h4_pkts)
	sed 's/^/  [err] /' /tmp/third.err
	lab_result "controller_third_party status=$rc h4_port_packets=$((b - a))"
	echo "EXPECT exit 3, 'not relayed' naming 10.77.0.4, no packet on h4's switch port"
	echo "GOT exit $rc, $((b - a)) packets on h4-sw"
	[ "$rc" = 3 ] && grep -q "10.77.0.4, not this agent's address 10.77.0.1: not relayed" /tmp/third.err && [ $((b - a)) = 0 ]
}

# ------------------------------------------------ 2. agent: a third party
# frame TYPE JSON: one control frame (header: "RPFR", version 1, type, length)
frame() {
	local t=$1 n=${#2}
	printf 'RPFR\x00\x01'
	printf "\\x$(printf %02x $((t >> 8)))\\x$(printf %02x $((t & 255)))"
	printf "\\x$(printf %02x $(((n >> 24) & 255)))\\x$(printf %02x $(((n >> 16) & 255)))\\x$(printf %02x $(((n >> 8) & 255)))\\x$(printf %02x $((n & 255)))"
	printf '%s' "$2"
}
# recv: the next frame on fd 3 into RTYPE, RJSON (10 s at most per read)
recv() {
	local h n
	h=$(timeout 10 dd bs=1 count=12 <&3 2> /dev/null | od -An -tu1)
	# shellcheck disable=SC2086 # the 12 bytes, split on purpose
	set -- $h
	[ $# = 12 ] || { RTYPE=0 RJSON=''; return 1; }
	RTYPE=$(($7 * 256 + $8))
	n=$((($9 << 24) + (${10} << 16) + (${11} << 8) + ${12}))
	RJSON=$(timeout 10 dd bs=1 count="$n" <&3 2> /dev/null)
}
# The PLAN of a BSG h2 -> h1 (rperf_gen_spec_encode's keys) with both
# hosts' true addresses.
PLAN='{"experiment":"guard","host":"h2","device":{"cpu":-1,"cpu_node":-1,"device":"rxe_h2","gid_index":GIDX,"mem_node":-1,"port":1},"sources":[{"completion":"event","cpu_node":-1,"cq_mod":100,"duration_ns":3000000000,"from":"h2","id":0,"kind":"bsg","mem_node":-1,"mtu":0,"name":"load","pair_order":"alternate","post_list":1,"qp_timeout":14,"qps":1,"rate_bps":20000000.0,"retry_count":7,"sink_completion":"event","size":4096,"sl":0,"start_ns":0,"tclass":0,"to":"h1","tx_depth":16,"verb":"send","warmup_ns":0}],"sinks":[],"hosts":[{"name":"h2","addr":"10.77.0.2"},{"name":"h1","addr":"10.77.0.1"}]}'
H4_GID=00000000000000000000ffff0a4d0004 # ::ffff:10.77.0.4
FAKE_GOT=''
fake_controller() {
	local eps peer a b
	exec 3<> /dev/tcp/10.77.0.2/18521 || return 1
	frame 1 '{"version":1,"command":"run","features":[]}' >&3
	recv && [ "$RTYPE" = 2 ] || { echo "GOT no WELCOME (type $RTYPE: $RJSON)"; return 1; }
	frame 13 "${PLAN/GIDX/$(lab_host_gid h2)}" >&3
	recv && [ "$RTYPE" = 14 ] || { echo "GOT no ENDPOINTS (type $RTYPE: $RJSON)"; return 1; }
	eps=$RJSON
	echo "INFO h2's ENDPOINTS: $eps"
	# h2's source gets a "sink" at h4's GID (the QP number of its own,
	# so an old agent connects it and sends)
	peer=$(jq -c --arg g "$H4_GID" '{peers: [.instances[0] | .qps |= map(.gid = $g)]}' <<< "$eps")
	a=$(h4_pkts)
	frame 15 "$peer" >&3
	recv
	FAKE_GOT="type $RTYPE: $RJSON"
	if [ "$RTYPE" = 16 ]; then # ARMED: an agent without the check
		frame 17 '{"start_in_ns":100000000}' >&3
		sleep 4
	fi
	exec 3>&-
	sleep 1
	b=$(h4_pkts)
	FAKE_PKTS=$((b - a))
}
# agent_restart I ARGS...: hI's agent again, with ARGS
agent_restart() {
	local i=$1 k
	shift
	lab_agent_stop "$i"
	rperf agent --bind "10.77.0.$i" "$@" > "/tmp/agent-h$i.log" 2>&1 &
	echo $! > "/tmp/agent-h$i.pid"
	for ((k = 0; k < 100; k++)); do
		[ -n "$(ss -Hltn "src 10.77.0.$i:18521")" ] && return 0
		sleep 0.1
	done
	return 1
}
agent_third_party() {
	local pid rc
	agent_restart 2 --insecure || return 1
	pid=$(agent_pid 2)
	fake_controller || { agent_logs; agent_restart 2 --key-file "$LAB_KEY"; return 1; }
	lab_result "agent_third_party answer=$(printf '%s' "$FAKE_GOT" | tr ' ' '_' | head -c 200) h4_port_packets=$FAKE_PKTS"
	echo "EXPECT ERROR (type 11) naming 10.77.0.4 and host h1's address 10.77.0.1; no packet on h4's switch port; the agent alive"
	echo "GOT $FAKE_GOT; $FAKE_PKTS packets on h4-sw; agent $(alive "$pid" && echo alive || echo DEAD)"
	grep -h "third party" /tmp/agent-h2.log | tail -1 | sed 's/^/  [agent h2] /'
	[[ $FAKE_GOT == "type 11:"*"10.77.0.4"*"host h1 (10.77.0.1)"* ]] && [ "$FAKE_PKTS" = 0 ] && alive "$pid"
	rc=$?
	agent_restart 2 --key-file "$LAB_KEY" || return 1
	return "$rc"
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "4 agents listening"                                          setup
check "h1 on h4's device: controller relays nothing, h4 silent"     h1_on_h4
check "CONNECT to h4's GID: agent refuses, h4 silent"               agent_third_party
check "... then a normal run on the same agents"                   big_then_normal
check "[bsg big] size = 1G: refused, limit named, agents alive"     big_refused
check "... the previous results file byte-identical"               big_kept
check "... then a normal run on the same agents"                   big_then_normal
lab_agents_stop
lab_summary
