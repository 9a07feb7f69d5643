/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The spec's optional keys (spec.h): the LSG's probe schedule and its
 * closed loop's latency gap, the BSG's on/off phases, the time-series
 * interval. Absent keys take the defaults (an older controller's PLAN
 * stays valid).
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>

#include "ctrl/ctrl.h"
#include "util/err.h"

int rperf_spec_sched_check(const struct rperf_gen_spec *s, char *why,
			   size_t whylen)
{
	const char *kind = s->schedule.kind == RPERF_SCHED_FIXED ? "fixed" :
								   "poisson";

	if (!rperf_sched_valid(&s->schedule))
		return rperf_fail(
			why, whylen, EBADMSG,
			"'schedule' is not closed, fixed:RATE or poisson:RATE");
	if (s->schedule.kind != RPERF_SCHED_CLOSED && s->rate_bps > 0)
		return rperf_fail(
			why, whylen, EBADMSG,
			"'schedule' %s and 'rate' both pace the LSG; keep one",
			kind);
	if (s->schedule.kind != RPERF_SCHED_CLOSED &&
	    (s->test.method != RPERF_METHOD_RPERF ||
	     s->pair_order == RPERF_PAIR_SEQUENTIAL)) {
		/* checked here, not first by the agent after connecting */
		return rperf_fail(
			why, whylen, EBADMSG,
			"'schedule' %s takes method rperf and a pair_order other than sequential (they time one sample at a time); accepted: schedule closed with those",
			kind);
	}
	if (s->latency_gap_ns &&
	    (!rperf_gen_latency(s->kind) || s->rate_bps > 0 ||
	     s->schedule.kind != RPERF_SCHED_CLOSED ||
	     s->latency_gap_ns > RPERF_SPEC_MAX_TIME_NS))
		return rperf_fail(
			why, whylen, EBADMSG,
			"'latency_gap' is the idle time between an LSG's closed-loop samples, up to 1 day; with 'rate' or a fixed or poisson 'schedule' two ways would pace it: keep one");
	if (s->rate_sps &&
	    (!rperf_gen_latency(s->kind) || s->rate_bps > 0 ||
	     s->latency_gap_ns || s->schedule.kind != RPERF_SCHED_CLOSED ||
	     !(s->rate_sps > 0 && s->rate_sps <= RPERF_SPEC_MAX_RATE_SPS)))
		return rperf_fail(
			why, whylen, EBADMSG,
			"'rate_sps' paces an LSG's closed loop in samples/s (0 < rate <= %g); with 'rate', 'latency_gap' or a fixed or poisson 'schedule' two ways would pace it: keep one",
			RPERF_SPEC_MAX_RATE_SPS);
	if (!s->on_ns != !s->off_ns || s->on_ns > RPERF_SPEC_MAX_TIME_NS ||
	    s->off_ns > RPERF_SPEC_MAX_TIME_NS)
		return rperf_fail(
			why, whylen, EBADMSG,
			"'on' and 'off' go together (an on/off source): both > 0 and <= 1 day, or neither");
	if (s->interval_ns && (s->interval_ns < RPERF_SPEC_MIN_INTERVAL_NS ||
			       s->interval_ns > RPERF_SPEC_MAX_TIME_NS))
		return rperf_fail(
			why, whylen, EBADMSG,
			"'interval' is not 0 (none) or 1 ms .. 1 day");
	return 0;
}

int rperf_spec_sched_encode(const struct rperf_gen_spec *s, json_t *o)
{
	char sched[RPERF_SCHED_TEXT];
	int rc;

	rperf_sched_format(&s->schedule, sched, sizeof(sched));
	rc = rperf_ctrl_set_str(o, "schedule", sched);
	if (!rc)
		rc = rperf_ctrl_set_u64(o, "on_ns", s->on_ns);
	if (!rc)
		rc = rperf_ctrl_set_u64(o, "off_ns", s->off_ns);
	if (!rc)
		rc = rperf_ctrl_set_u64(o, "interval_ns", s->interval_ns);
	if (!rc && s->latency_gap_ns) /* absent: none (older agents) */
		rc = rperf_ctrl_set_u64(o, "latency_gap_ns", s->latency_gap_ns);
	if (!rc && s->rate_sps > 0) /* likewise */
		rc = rperf_ctrl_set_double(o, "rate_sps", s->rate_sps);
	return rc;
}

static int opt_u64(const json_t *o, const char *key, uint64_t *out,
		   uint64_t absent, char *why, size_t whylen)
{
	*out = absent;
	if (!json_object_get(o, key))
		return 0;
	if (rperf_ctrl_get_u64(o, key, 0, RPERF_SPEC_MAX_TIME_NS, out))
		return rperf_fail(why, whylen, EBADMSG,
				  "'%s' not an integer in [0, %llu]", key,
				  (unsigned long long)RPERF_SPEC_MAX_TIME_NS);
	return 0;
}

int rperf_spec_sched_decode(const json_t *o, struct rperf_gen_spec *t,
			    char *why, size_t whylen)
{
	char buf[RPERF_SCHED_TEXT], msg[200];
	int rc;

	t->schedule = (struct rperf_sched){ RPERF_SCHED_CLOSED, 0 };
	if (json_object_get(o, "schedule") &&
	    (rperf_ctrl_get_str(o, "schedule", buf, sizeof(buf)) ||
	     rperf_sched_parse(buf, &t->schedule, msg, sizeof(msg))))
		return rperf_fail(
			why, whylen, EBADMSG,
			"'schedule' not closed, fixed:RATE or poisson:RATE");
	rc = opt_u64(o, "on_ns", &t->on_ns, 0, why, whylen);
	if (!rc)
		rc = opt_u64(o, "off_ns", &t->off_ns, 0, why, whylen);
	if (!rc)
		rc = opt_u64(o, "interval_ns", &t->interval_ns, 1000000000ull,
			     why, whylen);
	if (!rc)
		rc = opt_u64(o, "latency_gap_ns", &t->latency_gap_ns, 0, why,
			     whylen);
	t->rate_sps = 0;
	if (!rc && json_object_get(o, "rate_sps") &&
	    rperf_ctrl_get_double(o, "rate_sps", 1e-9, RPERF_SPEC_MAX_RATE_SPS,
				  &t->rate_sps)) {
		snprintf(why, whylen, "'rate_sps' not a number in (0, %g]",
			 RPERF_SPEC_MAX_RATE_SPS);
		rc = EBADMSG;
	}
	return rc;
}
