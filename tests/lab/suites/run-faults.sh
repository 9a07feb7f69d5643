#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-faults.sh - `rperf run` / `rperf agent` when things go wrong, one boot:
#   rxe-lab run --hosts 4 tests/lab/suites/run-faults.sh
# h1 is the destination, h2 runs an LSG, h3 and h4 a BSG each.
#  - an agent (h3, a BSG source) killed mid-run: the controller reports the
#    others' results, lists h3 in failed_hosts and exits 3 within 2 x timeout
#    of the kill; a second controller meanwhile is refused as busy; the
#    surviving agents free their QPs and serve the next run;
#  - every agent and controller talk TLS 1.3 authenticated by the lab key
#    ($LAB_KEY) or the suite's own; a controller with the wrong key is
#    refused by TLS (exit 3, the message names the host) and the agents
#    created nothing:
#    the kernel numbers device contexts, PDs, CQs, MRs and QPs in order per
#    device, and a probe program's numbers before and after must be
#    consecutive on every device (the same probe around a run with the right
#    key sees the sinks' QPs, so the check can fail);
#  - issue 19: strangers stalling in the handshake (a plain HELLO sent and
#    held, a partial TLS ClientHello, 64 idle connections) do not delay an
#    authenticated controller by more than 1 s; fake agents without the key
#    (one on the plain channel, one with another key) are refused by the
#    controller and never get a plan; a SIGSTOPped agent is declared failed
#    within 2 x the --heartbeat interval, not at the planned end;
#  - bad job files: exit 2 naming FILE:LINE (unknown host in from/to, a
#    generator to itself, duplicate names, unknown key or section with
#    "did you mean"); an agent that is not running: exit 3 naming it within
#    the job's timeout;
#  - job keys cpu_node = 0, mem_node = 0 (host and generator): the run
#    succeeds and generators[].placement says so.
# Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=60 # timeout(1) around every rperf run, seconds

agent_logs() {
	local i
	for i in 1 2 3 4; do
		[ -s "/tmp/agent-h$i.log" ] && echo "INFO agent h$i log: $(tail -n 5 "/tmp/agent-h$i.log" | tr '\n' '|')"
	done
	return 0
}

# job_hosts [CONTROL4]: the [host] sections of h1..h4 (CONTROL4 replaces h4's)
job_hosts() {
	local i c
	for i in 1 2 3 4; do
		c=10.77.0.$i
		[ "$i" = 4 ] && [ -n "${1:-}" ] && c=$1
		printf '[host h%s]\ncontrol = %s\ndevice = rxe_h%s\ngid_index = %s\n' \
			"$i" "$c" "$i" "$(lab_host_gid "h$i")"
	done
}
# job_write FILE DURATION TIMEOUT [CONTROL4]: LSG h2->h1, BSGs h3,h4 -> h1
job_write() {
	{
		printf '[global]\nduration = %s\nwarmup = 1s\ntimeout = %s\nsink_completion = event\n' "$2" "$3"
		job_hosts "${4:-}"
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\npair_order = sequential\n'
		printf '[bsg load]\nfrom = h3, h4\nto = h1\nsize = 4K\ntx_depth = 16\nrate = 20M\ncompletion = event\n'
	} > "$1"
}
jget() { jq -r "$2" "$1"; }
# qps_on DEV: QPs that exist on DEV now (rdma resource), GSI QP included
qps_on() { rdma resource show qp 2> /dev/null | grep -c "link $1/"; }

# ------------------------------------------------------------ checks
setup() {
	lab_agents_start 4 || return 1
	echo "INFO rperf $(rperf --version 2>&1 | head -1); agents: $(ss -Hltnp 'sport = :18521' | awk '{ print $4 }' | tr '\n' ' ')"
	echo "INFO QPs before any run: rxe_h1 $(qps_on rxe_h1), rxe_h2 $(qps_on rxe_h2), rxe_h3 $(qps_on rxe_h3), rxe_h4 $(qps_on rxe_h4)"
}

# h3_running P0 CPID: the run of CPID is on once h3's BSG crosses the
# switch (>= 200 packets since P0), within 20 s
h3_running() {
	local k p
	for ((k = 0; k < 200; k++)); do
		p=$(lab_port_rx h3)
		[ $((p - $1)) -ge 200 ] && break
		kill -0 "$2" 2> /dev/null || break
		sleep 0.1
	done
	echo "INFO packets from h3 into the switch: $((p - $1)) ($((k / 10)).$((k % 10)) s after start)"
	[ $((p - $1)) -ge 200 ] || { echo "GOT h3's BSG never crossed the switch"; return 1; }
}

