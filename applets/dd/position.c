/*
 * position.c - where the data comes from and where it goes: opening the
 * input and output, skip= on the input and seek= on the output.
 *
 * Order matters for safety: dd opens the input and skips, plans and
 * allocates its buffers, and only then opens (and maybe truncates) the
 * output, so a run that cannot start leaves an existing output alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "dd.h"

/* iflag=/oflag= on standard input/output: add them with fcntl, as GNU
 * does.  Creation-only flags mean nothing there; directory is checked. */
static void set_fd_flags(int fd, int add, const char *name)
{
	int old, wanted;
	struct stat st;

	add &= ~(O_NOCTTY | O_NOFOLLOW);
	if (!add)
		return;
	old = fcntl(fd, F_GETFL);
	if (old < 0)
		goto fail;
	wanted = old | add;
	if (wanted == old)
		return;
	if (wanted & O_DIRECTORY) {
		if (fstat(fd, &st) != 0)
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		wanted &= ~O_DIRECTORY;
	}
	if (wanted == old || fcntl(fd, F_SETFL, wanted) == 0)
		return;
 fail:
	bb_perror_msg_and_die("setting flags for %s", quote_always(name));
}

/* Size of a regular file or block device; 0 with *known false otherwise. */
static uint64_t data_size(int fd, const struct stat *st, bool *known)
{
	uint64_t size = 0;

	*known = true;
	if (S_ISREG(st->st_mode))
		return (uint64_t)st->st_size;
	if (S_ISBLK(st->st_mode) && ioctl(fd, BLKGETSIZE64, &size) == 0)
		return size;
	*known = false;
	return 0;
}

void open_input(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	struct stat st;
	off_t offset;

	if (opt->input_path) {
		run->in_name = opt->input_path;
		run->in_fd = open(opt->input_path, O_RDONLY | opt->input_open_flags);
		if (run->in_fd < 0)
			bb_perror_msg_and_die("failed to open %s",
					      quote_always(run->in_name));
	} else {
		run->in_name = "standard input";
		run->in_fd = STDIN_FILENO;
		set_fd_flags(run->in_fd, opt->input_open_flags, run->in_name);
	}

	offset = lseek(run->in_fd, 0, SEEK_CUR);
	run->in_seekable = offset >= 0;
	run->in_seek_errno = offset >= 0 ? 0 : errno;
	run->in_offset = offset >= 0 ? (uint64_t)offset : 0;

	/* Unknown type if fstat fails (a closed standard input): the first
	 * read then reports the error, as in GNU. */
	if (fstat(run->in_fd, &st) != 0)
		memset(&st, 0, sizeof(st));
	run->in_mode = st.st_mode;
	run->in_size = data_size(run->in_fd, &st, &run->in_size_known);
}

/* The input offset after skip=, clamped to the data size, as computed
 * from arithmetic alone (plan.c sizes buffers before skipping). */
uint64_t input_start_offset(const struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t skip, start;

	if (__builtin_mul_overflow(opt->skip_records, opt->ibs, &skip)
	    || __builtin_add_overflow(skip, opt->skip_bytes, &skip)
	    || __builtin_add_overflow(skip, run->in_offset, &start))
		return UINT64_MAX;
	return start;
}

/*
 * Skip by reading: for pipes and other unseekable input.  Each read
 * counts as one record, however short, as in GNU.  Returns the records
 * not skipped (input ended first).
 */
static uint64_t skip_by_reading(struct dd_run *run, uint64_t records,
				uint64_t *bytes)
{
	while (records || *bytes) {
		size_t want = records ? (size_t)run->opt->ibs : (size_t)*bytes;
		ssize_t n = read_input(run, want);

		if (n < 0) {
			bb_perror_msg("error reading %s", quote_always(run->in_name));
			if (run->opt->conv & CONV_NOERROR)
				print_summary(run);
			die_with_summary(run);
		}
		if (n == 0)
			break;
		run->in_offset += (uint64_t)n;
		if (records)
			records--;
		else
			*bytes = 0;
	}
	return records;
}

/* Called when lseek for skip= failed on input that has an end: the
 * offset is out of range, which GNU treats as fatal. */
static void die_cannot_skip(struct dd_run *run, int err)
{
	errno = err ? err : EOVERFLOW;
	bb_perror_msg("%s: cannot skip", quote_if_needed(run->in_name));
	die_with_summary(run);
}

void skip_input(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t records = opt->skip_records, bytes = opt->skip_bytes;
	uint64_t wanted, offset, before = run->in_offset;
	bool wanted_overflow;

	if (!records && !bytes)
		return;
	wanted_overflow = __builtin_mul_overflow(records, opt->ibs, &wanted)
		|| __builtin_add_overflow(wanted, bytes, &wanted);

	errno = 0;
	if (!wanted_overflow && wanted <= INT64_MAX
	    && lseek(run->in_fd, (off_t)wanted, SEEK_CUR) >= 0) {
		offset = wanted;
		records = 0;
		/* Past the end: stop at the end, and say so below. */
		if (run->in_size_known && run->in_offset <= run->in_size
		    && run->in_size - run->in_offset < wanted) {
			records = (wanted - (run->in_size - run->in_offset)) / opt->ibs;
			offset = run->in_size - run->in_offset;
			lseek(run->in_fd, (off_t)run->in_size, SEEK_SET);
		}
		run->in_offset += offset;
	} else {
		int err = errno;

		if (lseek(run->in_fd, 0, SEEK_END) >= 0)
			die_cannot_skip(run, err);
		records = skip_by_reading(run, records, &bytes);
	}

	/* dd_main says so once the output is open. */
	run->skip_short = records
		|| (!wanted_overflow && wanted != run->in_offset - before);
}

