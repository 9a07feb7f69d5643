/* SPDX-License-Identifier: BSD-2-Clause */
/* Regular input files only, opened without blocking (regular.h). */
#include "util/regular.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int rperf_open_regular(const char *path, int *fd, const char **kind)
{
	struct stat st;
	int f, fl, rc;

	*kind = "";
	f = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (f < 0)
		return errno;
	if (fstat(f, &st)) {
		rc = errno;
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		*kind = kind_of(st.st_mode);
		rc = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto close_fd;
	}
	fl = fcntl(f, F_GETFL);
	if (fl < 0 || fcntl(f, F_SETFL, fl & ~O_NONBLOCK)) {
		rc = errno;
		goto close_fd;
	}
	*fd = f;
	return 0;
close_fd:
	close(f);
	return rc;
}

FILE *rperf_fopen_regular(const char *path, int *rc, const char **kind)
{
	FILE *f;
	int fd;

	*rc = rperf_open_regular(path, &fd, kind);
	if (*rc)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		*rc = errno;
		close(fd);
	}
	return f;
}
