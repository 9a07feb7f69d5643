/* SPDX-License-Identifier: BSD-2-Clause */
/* Job files of rperf run (src/job): instances, errors with FILE:LINE. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/cmdline.h"
#include "job/job.h"
#include "util/units.h"

#define HOSTS4                            \
	"[host h1]\ncontrol = 10.0.0.1\n" \
	"[host h2]\ncontrol = 10.0.0.2\n" \
	"[host h3]\ncontrol = 10.0.0.3\n" \
	"[host h4]\ncontrol = 10.0.0.4\n"

static struct rperf_job *parse_ok(const char *text)
{
	struct rperf_job *job = NULL;
	char err[512] = "";
	int rc = rperf_job_parse(text, "t.ini", &job, err, sizeof(err));

	if (rc)
		print_error("unexpected error %d: %s\n", rc, err);
	assert_int_equal(rc, 0);
	assert_non_null(job);
	return job;
}

/* The error of @text contains @want and @also (may be NULL). */
static void parse_bad2(const char *text, const char *want, const char *also)
{
	struct rperf_job *job = (struct rperf_job *)1;
	char err[512] = "";
	int rc = rperf_job_parse(text, "t.ini", &job, err, sizeof(err));

	if (rc != EINVAL || !strstr(err, want) || (also && !strstr(err, also)))
		print_error("rc %d for:\n%s\nerr: %s\nwant: %s\n", rc, text,
			    err, want);
	assert_int_equal(rc, EINVAL);
	assert_null(job);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, want));
	if (also)
		assert_non_null(strstr(err, also));
}

static void parse_bad(const char *text, const char *want)
{
	parse_bad2(text, want, NULL);
}

