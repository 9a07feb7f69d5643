/* SPDX-License-Identifier: BSD-2-Clause */
/* The agent's state, shared by agent.c (loop) and agent_exp.c (steps). */
#ifndef RPERF_AGENT_PRIV_H
#define RPERF_AGENT_PRIV_H

#include <stdbool.h>
#include <time.h>

#include "agent/agent.h"
#include "counters/counters.h"
#include "verbs/pma.h"
#include "engine/proto.h"
#include "serve/serve.h"

/* The host's counters during the run (agent_ctr.c). */
struct agent_ctr {
	uint64_t interval_ns; /* 0: none sampled */
	uint64_t t0, next; /* the start instant; the next reading */
	bool running, said; /* said: a reading failure was logged */
	const char *sysroot; /* NULL: /sys/class/infiniband */
	struct rperf_ctr_reading *rd;
	struct rperf_ctr_series s;
	/* InfiniBand: the PMA counters of the switch port facing the HCA */
	bool pma;
	char dev[RPERF_NAME_LEN], pma_prefix[40];
	int port;
	struct rperf_pma_peer peer;
	struct rperf_pma_wide wide[6];
};

/* The active controller and its experiment. */
struct agent_exp {
	int fd; /* -1: none */
	struct rperf_ctrl_tls *tls; /* its TLS session (NULL: --insecure) */
	char peer[64];
	char since[32]; /* wall-clock time of the accept, for the log */
	time_t since_t; /* the same, for the busy refusal */
	uint64_t busy_end_ns; /* sources' and sinks' planned end after GO */
	uint64_t go_end_ns; /* GO + busy_end_ns; 0 before GO */
	uint64_t deadline_ns; /* the next message must come before */
	const char *awaiting; /* what, for the deadline message */
	struct rperf_proto_session s;
	uint64_t hb_ns; /* GO's heartbeat interval, 0: none */
	uint64_t hb_next_ns; /* the next HEARTBEAT is due */
	bool live; /* GO asked for live rows (agent_live.c) */
	uint32_t rounds, round; /* the PLAN's rounds; the one running */
	bool reported; /* REPORT sent: a GO now is the next round's */
	struct rperf_engine *eng;
	char host[RPERF_NAME_LEN];
	char experiment[RPERF_PROTO_EXPERIMENT_LEN];
	size_t nsources;
	uint64_t run_end_ns; /* the sources' planned end */
	/* with cfg.log_sinks: the PLAN's sinks (what each round's line says) */
	struct rperf_gen_spec *sinks;
	size_t nsinks;
	struct agent_ctr ctr;
};

struct rperf_agent {
	struct rperf_agent_cfg cfg;
	const struct rperf_agent_engine *engine;
	struct rperf_serve *loop; /* owns the listening socket */
	struct rperf_ctrl_tls_ctx *tls; /* NULL: --insecure */
	uint16_t port;
	struct agent_exp exp;
	uint64_t served;
	bool last_done; /* the last controller's experiment ended with BYE */
};

/* Log one line (printf-style) through cfg.log. */
void agent_log(struct rperf_agent *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A new controller on @fd and its TLS session (the agent is idle; it
 * takes both). */
void agent_exp_begin(struct rperf_agent *a, int fd, struct rperf_ctrl_tls *tls,
		     const char *peer);
/* Its first message (the loop read it): the HELLO. */
void agent_exp_on_first(struct rperf_agent *a, const struct rperf_ctrl_msg *m);
/* The controller's socket is readable: take one message. */
void agent_exp_on_msg(struct rperf_agent *a);
/* The engine's fd is readable (a source ended). */
void agent_exp_on_engine(struct rperf_agent *a);
/* Send the HEARTBEAT when due (from GO to REPORT). */
void agent_exp_heartbeat(struct rperf_agent *a, uint64_t now_ns);
/* agent_live.c: GO's "live" (the engine keeps rows from now on): 0 or
 * EBADMSG; a HEARTBEAT's payload: the rows waiting (*out NULL when the
 * controller did not ask), 0 or ENOMEM. */
int agent_live_go(struct rperf_agent *a, const struct rperf_ctrl_msg *m);
int agent_live_payload(struct rperf_agent *a, json_t **out);
/* The next thing the loop must wake up for: the deadline or a HEARTBEAT. */
uint64_t agent_exp_wake_ns(const struct rperf_agent *a);
/* The deadline passed. */
void agent_exp_on_deadline(struct rperf_agent *a);
/* Send @t to the controller (the state machine first). 0 or errno. */
int agent_say(struct rperf_agent *a, enum rperf_ctrl_type t, const json_t *o);
/* STOP (agent_report.c): stop the engine, send every sample of its LSGs
 * with "raw" in SAMPLES frames, then the REPORT (its sinks' intervals left
 * out when it would not fit one frame, and said so); *nres its results.
 * 0, or errno with @why (the ERROR to send; "" when sending failed). */
int agent_report(struct rperf_agent *a, size_t *nres, char *why, size_t whylen);
/* GO's "round" (agent_round.c): 0 the first time; after a REPORT the
 * plan's next round, its instances reset on the same QPs. 0, or errno
 * with @why (the ERROR to send). */
int agent_round_go(struct rperf_agent *a, const struct rperf_ctrl_msg *m,
		   char *why, size_t whylen);
/* agent_ctr.c: the interval from the PLAN, the start at GO, a reading at
 * each tick, the series into the REPORT at STOP, freed at the end. */
void agent_ctr_plan(struct rperf_agent *a, const struct rperf_proto_plan *p);
void agent_ctr_go(struct rperf_agent *a, uint64_t t0);
uint64_t agent_ctr_wake_ns(const struct rperf_agent *a);
void agent_ctr_tick(struct rperf_agent *a, uint64_t now);
void agent_ctr_report(struct rperf_agent *a, struct rperf_proto_report *r);
void agent_ctr_fini(struct rperf_agent *a);
/* End the experiment: stop and free everything, close the connection. */
void agent_exp_end(struct rperf_agent *a, const char *why);

/* A decoded PLAN completed by the agent: its -d/-x/--cpu where the plan
 * leaves them open, its --stall-limit, and with cfg.peers_at_controller
 * the other hosts at the control connection's address (agent_plan.c). */
void agent_plan_local(const struct rperf_agent *a, struct rperf_proto_plan *p);

#endif
