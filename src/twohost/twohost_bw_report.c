/* SPDX-License-Identifier: BSD-2-Clause */
/* Turning a bw client run into reports: results, intervals, JSON lines. */
#include "twohost/twohost_bw.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gen/bw_math.h"
#include "twohost/twohost_report.h"

static void fill_rx(struct rperf_bw_result *b, const struct rperf_bw_rx *rx)
{
	if (b->receiver_note)
		return;
	if (!rx) {
		b->receiver_note =
			"the server sent no count (the run ended early)";
		return;
	}
	b->receiver_valid = true;
	b->rx_messages = rx->messages;
	b->rx_bytes = rx->bytes;
	b->rx_seconds = rx->seconds;
	b->rx_gbps = rperf_bw_gbps(rx->bytes, rx->seconds);
	b->rx_cpu_pct =
		rx->seconds > 0 ? 100.0 * rx->cpu_seconds / rx->seconds : -1;
}

void rperf_bw_fill(struct rperf_bw_run *run, size_t i,
		   const struct rperf_bsg_res *g, const struct rperf_bw_rx *rx)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	struct rperf_bw_result *b = &run->res[i];
	uint64_t size = cfg->sizes[i];

	memset(b, 0, sizeof(*b));
	b->verb = rperf_verb_name(cfg->spec.verb);
	b->size = size;
	b->qps = cfg->spec.qps;
	b->messages = g->messages;
	b->bytes = g->bytes;
	b->seconds = g->seconds;
	b->gbps = rperf_bw_gbps(g->bytes, g->seconds);
	/* the whole run is one interval too: the peak is never below the
	 * average (a window that ends at a late tick can be) */
	b->peak_gbps = run->c.cfg->no_peak ? 0 : /* -N: JSON null */
			       run->peak_gbps > 0 && run->peak_gbps < b->gbps ?
					     b->gbps :
					     run->peak_gbps;
	b->mpps = rperf_bw_mpps(g->messages, g->seconds);
	b->mtu = run->mtu;
	b->line_gbps = run->line_gbps;
	b->wire_efficiency = rperf_bw_wire_efficiency(size, run->mtu, run->roce,
						      run->grh, cfg->spec.verb,
						      cfg->spec.post_list);
	b->cpu_pct = g->seconds > 0 ? 100.0 * g->cpu_seconds / g->seconds : 0;
	b->post_calls = g->post_calls;
	b->offered_gbps =
		rperf_bw_limit_gbps(cfg->rate_limit, cfg->rate_units, size);
	b->offered_mpps =
		rperf_bw_limit_msgs(cfg->rate_limit, cfg->rate_units, size) /
		1e6;
	b->rx_cpu_pct = -1;
	if (cfg->spec.verb == RPERF_VERB_WRITE)
		b->receiver_note =
			"plain RDMA WRITEs are invisible to the receiver's CPU: no receiver count (use --verb write_imm or send)";
	if (rperf_verb_responder_only(cfg->spec.verb))
		b->receiver_note =
			cfg->spec.verb == RPERF_VERB_READ ?
				"RDMA READs are answered by the responder's NIC: its CPU sees nothing, so there is no receiver count (the READ's completion at this side already includes the data's return)" :
				"atomics are executed by the responder's NIC: its CPU sees nothing, so there is no receiver count";
	fill_rx(b, rx);
}

void rperf_bw_fill_reverse(struct rperf_bw_run *run, size_t i,
			   const struct rperf_bw_rx *srv,
			   const struct rperf_bw_rx *own)
{
	const struct rperf_bw_result *f = &run->res[i];
	struct rperf_bw_result *b = &run->rev[i];

	memset(b, 0, sizeof(*b));
	if (!srv || !srv->has_tx)
		return; /* reverse stays NULL */
	*b = *f;
	b->messages = srv->tx_messages;
	b->bytes = srv->tx_bytes;
	b->seconds = srv->tx_seconds;
	b->gbps = rperf_bw_gbps(b->bytes, b->seconds);
	b->peak_gbps = 0; /* the server reports no intervals */
	b->mpps = rperf_bw_mpps(b->messages, b->seconds);
	b->cpu_pct = b->seconds > 0 ? 100.0 * srv->tx_cpu_seconds / b->seconds :
				      0;
	b->post_calls = srv->tx_post_calls;
	b->receiver_valid = false;
	b->receiver_note = NULL;
	b->rx_cpu_pct = -1;
	b->reverse = NULL;
	if (!rperf_verb_consumes_recv(run->c.cfg->spec.verb))
		b->receiver_note = f->receiver_note;
	fill_rx(b, own);
	run->res[i].reverse = b;
}

