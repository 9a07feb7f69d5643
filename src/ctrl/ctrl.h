/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rperf control channel: a TCP (or TLS) connection between a controller
 * (rperf run, lat, bw) and an agent carrying framed JSON messages.
 *
 * Frame (all integers in network byte order, 12-byte header):
 *
 *   u32 magic   = RPERF_CTRL_MAGIC ("RPFR")
 *   u16 version = RPERF_CTRL_VERSION
 *   u16 type    = enum rperf_ctrl_type
 *   u32 length  = payload bytes (<= RPERF_CTRL_MAX_PAYLOAD)
 *   payload     = one UTF-8 JSON object (no duplicate keys, nothing after it)
 *
 * The header is checked in this order BEFORE the payload is read or parsed:
 * magic (EBADMSG), version (EPROTONOSUPPORT: the header's version is left in
 * msg->version so a server can answer "protocol version N, this server speaks
 * 1"), type (EBADMSG for an unknown one), length (EMSGSIZE above the bound).
 *
 * What travels in the frames, and in which order, is the experiment
 * protocol of src/engine/proto.h (rperf run, rperf lat and rperf bw
 * controllers; rperf agent and the lat/bw servers). A server may REFUSE a
 * first frame it will not read as a HELLO (another version, another type,
 * over its bound) or a client it cannot serve now (busy), in words
 * (src/serve).
 *
 * Conventions: every int-returning function returns 0 or a positive errno;
 * results go through out-parameters. No global state; thread-compatible.
 */
#ifndef RPERF_CTRL_H
#define RPERF_CTRL_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPERF_CTRL_MAGIC 0x52504652u /* "RPFR" */
#define RPERF_CTRL_VERSION 1
#define RPERF_CTRL_HDR_LEN 12
#define RPERF_CTRL_MAX_PAYLOAD (1u << 20) /* 1 MiB */

/* Bounds of the typed messages' strings (including the final NUL). */
#define RPERF_CTRL_NAME_LEN 32 /* command and feature names */
#define RPERF_CTRL_MAX_FEATURES 16
#define RPERF_CTRL_REASON_LEN 256 /* REFUSE/ERROR reason (longer: cut) */

enum rperf_ctrl_type {
	RPERF_CTRL_HELLO = 1, /* C->S {"version","command","features"} */
	RPERF_CTRL_WELCOME = 2, /* S->C {"version","max_size","features"} */
	RPERF_CTRL_REFUSE = 3, /* both {"reason"} */
	/* 4..9: retired (rperf lat/bw's own protocol): never allowed */
	RPERF_CTRL_PARAMS = 4,
	RPERF_CTRL_ENDPOINT = 5,
	RPERF_CTRL_READY = 6,
	RPERF_CTRL_START = 7,
	RPERF_CTRL_DONE = 8,
	RPERF_CTRL_RESULT = 9,
	RPERF_CTRL_BYE = 10, /* both {} */
	RPERF_CTRL_ERROR = 11, /* both {"reason"} */
	/* Experiments (a controller <-> an agent): payloads and order in
	 * src/engine/proto.h */
	RPERF_CTRL_AUTH = 12, /* retired (the MAC before TLS): never allowed */
	RPERF_CTRL_PLAN = 13, /* C->A {"experiment","host","device",...} */
	RPERF_CTRL_ENDPOINTS = 14, /* A->C {"instances":[...]} */
	RPERF_CTRL_CONNECT = 15, /* C->A {"peers":[...]} */
	RPERF_CTRL_ARMED = 16, /* A->C {} */
	RPERF_CTRL_GO = 17, /* C->A {"start_in_ns"} */
	RPERF_CTRL_FINISHED = 18, /* A->C {} */
	RPERF_CTRL_STOP = 19, /* C->A {} */
	RPERF_CTRL_REPORT = 20, /* A->C {"host","instances":[...]} */
	RPERF_CTRL_HEARTBEAT = 21, /* A->C {} during a run */
	/* C->A {"seq"}, A->C {"seq","rx_ns","tx_ns"}: one clock exchange
	 * between ARMED and GO (engine/proto.h, "clock-sync") */
	RPERF_CTRL_CLOCK = 22,
	/* A->C {"id","first","wire_ns","loop_ns","rtt_ns"}: an LSG's samples
	 * between STOP and REPORT (engine/proto.h, "samples") */
	RPERF_CTRL_SAMPLES = 23,
	/* C->A {}: end the sources now, the sinks count on until STOP
	 * (engine/proto.h, "halt") */
	RPERF_CTRL_HALT = 24,
};
#define RPERF_CTRL_TYPE_MIN RPERF_CTRL_HELLO
#define RPERF_CTRL_TYPE_MAX RPERF_CTRL_HALT

/* "HELLO", ... ; "?" for an unknown value. Never NULL. */
const char *rperf_ctrl_type_name(int type);

/*
 * A received message. payload is an owned JSON object (never NULL after a
 * successful decode/recv); release it with rperf_ctrl_msg_release().
 * After EPROTONOSUPPORT, version and type hold the peer's header values and
 * payload is NULL.
 */
struct rperf_ctrl_msg {
	enum rperf_ctrl_type type;
	uint16_t version;
	json_t *payload;
};

/* Drop the payload reference and clear the struct. NULL-safe, idempotent. */
void rperf_ctrl_msg_release(struct rperf_ctrl_msg *m);

/* ---- Frames (no I/O; used by send/recv and the fuzzer) ---- */

struct rperf_ctrl_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t length;
};

