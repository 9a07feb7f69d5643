/* SPDX-License-Identifier: BSD-2-Clause */
/* Experiment messages PLAN, ENDPOINTS, CONNECT and GO (see proto.h). */
#include "engine/proto.h"
#include "engine/proto_priv.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_names[] = { "source", "sink" };

const char *rperf_proto_role_name(enum rperf_proto_role r)
{
	if ((unsigned int)r > RPERF_ROLE_SINK)
		return "?";
	return role_names[r];
}

int rperf_proto_role_get(const json_t *o, enum rperf_proto_role *r)
{
	char buf[16];

	if (rperf_ctrl_get_str(o, "role", buf, sizeof(buf)))
		return EBADMSG;
	if (strcmp(buf, "source") == 0)
		*r = RPERF_ROLE_SOURCE;
	else if (strcmp(buf, "sink") == 0)
		*r = RPERF_ROLE_SINK;
	else
		return EBADMSG;
	return 0;
}

int rperf_proto_finish(json_t *obj, const char *key, json_t *arr, int rc,
		       json_t **out)
{
	if (!rc && json_object_set(obj, key, arr))
		rc = ENOMEM;
	json_decref(arr);
	return rperf_ctrl_json_out(obj, rc, out);
}

static int check_type(const struct rperf_ctrl_msg *m, enum rperf_ctrl_type t,
		      char *why, size_t whylen)
{
	if (!m || !why || !whylen)
		return EINVAL;
	if (m->type != t)
		return EPROTO;
	if (!json_is_object(m->payload))
		return rperf_fail(why, whylen, EBADMSG,
				  "%s payload is not an object",
				  rperf_ctrl_type_name(t));
	return 0;
}

/* ---- PLAN ---- */

static int specs_array(const struct rperf_gen_spec *s, size_t n, json_t **out)
{
	json_t *a = json_array();
	size_t i;

	if (!a)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		json_t *o = NULL;
		int rc = rperf_gen_spec_encode(&s[i], &o);

		if (!rc && json_array_append_new(a, o))
			rc = ENOMEM;
		if (rc) {
			json_decref(a);
			return rc;
		}
	}
	*out = a;
	return 0;
}

/* A numeric IPv4 or IPv6 address? */
static bool addr_ok(const char *a)
{
	struct in6_addr b;

	return inet_pton(AF_INET, a, &b) == 1 ||
	       inet_pton(AF_INET6, a, &b) == 1;
}

static int hosts_array(const struct rperf_proto_plan *p, json_t **out)
{
	json_t *a = json_array();
	size_t i;

	if (!a)
		return ENOMEM;
	for (i = 0; i < p->nhosts; i++) {
		const struct rperf_proto_host_addr *h = &p->hosts[i];
		json_t *o = json_object();

		if (!o || json_array_append_new(a, o) ||
		    rperf_ctrl_set_str(o, "name", h->name) ||
		    rperf_ctrl_set_str(o, "addr", h->addr)) {
			json_decref(a);
			return ENOMEM;
		}
	}
	*out = a;
	return 0;
}

static bool hosts_ok(const struct rperf_proto_plan *p)
{
	if (p->nhosts > RPERF_PROTO_MAX_HOSTS || (p->nhosts && !p->hosts))
		return false;
	for (size_t i = 0; i < p->nhosts; i++)
		if (!memchr(p->hosts[i].name, 0, sizeof(p->hosts[i].name)) ||
		    !p->hosts[i].name[0] ||
		    !memchr(p->hosts[i].addr, 0, sizeof(p->hosts[i].addr)) ||
		    !addr_ok(p->hosts[i].addr))
			return false;
	return true;
}

int rperf_proto_plan_encode(const struct rperf_proto_plan *p, json_t **out)
{
	json_t *o, *dev = NULL, *src = NULL, *snk = NULL, *hosts = NULL;
	int rc;

	if (!p || !out || p->nsources + p->nsinks > RPERF_PROTO_MAX_INSTANCES ||
	    !hosts_ok(p) || !memchr(p->experiment, 0, sizeof(p->experiment)) ||
	    !memchr(p->host, 0, sizeof(p->host)) || !p->host[0])
		return EINVAL;
	o = json_object();
	if (!o)
		return ENOMEM;
	rc = rperf_host_sel_encode(&p->device, &dev);
	if (!rc)
		rc = specs_array(p->sources, p->nsources, &src);
	if (!rc)
		rc = specs_array(p->sinks, p->nsinks, &snk);
	if (!rc)
		rc = hosts_array(p, &hosts);
	if (!rc && (rperf_ctrl_set_str(o, "experiment", p->experiment) ||
		    rperf_ctrl_set_str(o, "host", p->host) ||
		    json_object_set(o, "device", dev) ||
		    json_object_set(o, "sources", src) ||
		    json_object_set(o, "sinks", snk) ||
		    json_object_set(o, "hosts", hosts)))
		rc = ENOMEM;
	if (!rc)
		rc = rperf_proto_plan_rounds_encode(p, o);
	json_decref(hosts);
	json_decref(dev);
	json_decref(src);
	json_decref(snk);
	return rperf_ctrl_json_out(o, rc, out);
}

