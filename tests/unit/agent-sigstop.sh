#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# agent-sigstop.sh RPERF - issue 19 on loopback, the real binaries: two
# `rperf agent --dry-run --key-file` (TLS-PSK) and one `rperf run
# --heartbeat 200ms` of a 20 s job; 1 s after GO agent h2 is SIGSTOPped.
# The controller must declare h2 failed within 2 x 0.2 s of silence (its
# reason says "no HEARTBEAT for X s"), exit 3 long before the planned end
# (within X + the 1 s timeout + 2 s of the stop), and say so in JSON; then
# the same job with a wrong key is refused by TLS (exit 3) and without any
# key the controller refuses to start (exit 2).
set -u
rperf=${1:?usage: agent-sigstop.sh RPERF}
work=$(mktemp -d /tmp/rperf-sigstop.XXXXXX)
pids=()
fails=0
cleanup() {
	kill -CONT "${pids[@]}" 2> /dev/null
	kill "${pids[@]}" 2> /dev/null
	wait "${pids[@]}" 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
command -v jq > /dev/null || { echo "agent-sigstop: jq is needed"; exit 77; }

printf 'sigstop test key\n' > "$work/k"
printf 'another key\n' > "$work/w"
chmod 600 "$work/k" "$work/w"
# shellcheck source=tests/unit/dry-agents.sh
. "$(dirname "$0")/dry-agents.sh"
start_dry_agents 2 "$work" --key-file "$work/k" --clock posix ||
	{ echo "FAIL 2 dry-run agents did not start"; exit 1; }
{
	printf '[global]\nduration = 20s\nwarmup = 0s\ntimeout = 1s\n'
	printf '[host h1]\ncontrol = 127.0.0.1:%d\n[host h2]\ncontrol = 127.0.0.1:%d\n' $((base + 1)) $((base + 2))
	printf '[lsg probe]\nfrom = h2\nto = h1\n[bsg load]\nfrom = h1\nto = h2\n'
} > "$work/job.ini"
"$rperf" run --key-file "$work/k" --heartbeat 200ms --out_json_file "$work/r.json" "$work/job.ini" > "$work/run.out" 2> "$work/run.err" &
rpid=$!
for ((t = 0; t < 100; t++)); do
	grep -q 'GO:' "$work/agent2.log" && break
	sleep 0.05
done
sleep 1
kill -STOP "${pids[1]}"
t0=$(date +%s.%N)
wait "$rpid"
rc=$?
s=$(echo "$(date +%s.%N) - $t0" | bc)
why=$(jq -r '[.hosts[] | select(.failed) | .name + ": " + .reason] | join("; ")' "$work/r.json" 2> /dev/null)
x=$(echo "$why" | sed -n 's/.*no HEARTBEAT for \([0-9.]*\) s.*/\1/p')
echo "info run exit $rc, $s s after SIGSTOP; failed: $why"
echo "info detection: silent for ${x:-?} s at a 0.2 s heartbeat (limit 2 x 0.2 s)"
if [ "$rc" = 3 ] && [ -n "$x" ] && awk -v x="$x" -v s="$s" 'BEGIN { exit !(x >= 0.4 && x <= 0.45 && s <= x + 3) }'; then
	ok "SIGSTOPped agent declared failed after ${x} s of silence (<= 2 x 0.2 s), run ended ${s} s after the stop"
else
	bad "SIGSTOPped agent: exit $rc after $s s, silence ${x:-none}: $(head -c 300 "$work/run.err")"
fi
jq -e '.insecure == false and .control_plane.channel == "tls-psk" and .control_plane.heartbeat_seconds == 0.2' "$work/r.json" > /dev/null &&
	ok "JSON: insecure false, channel tls-psk, heartbeat 0.2 s" || bad "JSON channel keys: $(jq -c .control_plane "$work/r.json")"
kill -CONT "${pids[1]}"
sleep 0.5
plans=$(cat "$work"/agent*.log | grep -c ": PLAN '")
"$rperf" run --key-file "$work/w" "$work/job.ini" > "$work/w.out" 2> "$work/w.err"
rc=$?
[ "$rc" = 3 ] && grep -q "TLS authentication failed" "$work/w.err" &&
	[ "$(cat "$work"/agent*.log | grep -c ": PLAN '")" = "$plans" ] &&
	ok "wrong key: exit 3, TLS refused, no PLAN reached an agent" || bad "wrong key: exit $rc: $(head -c 300 "$work/w.err")"
"$rperf" run "$work/job.ini" > /dev/null 2> "$work/n.err"
rc=$?
[ "$rc" = 2 ] && ok "no key: exit 2" || bad "no key: exit $rc: $(cat "$work/n.err")"
[ "$fails" = 0 ]
