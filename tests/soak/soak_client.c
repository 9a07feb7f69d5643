/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * soak_client: many cheap hostile or careless control-channel clients in one
 * process (a process spawn costs 30-50 ms in the emulated lab, a client here
 * costs a socket). Used by tests/soak/soak.sh against a --persistent server.
 *
 *   soak_client ADDR PORT COMMAND KIND:COUNT... [-c CONCURRENCY] [-t HOLD_S]
 *
 * COMMAND is the HELLO's command ("lat" or "bw"). Kinds:
 *   malformed  a 12-byte header with a wrong magic, then junk
 *   huge       a HELLO header announcing a 4 GiB payload
 *   version    a well-formed HELLO with protocol version 99
 *   deep       a HELLO whose payload nests arrays 10,000 deep
 *   abrupt     a valid HELLO, then a reset (SO_LINGER 0) before the answer
 *   idle       connects and sends nothing
 *   slow       a valid HELLO, one byte every 200 ms
 * Every client waits for the server's answer or close, at most HOLD_S
 * seconds (default 8), then closes. One line per kind on stdout:
 *   KIND clients=N welcome=W refuse=R error=E closed=C held=H connfail=F
 * (held: still open after HOLD_S; connfail: the connection was refused or
 * failed). Exit 0; 2 on a usage error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_KINDS 8
#define MAX_CONC 256
#define HDR 12
#define MAGIC 0x52504652u
#define T_HELLO 1
#define T_WELCOME 2
#define T_REFUSE 3
#define T_ERROR 11
#define DEEP 10000

enum kind { K_MALFORMED, K_HUGE, K_VERSION, K_DEEP, K_ABRUPT, K_IDLE, K_SLOW };
static const char *const kind_names[] = { "malformed", "huge",	 "version",
					  "deep",      "abrupt", "idle",
					  "slow" };
#define NKIND (sizeof(kind_names) / sizeof(kind_names[0]))

enum outcome { O_WELCOME, O_REFUSE, O_ERROR, O_CLOSED, O_HELD, O_CONNFAIL };
#define NOUT 6

struct client {
	int fd;
	enum kind kind;
	unsigned char *out; /* bytes to send */
	size_t outlen, sent;
	unsigned char in[HDR];
	size_t inlen;
	double start, next_send;
};

struct plan {
	enum kind kind;
	unsigned int count, started;
	unsigned int out[NOUT];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put_hdr(unsigned char *p, uint32_t magic, uint16_t ver,
		    uint16_t type, uint32_t len)
{
	uint32_t m = htonl(magic), l = htonl(len);
	uint16_t v = htons(ver), t = htons(type);

	memcpy(p, &m, 4);
	memcpy(p + 4, &v, 2);
	memcpy(p + 6, &t, 2);
	memcpy(p + 8, &l, 4);
}

/* The bytes a client of KIND sends (malloc'ed); *len set. */
static unsigned char *build(enum kind k, const char *cmd, size_t *len)
{
	char hello[128];
	size_t n = (size_t)snprintf(hello, sizeof(hello),
				    "{\"version\":%d,\"command\":\"%s\","
				    "\"features\":[]}",
				    k == K_VERSION ? 99 : 1, cmd);
	unsigned char *p = malloc(HDR + 2 * DEEP + 64);

	if (!p)
		return NULL;
	switch (k) {
	case K_MALFORMED:
		put_hdr(p, 0x47455420u, 1, T_HELLO, 16); /* "GET " */
		memcpy(p + HDR, "HTTP/1.0\r\n\r\nxyz", 16);
		*len = HDR + 16;
		break;
	case K_HUGE:
		put_hdr(p, MAGIC, 1, T_HELLO, 0xfffffff0u);
		memset(p + HDR, '{', 64);
		*len = HDR + 64;
		break;
	case K_DEEP:
		put_hdr(p, MAGIC, 1, T_HELLO, 2 * DEEP);
		memset(p + HDR, '[', DEEP);
		memset(p + HDR + DEEP, ']', DEEP);
		*len = HDR + 2 * DEEP;
		break;
	case K_IDLE:
		*len = 0;
		break;
	default: /* version, abrupt, slow: a HELLO */
		put_hdr(p, MAGIC, k == K_VERSION ? 99 : 1, T_HELLO,
			(uint32_t)n);
		memcpy(p + HDR, hello, n);
		*len = HDR + n;
		break;
	}
	return p;
}

static int open_client(struct client *c, const struct sockaddr_in *sa,
		       enum kind k, const char *cmd)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->kind = k;
	c->start = now_s();
	c->next_send = c->start;
	if (fd < 0)
		return errno;
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) &&
	    errno != EINPROGRESS) {
		close(fd);
		return ECONNREFUSED;
	}
	c->out = build(k, cmd, &c->outlen);
	if (!c->out) {
		close(fd);
		return ENOMEM;
	}
	c->fd = fd;
	return 0;
}

static void finish(struct client *c, struct plan *pl, enum outcome o)
{
	if (c->kind == K_ABRUPT || o == O_HELD) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
	pl->out[o]++;
}

/* Send what is due; -1, or the outcome when the connection failed. */
static int pump_out(struct client *c)
{
	size_t chunk = c->outlen - c->sent;
	ssize_t w;

	if (!chunk || now_s() < c->next_send)
		return -1;
	if (c->kind == K_SLOW)
		chunk = 1;
	w = send(c->fd, c->out + c->sent, chunk, MSG_NOSIGNAL);
	if (w < 0) {
		if (errno == EAGAIN || errno == EINTR || errno == ENOTCONN)
			return -1;
		return errno == ECONNREFUSED && !c->sent ? O_CONNFAIL :
							   O_CLOSED;
	}
	c->sent += (size_t)w;
	if (c->kind == K_SLOW)
		c->next_send = now_s() + 0.2;
	return -1;
}

