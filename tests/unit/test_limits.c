/* SPDX-License-Identifier: BSD-2-Clause */
/* Server limits per client: the pin estimate, refusals, the stall limit,
 * the GID check, the output-path check (src/engine/limits.c, cli/out_check.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <rperf/report.h>

#include "twohost/twohost_spec.h"
#include "job/options.h"
#include "cli/out_check.h"
#include "engine/limits.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* One QP, 512 receives, one send, 64 KiB: every ring by hand. */
static void estimate_small(void **state)
{
	struct rperf_pin_req r = {
		.qps = 1, .send_depth = 1, .recv_depth = 512, .buf_bytes = 65536
	};
	struct rperf_pin_est e;

	(void)state;
	rperf_pin_estimate(&r, &e);
	/* send WQs 2 x 512 -> a page; receives 1024 x 64; send CQ 2 x 128 ->
	 * a page; receive CQ 1024 x 128; 4 KiB of context */
	assert_int_equal(e.per_qp, 4096 + 65536 + 4096 + 131072 + 4096);
	assert_int_equal(e.bufs, 65536);
	assert_int_equal(e.total, e.per_qp + 65536);
	r.qps = 8; /* linear in the QPs, the buffer counted once */
	rperf_pin_estimate(&r, &e);
	assert_int_equal(e.total, 8 * e.per_qp + 65536);
	r.huge_shift = 21; /* a 2 MiB huge page holds the buffer */
	rperf_pin_estimate(&r, &e);
	assert_int_equal(e.bufs, 2 * MiB);
	r.inline_size = 200; /* send WQEs grow by the inline size */
	r.send_depth = 128;
	rperf_pin_estimate(&r, &e);
	assert_true(e.per_qp >= 256 * (512 + 256));
}

/* -q 1024 -s 16M with the deepest receive queue: refused, in words. */
static void write_meminfo(const char *root, const char *body)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(body, f);
	fclose(f);
}

static void auto_memory(void **state)
{
	char root[] = "/tmp/rperf-limits-XXXXXX";
	uint64_t m;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(rperf_limits_auto_memory(root, &m), ENOENT);
	assert_int_equal(m, 64 * MiB); /* unreadable: the floor */
	write_meminfo(root, "MemTotal: 4000000 kB\nMemAvailable: 2000000 kB\n");
	assert_int_equal(rperf_limits_auto_memory(root, &m), 0);
	assert_int_equal(m, 2000000ull * 1024 / 4);
	write_meminfo(root, "MemAvailable: 64000000 kB\n");
	assert_int_equal(rperf_limits_auto_memory(root, &m), 0);
	assert_int_equal(m, 4 * GiB); /* capped */
	write_meminfo(root, "MemAvailable: 100000 kB\n");
	assert_int_equal(rperf_limits_auto_memory(root, &m), 0);
	assert_int_equal(m, 64 * MiB); /* the floor */
	write_meminfo(root, "MemFree: 100 kB\n");
	assert_int_equal(rperf_limits_auto_memory(root, &m), ENOENT);
	{
		char p[256];

		snprintf(p, sizeof(p), "%s/proc/meminfo", root);
		unlink(p);
		snprintf(p, sizeof(p), "%s/proc", root);
		rmdir(p);
		rmdir(root);
	}
}

/* The server's stall limit bounds the client's RC timeout, not more. */
static void v4_gid(uint8_t gid[16], const char *ip)
{
	memset(gid, 0, 16);
	gid[10] = gid[11] = 0xff;
	assert_int_equal(inet_pton(AF_INET, ip, gid + 12), 1);
}

static void gid_roce(void **state)
{
	struct rperf_dev d = { .roce = true, .gid_index = 1 };
	struct rperf_endpoint ep[2] = { { .qpn = 1 }, { .qpn = 2 } };
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *a6 = (void *)&ss;
	char why[512] = "";

	(void)state;
	v4_gid(ep[0].gid, "127.0.0.1");
	v4_gid(ep[1].gid, "127.0.0.1");
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, "127.0.0.1", ep,
						     2, why, sizeof(why)),
			 0);
	v4_gid(ep[1].gid, "10.77.0.3"); /* a third party: reflection */
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, "127.0.0.1", ep,
						     2, why, sizeof(why)),
			 EACCES);
	assert_non_null(strstr(
		why,
		"endpoint GID 10.77.0.3 is not the control connection's address 127.0.0.1"));
	assert_int_equal(rperf_limits_gid_check_host(&d, "b", "127.0.0.1", ep,
						     2, why, sizeof(why)),
			 EACCES);
	assert_non_null(
		strstr(why, "is not the address of host b (127.0.0.1)"));
	/* a dual-stack listener sees IPv4 peers as v4-mapped IPv6 */
	a6->sin6_family = AF_INET6;
	memcpy(&a6->sin6_addr, ep[0].gid, 16);
	assert_true(rperf_limits_gid_is_addr(ep[0].gid, &ss));
	assert_false(rperf_limits_gid_is_addr(ep[1].gid, &ss));
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, NULL, ep, 1, why,
						     sizeof(why)),
			 EACCES); /* no address: refused, not waved through */
}