/* @key: array of specs; each must have from (sources) / to (sinks) = host */
static int get_specs(const json_t *o, const char *key, const char *host,
		     bool sources, struct rperf_gen_spec **out, size_t *n,
		     char *why, size_t whylen)
{
	const json_t *a = json_object_get(o, key);
	size_t i, size;
	char sub[200];

	if (!json_is_array(a) || json_array_size(a) > RPERF_PROTO_MAX_INSTANCES)
		return rperf_fail(why, whylen, EBADMSG,
				  "'%s' missing or not an array of <= %d", key,
				  RPERF_PROTO_MAX_INSTANCES);
	size = json_array_size(a);
	*out = calloc(size ? size : 1, sizeof(**out));
	if (!*out)
		return ENOMEM;
	for (i = 0; i < size; i++) {
		struct rperf_gen_spec *s = &(*out)[i];

		if (rperf_gen_spec_decode(json_array_get(a, i), s, sub,
					  sizeof(sub)))
			return rperf_fail(why, whylen, EBADMSG, "%s[%zu]: %s",
					  key, i, sub);
		if (strcmp(sources ? s->from : s->to, host) != 0)
			return rperf_fail(why, whylen, EBADMSG,
					  "%s[%zu]: '%s' is not host '%s'", key,
					  i, sources ? "from" : "to", host);
	}
	*n = size;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int unique_ids(const struct rperf_proto_plan *p, char *why,
		      size_t whylen)
{
	size_t i, n = p->nsources + p->nsinks;
	uint32_t *ids = calloc(n ? n : 1, sizeof(*ids));
	int rc = 0;

	if (!ids)
		return ENOMEM;
	for (i = 0; i < p->nsources; i++)
		ids[i] = p->sources[i].id;
	for (i = 0; i < p->nsinks; i++)
		ids[p->nsources + i] = p->sinks[i].id;
	qsort(ids, n, sizeof(*ids), cmp_u32);
	for (i = 1; i < n && !rc; i++) {
		if (ids[i] == ids[i - 1]) {
			snprintf(why, whylen, "instance id %u appears twice",
				 ids[i]);
			rc = EBADMSG;
		}
	}
	free(ids);
	return rc;
}

static int plan_head(const json_t *o, struct rperf_proto_plan *p, char *why,
		     size_t whylen)
{
	char sub[200];

	if (rperf_ctrl_get_str(o, "experiment", p->experiment,
			       sizeof(p->experiment)))
		return rperf_fail(why, whylen, EBADMSG,
				  "'experiment' missing or too long");
	if (rperf_ctrl_get_str(o, "host", p->host, sizeof(p->host)) ||
	    !p->host[0])
		return rperf_fail(why, whylen, EBADMSG,
				  "'host' missing, empty or too long");
	if (rperf_host_sel_decode(json_object_get(o, "device"), &p->device, sub,
				  sizeof(sub)))
		return rperf_fail(why, whylen, EBADMSG, "device: %s", sub);
	return 0;
}

/* "hosts" (optional: absent, the plan names no address) */
static int get_hosts(const json_t *o, struct rperf_proto_plan *p, char *why,
		     size_t whylen)
{
	const json_t *a = json_object_get(o, "hosts");
	size_t i, j, n;

	if (!a)
		return 0;
	n = json_array_size(a);
	if (!json_is_array(a) || n > RPERF_PROTO_MAX_HOSTS)
		return rperf_fail(why, whylen, EBADMSG,
				  "'hosts' not an array of <= %d",
				  RPERF_PROTO_MAX_HOSTS);
	p->hosts = calloc(n ? n : 1, sizeof(*p->hosts));
	if (!p->hosts)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		struct rperf_proto_host_addr *h = &p->hosts[i];
		const json_t *e = json_array_get(a, i);

		if (!json_is_object(e) ||
		    rperf_ctrl_get_str(e, "name", h->name, sizeof(h->name)) ||
		    !h->name[0] ||
		    rperf_ctrl_get_str(e, "addr", h->addr, sizeof(h->addr)) ||
		    !addr_ok(h->addr))
			return rperf_fail(
				why, whylen, EBADMSG,
				"hosts[%zu]: 'name' or 'addr' (a numeric IPv4/IPv6 address) missing or bad",
				i);
		for (j = 0; j < i; j++) {
			if (!strcmp(p->hosts[j].name, h->name))
				return rperf_fail(
					why, whylen, EBADMSG,
					"hosts[%zu]: '%s' appears twice", i,
					h->name);
		}
		p->nhosts = i + 1;
	}
	return 0;
}

