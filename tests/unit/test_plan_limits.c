/* SPDX-License-Identifier: BSD-2-Clause */
/* What an agent accepts of a PLAN (src/engine/engine_limits.c): memory,
 * QPs, instances, duration before anything is created; at CONNECT, only
 * endpoints whose GID is the other end's host address (RoCE) or on our
 * subnet with a LID (InfiniBand). */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "engine/limits.h"

#define GiB (1ull << 30)
#define NS_S 1000000000ull

static void spec(struct rperf_gen_spec *s, enum rperf_gen_kind k,
		 const char *name, const char *from, const char *to)
{
	rperf_gen_spec_defaults(s, k);
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->from, sizeof(s->from), "%s", from);
	snprintf(s->to, sizeof(s->to), "%s", to);
}

static const struct rperf_plan_limits lim = { .max_memory = 512ull << 20,
					      .max_qps = 1024,
					      .max_instances = 1024,
					      .max_duration_ns = 3600 * NS_S };

/* The issue's [bsg big] size = 1G, h2 -> h1: both ends are refused with
 * the figure and the limit named; a 64 KiB one passes. */
static void big_bsg_refused(void **state)
{
	struct rperf_gen_spec s;
	struct rperf_proto_plan src = { .host = "h2",
					.sources = &s,
					.nsources = 1 },
				snk = { .host = "h1",
					.sinks = &s,
					.nsinks = 1 };
	struct rperf_plan_cost c;
	char why[400] = "";

	(void)state;
	spec(&s, RPERF_GEN_BSG, "big", "h2", "h1");
	s.size = GiB;
	rperf_engine_plan_cost(&src, &c);
	assert_true(c.bytes >= GiB);
	assert_int_equal(c.qps, 1);
	assert_int_equal(rperf_engine_plan_admit(&lim, &src, why, sizeof(why)),
			 EDQUOT);
	assert_non_null(strstr(why, "would pin 1.00 GiB"));
	assert_non_null(strstr(why, "'big'"));
	assert_non_null(strstr(why, "--max-memory 512 MiB"));
	assert_int_equal(rperf_engine_plan_admit(&lim, &snk, why, sizeof(why)),
			 EDQUOT);
	s.size = 65536;
	assert_int_equal(rperf_engine_plan_admit(&lim, &src, why, sizeof(why)),
			 0);
	assert_int_equal(rperf_engine_plan_admit(&lim, &snk, why, sizeof(why)),
			 0);
}

/* QPs: an LSG source has 3 (wire, loopback pair), its sink 1; a BSG
 * source and sink qps each. */
static void qps_counted(void **state)
{
	struct rperf_gen_spec s[3];
	struct rperf_proto_plan p = { .host = "h1",
				      .sources = s,
				      .nsources = 2,
				      .sinks = &s[2],
				      .nsinks = 1 };
	struct rperf_plan_limits l = lim;
	struct rperf_plan_cost c;
	char why[400] = "";

	(void)state;
	spec(&s[0], RPERF_GEN_LSG, "probe", "h1", "h2");
	spec(&s[1], RPERF_GEN_BSG, "load", "h1", "h2");
	s[1].qps = 100;
	spec(&s[2], RPERF_GEN_BSG, "back", "h2", "h1");
	s[2].qps = 50;
	rperf_engine_plan_cost(&p, &c);
	assert_int_equal(c.qps, 3 + 100 + 50);
	assert_int_equal(c.instances, 3);
	l.max_qps = 152;
	assert_int_equal(rperf_engine_plan_admit(&l, &p, why, sizeof(why)),
			 EDQUOT);
	assert_non_null(strstr(why, "153 QPs"));
	assert_non_null(strstr(why, "--max-qps 152"));
	l.max_qps = 153;
	assert_int_equal(rperf_engine_plan_admit(&l, &p, why, sizeof(why)), 0);
	l.max_instances = 2;
	assert_int_equal(rperf_engine_plan_admit(&l, &p, why, sizeof(why)),
			 EDQUOT);
	assert_non_null(strstr(why, "--max-instances 2"));
}

/* Duration: the start offset counts (start + warm-up + duration). */
static void duration_refused(void **state)
{
	struct rperf_gen_spec s;
	struct rperf_proto_plan p = { .host = "h1",
				      .sources = &s,
				      .nsources = 1 };
	char why[400] = "";

	(void)state;
	spec(&s, RPERF_GEN_LSG, "late", "h1", "h2");
	s.start_ns = 3599 * NS_S;
	s.warmup_ns = NS_S;
	s.duration_ns = NS_S;
	assert_int_equal(rperf_engine_plan_admit(&lim, &p, why, sizeof(why)),
			 EDQUOT);
	assert_non_null(strstr(why, "'late' would end 3601.000 s"));
	assert_non_null(strstr(why, "--max-duration 3600.000 s"));
	s.start_ns = 3598 * NS_S;
	assert_int_equal(rperf_engine_plan_admit(&lim, &p, why, sizeof(why)),
			 0);
}

