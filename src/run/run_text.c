/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Text report of `rperf run`: one table with a line per generator instance
 * (LSG columns are RTT percentiles in microseconds, BSG columns payload
 * rates, three significant digits, Mb/s below 1 Gb/s), then
 * the same columns per class, per host and in total; then the clocks the
 * LSG hosts used, failed hosts, errors and warnings.
 */
#include "run/run.h"
#include "run/run_ctr.h"
#include "run/run_ctlplane.h"
#include "run/run_incast.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rperf/hist.h>
#include <rperf/report.h>

#include "gen/bw_math.h"
#include "gen/gen.h"
#include "gen/lsg.h"
#include "gen/nic_ts.h"
#include "report/report_breakdown.h"
#include "util/rate_text.h"

#define HDR_FMT "%-16s %-4s %-21s %-15s %9s %9s %9s %9s %11s %11s%s%s\n"

/* "h1 -> h4", cut to fit. */
static void path_str(char *b, size_t n, const char *from, const char *to)
{
	snprintf(b, n, "%s -> %s", from, to);
}

static const struct rperf_run_class *class_of(const struct rperf_run_results *r,
					      const struct rperf_gen_spec *s)
{
	for (size_t i = 0; i < r->ncls; i++)
		if (r->cls[i].sl == s->path.sl &&
		    r->cls[i].tclass == s->path.tclass)
			return &r->cls[i];
	return NULL;
}

/* Microseconds; '*' when too few samples support percentile @p. */
static void us(char *b, size_t n, int64_t ns, double p, uint64_t cnt)
{
	snprintf(b, n, "%.2f%s", (double)ns / 1000.0,
		 p > 0 && !rperf_percentile_reliable(p, cnt) ? "*" : "");
}

/* The four RTT columns of @h ("-" when there is none). */
static void rtt_cols(const struct rperf_hist *h, char c[4][24])
{
	static const double ps[3] = { 50, 99, 99.9 };
	int64_t v[3];

	if (!h || !rperf_hist_count(h)) {
		for (int i = 0; i < 4; i++)
			snprintf(c[i], 24, "-");
		return;
	}
	rperf_hist_percentiles(h, ps, 3, v);
	for (int i = 0; i < 3; i++)
		us(c[i], 24, v[i], ps[i], rperf_hist_count(h));
	us(c[3], 24, rperf_hist_max(h), 0, 0);
}

static void gbps_col(char *b, size_t n, size_t nbsg, double g)
{
	if (nbsg)
		rperf_rate_text(b, n, g);
	else
		snprintf(b, n, "-");
}

/* Which Gb/s columns a line shows. */
enum cols { COL_NONE = 0, COL_SENT = 1, COL_RECV = 2, COL_BOTH = 3 };

static void line(FILE *f, const char *name, const char *kind, const char *path,
		 const char *cls, const struct rperf_run_agg *a,
		 const char *status, enum cols cols)
{
	char c[4][24], s[24], rcv[24];

	rtt_cols(a->rtt, c);
	gbps_col(s, sizeof(s), (cols & COL_SENT) ? a->nsent : 0, a->gbps);
	gbps_col(rcv, sizeof(rcv), (cols & COL_RECV) ? a->nrecv : 0,
		 a->receiver_gbps);
	fprintf(f, HDR_FMT, name, kind, path, cls, c[0], c[1], c[2], c[3], s,
		rcv, status[0] ? "  " : "", status);
}

static void header(FILE *f, const char *first)
{
	fprintf(f, HDR_FMT, first, "KIND", "PATH", "CLASS", "p50 us", "p99 us",
		"p99.9 us", "max us", "sent", "recv", "  ", "STATUS");
}

