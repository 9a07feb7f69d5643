/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * `rperf agent`: the servers' one event loop (src/serve/serve.h) owns the
 * listening socket and every connection until its HELLO is in (within
 * handshake_ms, at most max_conns held: an idle or slow connection costs
 * an fd and a slot, never the loop); the agent owns the active controller
 * and its engine's fd in the same poll(). One controller at a time runs an
 * experiment (the conversation of src/engine/proto.h, enforced by
 * rperf_proto_session with RPERF_PROTO_AGENT); any other HELLO meanwhile
 * gets REFUSE "busy: running a test for ADDR since TIME (N s left)" at
 * once (rperf_serve_busy_text(): N once GO set the sources' planned end)
 * and is closed. Every connection first completes a TLS 1.3 handshake
 * authenticated by the pre-shared key or the certificates of @auth (in
 * the loop's handshake pool, src/serve/serve.h): a peer without the key
 * never reaches the agent, never holds the experiment slot and nothing is
 * created for it. Without a key or certificates the agent refuses to
 * start unless @insecure (the plain channel: anyone who reaches the port
 * runs experiments; the agent says so when it starts).
 * A PLAN above the agent's limits (memory, QPs, instances, duration) gets
 * ERROR "limits: ..." and nothing is created; a CONNECT naming an endpoint
 * whose GID is not its host's address in the PLAN gets ERROR "... a third
 * party's endpoint is never connected" and no QP is connected.
 *
 * Deadlines: TLS handshake and HELLO within handshake_ms of the accept;
 * after WELCOME every message within 6 x @timeout_ms of the previous step (the
 * controller waits for every agent in turn, each within the job's timeout),
 * STOP within the sources' planned end + 6 x @timeout_ms; from GO to
 * REPORT a HEARTBEAT every GO "heartbeat_ns" (the controller's liveness
 * check: src/engine/proto.h). Every frame read
 * is bounded by @timeout_ms; TCP keepalive (~25 s) notices a controller
 * whose host died. A controller that goes away, sends ERROR,
 * misses a deadline or breaks the order ends its experiment: every thread
 * stops, every QP/MR/CQ/channel is freed, and the agent listens again.
 *
 * The library never prints: every event is a line handed to @log.
 */
#ifndef RPERF_AGENT_H
#define RPERF_AGENT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <rperf/clock.h>

#include "ctrl/ctrl_tls.h"
#include "engine/engine.h"

struct rperf_agent_cfg;

/* The engine behind the agent (tests put a fake one here). */
struct rperf_agent_engine {
	int (*create)(const struct rperf_proto_plan *plan,
		      const struct rperf_clock *clk, struct rperf_engine **out,
		      char *err, size_t errlen);
	int (*endpoints)(struct rperf_engine *e, struct rperf_proto_eps *out,
			 char *err, size_t errlen);
	int (*connect)(struct rperf_engine *e,
		       const struct rperf_proto_eps *peers, char *err,
		       size_t errlen);
	int (*go)(struct rperf_engine *e, uint64_t t0_ns, char *err,
		  size_t errlen);
	int (*fd)(const struct rperf_engine *e);
	bool (*poll)(struct rperf_engine *e);
	/* a source ended with an error (may be NULL: never) */
	bool (*failed)(struct rperf_engine *e);
	/* the sources end now, the sinks count on (HALT; may be NULL: the
	 * agent does not announce "halt" and waits for STOP) */
	void (*halt)(struct rperf_engine *e);
	void (*stop)(struct rperf_engine *e);
	int (*report)(struct rperf_engine *e, const char *host,
		      struct rperf_proto_report *out);
	void (*destroy)(struct rperf_engine *e);
	const char *(*link_layer)(const struct rperf_engine *e);
	/* the port's data rate, Gb/s (0 unknown; may be NULL) */
	double (*link_gbps)(const struct rperf_engine *e);
	/* create with the agent's configuration (may be NULL: create) */
	int (*create_cfg)(const struct rperf_agent_cfg *cfg,
			  const struct rperf_proto_plan *plan,
			  struct rperf_engine **out, char *err, size_t errlen);
	/* the next round on the same QPs (PLAN "rounds"; NULL: no rounds,
	 * the agent does not offer the feature) */
	int (*round)(struct rperf_engine *e, uint32_t k, char *err,
		     size_t errlen);
	/* live rows (may be NULL: the HEARTBEATs carry none) */
	void (*live_on)(struct rperf_engine *e);
	void (*live_take)(struct rperf_engine *e, struct rperf_live_row *out,
			  size_t cap, size_t *n, uint64_t *skipped);
};

/* The real one (src/engine). */
extern const struct rperf_agent_engine rperf_agent_real_engine;
/* `rperf agent --dry-run` (agent_dry.c): the whole protocol with no device,
 * no QP and no traffic; its REPORTs say "dry_run": true. */
extern const struct rperf_agent_engine rperf_agent_dry_engine;

struct rperf_agent_cfg {
	const char *bind; /* NULL: any */
	uint16_t port; /* 0: ephemeral (see rperf_agent_port()) */
	struct rperf_ctrl_auth auth; /* PSK or certificates (ctrl_tls.h) */
	bool insecure; /* neither: the plain channel, knowingly */
	int timeout_ms; /* > 0 */
	const struct rperf_clock *clk; /* for the LSGs; outlives the agent */
	const struct rperf_agent_engine *engine; /* NULL: the real one */
	/* the agent's own -d, -x and --cpu: used where the PLAN leaves the
	 * device "" (first active), gid_index -1 or cpu -1; ignored when
	 * local.port is 0 ("" / -1 in a field: nothing to fill in) */
	struct rperf_host_sel local;
	void (*log)(void *arg, const char *line); /* may be NULL */
	void *log_arg;
	/* the server loop's (src/serve/serve.h): a connection's HELLO must
	 * come within handshake_ms of its accept, at most max_conns are held
	 * before theirs; 0: RPERF_SERVE_DEFAULT_HANDSHAKE_MS / _MAX_CONNS */
	int handshake_ms;
	unsigned int max_conns;
	/* every PLAN is checked against these before anything is created
	 * (rperf_engine_plan_admit; 0 fields: no limit); a plan above them
	 * gets ERROR "limits: ..." */
	struct rperf_plan_limits limits;
	/* one controller, then rperf_agent_run() returns 0 (--one-off): the
	 * first admitted controller's experiment ended either way */
	bool one_off;
	/* with one_off: only a controller whose plan created something ends
	 * it (the rperf lat / bw servers: a client refused before that, at
	 * HELLO or PLAN, leaves them listening for the next) */
	bool one_off_created;
	/* the HELLO command it serves ("run": rperf run; "lat", "bw": the
	 * two-host commands' controllers) and its name in the loop's
	 * refusals ("rperf agent", "rperf lat server"); NULL: those two */
	const char *command;
	const char *what;
	/* a PLAN's own check before anything (rperf lat / bw: the flags the
	 * server was given against the client's "options"): 0, or a reason
	 * in @why (ERROR, nothing created); NULL: none */
	int (*plan_check)(void *arg, const json_t *plan, char *why, size_t len);
	void *plan_check_arg;
	/* one log line per sink and BSG source and round, what it received
	 * or sent (the rperf lat and bw servers' log: "pingpong: 500 WRITEs
	 * received (32000 B)", "500 sent (2048000 B)") */
	bool log_sinks;
	/* a source of its own failed (its stall limit: a peer that stopped
	 * taking its messages): the controller has this long to STOP, then
	 * the experiment ends (the rperf lat / bw servers: free for the next
	 * client within twice the stall limit); 0: the plan's deadlines */
	uint64_t failed_stop_ns;
	/* every other host of a plan is the controller's (the rperf lat / bw
	 * servers): its address, whatever the PLAN says, is the control
	 * connection's, which the endpoints must carry */
	bool peers_at_controller;
	/* no counter series (the rperf lat / bw servers and their clients'
	 * agents: their reports have none; sampling sysfs at a BSG's 100 ms
	 * ticks would cost an idle server CPU) */
	bool counters_off;
	/* the dry-run engine: a start timer it shares with the other agents
	 * of this process, called with @dry_starter_arg (struct
	 * rperf_dry_starter_ops); NULL: a timerfd of its own */
	const struct rperf_dry_starter_ops *dry_starter;
	void *dry_starter_arg;
};

/*
 * A start timer that several dry-run agents in one process share (the
 * scale benchmark's fleet on one machine: tests/bench/dry_starter.c), so
 * that N agents cost one wake-up per start instant, not N wake-ups
 * queueing for the cores. The dry-run engine (src/agent/agent_dry.c) arms
 * a slot at GO, reads it for the report (the start it reports: when the
 * starter saw the instant pass, the start skew as it is) and releases it
 * at the next round or when the experiment ends; its own timerfd then
 * waits only for the sources' planned end. Each agent calls from its own
 * thread (the one in rperf_agent_run(), or rperf_agent_destroy()'s), so
 * agents sharing one starter call it concurrently: it must be thread-safe.
 */
struct rperf_dry_starter_ops {
	/* Arm a slot at @at_ns (CLOCK_MONOTONIC) and return it in @slot:
	 * 0, or an errno (ENOSPC: every slot taken) that fails the GO. */
	int (*arm)(void *arg, uint64_t at_ns, size_t *slot);
	/* Whether @slot's instant passed; if so, @at_ns: when the starter
	 * saw it pass. */
	bool (*fired)(void *arg, size_t slot, uint64_t *at_ns);
	/* Give @slot back, its instant passed or not. */
	void (*release)(void *arg, size_t slot);
};

struct rperf_agent;

/* Listen (before anything slow). 0 or errno with @err. */
int rperf_agent_create(const struct rperf_agent_cfg *cfg,
		       struct rperf_agent **out, char *err, size_t errlen);
uint16_t rperf_agent_port(const struct rperf_agent *a);
/* Serve until *stop: 0 (stopped), or errno with @err for a failure of the
 * loop itself (poll, accept). Experiments' failures are logged only. */
int rperf_agent_run(struct rperf_agent *a, const volatile sig_atomic_t *stop,
		    char *err, size_t errlen);
/* One pass of the loop (wait at most @wait_ms): for tests. */
int rperf_agent_step(struct rperf_agent *a, int wait_ms, char *err,
		     size_t errlen);
/* Experiments served so far (ended either way). */
uint64_t rperf_agent_served(const struct rperf_agent *a);
/* The last controller's experiment ended as planned (its BYE). */
bool rperf_agent_last_done(const struct rperf_agent *a);
/* Free everything (an experiment still running is stopped). NULL-safe. */
void rperf_agent_destroy(struct rperf_agent *a);

#endif