/* A dual-stack listener: the IPv4 client appears as ::ffff:127.0.0.1,
 * matches its v4-mapped GID and is named as 127.0.0.1. */
static void gid_dual_stack(void **state)
{
	struct rperf_dev d = { .roce = true, .gid_index = 1 };
	struct rperf_endpoint ep = { .qpn = 1 };
	char why[512] = "";

	(void)state;
	v4_gid(ep.gid, "127.0.0.1");
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL,
						     "::ffff:127.0.0.1", &ep, 1,
						     why, sizeof(why)),
			 0);
	v4_gid(ep.gid, "10.77.0.2");
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL,
						     "::ffff:127.0.0.1", &ep, 1,
						     why, sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "connection's address 127.0.0.1 ("));
}

static void gid_ib(void **state)
{
	struct rperf_dev d = { .roce = false, .gid_index = 0 };
	struct rperf_endpoint ep = { .lid = 7 };
	char why[512];

	(void)state;
	d.port_attr.lid = 5;
	inet_pton(AF_INET6, "fe80::1:2", d.gid.raw);
	inet_pton(AF_INET6, "fe80::9:9", ep.gid); /* same subnet prefix */
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, NULL, &ep, 1,
						     why, sizeof(why)),
			 0);
	ep.lid = 0;
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, NULL, &ep, 1,
						     why, sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "without a LID"));
	ep.lid = 7;
	inet_pton(AF_INET6, "fec0:1::9:9", ep.gid);
	assert_int_equal(rperf_limits_gid_check_host(&d, NULL, NULL, &ep, 1,
						     why, sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "not on this InfiniBand subnet"));
}

static void gid_source(void **state)
{
	struct rperf_dev d = { .roce = true, .gid_index = 1 };
	char buf[64];

	(void)state;
	v4_gid(d.gid.raw, "10.77.0.2");
	assert_int_equal(rperf_limits_gid_source(&d, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "10.77.0.2");
	inet_pton(AF_INET6, "fd00::2", d.gid.raw);
	assert_int_equal(rperf_limits_gid_source(&d, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "fd00::2");
	inet_pton(AF_INET6, "fe80::2", d.gid.raw);
	assert_int_equal(rperf_limits_gid_source(&d, buf, sizeof(buf)),
			 ENOTSUP);
	d.roce = false;
	assert_int_equal(rperf_limits_gid_source(&d, buf, sizeof(buf)),
			 ENOTSUP);
}

/* Output paths: probed before the run, nothing left behind. */
static void out_paths(void **state)
{
	char dir[] = "/tmp/rperf-out-XXXXXX", file[128], err[512];
	struct rperf_cmdline cfg;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/r.json", dir);
	assert_int_equal(rperf_atomic_check(file), 0);
	assert_int_equal(rmdir(dir), 0); /* the probe was removed */
	strcpy(dir, "/tmp/rperf-out-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/r.json", dir);
	assert_int_equal(rperf_atomic_check("/nonexistent/d/r.json"), ENOENT);
	assert_int_equal(rperf_atomic_check(dir), EISDIR);
	assert_int_equal(rperf_atomic_check(""), EINVAL);
	rperf_cmdline_defaults(&cfg);
	assert_int_equal(rperf_cli_check_outputs(&cfg, err, sizeof(err)), 0);
	cfg.out_json = true;
	cfg.out_json_file = "/nonexistent/d/r.json";
	assert_int_equal(rperf_cli_check_outputs(&cfg, err, sizeof(err)),
			 ENOENT);
	assert_string_equal(
		err,
		"--out_json_file: cannot write '/nonexistent/d/r.json' (No such file or directory); accepted: a file in an existing, writable directory (checked before the measurement)");
	cfg.out_json_file = file;
	cfg.raw_file = dir;
	assert_int_equal(rperf_cli_check_outputs(&cfg, err, sizeof(err)),
			 EISDIR);
	assert_non_null(strstr(err, "--raw: cannot write"));
	assert_non_null(strstr(err, "(it is a directory)"));
	cfg.raw_file = NULL;
	cfg.csv_file = "/proc/nope/x.csv";
	assert_int_not_equal(rperf_cli_check_outputs(&cfg, err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "--csv: "));
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(estimate_small),
		cmocka_unit_test(auto_memory),
		cmocka_unit_test(gid_roce),
		cmocka_unit_test(gid_dual_stack),
		cmocka_unit_test(gid_ib),
		cmocka_unit_test(gid_source),
		cmocka_unit_test(out_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
