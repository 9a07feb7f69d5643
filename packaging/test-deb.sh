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
# run works on a copy (packaging/chroot-lib.sh). Exit 77 (skip) when not
# root, debootstrap is missing or the chroot cannot be mounted, with the
# reason.
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

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=packaging/chroot-lib.sh
. "$here/chroot-lib.sh"

# the root: minbase + man-db + systemd + the package's Depends
# shellcheck disable=SC2046 # one name per word
base=$(pkg_base man-db systemd $(pkg_depends "$deb")) ||
	{ bad "debootstrap bookworm from $(pkg_mirror) (log: $pkg_cache/debootstrap.log)"; exit 1; }
root=$work/root
cleanup() {
	pkg_stop "$root"
	pkg_umount "$root"
}
trap cleanup EXIT
pkg_clean "$work"
mkdir -p "$work"
pkg_copy "$base" "$root"
in_root() { pkg_in "$root" "$@"; }

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

plot=$root/usr/share/rperf/plot
gps=$(sed -n 's/.*render \([A-Za-z0-9_]*\.gp\).*/\1/p' "$plot/rperf-plot.sh" 2> /dev/null | sort -u)
lost=$(for gp in $gps; do [ -s "$plot/$gp" ] || echo "$gp"; done)
[ -n "$gps" ] && [ -z "$lost" ] && ok "rperf-plot.sh and the gnuplot files it renders: $(echo $gps)" ||
	bad "rperf-plot.sh renders files the package lacks: ${lost:-no render line found}"

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
in_root systemd-analyze verify /usr/lib/systemd/system/rperf-agent.service > "$work/verify.out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -s "$work/verify.out" ] &&
	ok "systemd-analyze verify rperf-agent.service: accepted, no message" ||
	bad "systemd-analyze verify: exit $rc: $(cat "$work/verify.out")"
# information, not a check: systemd's exposure score of the unit
in_root systemd-analyze security --offline=yes /usr/lib/systemd/system/rperf-agent.service \
	2> /dev/null | grep -i 'overall exposure' | sed 's/^/info systemd-analyze security: /'
in_root dpkg-query -W -f='${Conffiles}\n' rperf | grep -q '^ /etc/rperf/agent.conf ' &&
	ok "/etc/rperf/agent.conf is a conffile" || bad "/etc/rperf/agent.conf is not a conffile"

# 5. purge: nothing of rperf remains
if in_root dpkg --purge rperf > "$work/purge.log" 2>&1 && [ ! -e "$root/usr/bin/rperf" ] &&
	[ ! -e "$root/etc/rperf" ] && [ ! -e "$root/usr/lib/systemd/system/rperf-agent.service" ]; then
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
[ "$fails" = 0 ] && pkg_clean "$work"
[ "$fails" = 0 ]
