/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf bw HOST on the engine: the controller of an implicit two-host job
 * (twohost.h): one BSG client -> server, with -b a second one
 * server -> client, with --reversed only that one; every size a round on
 * the same QPs. Each round's instances become run->res[i] (and run->rev[i]
 * with -b), which the bw report renders.
 */
#include "twohost/twohost_bw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/bw_math.h"
#include "gen/rx.h"
#include "twohost/twohost_spec.h"
#include "verbs/rate.h"
#include "verbs/verbs.h"

static void path_facts(struct rperf_bw_run *run, const struct rperf_dev *d)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	int port_mtu = rperf_port_mtu(d);

	run->mtu = cfg->spec.path.mtu && (int)cfg->spec.path.mtu < port_mtu ?
			   (int)cfg->spec.path.mtu :
			   port_mtu;
	run->roce = d->roce;
	run->grh = d->gid_index >= 0;
	run->line_gbps = rperf_ib_rate_gbps(d->port_attr.active_speed,
					    d->port_attr.active_width);
	for (size_t i = 0; i < cfg->nsizes && run->line_gbps > 0; i++) {
		double g = rperf_bw_limit_gbps(cfg->rate_limit, cfg->rate_units,
					       cfg->sizes[i]);

		if (g <= run->line_gbps)
			continue;
		rperf_twohost_warn(
			&run->c.notes,
			"--rate_limit: %.6g Gb/s at %llu B is above the line rate of %s (%.2f Gb/s); the limit cannot bind",
			g, (unsigned long long)cfg->sizes[i], d->name,
			run->line_gbps);
		rperf_say(&run->c.say, "warning: %s",
			  run->c.notes.warnings[run->c.notes.nwarnings - 1]);
		break;
	}
}

int rperf_bw_ctl_check(struct rperf_bw_run *run, struct rperf_err *e)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	struct rperf_dev *d = NULL;
	char err[256] = "";
	int rc = rperf_twohost_dev_open(cfg, &d, e);

	if (rc)
		return rc;
	rc = rperf_gen_depth_check(d, "-t/--tx-depth", cfg->spec.tx_depth, err,
				   sizeof(err));
	if (!rc && cfg->spec.test.rx_depth)
		rc = rperf_gen_depth_check(d, "-r/--rx-depth",
					   cfg->spec.test.rx_depth, err,
					   sizeof(err));
	if (!rc) {
		snprintf(run->c.dev, sizeof(run->c.dev), "%s", d->name);
		run->c.dev_port = d->port;
		path_facts(run, d);
	}
	rperf_dev_close(d);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s",
				     err[0] ? err : strerror(rc));
	return 0;
}

/* One BSG of rperf bw's options, @from -> @to. */
static void bsg_spec(const struct rperf_cmdline *cfg, uint32_t id,
		     const char *from, const char *to, struct rperf_gen_spec *s)
{
	rperf_twohost_spec(cfg, RPERF_GEN_BSG, s);
	s->id = id;
	snprintf(s->name, sizeof(s->name), "%s", id ? "bw-reverse" : "bw");
	snprintf(s->from, sizeof(s->from), "%s", from);
	snprintf(s->to, sizeof(s->to), "%s", to);
	s->test.iters = 0;
	s->interval_ns = rperf_bw_tick_ns(cfg); /* the BW peak's ticks */
	if (cfg->rate_limit > 0 && cfg->rate_units == RPERF_RATE_PPS)
		s->rate_sps = cfg->rate_limit;
	else if (cfg->rate_limit > 0) /* bits: the same at every size */
		s->rate_bps = rperf_bw_limit_gbps(cfg->rate_limit,
						  cfg->rate_units, 1) *
			      1e9;
	if (cfg->spec.test.iters) /* messages per QP; the window only bounds it */
		s->max_messages = cfg->spec.test.iters * cfg->spec.qps;
	if (cfg->spec.test.iters || cfg->run_infinitely)
		s->duration_ns = RPERF_TWOHOST_WINDOW_NS;
}

