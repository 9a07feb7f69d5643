# shellcheck shell=bash
# lab-lib.sh - helpers for scripts running inside the rperf Soft-RoCE lab VM.
# Loaded automatically for scripts run by `rxe-lab run` (BASH_ENV); sourcing
# it again is harmless:  . /usr/lib/rperf-lab/lab-lib.sh
#
# Topology (created before the script starts; names are a contract):
#   host I: netdev hI (10.77.0.I, init_net) with Soft-RoCE device rxe_hI;
#   switch: bridge br0 in network namespace "sw", port hI-sw = peer of hI.
#   --direct: h1 <-> h2 are the two ends of one veth pair, no sw namespace.
# Under TCG every process spawn costs 30-50 ms: the helpers use bash
# builtins, tc/ip/rdma -batch and one grep where a loop would spawn a lot.
[ -n "${LAB_LIB_LOADED:-}" ] && return 0
LAB_LIB_LOADED=1
LAB_OUT=${LAB_OUT:-/out}
LAB_CLI_LOG=/tmp/lab-cli.log    # client output of the last lab_pair
LAB_SRV_LOG=/tmp/lab-srv.log    # server output of the last lab_pair

# ------------------------------------------------------------------ basics
lab_up() { local u _; read -r u _ < /proc/uptime; printf '%s\n' "$u"; }
_lab_us() { local t=${1:-$EPOCHREALTIME}; t=${t/./}; printf '%s\n' "$((10#$t))"; }
# lab_since T0 (an $EPOCHREALTIME value): seconds elapsed, 2 decimals
lab_since() {
	local d=$(( $(_lab_us) - $(_lab_us "$1") ))
	printf '%d.%02d\n' $((d / 1000000)) $((d % 1000000 / 10000))
}
lab_say() { printf '### [%s] %s\n' "$(lab_up)" "$*"; }
lab_err() { printf '%s\n' "$*" >&2; }