static void four_hosts(void **state)
{
	static const char text[] =
		"; 1 destination, one LSG, a BSG from two hosts\n"
		"[global]\n"
		"duration = 5s\n"
		"warmup = 500ms\n"
		"timeout = 3\n"
		"sink_completion = poll\n"
		"\n"
		"[host h1]\n"
		"control = 192.168.1.1:9000\n"
		"device = mlx5_0\n"
		"port = 2\n"
		"gid_index = 3\n"
		"cpu = 4\n"
		"[host h2]\n"
		"control = h2.lab\n"
		"[host h3]\n"
		"control = [fe80::1%eth0]:18600\n"
		"[host h4]\n"
		"control = [::1]\n"
		"gid_index = auto\n"
		"cpu = none\n"
		"\n"
		"[lsg probe]\n"
		"from = h2\n"
		"to = h1\n"
		"size = 64\n"
		"sl = 3\n"
		"pair_order = wire_first\n"
		"completion = event\n"
		"\n"
		"[bsg load]\n"
		"from = h3, h4\n"
		"to = h1\n"
		"size = 1M\n"
		"tx_depth = 256\n"
		"post_list = 8\n"
		"cq_mod = 64\n"
		"qps = 4\n"
		"verb = write_imm\n"
		"rate = 40Gbps\n"
		"tclass = 96\n"
		"mtu = 2048\n"
		"qp_timeout = 18\n"
		"retry_count = 3\n"
		"start = 1s\n";
	struct rperf_job *job = parse_ok(text);
	const struct rperf_job_host *h;
	const struct rperf_gen_spec *s;

	(void)state;
	assert_string_equal(job->path, "t.ini");
	assert_int_equal(job->duration_ns, 5000000000ull);
	assert_int_equal(job->warmup_ns, 500000000ull);
	assert_int_equal(job->timeout_ns, 3000000000ull);
	assert_int_equal(job->sink_completion, RPERF_COMPLETION_POLL);
	assert_int_equal(job->nhosts, 4);
	h = rperf_job_host(job, "h1");
	assert_non_null(h);
	assert_string_equal(h->control, "192.168.1.1");
	assert_int_equal(h->control_port, 9000);
	assert_string_equal(h->sel.device, "mlx5_0");
	assert_int_equal(h->sel.port, 2);
	assert_int_equal(h->sel.gid_index, 3);
	assert_int_equal(h->sel.cpu, 4);
	assert_int_equal(h->line, 8);
	assert_false(h->local);
	h = rperf_job_host(job, "h2");
	assert_string_equal(h->control, "h2.lab");
	assert_int_equal(h->control_port, RPERF_AGENT_DEFAULT_PORT);
	assert_string_equal(h->sel.device, "");
	assert_int_equal(h->sel.port, 1);
	assert_int_equal(h->sel.gid_index, -1);
	assert_int_equal(h->sel.cpu, -1);
	h = rperf_job_host(job, "h3");
	assert_string_equal(h->control, "fe80::1%eth0");
	assert_int_equal(h->control_port, 18600);
	h = rperf_job_host(job, "h4");
	assert_string_equal(h->control, "::1");
	assert_int_equal(h->control_port, RPERF_AGENT_DEFAULT_PORT);
	assert_int_equal(h->sel.gid_index, -1);
	assert_int_equal(h->sel.cpu, -1);
	assert_null(rperf_job_host(job, "h5"));

	assert_int_equal(job->ninst, 3);
	s = &job->inst[0];
	assert_int_equal(s->id, 0);
	assert_int_equal(s->kind, RPERF_GEN_LSG);
	assert_string_equal(s->name, "probe");
	assert_string_equal(s->from, "h2");
	assert_string_equal(s->to, "h1");
	assert_int_equal(s->size, 64);
	assert_int_equal(s->path.sl, 3);
	assert_int_equal(s->pair_order, RPERF_PAIR_WIRE_FIRST);
	assert_int_equal(s->completion, RPERF_COMPLETION_EVENT);
	assert_int_equal(s->duration_ns, 5000000000ull);
	assert_int_equal(s->warmup_ns, 500000000ull);
	assert_int_equal(s->sink_completion, RPERF_COMPLETION_POLL);
	assert_int_equal(s->start_ns, 0);
	for (int i = 1; i <= 2; i++) {
		s = &job->inst[i];
		assert_int_equal(s->id, i);
		assert_int_equal(s->kind, RPERF_GEN_BSG);
		assert_string_equal(s->name, "load");
		assert_string_equal(s->from, i == 1 ? "h3" : "h4");
		assert_string_equal(s->to, "h1");
		assert_int_equal(s->size, 1048576);
		assert_int_equal(s->tx_depth, 256);
		assert_int_equal(s->post_list, 8);
		assert_int_equal(s->cq_mod, 64);
		assert_int_equal(s->qps, 4);
		assert_int_equal(s->verb, RPERF_VERB_WRITE_IMM);
		assert_true(s->rate_bps == 40e9);
		assert_int_equal(s->path.tclass, 96);
		assert_int_equal(s->path.mtu, 2048);
		assert_int_equal(s->path.qp_timeout, 18);
		assert_int_equal(s->path.retry_count, 3);
		assert_int_equal(s->start_ns, 1000000000ull);
		assert_int_equal(s->completion, RPERF_COMPLETION_POLL);
		assert_int_equal(s->duration_ns, 5000000000ull);
		assert_int_equal(s->sink_completion, RPERF_COMPLETION_POLL);
	}
	rperf_job_free(job);
}

/* control = local: the controller runs the host's agent (no port) */
static void control_local(void **state)
{
	struct rperf_job *job = parse_ok("[host h1]\ncontrol = local\n"
					 "[host h2]\ncontrol = localhost\n"
					 "[lsg l]\nfrom = h1\nto = h2\n");
	const struct rperf_job_host *h = rperf_job_host(job, "h1");

	(void)state;
	assert_true(h->local);
	assert_string_equal(h->control, "local");
	assert_int_equal(h->control_port, 0);
	h = rperf_job_host(job, "h2"); /* a name that starts so: not local */
	assert_false(h->local);
	assert_int_equal(h->control_port, RPERF_AGENT_DEFAULT_PORT);
	rperf_job_free(job);
}

