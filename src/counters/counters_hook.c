/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE /* pipe2 */
/* A switch's counters command: run with a deadline, its `name value
 * [gauge]` lines parsed (counters_hook.h). */
#include "counters/counters_hook.h"
#include "util/mono.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* One line: 0, 1 (nothing on it) or EINVAL. */
static int parse_line(char *line, const char *prefix,
		      struct rperf_ctr_reading *r)
{
	char name[RPERF_CTR_NAME], *tok, *val, *kind, *end, *save;
	unsigned long long v;

	tok = strtok_r(line, " \t\r", &save);
	if (!tok || tok[0] == '#')
		return 1;
	val = strtok_r(NULL, " \t\r", &save);
	kind = strtok_r(NULL, " \t\r", &save);
	if (!val || (kind && strcmp(kind, "gauge")) ||
	    strtok_r(NULL, " \t\r", &save) || val[0] < '0' || val[0] > '9')
		return EINVAL;
	errno = 0;
	v = strtoull(val, &end, 10);
	if (errno || *end || v == RPERF_CTR_MISSING)
		return EINVAL;
	if (snprintf(name, sizeof(name), "%s%s", prefix, tok) >=
	    (int)sizeof(name))
		return EINVAL;
	return rperf_ctr_add(r, name, v, kind != NULL);
}

int rperf_ctr_parse_lines(const char *text, const char *prefix,
			  struct rperf_ctr_reading *r, char *err, size_t errlen)
{
	size_t n0 = r->n, lineno = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[256];
		int rc;

		lineno++;
		if (len >= sizeof(line)) {
			rc = EINVAL;
		} else {
			memcpy(line, p, len);
			line[len] = '\0';
			rc = parse_line(line, prefix, r);
		}
		if (rc > 1 || rc < 0) {
			r->n = n0;
			return rperf_fail(
				err, errlen, EINVAL,
				"line %zu: %s; print one 'name value' or 'name value gauge' a line (value: an unsigned integer)",
				lineno,
				rc == E2BIG ? "more than 512 counters" :
					      "not 'name value [gauge]'");
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

/* The child: stdout into @wfd, stdin and stderr /dev/null, its own
 * process group (so that the deadline kills what it started too). Only
 * async-signal-safe calls: the controller has threads. */
static void child(const char *cmd, int wfd)
{
	int nul = open("/dev/null", O_RDWR);

	setpgid(0, 0);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 2);
	}
	dup2(wfd, 1);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	_exit(127);
}

/* Read @fd until EOF or @deadline: 0, ETIMEDOUT or EMSGSIZE. */
static int slurp(int fd, uint64_t deadline, char *buf, size_t cap, size_t *len)
{
	for (;;) {
		uint64_t now = rperf_mono_ns();
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		ssize_t got;
		int ms;

		if (now >= deadline)
			return ETIMEDOUT;
		ms = (int)((deadline - now) / 1000000) + 1;
		if (poll(&pf, 1, ms) < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (!pf.revents)
			continue;
		if (*len + 1 >= cap)
			return EMSGSIZE;
		got = read(fd, buf + *len, cap - 1 - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? errno : 0;
		*len += (size_t)got;
	}
}

static void status_why(int st, char *why, size_t len)
{
	if (WIFEXITED(st))
		snprintf(why, len, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(why, len, "killed by signal %d", WTERMSIG(st));
	else
		snprintf(why, len, "ended abnormally");
}

int rperf_ctr_hook_run(const char *cmd, const char *prefix,
		       uint64_t deadline_ns, struct rperf_ctr_reading *r,
		       char *why, size_t whylen)
{
	char *buf, perr[160] = "";
	int pfd[2], st = 0, rc;
	size_t len = 0;
	pid_t pid;

	buf = malloc(RPERF_CTR_HOOK_OUT);
	if (!buf)
		return ENOMEM;
	if (pipe2(pfd, O_CLOEXEC)) {
		rc = errno;
		snprintf(why, whylen, "pipe: %s", strerror(rc));
		goto free_buf;
	}
	pid = fork();
	if (pid == 0)
		child(cmd, pfd[1]);
	if (pid > 0) /* its group now, whoever runs first (EACCES after exec) */
		(void)setpgid(pid, pid);
	close(pfd[1]);
	if (pid < 0) {
		rc = errno;
		snprintf(why, whylen, "fork: %s", strerror(rc));
		goto close_pipe;
	}
	rc = slurp(pfd[0], rperf_mono_ns() + deadline_ns, buf,
		   RPERF_CTR_HOOK_OUT, &len);
	if (rc && kill(-pid, SIGKILL)) /* the command and what it started */
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	buf[len] = '\0';
	if (rc == ETIMEDOUT)
		snprintf(why, whylen, "cut at its deadline (%.3f s)",
			 (double)deadline_ns / 1e9);
	else if (rc == EMSGSIZE)
		snprintf(why, whylen, "more than %d bytes of output: cut",
			 RPERF_CTR_HOOK_OUT - 1);
	else if (rc)
		snprintf(why, whylen, "reading its output: %s", strerror(rc));
	else if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		status_why(st, why, whylen);
		rc = EIO;
	} else if (rperf_ctr_parse_lines(buf, prefix, r, perr, sizeof(perr))) {
		snprintf(why, whylen, "output %s", perr);
		rc = EBADMSG;
	}
close_pipe:
	close(pfd[0]);
free_buf:
	free(buf);
	return rc;
}
