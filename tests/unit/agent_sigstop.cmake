# SPDX-License-Identifier: BSD-2-Clause
# Issue 19 on loopback with the real binaries: a SIGSTOPped agent is
# declared failed within 2 x --heartbeat; a wrong key or none is refused.
add_test(NAME unit.agent_sigstop
	COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/agent-sigstop.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.agent_sigstop PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
