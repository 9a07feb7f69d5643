// SPDX-License-Identifier: BSD-2-Clause
/*
 * TLS 1.3 transport of the control channel (ctrl_tls.h): contexts for the
 * PSK and the certificate modes, the non-blocking handshake, and the
 * record reads/writes under the frame codec.
 */
#include "ctrl/ctrl_tls.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "ctrl/ctrl_priv.h"

#define PSK_LABEL "rperf control PSK v1"
#define PSK_LEN 32 /* SHA-256: the hash of the PSK's cipher suite */
#define SID_CTX (const unsigned char *)"rperf"
#define PSK_SUITES "TLS_AES_128_GCM_SHA256:TLS_CHACHA20_POLY1305_SHA256"

struct rperf_ctrl_tls_ctx {
	SSL_CTX *ssl;
	SSL_SESSION *psk; /* NULL: certificate mode */
	bool server;
};

struct rperf_ctrl_tls {
	SSL *ssl;
	const struct rperf_ctrl_tls_ctx *ctx;
	bool done; /* handshake complete */
};

bool rperf_ctrl_auth_none(const struct rperf_ctrl_auth *a)
{
	return !a || (!a->psk && !a->cert && !a->key && !a->ca);
}

static void ssl_why(char *err, size_t errlen, const char *what)
{
	unsigned long e = ERR_peek_last_error();
	char buf[160] = "unknown OpenSSL error";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(err, errlen, "%s: %s", what, buf);
	ERR_clear_error();
}

/* ---- PSK: one session object carrying the key, handed out per use ---- */

static int psk_use_cb(SSL *ssl, const EVP_MD *md, const unsigned char **id,
		      size_t *idlen, SSL_SESSION **sess)
{
	const struct rperf_ctrl_tls_ctx *c =
		SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	const SSL_CIPHER *ciph = SSL_SESSION_get0_cipher(c->psk);

	*sess = NULL;
	if (md && SSL_CIPHER_get_handshake_digest(ciph) != md)
		return 1; /* after a HelloRetryRequest with another hash */
	if (!SSL_SESSION_up_ref(c->psk))
		return 0;
	*sess = c->psk;
	*id = (const unsigned char *)RPERF_CTRL_PSK_IDENTITY;
	*idlen = strlen(RPERF_CTRL_PSK_IDENTITY);
	return 1;
}

static int psk_find_cb(SSL *ssl, const unsigned char *id, size_t idlen,
		       SSL_SESSION **sess)
{
	const struct rperf_ctrl_tls_ctx *c =
		SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));

	*sess = NULL; /* unknown identity: no PSK, and no certificate */
	if (idlen != strlen(RPERF_CTRL_PSK_IDENTITY) ||
	    memcmp(id, RPERF_CTRL_PSK_IDENTITY, idlen))
		return 1;
	if (!SSL_SESSION_up_ref(c->psk))
		return 0;
	*sess = c->psk;
	return 1;
}

static int psk_session(struct rperf_ctrl_tls_ctx *c,
		       const struct rperf_ctrl_auth *a, char *err,
		       size_t errlen)
{
	static const unsigned char aes128gcm[] = { 0x13, 0x01 };
	uint8_t psk[PSK_LEN];
	unsigned int n = 0;
	const SSL_CIPHER *ciph;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	SSL *tmp = SSL_new(c->ssl);
	int rc = EIO;

	if (!md || !tmp)
		goto out_free;
	ciph = SSL_CIPHER_find(tmp, aes128gcm);
	if (!ciph || !EVP_DigestInit_ex(md, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(md, PSK_LABEL, strlen(PSK_LABEL)) ||
	    !EVP_DigestUpdate(md, a->psk, a->psklen) ||
	    !EVP_DigestFinal_ex(md, psk, &n) || n != PSK_LEN)
		goto out_free;
	c->psk = SSL_SESSION_new();
	if (c->psk && SSL_SESSION_set1_master_key(c->psk, psk, PSK_LEN) &&
	    SSL_SESSION_set_cipher(c->psk, ciph) &&
	    SSL_SESSION_set1_id_context(c->psk, SID_CTX, 5) &&
	    SSL_SESSION_set_protocol_version(c->psk, TLS1_3_VERSION))
		rc = 0;
out_free:
	OPENSSL_cleanse(psk, sizeof(psk));
	if (rc)
		ssl_why(err, errlen, "TLS pre-shared key");
	SSL_free(tmp);
	EVP_MD_CTX_free(md);
	return rc;
}

/* A file OpenSSL will open: a regular file (a FIFO would block), and a
 * private key nobody else can read. */
static int check_file(const char *what, const char *path, bool secret,
		      char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st)) {
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s %s is not a regular file", what,
			 path);
		return EACCES;
	}
	if (secret && (st.st_mode & (S_IRWXG | S_IRWXO))) {
		snprintf(
			err, errlen,
			"%s %s is accessible by group or others (mode %03o); run: chmod 600 %s",
			what, path, (unsigned int)(st.st_mode & 0777), path);
		return EACCES;
	}
	return 0;
}