static void defaults(void **state)
{
	struct rperf_job *job = parse_ok(HOSTS4 "[bsg b]\nfrom = h2\nto = h1\n"
						"[lsg l]\nfrom=h3\nto=h1\n");
	const struct rperf_gen_spec *b = &job->inst[0], *l = &job->inst[1];

	(void)state;
	assert_int_equal(job->duration_ns, 10000000000ull);
	assert_int_equal(job->warmup_ns, 1000000000ull);
	assert_int_equal(job->timeout_ns, 10000000000ull);
	assert_int_equal(job->sink_completion, RPERF_COMPLETION_EVENT);
	assert_int_equal(b->size, 65536);
	assert_int_equal(l->size, 64);
	assert_int_equal(b->tx_depth, 128);
	assert_int_equal(b->cq_mod, 100);
	assert_int_equal(b->post_list, 1);
	assert_int_equal(b->qps, 1);
	assert_true(b->rate_bps == 0);
	assert_int_equal(b->verb, RPERF_VERB_SEND);
	assert_int_equal(l->pair_order, RPERF_PAIR_ALTERNATE);
	assert_int_equal(b->path.mtu, 0);
	assert_int_equal(b->path.qp_timeout, 14);
	assert_int_equal(b->path.retry_count, 7);
	assert_int_equal(l->completion, RPERF_COMPLETION_POLL);
	assert_int_equal(l->sink_completion, RPERF_COMPLETION_EVENT);
	rperf_job_free(job);
}

/* [global] after the generators still applies to them. */
static void global_last(void **state)
{
	struct rperf_job *job = parse_ok(HOSTS4 "[lsg l]\nfrom=h3\nto=h1\n"
						"[global]\nduration=2m\n");

	(void)state;
	assert_int_equal(job->inst[0].duration_ns, 120000000000ull);
	rperf_job_free(job);
}

static void count(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = parse_ok(HOSTS4 "[bsg b]\nfrom = h2,h3,h4\ncount = 2\nto = h1\n"
			      "[lsg l]\nfrom = h1\nto = h2\ncount = 0\n"
			      "[lsg m]\nfrom = h3,h4\nto = h2\n");
	assert_int_equal(job->ninst, 4);
	assert_string_equal(job->inst[0].from, "h2");
	assert_string_equal(job->inst[1].from, "h3");
	assert_string_equal(job->inst[2].name, "m");
	assert_string_equal(job->inst[2].from, "h3");
	assert_string_equal(job->inst[3].from, "h4");
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(job->inst[i].id, i);
	rperf_job_free(job);
	parse_bad(HOSTS4 "[bsg b]\nfrom = h2,h3\ncount = 3\nto = h1\n",
		  "t.ini:11: [bsg b] count: 3 but from lists 2 hosts");
	parse_bad(HOSTS4 "[bsg b]\nfrom = h2\ncount = 0\nto = h1\n",
		  "t.ini: every generator has count = 0");
	parse_bad(HOSTS4 "[bsg b]\nfrom = h2\ncount = -1\nto = h1\n",
		  "t.ini:11: [bsg b] count: '-1' is not a count");
}

