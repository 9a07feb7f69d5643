# SPDX-License-Identifier: BSD-2-Clause
# The progress line: on a pseudo-terminal (python3's pty) a 3-point sweep of
# dry-run agents shows it; to files, and with --quiet, nothing of it.
add_test(NAME unit.progress_tty COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/progress.sh
	$<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.progress_tty PROPERTIES LABELS unit TIMEOUT 120)