Q1=0 Q2=0 Q4=0 # QPs on the survivors' devices before the run
KILL_S='' KJ=$OUT/faults-kill.json BUSY_RC='' BUSY_S=
kill_agent() {
	local job=$OUT/faults-kill.ini cpid p0 rc t
	job_write "$job" 30s 3s
	Q1=$(qps_on rxe_h1) Q2=$(qps_on rxe_h2) Q4=$(qps_on rxe_h4)
	rm -f "$KJ"
	p0=$(lab_port_rx h3)
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$KJ" > /tmp/kill.out 2> /tmp/kill.err &
	cpid=$!
	h3_running "$p0" "$cpid" || { wait "$cpid"; cat /tmp/kill.out /tmp/kill.err; return 1; }
	# meanwhile a second controller: every agent serves one experiment
	{
		printf '[global]\nduration = 1s\ntimeout = 3s\n'
		job_hosts
		printf '[lsg other]\nfrom = h2\nto = h1\n'
	} > "$OUT/faults-busy.ini"
	t=$EPOCHREALTIME
	timeout 20 rperf run --key-file "$LAB_KEY" "$OUT/faults-busy.ini" > /tmp/busy.out 2> /tmp/busy.err
	BUSY_RC=$? BUSY_S=$(lab_since "$t")
	sleep 1.5 # past the 1 s warm-up: the LSG's samples count
	lab_agent_stop 3 KILL
	t=$EPOCHREALTIME
	wait "$cpid"
	rc=$?
	KILL_S=$(lab_since "$t")
	sed 's/^/  [out] /' /tmp/kill.out
	sed 's/^/  [err] /' /tmp/kill.err
	echo "INFO generators: $(jq -c '[.generators[] | {name, kind, host, to, p50: .rtt_ns.p50, gbps, receiver_gbps}]' "$KJ" 2> /dev/null)"
	echo "INFO failed_hosts: $(jq -c .failed_hosts "$KJ" 2> /dev/null)"
	lab_result "run_kill status=$rc seconds_after_kill=$KILL_S timeout_s=3 failed_hosts=$(jq -c .failed_hosts "$KJ" 2> /dev/null)"
	echo "EXPECT exit 3 within 2 x timeout = 6 s of the kill (the job asked for 30 s)"
	echo "GOT exit $rc after $KILL_S s"
	[ "$rc" = 3 ] && awk -v s="$KILL_S" 'BEGIN { exit !(s <= 6.0) }'
}
kill_report() {
	[ -s "$KJ" ] || { echo "GOT no JSON report ($KJ)"; return 1; }
	local p50 g4 r4
	p50=$(jget "$KJ" '[.generators[] | select(.kind == "lsg" and .host == "h2")][0].rtt_ns.p50 // 0')
	g4=$(jget "$KJ" '[.generators[] | select(.kind == "bsg" and .host == "h4")][0].gbps // 0')
	r4=$(jget "$KJ" '[.generators[] | select(.kind == "bsg" and .host == "h4")][0].receiver_gbps // 0')
	echo "EXPECT failed_hosts = [\"h3\"]; LSG h2->h1 p50 > 0; BSG h4->h1 Gb/s sent and received > 0; the report says h3 failed"
	echo "GOT failed_hosts $(jq -c .failed_hosts "$KJ"), LSG p50 $p50 ns, BSG h4 $g4 / $r4 Gb/s, lines on h3: $(cat /tmp/kill.out /tmp/kill.err | grep -i 'h3' | grep -i fail | head -n 2 | tr '\n' ' ')"
	jq -e '.failed_hosts == ["h3"]' "$KJ" > /dev/null &&
		awk -v a="$p50" -v b="$g4" -v c="$r4" 'BEGIN { exit !(a > 0 && b > 0 && c > 0) }' &&
		cat /tmp/kill.out /tmp/kill.err | grep -i h3 | grep -q -i fail
}
# the second controller of kill_agent, while the first one's run was on
busy() {
	[ -n "$BUSY_RC" ] || { echo "GOT no second controller ran"; return 1; }
	lab_result "run_busy status=$BUSY_RC seconds=$BUSY_S"
	echo "EXPECT exit 3 at once (< 3 s), stderr names a host and says busy"
	echo "GOT exit $BUSY_RC after $BUSY_S s: $(head -c 300 /tmp/busy.err | tr '\n' ' ')"
	[ "$BUSY_RC" = 3 ] && grep -q -E 'h[1-4]' /tmp/busy.err && grep -q -i busy /tmp/busy.err &&
		awk -v s="$BUSY_S" 'BEGIN { exit !(s < 3) }'
}
# the survivors freed every QP of the failed run, and serve the next one
kill_survivors() {
	local k a1 a2 a4 job=$OUT/faults-next.ini rc
	for ((k = 0; k < 50; k++)); do
		a1=$(qps_on rxe_h1) a2=$(qps_on rxe_h2) a4=$(qps_on rxe_h4)
		[ "$a1" = "$Q1" ] && [ "$a2" = "$Q2" ] && [ "$a4" = "$Q4" ] && break
		sleep 0.1
	done
	echo "EXPECT QPs on rxe_h1, rxe_h2, rxe_h4 back to $Q1, $Q2, $Q4 within 5 s; then a run without h3 exits 0"
	echo "GOT $a1, $a2, $a4 after $((k / 10)).$((k % 10)) s"
	[ "$a1" = "$Q1" ] && [ "$a2" = "$Q2" ] && [ "$a4" = "$Q4" ] || { rdma resource show qp; agent_logs; return 1; }
	{
		printf '[global]\nduration = 2s\nwarmup = 0.5s\ntimeout = 5s\n'
		job_hosts
		printf '[lsg probe]\nfrom = h2\nto = h1\npair_order = sequential\n[bsg load]\nfrom = h4\nto = h1\nsize = 4K\nrate = 20M\ncompletion = event\n'
	} > "$job"
	sed -i '/^\[host h3\]/,/^gid_index/d' "$job"
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$OUT/faults-next.json" > /tmp/next.out 2>&1
	rc=$?
	sed 's/^/  [run] /' /tmp/next.out
	echo "GOT next run: exit $rc"
	[ "$rc" = 0 ] || { agent_logs; return 1; }
}