static void units(void **state)
{
	struct rperf_job *job;

	(void)state;
	job = parse_ok(HOSTS4 "[global]\nduration = 1500ms\nwarmup = 2us\n"
			      "[bsg a]\nfrom=h2\nto=h1\nsize=4KiB\nrate=10M\n"
			      "[bsg b]\nfrom=h3\nto=h1\nsize=4K\nrate=4Mb\n"
			      "[bsg c]\nfrom=h4\nto=h1\nsize=1M\nrate=100Gbps\n"
			      "[bsg d]\nfrom=h4\nto=h2\nsize=1G\nrate=1G\n"
			      "start = 0.5\n"
			      "[lsg e]\nfrom=h3\nto=h1\nrate=64k\n");
	assert_int_equal(job->duration_ns, 1500000000ull);
	assert_int_equal(job->warmup_ns, 2000);
	assert_int_equal(job->inst[0].size, 4096);
	assert_true(job->inst[0].rate_bps == 10e6);
	assert_int_equal(job->inst[1].size, 4096);
	assert_true(job->inst[1].rate_bps == 4e6);
	assert_int_equal(job->inst[2].size, 1048576);
	assert_true(job->inst[2].rate_bps == 100e9);
	assert_true(job->inst[3].rate_bps == 1e9);
	assert_int_equal(job->inst[3].start_ns, 500000000ull);
	/* an LSG takes a rate too: its wire SENDs are paced to it */
	assert_int_equal(job->inst[4].kind, RPERF_GEN_LSG);
	assert_true(job->inst[4].rate_bps == 64e3);
	rperf_job_free(job);
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nsize=2G\n",
		  "t.ini:12: [bsg a] size: '2G' is out of range");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nsize=4X\n",
		  "t.ini:12: [bsg a] size: '4X' is not a size; accepted");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nrate=1MB\n",
		  "t.ini:12: [bsg a] rate: '1MB': rates are bits/s");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nrate=fast\n",
		  "[bsg a] rate: 'fast' is not a rate");
	parse_bad2("[global]\nduration = 10 s\n", "t.ini:2: [global] duration",
		   "not a time");
	parse_bad2("[global]\nduration = 0\n", "t.ini:2: [global] duration",
		   "out of range");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nmtu=1000\n",
		  "t.ini:12: [bsg a] mtu: '1000' is not an MTU");
	parse_bad(
		HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nverb=bogus\n",
		"[bsg a] verb: 'bogus' is not a choice; accepted: send, write, write_imm, read, atomic");
	parse_bad(
		HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nverb=atomic\nsize=64\n",
		"t.ini:13: [bsg a] size: 64 B with verb atomic, whose operand is 8 B; set size = 8 or leave it out");
	parse_bad(
		HOSTS4
		"[bsg a]\nfrom=h2\nto=h1\nsize=8:0.5,64:0.5\nverb=atomic\n",
		"t.ini:12: [bsg a] size: 64 B (a distribution) with verb atomic");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\ninline=65537\n",
		  "t.ini:12: [bsg a] inline: '65537' is out of range");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nrdma_cm=2\n",
		  "t.ini:12: [bsg a] rdma_cm: '2' is out of range");
	parse_bad(HOSTS4 "[lsg a]\nfrom=h2\nto=h1\nrdma_cm=2\n",
		  "t.ini:12: [lsg a] rdma_cm: '2' is out of range");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\nrx_depth=0\n",
		  "t.ini:12: [bsg a] rx_depth: '0' is out of range");
	parse_bad(HOSTS4 "[lsg a]\nfrom=h2\nto=h1\nrx_depth=65537\n",
		  "t.ini:12: [lsg a] rx_depth: '65537' is out of range");
	parse_bad(HOSTS4 "[bsg a]\nfrom=h2\nto=h1\ntx_depth=8\npost_list=16\n",
		  "t.ini:13: [bsg a] post_list: 16 is above tx_depth 8");
}

/* The enum values the job stores are the ones lsg/bsg use. */
static void enum_values(void **state)
{
	static const struct {
		const char *key, *val;
		int want;
	} tab[] = {
		{ "verb", "send", RPERF_VERB_SEND },
		{ "verb", "write", RPERF_VERB_WRITE },
		{ "verb", "write_imm", RPERF_VERB_WRITE_IMM },
		{ "verb", "read", RPERF_VERB_READ },
		{ "verb", "atomic", RPERF_VERB_ATOMIC },
		{ "pair_order", "alternate", RPERF_PAIR_ALTERNATE },
		{ "pair_order", "wire_first", RPERF_PAIR_WIRE_FIRST },
		{ "pair_order", "loop_first", RPERF_PAIR_LOOP_FIRST },
		{ "pair_order", "sequential", RPERF_PAIR_SEQUENTIAL },
		/* the command line's spelling is accepted too (one table) */
		{ "pair_order", "wire-first", RPERF_PAIR_WIRE_FIRST },
		{ "pair_order", "loop-first", RPERF_PAIR_LOOP_FIRST },
		{ "verb", "write-imm", RPERF_VERB_WRITE_IMM },
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct rperf_job *job;
		int bsg = !strcmp(tab[i].key, "verb");

		snprintf(text, sizeof(text),
			 HOSTS4 "[%s g]\nfrom=h2\nto=h1\n%s=%s\n",
			 bsg ? "bsg" : "lsg", tab[i].key, tab[i].val);
		job = parse_ok(text);
		assert_int_equal(bsg ? job->inst[0].verb :
				       job->inst[0].pair_order,
				 tab[i].want);
		rperf_job_free(job);
	}
}

