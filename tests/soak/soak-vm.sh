#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# soak-vm.sh CLIENTS SECONDS - runs inside the lab VM (tests/soak/soak-lab.sh
# boots it): a --persistent `rperf lat` server and a --persistent `rperf bw`
# server on h1 under CLIENTS mixed clients from h2, spread over SECONDS.
# Clients come in rounds of 100 (the last round takes the remainder):
#   normal  10 real runs (5 `rperf lat`, 5 `rperf bw`), each must succeed
#   killed   2 real runs (1 lat, 1 bw) killed with SIGKILL mid-run
#   88 cheap clients from /out/bin/soak_client, half per server: malformed
#     frames, huge lengths, wrong protocol version, deep JSON nesting, abrupt
#     resets after HELLO, idle connections, slow byte-by-byte senders
# Both servers' RSS and fd count are sampled every 5 s (/out/soak-samples.txt).
# The start figures are taken after one warm-up run per server (the first
# client loads the device, jansson, ...); the end figures after the last
# client closed. Checks: both servers alive, every normal run succeeded,
# no client found the port closed, every cheap client was answered or closed
# by the server within 8 s, RSS growth <= 1 MB, no fd leak.
# Prints the figures and "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
CLIENTS=${1:-300}
DURATION=${2:-150}
OUT=${LAB_OUT:-/tmp}
SC=/out/bin/soak_client
LPORT=18520
BPORT=18530
SRV=10.77.0.1
declare -A served failed

[ -x "$SC" ] || { echo "soak: $SC missing (soak-lab.sh copies it)"; exit 2; }

# mem_fds PID: "RSS_KB FDS" without spawning a process
mem_fds() {
	local rss=0 k v _ fds
	[ -d "/proc/$1" ] || return 1
	while read -r k v _; do
		[ "$k" = VmRSS: ] && rss=$v
	done < "/proc/$1/status"
	fds=("/proc/$1/fd/"*)
	echo "$rss ${#fds[@]}"
}

sampler() {
	local t0=$EPOCHSECONDS
	while kill -0 "$LSRV" 2> /dev/null || kill -0 "$BSRV" 2> /dev/null; do
		echo "$((EPOCHSECONDS - t0)) $(mem_fds "$LSRV" 2> /dev/null || echo "- -")" \
			"$(mem_fds "$BSRV" 2> /dev/null || echo "- -")"
		sleep 5
	done > "$OUT/soak-samples.txt"
}

# normal KIND(lat|bw): one real run that must succeed
normal() {
	local k=$1 rc
	if [ "$k" = lat ]; then
		timeout 90 rperf lat -d rxe_h2 -s 64 -n 200 -p $LPORT $SRV > /tmp/n.log 2>&1
	else
		timeout 90 rperf bw -d rxe_h2 -s 4096 -n 500 -p $BPORT $SRV > /tmp/n.log 2>&1
	fi
	rc=$?
	if [ "$rc" = 0 ]; then
		served[normal_$k]=$((${served[normal_$k]:-0} + 1))
	else
		failed[normal_$k]=$((${failed[normal_$k]:-0} + 1))
		echo "normal $k run failed (status $rc): $(tail -n 2 /tmp/n.log | tr '\n' ' ')"
	fi
}

# killed KIND: a run killed with SIGKILL 1.5 s in (a client vanishing mid-run)
killed() {
	local k=$1 pid port=$LPORT
	[ "$k" = bw ] && port=$BPORT
	rperf "$k" -d rxe_h2 -D 6 -p $port $SRV > /dev/null 2>&1 &
	pid=$!
	sleep 1.5
	kill -9 "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	served[killed_$k]=$((${served[killed_$k]:-0} + 1))
}

# cheap N: N/2 cheap clients at each server (background), output to files
cheap() {
	local n=$1 h l
	h=$((n / 2))
	l=$((n - h))
	# shares of 88: malformed 14, huge 10, version 14, deep 16, abrupt 14,
	# idle 10, slow 10
	spec() {
		local m=$1 a b d
		a=$((m * 14 / 88)) b=$((m * 10 / 88)) d=$((m * 16 / 88))
		echo "malformed:$a huge:$b version:$a deep:$d abrupt:$a idle:$b" \
			"slow:$((m - 3 * a - 2 * b - d))"
	}
	# shellcheck disable=SC2046
	"$SC" -c 16 -t 8 $SRV $LPORT lat $(spec "$l") >> /tmp/cheap-lat.txt &
	CHEAP=($!)
	# shellcheck disable=SC2046
	"$SC" -c 16 -t 8 $SRV $BPORT bw $(spec "$h") >> /tmp/cheap-bw.txt &
	CHEAP+=($!)
}

