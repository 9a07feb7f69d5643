#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# packaging/test-deb.sh DEB WORK - install the rperf package with dpkg -i in
# a clean Debian 12 root (debootstrap chroot) and check it there:
#  - dpkg -i succeeds with only Debian's minbase, man-db, systemd and the
#    package's Depends (computed by dpkg-shlibdeps) installed;
#  - rperf --version (the package's version), man rperf renders, rperf info
#    runs (the dynamic linking for real), ldd finds every library;
#  - the agent as the unit starts it: without a key it refuses (exit 2, the
#    unit's RestartPreventExitStatus), with a key two dry-run agents serve a
#    TLS-PSK rperf run of a 1 s job (libssl at run time);
#  - systemd-analyze verify accepts rperf-agent.service, agent.conf is a
#    conffile, dpkg --purge removes everything;
#  - lintian: its tags are printed; an error (E:) fails the test.
# The root is made once and cached (RPERF_PKG_CACHE, default
# ${XDG_CACHE_HOME:-~/.cache}/rperf-pkg), keyed by the packages in it; each
# run works on a copy. Exit 77 (skip) when not root or debootstrap is
# missing, with the reason.
#   RPERF_PKG_MIRROR   Debian mirror (default: this machine's apt source)
set -uo pipefail
deb=$(realpath "${1:?usage: test-deb.sh DEB WORK}")
work=$(realpath -m "${2:?usage: test-deb.sh DEB WORK}")
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }
[ "$(id -u)" = 0 ] || { echo "test-deb: needs root (chroot, dpkg -i): skipped"; exit 77; }
for tool in debootstrap lintian dpkg-deb; do
	command -v "$tool" > /dev/null ||
		{ echo "test-deb: needs $tool (bash tests/install-deps.sh): skipped"; exit 77; }
done
t_start=$(date +%s)

