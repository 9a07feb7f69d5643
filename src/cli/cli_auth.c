/* SPDX-License-Identifier: BSD-2-Clause */
/* --key-file / --cert --key --ca / --insecure (cli_auth.h). */
#include "cli/cli_auth.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cli_auth_load(const struct rperf_cmdline *cfg, bool server, bool launched,
		  struct cli_auth *a, char *err, size_t errlen)
{
	struct rperf_ctrl_tls_ctx *ctx = NULL;
	bool certs = cfg->tls_cert || cfg->tls_key || cfg->tls_ca;
	int rc;

	memset(a, 0, sizeof(*a));
	if (cfg->insecure && (cfg->key_file || certs)) {
		snprintf(
			err, errlen,
			"--insecure with %s: choose one (--insecure is the plain channel)",
			cfg->key_file ? "--key-file" : "certificates");
		return EINVAL;
	}
	if (!cfg->key_file && !certs) {
		if (cfg->insecure || launched)
			return 0;
		snprintf(
			err, errlen,
			"no --key-file and no --cert/--key/--ca: the control channel is authenticated TLS by default; give the agents' key file (chmod 600), certificates, or --insecure for agents started with --insecure");
		return EACCES;
	}
	if (cfg->key_file) {
		size_t n = 0;
		char why[400] = "";

		rc = rperf_proto_key_load(cfg->key_file, a->key, &n, why,
					  sizeof(why));
		if (rc) {
			snprintf(err, errlen, "--key-file: %s", why);
			return rc;
		}
		a->auth.psk = a->key;
		a->auth.psklen = n;
	}
	a->auth.cert = cfg->tls_cert;
	a->auth.key = cfg->tls_key;
	a->auth.ca = cfg->tls_ca;
	rc = rperf_ctrl_tls_ctx_create(&a->auth, server, &ctx, err, errlen);
	rperf_ctrl_tls_ctx_free(ctx);
	if (rc)
		cli_auth_clear(a);
	return rc;
}

void cli_auth_clear(struct cli_auth *a)
{
	memset(a->key, 0, sizeof(a->key));
	a->auth.psk = NULL;
	a->auth.psklen = 0;
}