/* Every spec a job accepts, the wire codec accepts too, unchanged. */
static void codec_accepts(const struct rperf_job *job)
{
	for (size_t i = 0; i < job->ninst; i++) {
		struct rperf_gen_spec back;
		json_t *o = NULL, *o2 = NULL;
		char why[256] = "";

		assert_int_equal(rperf_gen_spec_encode(&job->inst[i], &o), 0);
		if (rperf_gen_spec_decode(o, &back, why, sizeof(why)))
			print_error("decode: %s\n", why);
		assert_int_equal(
			rperf_gen_spec_decode(o, &back, why, sizeof(why)), 0);
		assert_int_equal(rperf_gen_spec_encode(&back, &o2), 0);
		assert_true(json_equal(o, o2));
		json_decref(o);
		json_decref(o2);
	}
	for (size_t i = 0; i < job->nhosts; i++) {
		struct rperf_host_sel back;
		json_t *o = NULL;
		char why[256] = "";

		assert_int_equal(rperf_host_sel_encode(&job->hosts[i].sel, &o),
				 0);
		assert_int_equal(
			rperf_host_sel_decode(o, &back, why, sizeof(why)), 0);
		assert_string_equal(back.device, job->hosts[i].sel.device);
		assert_int_equal(back.gid_index, job->hosts[i].sel.gid_index);
		assert_int_equal(back.cpu, job->hosts[i].sel.cpu);
		json_decref(o);
	}
}

static void wire_codec(void **state)
{
	static const char *const texts[] = {
		HOSTS4 "[lsg l]\nfrom=h2\nto=h1\n[bsg b]\nfrom=h3,h4\nto=h1\n",
		/* the largest value of every key */
		"[global]\nduration = 1440m\nwarmup = 60m\n"
		"[host h1]\ncontrol = a\nport = 255\ngid_index = 255\n"
		"cpu = 4095\n"
		"device = ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd\n"
		"[host h2]\ncontrol = b\n"
		"[bsg b]\nfrom = h2\nto = h1\nsize = 1G\nstart = 1440m\n"
		"tx_depth = 65536\npost_list = 4096\ncq_mod = 65536\n"
		"qps = 256\nrate = 10T\nsl = 15\ntclass = 255\nmtu = 4096\n"
		"qp_timeout = 31\nretry_count = 7\nverb = write_imm\n"
		"completion = event\ninline = 64K\n"
		"[lsg l]\nfrom = h1\nto = h2\nsize = 1G\n"
		"pair_order = sequential\n",
		/* the smallest */
		"[global]\nduration = 1ns\nwarmup = 0\nsink_completion = poll\n"
		"[host h1]\ncontrol = a\nport = 1\ngid_index = 0\ncpu = 0\n"
		"[host h2]\ncontrol = b\n"
		"[bsg b]\nfrom = h2\nto = h1\nsize = 1\ntx_depth = 1\n"
		"post_list = 1\ncq_mod = 1\nqps = 1\nrate = 0\nmtu = 0\n"
		"sl = 0\ntclass = 0\nqp_timeout = 0\nretry_count = 0\n"
		"start = 0\n"
		"[lsg l]\nfrom = h1\nto = h2\nsize = 1\nmtu = 256\n",
		/* READ and atomic BSGs (atomic: 8 B unless told) */
		HOSTS4 "[bsg r]\nfrom=h2\nto=h1\nverb=read\nsize=4K\n"
		       "[bsg a]\nfrom=h3\nto=h1\nverb=atomic\n"
		       "[bsg a8]\nfrom=h4\nto=h1\nverb=atomic\nsize=8\n"
		       "[bsg in]\nfrom=h4\nto=h1\nsize=64\ninline=256\n"
		       "rdma_cm=1\nrx_depth=16\n"
		       "[lsg l]\nfrom=h3\nto=h2\nrx_depth=65536\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct rperf_job *job = parse_ok(texts[i]);

		codec_accepts(job);
		if (i == 3) {
			assert_int_equal(job->inst[0].verb, RPERF_VERB_READ);
			assert_int_equal(job->inst[0].size, 4096);
			assert_int_equal(job->inst[1].verb, RPERF_VERB_ATOMIC);
			assert_int_equal(job->inst[1].size, RPERF_ATOMIC_SIZE);
			assert_int_equal(job->inst[2].size, RPERF_ATOMIC_SIZE);
			assert_int_equal(job->inst[2].inline_size, 0);
			assert_int_equal(job->inst[3].inline_size, 256);
			assert_false(job->inst[2].test.rdma_cm);
			assert_true(job->inst[3].test.rdma_cm);
			assert_int_equal(job->inst[2].test.rx_depth, 0);
			assert_int_equal(job->inst[3].test.rx_depth, 16);
			assert_int_equal(job->inst[4].test.rx_depth, 65536);
		}
		rperf_job_free(job);
	}
}

