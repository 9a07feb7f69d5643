/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf lat HOST on the engine: the controller of an implicit two-host job
 * ("client", whose agent runs in this process, and "server", the rperf lat
 * server at HOST:PORT, an agent serving "lat"). Before it, this host's
 * placement and clock. Every (method, repeat, size) is one round on the
 * same QPs; each round's results become one entry of run->res, which the
 * lat report renders.
 */
#include "twohost/twohost_lat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/nic_ts.h"
#include "twohost/twohost_spec.h"
#include "verbs/verbs.h"

/* The LSG of every round: rperf lat's options as a spec. */
static void lsg_spec(const struct rperf_cmdline *cfg, struct rperf_gen_spec *s)
{
	rperf_twohost_spec(cfg, RPERF_GEN_LSG, s);
	s->id = 0;
	s->raw = cfg->raw_file || cfg->report_unsorted;
	s->rate_sps = cfg->rate; /* samples/s; 0: latency_gap_ns */
	if (cfg->spec.test.method == RPERF_METHOD_ALL)
		s->test.method = rperf_lat_method_at(cfg, 0);
	/* the server sleeps on solicited events (nothing of it on the remote
	 * critical path); pingpong's echo busy-polls unless -e */
	s->sink_completion =
		cfg->spec.completion ||
				(cfg->spec.test.method !=
					 RPERF_METHOD_PINGPONG &&
				 cfg->spec.test.method != RPERF_METHOD_ALL) ?
			RPERF_COMPLETION_EVENT :
			RPERF_COMPLETION_POLL;
	/* --poll yield: an LSG's source completion "event" is sched_yield()
	 * between empty polls (gen_lsg.c), as -e */
	if (cfg->poll_mode == 1)
		s->completion = RPERF_COMPLETION_EVENT;
	if (cfg->spec.test.iters ||
	    cfg->run_infinitely) /* a count, or until stopped:
						  the window only bounds it */
		s->duration_ns = RPERF_TWOHOST_WINDOW_NS;
}

int rperf_lat_ctl_job(const struct rperf_cmdline *cfg, struct rperf_job **out,
		      char *err, size_t errlen)
{
	int rc = rperf_twohost_job(cfg, "rperf lat", 1, out);

	if (rc)
		snprintf(err, errlen, "out of memory");
	else
		lsg_spec(cfg, &(*out)->inst[0]);
	return rc;
}

int rperf_lat_ctl_check(struct rperf_lat_run *run, struct rperf_err *e)
{
	struct rperf_nic_stamps st;
	struct rperf_dev *d = NULL;
	char err[256] = "";
	int rc = rperf_twohost_dev_open(run->c.cfg, &d, e);

	if (rc)
		return rc;
	snprintf(run->c.dev, sizeof(run->c.dev), "%s", d->name);
	run->c.dev_port = d->port;
	rc = rperf_nic_stamps_choose(d, run->c.cfg->spec.timestamps,
				     "--timestamps", &st, err, sizeof(err));
	rperf_dev_close(d);
	if (rc)
		return rperf_err_set(e, RPERF_ERRC_USAGE, rc, "%s",
				     err[0] ? err : strerror(rc));
	return 0;
}

/* Round @k: its size and method. */
static void shape(void *arg, size_t k, struct rperf_job *round)
{
	const struct rperf_lat_run *run = arg;

	round->inst[0].size = rperf_lat_res_size(run, k);
	round->inst[0].test.method = rperf_lat_res_method(run, k);
}

/* pingpong: perftest's figure, RTT/2, from the RTT histogram's buckets
 * (each at its representative value: within the histogram's precision). */
static int half_of(struct rperf_lsg_res *r)
{
	struct rperf_hist_iter it;
	int rc = rperf_hist_create(rperf_hist_bits(r->rtt), &r->half);

	if (rc)
		return rc;
	rperf_hist_iter_init(&it, r->rtt);
	while (rperf_hist_next(&it))
		rperf_hist_record_n(r->half, it.value / 2, it.count);
	return 0;
}

/* The server's receive count must match the SENDs the client posted: it
 * sees SENDs and (pingpong) the WRITEs it polls for; the rperf method's
 * WRITEs and postpoll only its NIC sees. */
static void check_received(struct rperf_lat_run *run, size_t i,
			   const struct rperf_run_inst *in)
{
	int method = rperf_lat_res_method(run, i);
	uint64_t sent = in->samples + in->warmup;

	if (!in->have_sink || method == RPERF_METHOD_POSTPOLL ||
	    (run->c.cfg->spec.verb != RPERF_VERB_SEND &&
	     method != RPERF_METHOD_PINGPONG) ||
	    in->rx_messages == sent)
		return;
	rperf_twohost_warn(
		&run->c.notes,
		"%s: the server received %llu operations, the client posted %llu",
		rperf_method_name(method), (unsigned long long)in->rx_messages,
		(unsigned long long)sent);
}

/* Round @i's instance into run->res[i] (its histograms taken over). */
static int take_inst(struct rperf_lat_run *run, size_t i,
		     struct rperf_run_inst *in)
{
	struct rperf_lsg_res *r = &run->res[i];

