# shellcheck shell=bash
# lib/vm.sh - boot one lab VM: base image from the cache + a per-boot overlay
# (init, helpers, the script, rperf from the chosen build), run under QEMU TCG.
# Sourced by tests/lab/rxe-lab after lib/common.sh.

LAB_WORKDIRS=()

# lab_ready: the cache has a kernel and a base image, and QEMU is here;
# otherwise exit 77 with the reason (the lab tests are then skipped)
lab_ready() {
	local reason=
	[ -f "$LAB_CACHE/skip-reason" ] && reason=$(cat "$LAB_CACHE/skip-reason")
	command -v qemu-system-x86_64 > /dev/null ||
		skip "${reason:-qemu-system-x86_64 is not installed (run: tests/lab/rxe-lab setup, as root)}"
	KV=$(cached_kv)
	if [ -z "$KV" ] || [ ! -f "$(kernel_image "$KV")" ]; then
		skip "${reason:-no kernel in $LAB_CACHE (run: tests/lab/rxe-lab setup)}"
	fi
	[ -f "$(base_image "$KV")" ] ||
		skip "${reason:-no base image in $LAB_CACHE (run: tests/lab/rxe-lab setup)}"
}

# overlay_add_elf OV HOSTFILE GUESTPATH: a program plus the shared libraries
# (ldd) that the base image does not have
overlay_add_elf() {
	local ov=$1 src=$2 dst=$3 base lib g
	base=$(base_root "$KV")
	mkdir -p "$ov$(dirname "$dst")"
	cp -L "$src" "$ov$dst"
	while read -r lib; do
		g=$lib
		case $g in /usr/*) ;; *) g=/usr$g ;; esac   # merged /usr in the VM
		[ -e "$base$g" ] || [ -e "$ov$g" ] || {
			mkdir -p "$ov$(dirname "$g")"
			cp -L "$lib" "$ov$g"
			note "overlay: adding $g (not in the base image)"
		}
	done < <(ldd "$src" 2> /dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }')
}

# boot_vm MODE(run|shell) HOSTS TOPO(switch|direct) TIMEOUT OUTDIR BUILD [SCRIPT [ARGS...]]
# Exit status: the script's; 125 if the VM failed; 77 if the lab is not set up.
boot_vm() {
	local mode=$1 hosts=$2 topo=$3 tmo=$4 out=$5 build=$6 script=${7:-}
	shift 6
	[ $# -gt 0 ] && shift
	local work ov img logs qrc rc t0 kernel append line now d
	lab_ready
	kernel=$(kernel_image "$KV")
	mkdir -p "$out/rxe-lab"
	out=$(cd "$out" && pwd)
	logs=$out/rxe-lab
	work=$(mktemp -d "$LAB_CACHE/.boot.XXXXXX")
	LAB_WORKDIRS+=("$work")  # removed on exit (demo boots twice)
	trap 'rm -rf "${LAB_WORKDIRS[@]}"' EXIT
	ov=$work/overlay
	mkdir -p "$ov/test" "$ov/usr/lib/rperf-lab"
	# the helpers and init of this checkout win over those in the base image
	install -m 0755 "$LAB_DIR/vm/init" "$ov/init"
	install -m 0755 "$LAB_DIR/vm/start" "$ov/usr/lib/rperf-lab/start"
	install -m 0644 "$LAB_DIR/vm/lab-lib.sh" "$ov/usr/lib/rperf-lab/lab-lib.sh"
	install -m 0755 "$LAB_DIR/sw-counters.sh" "$ov/usr/lib/rperf-lab/sw-counters"
	{
		echo "LAB_TIMEOUT=$tmo"
		echo "LAB_HOSTS=$hosts"
		echo "LAB_MODE=$topo"
		echo "LAB_9P=1"
		[ "$mode" = shell ] && echo "LAB_SHELL=1"
	} > "$ov/test/lab.conf"
	if [ -n "$script" ]; then
		cp "$script" "$ov/test/run.sh"
		basename "$script" > "$ov/test/script-name"
		{ printf 'args=('; [ $# -gt 0 ] && printf '%q ' "$@"; printf ')\n'; } > "$ov/test/args.sh"
	fi
	# the checkout's example job files (examples/), for suites that run them
	[ -d "$LAB_DIR/../../examples" ] && mkdir -p "$ov/usr/share/rperf" &&
		cp -r "$LAB_DIR/../../examples" "$ov/usr/share/rperf/examples"
	# rperf from the chosen build: statically linked librperf, so the binary
	# alone plus its system libraries is enough (no RUNPATH into the build)
	if [ -x "$build/src/rperf" ]; then
		overlay_add_elf "$ov" "$build/src/rperf" /usr/bin/rperf
	else
		note "no rperf binary at $build/src/rperf: the VM has no rperf (build it, or pass --build DIR)"
	fi
	[ -x "$build/tests/lab/lab-ptyrun" ] &&
		overlay_add_elf "$ov" "$build/tests/lab/lab-ptyrun" /usr/bin/lab-ptyrun
	openmpi_wanted "$script" && overlay_add_openmpi "$ov"
	(cd "$ov" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) > "$work/overlay.cpio"
	# initramfs archives may be concatenated (each starts 4-byte aligned)
	img=$work/initrd
	cp "$(base_image "$KV")" "$img"
	local size
	size=$(stat -c %s "$img")
	head -c $(((4 - size % 4) % 4)) /dev/zero >> "$img"
	cat "$work/overlay.cpio" >> "$img"

	# no_timer_check: under TCG on a loaded host the IO-APIC timer check can
	# miss its ticks and panic the boot ("IO-APIC + timer doesn't work")
	append="console=ttyS0 quiet panic=-1 no_timer_check ${RPERF_LAB_KAPPEND:-}"
	# shellcheck disable=SC2054 # commas are part of QEMU's option values
	local -a qemu=(qemu-system-x86_64 -machine pc -accel tcg,thread=multi -cpu max
		-m "${RPERF_LAB_MEM:-2G}" -smp "${RPERF_LAB_CPUS:-2}" -no-reboot -nic none
		-kernel "$kernel" -initrd "$img" -append "$append"
		-virtfs "local,path=$out,mount_tag=out,security_model=none,id=out")
	if [ "$mode" = shell ]; then
		"${qemu[@]}" -nographic -serial mon:stdio
		return $?
	fi
	qemu+=(-display none -monitor none -serial "file:$logs/console.log" -serial stdio)
	printf '%q ' "${qemu[@]}" > "$logs/qemu-cmd.txt"
	local attempt
	for attempt in 1 2; do
		t0=$EPOCHREALTIME
		qemu_watch "$tmo" "$logs" "$work" "${qemu[@]}"
		qrc=$?
		[ "$qrc" = 254 ] || break
		# no sign of life from /init: a rare hang early in the emulated boot
		note "the VM gave no sign of life within ${RPERF_LAB_BOOT_TIMEOUT:-90} s; console: $(tail -c 300 "$logs/console.log" | tr '\n' ' ')"
		[ "$attempt" = 1 ] && note "booting again (attempt 2 of 2)"
	done
	rc=$(sed -n 's/.*RPERF-LAB-EXIT=\([0-9]*\).*/\1/p' "$logs/output.log" | tail -n 1)
	local tr th ts te total
	tr=$(awk '/RPERF-LAB-READY/ { print $1; exit }' "$logs/output.log")
	th=$(awk '/RPERF-LAB-HOSTS/ { print $1; exit }' "$logs/output.log")
	ts=$(awk '/RPERF-LAB-SCRIPT-START/ { print $1; exit }' "$logs/output.log")
	te=$(awk '/RPERF-LAB-EXIT=/ { print $1; exit }' "$logs/output.log")
	total=$(lab_elapsed_us "$t0")
	echo "timing (host s): kernel+modules ready ${tr:-?}, hosts ready ${th:-?}, script start ${ts:-?}, script end ${te:-?}, qemu exit $total" > "$logs/timing.txt"
	note "$(cat "$logs/timing.txt"); logs in $logs"
	if [ -z "$rc" ]; then
		if [ "$qrc" = 254 ]; then
			note "the VM failed: it did not boot (no sign of life from /init, twice)."
		else
			note "the VM failed (qemu status $qrc, no exit marker: it crashed, or was killed $((tmo + 90)) s after the start)."
		fi
		note "console tail ($logs/console.log):"
		tail -n 30 "$logs/console.log" >&2 || true
		[ -s "$logs/qemu-stderr.log" ] && { note "qemu stderr:"; tail -n 10 "$logs/qemu-stderr.log" >&2; }
		return "$LAB_EXIT_VM"
	fi
	if [ "$rc" != 0 ]; then
		note "script exited with status $rc; VM console tail ($logs/console.log):"
		tail -n 15 "$logs/console.log" >&2 || true
	fi
	return "$rc"
}
# qemu_watch TMO LOGDIR WORKDIR QEMU...: run QEMU, echo the test output
# (second serial port = its stdout) live and into LOGDIR/output.log with host
# timestamps. Returns QEMU's status, or 254 if /init never reported
# (RPERF-LAB-INIT) within RPERF_LAB_BOOT_TIMEOUT seconds (QEMU is then
# stopped). The host-side watchdog kills QEMU TMO + 90 s after the start.
qemu_watch() {
	local tmo=$1 logs=$2 work=$3 fd line partial='' booted='' st qpid t0 now d
	shift 3
	local boot_tmo=$((${RPERF_LAB_BOOT_TIMEOUT:-90} * 1000000))
	rm -f "$work/serial"
	mkfifo "$work/serial"
	: > "$logs/output.log"
	t0=${EPOCHREALTIME/./}
	timeout -s KILL $((tmo + 90)) "$@" < /dev/null > "$work/serial" 2> "$logs/qemu-stderr.log" &
	qpid=$!
	exec {fd}< "$work/serial"
	while :; do
		if IFS= read -r -t 1 -u "$fd" line; then
			line=$partial$line
			partial=''
		else
			st=$?
			if [ "$st" -le 128 ]; then  # end of file: QEMU is gone
				[ -n "$line" ] || break
				line=$partial$line
				partial=''
			else                        # nothing for a second
				partial+=$line
				if [ -z "$booted" ] && [ $((${EPOCHREALTIME/./} - t0)) -gt "$boot_tmo" ]; then
					kill -TERM "$qpid" 2> /dev/null
					wait "$qpid" 2> /dev/null
					exec {fd}<&-
					return 254
				fi
				continue
			fi
		fi
		line=${line%$'\r'}
		[[ $line == *RPERF-LAB-INIT* ]] && booted=1
		now=${EPOCHREALTIME/./}
		d=$(((now - t0) / 10000))
		printf '%4d.%02d %s\n' $((d / 100)) $((d % 100)) "$line" >> "$logs/output.log"
		[ -n "${LAB_QUIET:-}" ] || printf '%s\n' "$line"
	done
	exec {fd}<&-
	wait "$qpid"
}
lab_elapsed_us() {  # seconds since an $EPOCHREALTIME value
	local a=${1/./} b=${EPOCHREALTIME/./}
	awk -v d="$((b - a))" 'BEGIN { printf "%.2f", d / 1e6 }'
}