# _lab_host ARG -> host number (accepts "h3", "3", "rxe_h3")
_lab_host() {
	local h=${1#rxe_}
	h=${h#h}
	case $h in '' | *[!0-9]*) lab_err "not a lab host: '$1' (use h1..h${LAB_HOSTS:-N})"; return 1 ;; esac
	if [ ! -d "/sys/class/net/h$h" ]; then
		lab_err "no host h$h in this lab (hosts: h1..h${LAB_HOSTS:-?})"
		return 1
	fi
	printf '%s\n' "$h"
}
lab_is_direct() { [ ! -e /run/netns/sw ]; }
# _lab_need_switch FUNC: fail clearly when there is no switch (--direct)
_lab_need_switch() {
	if lab_is_direct; then
		lab_err "$1: no switch in --direct mode (h1 and h2 are joined by one veth pair; no namespace 'sw')"
		return 1
	fi
}
_lab_mac() { printf '02:77:00:00:%02x:%02x' "$1" "$2"; }  # _lab_mac SIDE HOST

# lab_gid_idx DEV IPV4: index of DEV's RoCE v2 GID for IPV4 (one grep)
lab_gid_idx() {
	local dev=$1 want f i t
	# shellcheck disable=SC2086
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${2//./ })
	# shellcheck disable=SC2013 # file names without blanks
	for f in $(grep -l -x "$want" /sys/class/infiniband/"$dev"/ports/1/gids/* 2>/dev/null); do
		i=${f##*/}
		read -r t < "/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		if [ "$t" = "RoCE v2" ]; then
			printf '%s\n' "$i"
			return 0
		fi
	done
	return 1
}
# lab_host_gid HOST: GID index of rxe_hI for 10.77.0.I
lab_host_gid() {
	local h
	h=$(_lab_host "$1") || return 1
	lab_gid_idx "rxe_h$h" "10.77.0.$h"
}
lab_list_hosts() {
	local h s=
	for ((h = 1; h <= ${LAB_HOSTS:-2}; h++)); do s+="h$h=rxe_h$h/10.77.0.$h "; done
	printf '%s\n' "${s% }"
}

# --------------------------------------------------------------- topology
# rdma_rxe (Debian 6.1 and 6.12) opens its UDP socket and routes only in the
# initial netns, and its devices cannot move between namespaces. So all
# rxe_hI live in init_net on veth hI, and policy routing makes traffic between
# these local addresses leave through the veth instead of lo:
#  - the 'local' rule moves from priority 0 to 1000;
#  - rule 100+I: output from 10.77.0.I (iif lo) uses table 100+I, which holds
#    /32 routes to the other hosts out of hI;
#  - accept_local=1, rp_filter=0: a packet with a local source address is
#    accepted when it comes in on the other veth;
#  - static neighbours (fixed MACs): no ARP between the hosts, and static
#    bridge forwarding entries: no flooding while the bridge learns;
#  - no IPv6 on the veths: no ND/MLD noise in the port counters.
_lab_sysctls() {
	sysctl -qw net.ipv4.conf.all.accept_local=1 net.ipv4.conf.default.accept_local=1 \
		net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		net.ipv6.conf.default.disable_ipv6=1 net.ipv4.conf.all.arp_ignore=1
}
_lab_routes() {  # _lab_routes N: batch lines for addresses, routes, rules, neighbours
	local n=$1 i j
	for ((i = 1; i <= n; i++)); do
		echo "addr add 10.77.0.$i/24 dev h$i"
		echo "link set h$i up"
	done
	echo "rule add pref 1000 lookup local"
	echo "rule del pref 0 lookup local"
	for ((i = 1; i <= n; i++)); do
		for ((j = 1; j <= n; j++)); do
			[ "$i" = "$j" ] && continue
			echo "route add 10.77.0.$j/32 dev h$i src 10.77.0.$i table $((100 + i))"
			echo "neigh replace 10.77.0.$j lladdr $(_lab_mac 0 "$j") dev h$i nud permanent"
		done
		echo "rule add pref $((100 + i)) iif lo from 10.77.0.$i lookup $((100 + i))"
	done
}
_lab_rxe() {  # _lab_rxe N: create rxe_h1..N and wait for their RoCE v2 GIDs
	local n=$1 i k
	for ((i = 1; i <= n; i++)); do echo "link add rxe_h$i type rxe netdev h$i"; done |
		rdma -b - || return 1
	for ((i = 1; i <= n; i++)); do  # the GID table fills asynchronously
		for ((k = 0; k < 100; k++)); do
			lab_gid_idx "rxe_h$i" "10.77.0.$i" > /dev/null && break
			sleep 0.1
		done
		[ "$k" -lt 100 ] || { lab_err "rxe_h$i: no RoCE v2 GID for 10.77.0.$i"; return 1; }
	done
}
# lab_mk_hosts N: hosts h1..hN behind bridge br0 in namespace sw
lab_mk_hosts() {
	local n=$1 i
	_lab_sysctls || return 1
	ip netns add sw || return 1
	ip netns exec sw sysctl -qw net.ipv6.conf.default.disable_ipv6=1 net.ipv6.conf.all.disable_ipv6=1
	for ((i = 1; i <= n; i++)); do
		echo "link add h$i address $(_lab_mac 0 "$i") type veth peer name h$i-sw address $(_lab_mac 1 "$i") netns sw"
	done | ip -batch - || return 1
	{
		echo "link set lo up"
		echo "link add br0 type bridge stp_state 0 forward_delay 0"
		echo "link set br0 up"
		for ((i = 1; i <= n; i++)); do
			echo "link set h$i-sw master br0"
			echo "link set h$i-sw up"
		done
	} | ip -n sw -batch - || return 1
	# static forwarding entries: the bridge never floods unicast to all ports
	# while it learns, so port counters only move on the ports in use
	for ((i = 1; i <= n; i++)); do
		echo "fdb replace $(_lab_mac 0 "$i") dev h$i-sw master static"
	done | bridge -n sw -batch - || return 1
	_lab_routes "$n" | ip -batch - || return 1
	_lab_rxe "$n"
}
# lab_mk_direct: h1 <-> h2 on one veth pair (back-to-back baseline)
lab_mk_direct() {
	_lab_sysctls || return 1
	ip link add h1 address "$(_lab_mac 0 1)" type veth peer name h2 address "$(_lab_mac 0 2)" || return 1
	_lab_routes 2 | ip -batch - || return 1
	_lab_rxe 2
}

# ---------------------------------------------------------- switch ports
# _lab_port HOST -> "hI-sw" (the switch port facing host I)
_lab_port() {
	local h
	_lab_need_switch "${FUNCNAME[1]:-lab}" || return 1
	h=$(_lab_host "$1") || return 1
	printf 'h%s-sw\n' "$h"
}
lab_sw() { ip netns exec sw "$@"; }           # run a command in the switch
lab_port_reset() {                            # back to the default qdisc
	local p
	p=$(_lab_port "$1") || return 1
	tc -n sw qdisc del dev "$p" root 2> /dev/null
	return 0
}
# lab_delay HOST DELAY [NETEM ARGS...]: delay everything the switch sends to
# HOST (egress of hI-sw), e.g. lab_delay h1 2ms, lab_delay h1 1ms 100us
lab_delay() {
	local p
	p=$(_lab_port "$1") || return 1
	shift
	[ $# -ge 1 ] || { lab_err "usage: lab_delay HOST DELAY [netem args]"; return 1; }
	tc -n sw qdisc replace dev "$p" root netem delay "$@" limit 100000
}
lab_delay_clear() { lab_port_reset "$1"; }
# lab_mk_cable: a direct link in the same boot, for back-to-back baselines:
# veth pair c1 (10.77.1.1, rxe_c1) <-> c2 (10.77.1.2, rxe_c2), no switch;
# policy routing as for the hosts (after lab_mk_hosts).
lab_mk_cable() {
	local i k
	ip link add c1 address 02:77:00:02:00:01 type veth peer name c2 address 02:77:00:02:00:02 || return 1
	{
		for i in 1 2; do
			k=$((3 - i))
			echo "addr add 10.77.1.$i/24 dev c$i"
			echo "link set c$i up"
			echo "route add 10.77.1.$k/32 dev c$i src 10.77.1.$i table $((200 + i))"
			echo "neigh replace 10.77.1.$k lladdr 02:77:00:02:00:0$k dev c$i nud permanent"
			echo "rule add pref $((200 + i)) iif lo from 10.77.1.$i lookup $((200 + i))"
		done
	} | ip -batch - || return 1
	printf 'link add rxe_c%s type rxe netdev c%s\n' 1 1 2 2 | rdma -b - || return 1
	for i in 1 2; do
		for ((k = 0; k < 100; k++)); do
			lab_gid_idx "rxe_c$i" "10.77.1.$i" > /dev/null && break
			sleep 0.1
		done
		[ "$k" -lt 100 ] || { lab_err "rxe_c$i: no RoCE v2 GID for 10.77.1.$i"; return 1; }
	done
}
# lab_rate HOST RATE [LIMIT]: shape the port towards HOST to RATE (tbf: one
# FIFO); LIMIT (bytes, default 8mb) is large so that nothing is dropped (RoCE
# expects a lossless fabric; a drop costs an RC retransmission timeout).
lab_rate() {
	local p
	p=$(_lab_port "$1") || return 1
	[ -n "${2:-}" ] || { lab_err "usage: lab_rate HOST RATE [LIMIT]"; return 1; }
	tc -n sw qdisc replace dev "$p" root tbf rate "$2" burst 16kb limit "${3:-8mb}"
}
# lab_fifo HOST [RATE]: a single shared FIFO (FCFS switch), shaped if RATE
lab_fifo() {
	local p
	p=$(_lab_port "$1") || return 1
	if [ -n "${2:-}" ]; then
		lab_rate "$1" "$2"
	else
		tc -n sw qdisc replace dev "$p" root pfifo limit 10000
	fi
}
# lab_prio HOST [--rate RATE] TCLASS...: strict-priority lane on the port
# towards HOST. Band 1 (class 10:1) gets the IP TOS of the given traffic
# classes (the GRH traffic class is the TOS byte; matched on the DSCP bits),
# band 2 (10:2) everything else. With --rate the two bands sit under a tbf
# shaper (root 1:, as run-qos.sh's lane), so the lane only matters when the
# port is congested; not htb: behind htb a lane packet waited for the token
# debt of the packet sent before it (tests/lab/README.md).
lab_prio() {
	local host=$1 p rate='' tcl parent=root
	p=$(_lab_port "$host") || return 1
	shift
	if [ "${1:-}" = --rate ]; then rate=$2; shift 2; fi
	[ $# -ge 1 ] || { lab_err "usage: lab_prio HOST [--rate RATE] TCLASS..."; return 1; }
	tc -n sw qdisc del dev "$p" root 2> /dev/null
	{
		if [ -n "$rate" ]; then
			echo "qdisc add dev $p root handle 1: tbf rate $rate burst 16kb limit 8mb"
			parent="parent 1:1"
		fi
		echo "qdisc add dev $p $parent handle 10: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
		echo "qdisc add dev $p parent 10:1 handle 11: pfifo limit 10000"
		echo "qdisc add dev $p parent 10:2 handle 12: pfifo limit 10000"
		for tcl in "$@"; do
			printf 'filter add dev %s parent 10: protocol ip prio 1 u32 match ip tos 0x%02x 0xfc flowid 10:1\n' \
				"$p" $((tcl & 0xfc))
		done
	} | tc -n sw -batch -
}
# lab_wrr HOST RATE [--ets] TCLASS:WEIGHT... : weighted classes on the port
# towards HOST under a tbf shaper of RATE (the RoCE/ETS analog of InfiniBand
# VL arbitration weights): drr (or, with --ets, an ets qdisc of bands
# without strict ones) with one class per TCLASS, quantum WEIGHT x 1514 B,
# and a last class, weight 1, for everything else. Both backlogged, class i
# gets WEIGHT_i / sum of the weights of the port. Stats: lab_wrr_bytes.
lab_wrr() {
	local host=$1 rate=$2 p ets='' tw i=1 q=() tcl w
	p=$(_lab_port "$host") || return 1
	shift 2
	if [ "${1:-}" = --ets ]; then ets=1; shift; fi
	if [ -z "$rate" ] || [ $# -lt 1 ]; then
		lab_err "usage: lab_wrr HOST RATE [--ets] TCLASS:WEIGHT..."
		return 1
	fi
	for tw in "$@"; do
		w=${tw#*:}
		case $w in '' | *[!0-9]* | 0) lab_err "lab_wrr: weight '$w' of ${tw%%:*}: a whole number >= 1"; return 1 ;; esac
		q+=("$((w * 1514))")
	done
	q+=(1514)
	tc -n sw qdisc del dev "$p" root 2> /dev/null
	{
		echo "qdisc add dev $p root handle 1: tbf rate $rate burst 16kb limit 8mb"
		if [ -n "$ets" ]; then
			echo "qdisc add dev $p parent 1:1 handle 10: ets bands ${#q[@]} quanta ${q[*]} priomap $(printf "$((${#q[@]} - 1)) %.0s" {1..16})"
		else
			echo "qdisc add dev $p parent 1:1 handle 10: drr"
		fi
		for ((i = 1; i <= ${#q[@]}; i++)); do
			[ -z "$ets" ] && echo "class add dev $p parent 10: classid 10:$i drr quantum ${q[i - 1]}"
			echo "qdisc add dev $p parent 10:$i handle $((10 + i)): pfifo limit 10000"
		done
		i=1
		for tw in "$@"; do
			tcl=${tw%%:*}
			printf 'filter add dev %s parent 10: protocol ip prio 1 u32 match ip tos 0x%02x 0xfc flowid 10:%d\n' \
				"$p" $((tcl & 0xfc)) "$i"
			i=$((i + 1))
		done
		[ -z "$ets" ] && echo "filter add dev $p parent 10: protocol all prio 2 matchall flowid 10:$i"
	} | tc -n sw -batch -
}
# lab_wrr_bytes HOST CLASS: bytes sent by class 10:CLASS of lab_wrr's qdisc
lab_wrr_bytes() {
	local p
	p=$(_lab_port "$1") || return 1
	tc -n sw -s class show dev "$p" | awk -v c="10:$2" '
		$1 == "class" && ($2 == "drr" || $2 == "ets") { f = ($3 == c) }
		f && $1 == "Sent" { print $2; exit }'
}
# lab_example_sets: LAB_SETS=(--set K=V ...), one per line of the lab
# profile of the examples in the image (examples/lab-sets.txt), read with a
# plain redirection (the VM's initramfs has no /dev/fd for <(...))
lab_example_sets() {
	local kv f=/usr/share/rperf/examples/lab-sets.txt
	LAB_SETS=()
	[ -r "$f" ] || return 1
	while read -r kv; do
		case $kv in [a-z]*) LAB_SETS+=(--set "$kv") ;; esac
	done < "$f"
}
# lab_prio_stats HOST -> "band1_pkts=N band1_drops=N band2_pkts=N band2_drops=N"
lab_prio_stats() {
	local p
	p=$(_lab_port "$1") || return 1
	tc -n sw -s class show dev "$p" | awk '
		$1 == "class" && $2 == "prio" { split($3, c, ":"); b = c[2] }
		$1 == "Sent" && b != "" { pk[b] = $4; d = $7; sub(",", "", d); dr[b] = d; b = "" }
		END { printf "band1_pkts=%d band1_drops=%d band2_pkts=%d band2_drops=%d\n",
			pk[1], dr[1], pk[2], dr[2] }'
}
# lab_band_pkts HOST BAND -> packets sent by that band of lab_prio
lab_band_pkts() {
	local s
	s=$(lab_prio_stats "$1") || return 1
	s=${s#*band"$2"_pkts=}
	printf '%s\n' "${s%% *}"
}

# --------------------------------------------------------------- counters
# lab_counters: one line per port: "PORT rx_pkts tx_pkts rx_bytes tx_bytes"
# (switch ports hI-sw; host netdevs hI in --direct mode). rx = from the host.
lab_counters() {
	# shellcheck disable=SC2016 # expanded by the shell that runs it
	local cmd='cd /sys/class/net && for p in h*; do case $p in *-sw|h[0-9]*) read a < $p/statistics/rx_packets; read b < $p/statistics/tx_packets; read c < $p/statistics/rx_bytes; read d < $p/statistics/tx_bytes; echo "$p $a $b $c $d";; esac; done'
	if lab_is_direct; then
		(eval "$cmd")
	else
		ip netns exec sw sh -c "$cmd"
	fi
}
_lab_port_stat() {  # _lab_port_stat HOST rx|tx [packets|bytes]
	local p
	p=$(_lab_port "$1") || return 1
	ip netns exec sw cat "/sys/class/net/$p/statistics/$2_${3:-packets}"
}
lab_port_rx() { _lab_port_stat "$1" rx "${2:-packets}"; }  # switch received from HOST
lab_port_tx() { _lab_port_stat "$1" tx "${2:-packets}"; }  # switch sent to HOST
_lab_rx_total() { lab_counters | awk '{ s += $2 } END { print s + 0 }'; }
# lab_assert_crossed MIN CMD...: run CMD; it must succeed and at least MIN
# packets must enter the switch meanwhile (--direct: cross the veth pair)
lab_assert_crossed() {
	local min=$1 a b rc where=switch
	shift
	lab_is_direct && where="veth pair"
	a=$(lab_counters)
	"$@"
	rc=$?
	b=$(lab_counters)
	local n
	n=$(printf '%s\n%s\n' "$a" "$b" | awk '
		{ if ($1 in rx) { d[$1] = $2 - rx[$1]; t += d[$1] } else { rx[$1] = $2; o[++k] = $1 } }
		END { s = ""; for (i = 1; i <= k; i++) s = s " " o[i] "+" d[o[i]]; print t + 0, s }')
	echo "INFO packets into the $where during '$*': ${n%% *} (per port:${n#* })"
	echo "EXPECT >= $min packets through the $where, command status 0"
	echo "GOT ${n%% *} packets, command status $rc"
	[ "$rc" = 0 ] && [ "${n%% *}" -ge "$min" ]
}

# ------------------------------------------------------------ agents
# The lab's pre-shared key (issue 19: rperf run/agent talk TLS 1.3
# authenticated by it): every suite passes --key-file "$LAB_KEY" to
# `rperf run`; lab_agents_start to every agent unless its ARGS choose
# (--key-file, --cert or --insecure).
LAB_KEY=/tmp/lab.key
lab_key() {
	[ -s "$LAB_KEY" ] && return 0
	(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$LAB_KEY" && echo >> "$LAB_KEY")
}
lab_key
# lab_agents_start N [AGENT ARGS...]: `rperf agent --bind 10.77.0.I
# --key-file $LAB_KEY` on h1..hN (logs /tmp/agent-hI.log), until all N
# listen on tcp/18521 (15 s)
lab_agents_start() {
	local n=$1 i k auth=(--key-file "$LAB_KEY")
	shift
	case " $* " in *" --key-file "* | *" --cert "* | *" --insecure "*) auth=() ;; esac
	for ((i = 1; i <= n; i++)); do
		rperf agent --bind "10.77.0.$i" "${auth[@]}" "$@" > "/tmp/agent-h$i.log" 2>&1 &
		echo $! > "/tmp/agent-h$i.pid"
	done
	for ((k = 0; k < 150; k++)); do
		[ "$(ss -Hltn 'sport = :18521' | wc -l)" -ge "$n" ] && return 0
		sleep 0.1
	done
	echo "GOT agents not listening on tcp/18521 after 15 s: $(ss -Hltn 'sport = :18521' | tr '\n' ' ')"
	for ((i = 1; i <= n; i++)); do echo "INFO agent h$i log: $(tr '\n' '|' < "/tmp/agent-h$i.log")"; done
	return 1
}
# lab_agent_stop I [SIGNAL]: stop the agent of hI (default TERM), reap it
lab_agent_stop() {
	local p
	[ -e "/tmp/agent-h$1.pid" ] || return 0
	read -r p < "/tmp/agent-h$1.pid"
	kill "-${2:-TERM}" "$p" 2> /dev/null
	wait "$p" 2> /dev/null
	rm -f "/tmp/agent-h$1.pid"
}
# lab_agent_signal I SIGNAL: send SIGNAL to hI's agent, no reaping (STOP, CONT)
lab_agent_signal() {
	local p
	read -r p < "/tmp/agent-h$1.pid" && kill "-$2" "$p"
}
lab_agents_stop() {  # every agent lab_agents_start started
	local f i
	for f in /tmp/agent-h*.pid; do
		[ -e "$f" ] || continue
		i=${f#/tmp/agent-h}
		lab_agent_stop "${i%.pid}"
	done
}

# ------------------------------------------------------------ run tools
_lab_bg() { local n=$1; shift; "$@" > "/tmp/$n.log" 2>&1 & echo $! > "/tmp/$n.pid"; }
# _lab_wait_listen PORT PID: until a TCP socket listens on PORT (max 20 s)
_lab_wait_listen() {
	local k
	for ((k = 0; k < 200; k++)); do
		[ -n "$(ss -Hltn "sport = :$1" 2> /dev/null)" ] && return 0
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
# lab_pair SERVER CLIENT TMO CMD [ARGS...]: CMD (perftest ib_* or ibv_*_pingpong)
# as the server on host SERVER and as the client on host CLIENT, each with its
# own device and GID (-d rxe_hI, -x/-g IDX); the client connects to 10.77.0.SERVER.
# Output: $LAB_SRV_LOG, $LAB_CLI_LOG (printed with prefixes). Status: the
# client's, else the server's.
lab_pair() {
	local s c tmo=$3 cmd=$4 gopt=-x gs gc port=18515 r rs t a prev=
	s=$(_lab_host "$1") || return 1
	c=$(_lab_host "$2") || return 1
	shift 4
	case $cmd in ibv_*) gopt=-g ;; esac
	for a in "$@"; do  # the out-of-band TCP port the server listens on
		case $prev in -p | --port) port=$a ;; esac
		case $a in --port=*) port=${a#--port=} ;; esac
		prev=$a
	done
	gs=$(lab_gid_idx "rxe_h$s" "10.77.0.$s") || { lab_err "no GID on rxe_h$s"; return 1; }
	gc=$(lab_gid_idx "rxe_h$c" "10.77.0.$c") || { lab_err "no GID on rxe_h$c"; return 1; }
	timeout "$tmo" "$cmd" -d "rxe_h$s" "$gopt" "$gs" "$@" > "$LAB_SRV_LOG" 2>&1 &
	local spid=$!
	_lab_wait_listen "$port" "$spid" || lab_err "server $cmd on h$s not listening on tcp/$port"
	t=$EPOCHREALTIME
	timeout "$tmo" "$cmd" -d "rxe_h$c" "$gopt" "$gc" "$@" "10.77.0.$s" > "$LAB_CLI_LOG" 2>&1
	r=$?
	wait "$spid"
	rs=$?
	sed 's/^/  [cli] /' "$LAB_CLI_LOG"
	sed 's/^/  [srv] /' "$LAB_SRV_LOG"
	echo "  -> $cmd h$c->h$s: client status $r, server status $rs, client wall $(lab_since "$t")s"
	[ "$r" = 0 ] && return "$rs"
	return "$r"
}
pair_run() { lab_pair "$@"; }  # the name used by older lab scripts

# lab_lat_result [LOG]: perftest latency table of LOG (default: last client)
# -> "bytes=B t_min_us=.. t_typical_us=.. t_avg_us=.. p99_us=.."
lab_lat_result() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 8 && $3 ~ /^[0-9.]+$/ {
		printf "bytes=%s t_min_us=%s t_typical_us=%s t_avg_us=%s p99_us=%s\n", $1, $3, $5, $6, $8; f = 1; exit }
		END { exit !f }' "${1:-$LAB_CLI_LOG}"
}
# lab_bw_result [LOG] -> "bytes=B bw_avg_MBps=.. msg_rate_Mpps=.."
lab_bw_result() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $4 ~ /^[0-9.]+$/ {
		printf "bytes=%s bw_avg_MBps=%s msg_rate_Mpps=%s\n", $1, $4, $5; f = 1; exit }
		END { exit !f }' "${1:-$LAB_CLI_LOG}"
}
# lab_field "k1=v1 k2=v2" KEY -> value
lab_field() { local s=" $1"; s=${s#* "$2"=}; [ "$s" != " $1" ] || return 1; printf '%s\n' "${s%% *}"; }

# ---------------------------------------------------------- packet capture
# lab_capture_start HOST [FILTER]: tcpdump on hI (default filter: RoCEv2)
lab_capture_start() {
	local h k
	h=$(_lab_host "$1") || return 1
	shift
	: > /tmp/lab-cap.err
	tcpdump -Z root -l -n -v -i "h$h" "${@:-udp port 4791}" > /tmp/lab-cap.log 2> /tmp/lab-cap.err &
	echo $! > /tmp/lab-cap.pid
	for ((k = 0; k < 100; k++)); do  # until it says "listening on"
		grep -q listening /tmp/lab-cap.err 2> /dev/null && return 0
		sleep 0.1
	done
	lab_err "tcpdump did not start: $(cat /tmp/lab-cap.err)"
	return 1
}
# lab_capture_stop -> "N tos 0xXX" lines: how many packets carried each TOS
lab_capture_stop() {
	local pid
	read -r pid < /tmp/lab-cap.pid
	sleep 0.3
	kill "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	grep -o 'tos 0x[0-9a-f]*' /tmp/lab-cap.log | sort | uniq -c | awk '{ print $1, $2, $3 }'
}

# ------------------------------------------------------------ checks
# check NAME CMD...: run CMD in this shell, output to a log. Prints "ok" or
# "FAIL" (with the check's EXPECT/GOT lines, the tail of its output and of
# the VM's kernel log) or "skip" (CMD returned 77; SKIP lines give the reason).
# RESULT and INFO lines are always shown. Logs are kept in $LAB_OUT/checks/.
LAB_PASS=0 LAB_FAIL=0 LAB_SKIP=0 LAB_NCHECK=0
check() {
	local name=$1 t rc log tag
	shift
	LAB_NCHECK=$((LAB_NCHECK + 1))
	log=/tmp/lab-check-$LAB_NCHECK.log
	t=$EPOCHREALTIME
	"$@" > "$log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		LAB_PASS=$((LAB_PASS + 1)); tag=ok
		printf 'ok   %-58s %6ss\n' "$name" "$(lab_since "$t")"
	elif [ "$rc" = 77 ]; then
		LAB_SKIP=$((LAB_SKIP + 1)); tag=skip
		printf 'skip %-58s %6ss\n' "$name" "$(lab_since "$t")"
		grep '^SKIP' "$log" | sed 's/^/     /'
	else
		LAB_FAIL=$((LAB_FAIL + 1)); tag=FAIL
		printf 'FAIL %-58s %6ss (status %s)\n' "$name" "$(lab_since "$t")" "$rc"
		grep -E '^(EXPECT|GOT)' "$log" | sed 's/^/     /'
		echo "     --- output (tail) ---"
		grep -v -E '^ *(\[...\] )? *(Dual-port|Number of qps|Connection type|PCIe|ibv_wr|TX depth|RX depth|CQ Moder|Mtu|Link type|GID index|Max inline|rdma_cm QPs|Data ex|Outstand|Using SRQ|Transport|Device |Max msg|local address|remote address|GID: |-{20,}|\*)' "$log" |
			tail -n 30 | sed 's/^/     | /'
		echo "     --- VM kernel log (tail) ---"
		dmesg | tail -n 12 | sed 's/^/     | /'
	fi
	grep -E '^(RESULT|INFO)' "$log" | sed 's/^/     /'
	if [ -d "$LAB_OUT" ]; then
		mkdir -p "$LAB_OUT/checks"
		{ echo "== $tag: $name (status $rc)"; cat "$log"; } > "$LAB_OUT/checks/$(printf '%02d' "$LAB_NCHECK").log"
		printf '%s %s\n' "$tag" "$name" >> "$LAB_OUT/checks.txt"
	fi
	return 0
}
# lab_result KEY=VALUE...: print a RESULT line and keep it in $LAB_OUT/results.txt
lab_result() {
	echo "RESULT $*"
	[ -d "$LAB_OUT" ] && echo "$*" >> "$LAB_OUT/results.txt"
	return 0
}
# lab_expect_ge WHAT GOT MIN / lab_expect_range WHAT GOT LO HI (numbers, may
# be decimals): print EXPECT/GOT and return the comparison
lab_expect_ge() {
	echo "EXPECT $1 >= $3"
	echo "GOT $1 = $2"
	awk -v g="$2" -v m="$3" 'BEGIN { exit !(g != "" && g + 0 >= m + 0) }'
}
lab_expect_range() {
	echo "EXPECT $1 in [$3, $4]"
	echo "GOT $1 = $2"
	awk -v g="$2" -v a="$3" -v b="$4" 'BEGIN { exit !(g != "" && g + 0 >= a + 0 && g + 0 <= b + 0) }'
}
# lab_summary: "K skipped" (if any), then exactly "N passed, M failed".
# Status 0 when nothing failed, else 1.
lab_summary() {
	[ "$LAB_SKIP" -gt 0 ] && echo "$LAB_SKIP skipped"
	echo "$LAB_PASS passed, $LAB_FAIL failed"
	[ -d "$LAB_OUT" ] && echo "$LAB_PASS passed, $LAB_FAIL failed, $LAB_SKIP skipped" > "$LAB_OUT/summary.txt"
	[ "$LAB_FAIL" = 0 ]
}

lab_help() {
	cat <<'HELP'
hosts      h1..hN: rxe_hI on netdev hI, 10.77.0.I; switch: br0 in netns sw, ports hI-sw
topology   lab_list_hosts, lab_gid_idx DEV IP, lab_host_gid HOST, lab_is_direct
           lab_mk_cable (direct link c1 10.77.1.1 rxe_c1 <-> c2 10.77.1.2 rxe_c2)
switch     lab_delay HOST DELAY [netem args] | lab_delay_clear HOST | lab_rate HOST RATE [LIMIT]
           lab_fifo HOST [RATE] | lab_prio HOST [--rate RATE] TCLASS... | lab_prio_stats HOST
           lab_wrr HOST RATE [--ets] TCLASS:WEIGHT... | lab_wrr_bytes HOST CLASS
           lab_band_pkts HOST BAND | lab_port_reset HOST | lab_sw CMD...
counters   lab_counters | lab_port_rx HOST [bytes] | lab_port_tx HOST [bytes]
           lab_assert_crossed MIN CMD...
agents     lab_agents_start N [ARGS] | lab_agent_stop I [SIG] | lab_agents_stop
           lab_agent_signal I SIG
           (with --key-file $LAB_KEY, the lab's key: pass it to rperf run)
tools      lab_pair SRV CLI TMO CMD [ARGS] | lab_lat_result [LOG] | lab_bw_result [LOG]
           lab_capture_start HOST [FILTER] | lab_capture_stop
checks     check NAME CMD... | lab_expect_ge WHAT GOT MIN | lab_expect_range WHAT GOT LO HI | lab_summary
HELP
}