static int cert_files(struct rperf_ctrl_tls_ctx *c,
		      const struct rperf_ctrl_auth *a, char *err, size_t errlen)
{
	int rc = check_file("--cert", a->cert, false, err, errlen);

	if (!rc)
		rc = check_file("--key", a->key, true, err, errlen);
	if (!rc)
		rc = check_file("--ca", a->ca, false, err, errlen);
	if (rc)
		return rc;
	if (SSL_CTX_use_certificate_chain_file(c->ssl, a->cert) != 1) {
		ssl_why(err, errlen, "--cert: cannot use the certificate");
		return EIO;
	}
	if (SSL_CTX_use_PrivateKey_file(c->ssl, a->key, SSL_FILETYPE_PEM) !=
		    1 ||
	    SSL_CTX_check_private_key(c->ssl) != 1) {
		ssl_why(err, errlen,
			"--key: not the certificate's private key");
		return EIO;
	}
	if (SSL_CTX_load_verify_locations(c->ssl, a->ca, NULL) != 1) {
		ssl_why(err, errlen, "--ca: cannot load the CA certificates");
		return EIO;
	}
	SSL_CTX_set_verify(
		c->ssl,
		SSL_VERIFY_PEER |
			(c->server ? SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0),
		NULL);
	return 0;
}

static int check_auth(const struct rperf_ctrl_auth *a, char *err, size_t errlen)
{
	bool certs = a->cert || a->key || a->ca;

	if (a->psk && certs) {
		snprintf(err, errlen,
			 "give --key-file or --cert/--key/--ca, not both");
		return EINVAL;
	}
	if (a->psk && !a->psklen) {
		snprintf(err, errlen, "the pre-shared key is empty");
		return EINVAL;
	}
	if (certs && !(a->cert && a->key && a->ca)) {
		snprintf(
			err, errlen,
			"certificates need all three of --cert, --key and --ca (missing %s)",
			!a->cert ? "--cert" :
			!a->key	 ? "--key" :
				   "--ca");
		return EINVAL;
	}
	if (!a->psk && !certs) {
		snprintf(err, errlen, "no pre-shared key and no certificate");
		return EINVAL;
	}
	return 0;
}