# round N: N clients (N >= 12), the real ones while the cheap ones run
round() {
	local n=$1 i
	cheap $((n - 12))
	for i in 1 2 3 4 5; do
		normal lat
		normal bw
		[ "$i" = 2 ] && killed lat
		[ "$i" = 4 ] && killed bw
	done
	wait_cheap
}
wait_cheap() {
	local p
	for p in "${CHEAP[@]}"; do wait "$p"; done
}

lab_say "soak: $CLIENTS clients over $DURATION s"
rm -f /tmp/cheap-lat.txt /tmp/cheap-bw.txt
rperf lat -d rxe_h1 --persistent -p $LPORT > /tmp/lsrv.log 2>&1 &
LSRV=$!
rperf bw -d rxe_h1 --persistent -p $BPORT > /tmp/bsrv.log 2>&1 &
BSRV=$!
sleep 1
normal lat
normal bw
read -r L0 LF0 <<< "$(mem_fds $LSRV)"
read -r B0 BF0 <<< "$(mem_fds $BSRV)"
sampler &
SAMPLER=$!
t0=$EPOCHSECONDS
left=$((CLIENTS - 2))
rounds=$(((left + 99) / 100))
r=0
while [ "$left" -gt 0 ]; do
	n=100
	[ "$left" -lt 112 ] && n=$left
	round "$n"
	left=$((left - n))
	r=$((r + 1))
	# pace the rounds over DURATION
	due=$((t0 + DURATION * r / rounds))
	[ "$EPOCHSECONDS" -lt "$due" ] && sleep $((due - EPOCHSECONDS))
	lab_say "soak: round $r/$rounds done, $left clients left, $(mem_fds $LSRV) / $(mem_fds $BSRV) (lat / bw: RSS kB, fds)"
done
sleep 2
read -r L1 LF1 <<< "$(mem_fds $LSRV 2> /dev/null || echo "- -")"
read -r B1 BF1 <<< "$(mem_fds $BSRV 2> /dev/null || echo "- -")"
elapsed=$((EPOCHSECONDS - t0))

# figures
cheap_sum() { # FILE KIND FIELD
	awk -v k="$2" -v f="$3" '$1 == k { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == f) s += a[2] } } END { print s + 0 }' "$1"
}
echo "== soak figures ($elapsed s, $CLIENTS clients)"
printf '%-10s %8s %8s\n' kind lat bw
for k in normal killed; do
	printf '%-10s %8s %8s\n' "$k" "${served[${k}_lat]:-0}" "${served[${k}_bw]:-0}"
done
# what the cheap clients got back, per server: answered in words (REFUSE or
# ERROR), closed, held (no answer within 8 s), connfail (port closed)
outcomes() { # FILE KIND
	awk -v k="$2" '$1 == k { for (i = 3; i <= NF; i++) { split($i, a, "="); s[a[1]] += a[2] } }
		END { printf "refuse %d, error %d, welcome %d, closed %d, held %d, connfail %d",
			s["refuse"], s["error"], s["welcome"], s["closed"], s["held"], s["connfail"] }' "$1"
}
for k in malformed huge version deep abrupt idle slow; do
	printf '%-10s %8s %8s\n' "$k" "$(cheap_sum /tmp/cheap-lat.txt $k clients)" \
		"$(cheap_sum /tmp/cheap-bw.txt $k clients)"
	printf '             lat: %s\n             bw:  %s\n' "$(outcomes /tmp/cheap-lat.txt $k)" \
		"$(outcomes /tmp/cheap-bw.txt $k)"
