#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/bench/agents-scale.sh RPERF [N...] - control-plane scale (issue 13):
# N `rperf agent --dry-run` on 127.0.0.1 (one port each), one `rperf run`
# against them, for N = 8 16 32 64 (or the given N). Prints per N the
# controller's set-up time (dial start -> every agent ARMED: connect, auth,
# plan, endpoints, connect, armed) and the start barrier's skew (the spread
# of the GO receipt times the agents report on the host's CLOCK_MONOTONIC),
# the median of REPS runs (default 3) after one warm-up run, then how both
# grow with N.
# Each N runs twice on the same machine: the channel TLS 1.3 with a
# pre-shared key (agents and controller --key-file, the default since issue
# 19) and plain TCP (--insecure both), so the table shows what TLS costs
# the set-up (connect + handshake per agent, in parallel) at N agents.
# Fails when a run does not report every agent as dry run (a broken
# protocol), or the channel is not the one asked for, never on the figures
# themselves: they depend on the machine.
#   REPS=N   runs per N (default 3)
set -euo pipefail
rperf=${1:?usage: agents-scale.sh RPERF [N...]}
shift
[ $# -gt 0 ] || set -- 8 16 32 64
reps=${REPS:-3}
command -v jq >/dev/null || { echo "agents-scale: jq is needed (tests/install-deps.sh)"; exit 77; }
work=$(mktemp -d /tmp/rperf-agents-scale.XXXXXX)
pids=()

stop_agents() {
	[ ${#pids[@]} -eq 0 ] && return 0
	kill "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
	pids=()
}
trap 'stop_agents; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT

printf 'agents-scale bench key\n' >"$work/key"
chmod 600 "$work/key"
# the channel's options: tls (the key) or plain (--insecure)
auth() { if [ "$1" = tls ]; then echo "--key-file $work/key"; else echo --insecure; fi; }

# Start $1 agents on ports $2.. with channel $3; 0 when all listen.
start_agents() {
	local n=$1 base=$2 i t
	for ((i = 1; i <= n; i++)); do
		# shellcheck disable=SC2046
		"$rperf" agent --dry-run --bind 127.0.0.1 -p $((base + i)) $(auth "$3") \
			--clock posix --timeout 30s >"$work/agent$i.log" 2>&1 &
		pids+=($!)
	done
	for ((t = 0; t < 300; t++)); do
		local up=0
		for ((i = 1; i <= n; i++)); do
			grep -q "listening on" "$work/agent$i.log" 2>/dev/null && up=$((up + 1))
		done
		[ "$up" -eq "$n" ] && return 0
		for p in "${pids[@]}"; do
			kill -0 "$p" 2>/dev/null || return 1 # one died: port taken?
		done
		sleep 0.1
	done
	return 1
}

# The job: h1 the destination, h2 an LSG probe, h3..hN BSGs (one each).
write_job() {
	local n=$1 base=$2 i from=""
	{
		printf '[global]\nduration = 200ms\nwarmup = 100ms\ntimeout = 30s\n'
		for ((i = 1; i <= n; i++)); do
			printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i))
		done
		printf '[lsg probe]\nfrom = h2\nto = h1\n'
		for ((i = 3; i <= n; i++)); do from+="${from:+, }h$i"; done
		[ -n "$from" ] && printf '[bsg load]\nfrom = %s\nto = h1\n' "$from"
	} >"$work/job$n.ini"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A setup spread plain_setup
echo "agents-scale: $reps run(s) per N and channel of one controller against N dry-run agents on 127.0.0.1 ($(nproc) cores)"
printf '%8s %7s %14s %14s %18s\n' agents channel "connect ms" "set-up ms" "GO spread us"
for n in "$@"; do
	for ch in plain tls; do
		ok=0
		for try in 1 2 3; do
			base=$((20000 + (RANDOM % 400) * 100))
			if start_agents "$n" "$base" "$ch"; then ok=1; break; fi
			stop_agents
		done
		[ "$ok" = 1 ] || { echo "agents-scale: could not start $n agents"; tail -3 "$work"/agent*.log; exit 1; }
		write_job "$n" "$base"
		: >"$work/s$n" ; : >"$work/g$n" ; : >"$work/c$n"
		for ((r = 0; r <= reps; r++)); do # run 0 warms up, not counted
			# shellcheck disable=SC2046
			if ! "$rperf" run $(auth "$ch") "$work/job$n.ini" --out_json_file "$work/r$n.json" >"$work/run$n.txt" 2>&1; then
				echo "agents-scale: rperf run with $n agents ($ch) failed:"; cat "$work/run$n.txt"; exit 1
			fi
			j="$work/r$n.json"
			want=$([ "$ch" = tls ] && echo tls-psk || echo plain)
			if [ "$(jq -r '.dry_run' "$j")" != true ] ||
				[ "$(jq -r '.control_plane.dry_run_agents' "$j")" != "$n" ] ||
				[ "$(jq -r '.control_plane.go_rx_agents' "$j")" != "$n" ] ||
				[ "$(jq -r '.control_plane.channel' "$j")" != "$want" ] ||
				[ "$(jq -r '.failed_hosts | length' "$j")" != 0 ]; then
				echo "agents-scale: $n agents ($ch): not every agent reported as dry run over $want:"
				jq -c '.control_plane, .failed_hosts' "$j"; exit 1
			fi
			grep -q '^DRY RUN:' "$work/run$n.txt" || { echo "agents-scale: no DRY RUN banner"; exit 1; }
			[ "$r" = 0 ] && continue
			jq -r '.control_plane.connect_seconds * 1000' "$j" >>"$work/c$n"
			jq -r '.control_plane.setup_seconds * 1000' "$j" >>"$work/s$n"
			jq -r '.control_plane.go_rx_spread_ns / 1000' "$j" >>"$work/g$n"
		done
		stop_agents
		if [ "$ch" = tls ]; then
			setup[$n]=$(median <"$work/s$n")
			spread[$n]=$(median <"$work/g$n")
		else
			plain_setup[$n]=$(median <"$work/s$n")
		fi
		printf '%8d %7s %14.1f %14.1f %18.1f\n' "$n" "$ch" "$(median <"$work/c$n")" "$(median <"$work/s$n")" "$(median <"$work/g$n")"
	done
done
for n in "$@"; do
	awk -v n="$n" -v t="${setup[$n]}" -v p="${plain_setup[$n]}" 'BEGIN {
		printf "TLS set-up cost at %d agents: %.1f ms with TLS 1.3 (PSK) vs %.1f ms plain: +%.1f ms (%.2f ms per agent)\n", n, t, p, t - p, (t - p) / n }'
done

# Growth (TLS runs) from the smallest to the largest N: the ratio, the exponent b of
# N^b between them, and the least-squares cost per added agent.
lo=$1
hi=${!#}
if [ "$lo" != "$hi" ]; then
	for what in setup spread; do
		declare -n v=$what
		pts=""
		for n in "$@"; do pts+="$n ${v[$n]} "; done
		awk -v what="$what" -v lo="$lo" -v hi="$hi" -v a="${v[$lo]}" -v b="${v[$hi]}" -v pts="$pts" 'BEGIN {
			k = split(pts, p, " "); n = k / 2
			for (i = 0; i < n; i++) { x = p[2*i+1]; y = p[2*i+2]; sx += x; sy += y; sxx += x*x; sxy += x*y }
			slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
			unit = what == "setup" ? "ms" : "us"
			name = what == "setup" ? "set-up time" : "GO receipt spread"
			e = (a > 0 && b > 0) ? log(b / a) / log(hi / lo) : 0
			shape = e < 0.2 ? "flat" : e < 0.7 ? "sublinear" : e < 1.3 ? "about linear" : "superlinear"
			printf "growth %d -> %d agents (x%.0f): %s x%.1f, ~N^%.2f (%s); least squares %.3f %s per added agent\n", lo, hi, hi / lo, name, b / a, e, shape, slope, unit
		}'
		unset -n v
	done
fi
