/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lab-ptyrun OUT CMD [ARGS...]: runs CMD on a new pseudo-terminal (its
 * stdin, stdout and stderr) and writes every byte the terminal got to the
 * file OUT, escapes and carriage returns kept. Exits with CMD's status
 * (128 + N when a signal N ended it). The lab VM has no python3 and no
 * script(1): the suites use this to see what a user's terminal shows
 * (tests/lab/suites/perftest-out.sh: the progress line of -a).
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int copy_all(int from, int to)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) /* EIO: the child's side is closed */
			return 0;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(to, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return errno;
			off += w;
		}
	}
}

int main(int argc, char **argv)
{
	int master, out, status, rc;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: lab-ptyrun OUT CMD [ARGS...]\n");
		return 2;
	}
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "lab-ptyrun: %s: %s\n", argv[1],
			strerror(errno));
		return 2;
	}
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		fprintf(stderr, "lab-ptyrun: forkpty: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "lab-ptyrun: %s: %s\n", argv[2],
			strerror(errno));
		_exit(127);
	}
	rc = copy_all(master, out);
	if (rc)
		fprintf(stderr, "lab-ptyrun: %s: %s\n", argv[1], strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 2;
	close(master);
	if (close(out) || rc)
		return 2;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
