# SPDX-License-Identifier: BSD-2-Clause
# CPACK_PRE_BUILD_SCRIPTS: Debian's layout in the staged tree before the DEB
# generator packs it: gzip -9n the man page (no name, no time: the package
# is reproducible), the copyright file (DEP-5 around LICENSE) and
# changelog.Debian.gz dated SOURCE_DATE_EPOCH.
set(_root "${CPACK_TEMPORARY_INSTALL_DIRECTORY}${CPACK_PACKAGING_INSTALL_PREFIX}")
if(NOT IS_DIRECTORY "${_root}")
	message(FATAL_ERROR "finish-tree: no staged tree at ${_root}")
endif()
find_program(_gzip gzip REQUIRED)
function(_gz file)
	execute_process(COMMAND ${_gzip} -9nf "${file}" RESULT_VARIABLE rc)
	if(rc)
		message(FATAL_ERROR "finish-tree: gzip ${file}: ${rc}")
	endif()
endfunction()

file(GLOB _pages "${_root}/${CPACK_RPERF_MANDIR}/man*/*.[1-9]")
foreach(p ${_pages})
	_gz("${p}")
endforeach()

set(_doc "${_root}/${CPACK_RPERF_DOCDIR}")
file(READ "${CPACK_RPERF_LICENSE}" _license)
string(REGEX REPLACE "\n\n" "\n.\n" _license "${_license}")
string(REGEX REPLACE "\n([^\n])" "\n \\1" _license "${_license}")
file(WRITE "${_doc}/copyright"
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rperf

Files: *
Copyright: 2026 the rperf authors
License: BSD-2-clause

License: BSD-2-clause
 ${_license}")

if(DEFINED ENV{SOURCE_DATE_EPOCH})
	set(_epoch "$ENV{SOURCE_DATE_EPOCH}")
else()
	set(_epoch 0)
endif()
execute_process(COMMAND date -u -R -d "@${_epoch}" OUTPUT_VARIABLE _date
	OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(rc)
	message(FATAL_ERROR "finish-tree: date -d @${_epoch}: ${rc}")
endif()
file(WRITE "${_doc}/changelog.Debian"
"rperf (${CPACK_PACKAGE_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}) unstable; urgency=medium

  * Package built with CPack from the rperf sources (packaging/).

 -- ${CPACK_DEBIAN_PACKAGE_MAINTAINER}  ${_date}
")
_gz("${_doc}/changelog.Debian")

# what dh_strip does: ELF files without .comment/.note, static libraries
# without debug information (CPACK_STRIP_FILES strips the binary only)
find_program(_strip strip REQUIRED)
file(GLOB_RECURSE _elves "${_root}/bin/*" "${_root}/lib/*.a")
foreach(f ${_elves})
	set(_args --remove-section=.comment --remove-section=.note)
	if(f MATCHES "\\.a$")
		list(APPEND _args --strip-debug --enable-deterministic-archives)
	endif()
	execute_process(COMMAND ${_strip} ${_args} "${f}" RESULT_VARIABLE rc)
	if(rc)
		message(FATAL_ERROR "finish-tree: strip ${f}: ${rc}")
	endif()
endforeach()
