# shellcheck shell=bash
# lib/openmpi.sh - Open MPI in a lab VM, for suites that launch rperf with
# mpirun (rperf run --mpi, issue 13). Optional: only a suite whose script has
# the line "# rxe-lab: openmpi" gets it, and only when Open MPI is installed
# on the host (openmpi-bin; tests/install-deps.sh). Open MPI dlopen()s its
# MCA components and PMIx its plugins, so ldd of the binaries misses them:
# the component trees are copied whole, with what ldd finds for each file.
# Sourced by tests/lab/rxe-lab after lib/vm.sh (uses overlay_add_elf).

OPENMPI_TREES=(/usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2
	/usr/share/openmpi /etc/openmpi)

# openmpi_wanted SCRIPT: does the suite ask for Open MPI?
openmpi_wanted() { [ -n "${1:-}" ] && grep -q '^# rxe-lab: openmpi' "$1"; }

# overlay_add_openmpi OV: mpirun, orted, the component trees and the
# libraries they need; the suite finds /usr/bin/mpirun (or skips, 77)
overlay_add_openmpi() {
	local ov=$1 t f n=0
	command -v orterun > /dev/null && command -v orted > /dev/null || {
		note "Open MPI is not installed on the host (openmpi-bin): the VM has no mpirun"
		return 0
	}
	overlay_add_elf "$ov" "$(command -v orterun)" /usr/bin/mpirun
	overlay_add_elf "$ov" "$(command -v orted)" /usr/bin/orted
	for t in "${OPENMPI_TREES[@]}"; do
		[ -d "$t" ] || continue
		mkdir -p "$ov$(dirname "$t")"
		cp -a "$t" "$ov$(dirname "$t")/"
	done
	# the libraries the components link (copied once, if the base lacks them)
	while IFS= read -r f; do
		overlay_add_elf "$ov" "$f" "$f" > /dev/null 2>&1
		n=$((n + 1))
	done < <(find /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 -name '*.so*' -type f)
	note "overlay: Open MPI $(orterun --version 2> /dev/null | awk 'NR == 1 { print $NF }') (mpirun, orted, $n components and libraries; $(du -sh "$ov/usr/lib/x86_64-linux-gnu/openmpi" | cut -f1) MCA tree)"
}
