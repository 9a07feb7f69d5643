# SPDX-License-Identifier: BSD-2-Clause
# rperf run with control = local hosts, their agents dry (--dry-run).
add_test(NAME unit.local_dry COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/local-dry.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.local_dry PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
