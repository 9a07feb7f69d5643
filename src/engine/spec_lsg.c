/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The keys only an LSG has beyond the common ones (spec.h): "timestamps",
 * which clock stamps the completions of the rperf method (rperf lat's
 * --timestamps), and in a PLAN "iters", the samples to take (rperf lat's
 * -n; the spec's window caps the run) and "method" (rperf lat's --method:
 * rperf or postpoll; "verb" then says what it times, as lat's --verb) and
 * "warmup_samples", a warm-up counted in samples (rperf lat's --warmup),
 * and "breakdown" (rperf lat's --breakdown: each post timed too).
 * All optional: a spec without them is encoded as before.
 */
#include "engine/spec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctrl/ctrl.h"
#include "gen/gen.h"
#include "util/err.h"

int rperf_spec_lsg_encode(const struct rperf_gen_spec *s, json_t *o)
{
	const char *ts = rperf_name_of(rperf_timestamps_names, s->timestamps);

	if (!strcmp(ts, "?"))
		return EINVAL;
	/* "iters" goes with the test keys (rperf_test_spec_encode) */
	if (s->timestamps != RPERF_TS_AUTO &&
	    rperf_ctrl_set_str(o, "timestamps", ts))
		return ENOMEM;
	if (s->warmup_samples &&
	    rperf_ctrl_set_u64(o, "warmup_samples", s->warmup_samples))
		return ENOMEM;
	if (s->breakdown && rperf_ctrl_set_bool(o, "breakdown", true))
		return ENOMEM;
	if (s->raw && rperf_ctrl_set_bool(o, "raw", true))
		return ENOMEM;
	return 0;
}

int rperf_spec_lsg_decode(const json_t *o, struct rperf_gen_spec *s, char *why,
			  size_t wl)
{
	char name[16];

	s->timestamps = RPERF_TS_AUTO;
	if (json_object_get(o, "timestamps") &&
	    (rperf_ctrl_get_str(o, "timestamps", name, sizeof(name)) ||
	     rperf_name_find(rperf_timestamps_names, SIZE_MAX, name,
			     &s->timestamps)))
		return rperf_fail(why, wl, EBADMSG,
				  "'timestamps' not one of auto, nic, cpu");
	s->test.method = RPERF_METHOD_RPERF;
	if (json_object_get(o, "method") &&
	    (rperf_ctrl_get_str(o, "method", name, sizeof(name)) ||
	     rperf_name_find(rperf_method_names, RPERF_METHOD_ALL, name,
			     &s->test.method)))
		return rperf_fail(
			why, wl, EBADMSG,
			"'method' not one of rperf, pingpong, postpoll");
	if (json_object_get(o, "iters") &&
	    rperf_ctrl_get_u64(o, "iters", 1, RPERF_SPEC_MAX_ITERS,
			       &s->test.iters))
		return rperf_fail(why, wl, EBADMSG,
				  "'iters' not an integer in [1, %llu]",
				  RPERF_SPEC_MAX_ITERS);
	s->warmup_samples = 0;
	if (json_object_get(o, "warmup_samples") &&
	    rperf_ctrl_get_u64(o, "warmup_samples", 1, RPERF_SPEC_MAX_ITERS,
			       &s->warmup_samples))
		return rperf_fail(
			why, wl, EBADMSG,
			"'warmup_samples' not an integer in [1, %llu]",
			RPERF_SPEC_MAX_ITERS);
	s->raw = false;
	if (json_object_get(o, "raw") && rperf_ctrl_get_bool(o, "raw", &s->raw))
		return rperf_fail(why, wl, EBADMSG, "'raw' not true or false");
	s->breakdown = false;
	if (json_object_get(o, "breakdown") &&
	    rperf_ctrl_get_bool(o, "breakdown", &s->breakdown))
		return rperf_fail(why, wl, EBADMSG,
				  "'breakdown' not true or false");
	return 0;
}

/*
 * A PLAN's LSG: rperf lat's rules of --method with --verb. The rperf
 * method times operations that complete on the remote ACK (SEND, WRITE);
 * READ and atomics complete when their data is back: postpoll only. An
 * agent's sink answers pingpong (gen/echo.h): SENDs, or with verb write
 * the byte it polls, which needs a busy-polling sink.
 */
static int method_verb_check(const struct rperf_gen_spec *s, char *why,
			     size_t wl)
{
	int m = s->test.method, v = s->verb;

	if (m == RPERF_METHOD_PINGPONG && v != RPERF_VERB_SEND &&
	    v != RPERF_VERB_WRITE)
		return rperf_fail(
			why, wl, EBADMSG,
			"'method' pingpong with verb %s: the sink answers SENDs and WRITEs; accepted: verb = send or write",
			rperf_verb_name(v));
	if (m == RPERF_METHOD_PINGPONG && v == RPERF_VERB_WRITE &&
	    s->sink_completion != RPERF_COMPLETION_POLL)
		return rperf_fail(
			why, wl, EBADMSG,
			"'method' pingpong with verb write and sink_completion event: the sink polls a byte of its buffer (a WRITE makes no completion to wake on); accepted: [global] sink_completion = poll");
	if (!rperf_verb_of(v)->lsg) {
		char verbs[64];

		return rperf_fail(
			why, wl, EBADMSG,
			"'verb' %s with an LSG: not a latency test; accepted: %s",
			rperf_verb_name(v),
			rperf_verb_lsg_list(verbs, sizeof(verbs)));
	}
	if (rperf_verb_responder_only(v) && m != RPERF_METHOD_POSTPOLL)
		return rperf_fail(
			why, wl, EBADMSG,
			"'verb' %s with method rperf: Equation 1 subtracts a loopback operation that completes on the remote ACK, but a %s completes when its response data is back; accepted: method = postpoll",
			rperf_verb_name(v),
			v == RPERF_VERB_READ ? "READ" : "atomic");
	return 0;
}

int rperf_spec_lsg_check(const struct rperf_gen_spec *s, bool test, char *why,
			 size_t wl)
{
	if (s->timestamps < RPERF_TS_AUTO || s->timestamps > RPERF_TS_CPU)
		return rperf_fail(why, wl, EBADMSG,
				  "'timestamps' %d is not auto, nic or cpu",
				  s->timestamps);
	if (rperf_gen_latency(s->kind))
		return test ? 0 : method_verb_check(s, why, wl);
	if (s->timestamps != RPERF_TS_AUTO)
		return rperf_fail(
			why, wl, EBADMSG,
			"'timestamps' with a BSG (only an LSG has it)");
	if (s->warmup_samples)
		return rperf_fail(
			why, wl, EBADMSG,
			"'warmup_samples' with a BSG (only an LSG has it)");
	if (s->breakdown || s->raw)
		return rperf_fail(why, wl, EBADMSG,
				  "'%s' with a BSG (only an LSG has it)",
				  s->breakdown ? "breakdown" : "raw");
	if (!test && s->test.method != RPERF_METHOD_RPERF)
		return rperf_fail(why, wl, EBADMSG,
				  "'method' with a BSG (only an LSG has it)");
	return 0;
}

/* The pace of @s's samples, ns each; 0: a closed loop's (unknown). */
static double pace_ns(const struct rperf_gen_spec *s)
{
	if (s->schedule.kind != RPERF_SCHED_CLOSED && s->schedule.rate > 0)
		return 1e9 / s->schedule.rate;
	if (s->rate_sps > 0)
		return 1e9 / s->rate_sps;
	if (s->rate_bps > 0 && s->size)
		return 8e9 * (double)s->size / s->rate_bps;
	return (double)s->latency_gap_ns;
}

uint64_t rperf_spec_end_ns(const struct rperf_gen_spec *s)
{
	double w = s->warmup_samples ? (double)s->warmup_samples * pace_ns(s) :
				       0,
	       e = (double)s->start_ns + (double)s->warmup_ns + w +
		   (double)s->duration_ns;

	return e >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)e;
}