/* Serialize a header (no checks) into 12 bytes. */
void rperf_ctrl_hdr_pack(const struct rperf_ctrl_hdr *h,
			 uint8_t out[RPERF_CTRL_HDR_LEN]);
/*
 * Parse and validate 12 header bytes: 0, EBADMSG (magic, unknown type),
 * EPROTONOSUPPORT (version; *out is still filled), EMSGSIZE (length).
 */
int rperf_ctrl_hdr_parse(const uint8_t in[RPERF_CTRL_HDR_LEN],
			 struct rperf_ctrl_hdr *out);

/*
 * Build a whole frame: header + compact JSON of @payload (a JSON object;
 * NULL means {}). *buf is malloc'd (free() it), *len its size.
 * Returns 0, EINVAL (bad type, payload not an object), EMSGSIZE, ENOMEM.
 */
int rperf_ctrl_encode(enum rperf_ctrl_type t, const json_t *payload,
		      uint8_t **buf, size_t *len);
/*
 * Decode exactly one whole frame of @len bytes. Returns 0 (out filled, owns
 * a payload object), EBADMSG (truncated/extra bytes, bad magic, unknown type,
 * invalid JSON or not an object), EPROTONOSUPPORT, EMSGSIZE, ENOMEM.
 * On error out->payload is NULL.
 */
int rperf_ctrl_decode(const uint8_t *buf, size_t len,
		      struct rperf_ctrl_msg *out);

/* ---- Payload getters (strict; for generic objects such as a PLAN) ----
 * All return 0, ENOENT when @key is absent (so callers can have optional
 * keys), EBADMSG for a wrong JSON type or a value out of [min, max].
 * @obj must be a JSON object (EINVAL otherwise).
 */

/* Integer >= 0; values above INT64_MAX (which a JSON integer cannot hold
 * here) travel as a decimal string (see rperf_ctrl_set_u64()), accepted only
 * for such values. */
int rperf_ctrl_get_u64(const json_t *obj, const char *key, uint64_t min,
		       uint64_t max, uint64_t *out);
int rperf_ctrl_get_i64(const json_t *obj, const char *key, int64_t min,
		       int64_t max, int64_t *out);
/* Real or integer, finite. */
int rperf_ctrl_get_double(const json_t *obj, const char *key, double min,
			  double max, double *out);