uint64_t rperf_bw_tick_ns(const struct rperf_cmdline *cfg)
{
	if (cfg->spec.interval_ns)
		return cfg->spec.interval_ns;
	if (cfg->run_infinitely && cfg->global.duration_ns)
		return cfg->global.duration_ns;
	return RPERF_BW_PEAK_NS;
}

bool rperf_bw_prints_intervals(const struct rperf_cmdline *cfg)
{
	return cfg->spec.interval_ns ||
	       (cfg->run_infinitely && cfg->global.duration_ns);
}

static void peak_window(struct rperf_bw_run *run,
			const struct rperf_bsg_tick *t)
{
	double g;

	if (t->bytes <= run->peak_bytes ||
	    t->bytes - run->peak_bytes < run->peak_min_bytes ||
	    t->t_end <= run->peak_from)
		return;
	g = rperf_bw_gbps(t->bytes - run->peak_bytes,
			  t->t_end - run->peak_from);
	if (g > run->peak_gbps)
		run->peak_gbps = g;
	run->peak_from = t->t_end;
	run->peak_bytes = t->bytes;
}

void rperf_bw_on_interval(void *arg, const struct rperf_bsg_tick *t)
{
	struct rperf_bw_run *run = arg;
	uint64_t m = t->messages - run->tick_msgs;
	uint64_t by = t->bytes - run->tick_bytes;
	double s = t->t_end - t->t_start;
	double g = rperf_bw_gbps(by, s), p = rperf_bw_mpps(m, s);
	json_t *o;

	run->tick_msgs = t->messages;
	run->tick_bytes = t->bytes;
	peak_window(run, t);
	if (!rperf_bw_prints_intervals(run->c.cfg))
		return;
	if (!run->c.cfg->jsonl) {
		fprintf(run->c.out,
			"  [%8.2f-%8.2f s] %9llu B %12llu msgs %11.4f %s %9.4f Mpps\n",
			t->t_start, t->t_end, (unsigned long long)run->cur_size,
			(unsigned long long)m,
			run->c.cfg->report_gbits ? g : g * 1e9 / 8 / 1048576.0,
			run->c.cfg->report_gbits ? "Gb/sec" : "MB/sec", p);
		fflush(run->c.out);
		return;
	}
	o = json_pack("{s:s, s:s, s:I, s:f, s:f, s:I, s:I, s:f, s:f, s:I}",
		      "type", "interval", "verb",
		      rperf_verb_name(run->c.cfg->spec.verb), "size",
		      (json_int_t)run->cur_size, "t_start", t->t_start, "t_end",
		      t->t_end, "messages", (json_int_t)m, "bytes",
		      (json_int_t)by, "gbps", g, "mpps", p, "total_messages",
		      (json_int_t)t->messages);
	if (o && !json_dumpf(o, run->c.out, JSON_COMPACT))
		fputc('\n', run->c.out);
	json_decref(o);
	fflush(run->c.out);
}

void rperf_bw_size_done(const struct rperf_bw_run *run, size_t i)
{
	if (run->c.cfg->jsonl)
		(void)rperf_report_bw_jsonl(run->c.out, &run->res[i]);
}

/* -b without --report-both: the text table sums both directions, as
 * perftest's -b does (JSON keeps both: "reverse"). */