int rperf_bw_ctl_job(const struct rperf_cmdline *cfg, struct rperf_job **out,
		     char *err, size_t errlen)
{
	size_t n = cfg->bidir ? 2 : 1;
	int rc = rperf_twohost_job(cfg, "rperf bw", n, out);

	if (rc) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	if (cfg->reversed)
		bsg_spec(cfg, 0, RPERF_TWOHOST_SERVER, RPERF_TWOHOST_CLIENT,
			 &(*out)->inst[0]);
	else
		bsg_spec(cfg, 0, RPERF_TWOHOST_CLIENT, RPERF_TWOHOST_SERVER,
			 &(*out)->inst[0]);
	if (cfg->bidir)
		bsg_spec(cfg, 1, RPERF_TWOHOST_SERVER, RPERF_TWOHOST_CLIENT,
			 &(*out)->inst[1]);
	return 0;
}

/* Round @k: its size. */
static void shape(void *arg, size_t k, struct rperf_job *round)
{
	const struct rperf_bw_run *run = arg;

	for (size_t i = 0; i < round->ninst; i++)
		round->inst[i].size = run->c.cfg->sizes[k];
}

static void on_round(void *arg, size_t k)
{
	struct rperf_bw_run *run = arg;

	run->cur_size = run->c.cfg->sizes[k];
	run->tick_msgs = run->tick_bytes = 0;
	run->peak_gbps = run->peak_from = 0;
	run->peak_bytes = 0;
	run->peak_min_bytes = rperf_bw_peak_min_bytes(
		run->cur_size, run->c.cfg->spec.qps, run->c.cfg->spec.cq_mod);
	run->live_origin_ns = 0;
	run->live_round = k;
	run->live_rows = 0;
	rperf_round_start(&run->c.round, k, run->c.cfg->nsizes, run->cur_size);
}

/* One interval row of the forward BSG as bw's interval line. */
static void print_row(struct rperf_bw_run *run, uint64_t start_ns,
		      uint64_t dur_ns, uint64_t messages, uint64_t bytes)
{
	struct rperf_bsg_tick t;

	if (!run->live_origin_ns)
		run->live_origin_ns = start_ns;
	t = (struct rperf_bsg_tick){
		.t_start = (double)(start_ns - run->live_origin_ns) / 1e9,
		.messages = run->tick_msgs + messages,
		.bytes = run->tick_bytes + bytes,
	};
	t.t_end = t.t_start + (double)dur_ns / 1e9;
	rperf_bw_on_interval(run, &t);
	run->live_rows++;
}

/* The run's live rows (rperf_run_opts.on_live): the forward BSG's as bw's
 * interval lines. */
static void on_live(void *arg, const struct rperf_gen_spec *spec,
		    const struct rperf_live_row *row)
{
	struct rperf_bw_run *run = arg;

	if (spec->id != 0 || !rperf_gen_bandwidth(row->kind) ||
	    !rperf_bw_prints_intervals(run->c.cfg))
		return;
	print_row(run, row->start_ns, row->dur_ns, row->messages, row->bytes);
}

/* The rows of the last round that no HEARTBEAT brought (its end): from
 * the REPORT's series. */
static void print_rest(struct rperf_bw_run *run, size_t k,
		       const struct rperf_bsg_series *s)
{
	if (k != run->live_round || !rperf_bw_prints_intervals(run->c.cfg))
		return;
	for (size_t i = run->live_rows; i < s->n; i++)
		print_row(run, s->iv[i].start_ns, s->iv[i].dur_ns,
			  s->iv[i].messages, s->iv[i].bytes);
}

/* The BW peak of a round from its source's interval series: the best
 * rate of a window ending at an interval's end, holding at least
 * peak_min_bytes (rperf_bw_peak_min_bytes). */
static double peak_of(const struct rperf_bw_run *run, size_t k,
		      const struct rperf_bsg_series *s)
{
	uint64_t min = rperf_bw_peak_min_bytes(run->c.cfg->sizes[k],
					       run->c.cfg->spec.qps,
					       run->c.cfg->spec.cq_mod);
	uint64_t from_bytes = 0, bytes = 0;
	double peak = 0, from;

	if (!s->n)
		return 0;
	from = (double)s->iv[0].start_ns / 1e9;
	for (size_t i = 0; i < s->n; i++) {
		double end = (double)(s->iv[i].start_ns + s->iv[i].dur_ns) /
			     1e9,
		       g;

		bytes += s->iv[i].bytes;
		if (bytes - from_bytes < min || end <= from)
			continue;
		g = rperf_bw_gbps(bytes - from_bytes, end - from);
		peak = g > peak ? g : peak;
		from = end;
		from_bytes = bytes;
	}
	return peak;
}

