# shellcheck shell=bash
# lib/setup.sh - `rxe-lab setup`: host packages, Debian kernel, base image.
# Sourced by tests/lab/rxe-lab after lib/common.sh. Every step is skipped when
# its result is already in the cache, so a second call takes seconds.

# Host packages. Not `rdma-core`: it only adds udev rules and services and
# drags in udev/systemd upgrades; the user-space libraries and the rxe
# provider come with ibverbs-providers.
LAB_HOST_PKGS=(
	qemu-system-x86                          # qemu-system-x86_64 (TCG; no KVM needed)
	busybox-static                           # /init, shell and coreutils in the VM
	ibverbs-providers                        # librxe provider (+ libibverbs1)
	ibverbs-utils rdmacm-utils               # ibv_devices, ibv_rc_pingpong, rping ...
	perftest qperf                           # the comparison tools
	iproute2                                 # ip, tc, rdma, bridge (full versions)
	tcpdump                                  # to see what reaches the wire
	jq                                       # JSON checks in the VM (rperf --json)
	strace                                   # lat.sh: --poll yield's sched_yield() calls
	cpio kmod xz-utils zstd                  # image building, module dependencies
	libibverbs-dev librdmacm-dev             # to build rperf on the host
)

# Binaries copied into the base image, with the libraries ldd finds for them.
LAB_IMAGE_BINS=(
	bash
	ibv_devices ibv_devinfo ibv_rc_pingpong ibv_uc_pingpong ibv_ud_pingpong
	ibv_srq_pingpong
	rping ucmatose udaddy rdma_server rdma_client
	ib_send_lat ib_send_bw ib_write_lat ib_write_bw ib_read_lat ib_read_bw
	ib_atomic_lat ib_atomic_bw
	qperf
	ip tc rdma bridge ss
	tcpdump jq strace
)

# Modules loaded by /init at every boot, in dependency order (computed here
# with modprobe --show-depends). crc32_generic first: rdma_rxe needs a crc32
# implementation and fails to load without one.
LAB_MODS_BOOT=(crc32_generic crc32_pclmul rdma_rxe rdma_ucm ib_uverbs veth bridge sch_netem)
# In the image, loaded on demand (tc asks for sch_prio, ...; 9p for /out;
# sch_drr and sch_ets for lab_wrr's weighted classes; sch_ingress: clsact).
LAB_MODS_LAZY=(sch_prio sch_htb sch_tbf sch_pfifo_fast sch_drr sch_ets sch_ingress cls_u32 cls_basic
	cls_matchall act_gact act_skbedit em_u32 em_cmp 9p 9pnet_virtio virtio_pci)

# ---------------------------------------------------------------- packages
missing_pkgs() {
	local p st
	for p in "${LAB_HOST_PKGS[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[ "$st" = installed ] || printf '%s\n' "$p"
	done
}

apt_lists_ready() {  # a candidate for the kernel meta package means lists exist
	apt-cache policy "${RPERF_LAB_KMETA:-linux-image-amd64}" 2>/dev/null |
		grep -q 'Candidate: [0-9]'
}

setup_packages() {
	local missing
	command -v dpkg-query >/dev/null || skip "not a Debian-like host (no dpkg-query); install QEMU and the packages in tests/lab/README.md by hand"
	mapfile -t missing < <(missing_pkgs)
	if [ "${#missing[@]}" -eq 0 ]; then
		note "host packages: all ${#LAB_HOST_PKGS[@]} installed"
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		if ! command -v qemu-system-x86_64 >/dev/null; then
			skip "qemu-system-x86_64 is not installed and setup is not root (apt-get install ${missing[*]})"
		fi
		skip "missing host packages (${missing[*]}); run 'rxe-lab setup' as root to install them"
	fi
	note "installing host packages: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_lists_ready || apt-get update -q || true
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}"; then
		apt-get update -q || true
		apt-get install -y -q --no-install-recommends "${missing[@]}" ||
			skip "apt-get could not install: ${missing[*]}"
	fi
	command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 still missing after apt-get"
}

