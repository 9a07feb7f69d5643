#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# packaging/check-deb.sh OUTDIR - CTest's lab.package: build the package
# (build-deb.sh OUTDIR), then install and check it in a clean Debian 12
# chroot (test-deb.sh). Exit 77 (skip) as test-deb.sh does.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: check-deb.sh OUTDIR}
[ "$(id -u)" = 0 ] || { echo "check-deb: needs root (chroot, dpkg -i): skipped"; exit 77; }
t0=$(date +%s)
mkdir -p "$out"
"$here/build-deb.sh" "$out" > "$out/build-deb.log" 2>&1 ||
	{ tail -40 "$out/build-deb.log"; echo "FAIL build-deb.sh (log: $out/build-deb.log)"; exit 1; }
deb=$(tail -1 "$out/build-deb.log")
echo "check-deb: $deb built in $(($(date +%s) - t0)) s"
dpkg-deb -c "$deb" | awk '{ print "  " $1, $6 }'
exec "$here/test-deb.sh" "$deb" "$out/test"
