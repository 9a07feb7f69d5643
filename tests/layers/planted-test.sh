#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# planted-test.sh ROOT - the checkers must fail where they should: on a copy
# of ROOT's src/, include/ and tests/ it plants, one at a time,
#   1. an include that points up (util -> cli) and closes a cycle (cli -> util),
#   2. an include of a peer on the same layer (clock -> hist), no cycle,
#   3. an include of another folder's private header,
#   4. a folder, a file and a public header that the table does not place,
#      and an exception that matches nothing,
#      (and 1 again as a named exception: passes, noting the circle it keeps)
#   5. comments naming files that do not exist, development-process words,
# and checks that check-layers.sh (1-4) and check-words.sh (5) exit 1 naming
# the file, the line (and the two folders). The unmodified copy must pass,
# so a failure is the planted one.
set -uo pipefail
root=$(cd "${1:?usage: planted-test.sh ROOT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

fresh() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/include"
	cp -r "$root/src" "$tmp/tree/src"
	cp -r "$root/include/rperf" "$tmp/tree/include/rperf"
	cp -r "$root/tests" "$tmp/tree/tests"
}

# expect CHECK RC PATTERN...: run check-CHECK.sh on the copy, want exit RC
# and each pattern (a fixed string) in its output
expect() {
	local check=$1 want=$2 out rc p
	shift 2
	out=$(bash "$here/check-$check.sh" "$tmp/tree" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL ($case): exit $rc, want $want; output:"
		echo "$out"
		bad=1
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$out"; then
			echo "FAIL ($case): no '$p' in:"
			echo "$out"
			bad=1
			return
		fi
	done
	echo "ok ($case): exit $rc"
	[ "$want" = 0 ] || echo "$out" | grep -v '^exception:' | sed 's/^/    /'
}

case="the tree as it is"
fresh
expect layers 0 "layers: "
case="words of the tree as it is"
expect words 0 "words: "

case="planted upward include"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include "util/units.h"' '#include "cli/cli.h"' \
	> "$tmp/tree/src/util/planted.c"
expect layers 1 'src/util/planted.c:3: util -> cli: "cli/cli.h" points up' \
	'include cycle between folders: ' 'util -> cli (src/util/planted.c:3)'

case="the same include as a named exception"
echo 'except util/planted.c cli/cli.h planted' >> "$tmp/tree/src/layers.txt"
expect layers 0 'exception: src/util/planted.c includes "cli/cli.h": planted' \
	'note: through the exceptions, ' ' util'

case="planted peer include"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include <rperf/hist.h>' > "$tmp/tree/src/clock/planted.c"
expect layers 1 'src/clock/planted.c:2: clock -> hist: "rperf/hist.h" includes a peer'
if grep -q 'include cycle' <<<"$(bash "$here/check-layers.sh" "$tmp/tree")"; then
	echo "FAIL ($case): a cycle reported where there is none"; bad=1
fi

case="planted private header"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include "clock/clock_priv.h"' > "$tmp/tree/src/gen/planted.c"
expect layers 1 'src/gen/planted.c:2: gen -> clock: "clock/clock_priv.h" is private to clock'

case="folder, file, public header on no line; stale exception"
fresh
mkdir "$tmp/tree/src/newfolder"
touch "$tmp/tree/src/newfile.c" "$tmp/tree/include/rperf/newapi.h"
echo 'except util/units.c cli/cli.h why not' >> "$tmp/tree/src/layers.txt"
expect layers 1 'src/newfolder: the folder is on no layer' \
	'src/newfile.c: the file is on no layer' \
	'include/rperf/newapi.h: the public header is on no' \
	'the exception for src/util/units.c including "cli/cli.h" matches no include'

case="planted comments and strings"
fresh
cat > "$tmp/tree/src/util/planted.c" <<'PLANTED'
/* SPDX-License-Identifier: BSD-2-Clause */
/* See util/units.c, units.h, tests/unit/test_units.c, <sys/nothere.h>, */
/* and util/gone.c. */
static const char *s = "fixed (issue 7)"; // nothere.h
static const char *t = "may issue 2 reads, seed 7"; /* neither */
PLANTED
expect words 1 'src/util/planted.c:3: the comment names util/gone.c' \
	'src/util/planted.c:4: "issue 7" in a string' \
	'src/util/planted.c:4: the comment names nothere.h' 'words: 3 problem(s)'

exit $bad
