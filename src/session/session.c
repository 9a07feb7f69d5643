/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "session/session.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ctrl/ctrl.h"

void rperf_session_verbs_cfg(const struct rperf_cli_config *cfg,
			     struct rperf_verbs_cfg *v)
{
	memset(v, 0, sizeof(*v));
	v->dev_name = cfg->ib_dev;
	v->ib_port = (int)cfg->ib_port;
	v->gid_index = (int)cfg->gid_index;
	v->ipv6 = cfg->ipv6;
	v->mtu = (int)cfg->mtu;
	v->inline_size = (uint32_t)cfg->inline_size;
	v->qp_timeout = (uint8_t)cfg->qp_timeout;
	v->retry_count = (uint8_t)cfg->retry_count;
	v->sl = (uint8_t)cfg->sl;
	v->huge_shift = cfg->hugepages == RPERF_HUGE_1G ? 30 :
			cfg->hugepages == RPERF_HUGE_2M ? 21 :
							  0;
	/* --tclass, else -T/--tos (rdma_cm's name for it), else 0 */
	v->tclass = (uint8_t)(cfg->tclass >= 0 ? cfg->tclass :
			      cfg->tos >= 0    ? cfg->tos :
						 0);
}

int rperf_session_pin(int64_t cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

int rperf_session_pin_or_say(int64_t cpu)
{
	int rc = rperf_session_pin(cpu);

	if (!rc)
		return 0;
	fprintf(stderr,
		"rperf: --cpu: cannot pin to CPU %lld: %s; accepted: a CPU this process may run on\n",
		(long long)cpu, strerror(rc));
	return RPERF_EXIT_USAGE;
}

int rperf_session_serve(const struct rperf_cli_config *cfg,
			volatile sig_atomic_t *stop, const char *name,
			int (*serve_one)(void *arg, int fd, const char *peer),
			void *arg)
{
	char peer[96];
	int lfd, fd, rc;

	rc = rperf_session_pin_or_say(cfg->cpu);
	if (rc)
		return rc;
	rc = rperf_ctrl_listen(cfg->bind, (uint16_t)cfg->tcp_port, &lfd);
	if (rc) {
		fprintf(stderr,
			"rperf: -p/--port: cannot listen on %s port %lld: %s; accepted: a free port and a local address\n",
			cfg->bind ? cfg->bind : "any address",
			(long long)cfg->tcp_port, strerror(rc));
		return RPERF_EXIT_RUNTIME;
	}
	printf("rperf %s server: listening on port %lld\n", name,
	       (long long)cfg->tcp_port);
	fflush(stdout);
	do {
		rc = rperf_ctrl_accept_ex(lfd, -1, stop, &fd, peer,
					  sizeof(peer));
		if (rc) {
			rc = *stop ? RPERF_EXIT_OK : RPERF_EXIT_RUNTIME;
			break;
		}
		rc = serve_one(arg, fd, peer);
	} while (cfg->persistent && !*stop);
	close(lfd);
	return rc;
}
