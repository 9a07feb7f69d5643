#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-prom.sh - --prom FILE on real verbs, and the start barrier, one boot
# of 3 hosts (tests/lab/prom-check.sh runs it and checks the files with
# promtool on the host, where Debian's prometheus package lives):
#   - rperf lat h2 -> h1 and rperf bw h2 -> h1 with --out_json_file and
#     --prom: the RTT p50 and the Gb/s of the Prometheus file are the JSON's;
#   - rperf run (examples/fig7-converged.ini through examples/lab-hosts.ini
#     with the lab settings and one BSG: sink h1, probe h2, load1 h3) with
#     --prom: every generator ok, the probe's p99 the JSON's, and the start
#     barrier: all 3 agents synced, their offsets' uncertainty and the
#     sources' start skew (h2, h3) reported; the sink (no source: no start
#     of its own) has a NaN skew in the Prometheus file, never 0.
#   - rperf mesh of h1..h3 with --prom: 6 cells ok, h1->h2's p50 and
#     samples and h3->h1's p99 in the Prometheus file are the JSON's;
#   - rperf run --every 2s (the same job, 500 ms runs): 3 runs, each JSON
#     numbered (every.1.json ...), every generator ok in each, the --prom
#     file the last run's (a 4th the SIGTERM cut short counts); exit 0.
# Files in $LAB_OUT: lat.json/.prom, bw.json/.prom, run.json/.prom/.txt,
# mesh.json/.prom/.txt, every.N.json, every.prom/.txt/.err.
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
EX=/usr/share/rperf/examples
T=90
SETS=()
while read -r kv; do
	case $kv in [a-z]*) SETS+=(--set "$kv") ;; esac
done < "$EX/lab-sets.txt"

# pval FILE REGEX: the value of the first sample line matching
pval() { grep -E "$2" "$1" | head -1 | awk '{ print $NF }'; }
# same NAME A B: equal as numbers (relative 1e-9)
same() {
	echo "EXPECT $1: prom $2 = JSON $3"
	awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b;
		exit !(a != "" && b != "" && a != "NaN" && d <= 1e-9 * m + 1e-15) }'
}

pair() { # CMD JSON PROM ARGS...: server on h1, client on h2
	local cmd=$1 json=$2 prom=$3 spid r
	shift 3
	timeout "$T" rperf "$cmd" -d rxe_h1 > "/tmp/$cmd-srv.log" 2>&1 &
	spid=$!
	timeout "$T" rperf "$cmd" -d rxe_h2 --out_json_file "$json" --prom "$prom" "$@" 10.77.0.1 > "/tmp/$cmd-cli.log" 2>&1
	r=$?
	wait "$spid"
	echo "INFO rperf $cmd: client status $r, server status $?"
	[ "$r" = 0 ] || { tail -5 "/tmp/$cmd-cli.log"; return 1; }
}

lat_prom() {
	pair lat "$OUT/lat.json" "$OUT/lat.prom" -s 64 -n 2000 --warmup 200 || return 1
	lab_result "prom lat p50 $(pval "$OUT/lat.prom" '^rperf_lat_rtt_seconds\{.*quantile="0.5"') s"
	same "rperf_lat_rtt_seconds p50" "$(pval "$OUT/lat.prom" '^rperf_lat_rtt_seconds\{.*quantile="0.5"')" \
		"$(jq '.results[0].rtt_ns.p50 / 1e9' "$OUT/lat.json")" &&
		same "rperf_lat_samples" "$(pval "$OUT/lat.prom" '^rperf_lat_samples\{')" "$(jq '.results[0].samples' "$OUT/lat.json")"
}

bw_prom() {
	pair bw "$OUT/bw.json" "$OUT/bw.prom" -s 4096 -D 2 || return 1
	lab_result "prom bw $(pval "$OUT/bw.prom" '^rperf_bw_gbps\{') Gb/s"
	same "rperf_bw_gbps" "$(pval "$OUT/bw.prom" '^rperf_bw_gbps\{')" "$(jq '.results[0].gbps' "$OUT/bw.json")"
}

