#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rperf run --prom FILE on loopback: three dry-run agents, one run writing
# the JSON and the Prometheus text; promtool (Debian's prometheus package)
# must accept the file, and figures read back from it must be the JSON's
# (set-up seconds, agents, samples, failed hosts). A --prom file that cannot
# be written is refused before anything runs (exit 2); --prom with --sweep
# is refused (exit 2). The example Grafana dashboard queries only metrics
# that exist. The figures of a real run: lab suite run-prom.
# Usage: prom.sh PATH/TO/rperf
set -uo pipefail
RPERF=$1
pass=0 fail=0
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	wait 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
command -v promtool > /dev/null || { echo "prom: promtool is needed (apt-get install prometheus; tests/install-deps.sh)"; exit 77; }
command -v jq > /dev/null || { echo "prom: jq is needed"; exit 77; }
port() {
	local p
	for p in $(shuf -i 20000-60000 -n 20); do
		(exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null || { echo "$p"; return 0; }
	done
	return 1
}
ports=()
for i in 1 2 3; do
	p=$(port) || exit 1
	ports+=("$p")
	"$RPERF" agent --dry-run --insecure --bind 127.0.0.1 -p "$p" > "$tmp/agent$i.log" 2>&1 &
	pids+=($!)
done
for ((k = 0; k < 100; k++)); do
	up=0
	for p in "${ports[@]}"; do (exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null && up=$((up + 1)); done
	[ "$up" = 3 ] && break
	sleep 0.05
done
printf '[global]\nduration = 200ms\nwarmup = 50ms\n[host a]\ncontrol = 127.0.0.1:%s\n[host b]\ncontrol = 127.0.0.1:%s\n[host c]\ncontrol = 127.0.0.1:%s\n[lsg probe]\nfrom = a\nto = b\n[bsg load]\nfrom = c\nto = b\n' "${ports[@]}" > "$tmp/job.ini"

if "$RPERF" run --insecure --out_json_file "$tmp/r.json" --prom "$tmp/r.prom" "$tmp/job.ini" > "$tmp/out" 2> "$tmp/err"; then
	ok "run --prom: exit 0"
else
	bad "run --prom: $(head -c 300 "$tmp/err")"
fi
if promtool check metrics < "$tmp/r.prom" > "$tmp/lint" 2>&1; then
	ok "promtool check metrics accepts the file ($(grep -c '^rperf_' "$tmp/r.prom") samples, $(grep -c '^# TYPE' "$tmp/r.prom") families)"
else
	bad "promtool: $(head -5 "$tmp/lint")"
fi
ls "$tmp" | grep -q 'r.prom.tmp' && bad "a temporary file is left: $(ls "$tmp")"
# value VALUE-OF-METRIC-LINE-MATCHING REGEX
value() { grep -E "$1" "$tmp/r.prom" | head -1 | awk '{ print $NF }'; }
same() { # NAME PROM JSON: equal as numbers
	if awk -v a="$2" -v b="$3" 'BEGIN { exit !(a != "" && b != "" && (a - b) ^ 2 < 1e-18) }'; then
		ok "$1: $2 in both"
	else
		bad "$1: prom '$2' vs JSON '$3'"
	fi
}
same "set-up seconds" "$(value '^rperf_run_setup_seconds\{')" "$(jq '.control_plane.setup_seconds' "$tmp/r.json")"
same "agents" "$(value '^rperf_run_agents\{')" "$(jq '.control_plane.agents' "$tmp/r.json")"
same "LSG samples" "$(value '^rperf_run_lsg_samples\{.*generator="probe"')" "$(jq '.generators[0].samples' "$tmp/r.json")"
same "failed hosts" "$(value '^rperf_run_failed_hosts\{')" "$(jq '.failed_hosts | length' "$tmp/r.json")"
same "dry run" "$(value '^rperf_run_dry_run\{')" 1
# a dry run measured nothing: NaN quantiles, never 0 s
if [ "$(value '^rperf_run_rtt_seconds\{.*quantile="0.5"')" = NaN ]; then
	ok "dry run: the RTT quantiles are NaN"
else
	bad "dry run: RTT p50 is $(value '^rperf_run_rtt_seconds\{.*quantile="0.5"')"
fi
"$RPERF" run --insecure --prom "$tmp/nodir/r.prom" "$tmp/job.ini" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "nodir/r.prom" "$tmp/err"; then ok "unwritable --prom: exit 2 before the run"; else bad "unwritable --prom: exit $rc: $(head -c 200 "$tmp/err")"; fi
"$RPERF" run --insecure --prom "$tmp/s.prom" --sweep global.duration=100ms,200ms "$tmp/job.ini" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q -- "--prom with --sweep" "$tmp/err"; then ok "--prom with --sweep: exit 2"; else bad "--prom --sweep: exit $rc: $(head -c 200 "$tmp/err")"; fi
# the example dashboard: valid JSON, and every rperf_run_ family it queries
# is one this run wrote (lat/bw ones: named in the man page)
src=$(cd "$(dirname "$0")/../.." && pwd)
dash=$src/examples/grafana/rperf-dashboard.json
missing=""
for m in $(jq -r '.panels[].targets[].expr' "$dash" | grep -o 'rperf_[a-z_]*' | grep -v '^rperf_job$' | sort -u); do
	case $m in
	rperf_run_*) grep -q "^# TYPE $m " "$tmp/r.prom" || missing+=" $m" ;;
	*) grep -q "$m" "$src/man/rperf.1.md" || missing+=" $m" ;;
	esac
done
if [ -z "$missing" ] && [ "$(jq '.panels | length' "$dash")" -gt 0 ]; then
	ok "examples/grafana/rperf-dashboard.json: every metric it queries exists"
else
	bad "dashboard queries unknown metrics:$missing"
fi
echo "prom: $pass passed, $fail failed"
[ "$fail" = 0 ]
