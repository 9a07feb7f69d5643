/* SPDX-License-Identifier: BSD-2-Clause */
/* The controller's state (private to src/run): one entry per agent. */
#ifndef RPERF_RUN_CTL_H
#define RPERF_RUN_CTL_H

#include <sys/socket.h>

#include "engine/proto.h"
#include "run/run.h"
#include "run/run_clock.h"
#include "run/run_conn.h"

/* Where an agent is in the experiment, as the controller sees it. */
enum run_phase {
	AG_WELCOME, /* HELLO sent: WELCOME expected */
	AG_ENDPOINTS, /* PLAN sent: ENDPOINTS expected */
	AG_PLANNED, /* ENDPOINTS in: waiting for the others */
	AG_ARMING, /* CONNECT sent: ARMED expected */
	AG_ARMED, /* waiting for the others */
	AG_RUNNING, /* GO sent */
	AG_REPORTING, /* STOP sent: REPORT expected */
	AG_REPORTED, /* REPORT in: the next round's GO (or BYE) comes */
	AG_BYE, /* BYE sent: BYE expected */
	AG_DONE,
	AG_FAILED,
};

struct run_agent {
	const struct rperf_job_host *host;
	struct run_conn conn;
	struct rperf_proto_session sess;
	enum run_phase ph;
	uint64_t deadline; /* monotonic ns, 0 = none */
	bool has_sources;
	bool finished; /* FINISHED arrived */
	bool reported; /* its REPORT is merged: later trouble is no failure */
	bool heartbeat; /* it announced HEARTBEATs (WELCOME feature) */
	bool halt; /* it ends its sources on HALT (WELCOME feature) */
	uint64_t heard_ns; /* its last message (monotonic ns) */
	struct rperf_proto_eps eps; /* its ENDPOINTS */
	/* the address its control connection reached (numeric): the PLANs
	 * carry it, and its RoCE endpoints' GIDs must be it */
	struct sockaddr_storage addr;
	char addr_text[RPERF_PROTO_ADDR_LEN];
	/* the start barrier (run_sync.c): it announced "clock-sync"; the
	 * exchanges so far and the offset estimated from them */
	bool clock_sync;
	size_t nx;
	struct run_clock_xchg x[RUN_CLOCK_EXCHANGES];
	struct run_clock_offset off;
};

struct run_ctl {
	const struct rperf_job *job;
	const struct rperf_run_opts *opts;
	const volatile sig_atomic_t *stop;
	struct rperf_run_results *res; /* the running round's: rs[round] */
	/* rounds on the same QPs (run_rounds.c): every round's results (one
	 * without rounds), and the one running */
	struct rperf_run_results *const *rs;
	size_t nrounds, round;
	struct run_agent *ag;
	size_t nag;
	uint64_t timeout_ns;
	uint64_t start_in_ns;
	uint64_t heartbeat_ns; /* GO's; silence for twice that fails */
	struct rperf_ctrl_tls_ctx *tls; /* NULL: --insecure */
	uint64_t t_start; /* dialling began (set-up time) */
	uint64_t t_go, t_end; /* GO sent; when the run phase ends */
	bool setup_failed; /* an agent failed before GO */
	size_t sync_next; /* run_sync.c: the next agent to begin */
	char first_failure[RPERF_RUN_WHY_LEN];
};

/* Run @job (with rounds: its instances' round_sizes) for @nrounds rounds
 * into @rs[0..nrounds) (created, not finished); *nrun: the rounds that
 * ran (their results are filled). 0, or ENOMEM / EINVAL with @err; agent
 * failures are results. */
int run_ctl_execute(const struct rperf_job *job,
		    struct rperf_run_results *const *rs, size_t nrounds,
		    const struct rperf_run_opts *opts,
		    const volatile sig_atomic_t *stop, size_t *nrun, char *err,
		    size_t errlen);
/* run_rounds.c: after a round's REPORTs, on to the next one (true: every
 * agent waits for it; c->res is its results) or not (the last, an agent
 * gone, interrupted); every agent still waiting gets its BYE. */
bool run_round_next(struct run_ctl *c);
void run_bye_all(struct run_ctl *c);
/* run_raw.c (rperf run --raw): SAMPLES from @a, appended to its
 * instance's samples (in order, an LSG source of @a's host; else @a
 * fails); before a REPORT's merge, every raw LSG result of @a must say
 * the count that came (false: @a failed). */
void run_raw_samples(struct run_ctl *c, struct run_agent *a,
		     const struct rperf_ctrl_msg *m);
bool run_raw_complete(struct run_ctl *c, struct run_agent *a,
		      const struct rperf_proto_report *rep);
/* run_agents.c: one agent per host with a source or a sink (0, ENOMEM);
 * every agent's control connection dialled at once (an agent that cannot
 * be reached fails; 0 or ENOMEM). */
int run_make_agents(struct run_ctl *c);
int run_dial_agents(struct run_ctl *c);
/* Mark @a failed (closes its connection, records why in the results). */
void run_fail(struct run_ctl *c, struct run_agent *a, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Send one message through the session check; failure -> run_fail. */
int run_send(struct run_ctl *c, struct run_agent *a, enum rperf_ctrl_type t,
	     const json_t *payload);
/* Handle one message from @a (run_msgs.c). */
void run_on_msg(struct run_ctl *c, struct run_agent *a,
		const struct rperf_ctrl_msg *m);
/* Send every agent its CONNECT (all ENDPOINTS are in). */
void run_send_connects(struct run_ctl *c);
/* The start barrier (run_sync.c): the first CLOCK to every agent that
 * has the feature; each answer (run_on_clock) sends the next; done when
 * every live one has RUN_CLOCK_EXCHANGES (run_synced); then the offsets
 * (run_sync_finish) and each agent's GO with its start instant. */
void run_sync_start(struct run_ctl *c);
void run_on_clock(struct run_ctl *c, struct run_agent *a,
		  const struct rperf_ctrl_msg *m);
bool run_synced(struct run_ctl *c);
void run_sync_finish(struct run_ctl *c);
/* @base (GO) for @a: a new reference; with "start_at_ns" = @t_ctrl on
 * @a's clock when its offset is known. NULL: out of memory. */
/* run_live.c: the GO of every agent (one that asks for live rows when
 * the options take them): 0, ENOMEM, EINVAL; a HEARTBEAT's rows to the
 * options' hook, each checked to be a source of @a's host of its kind
 * (else @a fails: a bad message). */
int run_go_encode(const struct run_ctl *c, json_t **out);
void run_live_heartbeat(struct run_ctl *c, struct run_agent *a,
			const struct rperf_ctrl_msg *m);
json_t *run_sync_go(struct run_ctl *c, struct run_agent *a, json_t *base,
		    uint64_t t_ctrl);
/* The agent of host @name, NULL if none. */
struct run_agent *run_agent_of(struct run_ctl *c, const char *name);

#endif
