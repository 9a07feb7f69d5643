/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * perftest's other tests (--verb read/atomic/write, --reversed,
 * --report-both): the command line's refusals and completions, the
 * ENDPOINT's "access", the check of the
 * buffer a peer advertises, link rates.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "cli/parse.h"
#include "ctrl/ctrl.h"
#include "engine/endpoint.h"
#include "verbs/rate.h"

#include "cli_fixture.h"

static void refused(struct result *r, const char *needle)
{
	assert_int_equal(r->rc, EINVAL);
	if (!strstr(r->err, needle))
		fail_msg("error '%s' lacks '%s'", r->err, needle);
	assert_null(strchr(r->err, '\n'));
	assert_non_null(strstr(r->err, "accepted"));
}

static void cli_completions(void **state)
{
	static struct result r;

	(void)state;
	parse_host(&r, "lat", "--verb", "read",
		   NULL); /* ib_read_lat: postpoll */
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.verb, RPERF_VERB_READ);
	assert_int_equal(r.cfg.spec.test.method, RPERF_METHOD_POSTPOLL);
	parse_host(&r, "bw", "--verb", "atomic", NULL); /* no size: 8 B */
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.nsizes, 1);
	assert_int_equal(r.cfg.sizes[0], 8);
	assert_int_equal(r.cfg.spec.test.atomic_op, RPERF_ATOMIC_FETCH_ADD);
	parse_host(&r, "bw", "--verb", "atomic", "-A", "CMP_AND_SWAP", "-s",
		   "8", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.test.atomic_op, RPERF_ATOMIC_CMP_SWAP);
	parse_host(&r, "lat", "--verb", "write", "--method", "pingpong", NULL);
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.verb, RPERF_VERB_WRITE);
	parse_host(&r, "lat", "--verb", "write", NULL); /* the rperf method */
	assert_int_equal(r.rc, 0);
	assert_int_equal(r.cfg.spec.test.method, RPERF_METHOD_RPERF);
	parse_host(&r, "bw", "--reversed", "--verb", "write_imm", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.reversed);
	parse_host(&r, "bw", "-b", "--report-both", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(r.cfg.report_both);
}

static void cli_refusals(void **state)
{
	static struct result r;

	(void)state;
	parse_host(&r, "lat", "--verb", "read", "--method", "rperf", NULL);
	refused(&r, "Equation 1");
	parse_host(&r, "lat", "--verb", "atomic", "--method", "all", NULL);
	refused(&r, "--method all");
	parse_host(&r, "lat", "--verb", "read", "--method", "pingpong", NULL);
	refused(&r, "--method postpoll");
	parse_host(&r, "lat", "--verb", "write_imm", NULL);
	refused(&r, "not a latency test");
	parse_host(&r, "bw", "--verb", "atomic", "-s", "64", NULL);
	refused(&r, "64 B with --verb atomic");
	parse_host(&r, "bw", "--verb", "atomic", "-a", NULL);
	refused(&r, "-a/--all");
	parse_host(&r, "bw", "-A", "CMP_AND_SWAP", NULL);
	refused(&r, "-A/--atomic_type");
	parse_host(&r, "bw", "--reversed", "-b", NULL);
	refused(&r, "--reversed");
	parse_host(&r, "bw", "--reversed", "--verb", "read", NULL);
	refused(&r, "--verb read");
	parse_host(&r, "bw", "--report-both", NULL);
	refused(&r, "-b/--bidirectional");
	parse_host(&r, "lat", "--reversed", NULL); /* a bw option */
	assert_int_not_equal(r.rc, 0);
}

/* "access" is optional both ways; out of range is malformed. */
static void endpoint_access(void **state)
{
	struct rperf_ctrl_endpoint ep = { .qpn = 1, .mtu = 1024, .size = 64 },
				   out;
	struct rperf_ctrl_msg m = { .type = RPERF_CTRL_ENDPOINT };

	(void)state;
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), 0);
	assert_null(json_object_get(m.payload, "access"));
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), 0);
	assert_int_equal(out.access, 0);
	json_decref(m.payload);
	ep.access = RPERF_EP_REMOTE_READ | RPERF_EP_REMOTE_WRITE;
	assert_int_equal(rperf_ctrl_endpoint_encode(&ep, &m.payload), 0);
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), 0);
	assert_int_equal(out.access, ep.access);
	json_object_set_new(m.payload, "access", json_integer(8));
	assert_int_equal(rperf_ctrl_endpoint_decode(&m, &out), EBADMSG);
	json_decref(m.payload);
	assert_int_equal(rperf_endpoint_access_bits(IBV_ACCESS_REMOTE_ATOMIC |
						    IBV_ACCESS_LOCAL_WRITE),
			 RPERF_EP_REMOTE_ATOMIC);
}

/* Every advertised byte is hostile: size, wrap-around, alignment, access. */
static void peer_buffer(void **state)
{
	struct rperf_ctrl_endpoint p = { .addr = 0x10000,
					 .size = 4096,
					 .access = RPERF_EP_ACCESS_ALL };
	char err[256];

	(void)state;
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_READ, 4096, "h1",
					      err, 256),
			 0);
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_READ, 4097, "h1",
					      err, 256),
			 EPROTO);
	assert_non_null(strstr(err, "4096 B"));
	p.addr = UINT64_MAX - 10;
	p.size = UINT64_MAX;
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_WRITE, 64, "h1",
					      err, 256),
			 EPROTO);
	p.addr = 0x10004;
	p.size = 64;
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_ATOMIC, 8, "h1",
					      err, 256),
			 EPROTO);
	assert_non_null(strstr(err, "aligned"));
	p.addr = 0x10000;
	p.access = RPERF_EP_REMOTE_WRITE;
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_ATOMIC, 8, "h1",
					      err, 256),
			 EPROTO);
	p.access = 0; /* an older rperf: WRITEs as before, no READ */
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_WRITE, 64, "h1",
					      err, 256),
			 0);
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_READ, 64, "h1",
					      err, 256),
			 EPROTO);
	assert_non_null(strstr(err, "older"));
	assert_int_equal(rperf_peer_buf_check(&p, RPERF_VERB_SEND, 1 << 20,
					      "h1", err, 256),
			 0);
}

static void link_rates(void **state)
{
	(void)state;
	/* 4x FDR: 14.0625 Gb/s per lane, 64b/66b */
	assert_true(rperf_ib_rate_gbps(16, 2) > 54.5 &&
		    rperf_ib_rate_gbps(16, 2) < 54.6);
	/* 4x QDR: 10 Gb/s per lane, 8b/10b */
	assert_true(rperf_ib_rate_gbps(4, 2) == 32.0);
	/* 4x EDR = 100 Gb/s of data */
	assert_true(rperf_ib_rate_gbps(32, 2) == 100.0);
	assert_true(rperf_ib_rate_gbps(3, 2) == 0);
	assert_true(rperf_ib_rate_gbps(16, 3) == 0);
	assert_int_equal(rperf_vl_count(4), 8);
	assert_int_equal(rperf_vl_count(5), 15);
	assert_int_equal(rperf_vl_count(9), 0);
	assert_true(rperf_netdev_gbps("../etc") == 0);
	assert_true(rperf_netdev_gbps("no-such-netdev0") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cli_completions),
		cmocka_unit_test(cli_refusals),
		cmocka_unit_test(link_rates),
		cmocka_unit_test(endpoint_access),
		cmocka_unit_test(peer_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