static void instances(FILE *f, const struct rperf_run_results *r)
{
	char path[2 * RPERF_NAME_LEN + 8];

	header(f, "GENERATOR");
	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_run_class *c = class_of(r, in->spec);
		struct rperf_run_agg a = { 0 };

		/* an instance as a one-member aggregate */
		a.rtt = in->rtt;
		a.nlsg = rperf_gen_latency(in->spec->kind);
		a.nbsg = !a.nlsg;
		a.nsent = a.nbsg && in->have_source;
		a.nrecv = a.nbsg && in->have_sink && !in->rx_invisible;
		a.gbps = in->gbps;
		a.receiver_gbps = in->receiver_gbps;
		path_str(path, sizeof(path), in->spec->from, in->spec->to);
		line(f, in->spec->name, rperf_gen_kind_name(in->spec->kind),
		     path, c ? c->name : "?", &a,
		     rperf_run_status_name(in->status), COL_BOTH);
	}
}

/* The [lsg] sections with breakdown: the components of their RTT. */
static void breakdowns(FILE *f, const struct rperf_run_results *r)
{
	bool first = true;

	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];
		const struct rperf_gen_spec *s = in->spec;

		if (!s->breakdown || !in->samples)
			continue;
		if (first)
			fprintf(f,
				"\nbreakdown (usec, p50 and p99.9; the components of the RTT):\n");
		first = false;
		fprintf(f, "  %s (%s -> %s): %s %s %llu B%s\n", s->name,
			s->from, s->to, rperf_method_name(s->test.method),
			rperf_verb_name(s->verb), (unsigned long long)s->size,
			in->precompleted * 2 > in->samples ?
				" (complete inside the post: the post cost includes the round trip)" :
				"");
		rperf_rpt_breakdown_rows(
			f, &(struct rperf_rpt_breakdown){
				   .equation1 = s->test.method ==
						RPERF_METHOD_RPERF,
				   .loop_op = s->verb == RPERF_VERB_WRITE ?
						      "WRITE" :
						      "SEND",
				   .post_wire = in->post_wire,
				   .post_loop = in->post_loop,
				   .loop = in->loop,
				   .wire = in->wire,
				   .rtt = in->rtt });
	}
}

/* Per source host (@to false) or per destination host. */
static void host_lines(FILE *f, const struct rperf_run_results *r, bool to)
{
	char n[2 * RPERF_NAME_LEN + 16];

	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];
		const struct rperf_run_agg *a = to ? &h->received : &h->sent;

		if (!a->nlsg && !a->nbsg)
			continue;
		snprintf(n, sizeof(n), to ? "* -> %s" : "%s -> *",
			 h->host->name);
		line(f, to ? "to host" : "from host", "", n, "", a,
		     h->failed ? "FAILED" : "ok", to ? COL_RECV : COL_BOTH);
	}
}

static void aggregates(FILE *f, const struct rperf_run_results *r)
{
	fprintf(f, "\n");
	header(f, "AGGREGATE");
	for (size_t i = 0; i < r->ncls; i++)
		line(f, "class", "", "", r->cls[i].name, &r->cls[i].agg, "",
		     COL_BOTH);
	host_lines(f, r, false);
	host_lines(f, r, true);
	line(f, "total", "", "", "", &r->total, "", COL_BOTH);
}

/* "posix (trusted), 1.000000 GHz, method M, error 0.0 ppm: reason" from
 * the agent's clock object (rperf lat's "clock"); unknown shapes as JSON. */
static void clock_line(FILE *f, const char *host, const json_t *clk)
{
	const json_t *src = json_object_get(clk, "source");
	const json_t *hz = json_object_get(clk, "hz");
	const json_t *tr = json_object_get(clk, "trusted");
	const json_t *m = json_object_get(clk, "method");
	const json_t *ppm = json_object_get(clk, "error_ppm");
	const json_t *why = json_object_get(clk, "reason");
	char *s;

	if (!json_is_string(src) || !json_is_number(hz)) {
		s = json_dumps(clk, JSON_COMPACT | JSON_SORT_KEYS);
		fprintf(f, "  %s: %s\n", host, s ? s : "?");
		free(s);
		return;
	}
	fprintf(f, "  %s: %s%s, %.6f GHz", host, json_string_value(src),
		json_is_boolean(tr) ?
			(json_is_true(tr) ? " (trusted)" : " (NOT trusted)") :
			"",
		json_number_value(hz) / 1e9);
	if (json_is_string(m))
		fprintf(f, ", %s", json_string_value(m));
	if (json_is_number(ppm))
		fprintf(f, ", error %.1f ppm", json_number_value(ppm));
	if (json_is_string(why) && json_string_length(why))
		fprintf(f, ": %s", json_string_value(why));
	fprintf(f, "\n");
}