static struct rperf_bsg_res sent_of(const struct rperf_run_inst *in)
{
	return (struct rperf_bsg_res){ .messages = in->messages,
				       .bytes = in->bytes,
				       .post_calls = in->post_calls,
				       .seconds = in->seconds,
				       .cpu_seconds = in->cpu_seconds };
}

static struct rperf_bw_rx received_of(const struct rperf_run_inst *in)
{
	return (struct rperf_bw_rx){ .messages = in->rx_messages,
				     .bytes = in->rx_bytes,
				     .seconds = in->rx_seconds,
				     .has_tx = true,
				     .tx_messages = in->messages,
				     .tx_bytes = in->bytes,
				     .tx_post_calls = in->post_calls,
				     .tx_seconds = in->seconds,
				     .tx_cpu_seconds = in->cpu_seconds };
}

static void check_one(struct rperf_bw_run *run, const struct rperf_bw_result *b,
		      const char *dir)
{
	if (b->receiver_valid &&
	    (b->rx_messages != b->messages || b->rx_bytes != b->bytes))
		rperf_twohost_warn(
			&run->c.notes,
			"%llu B%s: the receiver counted %llu messages / %llu B, the sender %llu / %llu B",
			(unsigned long long)b->size, dir,
			(unsigned long long)b->rx_messages,
			(unsigned long long)b->rx_bytes,
			(unsigned long long)b->messages,
			(unsigned long long)b->bytes);
}

/* Round @k's instances into run->res[k] (and rev[k] with -b): the
 * rounds' take (rperf_twohost_rounds). */
static int take_round(void *arg, size_t k, struct rperf_run_results *r,
		      struct rperf_err *e)
{
	struct rperf_bw_run *run = arg;
	const struct rperf_run_inst *in = &r->inst[0];
	struct rperf_bsg_res g = sent_of(in);
	struct rperf_bw_rx rx = received_of(in);

	print_rest(run, k, &in->bsg_series);
	run->peak_gbps = peak_of(run, k, &in->bsg_series);
	rperf_bw_fill(run, k, &g, in->have_sink ? &rx : NULL);
	if (run->c.cfg->bidir && r->job->ninst > 1) {
		struct rperf_bw_rx srv = received_of(&r->inst[1]),
				   own = received_of(&r->inst[1]);

		rperf_bw_fill_reverse(run, k,
				      r->inst[1].have_source ? &srv : NULL,
				      r->inst[1].have_sink ? &own : NULL);
	}
	check_one(run, &run->res[k], "");
	if (run->res[k].reverse)
		check_one(run, run->res[k].reverse, " (server -> client)");
	run->nres = k + 1;
	rperf_bw_size_done(run, k);
	(void)e;
	return 0;
}

int rperf_bw_ctl_run(struct rperf_bw_run *run, const struct rperf_job *job,
		     const struct rperf_run_opts *opts, struct rperf_err *e)
{
	struct rperf_twohost_rounds r = { .n = run->c.cfg->nsizes,
					  .shape = shape,
					  .take = take_round,
					  .arg = run };
	struct rperf_run_opts o = *opts;

	o.on_round = on_round;
	o.round_arg = run;
	o.on_live = on_live;
	o.live_arg = run;
	return rperf_twohost_run_rounds(job, &r, &o, &run->c, e);
}

int rperf_bw_run_new(const struct rperf_cmdline *cfg,
		     volatile sig_atomic_t *stop, struct rperf_bw_run **out)
{
	/* one block: the run, then res[nsizes] and rev[nsizes] */
	size_t n = cfg->nsizes;
	struct rperf_bw_run *run =
		calloc(1, sizeof(*run) + 2 * n * sizeof(*run->res));

	if (!run)
		return ENOMEM;
	run->res = (struct rperf_bw_result *)(run + 1);
	run->rev = run->res + n;
	run->c.cfg = cfg;
	run->c.stop = stop;
	*out = run;
	return 0;
}

void rperf_bw_run_free(struct rperf_bw_run *run)
{
	free(run);
}
