#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The rperf binary's contract: exit codes, one-line errors on bad input, and
# the keys of 'rperf info --json'. Usage: cli-exit.sh PATH/TO/rperf
set -uo pipefail
RPERF=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# expect STATUS LINES CMD...: exit status and number of stderr lines
expect() {
	local want=$1 lines=$2 got n
	shift 2
	"$RPERF" "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	n=$(wc -l < "$tmp/err")
	if [ "$got" = "$want" ] && { [ "$lines" = any ] || [ "$n" = "$lines" ]; }; then
		ok "rperf $* -> exit $got, $n stderr line(s) $(head -c 160 "$tmp/err")"
	else
		bad "rperf $*: expected exit $want and $lines stderr line(s), got exit $got and $n:"
		sed 's/^/     | /' "$tmp/err" | head -5
	fi
}

expect 2 1 lat -s abc 10.0.0.1
grep -q "^rperf: -s/--size: 'abc' is not a size; accepted:" "$tmp/err" || bad "-s abc message: $(cat "$tmp/err")"
expect 2 1 lat -n -5 10.0.0.1
expect 2 1 lat -S 16 10.0.0.1
grep -q "^rperf: -S/--sl: '16' is out of range; accepted: an integer from 0 to 15" "$tmp/err" || bad "-S 16 message: $(cat "$tmp/err")"
expect 2 1 --bogus
expect 2 1 lat --bogus
expect 2 1 frobnicate
expect 2 1
expect 2 1 info --spin 1h
expect 0 0 --help
grep -q "Exit status" "$tmp/out" || bad "--help lacks the exit codes"
expect 0 0 lat --help
grep -q -- "--pair-order" "$tmp/out" || bad "lat --help lacks --pair-order"
expect 0 0 --version
# bw without an RDMA device (this machine): one line, exit 2; bad bw input
if [ ! -d /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	expect 2 1 bw --connect-timeout 100ms 10.0.0.1
	grep -q "no RDMA device found" "$tmp/err" || bad "bw without a device must say so: $(cat "$tmp/err")"
fi
expect 2 1 bw -t 8 -l 16 10.0.0.1
grep -q "^rperf: -l/--post_list: 16 is above the tx depth 8; accepted:" "$tmp/err" || bad "bw -l above -t: $(cat "$tmp/err")"
expect 2 1 bw --run_infinitely -n 100 10.0.0.1
expect 2 1 bw --verb read 10.0.0.1
expect 2 1 bw -R 10.0.0.1
# perftest's flags: a connection type rperf cannot run, a mistyped option
expect 2 1 bw -c UD
grep -q -- "^rperf: -c/--connection: UD is not supported; accepted: RC" "$tmp/err" || bad "bw -c UD: $(cat "$tmp/err")"
expect 2 1 bw --tx_dpth 64 10.0.0.1
grep -q -- "did you mean -t/--tx-depth?" "$tmp/err" || bad "bw --tx_dpth: $(cat "$tmp/err")"
expect 0 0 bw --help
grep -q -- "--rate_limit" "$tmp/out" || bad "bw --help lacks --rate_limit"
# options of later features: refused, never ignored
# lat without an RDMA device (this machine) or with an unknown one: exit 2
if [ ! -d /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	expect 2 1 lat --connect-timeout 100ms 127.0.0.1
	grep -q "RDMA device" "$tmp/err" || bad "lat without a device must say so: $(cat "$tmp/err")"
fi
expect 0 0 info --spin 20ms
grep -qi "clock" "$tmp/out" || bad "info text lacks the clock self-test"
expect 0 0 info --json --spin 20ms
if command -v jq > /dev/null; then
	if jq -e '
		(.schema_version | type == "number") and
		(.clock | (.source | type == "string") and (.trusted | type == "boolean")
			and (.hz > 0) and (.method | type == "string")
			and (.error_ppm | type == "number")
			and (.overhead_ns.min > 0) and (.overhead_ns.median >= .overhead_ns.min)
			and (.invariant | type == "boolean") and (.hypervisor | type == "boolean")
			and (.clocksource | type == "string")) and
		(.devices | type == "array") and
		(.preflight | type == "array" and length >= 7 and
			all(.[]; (.check | type == "string") and (.ok | type == "boolean")
				and (.detail | type == "string"))) and
		(.platform | has("rdma_core_version") and has("numa_summary") and has("pcie"))' "$tmp/out" > /dev/null; then
		ok "info --json has the contract keys ($(jq -c '{source: .clock.source, trusted: .clock.trusted, devices: (.devices | length)}' "$tmp/out"))"
	else
		bad "info --json lacks contract keys:"; head -c 2000 "$tmp/out"
	fi
else
	echo "note: jq not installed; info --json keys not checked"
fi
expect 0 any info --clock posix --spin 10ms
# rperf run / agent: no key, no certificates and no --insecure -> 2, the
# message names the ways out (issue 19: authenticated by default)
printf '[global]\ntimeout = 300ms\n[host a]\ncontrol = 127.0.0.1:1\n[host b]\ncontrol = 127.0.0.1:2\n[lsg l]\nfrom = a\nto = b\n' > "$tmp/down.ini"
expect 2 1 run "$tmp/down.ini"
grep -q "^rperf run: no --key-file and no --cert/--key/--ca: .*--insecure" "$tmp/err" || bad "run without a key: $(cat "$tmp/err")"
expect 2 1 agent -p 1
grep -q "^rperf agent: no --key-file and no --cert/--key/--ca: .*--insecure" "$tmp/err" || bad "agent without a key: $(cat "$tmp/err")"
printf 'k\n' > "$tmp/k.key"
chmod 600 "$tmp/k.key"
expect 2 1 agent -p 1 --insecure --key-file "$tmp/k.key"
expect 2 1 agent -p 1 --cert "$tmp/k.key"
grep -q "all three of --cert, --key and --ca (missing --key)" "$tmp/err" || bad "agent --cert alone: $(cat "$tmp/err")"
chmod 644 "$tmp/k.key"
expect 2 1 run --key-file "$tmp/k.key" "$tmp/down.ini"
grep -q "chmod 600" "$tmp/err" || bad "run --key-file 644: $(cat "$tmp/err")"
# rperf run: bad job file (FILE:LINE) or output -> 2; agent not running -> 3
# control = local without an RDMA device here: 2, the line names the host
# (the Soft-RoCE lab runs it: lab suite run-lat, local_agent)
printf '[global]\ntimeout = 300ms\n[host a]\ncontrol = local\n[host b]\ncontrol = 127.0.0.1:2\n[lsg l]\nfrom = a\nto = b\n' > "$tmp/local.ini"
if [ ! -d /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	expect 2 1 run --insecure "$tmp/local.ini"
	grep -q "^rperf run: \[host a\] control = local: no RDMA device found" "$tmp/err" ||
		bad "run, control = local without a device: $(cat "$tmp/err")"
fi
expect 2 1 run --insecure "$tmp/none.ini"
printf '[global]\nszie = 1\n' > "$tmp/bad.ini"
expect 2 1 run --insecure "$tmp/bad.ini"
grep -q "bad.ini:2" "$tmp/err" || bad "run: a job error must name FILE:LINE: $(cat "$tmp/err")"
printf '[global]\ntimeout = 300ms\n[host a]\ncontrol = 127.0.0.1:1\n[host b]\ncontrol = 127.0.0.1:1\n[lsg l]\nfrom = a\nto = b\n' > "$tmp/same.ini"
expect 2 1 run --insecure "$tmp/same.ini"
grep -q "same.ini:.*one agent serves one host" "$tmp/err" || bad "run: two hosts on one agent: $(cat "$tmp/err")"
printf '[global]\ntimeout = 300ms\n[host a]\ncontrol = 127.0.0.1:1\n[host b]\ncontrol = 127.0.0.1:2\n[lsg l]\nfrom = a\nto = b\n' > "$tmp/down.ini"
expect 2 1 run --insecure --out_json_file "$tmp/no/such/dir/r.json" "$tmp/down.ini"
# a run that measured nothing keeps the previous results byte-identical;
# its aborted report goes beside them (FILE.aborted.json)
printf '{"previous": "results"}\n' > "$tmp/down.json"
cp "$tmp/down.json" "$tmp/down.before"
expect 3 2 run --insecure --out_json_file "$tmp/down.json" "$tmp/down.ini"
grep -q "host a" "$tmp/err" || bad "run: an agent not running must be named: $(cat "$tmp/err")"
cmp -s "$tmp/down.json" "$tmp/down.before" && ok "run aborted: the previous results file is byte-identical" ||
	bad "run aborted: the previous results file was changed: $(head -c 200 "$tmp/down.json")"
grep -q "down.json is left as it was; the aborted report is in .*down.aborted.json" "$tmp/err" || bad "run aborted: stderr must say where the report went: $(cat "$tmp/err")"
grep -q '"failed_hosts"' "$tmp/down.aborted.json" 2> /dev/null || bad "run: the aborted JSON must be written beside the results when agents fail"
# rperf run --set / --sweep / --hosts-map: an edited key's error names the
# option (exit 2, nothing contacted); a sweep whose agents are down runs
# every point, exits 3 and writes one JSON with a point per value
expect 2 1 run --insecure --set lsg.l.szie=2 "$tmp/down.ini"
grep -q "^rperf run: --set lsg.l.szie=2: \[lsg l\] szie: unknown key; did you mean 'size'?" "$tmp/err" || bad "run --set: $(cat "$tmp/err")"
expect 2 1 run --insecure --set '' "$tmp/down.ini"
grep -q "^rperf: --set: empty value; accepted: S.N.KEY=VALUE" "$tmp/err" || bad "run --set '': $(cat "$tmp/err")"
sets=()
for i in $(seq 33); do sets+=(--set "lsg.l.size=$i"); done
expect 2 1 run --insecure "${sets[@]}" "$tmp/down.ini"
grep -q "^rperf: --set: given more than 32 times" "$tmp/err" || bad "run --set x 33: $(cat "$tmp/err")"
expect 2 1 run --insecure --set lsg.zzz.size=2 "$tmp/down.ini"
grep -q "has no \[lsg zzz\]; it has: l" "$tmp/err" || bad "run --set, unknown section: $(cat "$tmp/err")"
expect 2 1 run --insecure --sweep lsg.l.size=64,0 --out_json_file "$tmp/never.json" "$tmp/down.ini"
grep -q "^rperf run: --sweep lsg.l.size=0 (value 2 of 2): \[lsg l\] size:" "$tmp/err" || bad "run --sweep, bad value: $(cat "$tmp/err")"
[ -e "$tmp/never.json" ] && bad "run --sweep: a refused value must run nothing, yet the JSON was written"
expect 2 1 run --insecure --sweep lsg.l.from=a,b "$tmp/down.ini"
printf '[host b]\ncontrol = 127.0.0.1:1\ncpu = x\n' > "$tmp/map.ini"
expect 2 1 run --insecure --hosts-map "$tmp/map.ini" "$tmp/down.ini"
grep -q "map.ini:3: \[host b\] cpu:" "$tmp/err" || bad "run --hosts-map: a map error must name MAP:LINE: $(cat "$tmp/err")"
printf '[host b]\ncontrol = 127.0.0.1:1\n' > "$tmp/map.ini"
expect 2 1 run --insecure --hosts-map "$tmp/map.ini" "$tmp/down.ini"
grep -q "one agent serves one host" "$tmp/err" || bad "run --hosts-map: the map's control must apply: $(cat "$tmp/err")"
printf 'old sweep\n' > "$tmp/sweep.json"
expect 3 any run --insecure --timeout 300ms --sweep lsg.l.size=64,128 --out_json_file "$tmp/sweep.json" "$tmp/down.ini"
[ "$(cat "$tmp/sweep.json")" = "old sweep" ] && ok "run --sweep, every point aborted: the previous file is kept" || bad "run --sweep aborted: the previous file was replaced"
grep -q "^sweep lsg.l.size: 2 points of" "$tmp/out" || bad "run --sweep: no table on stdout: $(head -c 300 "$tmp/out")"
if command -v jq > /dev/null; then
	jq -e '.sweep.key == "lsg.l.size" and (.points | length) == 2 and
		all(.points[]; .status == "aborted" and .exit_status == 3 and .report.aborted == true and
			.bsg_gbps == null and .lsg_rtt_ns == null) and
		[.points[].x] == [64, 128]' "$tmp/sweep.aborted.json" > /dev/null &&
		ok "run --sweep JSON: 2 aborted points, x = 64, 128" || bad "run --sweep JSON: $(head -c 300 "$tmp/sweep.aborted.json")"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
