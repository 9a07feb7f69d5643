/* SPDX-License-Identifier: BSD-2-Clause */
/* Values that name other things: the agent's address, hosts in from/to. */
#include "job/job_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/units.h"

static bool addr_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ||
	       c == ':' || c == '%';
}

/* control = ADDR[:PORT], IPv6 in brackets: [fe80::1%eth0]:18521, or local */
int job_parse_control(struct rperf_job_host *h, const char *v, char *why,
		      size_t whylen)
{
	const char *addr = v, *port = NULL, *close, *colon;
	size_t alen;
	int64_t p;

	h->local = !strcmp(v, RPERF_JOB_CONTROL_LOCAL);
	if (h->local) { /* its agent: in the controller, on a port of its own */
		snprintf(h->control, sizeof(h->control), "%s", v);
		h->control_port = 0;
		return 0;
	}
	if (!strncmp(v, RPERF_JOB_CONTROL_LOCAL ":",
		     sizeof(RPERF_JOB_CONTROL_LOCAL ":") - 1)) {
		snprintf(
			why, whylen,
			"'%s': a local agent takes no port (the controller's agent listens on one the kernel picks); write control = local",
			v);
		return EINVAL;
	}
	if (*v == '[') {
		close = strchr(v, ']');
		if (!close || (close[1] && close[1] != ':'))
			goto bad;
		addr = v + 1;
		alen = (size_t)(close - addr);
		port = close[1] ? close + 2 : NULL;
	} else {
		colon = strchr(v, ':');
		if (colon && strchr(colon + 1, ':')) {
			snprintf(
				why, whylen,
				"'%s': an IPv6 address goes in brackets; write [ADDR] or [ADDR]:PORT",
				v);
			return EINVAL;
		}
		alen = colon ? (size_t)(colon - v) : strlen(v);
		port = colon ? colon + 1 : NULL;
	}
	if (!alen || alen >= sizeof(h->control))
		goto bad;
	for (size_t i = 0; i < alen; i++)
		if (!addr_char_ok(addr[i]))
			goto bad;
	h->control_port = RPERF_AGENT_DEFAULT_PORT;
	if (port) {
		if (rperf_parse_int(port, 1, 65535, &p, why, whylen))
			return EINVAL;
		h->control_port = (uint16_t)p;
	}
	memcpy(h->control, addr, alen);
	h->control[alen] = '\0';
	return 0;
bad:
	snprintf(
		why, whylen,
		"'%s' is not an address; write HOST, HOST:PORT, IPV4:PORT or [IPV6]:PORT (port %d unless given)",
		v, RPERF_AGENT_DEFAULT_PORT);
	return EINVAL;
}

/* @name (one word) -> host index, or EINVAL naming the known hosts. */
int job_find_host(const struct rperf_job *job, const char *name, int *idx,
		  char *why, size_t whylen)
{
	const char *cands[RPERF_JOB_MAX_HOSTS + 1], *near;
	const struct rperf_job_host *h = rperf_job_host(job, name);
	size_t len;

	if (h) {
		*idx = (int)(h - job->hosts);
		return 0;
	}
	for (size_t i = 0; i < job->nhosts; i++)
		cands[i] = job->hosts[i].name;
	cands[job->nhosts] = NULL;
	near = job_nearest(name, cands);
	if (near) {
		snprintf(why, whylen, "unknown host '%s'; did you mean '%s'?",
			 name, near);
		return EINVAL;
	}
	len = (size_t)snprintf(
		why, whylen,
		"unknown host '%s'; define [host %s] or use one of:", name,
		name);
	for (size_t i = 0; i < job->nhosts && len < whylen; i++)
		len += (size_t)snprintf(why + len, whylen - len, "%s %s",
					i ? "," : "", job->hosts[i].name);
	if (!job->nhosts && len < whylen)
		snprintf(why + len, whylen - len, " (no [host] section)");
	return EINVAL;
}

int job_parse_from(const struct rperf_job *job, struct job_gen *g,
		   const char *list, char *why, size_t whylen)
{
	const char *p = list;
	char name[RPERF_NAME_LEN];
	int idx = -1;

	g->nfrom = 0;
	for (;;) {
		size_t n, lead = strspn(p, " \t");

		p += lead;
		n = strcspn(p, ",");
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n || n >= sizeof(name)) {
			snprintf(
				why, whylen,
				"empty or too long host name in '%s'; write from = HOST[,HOST...]",
				list);
			return EINVAL;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (job_find_host(job, name, &idx, why, whylen))
			return EINVAL;
		for (size_t i = 0; i < g->nfrom; i++) {
			if (g->from[i] == idx) {
				snprintf(
					why, whylen,
					"host '%s' listed twice; list each host once",
					name);
				return EINVAL;
			}
		}
		g->from[g->nfrom++] = (uint16_t)idx;
		p += strcspn(p, ",");
		if (!*p)
			return 0;
		p++;
	}
}
