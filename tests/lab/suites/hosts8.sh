#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# hosts8.sh - one `rperf run` experiment over 8 lab hosts, one agent each:
#   rxe-lab run --hosts 8 tests/lab/suites/hosts8.sh
# h1 is the destination of an LSG from h2 and of BSGs from h3..h8 (6
# instances of one section); a second LSG h8 -> h2 makes h2 a destination
# too. Checks that all 8 hosts take part and are reported (JSON hosts[] and
# the text report), none failed, every generator ok with figures, and that
# every BSG source's port carried its traffic (hI-sw received bytes).
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
J=$OUT/hosts8.json

setup() {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		echo "INFO h$i: $(ibv_devinfo -d "rxe_h$i" 2> /dev/null | awk '/state:/ { print $2; exit }') GID index $(lab_host_gid "h$i")"
	done
	lab_agents_start 8
}

job_write() {
	local i
	{
		printf '; hosts8.sh: 8 hosts, one agent each\n[global]\nduration = 2s\nwarmup = 500ms\ntimeout = 15s\n'
		for i in 1 2 3 4 5 6 7 8; do
			printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\n' "$i" "$i" "$i"
		done
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\nrate = 256k\n'
		printf '[lsg back]\nfrom = h8\nto = h2\nsize = 64\nrate = 256k\ncompletion = event\n'
		printf '[bsg load]\nfrom = h3, h4, h5, h6, h7, h8\nto = h1\nsize = 4K\ntx_depth = 4\nverb = write\ncompletion = event\nqp_timeout = 18\n'
	} > "$OUT/hosts8.ini"
}

run8() {
	local rc t
	declare -gA B0
	job_write
	for i in 3 4 5 6 7 8; do B0[$i]=$(lab_port_rx "h$i" bytes); done
	t=$EPOCHREALTIME
	timeout 90 rperf run --key-file "$LAB_KEY" --out_json_file "$J" "$OUT/hosts8.ini" > "$OUT/hosts8.txt" 2>&1
	rc=$?
	sed 's/^/  [run] /' "$OUT/hosts8.txt"
	echo "INFO rperf run: status $rc in $(lab_since "$t") s"
	echo "EXPECT status 0"
	echo "GOT $rc"
	[ "$rc" = 0 ]
}

all_reported() {
	echo "EXPECT hosts[] = h1..h8 none failed; failed_hosts []; 8 generators ok (2 LSGs with >= 20 samples: a median; paced at 500/s they took 97-512 in 2 s under TCG, 6 BSGs > 0 Gb/s)"
	echo "GOT hosts $(jq -c '[.hosts[] | [.name, .failed]]' "$J") failed $(jq -c '.failed_hosts' "$J")"
	echo "GOT generators $(jq -c '[.generators[] | [.name, .host, .status, (.samples // .gbps)]]' "$J")"
	jq -e '([.hosts[].name] | sort) == ["h1","h2","h3","h4","h5","h6","h7","h8"] and
		all(.hosts[]; .failed == false) and (.failed_hosts | length) == 0 and
		(.generators | length) == 8 and all(.generators[]; .status == "ok") and
		([.generators[] | select(.kind == "lsg" and .samples >= 20)] | length) == 2 and
		([.generators[] | select(.kind == "bsg" and .gbps > 0)] | length) == 6 and
		([.generators[] | select(.kind == "bsg") | .host] | sort) == ["h3","h4","h5","h6","h7","h8"]' "$J" > /dev/null
}

text_lists_all() {
	local i miss=''
	for i in 1 2 3 4 5 6 7 8; do grep -qw "h$i" "$OUT/hosts8.txt" || miss+=" h$i"; done
	echo "EXPECT the text report names h1..h8"
	echo "GOT missing:${miss:- none}"
	[ -z "$miss" ]
}

# each BSG source host's traffic entered the switch on its own port
ports_crossed() {
	local i b bad=0
	for i in 3 4 5 6 7 8; do
		b=$(($(lab_port_rx "h$i" bytes) - B0[$i]))
		lab_expect_ge "bytes the switch received from h$i" "$b" 20000 || bad=1
	done
	return "$bad"
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "8 devices, 8 agents listening"                         setup
check "rperf run over 8 hosts exits 0"                        run8
check "JSON: all 8 hosts reported, every generator ok"        all_reported
check "text report names all 8 hosts"                         text_lists_all
check "each BSG host's traffic crossed its switch port"       ports_crossed
lab_agents_stop
lab_summary
