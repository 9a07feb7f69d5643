// SPDX-License-Identifier: BSD-2-Clause
/*
 * Atomic file writes: the content goes to "<path>.tmp.XXXXXX" (mkstemp, same
 * directory, hence same file system), is flushed and fsync'ed, then renamed
 * over @path. On any error the temporary file is removed and @path is left
 * as it was. The directory is fsync'ed after the rename (best effort).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_int.h"

/*
 * mkstemp creates 0600; give the file the mode a plain fopen would have
 * (0666 & ~umask), or the mode of the file it replaces. The umask is read
 * from /proc/self/status (reading it with umask() would change it).
 */
static mode_t new_file_mode(const char *path)
{
	unsigned int mask = 022;
	struct stat st;
	FILE *f;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	f = fopen("/proc/self/status", "re");
	if (f) {
		char line[128];

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Umask: %o", &mask) == 1)
				break;
		fclose(f);
	}
	return 0666 & ~(mode_t)mask;
}

static void fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(copy);
}

/* Write, flush, sync and close @f; returns 0 or an errno. */
static int finish_file(FILE *f, int (*fn)(FILE *f, void *arg), void *arg)
{
	int err = fn(f, arg);

	if (!err && (fflush(f) != 0 || ferror(f)))
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(f)) != 0)
		err = errno;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	return err;
}

int rperf_atomic_write(const char *path, int (*fn)(FILE *f, void *arg),
		       void *arg)
{
	size_t len;
	char *tmp;
	FILE *f;
	int fd, err;

	if (!path || !*path || !fn)
		return EINVAL;
	len = strlen(path) + sizeof(".tmp.XXXXXX");
	tmp = malloc(len);
	if (!tmp)
		return ENOMEM;
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		return err;
	}
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	(void)fchmod(fd, new_file_mode(path));
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		goto err_unlink;
	}
	errno = 0;
	err = finish_file(f, fn, arg);
	if (err)
		goto err_unlink;
	if (rename(tmp, path) != 0) {
		err = errno;
		goto err_unlink;
	}
	free(tmp);
	fsync_dir_of(path);
	return 0;

err_unlink:
	unlink(tmp);
	free(tmp);
	return err;
}

struct write_job {
	enum rperf_report_format fmt;
	const struct rperf_report *r;
};

static int write_job_fn(FILE *f, void *arg)
{
	const struct write_job *job = arg;

	switch (job->fmt) {
	case RPERF_FMT_TEXT:
		return rperf_report_text(f, job->r);
	case RPERF_FMT_JSON:
		return rperf_report_json(f, job->r);
	case RPERF_FMT_CSV:
		return rperf_report_csv(f, job->r);
	}
	return EINVAL;
}

int rperf_report_write_file(const char *path, enum rperf_report_format fmt,
			    const struct rperf_report *r)
{
	struct write_job job = { .fmt = fmt, .r = r };

	if (!r || (fmt != RPERF_FMT_TEXT && fmt != RPERF_FMT_JSON &&
		   fmt != RPERF_FMT_CSV))
		return EINVAL;
	return rperf_atomic_write(path, write_job_fn, &job);
}

int rperf_atomic_check(const char *path)
{
	struct stat st;
	size_t len;
	char *tmp;
	int fd, err = 0;

	if (!path || !*path)
		return EINVAL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return EISDIR;
	len = strlen(path) + sizeof(".probe.XXXXXX");
	tmp = malloc(len);
	if (!tmp)
		return ENOMEM;
	snprintf(tmp, len, "%s.probe.XXXXXX", path);
	fd = mkstemp(tmp); /* what rperf_atomic_write will do at the end */
	if (fd < 0)
		err = errno;
	else
		close(fd), unlink(tmp);
	free(tmp);
	return err;
}