/* cpu_node/mem_node: host defaults, per-generator overrides, "auto". */
static void placement_keys(void **state)
{
	struct rperf_job *job = parse_ok(
		"[host h1]\ncontrol = 10.0.0.1\ncpu_node = 1\nmem_node = 0\n"
		"[host h2]\ncontrol = 10.0.0.2\ncpu = 3\nhugepages = 1G\n"
		"[host h3]\ncontrol = 10.0.0.3\ncpu_node = auto\n"
		"hugepages = none\n"
		"[lsg a]\nfrom = h1, h2\nto = h3\n"
		"[bsg b]\nfrom = h1\nto = h2\ncpu_node = 2\nmem_node = 1023\n");
	const struct rperf_job_host *h = rperf_job_host(job, "h1");

	(void)state;
	assert_int_equal(h->sel.cpu_node, 1);
	assert_int_equal(h->sel.mem_node, 0);
	assert_int_equal(h->sel.hugepages, RPERF_HUGEPAGES_NONE);
	assert_int_equal(rperf_job_host(job, "h2")->sel.hugepages,
			 RPERF_HUGEPAGES_1G);
	assert_int_equal(rperf_job_host(job, "h3")->sel.hugepages,
			 RPERF_HUGEPAGES_NONE);
	h = rperf_job_host(job, "h2");
	assert_int_equal(h->sel.cpu, 3);
	assert_int_equal(h->sel.cpu_node, -1);
	assert_int_equal(h->sel.mem_node, -1);
	assert_int_equal(rperf_job_host(job, "h3")->sel.cpu_node, -1);
	assert_int_equal(job->ninst, 3);
	/* a from h1: the host's nodes */
	assert_int_equal(job->inst[0].cpu_node, 1);
	assert_int_equal(job->inst[0].mem_node, 0);
	/* a from h2: the host says nothing: the NIC's node (-1) */
	assert_int_equal(job->inst[1].cpu_node, -1);
	assert_int_equal(job->inst[1].mem_node, -1);
	/* b overrides h1's */
	assert_int_equal(job->inst[2].cpu_node, 2);
	assert_int_equal(job->inst[2].mem_node, 1023);
	rperf_job_free(job);
	parse_bad(HOSTS4 "[lsg a]\nfrom = h1\nto = h2\ncpu_node = 1024\n",
		  "cpu_node");
	parse_bad("[host h1]\ncontrol = a\nhugepages = 4K\n"
		  "[host h2]\ncontrol = b\n[lsg a]\nfrom = h1\nto = h2\n",
		  "t.ini:3: [host h1] hugepages: '4K'");
	parse_bad(HOSTS4 "[lsg a]\nfrom = h1\nto = h2\nhugepages = 2M\n",
		  "hugepages");
	parse_bad("[host h1]\ncontrol = 10.0.0.1\nmem_node = -2\n"
		  "[host h2]\ncontrol = 10.0.0.2\n"
		  "[lsg a]\nfrom = h1\nto = h2\n",
		  "mem_node");
	parse_bad(HOSTS4 "[lsg a]\nfrom = h1\nto = h2\nmem_node = near\n",
		  "auto");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(four_hosts),	  cmocka_unit_test(defaults),
		cmocka_unit_test(control_local),  cmocka_unit_test(global_last),
		cmocka_unit_test(count),	  cmocka_unit_test(units),
		cmocka_unit_test(wire_codec),	  cmocka_unit_test(enum_values),
		cmocka_unit_test(placement_keys),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	return rc;
}
