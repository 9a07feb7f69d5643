# shellcheck shell=bash
# lib/common.sh - shared by the rxe-lab subcommands (host side).
# Sourced by tests/lab/rxe-lab; expects LAB_DIR (tests/lab) to be set.

# Exit statuses of rxe-lab (documented in tests/lab/README.md).
# shellcheck disable=SC2034 # used by the files that source this one
readonly LAB_EXIT_SKIP=77   # the lab cannot run here (no QEMU / no kernel): CTest SKIP
readonly LAB_EXIT_VM=125    # the VM itself failed (no exit marker): console tail shown
readonly LAB_EXIT_USAGE=2

REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
LAB_CACHE=${RPERF_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rperf-lab}

note() { printf 'rxe-lab: %s\n' "$*" >&2; }
die() { printf 'rxe-lab: error: %s\n' "$*" >&2; exit 1; }
# skip REASON: the lab cannot run on this machine. Remembered in the cache so
# that the suites (run) report the same reason as setup did.
skip() {
	printf 'SKIP: %s\n' "$*"
	if mkdir -p "$LAB_CACHE" 2>/dev/null; then
		printf '%s\n' "$*" > "$LAB_CACHE/skip-reason" 2>/dev/null || true
	fi
	exit "$LAB_EXIT_SKIP"
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The rperf build folder: --build DIR, else $RPERF_BUILD, else <repo>/build.
# Relative paths are relative to the current directory.
resolve_build() {
	local b=${1:-${RPERF_BUILD:-$REPO_DIR/build}}
	case $b in /*) ;; *) b=$PWD/$b ;; esac
	printf '%s\n' "${b%/}"
}

# Kernel version (e.g. 6.1.0-56-amd64) the cache holds; empty if none.
cached_kv() {
	[ -f "$LAB_CACHE/KV" ] && cat "$LAB_CACHE/KV"
	return 0
}
kernel_image() {  # kernel_image KV -> the file qemu boots
	local kdir=$LAB_CACHE/kernel-$1/boot
	if [ -s "$kdir/vmlinux-$1" ]; then
		printf '%s\n' "$kdir/vmlinux-$1"
	else
		printf '%s\n' "$kdir/vmlinuz-$1"
	fi
}
base_image() { printf '%s\n' "$LAB_CACHE/base-$1.cpio"; }
base_root() { printf '%s\n' "$LAB_CACHE/rootfs-$1"; }
