#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# packaging/build-deb.sh - build the rperf Debian package with CPack:
#   packaging/build-deb.sh [OUTDIR]      (default: build-deb)
# Configures OUTDIR/build with prefix /usr and Debian's compiler flags
# (dpkg-buildflags: hardening, -ffile-prefix-map), builds rperf and its man
# page (no tests: RPERF_TESTS=OFF), runs `cpack -G DEB` and prints the .deb's path last.
# Reproducible: SOURCE_DATE_EPOCH defaults to the last commit's time.
#   RPERF_MPI=ON|OFF   rperf run --mpi (default: ON when mpicc is here)
#   RPERF_JOBS=N       parallel build jobs (default: nproc)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-build-deb}")
build=$out/build
mpi=${RPERF_MPI:-$(command -v mpicc > /dev/null && echo ON || echo OFF)}
for tool in cmake cpack dpkg-buildflags dpkg-shlibdeps pandoc; do
	command -v "$tool" > /dev/null ||
		{ echo "build-deb: needs $tool (bash tests/install-deps.sh)" >&2; exit 2; }
done
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2> /dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
# Debian's flags; the prefix map is relative to the source tree
cd "$top"
CFLAGS=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS)
CPPFLAGS=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS)
LDFLAGS=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)
export CFLAGS="$CFLAGS $CPPFLAGS -ffile-prefix-map=$out=." LDFLAGS
mkdir -p "$build"
cmake -S "$top" -B "$build" -DCMAKE_INSTALL_PREFIX=/usr \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DRPERF_TESTS=OFF -DRPERF_MPI="$mpi" \
	-DRPERF_WERROR=OFF > "$build/configure.log" ||
	{ cat "$build/configure.log" >&2; exit 1; }
cmake --build "$build" -j"${RPERF_JOBS:-$(nproc)}" 
(cd "$build" && cpack -G DEB -B "$out" > "$out/cpack.log") ||
	{ cat "$out/cpack.log" >&2; exit 1; }
deb=$(ls "$out"/rperf_*.deb)
echo "$deb"
