#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rperf run --prom FILE on loopback: three dry-run agents, one run writing
# the JSON and the Prometheus text; promtool (Debian's prometheus package)
# must accept the file, and figures read back from it must be the JSON's
# (set-up seconds, agents, samples, failed hosts); a [mesh] job's file too
# (cells, counts); --every (continuous mode): numbered JSON per run, the
# --prom file current, SIGTERM between runs and SIGINT during one stop it
# cleanly, bad TIME refused. A --prom file that cannot
# be written is refused before anything runs (exit 2); --prom with --sweep
# is refused (exit 2); --hist (every LSG's RTT CDF) and --raw (every
# sample) likewise. The example Grafana dashboard queries only metrics
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
# refused WHAT TEXT ARGS...: rperf run ARGS exits 2 saying TEXT
refused() {
	local what=$1 text=$2 rc
	shift 2
	"$RPERF" run --insecure "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q -- "$text" "$tmp/err"; then ok "$what: exit 2"; else bad "$what: exit $rc: $(head -c 200 "$tmp/err")"; fi
}
refused "unwritable --prom (before the run)" "nodir/r.prom" --prom "$tmp/nodir/r.prom" "$tmp/job.ini"
refused "--prom with --sweep" "--prom with --sweep" --prom "$tmp/s.prom" --sweep global.duration=100ms,200ms "$tmp/job.ini"
# --hist, written beside the report like --prom: the dry run's LSG has no
# samples (the header alone); refused unwritable, with --sweep, with a mesh
"$RPERF" run --insecure --hist "$tmp/r.csv" "$tmp/job.ini" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$tmp/r.csv")" = "generator,from,to,size,lo_ns,hi_ns,value_ns,count,cumulative,fraction" ]; then ok "run --hist: the CSV header, no rows (dry run)"; else bad "run --hist: exit $rc, $(head -c 200 "$tmp/r.csv" "$tmp/err")"; fi
refused "unwritable --hist (before the run)" "nodir/r.csv" --hist "$tmp/nodir/r.csv" "$tmp/job.ini"
refused "--hist with --sweep" "--hist with --sweep" --hist "$tmp/s.csv" --sweep global.duration=100ms,200ms "$tmp/job.ini"
# --raw likewise: the dry LSG's agent counts 0 samples in its REPORT
"$RPERF" run --insecure --raw "$tmp/raw.csv" "$tmp/job.ini" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(cat "$tmp/raw.csv")" = "generator,from,to,size,wire_ns,loop_ns,rtt_ns" ]; then ok "run --raw: the CSV header, no rows (dry run)"; else bad "run --raw: exit $rc, $(head -c 200 "$tmp/raw.csv" "$tmp/err")"; fi
refused "unwritable --raw (before the run)" "nodir/raw.csv" --raw "$tmp/nodir/raw.csv" "$tmp/job.ini"
refused "--raw with --repeat" "--raw with --sweep or --repeat" --raw "$tmp/s.csv" --repeat 2 "$tmp/job.ini"
# a mesh (a job with [mesh]) writes its matrix: promtool accepts it, its
# cells and counts are the JSON's (dry run: NaN quantiles, null in JSON)
pv() { grep -E "$2" "$1" | head -1 | awk '{ print $NF }'; }
printf '[global]\ntimeout = 5s\n[host a]\ncontrol = 127.0.0.1:%s\n[host b]\ncontrol = 127.0.0.1:%s\n[host c]\ncontrol = 127.0.0.1:%s\n[mesh m]\nduration = 20ms\nwarmup = 0\n' "${ports[@]}" > "$tmp/mesh.ini"
if "$RPERF" run --insecure --out_json_file "$tmp/m.json" --prom "$tmp/m.prom" "$tmp/mesh.ini" > "$tmp/mout" 2> "$tmp/err" &&
	promtool check metrics < "$tmp/m.prom" > "$tmp/lint" 2>&1; then
	ok "mesh --prom: exit 0, promtool accepts it ($(grep -c '^rperf_mesh_' "$tmp/m.prom") samples)"
else
	bad "mesh --prom: $(head -c 300 "$tmp/err") $(head -3 "$tmp/lint")"
