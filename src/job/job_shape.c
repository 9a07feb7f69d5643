/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The traffic-shape values of a generator section that need more than one
 * table row: `size` as a distribution (64:0.5,4K:0.4,64K:0.1 or @FILE).
 */
#include "job/job_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/size_dist.h"
#include "util/units.h"

bool job_sizes_is_dist(const char *v)
{
	return v[0] == '@' || strchr(v, ':') != NULL;
}

int job_parse_sizes(void *base, const char *v, char *why, size_t whylen)
{
	struct rperf_gen_spec *s = base;
	struct rperf_size_dist d;
	char ewhy[320];
	char *text = NULL;
	int rc;

	if (!job_sizes_is_dist(v)) {
		memset(&s->sizes, 0, sizeof(s->sizes));
		return rperf_parse_size(v, 1, RPERF_SPEC_MAX_SIZE, &s->size,
					why, whylen);
	}
	if (v[0] == '@') {
		rc = job_read_text(v + 1, "size distribution file", &text, ewhy,
				   sizeof(ewhy));
		if (rc) {
			snprintf(why, whylen, "%s", ewhy);
			return rc == ENOMEM ? ENOMEM : EINVAL;
		}
	}
	rc = rperf_size_dist_parse(text ? text : v, text != NULL,
				   RPERF_SPEC_MAX_SIZE, &d, ewhy, sizeof(ewhy));
	free(text);
	if (rc) {
		snprintf(why, whylen, "%s%s%s", v[0] == '@' ? v + 1 : "",
			 v[0] == '@' ? ": " : "", ewhy);
		return EINVAL;
	}
	s->sizes = d;
	s->size = rperf_size_dist_max(&d);
	return 0;
}

/* [incast NAME]: burst and period given, jitter below the period, one
 * destination. */
static int check_incast(const struct job_gen *g, const struct job_msg *m)
{
	const struct job_sect *s = g->sect;
	const struct job_kv *kv = job_sect_kv(s, "jitter");

	if (!g->spec.burst_bytes)
		return job_fail(
			m, s->line, s, NULL,
			"no 'burst' key; add burst = BYTES, what each sender posts per burst (e.g. 64K)");
	if (!g->spec.period_ns)
		return job_fail(
			m, s->line, s, NULL,
			"no 'period' key; add period = TIME, one burst per period (e.g. 500ms)");
	if (g->spec.jitter_ns >= g->spec.period_ns)
		return job_fail(
			m, kv ? kv->line : s->line, s, "jitter",
			"%.3f ms is not below the period (%.3f ms); lower jitter",
			(double)g->spec.jitter_ns / 1e6,
			(double)g->spec.period_ns / 1e6);
	if (g->to_all)
		return job_fail(
			m, g->to_kv->line, s, "to",
			"an incast has one destination; write to = HOST");
	return 0;
}

int job_check_shape(const struct job_gen *g, const struct job_msg *m)
{
	const struct job_sect *s = g->sect;
	const struct job_kv *kv;

	if (rperf_gen_latency(g->spec.kind) && g->spec.sizes.n) {
		kv = job_sect_kv(s, "size");
		return job_fail(
			m, kv ? kv->line : s->line, s, "size",
			"a size distribution applies to [bsg] sections only; give an LSG one size");
	}
	if (g->spec.burst_size && !(g->spec.rate_bps > 0)) {
		kv = job_sect_kv(s, "burst_size");
		return job_fail(
			m, kv ? kv->line : s->line, s, "burst_size",
			"the depth of the rate's token bucket: set rate too, or leave burst_size out");
	}
	if (s->type == JOB_SECT_INCAST)
		return check_incast(g, m);
	if (g->spec.stop_ns && g->spec.stop_ns <= g->spec.start_ns) {
		kv = job_sect_kv(s, "stop");
		return job_fail(
			m, kv ? kv->line : s->line, s, "stop",
			"%.3f s is not after start (%.3f s): stop is an offset after GO, like start; raise stop or lower start",
			(double)g->spec.stop_ns / 1e9,
			(double)g->spec.start_ns / 1e9);
	}
	return 0;
}