run_prom() {
	local rc
	lab_agents_start 3 || return 1
	timeout "$T" rperf run --key-file "$LAB_KEY" --hosts-map "$EX/lab-hosts.ini" "${SETS[@]}" \
		--set bsg.load.count=1 --out_json_file "$OUT/run.json" --prom "$OUT/run.prom" \
		"$EX/fig7-converged.ini" > "$OUT/run.txt" 2>&1
	rc=$?
	grep -E '^(Control plane|Start barrier|  (sink|probe|load1) )' "$OUT/run.txt" | sed 's/^/INFO /'
	[ "$rc" = 0 ] || { tail -20 "$OUT/run.txt"; echo "GOT status $rc"; return 1; }
	echo "EXPECT every generator ok; the probe's RTT p99 in both files; 3 agents synced; h2, h3 start skew"
	echo "GOT generators ok $(grep -c '^rperf_run_generator_ok{.*} 1$' "$OUT/run.prom") of $(jq '.generators | length' "$OUT/run.json"); start_skew $(jq -c '.control_plane.start_skew' "$OUT/run.json")"
	lab_result "run start barrier: $(jq -c '[.control_plane.start[] | {host, offset_ns, uncertainty_ns, skew_ns}]' "$OUT/run.json")"
	[ "$(grep -c '^rperf_run_generator_ok{.*} 1$' "$OUT/run.prom")" = 2 ] &&
		same "rperf_run_rtt_seconds p99 (probe)" \
			"$(pval "$OUT/run.prom" '^rperf_run_rtt_seconds\{.*generator="probe".*quantile="0.99"')" \
			"$(jq '.generators[] | select(.name == "probe") | .rtt_ns.p99 / 1e9' "$OUT/run.json")" &&
		[ "$(jq '.control_plane.start_skew.synced_agents' "$OUT/run.json")" = 3 ] &&
		[ "$(jq '.control_plane.start_skew.skew_agents' "$OUT/run.json")" = 2 ] &&
		[ "$(grep -c '^rperf_run_start_skew_seconds{.*} [0-9.e-]*$' "$OUT/run.prom")" = 2 ] &&
		[ "$(grep -c '^rperf_run_start_skew_seconds{.*host="sink".*} NaN$' "$OUT/run.prom")" = 1 ]
}

agents_up() { # 3 agents listening, else start them
	[ "$(ss -Hltn 'sport = :18521' | wc -l)" -ge 3 ] || lab_agents_start 3
}

mesh_prom() {
	local rc
	agents_up || return 1
	{
		printf '[global]\ntimeout = 20s\n'
		for i in 1 2 3; do printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\n' "$i" "$i" "$i"; done
		printf '[mesh m3]\nduration = 500ms\nwarmup = 100ms\nsize = 64\nrate = 256k\ncompletion = event\n'
	} > "$OUT/mesh3.ini"
	timeout "$T" rperf mesh --key-file "$LAB_KEY" --out_json_file "$OUT/mesh.json" --prom "$OUT/mesh.prom" \
		"$OUT/mesh3.ini" > "$OUT/mesh.txt" 2>&1
	rc=$?
	sed -n '1,4p' "$OUT/mesh.txt" | sed 's/^/INFO /'
	[ "$rc" = 0 ] || { tail -20 "$OUT/mesh.txt"; echo "GOT status $rc"; return 1; }
	echo "EXPECT 6 cells measured and ok; h1->h2's p50 and samples, h3->h1's p99 in both files"
	echo "GOT cells ok $(grep -c '^rperf_mesh_cell_ok{.*} 1$' "$OUT/mesh.prom"), measured $(jq '.mesh.localization.cells_measured' "$OUT/mesh.json")"
	lab_result "mesh prom h1->h2 p50 $(pval "$OUT/mesh.prom" '^rperf_mesh_rtt_seconds\{.*from="h1",to="h2",quantile="0.5"') s"
	[ "$(grep -c '^rperf_mesh_cell_ok{.*} 1$' "$OUT/mesh.prom")" = 6 ] &&
		same "rperf_mesh_rtt_seconds h1->h2 p50" \
			"$(pval "$OUT/mesh.prom" '^rperf_mesh_rtt_seconds\{.*from="h1",to="h2",quantile="0.5"')" \
			"$(jq '.mesh.matrix[0][1].p50_ns / 1e9' "$OUT/mesh.json")" &&
		same "rperf_mesh_samples h1->h2" "$(pval "$OUT/mesh.prom" '^rperf_mesh_samples\{.*from="h1",to="h2"')" \
			"$(jq '.mesh.matrix[0][1].samples' "$OUT/mesh.json")" &&
		same "rperf_mesh_rtt_seconds h3->h1 p99" \
			"$(pval "$OUT/mesh.prom" '^rperf_mesh_rtt_seconds\{.*from="h3",to="h1",quantile="0.99"')" \
			"$(jq '.mesh.matrix[2][0].p99_ns / 1e9' "$OUT/mesh.json")"
}