	check_received(run, i, in);
	memset(r, 0, sizeof(*r));
	r->rtt = in->rtt;
	r->wire = in->wire;
	r->loop = in->loop;
	r->post_wire = in->post_wire;
	r->post_loop = in->post_loop;
	in->rtt = in->wire = in->loop = in->post_wire = in->post_loop = NULL;
	r->raw = in->raw;
	r->nraw = in->nraw;
	r->raw_cap = in->raw_cap;
	in->raw = NULL;
	in->nraw = in->raw_cap = 0;
	r->series = in->series;
	memset(&in->series, 0, sizeof(in->series));
	r->samples = in->samples;
	r->warmup = in->warmup;
	r->nonpositive = in->nonpositive;
	r->precompleted = in->precompleted;
	r->loop_precompleted = in->loop_precompleted;
	r->seconds = in->seconds;
	r->lag_bound_ns = in->sched.lag_bound_ns;
	r->late = in->sched.late;
	r->inflight_max = (unsigned int)in->sched.inflight_max;
	run->sched[i] = in->sched;
	run->sched[i].open = run->c.cfg->spec.schedule.kind !=
			     RPERF_SCHED_CLOSED;
	if (in->error[0])
		snprintf(r->error, sizeof(r->error), "%s", in->error);
	run->cpu_pct[i] =
		in->seconds > 0 ? 100.0 * in->cpu_seconds / in->seconds : 0;
	if (!r->rtt)
		return rperf_lsg_res_init(r, rperf_lat_res_method(run, i),
					  run->c.cfg->spec.breakdown);
	return rperf_lat_res_method(run, i) == RPERF_METHOD_PINGPONG ?
		       half_of(r) :
		       0;
}

/* Round @i's results (rperf_twohost_rounds.take). */
static int take_round(void *arg, size_t i, struct rperf_run_results *res,
		      struct rperf_err *e)
{
	struct rperf_lat_run *run = arg;
	struct rperf_run_inst *in = &res->inst[0];

	run->nres = i + 1;
	if (take_inst(run, i, in))
		return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
				     "out of memory");
	if (in->nic_ts) {
		run->nic_ts = true;
		run->nic_clock_hz = in->nic_clock.hz;
	}
	if (in->ts_note[0])
		snprintf(run->ts_note, sizeof(run->ts_note), "%s", in->ts_note);
	return 0;
}

/* The progress line's round: its size. */
static void on_round(void *arg, size_t k)
{
	const struct rperf_lat_run *run = arg;

	rperf_round_start(&run->c.round, k,
			  run->c.cfg->nsizes * run->c.cfg->repeat *
				  rperf_lat_nmethods(run->c.cfg),
			  rperf_lat_res_size(run, k));
}

int rperf_lat_ctl_run(struct rperf_lat_run *run, const struct rperf_job *job,
		      const struct rperf_run_opts *opts, struct rperf_err *e)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	struct rperf_twohost_rounds r = {
		.n = cfg->nsizes * cfg->repeat * rperf_lat_nmethods(cfg),
		.shape = shape,
		.take = take_round,
		.arg = run,
	};
	struct rperf_run_opts o = *opts;

	o.on_round = on_round;
	o.round_arg = run;
	return rperf_twohost_run_rounds(job, &r, &o, &run->c, e);
}

int rperf_lat_run_new(const struct rperf_cmdline *cfg,
		      volatile sig_atomic_t *stop, struct rperf_lat_run **out)
{
	struct rperf_lat_run *run = calloc(1, sizeof(*run));
	size_t n = cfg->nsizes * cfg->repeat * rperf_lat_nmethods(cfg);

	if (run) {
		run->res = calloc(n, sizeof(*run->res));
		run->cpu_pct = calloc(n, sizeof(*run->cpu_pct));
		run->sched = calloc(n, sizeof(*run->sched));
	}
	if (!run || !run->res || !run->cpu_pct || !run->sched) {
		if (run) {
			free(run->res);
			free(run->cpu_pct);
			free(run->sched);
		}
		free(run);
		return ENOMEM;
	}
	run->c.cfg = cfg;
	run->c.stop = stop;
	*out = run;
	return 0;
}

void rperf_lat_run_free(struct rperf_lat_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->nres; i++)
		rperf_lsg_res_fini(&run->res[i]);
	free(run->res);
	free(run->cpu_pct);
	free(run->sched);
	free(run);
}

int rperf_lat_prepare(struct rperf_lat_run *run, struct rperf_err *e)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	int rc;

	rc = rperf_twohost_place_client(cfg, &run->c.host, &run->c.platform,
					&run->c.notes, e);
	if (rc)
		return rc;
	rc = rperf_clock_init(&run->clk, (enum rperf_clock_source)cfg->clock);
	if (rc == ENOTSUP) {
		return rperf_err_set(
			e, RPERF_ERRC_USAGE, rc,
			"--clock: %s is not available here (%s); accepted: auto or posix",
			rperf_clock_source_name(
				(enum rperf_clock_source)cfg->clock),
			run->clk.reason);
	}
	if (run->clk.forced)
		rperf_twohost_warn(&run->c.notes,
				   "clock source forced to %s: %s",
				   rperf_clock_source_name(run->clk.source),
				   run->clk.reason);
	rc = rperf_clock_selftest(&run->clk, 20.0, &run->selftest);
	if (rc) {
		return rperf_err_set(e, RPERF_ERRC_RUNTIME, rc,
				     "clock self-test failed: %s",
				     strerror(rc));
	}
	return 0;
}
