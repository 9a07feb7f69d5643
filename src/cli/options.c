/* SPDX-License-Identifier: BSD-2-Clause */
#include "cli/options.h"

#include <stddef.h>
#include <string.h>

#define OFF(f) offsetof(struct rperf_cli_config, f)
#define NS_US 1000ull
#define NS_S 1000000000ull

#define L RPERF_CMD_LAT
#define B RPERF_CMD_BW
#define T RPERF_CMD_TRAFFIC
#define A RPERF_CMD_AGENT
#define I RPERF_CMD_INFO

static const char *const methods[] = { "rperf", "pingpong", "postpoll", "all",
				       NULL };
static const char *const poll_modes[] = { "busy", "yield", NULL };
static const char *const pair_orders[] = { "alternate", "wire-first",
					   "loop-first", "sequential", NULL };
/* Indexes match enum rperf_clock_source. */
static const char *const clocks[] = { "auto", "tsc", "arm", "posix", NULL };

/*
 * Order here is the order of --help and of the man page. perftest's letters
 * keep perftest's meaning; new concepts get long-only options.
 */
const struct rperf_opt rperf_options[] = {
	{ .name = "help",
	  .letter = 'h',
	  .type = RPERF_OT_HELP,
	  .cmds = RPERF_CMD_ALL,
	  .help = "Show this help and exit." },
	{ .name = "version",
	  .letter = 'V',
	  .type = RPERF_OT_VERSION,
	  .cmds = RPERF_CMD_ALL,
	  .help = "Show the version and exit." },
	/* device and connection */
	{ .name = "ib-dev",
	  .letter = 'd',
	  .type = RPERF_OT_STR,
	  .cmds = T | A,
	  .off = OFF(ib_dev),
	  .metavar = "DEV",
	  .server = 1,
	  .help = "RDMA device to use (default: the first one with an active port)." },
	{ .name = "ib-port",
	  .letter = 'i',
	  .type = RPERF_OT_INT,
	  .cmds = T | A,
	  .off = OFF(ib_port),
	  .min = 1,
	  .max = 255,
	  .metavar = "PORT",
	  .dflt = "1",
	  .server = 1,
	  .help = "Port of the RDMA device." },
	{ .name = "gid-index",
	  .letter = 'x',
	  .type = RPERF_OT_INT,
	  .cmds = T | A,
	  .off = OFF(gid_index),
	  .min = 0,
	  .max = 65535,
	  .metavar = "N",
	  .dflt = "automatic",
	  .server = 1,
	  .help = "GID index (RoCE: default prefers a RoCE v2 IPv4-mapped GID; IB: LID routing)." },
	{ .name = "ipv6",
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(ipv6),
	  .help = "Prefer an IPv6 GID when choosing automatically." },
	{ .name = "mtu",
	  .letter = 'm',
	  .type = RPERF_OT_SIZE,
	  .cmds = T,
	  .off = OFF(mtu),
	  .min = 256,
	  .max = 4096,
	  .pow2 = 1,
	  .metavar = "BYTES",
	  .dflt = "the port's active MTU",
	  .help = "Path MTU: 256, 512, 1024, 2048 or 4096." },
	{ .name = "inline_size",
	  .letter = 'I',
	  .type = RPERF_OT_SIZE,
	  .cmds = T,
	  .off = OFF(inline_size),
	  .min = 0,
	  .max = 65536,
	  .metavar = "SIZE",
	  .dflt = "0",
	  .help = "Largest message sent inline." },
	{ .name = "rx-depth",
	  .letter = 'r',
	  .type = RPERF_OT_COUNT,
	  .cmds = T,
	  .off = OFF(rx_depth),
	  .min = 1,
	  .max = 65536,
	  .metavar = "N",
	  .dflt = "512",
	  .help = "Receive queue depth (kept full off the critical path)." },
	{ .name = "qp-timeout",
	  .letter = 'u',
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .off = OFF(qp_timeout),
	  .min = 0,
	  .max = 31,
	  .metavar = "N",
	  .dflt = "14",
	  .help = "QP ACK timeout exponent: 4.096 us * 2^N." },
	{ .name = "retry-count",
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .off = OFF(retry_count),
	  .min = 0,
	  .max = 7,
	  .metavar = "N",
	  .dflt = "7",
	  .help = "RC retry count." },
	{ .name = "sl",
	  .letter = 'S',
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .off = OFF(sl),
	  .min = 0,
	  .max = 15,
	  .metavar = "SL",
	  .dflt = "0",
	  .help = "Service level (IB: selects the virtual lane)." },
	{ .name = "tclass",
	  .type = RPERF_OT_INT,
	  .cmds = T,
	  .off = OFF(tclass),
	  .min = 0,
	  .max = 255,
	  .metavar = "TC",
	  .dflt = "0",
	  .help = "Traffic class of the GRH (RoCE: becomes the IP DS field)." },
	{ .name = "rdma_cm",
	  .letter = 'R',
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(rdma_cm),
	  .help = "Connect the QPs with rdma_cm (the client binds its device's address)." },
	{ .name = "port",
	  .letter = 'p',
	  .type = RPERF_OT_INT,
	  .cmds = T | A,
	  .off = OFF(tcp_port),
	  .min = 1,
	  .max = 65535,
	  .metavar = "PORT",
	  .dflt = "18520",
	  .server = 1,
	  .help = "TCP port of rperf's control connection (perftest uses 18515)." },
	{ .name = "bind",
	  .type = RPERF_OT_STR,
	  .cmds = T | A,
	  .off = OFF(bind),
	  .metavar = "ADDR",
	  .server = 1,
	  .help = "Local address of the control connection (both sides)." },
	{ .name = "connect-timeout",
	  .type = RPERF_OT_TIME,
	  .cmds = T,
	  .off = OFF(connect_timeout_ns),
	  .min = 1000000,
	  .max = 3600 * NS_S,
	  .unit = NS_S,
	  .metavar = "TIME",
	  .dflt = "10s",
	  .help = "How long the client retries connecting to the server." },
	{ .name = "persistent",
	  .type = RPERF_OT_FLAG,
	  .cmds = T | A,
	  .off = OFF(persistent),
	  .server = 1,
	  .help = "Server: serve clients one after another instead of exiting after one." },
	{ .name = "cpu",
	  .type = RPERF_OT_INT,
	  .cmds = T | A,
	  .off = OFF(cpu),
	  .min = 0,
	  .max = 65535,
	  .metavar = "N",
	  .server = 1,
	  .help = "Pin the measuring thread to CPU N." },
	/* measurement */
	{ .name = "size",
	  .letter = 's',
	  .type = RPERF_OT_SIZE_LIST,
	  .cmds = T,
	  .off = OFF(sizes),
	  .min = 1,
	  .max = 1ll << 30,
	  .metavar = "SIZE",
	  .dflt = "64",
	  .help = "Message size in bytes (binary suffixes: 4K = 4096)." },
	{ .name = "all",
	  .letter = 'a',
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(all_sizes),
	  .help = "Run all sizes from 2 B to 8 MiB by powers of two." },
	{ .name = "sizes",
	  .type = RPERF_OT_SIZE_LIST,
	  .cmds = T,
	  .off = OFF(sizes),
	  .min = 1,
	  .max = 1ll << 30,
	  .metavar = "LIST",
	  .help = "Comma-separated list of sizes, e.g. 64,4K,64K." },
	{ .name = "iters",
	  .letter = 'n',
	  .type = RPERF_OT_COUNT,
	  .cmds = T,
	  .off = OFF(iters),
	  .min = 1,
	  .max = 1000000000000ll,
	  .metavar = "N",
	  .dflt = "10000",
	  .help = "Samples (messages) per size." },
	{ .name = "duration",
	  .letter = 'D',
	  .type = RPERF_OT_TIME,
	  .cmds = T,
	  .off = OFF(duration_ns),
	  .min = 1000000,
	  .max = 7 * 86400 * NS_S,
	  .unit = NS_S,
	  .metavar = "TIME",
	  .help = "Run for TIME per size instead of -n (a bare number is seconds)." },
	{ .name = "warmup",
	  .type = RPERF_OT_COUNT,
	  .cmds = L,
	  .off = OFF(warmup),
	  .min = 0,
	  .max = 1000000000ll,
	  .metavar = "N",
	  .dflt = "1000",
	  .help = "Samples excluded at the start (counted)." },
	{ .name = "method",
	  .type = RPERF_OT_ENUM,
	  .cmds = L,
	  .off = OFF(method),
	  .choices = methods,
	  .metavar = "M",
	  .dflt = "rperf",
	  .help = "rperf (paired wire + loopback SENDs), pingpong, postpoll or all." },
	{ .name = "pair-order",
	  .type = RPERF_OT_ENUM,
	  .cmds = L,
	  .off = OFF(pair_order),
	  .choices = pair_orders,
	  .metavar = "ORDER",
	  .dflt = "alternate",
	  .help = "alternate, wire-first, loop-first or sequential." },
	{ .name = "poll",
	  .type = RPERF_OT_ENUM,
	  .cmds = L,
	  .off = OFF(poll_mode),
	  .choices = poll_modes,
	  .metavar = "MODE",
	  .dflt = "busy",
	  .help = "busy: spin on the CQ; yield: sched_yield() between polls, so that a kernel-side path sharing the CPU (Soft-RoCE, an emulated switch) is not starved." },
	{ .name = "latency_gap",
	  .type = RPERF_OT_TIME,
	  .cmds = L,
	  .off = OFF(latency_gap_ns),
	  .min = 0,
	  .max = 3600 * NS_S,
	  .unit = NS_US,
	  .metavar = "TIME",
	  .dflt = "0",
	  .help = "Idle time between samples (a bare number is microseconds)." },
	{ .name = "rate",
	  .type = RPERF_OT_RATE,
	  .cmds = L,
	  .off = OFF(rate),
	  .min = 0,
	  .max = 1e9,
	  .metavar = "N",
	  .dflt = "unpaced",
	  .help = "Samples per second (decimal prefixes: 10k = 10000)." },
	{ .name = "repeat",
	  .type = RPERF_OT_COUNT,
	  .cmds = L,
	  .off = OFF(repeat),
	  .min = 1,
	  .max = 1000,
	  .metavar = "N",
	  .dflt = "1",
	  .help = "Repeat the whole run N times and report the spread." },
	{ .name = "percentiles",
	  .type = RPERF_OT_PCT_LIST,
	  .cmds = L,
	  .off = OFF(percentiles),
	  .metavar = "LIST",
	  .dflt = "50,99,99.9,99.99",
	  .help = "Percentiles to report, comma-separated, each in [0, 100]." },
	/* clock and output */
	{ .name = "clock",
	  .type = RPERF_OT_ENUM,
	  .cmds = T | A | I,
	  .off = OFF(clock),
	  .choices = clocks,
	  .metavar = "SRC",
	  .dflt = "auto",
	  .server = 1,
	  .help = "Force a clock source: tsc, arm or posix (with a warning)." },
	{ .name = "spin",
	  .type = RPERF_OT_TIME,
	  .cmds = I,
	  .off = OFF(spin_ns),
	  .min = 1000000,
	  .max = 60 * NS_S,
	  .unit = 1000000,
	  .metavar = "TIME",
	  .dflt = "200ms",
	  .help = "How long the clock self-test spins looking for gaps (a bare number is ms)." },
	{ .name = "json",
	  .type = RPERF_OT_FLAG,
	  .cmds = I,
	  .off = OFF(json),
	  .help = "Print JSON instead of text." },
	{ .name = "out_json",
	  .type = RPERF_OT_FLAG,
	  .cmds = T,
	  .off = OFF(out_json),
	  .help = "Write the JSON report (to --out_json_file, default rperf.json)." },
	{ .name = "out_json_file",
	  .type = RPERF_OT_STR,
	  .cmds = T,
	  .off = OFF(out_json_file),
	  .metavar = "FILE",
	  .implies = "out_json",
	  .help = "Write the JSON report to FILE atomically (implies --out_json)." },
};

