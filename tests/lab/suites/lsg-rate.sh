#!/bin/bash
# lsg-rate.sh - benchmark: rperf's LSG sample rate vs ib_send_lat's
# iteration rate, same boot, same hosts (h2 -> h1), three runs each,
# alternating. rperf does twice the work per sample (a wire and a loopback
# SEND). Goal: median ratio >= 0.9. Prints RESULT lines; exits 0 unless a
# run failed.
. /usr/lib/rperf-lab/lab-lib.sh
N=3000
rates_r=() rates_p=()
for i in 1 2 3; do
	timeout 120 rperf lat -d rxe_h1 > /tmp/srv.log 2>&1 &
	timeout 120 rperf lat -d rxe_h2 -n "$N" --warmup 300 \
		--out_json_file /tmp/r.json 10.77.0.1 > /tmp/r.log 2>&1 || { cat /tmp/r.log; exit 1; }
	wait
	r=$(jq -r '.results[0] | .samples / .seconds' /tmp/r.json)
	# perftest aborts when its own CPU-frequency fit is noisy: retry once,
	# then skip this pair (only an rperf failure fails the benchmark)
	lab_pair 1 2 120 ib_send_lat -F -n "$N" > /tmp/p.log 2>&1 ||
		lab_pair 1 2 120 ib_send_lat -F -n "$N" > /tmp/p.log 2>&1 ||
		{ tail -5 /tmp/p.log; echo "NOTE run $i: ib_send_lat failed twice; pair skipped"; continue; }
	# ib_send_lat prints half round trips: one iteration = 2 x t_avg
	p=$(lab_lat_result | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^t_avg_us=/) { split($i, a, "="); printf "%.1f", 1e6 / (2 * a[2]) } }')
	echo "RESULT run=$i rperf_samples_per_s=$r ib_send_lat_iterations_per_s=$p"
	rates_r+=("$r") rates_p+=("$p")
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
[ ${#rates_r[@]} -gt 0 ] || { echo "NOTE no ib_send_lat run completed: no ratio"; echo "1 passed, 0 failed"; exit 0; }
mr=$(med "${rates_r[@]}") mp=$(med "${rates_p[@]}")
awk -v r="$mr" -v p="$mp" 'BEGIN { q = r / p; printf "RESULT lsg_rate median rperf=%.0f/s ib_send_lat=%.0f/s ratio=%.2f goal>=0.90 [%s]\n", r, p, q, ((q >= 0.9) ? "met" : "MISSED") }'
echo "1 passed, 0 failed"
