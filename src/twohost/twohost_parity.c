/* SPDX-License-Identifier: BSD-2-Clause */
/* Same flags on both sides: see twohost_parity.h. */
#include "twohost/twohost_parity.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "job/cmdline_kv.h"
#include "ctrl/ctrl.h"
#include "report/report_json.h"
#include "util/units.h"

_Static_assert(RPERF_GIVEN_WORDS * 64 >= RPERF_MAX_OPTIONS,
	       "cfg->given has a bit per option");

enum rperf_parity_kind rperf_parity_kind(const struct rperf_opt *o)
{
	if (o->type == RPERF_OT_HELP || o->type == RPERF_OT_VERSION ||
	    o->scope == RPERF_SCOPE_HOST)
		return RPERF_PARITY_HOST;
	return o->scope == RPERF_SCOPE_CLIENT ? RPERF_PARITY_CLIENT :
						RPERF_PARITY_RUN;
}

bool rperf_parity_given(const struct rperf_cmdline *cfg, size_t i)
{
	return i < RPERF_GIVEN_WORDS * 64 &&
	       (cfg->given[i / 64] >> (i % 64) & 1);
}

bool rperf_cfg_given(const struct rperf_cmdline *cfg, const char *name)
{
	const struct rperf_opt *o = rperf_opt_find(name);

	return o && rperf_parity_given(cfg, rperf_opt_index(o));
}

/* "size" and "sizes" share one field: both travel as "size". */
static const char *key_of(const struct rperf_opt *o)
{
	return o->type == RPERF_OT_SIZE_LIST ? "size" : o->name;
}

/* The option's value in @cfg as JSON (new reference; NULL: ENOMEM). */
static json_t *value_of(const struct rperf_cmdline *cfg,
			const struct rperf_opt *o)
{
	struct rperf_kv kv;
	bool bad = false;

	return rperf_opt_kv(cfg, o, &kv) ? rperf_rpt_json_kv(&kv, &bad) :
					   json_null();
}

int rperf_parity_ship(const struct rperf_cmdline *cfg, json_t *params)
{
	json_t *opts = json_object();

	for (size_t i = 0, n = rperf_opt_count(); opts && i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);

		if (!(o->cmds & cfg->cmd) ||
		    rperf_parity_kind(o) != RPERF_PARITY_RUN ||
		    json_object_get(opts, key_of(o)))
			continue;
		if (json_object_set_new(opts, key_of(o), value_of(cfg, o))) {
			json_decref(opts);
			opts = NULL;
		}
	}
	if (!opts || json_object_set_new(params, "options", opts))
		return ENOMEM;
	return 0;
}

/* One value as a user would type it; lists as 64,4096 (at most 4 shown). */
static void fmt_value(const struct rperf_opt *o, const json_t *v, char *buf,
		      size_t len)
{
	size_t used = 0, n;

	if (json_is_array(v)) {
		buf[0] = '\0';
		n = json_array_size(v);
		for (size_t i = 0; i < n && i < 4 && used < len; i++) {
			const json_t *x = json_array_get(v, i);

			used += (size_t)snprintf(
				buf + used, len - used, "%s%.6g", i ? "," : "",
				json_is_integer(x) ?
					(double)json_integer_value(x) :
					json_real_value(x));
		}
		if (n > 4 && used < len)
			snprintf(buf + used, len - used, ",... (%zu sizes)", n);
	} else if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
		rperf_ctrl_text_clean(buf); /* the peer's */
	} else if (json_is_integer(v) && o->type == RPERF_OT_TIME &&
		   json_integer_value(v) >= 0) {
		rperf_fmt_time(buf, len, (uint64_t)json_integer_value(v));
	} else if (json_is_integer(v)) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
	} else if (json_is_real(v)) {
		snprintf(buf, len, "%.9g", json_real_value(v));
	} else {
		snprintf(buf, len, "%s", json_is_true(v) ? "on" : "(none)");
	}
}

static int disagree(const struct rperf_opt *o, const json_t *mine,
		    const json_t *theirs, struct rperf_err *e)
{
	char label[48], a[64], b[64];

	if (o->letter)
		snprintf(label, sizeof(label), "-%c/--%s", o->letter, o->name);
	else
		snprintf(label, sizeof(label), "--%s", o->name);
	if (o->type == RPERF_OT_FLAG)
		return rperf_err_set(
			e, RPERF_ERRC_USAGE, EINVAL,
			"%s: the server was started with it, the client runs without it; start both with the same flags or leave it off the server",
			label);
	fmt_value(o, mine, a, sizeof(a));
	fmt_value(o, theirs, b, sizeof(b));
	return rperf_err_set(
		e, RPERF_ERRC_USAGE, EINVAL,
		"%s: the server was started with %s, the client asks for %s; start both with the same value or leave it off the server",
		label, a, b);
}

int rperf_parity_check(const struct rperf_cmdline *cfg, const json_t *params,
		       struct rperf_err *e)
{
	const json_t *theirs = json_object_get(params, "options");
	int rc = 0;

	if (!json_is_object(theirs))
		return 0; /* a client that ships none: nothing to check */
	for (size_t i = 0, n = rperf_opt_count(); !rc && i < n; i++) {
		const struct rperf_opt *o = rperf_opt_at(i);
		const json_t *v = json_object_get(theirs, key_of(o));
		json_t *mine;

		if (!rperf_parity_given(cfg, i) || !v ||
		    rperf_parity_kind(o) != RPERF_PARITY_RUN)
			continue;
		mine = value_of(cfg, o);
		if (!mine)
			return rperf_err_set(e, RPERF_ERRC_INTERNAL, ENOMEM,
					     "out of memory");
		if (!json_equal(mine, (json_t *)v))
			rc = disagree(o, mine, v, e);
		json_decref(mine);
	}
	return rc;
}
