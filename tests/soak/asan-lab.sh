#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# asan-lab.sh SRC BUILD OUT [SOAK_CLIENT] - the lab suites with rperf built
# with AddressSanitizer + UBSan (label soak: `ctest -L soak -R soak.asan`).
# Configures BUILD with -DRPERF_SANITIZE=ON (its own build folder), builds
# rperf, checks that the binary needs libasan and libubsan (rxe-lab copies
# the ldd libraries the base image lacks into each boot), then runs the
# suites basic, bw, lat, run-qos, path-faults and, given SOAK_CLIENT (the
# soak helper of a normal build), the short soak, each in its own boot.
# Inside the VM every rperf runs with
#   ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=/out/sanitizer/asan
#   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=/out/sanitizer/ubsan
# so a finding fails the process and leaves a report in OUT/SUITE/sanitizer/
# even where a suite expects rperf to fail. A suite fails when its checks
# fail or when it left any sanitizer report. Ends with "N passed, M failed".
# RPERF_LAB_WRAP=CMD runs each boot through CMD (e.g. a VM slot queue).
set -uo pipefail
src=$1 build=$2 out=$3 soak_client=${4:-}
lab=$src/tests/lab/rxe-lab
mkdir -p "$out"
echo "asan-lab: building rperf with ASan+UBSan in $build"
if ! { cmake -S "$src" -B "$build" -DRPERF_SANITIZE=ON -DRPERF_TESTS=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo > "$out/cmake.log" 2>&1 &&
	cmake --build "$build" -j2 --target rperf_bin >> "$out/cmake.log" 2>&1; }; then
	tail -n 30 "$out/cmake.log"
	echo "asan-lab: FAIL: the sanitized build failed"
	exit 1
fi
libs=$(ldd "$build/src/rperf" | awk '/libasan|libubsan/ { print $1 }' | tr '\n' ' ')
echo "asan-lab: sanitizer runtime libraries (copied into each boot): $libs"
case $libs in *libasan*) ;; *) echo "asan-lab: FAIL: rperf is not linked with libasan"; exit 1 ;; esac
case $libs in *libubsan*) ;; *) echo "asan-lab: FAIL: rperf is not linked with libubsan"; exit 1 ;; esac

pass=0 fail=0 failed=
# suite NAME HOSTS TIMEOUT [ARGS...]: one boot, the suite with the options set
suite() {
	local name=$1 hosts=$2 tmo=$3 d=$out/$1 script body rc n
	shift 3
	rm -rf "$d"
	mkdir -p "$d/sanitizer"
	script=$d/asan-$name.sh
	body=$src/tests/lab/suites/$name.sh
	if [ "$name" = soak ]; then
		body=$src/tests/soak/soak-vm.sh
		mkdir -p "$d/bin"
		cp "$soak_client" "$d/bin/soak_client"
	fi
	{
		echo '#!/bin/bash'
		echo 'export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:log_path=/out/sanitizer/asan'
		echo 'export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=/out/sanitizer/ubsan'
		cat "$body"
	} > "$script"
	echo "asan-lab: $name ($hosts hosts)"
	# shellcheck disable=SC2086 # RPERF_LAB_WRAP: e.g. a slot wrapper
	${RPERF_LAB_WRAP:-} "$lab" --build "$build" run --hosts "$hosts" --timeout "$tmo" --out "$d" "$script" "$@" > "$d/run.log" 2>&1
	rc=$?
	if [ "$rc" = 125 ]; then # the VM itself failed (e.g. an emulator boot panic): once more
		echo "    the VM failed (status 125, $(grep -m1 -o 'Kernel panic.*' "$d/rxe-lab/console.log" || echo 'see the console log')): booting once more"
		# shellcheck disable=SC2086
		${RPERF_LAB_WRAP:-} "$lab" --build "$build" run --hosts "$hosts" --timeout "$tmo" --out "$d" "$script" "$@" > "$d/run.log" 2>&1
		rc=$?
	fi
	grep -E '^ *[0-9.]+ (ok|FAIL|skip) |passed, .* failed' "$d/run.log" | sed 's/^/    /'
	n=$(find "$d/sanitizer" -type f | wc -l)
	if [ "$n" -gt 0 ]; then
		echo "    $n sanitizer report(s):"
		for f in "$d"/sanitizer/*; do
			echo "    == $f"
			head -n 40 "$f" | sed 's/^/    | /'
		done
	fi
	if [ "$rc" = 77 ]; then
		echo "asan-lab: SKIP: the lab cannot run here"
		exit 77
	fi
	if [ "$rc" = 0 ] && [ "$n" = 0 ]; then
		pass=$((pass + 1))
		echo "asan-lab: ok   $name"
	else
		fail=$((fail + 1))
		failed="$failed $name"
		echo "asan-lab: FAIL $name (lab status $rc, $n sanitizer reports; logs in $d)"
	fi
}
# in-VM timeouts: the sanitized binary is 2-3x slower (bw's 64 KiB runs most)
suite basic 2 600
suite bw 2 900
suite lat 2 900
suite run-qos 5 900
suite path-faults 2 600
[ -n "$soak_client" ] && [ -x "$soak_client" ] && suite soak 2 600 300 150
[ -n "$failed" ] && echo "asan-lab: failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