/* Read the answer's header; -1 while nothing decides, else an outcome. */
static int pump_in(struct client *c)
{
	ssize_t r = recv(c->fd, c->in + c->inlen, HDR - c->inlen, 0);
	uint16_t t;

	if (r == 0)
		return O_CLOSED;
	if (r < 0) {
		if (errno == EAGAIN || errno == EINTR || errno == ENOTCONN)
			return -1;
		return errno == ECONNREFUSED && !c->sent ? O_CONNFAIL :
							   O_CLOSED;
	}
	c->inlen += (size_t)r;
	if (c->inlen < HDR)
		return -1;
	memcpy(&t, c->in + 6, 2);
	switch (ntohs(t)) {
	case T_WELCOME:
		return O_WELCOME;
	case T_REFUSE:
		return O_REFUSE;
	case T_ERROR:
		return O_ERROR;
	default:
		return O_CLOSED;
	}
}

static int parse_plan(char **argv, int argc, struct plan *pl, unsigned *np)
{
	for (int i = 0; i < argc; i++) {
		char *colon = strchr(argv[i], ':');
		unsigned int k;

		if (!colon || *np == MAX_KINDS)
			return 1;
		*colon = '\0';
		for (k = 0; k < NKIND && strcmp(kind_names[k], argv[i]); k++)
			;
		if (k == NKIND)
			return 1;
		memset(&pl[*np], 0, sizeof(pl[*np]));
		pl[*np].kind = (enum kind)k;
		pl[*np].count = (unsigned int)strtoul(colon + 1, NULL, 10);
		(*np)++;
	}
	return 0;
}

/* The next kind to start, round-robin over those with clients left. */
static struct plan *next_plan(struct plan *pl, unsigned int np,
			      unsigned int *rr)
{
	for (unsigned int i = 0; i < np; i++) {
		struct plan *p = &pl[(*rr + i) % np];

		if (p->started < p->count) {
			*rr = (*rr + i + 1) % np;
			return p;
		}
	}
	return NULL;
}

static void step(struct client *c, struct plan *p, double hold)
{
	int o = pump_out(c);

	if (o >= 0) {
		finish(c, p, (enum outcome)o);
		return;
	}
	if (c->kind == K_ABRUPT && c->sent == c->outlen) {
		finish(c, p, O_CLOSED);
		return;
	}
	o = pump_in(c);
	if (o >= 0)
		finish(c, p, (enum outcome)o);
	else if (now_s() - c->start > hold)
		finish(c, p, O_HELD);
}

static int run(const struct sockaddr_in *sa, const char *cmd, struct plan *pl,
	       unsigned int np, unsigned int conc, double hold)
{
	static struct client cl[MAX_CONC];
	struct plan *owner[MAX_CONC] = { 0 };
	struct pollfd pfd[MAX_CONC];
	unsigned int rr = 0, live = 0;

	for (;;) {
		for (unsigned int i = 0; i < conc; i++) {
			struct plan *p;

			if (owner[i] && cl[i].fd < 0) {
				owner[i] = NULL;
				live--;
			}
			if (owner[i] || !(p = next_plan(pl, np, &rr)))
				continue;
			p->started++;
			if (open_client(&cl[i], sa, p->kind, cmd)) {
				p->out[O_CONNFAIL]++;
				continue;
			}
			owner[i] = p;
			live++;
		}
		if (!live)
			return 0;
		for (unsigned int i = 0; i < conc; i++) {
			pfd[i].fd = owner[i] ? cl[i].fd : -1;
			pfd[i].events = POLLIN;
			if (owner[i] && cl[i].sent < cl[i].outlen)
				pfd[i].events |= POLLOUT;
		}
		poll(pfd, conc, 50);
		for (unsigned int i = 0; i < conc; i++)
			if (owner[i])
				step(&cl[i], owner[i], hold);
	}
}

int main(int argc, char **argv)
{
	struct plan pl[MAX_KINDS];
	unsigned int np = 0, conc = 32;
	double hold = 8;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int opt;

	while ((opt = getopt(argc, argv, "c:t:")) != -1) {
		if (opt == 'c')
			conc = (unsigned int)strtoul(optarg, NULL, 10);
		else if (opt == 't')
			hold = strtod(optarg, NULL);
		else
			goto usage;
	}
	if (argc - optind < 4 || !conc || conc > MAX_CONC ||
	    inet_pton(AF_INET, argv[optind], &sa.sin_addr) != 1)
		goto usage;
	sa.sin_port = htons((uint16_t)atoi(argv[optind + 1]));
	if (parse_plan(argv + optind + 3, argc - optind - 3, pl, &np))
		goto usage;
	run(&sa, argv[optind + 2], pl, np, conc, hold);
	for (unsigned int i = 0; i < np; i++)
		printf("%s clients=%u welcome=%u refuse=%u error=%u closed=%u "
		       "held=%u connfail=%u\n",
		       kind_names[pl[i].kind], pl[i].count,
		       pl[i].out[O_WELCOME], pl[i].out[O_REFUSE],
		       pl[i].out[O_ERROR], pl[i].out[O_CLOSED],
		       pl[i].out[O_HELD], pl[i].out[O_CONNFAIL]);
	return 0;
usage:
	fprintf(stderr, "usage: soak_client ADDR PORT COMMAND KIND:COUNT... "
			"[-c CONCURRENCY] [-t HOLD_S]\n");
	return 2;
}