int rperf_ctrl_get_bool(const json_t *obj, const char *key, bool *out);
/* Make a peer's string safe to print, in place: every control character
 * (C0, DEL, and C1 as UTF-8 U+0080..U+009F: escape sequences, CR, LF) ->
 * '?'. Every string decoded from the network passes it. */
void rperf_ctrl_text_clean(char *s);
/* Copies the string (NUL-terminated) into buf, cleaned
 * (rperf_ctrl_text_clean); EBADMSG when it does not fit in buflen (with
 * its NUL) or is not a string. */
int rperf_ctrl_get_str(const json_t *obj, const char *key, char *buf,
		       size_t buflen);
/* Array of u64 in [min, max]; EBADMSG if any element is bad or the array has
 * more than @cap elements. *n = element count. */
int rperf_ctrl_get_u64_array(const json_t *obj, const char *key, uint64_t min,
			     uint64_t max, uint64_t *out, size_t cap,
			     size_t *n);

/* Lowercase hex of @n bytes into @s (2n + 1 chars with the NUL); and back:
 * exactly 2n hex digits (either case) -> n bytes, 0 or EBADMSG. */
void rperf_ctrl_hex(const uint8_t *b, size_t n, char *s);
int rperf_ctrl_unhex(const char *s, uint8_t *b, size_t n);

/* Setters (obj must be an object): 0 or ENOMEM/EINVAL. set_u64 writes an
 * integer when v <= INT64_MAX, else a decimal string. */
int rperf_ctrl_set_u64(json_t *obj, const char *key, uint64_t v);
int rperf_ctrl_set_i64(json_t *obj, const char *key, int64_t v);
int rperf_ctrl_set_double(json_t *obj, const char *key, double v);
int rperf_ctrl_set_bool(json_t *obj, const char *key, bool v);
int rperf_ctrl_set_str(json_t *obj, const char *key, const char *v);
int rperf_ctrl_set_u64_array(json_t *obj, const char *key, const uint64_t *v,
			     size_t n);

/* The end of an encoder: *@out = @obj and 0; or, when @rc is not 0, @obj
 * released and @rc. */
int rperf_ctrl_json_out(json_t *obj, int rc, json_t **out);

/* ---- Typed messages ----
 * encode: build a new payload object in *out (caller json_decref()s it).
 * decode: take a received message, check m->type (EPROTO if it is another
 * type) and the payload strictly (EBADMSG). Unknown extra keys are ignored
 * (forward compatibility); known keys must have the documented type/range.
 */

struct rperf_ctrl_hello {
	uint16_t version; /* RPERF_CTRL_VERSION */
	char command[RPERF_CTRL_NAME_LEN]; /* "lat", non-empty */
	unsigned int nfeatures;
	char features[RPERF_CTRL_MAX_FEATURES][RPERF_CTRL_NAME_LEN];
};
int rperf_ctrl_hello_encode(const struct rperf_ctrl_hello *h, json_t **out);
int rperf_ctrl_hello_decode(const struct rperf_ctrl_msg *m,
			    struct rperf_ctrl_hello *out);

struct rperf_ctrl_welcome {
	uint16_t version;
	uint64_t max_size; /* largest message size the server accepts */
	unsigned int nfeatures;
	char features[RPERF_CTRL_MAX_FEATURES][RPERF_CTRL_NAME_LEN];
};
int rperf_ctrl_welcome_encode(const struct rperf_ctrl_welcome *w, json_t **out);
int rperf_ctrl_welcome_decode(const struct rperf_ctrl_msg *m,
			      struct rperf_ctrl_welcome *out);

/* REFUSE and ERROR: {"reason": string}. decode accepts both types and cuts
 * the reason to fit @buflen (>= 1). */
int rperf_ctrl_reason_encode(const char *reason, json_t **out);
int rperf_ctrl_reason_decode(const struct rperf_ctrl_msg *m, char *buf,
			     size_t buflen);

