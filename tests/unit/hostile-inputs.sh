#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Inputs that must never block or lose results (issue 19), loopback only:
#  - a FIFO (or a directory) as key file, job file, hosts map or compare
#    input is refused at once (exit 2, one line naming it), never hangs in
#    open(): each under timeout(1);
#  - SIGHUP (an ssh session dropping) stops `rperf run` like SIGTERM: the
#    partial results are printed and written (interrupted: true), exit 0;
#    and stops `rperf agent` cleanly (exit 0).
# Usage: hostile-inputs.sh PATH/TO/rperf
set -uo pipefail
RPERF=$1
pass=0 fail=0
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2> /dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

mkfifo "$tmp/fifo"
chmod 600 "$tmp/fifo"
mkdir "$tmp/dir"
printf '[global]\ntimeout = 300ms\n[host a]\ncontrol = 127.0.0.1:1\n[host b]\ncontrol = 127.0.0.1:2\n[lsg l]\nfrom = a\nto = b\n' > "$tmp/job.ini"

# refused NAME WHAT ARGS...: exit 2 within 5 s, stderr names WHAT
refused() {
	local name=$1 what=$2 rc t0 t1
	shift 2
	t0=$(date +%s%N)
	timeout 5 "$RPERF" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	t1=$(date +%s%N)
	if [ "$rc" = 2 ] && grep -q "$what" "$tmp/err"; then
		ok "$name: exit 2 in $(((t1 - t0) / 1000000)) ms: $(head -c 160 "$tmp/err")"
	else
		bad "$name: expected exit 2 naming '$what', got exit $rc ($([ "$rc" = 124 ] && echo 'HUNG'))): $(head -c 300 "$tmp/err")"
	fi
}
for kind in fifo dir; do
	f=$tmp/$kind
	w=$([ "$kind" = fifo ] && echo "a FIFO" || echo "a directory")
	refused "agent --key-file $kind" "key file .* is $w" agent --key-file "$f" --bind 127.0.0.1
	refused "run --key-file $kind" "key file .* is $w" run --key-file "$f" "$tmp/job.ini"
	refused "run JOB=$kind" "the job file is $w" run --insecure "$f"
	refused "run --hosts-map $kind" "the hosts map is $w" run --insecure --hosts-map "$f" "$tmp/job.ini"
	refused "compare $kind" "it is $w" compare "$f" "$f"
done

# ---- SIGHUP: two dry-run agents, a 30 s run hung up after set-up
port() { # a free TCP port on 127.0.0.1
	local p
	for p in $(shuf -i 20000-60000 -n 20); do
		(exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null || { echo "$p"; return 0; }
	done
	return 1
}
p1=$(port) p2=$(port)
printf 'hostile inputs key\n' > "$tmp/key"
chmod 600 "$tmp/key"
for p in "$p1" "$p2"; do
	"$RPERF" agent --dry-run --key-file "$tmp/key" --bind 127.0.0.1 -p "$p" > "$tmp/agent-$p.log" 2>&1 &
	pids+=($!)
done
for ((k = 0; k < 100; k++)); do
	(exec 3<> "/dev/tcp/127.0.0.1/$p1") 2> /dev/null && (exec 3<> "/dev/tcp/127.0.0.1/$p2") 2> /dev/null && break
	sleep 0.05
done
printf '[global]\nduration = 30s\nwarmup = 0s\ntimeout = 5s\n[host a]\ncontrol = 127.0.0.1:%s\n[host b]\ncontrol = 127.0.0.1:%s\n[bsg l]\nfrom = a\nto = b\n' "$p1" "$p2" > "$tmp/long.ini"
printf '{"previous": 1}\n' > "$tmp/hup.json"
"$RPERF" run --key-file "$tmp/key" --out_json_file "$tmp/hup.json" "$tmp/long.ini" > "$tmp/hup.out" 2> "$tmp/hup.err" &
rp=$!
sleep 1.5
t0=$(date +%s%N)
kill -HUP "$rp"
wait "$rp"
rc=$?
t1=$(date +%s%N)
if [ "$rc" = 0 ] && grep -q '"interrupted": *true' "$tmp/hup.json" && grep -q "Interrupted" "$tmp/hup.out"; then
	ok "run: SIGHUP mid-run -> exit 0 in $(((t1 - t0) / 1000000)) ms, partial results printed and written (interrupted: true)"
else
	bad "run: SIGHUP mid-run -> exit $rc; JSON: $(head -c 200 "$tmp/hup.json"); stderr: $(head -c 300 "$tmp/hup.err")"
fi
kill -HUP "${pids[0]}"
wait "${pids[0]}"
rc=$?
if [ "$rc" = 0 ] && grep -q "stopped by a signal" "$tmp/agent-$p1.log"; then
	ok "agent: SIGHUP -> stopped, exit 0"
else
	bad "agent: SIGHUP -> exit $rc: $(tail -n 2 "$tmp/agent-$p1.log")"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