# the mirror this machine's apt uses for bookworm (deb822 or one-line)
mirror() {
	local m
	m=$(cat /etc/apt/sources.list.d/*.sources 2> /dev/null | awk '
		/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ && u { print u; exit }')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list 2> /dev/null | awk '
		$1 == "deb" && $3 == "bookworm" { print $2; exit }')
	echo "${m:-http://deb.debian.org/debian}"
}
mirror=${RPERF_PKG_MIRROR:-$(mirror)}

# what the root holds: minbase + man-db + systemd + the package's Depends
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/ //g' | grep .)
include=$(printf '%s\n' man-db systemd $depends | sort -u | paste -sd, -)
cache=${RPERF_PKG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rperf-pkg}
key=$(printf '%s %s\n' "$mirror" "$include" | sha256sum | cut -c1-12)
base=$cache/bookworm-$key
mkdir -p "$cache"
if [ ! -e "$base/.complete" ]; then
	echo "test-deb: making the Debian 12 root (cold; cached in $base): minbase + $include from $mirror"
	rm -rf "$base.tmp"
	t0=$(date +%s)
	ok=0
	for try in 1 2; do  # a mirror hiccup: one retry
		if debootstrap --variant=minbase --include="$include" bookworm "$base.tmp" "$mirror" \
			> "$cache/debootstrap.log" 2>&1; then
			ok=1
			break
		fi
		echo "test-deb: debootstrap attempt $try failed: $(tail -3 "$cache/debootstrap.log")"
		rm -rf "$base.tmp"
	done
	[ $ok = 1 ] || { bad "debootstrap bookworm from $mirror (log: $cache/debootstrap.log)"; exit 1; }
	rm -rf "$base.tmp"/var/cache/apt/archives/*.deb
	touch "$base.tmp/.complete"
	# keep only this root: an older Depends list's root is stale
	find "$cache" -mindepth 1 -maxdepth 1 -name 'bookworm-*' ! -name "bookworm-$key*" -exec rm -rf {} +
	mv "$base.tmp" "$base"
	echo "test-deb: root made in $(($(date +%s) - t0)) s"
fi

root=$work/root
cleanup() {
	[ -n "${apids:-}" ] && kill $apids 2> /dev/null
	for m in proc sys dev; do
		mountpoint -q "$root/$m" && umount -l "$root/$m"
	done
}
trap cleanup EXIT
rm -rf "$work"
mkdir -p "$work"
t0=$(date +%s)
cp -a "$base" "$root"
echo "test-deb: root copied in $(($(date +%s) - t0)) s"
# a container without CAP_SYS_ADMIN cannot mount: the environment, not rperf
mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" && mount --bind /dev "$root/dev" ||
	{ echo "test-deb: cannot mount proc, sys, dev in the chroot here: skipped"; exit 77; }
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# 1. dpkg -i
cp "$deb" "$root/tmp/rperf.deb"
if in_root dpkg -i /tmp/rperf.deb > "$work/dpkg.log" 2>&1; then
	ok "dpkg -i $(basename "$deb") on a clean Debian $(cat "$root/etc/debian_version") root"
else
	bad "dpkg -i: $(tail -5 "$work/dpkg.log")"
	exit 1
fi
version=$(dpkg-deb -f "$deb" Version)
upstream=${version%-*}

# 2. the binary, its libraries, its man page
out=$(in_root rperf --version 2>&1)
case $out in
*"$upstream"*) ok "rperf --version: $(echo "$out" | head -1)" ;;
*) bad "rperf --version does not say $upstream: $out" ;;
esac
missing=$(in_root ldd /usr/bin/rperf | grep 'not found')
[ -z "$missing" ] && ok "ldd: every library of /usr/bin/rperf is in the root" || bad "ldd: $missing"
in_root rperf info > "$work/info.out" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -qi clock "$work/info.out" &&
	ok "rperf info runs (exit 0): $(grep -i -m1 'source' "$work/info.out")" ||
	bad "rperf info: exit $rc: $(head -c 300 "$work/info.out")"
in_root man -P cat rperf > "$work/man.out" 2> "$work/man.err"
grep -q "rperf agent" "$work/man.out" && grep -q "rperf-agent.service" "$work/man.out" &&
	ok "man rperf renders ($(wc -l < "$work/man.out") lines, FILES names the unit)" ||
	bad "man rperf: $(head -c 300 "$work/man.err")"

# 3. the agent as the unit runs it: ExecStart with agent.conf's options
conf=$root/etc/rperf/agent.conf
opts=$(sed -n 's/^RPERF_AGENT_OPTS=//p' "$conf")
# shellcheck disable=SC2086 # the unit splits $RPERF_AGENT_OPTS on spaces too
in_root rperf agent $opts > "$work/nokey.out" 2>&1
rc=$?
[ "$rc" = 2 ] && ok "agent without its key file: exit 2 ($(head -1 "$work/nokey.out"))" ||
	bad "agent without its key file: exit $rc (the unit's RestartPreventExitStatus=2 expects 2): $(head -c 300 "$work/nokey.out")"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$root/etc/rperf/agent.key"
chmod 600 "$root/etc/rperf/agent.key"
port=$((30000 + RANDOM % 20000))
apids=
for i in 1 2; do
	# shellcheck disable=SC2086
	in_root rperf agent $opts --dry-run --bind 127.0.0.1 -p $((port + i)) --clock posix \
		> "$work/agent$i.log" 2>&1 &
	apids="$apids $!"
done
for ((t = 0; t < 100; t++)); do
	[ "$(grep -l 'listening on' "$work"/agent*.log 2> /dev/null | wc -l)" = 2 ] && break
	sleep 0.1
done
{
	printf '[global]\nduration = 1s\nwarmup = 0s\ntimeout = 5s\n'
	printf '[host h1]\ncontrol = 127.0.0.1:%d\n[host h2]\ncontrol = 127.0.0.1:%d\n' $((port + 1)) $((port + 2))
	printf '[lsg probe]\nfrom = h2\nto = h1\n[bsg load]\nfrom = h1\nto = h2\n'
} > "$root/tmp/job.ini"
in_root rperf run --key-file /etc/rperf/agent.key --out_json_file /tmp/r.json /tmp/job.ini \
	> "$work/run.out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q '"channel": *"tls-psk"' "$root/tmp/r.json" &&
	grep -q '"dry_run": *true' "$root/tmp/r.json"; then
	ok "rperf run with the key of agent.conf: two installed dry-run agents, TLS-PSK, exit 0"
else
	bad "rperf run against the installed agents: exit $rc: $(head -c 400 "$work/run.out")"
fi
kill $apids 2> /dev/null
wait 2> /dev/null
apids=

# 4. the unit, the conffile
in_root systemd-analyze verify /lib/systemd/system/rperf-agent.service > "$work/verify.out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$work/verify.out" ] &&
	ok "systemd-analyze verify rperf-agent.service: accepted, no message" ||
	bad "systemd-analyze verify: exit $rc: $(cat "$work/verify.out")"
in_root dpkg-query -W -f='${Conffiles}\n' rperf | grep -q '^ /etc/rperf/agent.conf ' &&
	ok "/etc/rperf/agent.conf is a conffile" || bad "/etc/rperf/agent.conf is not a conffile"

# 5. purge: nothing of rperf remains
if in_root dpkg --purge rperf > "$work/purge.log" 2>&1 && [ ! -e "$root/usr/bin/rperf" ] &&
	[ ! -e "$root/etc/rperf" ] && [ ! -e "$root/lib/systemd/system/rperf-agent.service" ]; then
	ok "dpkg --purge removes the binary, the unit and /etc/rperf (key included)"
else
	bad "dpkg --purge: $(tail -3 "$work/purge.log"); left: $(ls -d "$root/usr/bin/rperf" "$root/etc/rperf" 2>&1 | grep -v 'No such')"
fi

# 6. lintian (outside the root): tags listed, errors fail
lintian --pedantic --display-info "$deb" > "$work/lintian.out" 2>&1
sed -n '/^[EWIPX]: /s/^/lintian: /p' "$work/lintian.out"
errors=$(grep -c '^E: ' "$work/lintian.out")
[ "$errors" = 0 ] && ok "lintian: no error ($(grep -c '^W: ' "$work/lintian.out") warnings, listed above)" ||
	bad "lintian: $errors errors (listed above)"
echo "test-deb: $(($(date +%s) - t_start)) s in all"
cleanup
trap - EXIT
[ "$fails" = 0 ] && rm -rf "$work"
[ "$fails" = 0 ]