/* The output's byte offset for seek=, or die as GNU does when it can't
 * be represented. */
static uint64_t seek_offset(const struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t offset;

	if (__builtin_mul_overflow(opt->seek_records, opt->obs, &offset)
	    || __builtin_add_overflow(offset, opt->seek_bytes, &offset)
	    || offset > INT64_MAX)
		bb_error_msg_and_die("offset too large: cannot truncate to a length"
				     " of seek=%llu (%llu-byte) blocks",
				     (unsigned long long)opt->seek_records,
				     (unsigned long long)opt->obs);
	return offset;
}

/*
 * seek= on output that lseek can't move: read over the blocks (a tape
 * opened read-write), then write zero blocks for what reading could not
 * pass, as GNU does.  A pipe can't be read, so it fails here.
 */
static void seek_by_reading(struct dd_run *run, int lseek_errno)
{
	const struct dd_options *opt = run->opt;
	uint64_t records = opt->seek_records, bytes = opt->seek_bytes;
	struct lazy_buffer scratch = { NULL, 0 };

	if (lazy_buffer_alloc(&scratch, opt->obs) != 0)
		die_memory_exhausted("output", opt->obs);
	while (records || bytes) {
		size_t size = records ? (size_t)opt->obs : (size_t)bytes;
		ssize_t n = safe_read(run->out_fd, scratch.data, size);

		if (n < 0) {
			errno = lseek_errno;
			bb_perror_msg("%s: cannot seek", quote_if_needed(run->out_name));
			die_with_summary(run);
		}
		if (n == 0)
			break;
		if (records)
			records--;
		else
			bytes = 0;
	}
	/* A fresh mapping reads as zeros: the blocks to write. */
	lazy_buffer_free(&scratch);
	if (lazy_buffer_alloc(&scratch, opt->obs) != 0)
		die_memory_exhausted("output", opt->obs);
	while (records || bytes) {
		size_t size = records ? (size_t)opt->obs : (size_t)bytes;

		if (full_write(run->out_fd, scratch.data, size) != (ssize_t)size) {
			bb_perror_msg("writing to %s", quote_always(run->out_name));
			die_with_summary(run);
		}
		if (records)
			records--;
		else
			bytes = 0;
	}
	lazy_buffer_free(&scratch);
}

void open_output(struct dd_run *run)
{
	const struct dd_options *opt = run->opt;
	uint64_t offset = 0;
	bool seeking = opt->seek_records || opt->seek_bytes;
	/* Like GNU, never truncate standard output: it was opened by the
	 * caller, who may be appending to it. */
	bool truncating = opt->output_path && opt->seek_records
		&& !(opt->conv & CONV_NOTRUNC);
	struct stat st;
	off_t pos;
	int err;

	if (seeking)
		offset = seek_offset(run);

	if (opt->output_path) {
		int flags = opt->output_open_flags
			| (opt->conv & CONV_NOCREAT ? 0 : O_CREAT)
			| (opt->conv & CONV_EXCL ? O_EXCL : 0)
			| (opt->seek_records || (opt->conv & CONV_NOTRUNC) ? 0 : O_TRUNC);

		run->out_name = opt->output_path;
		/* Read access lets seek= read over a tape's blocks; GNU asks for
		 * it when seeking and falls back to write-only. */
		run->out_fd = -1;
		if (opt->seek_records)
			run->out_fd = open(run->out_name, O_RDWR | flags, 0666);
		if (run->out_fd < 0)
			run->out_fd = open(run->out_name, O_WRONLY | flags, 0666);
		if (run->out_fd < 0)
			bb_perror_msg_and_die("failed to open %s",
					      quote_always(run->out_name));
	} else {
		run->out_name = "standard output";
		run->out_fd = STDOUT_FILENO;
		set_fd_flags(run->out_fd, opt->output_open_flags, run->out_name);
	}

	/* A closed standard output: the first write reports it. */
	if (fstat(run->out_fd, &st) != 0)
		memset(&st, 0, sizeof(st));
	run->out_mode = st.st_mode;

	/* Only regular files, directories and shared memory can fail to
	 * truncate in a way POSIX cares about; GNU ignores the rest. */
	if (truncating && ftruncate(run->out_fd, (off_t)offset) != 0
	    && S_ISREG(st.st_mode))
		bb_perror_msg_and_die("failed to truncate to %llu bytes"
				      " in output file %s",
				      (unsigned long long)offset,
				      quote_always(run->out_name));

	pos = lseek(run->out_fd, 0, SEEK_CUR);
	run->out_offset = pos > 0 ? (uint64_t)pos : 0;
	if (!seeking)
		return;
	errno = 0;
	pos = lseek(run->out_fd, (off_t)offset, SEEK_CUR);
	if (pos >= 0) {
		run->out_offset = (uint64_t)pos;
		return;
	}
	err = errno;
	if (lseek(run->out_fd, 0, SEEK_END) >= 0) {
		errno = err ? err : EOVERFLOW;
		bb_perror_msg("%s: cannot seek", quote_if_needed(run->out_name));
		die_with_summary(run);
	}
	seek_by_reading(run, err);
}
