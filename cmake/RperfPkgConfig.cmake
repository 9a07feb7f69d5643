# SPDX-License-Identifier: BSD-2-Clause
# rperf.pc with paths relative to ${pcfiledir}, so that it stays right after
# `cmake --install build --prefix X` (the configure-time prefix is not
# written into it). Absolute install dirs (-DCMAKE_INSTALL_LIBDIR=/abs) are
# written as they are: they do not move with the prefix either.
set(_pcdir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
	set(RPERF_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
	set(RPERF_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
	# from PREFIX/LIBDIR/pkgconfig back up to PREFIX: "../.." for "lib"
	file(RELATIVE_PATH _up "/_rperf_prefix/${_pcdir}" "/_rperf_prefix")
	string(REGEX REPLACE "/$" "" _up "${_up}")
	set(RPERF_PC_PREFIX "\${pcfiledir}/${_up}")
	set(RPERF_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
	set(RPERF_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
	set(RPERF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/rperf.pc.in
	${CMAKE_CURRENT_BINARY_DIR}/rperf.pc @ONLY)
unset(_pcdir)
unset(_up)
