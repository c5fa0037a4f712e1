/* ends.c - opening the input and the output, learning once what each is. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs/jobs.h"

/* iflag=/oflag= on stdin/stdout: by fcntl as GNU, less creation-only flags. */
static void set_fd_flags(int fd, int add, const char *name)
{
	int old, wanted;
	struct stat st;

	add &= ~(O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_NOCTTY | O_NOFOLLOW);
	if (!add)
		return;
	old = fcntl(fd, F_GETFL);
	if (old < 0)
		goto fail;
	wanted = old | add;
	if (wanted & O_DIRECTORY) {
		errno = ENOTDIR;   /* unless fstat fails */
		if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode))
			goto fail;
		wanted &= ~O_DIRECTORY;
	}
	if (wanted == old || fcntl(fd, F_SETFL, wanted) == 0)
		return;
 fail:
	bb_perror_msg_and_die("setting flags for %s", quote_always(name));
}

/* open(2), kept off descriptors 0 to 2 (an output opened there could be
 * read as the input); retried after a signal while a fifo's open waits. */
static int open_file(struct dd_run *run, const char *name, int flags)
{
	int fd;

	do
		fd = open(name, flags, 0666);
	while (fd < 0 && transfer_retry(&run->transfer));
	if (fd >= 0 && fd <= STDERR_FILENO) {
		int high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);

		close(fd);
		fd = high;
	}
	return fd;
}

/* Opens path, or takes std_fd, as end.  O_RDWR lets seek= read over a
 * tape's blocks; as GNU, write-only if that fails. */
static void open_end(struct dd_run *run, struct io_end *end, const char *path,
		     int std_fd, int flags)
{
	const char *name = std_fd ? "standard output" : "standard input";
	int fd = std_fd;

	if (path) {
		name = path;
		fd = open_file(run, name, flags);
		if (fd < 0 && (flags & O_ACCMODE) == O_RDWR)
			fd = open_file(run, name, (flags & ~O_RDWR) | O_WRONLY);
		if (fd < 0 && CLAIMING_JOBS && errno == EBUSY
		    && (flags & O_EXCL) && !(flags & O_CREAT))
			die_claimed(name);
		if (fd < 0)
			bb_perror_msg_and_die("failed to open %s", quote_always(name));
	} else {
		set_fd_flags(fd, flags, name);
	}
	io_end_learn(end, fd, name);
}

void open_input(struct dd_run *run)
{
	open_end(run, &run->in, run->opt->input_path, STDIN_FILENO,
		 O_RDONLY | run->opt->input_open_flags);
}

void open_output(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	const struct io_end *out = &run->out;
	bool exclusive;
	int err;

	/* GNU checks this before opening: nothing is created or cut. */
	if (run->plan.seek_too_large)
		bb_error_msg_and_die("offset too large: cannot truncate to a length"
				     " of seek=%llu (%llu-byte) blocks",
				     (unsigned long long)opt->seek_records,
				     (unsigned long long)opt->obs);
	exclusive = CLAIMING_JOBS && jobs_claim_output(opt);
	open_end(run, &run->out, opt->output_path, STDOUT_FILENO,
		 opt->output_open_flags
		 | (opt->conv & CONV_NOCREAT || exclusive ? 0 : O_CREAT)
		 | (opt->conv & CONV_EXCL || exclusive ? O_EXCL : 0)
		 | (opt->seek_records || (opt->conv & CONV_NOTRUNC) ? 0 : O_TRUNC)
		 | (opt->seek_records ? O_RDWR : O_WRONLY));
	/* seek= truncates a file it opened (not standard output).  A failure
	 * on the types POSIX cares about ends dd, as in GNU 9.10 (README). */
	if (!opt->output_path || !opt->seek_records || (opt->conv & CONV_NOTRUNC)
	    || ftruncate(out->fd, (off_t)run->plan.seek_offset) == 0)
		return;
	err = errno;
	if (out->stat_errno)
		bb_errno_msg_and_die(out->stat_errno, "cannot fstat %s",
				     quote_always(out->name));
	if (S_ISREG(out->st.st_mode) || S_ISDIR(out->st.st_mode))
		bb_errno_msg_and_die(err, "failed to truncate to %llu bytes"
				     " in output file %s",
				     (unsigned long long)run->plan.seek_offset,
				     quote_always(out->name));
}