const size_t rperf_noptions = sizeof(rperf_options) / sizeof(rperf_options[0]);

static const struct {
	enum rperf_cmd cmd;
	const char *name;
	const char *summary;
} commands[] = {
	{ RPERF_CMD_LAT, "lat",
	  "latency (LSG): RPerf RTTs from paired wire + loopback SENDs" },
	{ RPERF_CMD_BW, "bw", "bandwidth (BSG): open-loop bulk traffic" },
	{ RPERF_CMD_RUN, "run", "multi-host experiment from a job file" },
	{ RPERF_CMD_AGENT, "agent", "long-lived per-host agent for rperf run" },
	{ RPERF_CMD_INFO, "info",
	  "clock self-test, versions and RDMA devices" },
};

const char *rperf_cmd_name(enum rperf_cmd cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == cmd)
			return commands[i].name;
	return NULL;
}

const char *rperf_cmd_summary(enum rperf_cmd cmd)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].cmd == cmd)
			return commands[i].summary;
	return NULL;
}

enum rperf_cmd rperf_cmd_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return commands[i].cmd;
	return RPERF_CMD_NONE;
}

const struct rperf_opt *rperf_opt_find(const char *name)
{
	for (size_t i = 0; i < rperf_noptions; i++)
		if (strcmp(rperf_options[i].name, name) == 0)
			return &rperf_options[i];
	return NULL;
}

void rperf_cli_config_defaults(struct rperf_cli_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ib_port = 1;
	cfg->gid_index = -1;
	cfg->rx_depth = 512;
	cfg->qp_timeout = 14;
	cfg->retry_count = 7;
	cfg->tclass = -1;
	cfg->tcp_port = RPERF_DEFAULT_TCP_PORT;
	cfg->connect_timeout_ns = 10 * NS_S;
	cfg->cpu = -1;
	cfg->iters = 10000;
	cfg->warmup = 1000;
	cfg->repeat = 1;
	cfg->spin_ns = 200000000ull;
}
