# SPDX-License-Identifier: BSD-2-Clause
# Dependencies through pkg-config. A missing one stops configure with one line
# naming the Debian package to install.
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
	message(FATAL_ERROR "pkg-config not found; install it: apt-get install pkg-config (or run tests/install-deps.sh)")
endif()

function(rperf_require_pkg target module debpkg)
	pkg_check_modules(${target} QUIET IMPORTED_TARGET ${module})
	if(NOT ${target}_FOUND)
		message(FATAL_ERROR "${module} not found through pkg-config; install it: apt-get install ${debpkg} (or run tests/install-deps.sh)")
	endif()
	set(${target}_VERSION "${${target}_VERSION}" PARENT_SCOPE)
endfunction()

rperf_require_pkg(IBVERBS libibverbs libibverbs-dev)
rperf_require_pkg(RDMACM librdmacm librdmacm-dev)
rperf_require_pkg(NUMA numa libnuma-dev)
rperf_require_pkg(JANSSON jansson libjansson-dev)
rperf_require_pkg(INIH inih libinih-dev) # job files of rperf run
rperf_require_pkg(CRYPTO libcrypto libssl-dev)
rperf_require_pkg(SSL libssl libssl-dev) # TLS 1.3 of rperf run/agent
if(RPERF_TESTS)
	rperf_require_pkg(CMOCKA cmocka libcmocka-dev)
endif()