/* Which clock stamped the completions of @in, when it ran from @host:
 * the NIC's, or the CPU's with auto's note (rperf lat's words). */
static void stamps_line(FILE *f, const char *host,
			const struct rperf_run_inst *in)
{
	const struct rperf_proto_nic_clock *c = &in->nic_clock;
	char w[256];

	if (strcmp(in->spec->from, host))
		return;
	if (!in->nic_ts) {
		if (in->ts_note[0])
			fprintf(f,
				"  %s: %s: note: %s: CPU completion stamps (timestamps auto)\n",
				host, in->spec->name, in->ts_note);
		return;
	}
	fprintf(f, "  %s: %s: completions stamped by the NIC's clock\n", host,
		in->spec->name);
	if (rperf_nic_clock_warning(c->hz, c->measured_hz, c->ppm, w,
				    sizeof(w)))
		fprintf(f, "  %s: %s: WARNING: %s\n", host, in->spec->name, w);
}

static void clocks(FILE *f, const struct rperf_run_results *r)
{
	bool any = false;

	for (size_t i = 0; i < r->job->nhosts; i++) {
		const struct rperf_run_host *h = &r->hosts[i];

		if (!h->clock || !h->sent.nlsg)
			continue;
		if (!any)
			fprintf(f, "\nClock of each LSG host:\n");
		any = true;
		clock_line(f, h->host->name, h->clock);
		for (size_t j = 0; j < r->job->ninst; j++)
			stamps_line(f, h->host->name, &r->inst[j]);
	}
}

/* Once per generator section: its destination cannot count RDMA WRITEs,
 * READs or atomics; every instance whose destination's intervals were
 * left out; every host whose buffers are not what the job asked (huge
 * pages not free) or not locked. */
static void write_notes(FILE *f, const struct rperf_run_results *r)
{
	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_gen_spec *s = r->inst[i].spec;
		bool seen = false;

		if (!r->inst[i].rx_invisible && !r->inst[i].rx_rows_dropped)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(r->inst[j].spec->name, s->name);
		if (!seen && r->inst[i].rx_invisible)
			fprintf(f,
				"note: %s: verb %s: the destination sees no completion, so nothing is counted there (recv '-'); send or write_imm are counted\n",
				s->name, rperf_verb_name(s->verb));
		if (r->inst[i].rx_rows_dropped)
			fprintf(f, "note: %s: %s\n", s->name,
				RPERF_RUN_ROWS_DROPPED);
	}
	for (size_t i = 0; i < r->job->nhosts; i++)
		if (r->hosts[i].buffers_note[0])
			fprintf(f, "note: %s: buffers: %s\n",
				r->hosts[i].host->name,
				r->hosts[i].buffers_note);
}

/* The link layer of host @name: "infiniband", "ethernet" or "" unknown. */
static const char *link_of(const struct rperf_run_results *r, const char *name)
{
	for (size_t i = 0; i < r->job->nhosts; i++)
		if (!strcmp(r->hosts[i].host->name, name))
			return r->hosts[i].link_layer;
	return "";
}

/* What the rate columns are: payload, and per BSG section the wire
 * efficiency that turns them into wire rates (its assumptions said). */
