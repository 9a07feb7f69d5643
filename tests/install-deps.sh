#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/install-deps.sh - install with apt-get everything needed to build and
# test rperf on Debian 12 (contract: the README and .ci/run call it).
# Never installs the 'rdma-core' service package: the libraries, the
# providers and the utilities are enough, and rdma-core drags in udev/systemd.
# As root: installs what is missing. Otherwise: prints the apt-get line and
# fails if anything is missing.
set -euo pipefail

PKGS=(
	# build
	build-essential cmake pkg-config
	libibverbs-dev librdmacm-dev libnuma-dev libjansson-dev libcmocka-dev
	libinih-dev
	libssl-dev
	ibverbs-providers
	# checks: format, static analysis, fuzzing (clang's libFuzzer), man page
	clang-format cppcheck clang libclang-rt-14-dev pandoc jq
	# plots (examples/plot, unit.plot, lab.fig7)
	gnuplot-nox
	# aarch64 clock path: cross compiler + user-mode emulation
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
	# Soft-RoCE lab (tests/lab/rxe-lab setup installs the same list)
	qemu-system-x86 busybox-static ibverbs-utils rdmacm-utils perftest qperf
	iproute2 tcpdump cpio kmod xz-utils zstd file iputils-ping
	# rperf run --mpi (-DRPERF_MPI=ON; tests/run-tests.sh turns it on)
	libopenmpi-dev openmpi-bin
	# Debian package (packaging/, lab.package: a debootstrap chroot, lintian)
	debootstrap lintian
	# rperf run --check opens no socket (strace); --prom files (promtool)
	strace prometheus
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#PKGS[@]} packages present"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages; run as root:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache policy "${missing[0]}" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
	apt-get update -q
fi
echo "install-deps: installing ${missing[*]}"
apt-get install -y -q --no-install-recommends "${missing[@]}"
