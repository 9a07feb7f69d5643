# SPDX-License-Identifier: BSD-2-Clause
# rperf run --prom on loopback (dry-run agents): promtool accepts the file,
# its figures are the JSON's.
add_test(NAME unit.prom_file COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/prom.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.prom_file PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