# rperf run --every 2s: three runs, each JSON numbered, --prom the last's;
# SIGTERM between runs: exit 0
every_prom() {
	local pid rc k last
	agents_up || return 1
	rm -f "$OUT"/every.*
	rperf run --every 2s --key-file "$LAB_KEY" --hosts-map "$EX/lab-hosts.ini" "${SETS[@]}" \
		--set bsg.load.count=1 --set global.duration=500ms --set global.warmup=200ms \
		--out_json_file "$OUT/every.json" --prom "$OUT/every.prom" \
		"$EX/fig7-converged.ini" > "$OUT/every.txt" 2> "$OUT/every.err" &
	pid=$!
	for ((k = 0; k < 600; k++)); do
		[ -e "$OUT/every.3.json" ] && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	last=$(ls "$OUT" | sed -n 's/^every\.\([0-9]*\)\.json$/\1/p' | sort -n | tail -1)
	grep '^rperf run --every' "$OUT/every.txt" | sed 's/^/INFO /'
	sed 's/^/INFO /' "$OUT/every.err"
	echo "EXPECT exit 0 after SIGTERM, every.1..3.json with every generator ok, --prom = the last run's (probe samples, set-up)"
	echo "GOT exit $rc, last every.$last.json; generators ok per run: $(for ((k = 1; k <= ${last:-0}; k++)); do jq -c '[.generators[] | select(.status == "ok")] | length' "$OUT/every.$k.json"; done | tr '\n' ' ')"
	lab_result "every: $last runs, probe p99 per run (us): $(for ((k = 1; k <= ${last:-0}; k++)); do jq '.generators[] | select(.name == "probe") | .rtt_ns.p99 / 1000' "$OUT/every.$k.json"; done | tr '\n' ' ')"
	[ "$rc" = 0 ] && [ "${last:-0}" -ge 3 ] &&
		for ((k = 1; k <= 3; k++)); do
			[ "$(jq '[.generators[] | select(.status == "ok")] | length' "$OUT/every.$k.json")" = 2 ] || return 1
		done &&
		same "every.prom = every.$last.json (probe samples; a run the signal cut short counts too)" \
			"$(pval "$OUT/every.prom" '^rperf_run_lsg_samples\{.*generator="probe"')" \
			"$(jq '.generators[] | select(.name == "probe") | .samples' "$OUT/every.$last.json")" &&
		same "every.prom = every.$last.json (set-up seconds)" \
			"$(pval "$OUT/every.prom" '^rperf_run_setup_seconds\{')" \
			"$(jq '.control_plane.setup_seconds' "$OUT/every.$last.json")"
}

check "rperf lat --prom: p50 and samples equal the JSON's"    lat_prom
check "rperf bw --prom: Gb/s equals the JSON's"               bw_prom
check "rperf run --prom and the start barrier on 3 agents"    run_prom
check "rperf mesh --prom: 3 hosts, cells equal the JSON's"    mesh_prom
check "rperf run --every 2s: 3 runs, numbered JSON, --prom current" every_prom
lab_summary