static int text_report(const struct rperf_bw_run *run,
		       const struct rperf_report *rep)
{
	struct rperf_report sum = *rep;
	struct rperf_bw_result *both;
	int rc;

	if (run->c.cfg->reversed)
		fprintf(run->c.out,
			"# --reversed: the server sent (sender figures: its own), this side received (receiver: this side's count)\n");
	if (!run->c.cfg->bidir || run->c.cfg->report_both || !run->nres)
		return rperf_report_bw_text(run->c.out, rep);
	both = calloc(run->nres, sizeof(*both));
	if (!both)
		return ENOMEM;
	rperf_bw_sum_directions(run, both);
	sum.bw = both;
	fprintf(run->c.out,
		"# -b: both directions summed, as perftest reports -b (--report-both: each direction)\n");
	rc = rperf_report_bw_text(run->c.out, &sum);
	free(both);
	return rc;
}

bool rperf_bw_thresholds(const struct rperf_bw_run *run)
{
	const struct rperf_cmdline *cfg = run->c.cfg;
	bool below = false;

	for (size_t i = 0; cfg->limit_bw > 0 && i < run->nres; i++) {
		const struct rperf_bw_result *b = &run->res[i];
		double v = cfg->report_gbits ? b->gbps :
					       b->gbps * 1e9 / 8 / 1048576.0;

		if (v >= cfg->limit_bw)
			continue;
		below = true;
		rperf_say(
			&run->c.say,
			"-w/--limit_bw: BW average at %llu B is %.2f %s, below the limit of %.2f %s",
			(unsigned long long)b->size, v,
			cfg->report_gbits ? "Gb/s" : "MB/s", cfg->limit_bw,
			cfg->report_gbits ? "Gb/s" : "MB/s");
	}
	return below;
}

int rperf_bw_report(const struct rperf_bw_run *run,
		    const struct rperf_kv *config, size_t nconfig)
{
	struct rperf_twohost_view v = { 0 };
	struct rperf_report rep = { 0 };
	int rc = 0, frc;

	rep.bw = run->res;
	rep.nbw = run->nres;
	rep.report_gbits = run->c.cfg->report_gbits;
	rep.no_peak = run->c.cfg->no_peak;
	rperf_twohost_report_fill(&run->c, "bw", config, nconfig, &v, &rep);
	if (!run->c.cfg->jsonl)
		rc = text_report(run, &rep);
	if (!run->c.cfg->jsonl && !rc)
		rc = rperf_report_retrans_text(run->c.out, rep.retrans);
	else
		for (size_t i = 0; i < rep.nwarnings; i++)
			rperf_say(&run->c.say, "warning: %s", v.warn[i]);
	if (fflush(run->c.out) && !rc)
		rc = EIO;
	frc = rperf_twohost_report_files(&run->c, &rep,
					 rperf_report_bw_write_json);
	return rc ? rc : frc;
}

/* -b: the sum of both directions for the text table (perftest's -b;
 * --report-both shows them separately, and the JSON always has both:
 * "reverse"). */
void rperf_bw_sum_directions(const struct rperf_bw_run *run,
			     struct rperf_bw_result *out)
{
	for (size_t i = 0; i < run->nres; i++) {
		const struct rperf_bw_result *f = &run->res[i], *r = f->reverse;
		struct rperf_bw_result *o = &out[i];

		*o = *f;
		o->reverse = NULL;
		if (!r)
			continue;
		o->messages += r->messages;
		o->bytes += r->bytes;
		o->seconds = r->seconds > o->seconds ? r->seconds : o->seconds;
		o->gbps += r->gbps; /* both directions at once: rates add */
		o->mpps += r->mpps;
		o->post_calls += r->post_calls;
		o->offered_gbps = 0; /* per direction; not summed */
		o->offered_mpps = 0;
		o->rx_cpu_pct = -1; /* two processes' shares: not one figure */
		if (!(f->receiver_valid && r->receiver_valid)) {
			o->receiver_valid = false;
			o->receiver_note = f->receiver_note ? f->receiver_note :
							      r->receiver_note;
			continue;
		}
		o->rx_messages += r->rx_messages;
		o->rx_bytes += r->rx_bytes;
		o->rx_seconds = r->rx_seconds > o->rx_seconds ? r->rx_seconds :
								o->rx_seconds;
		o->rx_gbps += r->rx_gbps;
	}
}
