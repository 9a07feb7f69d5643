/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fleet_agents KEYFILE BASE COUNT: COUNT dry-run agents in this process
 * (what `rperf agent --dry-run --bind 127.0.0.1 --key-file KEYFILE
 * --timeout 60s` serves, on ports BASE+1 .. BASE+COUNT), one thread each,
 * sharing one start timer (dry_starter.c): the scale benchmark
 * (fleet-scale.sh) runs a fleet of 1,000 on a 2-core machine as a few of
 * these processes, so that the start instant wakes a few threads, not
 * 1,000 processes queueing for the cores. Prints "listening on ..." per
 * agent and the agents' failures; stops on SIGINT/SIGTERM (exit 0), exit
 * 2 for bad arguments, 3 when an agent cannot start.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"
#include "dry_starter.h"
#include "engine/proto.h"

#define STACK_BYTES (1u << 20)

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Only what the benchmark reads: listening, and what went wrong. */
static void log_line(void *arg, const char *line)
{
	(void)arg;
	if (strstr(line, "listening on") || strstr(line, "ERROR") ||
	    strstr(line, "fail"))
		fprintf(stderr, "fleet_agents: %s\n", line);
}

static void *serve(void *arg)
{
	char err[256];

	if (rperf_agent_run(arg, &stop_flag, err, sizeof(err)))
		fprintf(stderr, "fleet_agents: %s\n", err);
	return NULL;
}

static int parse(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end || *out > max ? EINVAL : 0;
}

int main(int argc, char **argv)
{
	struct rperf_agent_cfg cfg = { .bind = "127.0.0.1",
				       .timeout_ms = 60000,
				       .engine = &rperf_agent_dry_engine,
				       .dry_starter = &dry_starter_ops,
				       .log = log_line };
	struct sigaction sa = { .sa_handler = on_signal };
	uint8_t key[RPERF_PROTO_MAX_KEY];
	struct rperf_agent **a = NULL;
	struct dry_starter *starter = NULL;
	struct rperf_clock clk;
	pthread_t *t = NULL;
	pthread_attr_t attr;
	unsigned long base, n, i, started = 0;
	size_t klen = 0;
	char err[400];
	int rc = 3;

	if (argc != 4 || parse(argv[2], 65535, &base) ||
	    parse(argv[3], 65535 - base, &n) || !n) {
		fprintf(stderr, "usage: fleet_agents KEYFILE BASE COUNT\n");
		return 2;
	}
	if (rperf_proto_key_load(argv[1], key, &klen, err, sizeof(err))) {
		fprintf(stderr, "fleet_agents: %s: %s\n", argv[1], err);
		return 2;
	}
	cfg.auth.psk = key;
	cfg.auth.psklen = klen;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (rperf_clock_init(&clk, RPERF_CLOCK_POSIX) ||
	    dry_starter_create(n, &starter))
		return 3;
	cfg.clk = &clk;
	cfg.dry_starter_arg = starter;
	fprintf(stderr, "fleet_agents: start timer thread: %s\n",
		dry_starter_realtime(starter) ?
			"SCHED_FIFO 1" :
			"normal priority (SCHED_FIFO not allowed)");
	a = calloc(n, sizeof(*a));
	t = calloc(n, sizeof(*t));
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_BYTES);
	for (i = 0; a && t && i < n; i++) {
		cfg.port = (uint16_t)(base + i + 1);
		if (rperf_agent_create(&cfg, &a[i], err, sizeof(err))) {
			fprintf(stderr, "fleet_agents: port %u: %s\n", cfg.port,
				err);
			break;
		}
		if (pthread_create(&t[i], &attr, serve, a[i])) {
			rperf_agent_destroy(a[i]);
			break;
		}
		started = i + 1;
	}
	pthread_attr_destroy(&attr);
	if (started == n)
		rc = 0;
	else
		stop_flag = 1;
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		rperf_agent_destroy(a[i]);
	}
	dry_starter_destroy(starter);
	free(a);
	free(t);
	return rc;
}