static void ep_gid(struct rperf_ctrl_endpoint *e, const char *v4)
{
	memset(e, 0, sizeof(*e));
	e->gid[10] = e->gid[11] = 0xff;
	assert_int_equal(inet_pton(AF_INET, v4, e->gid + 12), 1);
	e->qpn = 17;
	e->mtu = 1024;
}

/* RoCE: a peer endpoint must be its host's address in the PLAN. */
static void peer_roce(void **state)
{
	struct rperf_proto_host_addr a[2] = { { "h1", "10.77.0.1" },
					      { "h2", "10.77.0.2" } };
	struct rperf_proto_plan hosts = { .hosts = a, .nhosts = 2 };
	struct rperf_dev d = { .roce = true, .gid_index = 1 };
	struct rperf_ctrl_endpoint qp[2];
	struct rperf_proto_inst_eps peer = { .id = 0, .qps = qp, .nqps = 2 };
	char why[400] = "";

	(void)state;
	ep_gid(&qp[0], "10.77.0.1");
	ep_gid(&qp[1], "10.77.0.1");
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h1", &peer, why,
						 sizeof(why)),
			 0);
	/* the second QP names a third host */
	ep_gid(&qp[1], "10.77.0.4");
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h1", &peer, why,
						 sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "10.77.0.4"));
	assert_non_null(strstr(why, "host h1 (10.77.0.1)"));
	assert_non_null(strstr(why, "third party"));
	/* a host the plan gives no address for */
	ep_gid(&qp[1], "10.77.0.1");
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h3", &peer, why,
						 sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "no address"));
	/* IPv6 host address, non-mapped GID */
	snprintf(a[1].addr, sizeof(a[1].addr), "fd00::2");
	memset(qp[0].gid, 0, 16);
	assert_int_equal(inet_pton(AF_INET6, "fd00::2", qp[0].gid), 1);
	peer.nqps = 1;
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h2", &peer, why,
						 sizeof(why)),
			 0);
}

/* InfiniBand: our subnet prefix, and a LID when our port has one. */
static void peer_ib(void **state)
{
	struct rperf_proto_plan hosts = { 0 };
	struct rperf_dev d = { .roce = false, .gid_index = 0 };
	struct rperf_ctrl_endpoint qp;
	struct rperf_proto_inst_eps peer = { .id = 0, .qps = &qp, .nqps = 1 };
	char why[400] = "";

	(void)state;
	d.port_attr.lid = 7;
	d.gid.raw[0] = 0xfe;
	d.gid.raw[1] = 0x80;
	memset(&qp, 0, sizeof(qp));
	memcpy(qp.gid, d.gid.raw, 16);
	qp.lid = 9;
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h2", &peer, why,
						 sizeof(why)),
			 0);
	qp.gid[7] = 1; /* another subnet */
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h2", &peer, why,
						 sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "subnet"));
	qp.gid[7] = 0;
	qp.lid = 0;
	assert_int_equal(rperf_engine_peer_check(&d, &hosts, "h2", &peer, why,
						 sizeof(why)),
			 EACCES);
	assert_non_null(strstr(why, "LID"));
}

/* PLAN "hosts": numeric addresses only, each name once; the encoder
 * never ships what the decoder refuses. */
static void plan_hosts_codec(void **state)
{
	struct rperf_gen_spec src;
	struct rperf_proto_host_addr a[2] = { { "h1", "10.0.0.1" },
					      { "h2", "fd00::2" } };
	struct rperf_proto_plan p = { .experiment = "job",
				      .host = "h1",
				      .device = { "", 1, -1, -1, -1, -1 },
				      .sources = &src,
				      .nsources = 1,
				      .hosts = a,
				      .nhosts = 2 },
				q;
	struct rperf_ctrl_msg m = { RPERF_CTRL_PLAN, RPERF_CTRL_VERSION, NULL };
	json_t *o = NULL;
	char why[256];

	(void)state;
	spec(&src, RPERF_GEN_LSG, "l", "h1", "h2");
	assert_int_equal(rperf_proto_plan_encode(&p, &o), 0);
	m.payload = o;
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)), 0);
	assert_string_equal(rperf_proto_plan_addr(&q, "h2"), "fd00::2");
	rperf_proto_plan_fini(&q);
	json_object_set_new(json_array_get(json_object_get(o, "hosts"), 1),
			    "addr", json_string("evil.example"));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "hosts[1]"));
	json_object_set_new(json_array_get(json_object_get(o, "hosts"), 1),
			    "addr", json_string("10.0.0.2"));
	json_object_set_new(json_array_get(json_object_get(o, "hosts"), 1),
			    "name", json_string("h1"));
	assert_int_equal(rperf_proto_plan_decode(&m, &q, why, sizeof(why)),
			 EBADMSG);
	assert_non_null(strstr(why, "twice"));
	json_decref(o);
	snprintf(a[0].addr, sizeof(a[0].addr), "h1.example");
	assert_int_equal(rperf_proto_plan_encode(&p, &o), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(big_bsg_refused),
		cmocka_unit_test(qps_counted),
		cmocka_unit_test(duration_refused),
		cmocka_unit_test(peer_roce),
		cmocka_unit_test(peer_ib),
		cmocka_unit_test(plan_hosts_codec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