fi
"$RPERF" run --insecure --hist "$tmp/m.csv" "$tmp/mesh.ini" > /dev/null 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q -- "--hist with a \[mesh\]" "$tmp/err" && [ ! -e "$tmp/m.csv" ]; then ok "--hist with a [mesh]: exit 2, no file"; else bad "--hist mesh: exit $rc: $(head -c 200 "$tmp/err")"; fi
same "mesh cell a->b samples" "$(pv "$tmp/m.prom" '^rperf_mesh_samples\{.*from="a",to="b"')" "$(jq '.mesh.matrix[0][1].samples' "$tmp/m.json")"
same "mesh cell c->a _count" "$(pv "$tmp/m.prom" '^rperf_mesh_rtt_seconds_count\{.*from="c",to="a"')" "$(jq '.mesh.matrix[2][0].samples' "$tmp/m.json")"
same "mesh cells ok" "$(grep -c '^rperf_mesh_cell_ok{.*} 1$' "$tmp/m.prom")" "$(jq '[.mesh.matrix[][] | select(. != null and .status == "ok")] | length' "$tmp/m.json")"
same "mesh rounds run" "$(pv "$tmp/m.prom" '^rperf_mesh_rounds_run\{')" "$(jq '.mesh.rounds_run' "$tmp/m.json")"
same "mesh suspects" "$(pv "$tmp/m.prom" '^rperf_mesh_suspects\{')" "$(jq '.mesh.suspects | length' "$tmp/m.json")"
[ "$(grep -c '^rperf_mesh_rtt_seconds{.*quantile=.*} NaN$' "$tmp/m.prom")" = 24 ] &&
	[ "$(jq '[.mesh.matrix[][] | select(. != null) | .p50_ns] | unique' -c "$tmp/m.json")" = "[null]" ] &&
	ok "mesh dry run: 24 quantiles NaN, p50 null in the JSON" || bad "mesh dry run quantiles: $(grep '^rperf_mesh_rtt_seconds{' "$tmp/m.prom" | head -2)"

# --every: runs until a signal; each run's JSON numbered (an existing
# file skipped, never overwritten), the --prom file the last run's
wait_for() { # FILE SECONDS
	local k
	for ((k = 0; k < $2 * 20; k++)); do [ -e "$1" ] && return 0; sleep 0.05; done
	return 1
}
echo keep > "$tmp/e.1.json"
"$RPERF" run --insecure --every 300ms --out_json_file "$tmp/e.json" --prom "$tmp/e.prom" "$tmp/job.ini" > "$tmp/eout" 2> "$tmp/eerr" &
epid=$!
wait_for "$tmp/e.4.json" 30
kill -TERM "$epid"
wait "$epid"
rc=$?
last=$(ls "$tmp" | sed -n 's/^e\.\([0-9]*\)\.json$/\1/p' | sort -n | tail -1)
# runs: one header each, one file each (e.N.aborted.json when the signal
# aborted the last before GO)
runs=$(ls "$tmp" | grep -cE '^e\.[0-9]+\.(aborted\.)?json$')
runs=$((runs - 1)) # e.1.json was there before
if [ "$rc" = 0 ] && [ "$(cat "$tmp/e.1.json")" = keep ] && [ "$last" -ge 4 ] &&
	[ "$(grep -c '^rperf run --every 0.300 s: run ' "$tmp/eout")" = "$runs" ] &&
	grep -q "stopped after $runs run(s) (signal)" "$tmp/eerr"; then
	ok "--every 300ms: SIGTERM: exit 0, $runs runs in e.2.json..e.$last.json, e.1.json (there before) kept"
else
	bad "--every: exit $rc, last e.$last.json, e.1.json '$(head -c 20 "$tmp/e.1.json")': $(tail -2 "$tmp/eerr")"