static void tls_options(SSL_CTX *s)
{
	SSL_CTX_set_min_proto_version(s, TLS1_3_VERSION);
	SSL_CTX_set_max_proto_version(s, TLS1_3_VERSION);
	SSL_CTX_set_num_tickets(s, 0); /* no resumption: fresh keys */
	SSL_CTX_set_options(s, SSL_OP_NO_TICKET | SSL_OP_IGNORE_UNEXPECTED_EOF);
	SSL_CTX_set_mode(s, SSL_MODE_ENABLE_PARTIAL_WRITE |
				    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_session_cache_mode(s, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_session_id_context(s, SID_CTX, 5);
}

int rperf_ctrl_tls_ctx_create(const struct rperf_ctrl_auth *auth, bool server,
			      struct rperf_ctrl_tls_ctx **out, char *err,
			      size_t errlen)
{
	struct rperf_ctrl_tls_ctx *c;
	int rc;

	if (!auth || !out)
		return EINVAL;
	rc = check_auth(auth, err, errlen);
	if (rc)
		return rc;
	c = calloc(1, sizeof(*c));
	if (!c)
		return ENOMEM;
	c->server = server;
	c->ssl =
		SSL_CTX_new(server ? TLS_server_method() : TLS_client_method());
	if (!c->ssl) {
		ssl_why(err, errlen, "TLS context");
		free(c);
		return ENOMEM;
	}
	tls_options(c->ssl);
	SSL_CTX_set_app_data(c->ssl, c);
	if (auth->psk) {
		/* suites of the PSK's hash only: a server that picks another
		 * (SHA-384) would skip the PSK */
		if (SSL_CTX_set_ciphersuites(c->ssl, PSK_SUITES) != 1)
			ssl_why(err, errlen, "TLS cipher suites");
		rc = psk_session(c, auth, err, errlen);
		if (server)
			SSL_CTX_set_psk_find_session_callback(c->ssl,
							      psk_find_cb);
		else
			SSL_CTX_set_psk_use_session_callback(c->ssl,
							     psk_use_cb);
		/* a server that answers with a certificate instead of the
		 * PSK fails: no CA to verify it against (the agent has no
		 * certificate: without the PSK it has no handshake at all) */
		if (!server)
			SSL_CTX_set_verify(c->ssl, SSL_VERIFY_PEER, NULL);
	} else {
		rc = cert_files(c, auth, err, errlen);
	}
	if (rc) {
		rperf_ctrl_tls_ctx_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

void rperf_ctrl_tls_ctx_free(struct rperf_ctrl_tls_ctx *c)
{
	if (!c)
		return;
	SSL_SESSION_free(c->psk);
	SSL_CTX_free(c->ssl);
	free(c);
}

int rperf_ctrl_tls_new(struct rperf_ctrl_tls_ctx *c, int fd,
		       struct rperf_ctrl_tls **out)
{
	struct rperf_ctrl_tls *t;
	int fl = fcntl(fd, F_GETFL);

	if (!c || fd < 0 || !out)
		return EINVAL;
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return errno;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ENOMEM;
	t->ctx = c;
	t->ssl = SSL_new(c->ssl);
	if (!t->ssl || SSL_set_fd(t->ssl, fd) != 1) {
		SSL_free(t->ssl);
		free(t);
		ERR_clear_error();
		return ENOMEM;
	}
	if (c->server)
		SSL_set_accept_state(t->ssl);
	else
		SSL_set_connect_state(t->ssl);
	*out = t;
	return 0;
}

void rperf_ctrl_tls_free(struct rperf_ctrl_tls *t)
{
	if (!t)
		return;
	if (t->done)
		(void)SSL_shutdown(t->ssl); /* close_notify, best effort */
	SSL_free(t->ssl);
	ERR_clear_error();
	free(t);
}

/* After the handshake: did the peer prove what this end requires? */
static int authenticated(struct rperf_ctrl_tls *t, char *err, size_t errlen)
{
	X509 *peer;

	if (t->ctx->psk) {
		if (SSL_session_reused(t->ssl) == 1)
			return 0;
		snprintf(err, errlen,
			 "TLS handshake without the pre-shared key: refused");
		return EACCES;
	}
	peer = SSL_get1_peer_certificate(t->ssl);
	X509_free(peer);
	if (peer && SSL_get_verify_result(t->ssl) == X509_V_OK)
		return 0;
	snprintf(err, errlen, "the peer's certificate is %s",
		 peer ? X509_verify_cert_error_string(
				SSL_get_verify_result(t->ssl)) :
			"missing");
	return EACCES;
}

/* The reasons that mean "this is not TLS 1.3 at all". */
static bool not_tls(unsigned long e)
{
	switch (ERR_GET_REASON(e)) {
	case SSL_R_WRONG_VERSION_NUMBER:
	case SSL_R_UNSUPPORTED_PROTOCOL:
	case SSL_R_PACKET_LENGTH_TOO_LONG:
	case SSL_R_RECORD_LENGTH_MISMATCH:
	case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
	case SSL_R_HTTP_REQUEST:
		return true;
	default:
		return false;
	}
}

/* The last error is an alert from the peer: it refused us (TLS 1.3: a
 * client learns that its certificate was refused at its first read). */
static bool peer_alert(void)
{
	return ERR_GET_REASON(ERR_peek_last_error()) >= SSL_AD_REASON_OFFSET;
}

/* errno of a failed SSL call @r; EAGAIN with *want. */
static int ssl_errno(SSL *ssl, int r, short *want)
{
	switch (SSL_get_error(ssl, r)) {
	case SSL_ERROR_WANT_READ:
		*want = POLLIN;
		return EAGAIN;
	case SSL_ERROR_WANT_WRITE:
		*want = POLLOUT;
		return EAGAIN;
	case SSL_ERROR_ZERO_RETURN:
		return EPIPE;
	case SSL_ERROR_SYSCALL:
		return errno == EINTR || errno == EAGAIN ? EINTR :
		       errno				 ? errno :
							   EPIPE;
	default:
		return not_tls(ERR_peek_last_error()) ? EPROTO : EACCES;
	}
}

int rperf_ctrl_tls_step(struct rperf_ctrl_tls *t, short *events, char *err,
			size_t errlen)
{
	int r, rc;

	if (t->done)
		return 0;
	ERR_clear_error();
	r = SSL_do_handshake(t->ssl);
	if (r == 1) {
		rc = authenticated(t, err, errlen);
		t->done = rc == 0;
		return rc;
	}
	rc = ssl_errno(t->ssl, r, events);
	if (rc == EINTR) {
		*events = POLLIN;
		return EAGAIN;
	}
	if (rc == EAGAIN)
		return rc;
	if (rc == EACCES || rc == EPROTO)
		ssl_why(err, errlen,
			rc == EPROTO ?
				"the peer does not speak rperf's TLS 1.3" :
				"TLS authentication failed");
	else
		snprintf(err, errlen, "the peer %s during the TLS handshake",
			 rc == EPIPE ? "closed the connection" :
				       "reset the connection");
	ERR_clear_error();
	return rc;
}

int rperf_ctrl_tls_handshake(struct rperf_ctrl_tls *t, int timeout_ms,
			     const volatile sig_atomic_t *stop, char *err,
			     size_t errlen)
{
	uint64_t deadline = rperf_ctrl_deadline(timeout_ms);

	for (;;) {
		short ev = POLLIN;
		int rc = rperf_ctrl_tls_step(t, &ev, err, errlen);

		if (rc != EAGAIN)
			return rc;
		rc = rperf_ctrl_wait(SSL_get_fd(t->ssl), ev, deadline, stop);
		if (rc) {
			snprintf(err, errlen,
				 rc == ETIMEDOUT ?
					 "no TLS handshake within %d ms" :
					 "TLS handshake interrupted (%d ms)",
				 timeout_ms);
			return rc;
		}
	}
}

long rperf_ctrl_tls_recv(struct rperf_ctrl_tls *t, void *buf, size_t n,
			 short *want)
{
	size_t got = 0;
	int r, rc;

	ERR_clear_error();
	r = SSL_read_ex(t->ssl, buf, n, &got);
	if (r == 1)
		return (long)got;
	rc = ssl_errno(t->ssl, r, want);
	if (rc == EACCES && !peer_alert())
		rc = EPROTO; /* a record that does not decrypt */
	ERR_clear_error();
	if (rc == EPIPE)
		return 0; /* close_notify or EOF */
	if (rc == EINTR) {
		*want = POLLIN;
		rc = EAGAIN;
	}
	errno = rc;
	return -1;
}

long rperf_ctrl_tls_send(struct rperf_ctrl_tls *t, const void *buf, size_t n,
			 short *want)
{
	size_t put = 0;
	int r, rc;

	ERR_clear_error();
	r = SSL_write_ex(t->ssl, buf, n, &put);
	if (r == 1)
		return (long)put;
	rc = ssl_errno(t->ssl, r, want);
	ERR_clear_error();
	if (rc == EACCES)
		rc = EPROTO;
	if (rc == EINTR) {
		*want = POLLOUT;
		rc = EAGAIN;
	}
	errno = rc;
	return -1;
}

bool rperf_ctrl_tls_pending(const struct rperf_ctrl_tls *t)
{
	return t && SSL_pending(t->ssl) > 0;
}

void rperf_ctrl_tls_describe(const struct rperf_ctrl_tls *t, char *buf,
			     size_t len)
{
	const SSL_CIPHER *c = t ? SSL_get_current_cipher(t->ssl) : NULL;

	snprintf(buf, len, "TLS 1.3 %s %s",
		 t && t->ctx->psk ? "PSK" : "certificate",
		 c ? SSL_CIPHER_get_name(c) : "?");
}