static void rates_note(FILE *f, const struct rperf_run_results *r)
{
	bool any = false;

	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_gen_spec *s = r->inst[i].spec;
		uint32_t mtu = s->path.mtu ? s->path.mtu : 4096;
		const char *link = link_of(r, s->from);
		bool ib = !strcmp(link, "infiniband"), seen = false;

		if (!rperf_gen_bandwidth(s->kind))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(r->inst[j].spec->name, s->name);
		if (seen)
			continue;
		if (!any)
			fprintf(f,
				"sent, recv: payload rates (message bytes over the run's window; 1 Gb/s = 10^9 bit/s); the wire rate is the payload rate / the wire efficiency (headers per packet; ACKs not counted):\n");
		any = true;
		fprintf(f,
			"  %s: %llu B %s%s, MTU %u%s, %s: wire efficiency %.3f\n",
			s->name, (unsigned long long)s->size,
			rperf_verb_name(s->verb),
			s->sizes.n ? " (the largest size)" : "", mtu,
			s->path.mtu ? "" : " (not set: 4096 assumed)",
			ib ? "InfiniBand (LRH, GRH, BTH, ICRC, VCRC)" :
			link[0] ?
			     "RoCEv2 (Ethernet, IPv4, UDP, BTH, ICRC, preamble, gap)" :
			     "RoCEv2 assumed (link layer not reported)",
			rperf_bw_wire_efficiency(s->size, (int)mtu, !ib, true,
						 s->verb, s->post_list));
	}
}

/* The legend of '*', when an instance shows one. */
static void legend(FILE *f, const struct rperf_run_results *r)
{
	for (size_t i = 0; i < r->job->ninst; i++) {
		const struct rperf_hist *h = r->inst[i].rtt;

		if (h && rperf_hist_count(h) &&
		    !rperf_percentile_reliable(99.9, rperf_hist_count(h))) {
			fprintf(f,
				"* fewer than 10/(1-p) samples support this percentile (p99.9 needs 10,000)\n");
			return;
		}
	}
}

/* An open schedule: its lag; falling behind is a warning, not a figure. */
static void sched_note(FILE *f, const struct rperf_run_inst *in)
{
	const struct rperf_sched_figs *g = &in->sched;
	char name[RPERF_SCHED_TEXT];

	if (!g->open)
		return;
	rperf_sched_format(&in->spec->schedule, name, sizeof(name));
	fprintf(f,
		"%s: %s (%s): schedule %s: %llu of %llu samples posted more than %.1f us after they were due (lag p99 %.1f us, max %.1f us; up to %llu in flight)%s\n",
		rperf_sched_fell_behind(g, in->samples) ? "warning" : "note",
		in->spec->name, in->spec->from, name,
		(unsigned long long)g->late, (unsigned long long)in->samples,
		(double)g->lag_bound_ns / 1e3, (double)g->lag_p99_ns / 1e3,
		(double)g->lag_max_ns / 1e3,
		(unsigned long long)g->inflight_max,
		rperf_sched_fell_behind(g, in->samples) ?
			": the prober fell behind its schedule, its figures are not the schedule's; lower the rate" :
			"");
}

/* An LSG's operations that completed inside their post: the rperf
 * method's pairs (the advice: sequential), or postpoll's (the RTT of such
 * a sample is the post's own time). Of the counted samples: the warm-up's
 * are dropped with their counts (gen_lsg.c). */
static void precompleted_line(FILE *f, const struct rperf_run_inst *in)
{
	const struct rperf_gen_spec *s = in->spec;
	const char *op = rperf_lsg_op_name(s->test.method, s->verb);
	bool seq = s->pair_order == RPERF_PAIR_SEQUENTIAL;
	unsigned long long n = in->samples;

	if (s->test.method == RPERF_METHOD_POSTPOLL) {
		fprintf(f,
			"warning: %s (%s): %llu %ss of %llu completed inside ibv_post_send (software RDMA): their RTT is the post's own time\n",
			s->name, s->from, (unsigned long long)in->precompleted,
			op, n);
		return;
	}
	fprintf(f,
		"warning: %s (%s): %llu wire and %llu loopback %ss of %llu completed inside ibv_post_send (software RDMA); %s%s%s\n",
		s->name, s->from, (unsigned long long)in->precompleted,
		(unsigned long long)in->loop_precompleted, op, n,
		seq ? "pair_order = sequential times each " :
		      "try pair_order = sequential",
		seq ? op : "", seq ? " on its own" : "");
}