# ------------------------------------------------------------------ kernel
# Debian's own kernel: the linux-image-<version>-amd64 that linux-image-amd64
# depends on (RPERF_LAB_KPKG pins one, RPERF_LAB_KMETA picks another meta
# package, e.g. linux-image-6.12-amd64). Once fetched, the cached kernel is
# kept (reproducible runs) until `setup --refresh`.
resolve_kernel_pkg() {
	local meta=${RPERF_LAB_KMETA:-linux-image-amd64}
	apt-cache depends "$meta" 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

setup_kernel() {  # prints nothing; leaves $LAB_CACHE/KV
	local kpkg=${RPERF_LAB_KPKG:-} kv kdir tmp deb
	kv=$(cached_kv)
	if [ -z "$kpkg" ] && [ -z "${LAB_REFRESH:-}" ] && [ -n "$kv" ] &&
		[ -f "$LAB_CACHE/kernel-$kv/boot/vmlinuz-$kv" ]; then
		note "kernel: $kv (cached)"
		return 0
	fi
	if [ -z "$kpkg" ]; then
		kpkg=$(resolve_kernel_pkg)
		if [ -z "$kpkg" ] && [ "$(id -u)" = 0 ]; then
			apt-get update -q || true
			kpkg=$(resolve_kernel_pkg)
		fi
		[ -n "$kpkg" ] || skip "cannot resolve Debian's kernel package (apt-cache depends ${RPERF_LAB_KMETA:-linux-image-amd64}: no apt lists or no Debian archive)"
	fi
	kv=${kpkg#linux-image-}
	kdir=$LAB_CACHE/kernel-$kv
	if [ ! -f "$kdir/boot/vmlinuz-$kv" ]; then
		note "kernel: downloading $kpkg"
		tmp=$(mktemp -d "$LAB_CACHE/.kernel.XXXXXX")
		# root: apt warns that _apt cannot write to tmp ("unsandboxed"); harmless
		if ! (cd "$tmp" && apt-get download -q "$kpkg" 2>&1 | grep -v -i unsandboxed); then
			:
		fi
		deb=$(find "$tmp" -maxdepth 1 -name "${kpkg}_*.deb" | head -n 1)
		if [ -z "$deb" ]; then
			rm -rf "$tmp"
			skip "cannot download the kernel package $kpkg from the apt archive"
		fi
		rm -rf "$kdir"
		dpkg -x "$deb" "$tmp/x"
		# the .deb ships no modules.dep (its postinst runs depmod)
		depmod -b "$tmp/x" "$kv"
		mv "$tmp/x" "$kdir"
		rm -rf "$tmp"
	fi
	extract_vmlinux "$kv"
	[ -d "$kdir/lib/modules/$kv/kernel/drivers/infiniband/sw/rxe" ] ||
		skip "kernel $kv has no rdma_rxe module"
	printf '%s\n' "$kv" > "$LAB_CACHE/KV"
	note "kernel: $kv"
}

# The bzImage decompresses itself (xz, ~6 s under TCG). qemu can boot the
# uncompressed ELF vmlinux directly through its PVH entry note: extract it.
extract_vmlinux() {
	local kv=$1 bz vml off
	bz=$LAB_CACHE/kernel-$kv/boot/vmlinuz-$kv
	vml=$LAB_CACHE/kernel-$kv/boot/vmlinux-$kv
	[ -s "$vml" ] && return 0
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$bz" | head -n 1 | cut -d: -f1 || true)
	if [ -n "$off" ]; then           # Debian 6.1: CONFIG_KERNEL_XZ
		tail -c +$((off + 1)) "$bz" | xz -dc > "$vml" 2>/dev/null || true
	else                             # Debian 6.12: CONFIG_KERNEL_ZSTD
		off=$(LC_ALL=C grep -obUaP '\x28\xb5\x2f\xfd' "$bz" | head -n 1 | cut -d: -f1 || true)
		if [ -n "$off" ]; then
			tail -c +$((off + 1)) "$bz" | zstd -dcq > "$vml" 2>/dev/null || true
		fi
	fi
	# keep it only if it is an ELF file (the decompressors stop at the end of
	# the payload and complain about trailing data: ignored above)
	if [ "$(head -c 4 "$vml" 2>/dev/null | od -An -tx1 | tr -d ' ')" != 7f454c46 ]; then
		note "could not extract vmlinux; booting the compressed bzImage (slower)"
		rm -f "$vml"
	fi
}

# ------------------------------------------------------------------- image
# The base image is rebuilt only when its inputs change: this script, the
# kernel, or the versions of the packages whose files go into it.
image_fingerprint() {
	local kv=$1
	{
		printf 'kv=%s\n' "$kv"
		cat "$LAB_DIR/lib/setup.sh"
		dpkg-query -W -f='${Package} ${Version}\n' "${LAB_HOST_PKGS[@]}" \
			libc6 libjansson4 libnuma1 2>/dev/null || true
	} | sha256sum | cut -d' ' -f1
}

setup_image() {
	local kv=$1 img stamp fp
	img=$(base_image "$kv")
	stamp=$img.stamp
	fp=$(image_fingerprint "$kv")
	if [ -f "$img" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$fp" ]; then
		note "base image: $img (up to date)"
		return 0
	fi
	note "base image: building for $kv"
	build_image "$kv"
	printf '%s\n' "$fp" > "$stamp"
}

# copy_into ROOT HOSTPATH: the file at the same path inside ROOT, following
# symlinks; merged /usr (bookworm): /lib/x/y lands in /usr/lib/x/y.
copy_into() {
	local root=$1 src=$2 dst
	dst=$src
	case $dst in /lib/* | /lib64/* | /bin/* | /sbin/*) dst=/usr$dst ;; esac
	[ -e "$root$dst" ] && return 0
	mkdir -p "$root$(dirname "$dst")"
	cp -L "$src" "$root$dst"
}
# ldd_libs ELF...: the shared libraries (absolute paths) they need
ldd_libs() {
	local f
	for f in "$@"; do ldd "$f" 2>/dev/null; done |
		awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }' | sort -u
}

build_image() {
	local kv=$1 root img kroot b src lib m kind path rest rel
	local -a bins=() mods=() boot=()
	local -A seen=()
	root=$(base_root "$kv")
	img=$(base_image "$kv")
	kroot=$LAB_CACHE/kernel-$kv
	rm -rf "$root"
	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib/x86_64-linux-gnu,usr/lib64,etc,proc,sys,dev,tmp,run,var,root,mnt,out,test}
	ln -s usr/bin "$root/bin"
	ln -s usr/sbin "$root/sbin"
	ln -s usr/lib "$root/lib"
	ln -s usr/lib64 "$root/lib64"
	ln -s ../run "$root/var/run"

	# busybox applets, unless a real tool of that name is copied below
	cp /bin/busybox "$root/usr/bin/busybox"
	for b in "${LAB_IMAGE_BINS[@]}"; do
		src=$(command -v "$b") || die "missing host binary $b (run rxe-lab setup as root)"
		src=$(readlink -f "$src")
		cp "$src" "$root/usr/bin/$b"
		bins+=("$src")
	done
	for b in $(/bin/busybox --list); do
		[ -e "$root/usr/bin/$b" ] || ln -s busybox "$root/usr/bin/$b"
	done

	# rdma-core: the rxe provider and its .driver file (libibverbs dlopen()s it)
	mkdir -p "$root/etc/libibverbs.d"
	for lib in /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav*.so; do
		[ -e "$lib" ] || die "no rxe provider (ibverbs-providers) on the host"
		copy_into "$root" "$lib"
		bins+=("$lib")
	done
	cp /etc/libibverbs.d/rxe.driver "$root/etc/libibverbs.d/"
	# libraries rperf links dynamically, if the host has them: saves adding
	# them to the per-boot overlay
	for lib in /usr/lib/x86_64-linux-gnu/libjansson.so.4 /usr/lib/x86_64-linux-gnu/libnuma.so.1; do
		[ -e "$lib" ] && bins+=("$lib")
	done
	while read -r lib; do copy_into "$root" "$lib"; done < <(ldd_libs "${bins[@]}")
	for lib in /usr/lib/x86_64-linux-gnu/libjansson.so.4 /usr/lib/x86_64-linux-gnu/libnuma.so.1; do
		[ -e "$lib" ] && copy_into "$root" "$lib"
	done
	# glibc dlopen()s libgcc_s for pthread_cancel/pthread_exit (rping)
	copy_into "$root" /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
	# tc: netem distribution tables; iproute2 name tables
	[ -d /usr/lib/x86_64-linux-gnu/tc ] && cp -a /usr/lib/x86_64-linux-gnu/tc "$root/usr/lib/x86_64-linux-gnu/"
	mkdir -p "$root/etc/iproute2"
	cp -a /usr/share/iproute2/. "$root/etc/iproute2/" 2>/dev/null || true

	# ld.so cache and a minimal /etc
	printf '/usr/lib/x86_64-linux-gnu\n' > "$root/etc/ld.so.conf"
	ldconfig -r "$root"
	printf 'root:x:0:0:root:/root:/bin/bash\ntcpdump:x:104:110::/nonexistent:/bin/false\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$root/etc/passwd"
	printf 'root:x:0:\ntcpdump:x:110:\nnogroup:x:65534:\n' > "$root/etc/group"
	printf '127.0.0.1 localhost\n' > "$root/etc/hosts"
	printf 'hosts: files\n' > "$root/etc/nsswitch.conf"
	printf 'qperf 19765/tcp\n' > "$root/etc/services"

	# kernel modules, decompressed (insmod of .ko.xz would need xz in the VM,
	# and decompressing at every boot costs time under TCG)
	for m in "${LAB_MODS_BOOT[@]}" "${LAB_MODS_LAZY[@]}"; do
		while read -r kind path rest; do
			[ "$kind" = insmod ] || continue
			rel=${path#"$kroot"}
			rel=${rel%.xz}
			rel=${rel%.zst}
			[ -n "${seen[$rel]:-}" ] && continue
			seen[$rel]=1
			mkdir -p "$root$(dirname "$rel")"
			case $path in
			*.xz) xz -dc "$path" > "$root$rel" ;;
			*.zst) zstd -dqc "$path" > "$root$rel" ;;
			*) cp "$path" "$root$rel" ;;
			esac
			mods+=("$rel")
			case " ${LAB_MODS_BOOT[*]} " in *" $m "*) boot+=("$rel") ;; esac
		done < <(modprobe -d "$kroot" -S "$kv" --show-depends "$m" 2>/dev/null)
	done
	printf '%s\n' "${boot[@]}" > "$root/etc/modules.boot"
	cp "$kroot/lib/modules/$kv"/modules.{builtin,builtin.modinfo,order} "$root/lib/modules/$kv/"
	depmod -b "$root" "$kv"
	printf '%s\n' "$kv" > "$root/etc/kernel-release"

	# an uncompressed cpio: unpacking is ~1 s faster under TCG than gzip
	(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet) > "$img.tmp"
	mv "$img.tmp" "$img"
	note "base image: $(du -sh "$img" | cut -f1) ($((${#mods[@]})) modules, ${#boot[@]} at boot)"
}

cmd_setup() {
	local t0 t kv
	t0=$(now)
	while [ $# -gt 0 ]; do
		case $1 in
		--refresh) LAB_REFRESH=1 ;;
		--build) shift ;;      # accepted for symmetry; setup does not need it
		--build=*) ;;
		-h | --help) usage; exit 0 ;;
		*) die "setup: unknown option $1" ;;
		esac
		shift
	done
	mkdir -p "$LAB_CACHE" || skip "cannot create the cache folder $LAB_CACHE"
	rm -f "$LAB_CACHE/skip-reason"
	t=$(now); setup_packages; note "packages took $(elapsed "$t")s"
	t=$(now); setup_kernel; note "kernel took $(elapsed "$t")s"
	kv=$(cached_kv)
	t=$(now); setup_image "$kv"; note "image took $(elapsed "$t")s"
	note "setup done in $(elapsed "$t0")s; cache $LAB_CACHE"
}