int rperf_proto_plan_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_proto_plan *p, char *why,
			    size_t whylen)
{
	int rc = check_type(m, RPERF_CTRL_PLAN, why, whylen);

	if (rc || !p)
		return rc ? rc : EINVAL;
	memset(p, 0, sizeof(*p));
	if (!json_object_get(m->payload, "device"))
		return rperf_fail(why, whylen, EBADMSG, "'device' missing");
	rc = plan_head(m->payload, p, why, whylen);
	if (!rc)
		rc = get_specs(m->payload, "sources", p->host, true,
			       &p->sources, &p->nsources, why, whylen);
	if (!rc)
		rc = get_specs(m->payload, "sinks", p->host, false, &p->sinks,
			       &p->nsinks, why, whylen);
	if (!rc)
		rc = get_hosts(m->payload, p, why, whylen);
	if (!rc && p->nsources + p->nsinks > RPERF_PROTO_MAX_INSTANCES) {
		snprintf(why, whylen, "more than %d instances",
			 RPERF_PROTO_MAX_INSTANCES);
		rc = EBADMSG;
	}
	if (!rc)
		rc = unique_ids(p, why, whylen);
	if (!rc)
		rc = rperf_proto_plan_rounds_decode(m->payload, p, why, whylen);
	if (rc)
		rperf_proto_plan_fini(p);
	return rc;
}

void rperf_proto_plan_fini(struct rperf_proto_plan *p)
{
	if (!p)
		return;
	free(p->sources);
	free(p->sinks);
	free(p->hosts);
	p->sources = p->sinks = NULL;
	p->hosts = NULL;
	p->nsources = p->nsinks = p->nhosts = 0;
}

const char *rperf_proto_plan_addr(const struct rperf_proto_plan *p,
				  const char *name)
{
	for (size_t i = 0; p && i < p->nhosts; i++)
		if (!strcmp(p->hosts[i].name, name))
			return p->hosts[i].addr;
	return NULL;
}

uint64_t rperf_proto_plan_end_ns(const struct rperf_proto_plan *p)
{
	uint64_t end = 0;
	size_t i;

	for (i = 0; p && i < p->nsources; i++) {
		uint64_t e = rperf_spec_end_ns(&p->sources[i]);

		if (e > end)
			end = e;
	}
	return end;
}

/* ---- ENDPOINTS / CONNECT ---- */

static int inst_encode(const struct rperf_proto_inst_eps *in, json_t **out)
{
	json_t *o = json_object(), *a = json_array();
	size_t i;
	int rc = 0;

	if (!o || !a)
		rc = ENOMEM;
	else if (!in->nqps || in->nqps > RPERF_PROTO_MAX_QPS || !in->qps ||
		 (unsigned int)in->role > RPERF_ROLE_SINK)
		rc = EINVAL;
	for (i = 0; !rc && i < in->nqps; i++) {
		json_t *e = NULL;

		rc = rperf_ctrl_endpoint_encode(&in->qps[i], &e);
		if (!rc && json_array_append_new(a, e))
			rc = ENOMEM;
	}
	if (!rc &&
	    (rperf_ctrl_set_u64(o, "id", in->id) ||
	     rperf_ctrl_set_str(o, "role", rperf_proto_role_name(in->role))))
		rc = ENOMEM;
	return rperf_proto_finish(o, "qps", a, rc, out);
}

static int eps_encode(const struct rperf_proto_eps *e, const char *key,
		      json_t **out)
{
	json_t *o, *a;
	size_t i;
	int rc = 0;

	if (!e || !out || e->n > RPERF_PROTO_MAX_INSTANCES ||
	    (e->n && !e->inst))
		return EINVAL;
	o = json_object();
	a = json_array();
	if (!o || !a)
		rc = ENOMEM;
	for (i = 0; !rc && i < e->n; i++) {
		json_t *x = NULL;

		rc = inst_encode(&e->inst[i], &x);
		if (!rc && json_array_append_new(a, x))
			rc = ENOMEM;
	}
	return rperf_proto_finish(o, key, a, rc, out);
}