/* The RTT limits an LSG instance crossed (its [lsg]'s max_p50, max_p999). */
static void limit_lines(FILE *f, const struct rperf_run_inst *in)
{
	struct rperf_run_limit l[RPERF_RUN_NLIMITS];

	if (!rperf_run_inst_limits(in, l))
		return;
	for (size_t k = 0; k < RPERF_RUN_NLIMITS; k++)
		if (l[k].over)
			fprintf(f,
				"limit: %s (%s -> %s): RTT p%g is %.3f us, above %s = %.3f us\n",
				in->spec->name, in->spec->from, in->spec->to,
				l[k].p, (double)l[k].value_ns / 1e3, l[k].key,
				(double)l[k].limit_ns / 1e3);
}

static void problems(FILE *f, const struct rperf_run_results *r)
{
	size_t i;

	if (r->aborted)
		fprintf(f,
			"Aborted before the start (nothing was measured): %s\n",
			r->abort_why);
	if (r->cut_short)
		fprintf(f,
			"\nCut short: a host failed mid-run; the others ran on for one more timeout (%.3g s), not to their planned end.\n",
			(double)r->timeout_ns / 1e9);
	if (r->interrupted)
		fprintf(f,
			"\nInterrupted: the figures cover the time until the stop.\n");
	if (r->overflow)
		fprintf(f,
			"\nOverflow: a count or sum would have wrapped when merged; it was saturated or left out of the aggregates: not a measurement.\n");
	for (i = 0; i < r->job->nhosts; i++)
		if (r->hosts[i].failed)
			fprintf(f, "FAILED host %s: %s\n",
				r->hosts[i].host->name, r->hosts[i].why);
	for (i = 0; i < r->job->ninst; i++)
		if (r->inst[i].error[0])
			fprintf(f, "error: %s (%s -> %s): %s\n",
				r->inst[i].spec->name, r->inst[i].spec->from,
				r->inst[i].spec->to, r->inst[i].error);
	for (i = 0; i < r->job->ninst; i++) {
		const struct rperf_run_inst *in = &r->inst[i];

		if (in->placed && in->place.remote)
			fprintf(f,
				"warning: %s (%s): placed off the NIC's node %d (cpu node %d, memory node %d): remote NUMA costs bandwidth and latency; set cpu_node/mem_node = auto\n",
				in->spec->name, in->spec->from,
				in->place.nic_node, in->place.cpu_node,
				in->place.mem_node);
		sched_note(f, in);
		if (in->nonpositive)
			fprintf(f,
				"warning: %s (%s): %llu RTT samples <= 0 (loopback slower than the wire: check the clock and the path)\n",
				in->spec->name, in->spec->from,
				(unsigned long long)in->nonpositive);
		if (in->precompleted || in->loop_precompleted)
			precompleted_line(f, in);
		limit_lines(f, in);
	}
}

int rperf_run_report_text(FILE *f, const struct rperf_run_results *r)
{
	fprintf(f,
		"rperf run %s: %zu generator instance(s) on %zu host(s), warm-up %.3f s, duration %.3f s, elapsed %.3f s\n\n",
		r->job->path, r->job->ninst, r->job->nhosts,
		(double)r->job->warmup_ns / 1e9,
		(double)r->job->duration_ns / 1e9, r->elapsed);
	run_ctlplane_banner(f, r);
	if (!r->aborted) {
		instances(f, r);
		aggregates(f, r);
		legend(f, r);
		rates_note(f, r);
		breakdowns(f, r);
		clocks(f, r);
		write_notes(f, r);
	}
	run_incasts_text(f, r);
	if (!r->aborted)
		run_ctr_text(f, r);
	run_ctlplane_text(f, r);
	problems(f, r);
	return ferror(f) ? EIO : 0;
}