/* True when @name is one of the features (exact match). */
bool rperf_ctrl_has_feature(const char (*features)[RPERF_CTRL_NAME_LEN],
			    unsigned int n, const char *name);

/*
 * Queue pair connection info. Wire: {"qpn","psn","lid","gid","mtu","rkey",
 * "addr","size"}; gid is 16 raw bytes as 32 lowercase hex chars (upper case
 * accepted on decode); mtu in bytes (256, 512, 1024, 2048 or 4096).
 */
struct rperf_ctrl_endpoint {
	uint32_t qpn; /* <= 0xffffff */
	uint32_t psn; /* <= 0xffffff */
	uint16_t lid;
	uint8_t gid[16];
	uint32_t mtu;
	uint32_t rkey;
	uint64_t addr;
	uint64_t size;
	/* optional "access": RPERF_EP_* remote access the buffer grants;
	 * 0 = not said (an rperf older than --verb read/atomic) */
	uint32_t access;
	/* optional "cm_port": the rdma_cm port this end listens on for its
	 * QPs (a sink of rdma_cm = true); 0 = none */
	uint16_t cm_port;
};

#define RPERF_EP_REMOTE_WRITE 1u
#define RPERF_EP_REMOTE_READ 2u
#define RPERF_EP_REMOTE_ATOMIC 4u
#define RPERF_EP_ACCESS_ALL 7u
int rperf_ctrl_endpoint_encode(const struct rperf_ctrl_endpoint *ep,
			       json_t **out); /* EINVAL on out-of-range */
int rperf_ctrl_endpoint_decode(const struct rperf_ctrl_msg *m,
			       struct rperf_ctrl_endpoint *out);

/* ---- Conversations ---- */

enum rperf_ctrl_dir { RPERF_CTRL_SEND, RPERF_CTRL_RECV };

/*
 * One allowed step of a conversation; states are values of the caller's
 * state enum (the experiment protocol's in src/engine/proto.h). rperf_ctrl_transition_step() walks a table: ERROR
 * goes to @closed from any state but @closed; otherwise the listed step
 * for (*state, dir, t) or EPROTO (state unchanged). EINVAL for a bad
 * direction or type.
 */
struct rperf_ctrl_transition {
	int from;
	enum rperf_ctrl_dir dir;
	enum rperf_ctrl_type type;
	int to;
};
int rperf_ctrl_transition_step(const struct rperf_ctrl_transition *tab,
			       size_t n, int closed, int *state,
			       enum rperf_ctrl_dir dir, enum rperf_ctrl_type t);

/* ---- I/O ----
 * timeout_ms bounds the whole frame (send or receive), -1 = forever, 0 =
 * poll once. @stop (optional, may be NULL) is a flag set by a signal handler:
 * when it is non-zero on entry or after any wait slice (<= 100 ms) the call
 * returns EINTR promptly. EINTR without the flag set is retried.
 * Sockets are used with MSG_NOSIGNAL (no SIGPIPE) and MSG_DONTWAIT.
 * @tls (NULL: plain TCP) is the transport's TLS session (ctrl_tls.h): the
 * same frames, deadlines and stop flag, carried in TLS 1.3 records.
 */
struct rperf_ctrl_tls;
struct rperf_ctrl_io {
	int fd;
	int timeout_ms;
	const volatile sig_atomic_t *stop;
	struct rperf_ctrl_tls *tls;
};

/* What the transport has now, without waiting: 0 with *got bytes (0: none
 * yet), EPIPE at EOF, or the errno (EPROTO: a TLS record that does not
 * decrypt). For readers that assemble frames in a poll() loop. */
int rperf_ctrl_read_some(const struct rperf_ctrl_io *io, void *buf, size_t n,
			 size_t *got);
/* Bytes already decrypted and waiting: poll() on io->fd cannot see them,
 * so a poll() loop must read before it waits. */
bool rperf_ctrl_io_pending(const struct rperf_ctrl_io *io);