int rperf_proto_endpoints_encode(const struct rperf_proto_eps *e, json_t **out)
{
	return eps_encode(e, "instances", out);
}

int rperf_proto_connect_encode(const struct rperf_proto_eps *e, json_t **out)
{
	return eps_encode(e, "peers", out);
}

static int qp_decode(json_t *obj, struct rperf_ctrl_endpoint *ep)
{
	/* The endpoint decoder takes a message: wrap the object in one. */
	struct rperf_ctrl_msg m = { RPERF_CTRL_ENDPOINT, RPERF_CTRL_VERSION,
				    obj };

	return rperf_ctrl_endpoint_decode(&m, ep);
}

static int inst_decode(const json_t *o, struct rperf_proto_inst_eps *in,
		       const char *key, size_t idx, char *why, size_t whylen)
{
	const json_t *a = json_object_get(o, "qps");
	uint64_t id;
	size_t i;

	if (!json_is_object(o) ||
	    rperf_ctrl_get_u64(o, "id", 0, UINT32_MAX, &id) ||
	    rperf_proto_role_get(o, &in->role))
		return rperf_fail(why, whylen, EBADMSG,
				  "%s[%zu]: 'id' or 'role' missing or bad", key,
				  idx);
	in->id = (uint32_t)id;
	if (!json_is_array(a) || !json_array_size(a) ||
	    json_array_size(a) > RPERF_PROTO_MAX_QPS)
		return rperf_fail(why, whylen, EBADMSG,
				  "%s[%zu]: 'qps' not an array of 1..%u", key,
				  idx, RPERF_PROTO_MAX_QPS);
	in->qps = calloc(json_array_size(a), sizeof(*in->qps));
	if (!in->qps)
		return ENOMEM;
	for (i = 0; i < json_array_size(a); i++) {
		if (qp_decode(json_array_get(a, i), &in->qps[i]))
			return rperf_fail(why, whylen, EBADMSG,
					  "%s[%zu].qps[%zu]: bad endpoint", key,
					  idx, i);
		in->nqps = i + 1;
	}
	return 0;
}

static int eps_decode(const struct rperf_ctrl_msg *m, enum rperf_ctrl_type t,
		      const char *key, struct rperf_proto_eps *e, char *why,
		      size_t whylen)
{
	const json_t *a;
	size_t i, j;
	int rc = check_type(m, t, why, whylen);

	if (rc || !e)
		return rc ? rc : EINVAL;
	memset(e, 0, sizeof(*e));
	a = json_object_get(m->payload, key);
	if (!json_is_array(a) || json_array_size(a) > RPERF_PROTO_MAX_INSTANCES)
		return rperf_fail(why, whylen, EBADMSG,
				  "'%s' missing or not an array of <= %d", key,
				  RPERF_PROTO_MAX_INSTANCES);
	e->inst = calloc(json_array_size(a) + 1, sizeof(*e->inst));
	if (!e->inst)
		return ENOMEM;
	for (i = 0; !rc && i < json_array_size(a); i++) {
		rc = inst_decode(json_array_get(a, i), &e->inst[i], key, i, why,
				 whylen);
		e->n = i + 1;
		for (j = 0; !rc && j < i; j++) {
			if (e->inst[j].id == e->inst[i].id &&
			    e->inst[j].role == e->inst[i].role) {
				snprintf(why, whylen, "%s: id %u twice", key,
					 e->inst[i].id);
				rc = EBADMSG;
			}
		}
	}
	if (rc)
		rperf_proto_eps_fini(e);
	return rc;
}

int rperf_proto_endpoints_decode(const struct rperf_ctrl_msg *m,
				 struct rperf_proto_eps *e, char *why,
				 size_t whylen)
{
	return eps_decode(m, RPERF_CTRL_ENDPOINTS, "instances", e, why, whylen);
}

int rperf_proto_connect_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_proto_eps *e, char *why,
			       size_t whylen)
{
	return eps_decode(m, RPERF_CTRL_CONNECT, "peers", e, why, whylen);
}

void rperf_proto_eps_fini(struct rperf_proto_eps *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; e->inst && i < e->n; i++)
		free(e->inst[i].qps);
	free(e->inst);
	e->inst = NULL;
	e->n = 0;
}

const struct rperf_proto_inst_eps *
rperf_proto_eps_find(const struct rperf_proto_eps *e, uint32_t id,
		     enum rperf_proto_role role)
{
	size_t i;

	for (i = 0; e && i < e->n; i++)
		if (e->inst[i].id == id && e->inst[i].role == role)
			return &e->inst[i];
	return NULL;
}
