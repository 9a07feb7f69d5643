#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/bench/fleet-scale.sh RPERF [N...] - the start barrier and set-up at
# fleet scale: N dry-run agents on 127.0.0.1 (one port each; default N = 8
# 64 256 1000), one `rperf run` against them over TLS 1.3 (PSK), REPS runs
# per N after one warm-up run. With FLEET_AGENTS (tests/bench/
# fleet_agents.c, what CTest sets) the agents run PROCS processes (default
# 4) of one thread per agent, each process with one shared start timer: a
# machine of 2 cores cannot wake 1,000 processes at one instant, a fleet
# of 1,000 hosts wakes one per host. Without it: one `rperf agent
# --dry-run` process per agent, each with its own timer. Per N it prints:
#   - set-up: dial start -> the first GO sent (connect, TLS, PLAN,
#     ENDPOINTS, CONNECT, ARMED and the clock-offset exchanges of the start
#     barrier: control_plane.start_skew.ready_seconds), its median and max;
#   - start skew: per agent, the instant its start timer actually fired,
#     taken to the controller's clock through the measured offset, minus
#     the intended start (control_plane.start[].skew_ns); the p99 of |skew|
#     over the agents of a run (median and max over runs). It includes each
#     agent's wake-up (with one process per agent: N processes woken at one
#     instant on this machine's cores queue for them);
#   - the true skew: all agents share this machine's CLOCK_MONOTONIC, so
#     their true offset is 0; the actual start on the agent's clock minus
#     the intended start on the controller's also holds the offset
#     estimate's error: p99 of |skew_ns + offset_ns| over
#     control_plane.start[] (worst run); the goal is judged on the
#     reported skew (the issue's definition), the true one said beside it;
#   - busy%: the machine's CPU use over 1 s before that size (the lab VM
#     and the other users of the cores), and the GO fan-out's duration;
#   - the offsets' uncertainty p99 (half the kept exchange's RTT): the
#     barrier's own error bound;
#   - the old figure, GO receipt spread (what the skew was before the
#     barrier: the controller's sequential sending);
# then the goals at the largest N (issue: skew p99 <= 1 ms, set-up <= 3 s
# at 1,000 agents), each "met" or "NOT met" on the worst run. Fails when a
# run does not report every agent synced and dry (a broken protocol), never
# on the figures: they depend on the machine.
#   REPS=N   runs per N (default 3)
set -euo pipefail
rperf=${1:?usage: fleet-scale.sh RPERF [N...]}
shift
[ $# -gt 0 ] || set -- 8 64 256 1000
reps=${REPS:-3}
procs=${PROCS:-4}
helper=${FLEET_AGENTS:-}
command -v jq > /dev/null || { echo "fleet-scale: jq is needed (tests/install-deps.sh)"; exit 77; }
# a controller with N TLS connections, N agents with a few fds each
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true
max_n=0
for n in "$@"; do [ "$n" -gt "$max_n" ] && max_n=$n; done
if [ "$(ulimit -n)" -lt $((max_n + 64)) ]; then
	echo "fleet-scale: open files limit $(ulimit -n) < $((max_n + 64)) for $max_n agents"; exit 77
fi
work=$(mktemp -d /tmp/rperf-fleet-scale.XXXXXX)
pids=()
stop_agents() {
	[ ${#pids[@]} -eq 0 ] && return 0
	kill "${pids[@]}" 2> /dev/null || true
	wait "${pids[@]}" 2> /dev/null || true
	pids=()
}
trap 'stop_agents; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
printf 'fleet-scale bench key\n' > "$work/key"
chmod 600 "$work/key"

# $1 agents on ports $2+1..; 0 when all listen
start_agents() {
	local n=$1 base=$2 i t up p per first
	rm -f "$work"/agent*.log
	if [ -n "$helper" ]; then
		p=$((procs < n ? procs : n))
		per=$(((n + p - 1) / p))
		for ((first = 0; first < n; first += per)); do
			"$helper" "$work/key" $((base + first)) $((n - first < per ? n - first : per)) \
				> "$work/agent$first.log" 2>&1 &
			pids+=($!)
		done
	else
		for ((i = 1; i <= n; i++)); do
			"$rperf" agent --dry-run --bind 127.0.0.1 -p $((base + i)) --key-file "$work/key" \
				--timeout 60s > "$work/agent$i.log" 2>&1 &
			pids+=($!)
		done
	fi
	for ((t = 0; t < 600; t++)); do
		up=$(cat "$work"/agent*.log 2> /dev/null | grep -c "listening on")
		[ "$up" -ge "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# h1 the destination, h2 an LSG, h3..hN one BSG each
write_job() {
	local n=$1 base=$2 i from=""
	{
		printf '[global]\nduration = 200ms\nwarmup = 100ms\ntimeout = 60s\n'
		for ((i = 1; i <= n; i++)); do
			printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i))
		done
		printf '[lsg probe]\nfrom = h2\nto = h1\n'
		for ((i = 3; i <= n; i++)); do from+="${from:+, }h$i"; done
		[ -n "$from" ] && printf '[bsg load]\nfrom = %s\nto = h1\n' "$from"
	} > "$work/job$n.ini"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
maxof() { sort -g | tail -1; }
# the other processes' CPU share over 1 s before a size (the lab VM...)
busy() {
	local a b
	a=($(head -1 /proc/stat)); sleep 1; b=($(head -1 /proc/stat))
	awk -v u=$((b[1] + b[2] + b[3] + b[6] + b[7] - a[1] - a[2] - a[3] - a[6] - a[7])) \
		-v t=$((b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + b[7] - a[1] - a[2] - a[3] - a[4] - a[5] - a[6] - a[7])) \
		'BEGIN { printf "%.0f", t ? 100 * u / t : 0 }'
}
# nearest-rank p99 of |skew_ns + offset_ns| (the true offset is 0: one
# machine, one CLOCK_MONOTONIC), in us
true_p99() {
	jq -r '.control_plane.start[] | select(.skew_ns != null) | (.skew_ns + .offset_ns) | fabs' "$1" |
		sort -g | awk '{ v[NR] = $1 } END { k = int((99 * NR + 99) / 100); print v[k ? k : 1] / 1000 }'
}

if [ -n "$helper" ]; then mode="in up to $procs processes (one thread per agent, one start timer per process)"; else mode="one process per agent"; fi
echo "fleet-scale: $reps run(s) per N (after a warm-up run) of one controller against N dry-run agents on 127.0.0.1 $mode, TLS 1.3 PSK ($(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%7s %6s %10s %10s %12s %12s %12s %13s %11s %14s\n' agents "busy%" "set-up s" "max s" "skew p99 us" "max p99 us" "true p99 us" "offset unc us" "GO sent ms" "GO spread us"
for n in "$@"; do
	ok=0
	load=$(busy)
	for try in 1 2 3; do
		base=$((20000 + (RANDOM % 30) * 1100))
		if start_agents "$n" "$base"; then ok=1; break; fi
		stop_agents
	done
	[ "$ok" = 1 ] || { echo "fleet-scale: could not start $n agents"; tail -3 "$work"/agent*.log | tail -6; exit 1; }
	write_job "$n" "$base"
	[ -n "$helper" ] && [ -z "${said_prio:-}" ] && said_prio=1 &&
		echo "fleet-scale: $(grep -h -m1 'start timer thread' "$work"/agent*.log | head -1 | sed 's/^fleet_agents: //')"
	for f in ready skew true unc go sent; do : > "$work/$f$n"; done
	for ((r = 0; r <= reps; r++)); do
		j=$work/r$n.json
		if ! "$rperf" run --key-file "$work/key" --quiet "$work/job$n.ini" --out_json_file "$j" > "$work/run$n.txt" 2>&1; then
			echo "fleet-scale: rperf run with $n agents failed:"; tail -5 "$work/run$n.txt"; exit 1
		fi
		if [ "$(jq -r '.control_plane.dry_run_agents' "$j")" != "$n" ] ||
			[ "$(jq -r '.control_plane.start_skew.synced_agents' "$j")" != "$n" ] ||
			[ "$(jq -r '.control_plane.start_skew.skew_agents' "$j")" != "$n" ] ||
			[ "$(jq -r '.failed_hosts | length' "$j")" != 0 ]; then
			echo "fleet-scale: $n agents: not every agent dry, synced and reporting its start:"
			jq -c '.control_plane.start_skew, .failed_hosts[0:3]' "$j"; exit 1
		fi
		[ "$r" = 0 ] && continue
		jq -r '.control_plane.start_skew.ready_seconds' "$j" >> "$work/ready$n"
		jq -r '.control_plane.start_skew.p99_abs_ns / 1000' "$j" >> "$work/skew$n"
		true_p99 "$j" >> "$work/true$n"
		jq -r '.control_plane.start_skew.p99_uncertainty_ns / 1000' "$j" >> "$work/unc$n"
		jq -r '.control_plane.go_rx_spread_ns // 0 | . / 1000' "$j" >> "$work/go$n"
		jq -r '.control_plane.go_send_seconds // 0 | . * 1000' "$j" >> "$work/sent$n"
	done
	stop_agents
	printf '%7d %6d %10.3f %10.3f %12.1f %12.1f %12.1f %13.1f %11.1f %14.1f\n' "$n" "$load" \
		"$(median < "$work/ready$n")" "$(maxof < "$work/ready$n")" \
		"$(median < "$work/skew$n")" "$(maxof < "$work/skew$n")" "$(maxof < "$work/true$n")" \
		"$(median < "$work/unc$n")" "$(median < "$work/sent$n")" "$(median < "$work/go$n")"
done
n=$max_n
s=$(maxof < "$work/skew$n") t=$(maxof < "$work/true$n")
awk -v n="$n" -v s="$s" -v t="$t" -v u="$(maxof < "$work/ready$n")" 'BEGIN {
	printf "goal at %d agents: start skew p99 <= 1 ms (the issue'"'"'s: through the measured offsets): worst run %.3f ms: %s\n", n, s / 1000, s <= 1000 ? "met" : "NOT met"
	printf "   the same on the true offset (0: one machine; adds the offsets'"'"' error): worst run %.3f ms: %s\n", t / 1000, t <= 1000 ? "within 1 ms" : "NOT within 1 ms"
	printf "goal at %d agents: set-up <= 3 s: worst run %.3f s: %s\n", n, u, u <= 3 ? "met" : "NOT met"
}'