/*
 * Send one frame. Returns 0, EINVAL/EMSGSIZE/ENOMEM (see encode),
 * ETIMEDOUT, EINTR (stop flag), EPIPE/ECONNRESET (peer gone), other errno.
 */
int rperf_ctrl_send(int fd, enum rperf_ctrl_type t, const json_t *payload,
		    int timeout_ms);
int rperf_ctrl_send_io(const struct rperf_ctrl_io *io, enum rperf_ctrl_type t,
		       const json_t *payload);
/*
 * Receive one frame; the header is validated before the payload is read.
 * Returns 0 (out owns the payload), ETIMEDOUT, EINTR (stop flag),
 * EPIPE (peer closed cleanly before the first header byte: normal hang-up),
 * ECONNRESET (EOF inside a frame, or reset), EBADMSG, EPROTONOSUPPORT
 * (out->version/type set), EMSGSIZE, ENOMEM, other errno.
 */
int rperf_ctrl_recv(int fd, int timeout_ms, struct rperf_ctrl_msg *out);
int rperf_ctrl_recv_io(const struct rperf_ctrl_io *io,
		       struct rperf_ctrl_msg *out);

/* ---- Connections (TCP, IPv4/IPv6, close-on-exec, TCP_NODELAY) ---- */

/*
 * Listening socket on @bind_addr (NULL = any: IPv6 dual-stack if possible,
 * else IPv4) and @port (0 = ephemeral, see rperf_ctrl_local_port()), with
 * SO_REUSEADDR. Returns 0, ENOENT (bind_addr does not resolve), or the
 * socket/bind/listen errno (EADDRINUSE, EACCES, ...).
 */
int rperf_ctrl_listen(const char *bind_addr, uint16_t port, int *fd_out);
/*
 * Wait up to timeout_ms (-1 forever) for one connection. @peer (may be NULL)
 * gets "addr:port" or "[v6addr]:port". Returns 0, ETIMEDOUT, EINTR (stop).
 */
int rperf_ctrl_accept(int lfd, int timeout_ms, int *fd_out, char *peer,
		      size_t peerlen);
int rperf_ctrl_accept_ex(int lfd, int timeout_ms,
			 const volatile sig_atomic_t *stop, int *fd_out,
			 char *peer, size_t peerlen);
/*
 * Connect to host:port, optionally from @bind_addr (NULL = any). Each
 * attempt is non-blocking and bounded by what is left of timeout_ns; refused
 * or unreachable attempts are retried every ~150 ms until timeout_ns has
 * elapsed (the server may not listen yet); timeout_ns 0 = one round of
 * attempts. Returns 0, or the last attempt's error once the time is up:
 * ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH; ENOENT (host or
 * bind_addr does not resolve), EINTR (stop), EAFNOSUPPORT (bind_addr of
 * another family), other errno. The returned fd is blocking.
 */
int rperf_ctrl_connect(const char *host, uint16_t port, const char *bind_addr,
		       uint64_t timeout_ns, int *fd_out);
int rperf_ctrl_connect_ex(const char *host, uint16_t port,
			  const char *bind_addr, uint64_t timeout_ns,
			  const volatile sig_atomic_t *stop, int *fd_out);
/*
 * perftest on rperf's port: true when the first bytes a peer sent (@n of
 * them; 12 suffice) are perftest's control exchange (its version string,
 * "6.21" NUL-padded to 16 bytes, or its QP key message "0000:0000:...")
 * rather than an rperf frame. @what (may be NULL) gets "the peer speaks
 * perftest's protocol (6.21), not rperf's" for a one-line explanation.
 */
bool rperf_ctrl_perftest_peer(const uint8_t *b, size_t n, char *what,
			      size_t whatlen);

/* The local port of a bound socket. */
int rperf_ctrl_local_port(int fd, uint16_t *port);

#ifdef __cplusplus
}
#endif

#endif /* RPERF_CTRL_H */
