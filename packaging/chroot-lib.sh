# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# packaging/chroot-lib.sh - sourced by test-deb.sh and test-slurm.sh: a
# clean Debian 12 root made by debootstrap once, cached, copied per test.
#   RPERF_PKG_CACHE    cache dir (default ${XDG_CACHE_HOME:-~/.cache}/rperf-pkg)
#   RPERF_PKG_MIRROR   Debian mirror (default: this machine's apt source)
# Callers define ok() and bad().
pkg_cache=${RPERF_PKG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rperf-pkg}

# the mirror this machine's apt uses for bookworm (deb822 or one-line)
pkg_mirror() {
	local m
	m=$(cat /etc/apt/sources.list.d/*.sources 2> /dev/null | awk '
		/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ && u { print u; exit }')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list 2> /dev/null | awk '
		$1 == "deb" && $3 == "bookworm" { print $2; exit }')
	echo "${RPERF_PKG_MIRROR:-${m:-http://deb.debian.org/debian}}"
}

# pkg_depends DEB: the package names of its Depends (first alternatives)
pkg_depends() {
	dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' | grep .
}

# pkg_base PACKAGE...: the cached root (minbase + PACKAGES), made when
# missing (one retry of a mirror hiccup); prints its path. Roots of another
# package list are removed (stale).
pkg_base() {
	local mirror include key base t0 try
	mirror=$(pkg_mirror)
	include=$(printf '%s\n' "$@" | sort -u | paste -sd, -)
	key=$(printf '%s %s\n' "$mirror" "$include" | sha256sum | cut -c1-12)
	base=$pkg_cache/bookworm-$key
	mkdir -p "$pkg_cache"
	if [ ! -e "$base/.complete" ]; then
		echo "chroot: making the Debian 12 root (cold; cached in $base): minbase + $include from $mirror" >&2
		t0=$(date +%s)
		for try in 1 2; do
			rm -rf --one-file-system "$base.tmp"
			debootstrap --variant=minbase --include="$include" bookworm "$base.tmp" "$mirror" \
				> "$pkg_cache/debootstrap.log" 2>&1 && break
			echo "chroot: debootstrap attempt $try failed: $(tail -3 "$pkg_cache/debootstrap.log")" >&2
			[ "$try" = 2 ] && { rm -rf --one-file-system "$base.tmp"; return 1; }
		done
		rm -f "$base.tmp"/var/cache/apt/archives/*.deb
		touch "$base.tmp/.complete"
		find "$pkg_cache" -mindepth 1 -maxdepth 1 -name 'bookworm-*' ! -name "bookworm-$key*" \
			-exec rm -rf --one-file-system {} +
		mv "$base.tmp" "$base"
		echo "chroot: root made in $(($(date +%s) - t0)) s" >&2
	fi
	echo "$base"
}

# pkg_extend BASE NAME PACKAGE...: BASE plus PACKAGES (apt-get in a copy),
# cached beside it as BASE-NAME; prints its path
pkg_extend() {
	local base=$1 name=$2 ext t0
	shift 2
	ext=$base-$name
	if [ ! -e "$ext/.complete" ]; then
		echo "chroot: adding $* to a copy of $base (cold; cached in $ext)" >&2
		t0=$(date +%s)
		rm -rf --one-file-system "$ext.tmp"
		cp -a "$base" "$ext.tmp"
		cp /etc/resolv.conf "$ext.tmp/etc/resolv.conf" 2> /dev/null
		mount -t proc proc "$ext.tmp/proc" ||
			{ echo "chroot: cannot mount proc here: skipped"; rm -rf --one-file-system "$ext.tmp"; exit 77; }
		if ! pkg_in "$ext.tmp" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"' sh "$@" \
			> "$pkg_cache/extend-$name.log" 2>&1; then
			echo "chroot: apt-get install $* failed: $(tail -3 "$pkg_cache/extend-$name.log")" >&2
			umount -l "$ext.tmp/proc"
			rm -rf --one-file-system "$ext.tmp"
			return 1
		fi
		umount -l "$ext.tmp/proc"
		pkg_in "$ext.tmp" apt-get clean
		rm -rf "$ext.tmp"/var/lib/apt/lists/*
		mv "$ext.tmp" "$ext"
		echo "chroot: $name root made in $(($(date +%s) - t0)) s" >&2
	fi
	echo "$ext"
}

# pkg_in ROOT CMD...: CMD in the chroot with a clean environment
pkg_in() {
	local r=$1
	shift
	chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root "$@"
}

# pkg_copy BASE ROOT: a fresh copy with proc, sys, dev mounted; exit 77 when
# this machine cannot mount (a container without CAP_SYS_ADMIN)
pkg_copy() {
	local t0
	t0=$(date +%s)
	mkdir -p "$(dirname "$2")"
	cp -a "$1" "$2" || { bad "copying $1"; exit 1; }
	echo "chroot: root copied in $(($(date +%s) - t0)) s"
	mount -t proc proc "$2/proc" && mount --rbind /sys "$2/sys" && mount --bind /dev "$2/dev" ||
		{ pkg_umount "$2"; echo "chroot: cannot mount proc, sys, dev in the chroot here: skipped"; exit 77; }
}

# pkg_clean DIR: remove DIR, a killed run's mounts under it first (never
# into the host's /dev or /sys: --one-file-system, and nothing mounted left)
pkg_clean() {
	local d m
	d=$(realpath -m "$1")
	for m in proc sys dev; do
		mountpoint -q "$d/root/$m" && umount -l "$d/root/$m"
	done
	if awk -v d="$d/" 'index($2 "/", d) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		bad "something is still mounted under $d: not removing it"
		exit 1
	fi
	rm -rf --one-file-system "$d"
}

# pkg_stop ROOT: end the processes this test started in ROOT (those whose
# root directory is ROOT: daemons, their children): TERM, then KILL after 5 s
pkg_stop() {
	local r p t left
	r=$(realpath -m "$1")
	for t in 0 1 2 3 4 5 6 7 8 9 10; do
		left=
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2> /dev/null)" = "$r" ] && left="$left ${p#/proc/}"
		done
		[ -z "$left" ] && return 0
		# shellcheck disable=SC2086 # one pid per word
		if [ "$t" = 10 ]; then kill -KILL $left 2> /dev/null; else kill -TERM $left 2> /dev/null; fi
		sleep 0.5
	done
}

pkg_umount() {
	local m
	for m in proc sys dev; do
		mountpoint -q "$1/$m" && umount -l "$1/$m"
	done
	return 0
}