done
total=0
for k in "${!served[@]}"; do total=$((total + served[$k])); done
total=$((total + $(awk '{ split($2, a, "="); s += a[2] } END { print s + 0 }' /tmp/cheap-lat.txt /tmp/cheap-bw.txt)))
echo "clients served: $total (normal runs failed: lat ${failed[normal_lat]:-0}, bw ${failed[normal_bw]:-0})"
echo "lat server: RSS $L0 kB -> $L1 kB, fds $LF0 -> $LF1 (max RSS $(awk '{ if ($2 > m) m = $2 } END { print m + 0 }' "$OUT/soak-samples.txt") kB)"
echo "bw server:  RSS $B0 kB -> $B1 kB, fds $BF0 -> $BF1 (max RSS $(awk '{ if ($4 > m) m = $4 } END { print m + 0 }' "$OUT/soak-samples.txt") kB)"
lab_result "soak clients=$total seconds=$elapsed lat_rss_kb=$L0,$L1 lat_fds=$LF0,$LF1 bw_rss_kb=$B0,$B1 bw_fds=$BF0,$BF1"

alive() {
	echo "EXPECT both servers still running"
	echo "GOT lat $(kill -0 $LSRV 2> /dev/null && echo running || echo dead), bw $(kill -0 $BSRV 2> /dev/null && echo running || echo dead)"
	kill -0 $LSRV && kill -0 $BSRV
}
normal_ok() {
	echo "EXPECT every normal run succeeded"
	echo "GOT failed: lat ${failed[normal_lat]:-0}, bw ${failed[normal_bw]:-0}"
	[ -z "${failed[normal_lat]:-}${failed[normal_bw]:-}" ]
}
no_connfail() {
	local f
	f=$(awk '{ for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == "connfail") s += a[2] } } END { print s + 0 }' /tmp/cheap-lat.txt /tmp/cheap-bw.txt)
	echo "EXPECT no cheap client found the port closed"
	echo "GOT connfail $f"
	[ "$f" = 0 ]
}
# the handshake deadline (default 3 s) answers or closes every connection
# that has not completed its HELLO well within the clients' 8 s
none_held() {
	local h
	h=$(awk '{ for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == "held") s += a[2] } } END { print s + 0 }' /tmp/cheap-lat.txt /tmp/cheap-bw.txt)
	echo "EXPECT every cheap client answered or closed by the server within 8 s"
	echo "GOT held (no answer within 8 s) $h"
	[ "$h" = 0 ]
}
# the end figures exist only for a live server
measured() {
	case "$L1$LF1$B1$BF1" in
	*[!0-9]*)
		echo "EXPECT end figures of both servers"
		echo "GOT lat RSS $L1 kB, fds $LF1; bw RSS $B1 kB, fds $BF1 (- = server gone)"
		return 1
		;;
	esac
}
rss_bound() {
	measured || return 1
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		# ASan keeps freed memory in quarantine (up to 256 MB) and adds
		# shadow memory: RSS says nothing about leaks; LeakSanitizer's
		# report at the servers' exit does (/out/sanitizer)
		echo "SKIP: ASan build: RSS grew lat +$((L1 - L0)) kB, bw +$((B1 - B0)) kB (quarantine and shadow); leaks are LeakSanitizer's verdict at exit"
		return 77
	fi
	lab_expect_range "lat server RSS growth (kB)" "$((L1 - L0))" -100000 1024 &&
		lab_expect_range "bw server RSS growth (kB)" "$((B1 - B0))" -100000 1024
}
fds_bound() {
	measured || return 1
	lab_expect_range "lat server fds at the end (start $LF0)" "$LF1" 0 "$LF0" &&
		lab_expect_range "bw server fds at the end (start $BF0)" "$BF1" 0 "$BF0"
}
check "soak: both servers alive" alive
check "soak: every normal run succeeded" normal_ok
check "soak: the servers kept listening" no_connfail
check "soak: no client left waiting (handshake deadline)" none_held
check "soak: RSS growth <= 1 MB" rss_bound
check "soak: no fd leak" fds_bound
kill $LSRV $BSRV 2> /dev/null
wait $SAMPLER 2> /dev/null
sed 's/^/  [lat srv] /' /tmp/lsrv.log | tail -n 5
sed 's/^/  [bw srv] /' /tmp/bsrv.log | tail -n 5
lab_summary
