#!/bin/bash
# bw.sh - rperf bw (the bandwidth-sensitive generator) between lab hosts:
#   rxe-lab run --hosts 2 tests/lab/suites/bw.sh
# Server on h1 (rxe_h1, 10.77.0.1), client on h2; every run must cross the
# switch (bridge port counters). Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
T=120 # per-run timeout, seconds
OUT=${LAB_OUT:-/tmp}

# bw_pair JSON [CLIENT ARGS...]: server on h1, client on h2 -> JSON file
bw_pair() {
	local json=$1 r rs spid
	shift
	rm -f "$json"
	timeout "$T" rperf bw -d rxe_h1 > /tmp/bsrv.log 2>&1 &
	spid=$!
	timeout "$T" rperf bw -d rxe_h2 --out_json_file "$json" "$@" 10.77.0.1 > /tmp/bcli.log 2>&1
	r=$?
	wait "$spid"
	rs=$?
	sed 's/^/  [cli] /' /tmp/bcli.log
	sed 's/^/  [srv] /' /tmp/bsrv.log
	echo "  -> rperf bw h2->h1 $*: client status $r, server status $rs"
	[ "$r" = 0 ] && return "$rs"
	return "$r"
}
jget() { jq -r "$2" "$1"; }

# verb_size VERB SIZE N: crosses the switch; the contract keys; counts
verb_size() {
	local verb=$1 size=$2 n=$3 j=$OUT/bw-$1-$2.json i bad=0
	lab_assert_crossed "$n" bw_pair "$j" --verb "$verb" -s "$size" -n "$n" || return 1
	jq -e '.results[0] | has("verb") and has("size") and has("messages") and has("bytes") and has("seconds") and has("gbps") and has("mpps") and has("receiver")' "$j" > /dev/null ||
		{ echo "GOT a result without the contract keys"; return 1; }
	lab_result "rperf_bw verb=$verb size=$size $(jq -r '.results[0] | "messages=\(.messages) bytes=\(.bytes) seconds=\(.seconds) gbps=\(.gbps) mpps=\(.mpps) line_rate_pct=\(.line_rate_pct) wire_efficiency=\(.wire_efficiency) cpu_pct=\(.cpu_pct) rx_messages=\(.receiver.messages // "null") rx_bytes=\(.receiver.bytes // "null") rx_gbps=\(.receiver.gbps // "null")"' "$j")"
	echo "EXPECT verb $verb, size $size, messages $n, bytes $((n * size))"
	echo "GOT verb $(jget "$j" '.results[0].verb'), size $(jget "$j" '.results[0].size'), messages $(jget "$j" '.results[0].messages'), bytes $(jget "$j" '.results[0].bytes')"
	[ "$(jget "$j" '.results[0].verb')" = "$verb" ] && [ "$(jget "$j" '.results[0].messages')" = "$n" ] &&
		[ "$(jget "$j" '.results[0].bytes')" = "$((n * size))" ] || return 1
	if [ "$verb" = write ]; then
		echo "EXPECT receiver null and a receiver_note"
		echo "GOT receiver $(jget "$j" '.results[0].receiver'), note: $(jget "$j" '.results[0].receiver_note')"
		[ "$(jget "$j" '.results[0].receiver')" = null ] && [ "$(jget "$j" '.results[0].receiver_note')" != null ]
		return
	fi
	echo "EXPECT receiver messages = sender messages ($n), receiver bytes = sender bytes ($((n * size)))"
	echo "GOT receiver messages $(jget "$j" '.results[0].receiver.messages'), bytes $(jget "$j" '.results[0].receiver.bytes')"
	[ "$(jget "$j" '.results[0].receiver.messages')" = "$n" ] && [ "$(jget "$j" '.results[0].receiver.bytes')" = "$((n * size))" ]
}
send_64() { verb_size send 64 4000; }
send_4k() { verb_size send 4096 1000; }
send_64k() { verb_size send 65536 200; }
write_64() { verb_size write 64 4000; }
write_4k() { verb_size write 4096 1000; }
write_64k() { verb_size write 65536 200; }
imm_64() { verb_size write_imm 64 4000; }
imm_4k() { verb_size write_imm 4096 1000; }
imm_64k() { verb_size write_imm 65536 200; }

# post lists, several QPs, events, all sizes in one run: counts still agree
mixed() {
	local j=$OUT/bw-mixed.json
	lab_assert_crossed 3000 bw_pair "$j" --verb write_imm --sizes 64,4096 -n 500 -q 3 -l 8 -Q 16 -e || return 1
	jq -c '.results[] | {size, messages, rx: .receiver.messages, bytes, rxb: .receiver.bytes}' "$j"
	echo "EXPECT 2 results, each 1500 messages (3 QPs x 500), receiver = sender"
	echo "GOT $(jq -c '[.results[] | [.messages, .receiver.messages, .bytes, .receiver.bytes]]' "$j")"
	jq -e '(.results | length) == 2 and all(.results[]; .messages == 1500 and .receiver.messages == .messages and .receiver.bytes == .bytes)' "$j" > /dev/null
}

# -b: both directions at once on the same QPs (the server generates too);
# each side counts what it receives, and both directions' counts agree
bidir() {
	local verb=$1 size=4096 n=1000 j=$OUT/bw-bidir-$1.json
	lab_assert_crossed $((2 * n)) bw_pair "$j" -b --verb "$verb" -s "$size" -n "$n" || return 1
	lab_result "rperf_bw_bidir verb=$verb size=$size $(jq -r '.results[0] | "messages=\(.messages) rx_messages=\(.receiver.messages) gbps=\(.gbps) rx_gbps=\(.receiver.gbps) reverse_messages=\(.reverse.messages) reverse_rx_messages=\(.reverse.receiver.messages) reverse_gbps=\(.reverse.gbps) reverse_rx_gbps=\(.reverse.receiver.gbps)"' "$j")"
	echo "EXPECT client->server: $n messages, receiver = sender; server->client (reverse, same keys): $n messages, receiver = sender, bytes $((n * size))"
	echo "GOT $(jq -c '.results[0] | {messages, bytes, rx: .receiver.messages, rxb: .receiver.bytes, reverse: (.reverse | {messages, bytes, rx: .receiver.messages, rxb: .receiver.bytes})}' "$j")"
	jq -e --argjson n "$n" --argjson b "$((n * size))" '.results[0] |
		(.reverse | has("verb") and has("size") and has("messages") and has("bytes") and has("seconds") and has("gbps") and has("mpps") and has("receiver")) and
		.messages == $n and .bytes == $b and .receiver.messages == .messages and .receiver.bytes == .bytes and
		.reverse.verb == .verb and .reverse.size == .size and
		.reverse.messages == $n and .reverse.bytes == $b and
		.reverse.receiver.messages == .reverse.messages and .reverse.receiver.bytes == .reverse.bytes' "$j" > /dev/null
}
bidir_send() { bidir send; }
bidir_imm() { bidir write_imm; }

# rate limit: 10 Mb/s held within 5 % over 10 s, after an unlimited run
# offered at least 3x that
rate_limit() {
	local u=$OUT/bw-unlimited.json l=$OUT/bw-limited.json ug lg
	bw_pair "$u" -s 65536 -D 3 -e > /dev/null || { echo "GOT unlimited run failed"; return 1; }
	ug=$(jget "$u" '.results[0].gbps')
	lab_expect_ge "unlimited Gb/s (3 x 0.01)" "$ug" 0.03 || return 1
	lab_assert_crossed 100 bw_pair "$l" -s 65536 -D 10 -e --rate_limit 0.01 --rate_units g || return 1
	lg=$(jget "$l" '.results[0].gbps')
	lab_result "rate_limit limit_gbps=0.01 unlimited_gbps=$ug limited_gbps=$lg limited_rx_gbps=$(jget "$l" '.results[0].receiver.gbps') seconds=$(jget "$l" '.results[0].seconds') offered_gbps=$(jget "$l" '.results[0].rate_limit.offered_gbps')"
	lab_expect_range "limited Gb/s over $(jget "$l" '.results[0].seconds') s" "$lg" 0.0095 0.0105
}

# --interval --jsonl: every stdout line is JSON (jq), intervals and a total
jsonl() {
	local n bad
	timeout "$T" rperf bw -d rxe_h1 > /tmp/bsrv.log 2>&1 &
	local spid=$!
	timeout "$T" rperf bw -d rxe_h2 -s 4096 -D 3 --interval 0.5 --jsonl 10.77.0.1 > /tmp/jl.out 2> /tmp/jl.err
	local r=$?
	wait "$spid"
	head -3 /tmp/jl.out
	n=$(wc -l < /tmp/jl.out)
	bad=$(while IFS= read -r line; do printf '%s\n' "$line" | jq -e 'type == "object"' > /dev/null 2>&1 || echo x; done < /tmp/jl.out | wc -l)
	echo "EXPECT exit 0, >= 5 lines, each valid JSON; 'interval' lines and one 'total'"
	echo "GOT exit $r, $n lines, $bad invalid, $(jq -s -c '[.[].type] | group_by(.) | map({(.[0]): length}) | add' /tmp/jl.out 2>/dev/null)"
	[ "$r" = 0 ] && [ "$n" -ge 5 ] && [ "$bad" = 0 ] &&
		jq -s -e '(map(select(.type == "interval")) | length) >= 4 and (map(select(.type == "total")) | length) == 1' /tmp/jl.out > /dev/null
}

# SIGINT during --run_infinitely: a final report, exit 0; the receiver
# counted every message the sender saw completed (the sender's agent is
# sent HALT, the receiver's STOP only after the sender FINISHED).
# sigint [SIZE [CLIENT ARGS...]]: 4096 B by default
sigint() {
	local size=${1:-4096} j=$OUT/bw-inf${1:+-$1}.json cpid r
	[ $# = 0 ] || shift
	rm -f "$j"
	timeout "$T" rperf bw -d rxe_h1 > /tmp/bsrv.log 2>&1 &
	local spid=$!
	timeout "$T" rperf bw -d rxe_h2 -s "$size" "$@" --run_infinitely --interval 1 --out_json_file "$j" 10.77.0.1 > /tmp/inf.out 2> /tmp/inf.err &
	cpid=$!
	sleep 3
	kill -INT "$cpid"
	wait "$cpid"
	r=$?
	wait "$spid"
	cat /tmp/inf.out /tmp/inf.err
	echo "EXPECT exit 0, a final report (text and JSON) with messages > 0, receiver = sender"
	echo "GOT exit $r, messages $(jget "$j" '.results[0].messages'), receiver $(jget "$j" '.results[0].receiver.messages'), partial $(jget "$j" .partial)"
	[ "$r" = 0 ] && grep -q "rx_messages" /tmp/inf.out && [ "$(jget "$j" '.results[0].messages')" -gt 0 ] &&
		[ "$(jget "$j" '.results[0].receiver.messages')" = "$(jget "$j" '.results[0].messages')" ]
}

# expect_exit STATUS PATTERN CMD...: exit status and a one-line error
expect_exit() {
	local want=$1 pat=$2 rc n
	shift 2
	"$@" > /tmp/ee.out 2> /tmp/ee.err
	rc=$?
	n=$(wc -l < /tmp/ee.err)
	echo "EXPECT exit $want, one stderr line matching '$pat'"
	echo "GOT exit $rc, $n line(s): $(head -c 300 /tmp/ee.err)"
	[ "$rc" = "$want" ] && [ "$n" = 1 ] && grep -q -- "$pat" /tmp/ee.err
}
max_qp_wr=$(ibv_devinfo -v -d rxe_h2 2>/dev/null | awk '$1 == "max_qp_wr:" { print $2; exit }')
max_cqe=$(ibv_devinfo -v -d rxe_h2 2>/dev/null | awk '$1 == "max_cqe:" { print $2; exit }')
too_deep() {
	echo "INFO rxe_h2: max_qp_wr $max_qp_wr, max_cqe $max_cqe"
	expect_exit 2 "tx-depth: $((max_qp_wr + 1)) is above what rxe_h2 allows; accepted: at most $max_cqe (max_qp_wr $max_qp_wr, max_cqe $max_cqe)" \
		rperf bw -d rxe_h2 -t $((max_qp_wr + 1)) 10.77.0.1 || return 1
	expect_exit 2 "tx-depth: $((max_cqe + 1)) is above what rxe_h2 allows; accepted: at most $max_cqe (max_qp_wr $max_qp_wr" \
		rperf bw -d rxe_h2 -t $((max_cqe + 1)) 10.77.0.1
}
# A size above every rperf server's 16 MiB: refused by the client before
# connecting (exit 2, one line); the server serves the next client, then
# ends (no --persistent) with status 0.
refused() {
	timeout 60 rperf bw -d rxe_h1 > /tmp/bsrv.log 2>&1 &
	local spid=$! rs r r2
	expect_exit 2 "above the largest message an rperf server accepts" rperf bw -d rxe_h2 -s 32M 10.77.0.1
	r=$?
	timeout 60 rperf bw -d rxe_h2 -s 4096 -n 100 10.77.0.1 > /tmp/bcli2.log 2>&1
	r2=$?
	wait "$spid"
	rs=$?
	echo "EXPECT then a 4096 B client served (exit 0), the server exits 0 after it"
	echo "GOT client $r2, server $rs: $(tr '\n' ' ' < /tmp/bsrv.log | head -c 300)"
	[ "$r" = 0 ] && [ "$r2" = 0 ] && [ "$rs" = 0 ]
}
over_line() {
	bw_pair "$OUT/bw-over.json" -s 4096 -n 100 --rate_limit 100 --rate_units g > /dev/null
	local r=$?
	echo "EXPECT exit 0 and a warning that 100 Gb/s is above the line rate"
	echo "GOT exit $r, warnings: $(jq -c .warnings "$OUT/bw-over.json")"
	[ "$r" = 0 ] && jq -e '.warnings | any(test("above the line rate"))' "$OUT/bw-over.json" > /dev/null
}

check "send 64 B h2->h1: crosses, receiver = sender"           send_64
check "send 4096 B: receiver = sender"                          send_4k
check "send 65536 B: receiver = sender"                         send_64k
check "write 64 B: receiver null + receiver_note"               write_64
check "write 4096 B"                                            write_4k
check "write 65536 B"                                           write_64k
check "write_imm 64 B: receiver = sender"                       imm_64
check "write_imm 4096 B: receiver = sender"                     imm_4k
check "write_imm 65536 B: receiver = sender"                    imm_64k
check "3 QPs, post list 8, events, 2 sizes: counts agree"       mixed
check "-b send 4096 B: both directions, counts agree"           bidir_send
check "-b write_imm 4096 B: both directions, counts agree"      bidir_imm
check "rate limit 10 Mb/s within 5 % over 10 s"                 rate_limit
check "--interval --jsonl: valid JSON lines"                    jsonl
check "SIGINT during --run_infinitely: final report, exit 0"    sigint
# 64 MiB in flight at SIGINT (about 2.6 s at this lab's ~25 MB/s): a
# receiver stopped with the sender could not have counted them
check "SIGINT, 1 MiB x 64 in flight: receiver = sender"          sigint 1048576 -t 64
check "tx depth above max_qp_wr: exit 2 naming the maximum"     too_deep
check "size above the server's limit: refused before connecting, server serves on" refused
check "rate limit above line rate: warning"                     over_line
lab_summary
