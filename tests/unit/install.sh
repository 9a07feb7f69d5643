#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# install.sh SRC WORK - the newcomer's install path, from a fresh build
# directory: configure, build only the rperf_bin target (as `rxe-lab demo`
# does), `cmake --install --prefix`, then check the installed tree, that
# `pkg-config --cflags --libs rperf` works through PKG_CONFIG_PATH and that
# a small program compiles, links and runs against it; finally move the
# prefix elsewhere and check that rperf.pc still points into it.
set -uo pipefail
src=$1 work=$2
bad=0
fail() { echo "FAIL: $*"; bad=1; }
rm -rf "$work"
mkdir -p "$work"
b=$work/build p=$work/prefix
cmake -S "$src" -B "$b" -DRPERF_TESTS=OFF > "$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log"; echo "FAIL: configure"; exit 1; }
cmake --build "$b" -j2 --target rperf_bin > "$work/build.log" 2>&1 ||
	{ tail -30 "$work/build.log"; echo "FAIL: build of rperf_bin"; exit 1; }
cmake --install "$b" --prefix "$p" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; echo "FAIL: cmake --install after building only rperf_bin"; exit 1; }
echo "installed into $p:"
(cd "$p" && find . -type f | sort | sed 's/^/  /')
[ -x "$p/bin/rperf" ] || fail "no bin/rperf"
"$p/bin/rperf" --version > /dev/null || fail "the installed rperf does not run"
if command -v pandoc > /dev/null; then
	[ -s "$p/share/man/man1/rperf.1" ] || fail "pandoc is installed but share/man/man1/rperf.1 is not"
	if command -v man > /dev/null; then
		man -l "$p/share/man/man1/rperf.1" 2>/dev/null | grep -q "perftest" ||
			fail "man -l cannot render the installed page"
	fi
else
	[ -s "$p/share/doc/rperf/rperf.1.md" ] || fail "without pandoc, share/doc/rperf/rperf.1.md is not installed"
fi
[ -s "$p/lib/librperf.a" ] || fail "no lib/librperf.a"
# packaging/: the agent's unit and options file (inside the prefix), the
# plot script beside its gnuplot files, the examples
[ -s "$p/etc/rperf/agent.conf" ] || fail "no etc/rperf/agent.conf inside the prefix"
grep -q "^EnvironmentFile=.*/etc/rperf/agent.conf$" "$p/lib/systemd/system/rperf-agent.service" ||
	fail "no lib/systemd/system/rperf-agent.service reading agent.conf"
[ -x "$p/share/rperf/plot/rperf-plot.sh" ] && [ -s "$p/share/rperf/plot/sweep.gp" ] ||
	fail "no share/rperf/plot/rperf-plot.sh with its sweep.gp"
[ -s "$p/share/doc/rperf/examples/fig7-converged.ini" ] || fail "no share/doc/rperf/examples"
for gp in $(sed -n 's/.*render \([A-Za-z0-9_]*\.gp\).*/\1/p' "$p/share/rperf/plot/rperf-plot.sh" 2> /dev/null); do
	[ -s "$p/share/rperf/plot/$gp" ] || fail "rperf-plot.sh renders $gp: not installed beside it"
done
[ -s "$p/include/rperf/hist.h" ] || fail "no include/rperf/hist.h"
pc=$p/lib/pkgconfig/rperf.pc
[ -s "$pc" ] || { fail "no lib/pkgconfig/rperf.pc"; exit 1; }
grep -q "^prefix=\${pcfiledir}/" "$pc" || fail "rperf.pc's prefix is not relative to \${pcfiledir}: $(grep '^prefix=' "$pc")"

cat > "$work/tiny.c" <<'C'
#include <stdio.h>
#include <rperf/hist.h>
#include <rperf/report.h>

int main(void)
{
	struct rperf_hist *h = NULL;

	if (rperf_hist_create(RPERF_HIST_DEFAULT_BITS, &h))
		return 1;
	for (int i = 1; i <= 1000; i++)
		rperf_hist_record(h, i);
	printf("p50=%lld reliable=%d\n", (long long)rperf_hist_percentile(h, 50),
	       (int)rperf_percentile_reliable(50, rperf_hist_count(h)));
	rperf_hist_destroy(h);
	return 0;
}
C
# tiny PREFIX LABEL: pkg-config through PKG_CONFIG_PATH, compile, link, run
tiny() {
	local flags out
	flags=$(PKG_CONFIG_PATH=$1/lib/pkgconfig pkg-config --cflags --libs rperf) ||
		{ fail "$2: pkg-config --cflags --libs rperf"; return; }
	echo "$2: pkg-config --cflags --libs rperf: $flags"
	case " $flags " in
	*" -I$1/lib/pkgconfig/../../include "* | *" -I$1/include "*) ;;
	*) fail "$2: the include path does not point into $1" ;;
	esac
	# shellcheck disable=SC2086 # pkg-config's words
	cc -std=gnu11 -o "$work/tiny" "$work/tiny.c" $flags ||
		{ fail "$2: the program does not compile/link with those flags"; return; }
	out=$("$work/tiny") || fail "$2: the program fails"
	[ "$out" = "p50=500 reliable=1" ] || fail "$2: the program printed '$out'"
	echo "$2: a program built against the installed librperf prints: $out"
}
tiny "$p" "prefix $p"
mv "$p" "$work/moved"
tiny "$work/moved" "after moving the prefix to $work/moved"
[ $bad = 0 ] && { echo "install: ok"; rm -rf "$b"; }
exit $bad
