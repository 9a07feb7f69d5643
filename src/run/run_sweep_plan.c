/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The plan of a sweep (run_sweep.h): its axes (one per --sweep), their
 * points (the cartesian product, or --zip: the i-th values together),
 * each point's assignments, and the repeats' results.
 */
#include "run/run_sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *spec, const char *why)
{
	snprintf(err, errlen, "--sweep %s: %s", spec, why);
	return EINVAL;
}

/* The items of a->list into a->values (the list is cut in place). */
static int split_values(struct rperf_sweep_axis *a, const char *spec, char *err,
			size_t errlen)
{
	char *p = a->list, *comma;

	if (!*p || *p == ',' || p[strlen(p) - 1] == ',' || strstr(p, ",,"))
		return fail(
			err, errlen, spec,
			"the value list has an empty item; write SECTION.NAME.KEY=V1,V2,...");
	for (;;) {
		if (a->nvalues == RPERF_SWEEP_MAX_POINTS) {
			char why[96];

			snprintf(why, sizeof(why),
				 "more than %d values; split the sweep",
				 RPERF_SWEEP_MAX_POINTS);
			return fail(err, errlen, spec, why);
		}
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		a->values[a->nvalues++] = p;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int parse_axis(struct rperf_sweep_axis *a, const char *spec, char *err,
		      size_t errlen)
{
	char why[384];

	if (rperf_job_assign_parse(spec, &a->target, why, sizeof(why)))
		return fail(err, errlen, spec, why);
	if (!strcmp(a->target.key, "from"))
		return fail(
			err, errlen, spec,
			"'from' takes a list itself and cannot be swept; sweep count (the first N hosts of from) instead");
	snprintf(a->key, sizeof(a->key), "%.*s",
		 (int)(a->target.value - spec - 1), spec);
	a->list = strdup(a->target.value);
	a->target.value = NULL; /* pointed into @spec */
	return a->list ? split_values(a, spec, err, errlen) : ENOMEM;
}

/* How many points, and that --zip's lists have one length. */
static int count_points(const struct rperf_sweep *s, const char *const *specs,
			size_t *n, char *err, size_t errlen)
{
	char why[160];

	*n = 1;
	for (size_t i = 0; i < s->nax; i++) {
		if (s->zip && s->ax[i].nvalues != s->ax[0].nvalues) {
			snprintf(
				why, sizeof(why),
				"--zip pairs the i-th values of every --sweep: %zu values here, %zu in the first; give them one length",
				s->ax[i].nvalues, s->ax[0].nvalues);
			return fail(err, errlen, specs[i], why);
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->ax[i].key, s->ax[j].key))
				return fail(
					err, errlen, specs[i],
					"this key is swept twice; give its values in one --sweep");
		if (!s->zip)
			*n *= s->ax[i].nvalues;
		if (*n > RPERF_SWEEP_MAX_POINTS) {
			snprintf(
				why, sizeof(why),
				"the product of the --sweep lists has more than %d points; shorten a list or use --zip",
				RPERF_SWEEP_MAX_POINTS);
			return fail(err, errlen, specs[i], why);
		}
	}
	if (s->zip && s->nax)
		*n = s->ax[0].nvalues;
	return 0;
}

/* Point @i's value index on axis @k: the last axis varies fastest. */
static size_t value_index(const struct rperf_sweep *s, size_t i, size_t k)
{
	if (s->zip)
		return i;
	for (size_t j = s->nax; j-- > k + 1;)
		i /= s->ax[j].nvalues;
	return i % s->ax[k].nvalues;
}

static int make_point(struct rperf_sweep *s, size_t i)
{
	struct rperf_sweep_point *p = &s->pt[i];
	size_t len = 1;

	for (size_t k = 0; k < s->nax; k++) {
		const struct rperf_sweep_axis *a = &s->ax[k];
		size_t vi = value_index(s, i, k);
		size_t n = strlen(a->key) + strlen(a->values[vi]) + 2;
		size_t on = n + 48;

		p->vals[k] = a->values[vi];
		p->assigns[k] = malloc(n);
		p->origins[k] = malloc(on);
		if (!p->assigns[k] || !p->origins[k])
			return ENOMEM;
		snprintf(p->assigns[k], n, "%s=%s", a->key, p->vals[k]);
		snprintf(p->origins[k], on, "--sweep %s (value %zu of %zu)",
			 p->assigns[k], vi + 1, a->nvalues);
		p->has_xs[k] = !rperf_job_target_number(&a->target, p->vals[k],
							&p->xs[k]);
		p->nassign++;
		len += strlen(p->vals[k]) + 2;
	}
	p->assign = p->assigns[0];
	p->origin = p->origins[0];
	p->has_x = s->nax && p->has_xs[0];
	p->x = p->xs[0];
	p->value = s->nax ? p->vals[0] : "-";
	if (s->nax < 2)
		return 0;
	p->label = malloc(len);
	if (!p->label)
		return ENOMEM;
	p->label[0] = '\0';
	for (size_t k = 0; k < s->nax; k++)
		snprintf(p->label + strlen(p->label), len - strlen(p->label),
			 "%s%s", k ? ", " : "", p->vals[k]);
	p->value = p->label;
	return 0;
}

int rperf_sweep_create_multi(const char *const *specs, size_t n, bool zip,
			     size_t repeat, struct rperf_sweep **out, char *err,
			     size_t errlen)
{
	struct rperf_sweep *s;
	size_t npt = 0;
	int rc = 0;

	*out = NULL;
	if (n > RPERF_SWEEP_MAX_KEYS) {
		snprintf(err, errlen,
			 "--sweep given %zu times; accepted: at most %d keys",
			 n, RPERF_SWEEP_MAX_KEYS);
		return EINVAL;
	}
	if (repeat < 1 || repeat > RPERF_SWEEP_MAX_REPEAT) {
		snprintf(err, errlen,
			 "--repeat %zu with rperf run; accepted: 1 to %d",
			 repeat, RPERF_SWEEP_MAX_REPEAT);
		return EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return ENOMEM;
	s->zip = zip;
	s->repeat = repeat;
	for (size_t i = 0; !rc && i < n; i++) {
		rc = parse_axis(&s->ax[i], specs[i], err, errlen);
		s->nax = i + 1;
	}
	if (!rc)
		rc = count_points(s, specs, &npt, err, errlen);
	for (size_t i = 0; !rc && i < npt; i++) {
		s->npt = i + 1;
		rc = make_point(s, i);
	}
	if (rc) {
		rperf_sweep_free(s);
		return rc;
	}
	if (n) {
		memcpy(s->key, s->ax[0].key, sizeof(s->key));
		s->target = s->ax[0].target;
	}
	*out = s;
	return 0;
}

int rperf_sweep_create(const char *spec, struct rperf_sweep **out, char *err,
		       size_t errlen)
{
	return rperf_sweep_create_multi(&spec, 1, false, 1, out, err, errlen);
}

void rperf_sweep_free(struct rperf_sweep *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->npt; i++) {
		struct rperf_sweep_point *p = &s->pt[i];

		/* results point into their job: free them first */
		for (size_t k = 0; k < p->nrep; k++)
			rperf_run_results_free(p->rep[k]);
		rperf_job_free(p->job);
		for (size_t k = 0; k < p->nassign; k++) {
			free(p->assigns[k]);
			free(p->origins[k]);
		}
		free(p->label);
	}
	for (size_t k = 0; k < s->nax; k++)
		free(s->ax[k].list);
	free(s);
}

static enum rperf_sweep_status status_of(const struct rperf_run_results *r)
{
	if (r->aborted)
		return RPERF_SWEEP_ABORTED;
	if (rperf_run_results_nfailed(r) || (r->nerrors && !r->interrupted))
		return RPERF_SWEEP_FAILED;
	return RPERF_SWEEP_OK;
}

void rperf_sweep_set_result(struct rperf_sweep *s, size_t i,
			    struct rperf_run_results *res)
{
	struct rperf_sweep_point *p = &s->pt[i];
	enum rperf_sweep_status st;

	if (!res || p->nrep == RPERF_SWEEP_MAX_REPEAT) {
		rperf_run_results_free(res);
		return;
	}
	p->rep[p->nrep++] = res;
	p->res = res;
	st = status_of(res);
	if (p->nrep == 1 || p->status == st)
		p->status = st;
	else /* some repeats ran well, some did not */
		p->status = RPERF_SWEEP_FAILED;
}