fi
promtool check metrics < "$tmp/e.prom" > "$tmp/lint" 2>&1 || bad "--every: promtool: $(head -3 "$tmp/lint")"
# the last run that wrote: e.$last.json, or one the signal cut short after
# GO (written there too); one it aborted before GO left e.prom alone
same "--every: the --prom file is the last run's (set-up seconds)" "$(pv "$tmp/e.prom" '^rperf_run_setup_seconds\{')" "$(jq '.control_plane.setup_seconds' "$tmp/e.$last.json")"
n=$(for ((k = 2; k <= last; k++)); do jq -r '.control_plane.setup_seconds' "$tmp/e.$k.json"; done | sort -u | wc -l)
[ "$n" = $((last - 1)) ] && ok "--every: $n runs measured, $n distinct results" || bad "--every: $((last - 1)) runs, $n distinct set-up times"
ls "$tmp" | grep -q 'e.prom.tmp' && bad "--every: a temporary file is left"
# a signal during a run cuts it short: reported and written as interrupted
sed 's/^duration = 200ms/duration = 20s/' "$tmp/job.ini" > "$tmp/long.ini"
"$RPERF" run --insecure --every 60s --out_json_file "$tmp/l.json" "$tmp/long.ini" > "$tmp/lout" 2> "$tmp/lerr" &
epid=$!
sleep 2
t0=$EPOCHREALTIME
kill -INT "$epid"
wait "$epid"
rc=$?
dt=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
if [ "$rc" = 0 ] && [ "$(jq '.interrupted' "$tmp/l.1.json")" = true ] && [ ! -e "$tmp/l.2.json" ] &&
	awk -v d="$dt" 'BEGIN { exit !(d < 10) }'; then
	ok "--every: SIGINT during a 20 s run: stopped in $dt s, l.1.json interrupted, no second run"
else
	bad "--every during a run: exit $rc in $dt s: $(jq -c '.interrupted' "$tmp/l.1.json" 2>&1) $(tail -2 "$tmp/lerr")"
fi
# a signal during a run's set-up (an agent that accepts and never answers:
# the controller waits for its WELCOME) ends the loop with exit 0: a run
# cut short by the stop does not count for the exit status
mute=$(port)
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); time.sleep(60)' "$mute" &
pids+=($!)
sleep 0.3
"$RPERF" run --insecure --every 60s --timeout 30s --set host.a.control=127.0.0.1:$mute --out_json_file "$tmp/s.json" "$tmp/job.ini" > /dev/null 2> "$tmp/serr" &
epid=$!
sleep 1.5
kill -TERM "$epid"
wait "$epid"
rc=$?
[ "$rc" = 0 ] && grep -q "stopped after 1 run(s) (signal)" "$tmp/serr" && ok "--every: SIGTERM during a run's set-up: exit 0" ||
	bad "--every: SIGTERM during set-up: exit $rc: $(tail -3 "$tmp/serr")"
# a mesh every 300 ms: each round's matrix in its own file
"$RPERF" run --insecure --every 300ms --out_json_file "$tmp/me.json" --prom "$tmp/me.prom" "$tmp/mesh.ini" > /dev/null 2> "$tmp/merr" &
epid=$!
wait_for "$tmp/me.2.json" 30
kill -TERM "$epid"
wait "$epid"
rc=$?
if [ "$rc" = 0 ] && [ "$(jq '.mesh.rounds_run' "$tmp/me.1.json")" = 3 ] && [ "$(jq '.mesh.rounds_run' "$tmp/me.2.json")" = 3 ] &&
	promtool check metrics < "$tmp/me.prom" > /dev/null 2>&1; then
	ok "--every with a [mesh]: me.1.json, me.2.json, me.prom accepted"
else
	bad "--every mesh: exit $rc: $(tail -2 "$tmp/merr")"
fi
# bad input: exit 2 naming the option
for bad_every in 5x 0 1ms -3s; do
	"$RPERF" run --insecure --every "$bad_every" "$tmp/job.ini" > /dev/null 2> "$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q -- "--every: '$bad_every'" "$tmp/err" && ok "--every $bad_every: exit 2" ||
		bad "--every $bad_every: exit $rc: $(head -c 200 "$tmp/err")"
done
"$RPERF" run --insecure --every 1s --sweep global.duration=100ms,200ms "$tmp/job.ini" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q -- "--every with --sweep" "$tmp/err" && ok "--every with --sweep: exit 2" || bad "--every --sweep: exit $rc"

# the example dashboard: valid JSON, and every rperf_run_ family it queries
# is one this run (or the mesh) wrote (lat/bw ones: named in the man page)
src=$(cd "$(dirname "$0")/../.." && pwd)
dash=$src/examples/grafana/rperf-dashboard.json
missing=""
for m in $(jq -r '.panels[].targets[].expr' "$dash" | grep -o 'rperf_[a-z_]*' | grep -v '^rperf_job$' | sort -u); do
	case $m in
	rperf_run_*) grep -q "^# TYPE $m " "$tmp/r.prom" || missing+=" $m" ;;
	rperf_mesh_*) grep -q "^# TYPE $m " "$tmp/m.prom" || missing+=" $m" ;;
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
