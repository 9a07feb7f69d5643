# SPDX-License-Identifier: BSD-2-Clause
# The lat and bw text tables read as a perftest user's script reads them:
# Python's float() on every numeric column, the default table in 120 columns.
add_executable(render_tables ${CMAKE_CURRENT_SOURCE_DIR}/render_tables.c)
target_link_libraries(render_tables PRIVATE rperf)
add_test(NAME unit.tables COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/tables.py
	$<TARGET_FILE:render_tables>)
set_tests_properties(unit.tables PROPERTIES LABELS unit TIMEOUT 60)