# res_probe: the restrack numbers (ctxn pdn cqn mrn lqpn) that a new verbs
# program gets on each of rxe_h1..rxe_h4: an ibv_rc_pingpong server per
# device creates its context, PD, CQ, MR and QP, then waits for a client;
# its numbers are read from `rdma resource` and it is killed. The kernel
# numbers each kind in order per device, so between two probes a number
# advances by 1 plus what others created meanwhile. Prints "DEV ctxn pdn cqn
# mrn lqpn" lines.
res_probe() {
	local i k pids=() n
	for i in 1 2 3 4; do
		ibv_rc_pingpong -d "rxe_h$i" -g "$(lab_host_gid "h$i")" -p $((18600 + i)) > "/tmp/probe-$i.log" 2>&1 &
		pids+=($!)
	done
	for ((k = 0; k < 100; k++)); do
		n=$(ss -Hltn 'sport >= :18601 and sport <= :18604' | wc -l)
		[ "$n" -ge 4 ] && break
		sleep 0.1
	done
	{
		for k in ctx:ctxn pd:pdn cq:cqn mr:mrn qp:lqpn; do
			rdma -j resource show "${k%%:*}" | jq -r --arg key "${k#*:}" --arg kind "${k%%:*}" \
				--argjson p "[$(IFS=,; echo "${pids[*]}")]" \
				'.[] | select(.pid as $x | $p | index($x)) | "\(.ifname // (.link | split("/")[0])) \($kind) \(.[$key])"'
		done
	} > /tmp/probe.res
	kill "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	[ "$n" -ge 4 ] || { echo "GOT the probe servers did not listen: $(cat /tmp/probe-*.log)" >&2; return 1; }
	awk '{ v[$1, $2] = $3; d[$1] = 1 }
		END { for (x in d) print x, v[x, "ctx"], v[x, "pd"], v[x, "cq"], v[x, "mr"], v[x, "qp"] }' /tmp/probe.res | sort
}
# qps_created_by CMD...: CMD between two probes; CREATED = what appeared on
# each device meanwhile ("rxe_h1 ctx=0 pd=0 cq=0 mr=0 qp=0 ..."), NCREATED
# the total count, NQP1 the QPs on rxe_h1
CREATED='' NCREATED='' NQP1=''
qps_created_by() {
	local a b
	a=$(res_probe) || return 1
	"$@"
	b=$(res_probe) || return 1
	echo "INFO probe numbers before (dev ctxn pdn cqn mrn lqpn): $(echo "$a" | tr '\n' ';')"
	echo "INFO probe numbers after: $(echo "$b" | tr '\n' ';')"
	CREATED=$(printf '%s\n%s\n' "$a" "$b" | awk '
		{ if ($1 in seen) { for (i = 2; i <= 6; i++) c[$1, i] = $i - v[$1, i] - 1 } else { seen[$1] = 1; o[++n] = $1; for (i = 2; i <= 6; i++) v[$1, i] = $i } }
		END { split("ctx pd cq mr qp", k, " ")
			for (j = 1; j <= n; j++) { s = s o[j]; for (i = 2; i <= 6; i++) s = s " " k[i - 1] "=" c[o[j], i]; s = s "; " }
			print s }')
	NCREATED=$(echo "$CREATED" | grep -o '=[-0-9]*' | tr -d = | awk '{ s += ($1 < 0 ? -$1 : $1) } END { print s + 0 }')
	NQP1=$(echo "$CREATED" | sed -n 's/.*rxe_h1 [^;]*qp=\([-0-9]*\).*/\1/p')
	[ "$(echo "$a" | wc -l)" = 4 ] && [ "$(echo "$b" | wc -l)" = 4 ] ||
		{ echo "GOT probes on $(echo "$a" | wc -l) / $(echo "$b" | wc -l) devices, expected 4"; return 1; }
}
key_setup() {
	lab_agents_stop
	printf '%s\n' 5f3c1a9e0b7d2468ace13579bdf02468a1b2c3d4e5f60718293a4b5c6d7e8f90 > /tmp/agent.key
	printf '%s\n' 0000000000000000000000000000000000000000000000000000000000000001 > /tmp/wrong.key
	chmod 600 /tmp/agent.key /tmp/wrong.key
	lab_agents_start 4 --key-file /tmp/agent.key
}
KEY_RC=''
wrong_key_run() {
	local job=$OUT/faults-key.ini t
	job_write "$job" 2s 5s
	t=$EPOCHREALTIME
	timeout "$T" rperf run "$job" --key-file /tmp/wrong.key --out_json_file "$OUT/faults-wrongkey.json" > /tmp/wk.out 2> /tmp/wk.err
	KEY_RC=$?
	echo "INFO wrong key: exit $KEY_RC after $(lab_since "$t") s; stderr: $(head -c 400 /tmp/wk.err | tr '\n' ' ')"
}
right_key_run() {
	timeout "$T" rperf run "$OUT/faults-key.ini" --key-file /tmp/agent.key --out_json_file "$OUT/faults-rightkey.json" > /tmp/rk.out 2>&1
	KEY_RC=$?
	echo "INFO right key: exit $KEY_RC; $(tail -n 3 /tmp/rk.out | tr '\n' ' ')"
}
wrong_key() {
	key_setup || return 1
	qps_created_by wrong_key_run || return 1
	agent_logs
	lab_result "run_wrong_key status=$KEY_RC created_meanwhile=$NCREATED ($CREATED)"
	echo "EXPECT exit 3, stderr names a host (h1..h4) and the key; nothing created on rxe_h1..rxe_h4 (contexts, PDs, CQs, MRs, QPs); each agent logs the failed TLS handshake and no PLAN"
	echo "GOT exit $KEY_RC, created: $CREATED; stderr: $(head -c 300 /tmp/wk.err | tr '\n' ' ')"
	[ "$KEY_RC" = 3 ] && [ "$NCREATED" = 0 ] && grep -q -E 'h[1-4]' /tmp/wk.err && grep -q -i key /tmp/wk.err &&
		[ "$(grep -l 'TLS authentication failed' /tmp/agent-h[1-4].log | wc -l)" = 4 ] &&
		! grep -q ": PLAN '" /tmp/agent-h[1-4].log
}
# no key at all: the controller refuses to run unauthenticated (exit 2);
# with --insecure against agents that require TLS: refused (exit 3)
no_key() {
	local rc rc2
	timeout "$T" rperf run "$OUT/faults-key.ini" > /tmp/nk.out 2> /tmp/nk.err
	rc=$?
	timeout "$T" rperf run --insecure "$OUT/faults-key.ini" > /tmp/nk2.out 2> /tmp/nk2.err
	rc2=$?
	echo "EXPECT exit 2 naming --key-file; with --insecure exit 3, stderr names a host (h1..h4) and 'requires TLS'"
	echo "GOT exit $rc: $(head -c 200 /tmp/nk.err | tr '\n' ' '); --insecure: exit $rc2: $(head -c 300 /tmp/nk2.err | tr '\n' ' ')"
	[ "$rc" = 2 ] && grep -q -- --key-file /tmp/nk.err &&
		[ "$rc2" = 3 ] && grep -q -E 'h[1-4]' /tmp/nk2.err && grep -q 'requires TLS' /tmp/nk2.err
}
# the control: the same probe around a run with the right key sees the QPs
right_key() {
	qps_created_by right_key_run || return 1
	lab_result "run_right_key status=$KEY_RC created_meanwhile=$NCREATED ($CREATED)"
	echo "EXPECT exit 0 and >= 3 QPs created on rxe_h1 (sinks of 1 LSG + 2 BSGs)"
	echo "GOT exit $KEY_RC, $NQP1 QPs on rxe_h1; created: $CREATED"
	[ "$KEY_RC" = 0 ] && [ "${NQP1:-0}" -ge 3 ]
}

# ---- issue 19: strangers, fake agents, a stopped agent (key agents) ----
# stallers_start: on h1's agent (every stranger from the lab's one source
# address, as the controller): a loop that sends a plain rperf HELLO and
# holds it (the old main's lock-out), a loop that sends part of a TLS
# ClientHello and stalls, and 64 idle connections, held until stallers_stop
STALL_PIDS=()
stallers_start() {
	local hello='{"version":1,"command":"run","features":[]}' lb
	printf -v lb '\\x%02x' "${#hello}"
	(
		while :; do
			exec {s}<> /dev/tcp/10.77.0.1/18521 || exit 1
			printf "RPFR\\x00\\x01\\x00\\x01\\x00\\x00\\x00$lb%s" "$hello" >&$s
			sleep 0.3
		done
	) 2> /dev/null &
	STALL_PIDS+=($!)
	(
		while :; do
			exec {s}<> /dev/tcp/10.77.0.1/18521 || exit 1
			printf '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' >&$s
			sleep 0.3
		done
	) 2> /dev/null &
	STALL_PIDS+=($!)
	(
		for ((i = 0; i < 64; i++)); do exec {s}<> /dev/tcp/10.77.0.1/18521; done
		sleep 600
	) 2> /dev/null &
	STALL_PIDS+=($!)
	sleep 1 # the idle ones are in, the loops going
}
stallers_stop() {
	kill "${STALL_PIDS[@]}" 2> /dev/null
	wait "${STALL_PIDS[@]}" 2> /dev/null
	STALL_PIDS=()
}
# setup_s TAG: one 1 s run; its set-up time (dial to every agent ARMED)
setup_s() {
	local j=$OUT/faults-stall-$1.json
	timeout "$T" rperf run --key-file "$LAB_KEY" "$OUT/faults-stall.ini" --out_json_file "$j" > "/tmp/stall-$1.out" 2>&1 || { echo "-1"; return; }
	jq -r '.control_plane.setup_seconds' "$j"
}
stalling_clients() {
	local base=() under=() k ok=1 b u
	{
		printf '[global]\nduration = 1s\nwarmup = 0.2s\ntimeout = 10s\n'
		job_hosts | sed '/^\[host h3\]/,/^gid_index/d;/^\[host h4\]/,/^gid_index/d'
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\n'
	} > "$OUT/faults-stall.ini"
	for k in 1 2 3; do base+=("$(setup_s "base$k")"); done
	stallers_start
	for k in 1 2 3; do under+=("$(setup_s "stall$k")"); done
	stallers_stop
	agent_logs
	b=$(printf '%s\n' "${base[@]}" | sort -g | sed -n 2p)
	u=$(printf '%s\n' "${under[@]}" | sort -g | sed -n 2p)
	lab_result "run_stalling_clients setup_s_base=${base[*]} setup_s_under_stallers=${under[*]} median_delay_s=$(awk -v a="$b" -v c="$u" 'BEGIN { printf "%.3f", c - a }')"
	echo "EXPECT 3 runs with strangers holding h1's agent (a held plain HELLO loop, a stalled TLS ClientHello loop, 64 idle connections): every run exits 0, each set-up within 1 s of the median without them"
	echo "GOT set-up without: ${base[*]} s; with: ${under[*]} s; $(grep -c evicted /tmp/agent-h1.log) evictions, $(grep -c 'requires TLS' /tmp/agent-h1.log) plain HELLOs refused in h1's log"
	for k in "${under[@]}"; do
		awk -v a="$b" -v c="$k" 'BEGIN { exit !(c >= 0 && c - a <= 1.0) }' || ok=0
	done
	[ "$ok" = 1 ] && awk -v a="$b" 'BEGIN { exit !(a >= 0) }'
}
# fake agents without the key on h3 and h4's addresses: h3's has another
# key (TLS, wrong PSK), h4's is an --insecure agent (the plain channel;
# it would accept anything). The controller refuses both: exit 3, both
# named, neither ever sees a PLAN.
fake_agents() {
	local f=$OUT/faults-fake.ini rc why3 why4
	printf '%s\n' 0123456789abcdef0123456789abcdef > /tmp/other.key
	chmod 600 /tmp/other.key
	rperf agent --bind 10.77.0.3 -p 18598 --dry-run --key-file /tmp/other.key > /tmp/fake-h3.log 2>&1 &
	local p3=$!
	rperf agent --bind 10.77.0.4 -p 18599 --dry-run --insecure > /tmp/fake-h4.log 2>&1 &
	local p4=$!
	sleep 1
	job_write "$f" 1s 5s
	sed -i 's/^control = 10.77.0.3$/control = 10.77.0.3:18598/;s/^control = 10.77.0.4$/control = 10.77.0.4:18599/' "$f"
	timeout "$T" rperf run --key-file "$LAB_KEY" "$f" --out_json_file "$OUT/faults-fake.json" > /tmp/fake.out 2> /tmp/fake.err
	rc=$?
	kill "$p3" "$p4" 2> /dev/null
	wait "$p3" "$p4" 2> /dev/null
	# nothing was measured: the report is FILE.aborted.json
	why3=$(jq -r '.hosts[] | select(.name == "h3" and .failed) | .reason' "$OUT/faults-fake.aborted.json" 2> /dev/null)
	why4=$(jq -r '.hosts[] | select(.name == "h4" and .failed) | .reason' "$OUT/faults-fake.aborted.json" 2> /dev/null)
	lab_result "run_fake_agents status=$rc failed_hosts=$(jq -c .failed_hosts "$OUT/faults-fake.aborted.json" 2> /dev/null)"
	echo "EXPECT exit 3; h3 failed 'TLS authentication failed', h4 failed naming --insecure (the plain channel); no PLAN in either fake's log"
	echo "GOT exit $rc: $(head -c 300 /tmp/fake.err | tr '\n' ' '); h3: $why3; h4: $why4; fake logs: $(tail -n 2 /tmp/fake-h3.log | tr '\n' '|') || $(tail -n 2 /tmp/fake-h4.log | tr '\n' '|')"
	[ "$rc" = 3 ] && [[ $why3 == *"TLS authentication failed"* ]] && [[ $why4 == *"--insecure"* ]] &&
		! grep -q ": PLAN '" /tmp/fake-h3.log /tmp/fake-h4.log
}
# h3's agent SIGSTOPped mid-run (30 s job, --heartbeat 500ms): declared
# failed within 2 x 0.5 s (+ 0.1 s for the controller's wake-up under TCG),
# the run exits 3 long before its planned end, the others' results kept
sigstop() {
	local job=$OUT/faults-stop.ini j=$OUT/faults-stop.json cpid p0 rc t s silent
	job_write "$job" 30s 3s
	p0=$(lab_port_rx h3)
	timeout "$T" rperf run --key-file "$LAB_KEY" --heartbeat 500ms "$job" --out_json_file "$j" > /tmp/stop.out 2> /tmp/stop.err &
	cpid=$!
	h3_running "$p0" "$cpid" || { wait "$cpid"; cat /tmp/stop.out /tmp/stop.err; return 1; }
	sleep 1.5
	lab_agent_signal 3 STOP
	t=$EPOCHREALTIME
	wait "$cpid"
	rc=$?
	s=$(lab_since "$t")
	lab_agent_signal 3 CONT
	silent=$(jq -r '[.hosts[] | select(.failed) | .reason][0] // ""' "$j" 2> /dev/null | sed -n 's/.*no HEARTBEAT for \([0-9.]*\) s.*/\1/p')
	lab_result "run_sigstop status=$rc detected_after_silence_s=${silent:-none} heartbeat_s=0.5 exit_after_stop_s=$s failed_hosts=$(jq -c .failed_hosts "$j" 2> /dev/null)"
	echo "EXPECT exit 3; h3 failed with 'no HEARTBEAT for X s', X <= 2 x 0.5 s + 0.1 s; exit within X + timeout 3 s + 3 s of the stop (the job asked for 30 s)"
	echo "GOT exit $rc after $s s; X = ${silent:-none}: $(grep -i h3 /tmp/stop.err | head -n 2 | tr '\n' ' ')"
	[ "$rc" = 3 ] && [ -n "$silent" ] && awk -v x="$silent" -v s="$s" 'BEGIN { exit !(x <= 1.1 && s <= x + 6) }'
}

# NUMA placement keys (issue 12): h2's [host] sets cpu_node = 0 and
# mem_node = 0, the BSG section sets them for its own source; the run
# succeeds and each source's JSON generator carries placement 0/0 (rxe's
# NIC node is -1: unknown, so nothing is remote). h3's agent is gone here.
placement() {
	local f=$OUT/faults-place.ini j=$OUT/faults-place.json rc got
	{
		printf '[global]\nduration = 2s\nwarmup = 1s\ntimeout = 10s\nsink_completion = event\n'
		job_hosts | sed '/^\[host h3\]/,/^gid_index/d' |
			awk '{ print } /^\[host h2\]$/ { print "cpu_node = 0"; print "mem_node = 0" }'
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\npair_order = sequential\n'
		printf '[bsg load]\nfrom = h4\nto = h1\nsize = 4K\ntx_depth = 16\nrate = 20M\ncompletion = event\ncpu_node = 0\nmem_node = 0\n'
	} > "$f"
	timeout "$T" rperf run --key-file "$LAB_KEY" "$f" --out_json_file "$j" > /tmp/place.out 2> /tmp/place.err
	rc=$?
	got=$(jq -c '[.generators[] | .placement]' "$j" 2> /dev/null)
	lab_result "run_placement status=$rc placement=$got"
	echo "EXPECT exit 0; probe and load: placement cpu_node 0, mem_node 0"
	echo "GOT exit $rc: $got $(head -c 300 /tmp/place.err | tr '\n' ' ')"
	[ "$rc" = 0 ] || { agent_logs; return 1; }
	[ "$(jq -r '[.generators[] | .placement.cpu_node, .placement.mem_node] | map(tostring) | join(",")' "$j")" = "0,0,0,0" ]
}

# expect_bad NAME 'SECTIONS' PATTERN...: a job whose LAST line is wrong;
# exit 2, stderr names FILE:LINE and each PATTERN
expect_bad() {
	local f=$OUT/bad-$1.ini line rc p ok=0
	{
		printf '[global]\nduration = 1s\ntimeout = 2s\n'
		job_hosts
		printf '%b\n' "$2"
	} > "$f"
	line=$(wc -l < "$f")
	shift 2
	timeout 20 rperf run --key-file "$LAB_KEY" "$f" > /tmp/bad.out 2> /tmp/bad.err
	rc=$?
	echo "EXPECT exit 2, stderr with '$f:$line' and: $*"
	echo "GOT exit $rc: $(head -c 400 /tmp/bad.err | tr '\n' ' ')"
	[ "$rc" = 2 ] || ok=1
	grep -q -F "$f:$line" /tmp/bad.err || ok=1
	for p in "$@"; do grep -q -i -- "$p" /tmp/bad.err || ok=1; done
	return "$ok"
}
LSG='[lsg probe]\nfrom = h2\nto = h1'
bad_from() { expect_bad from '[lsg probe]\nto = h1\nfrom = h9' h9; }
bad_to() { expect_bad to '[bsg load]\nfrom = h3\nto = h7' h7; }
bad_self() { expect_bad self '[bsg load]\nfrom = h3\nto = h3' h3; }
bad_dup() { expect_bad dup "$LSG\n[bsg load]\nfrom = h3\nto = h1\n[bsg load]" load; }
bad_key() { expect_bad key "$LSG\n[bsg load]\nfrom = h3\nto = h1\ntx_dpeth = 4" tx_dpeth "did you mean" tx_depth; }
bad_section() { expect_bad section "$LSG\n[bgs load]" bgs "did you mean" bsg; }

# an agent that is not running: refused port (RST) and a silent address.
# "Within timeout" is about rperf's waiting: the time to start and end the
# controller (measured alongside: `rperf run` of a job that fails to parse,
# 0.1-0.5 s under TCG) is taken off, with 0.5 s to spare.
no_agent() {
	local what=$1 ctl=$2 f=$OUT/faults-noagent-$1.ini t rc s o w
	job_write "$f" 2s 2s "$ctl"
	t=$EPOCHREALTIME
	rperf run --key-file "$LAB_KEY" "$OUT/bad-key.ini" > /dev/null 2>&1
	o=$(lab_since "$t")
	t=$EPOCHREALTIME
	timeout 30 rperf run --key-file "$LAB_KEY" "$f" > /tmp/na.out 2> /tmp/na.err
	rc=$?
	s=$(lab_since "$t")
	w=$(awk -v s="$s" -v o="$o" 'BEGIN { printf "%.2f", s - o }')
	lab_result "run_no_agent case=$what control=$ctl status=$rc seconds=$s start_stop_s=$o waiting_s=$w timeout_s=2"
	echo "EXPECT exit 3 naming h4; waiting (elapsed $s s - start/stop $o s) <= timeout 2 s + 0.5 s"
	echo "GOT exit $rc, waiting $w s: $(head -c 300 /tmp/na.err | tr '\n' ' ')"
	[ "$rc" = 3 ] && grep -q h4 /tmp/na.err && awk -v w="$w" 'BEGIN { exit !(w <= 2.5) }'
}
no_agent_port() { no_agent refused 10.77.0.4:18599; }
no_agent_host() { no_agent silent 10.77.0.99; }

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
if rperf run /dev/null 2>&1 | grep -q "not built yet"; then
	echo "skip: this rperf has no 'rperf run' yet"
	exit 77
fi
check "4 agents listening"                                          setup
check "agent h3 killed mid-run: exit 3 within 2 x timeout"          kill_agent
check "... others' results reported, failed_hosts = [h3]"           kill_report
check "... a second controller meanwhile: refused, busy (exit 3)"    busy
check "... survivors freed their QPs and serve the next run"        kill_survivors
check "job cpu_node = 0, mem_node = 0: runs, JSON has placement"   placement
check "--key-file: wrong key refused (exit 3), nothing created"     wrong_key
check "no key: refused (exit 2); --insecure vs TLS agents (exit 3)" no_key
check "--key-file: right key runs, its QPs are seen (control)"      right_key
lab_agents_stop
check "agents h1..h4 with the lab key"                              lab_agents_start 4
check "strangers stalling the handshake delay a run by <= 1 s"      stalling_clients
check "agent SIGSTOPped: failed within 2 x --heartbeat, exit 3"    sigstop
lab_agents_stop
check "agents h1, h2 with the lab key (h3, h4: fakes)"              lab_agents_start 2
check "fake agents without the key: refused by the controller"      fake_agents
lab_agents_stop
check "bad job: unknown host in from (exit 2, FILE:LINE)"           bad_from
check "bad job: unknown host in to"                                 bad_to
check "bad job: a generator to itself"                              bad_self
check "bad job: duplicate generator names"                          bad_dup
check "bad job: unknown key, did you mean"                          bad_key
check "bad job: unknown section, did you mean"                      bad_section
check "agents h1..h3 listening (h4 has none)"                       lab_agents_start 3
check "agent not running (port refused): exit 3 within timeout"     no_agent_port
check "agent host silent: exit 3 within timeout"                    no_agent_host
lab_agents_stop
lab_summary
