/*
 * zeroout.c - zeros the kernel writes (FEATURE_DD_ZEROOUT).  When the
 * output is a block device and a stretch of the input is known to be
 * zeros - the input is /dev/zero, or a hole of a regular file
 * (SEEK_DATA/SEEK_HOLE) - the device is asked to zero that range
 * (BLKZEROOUT, or fallocate's FALLOC_FL_ZERO_RANGE) instead of being
 * sent zero pages; holes are never read.  Data between holes is read
 * and written in steps.  The device then holds what the record loop
 * would have left there: zeroing is never left to a discard.
 *
 * What is past the device's end, and O_DIRECT's short last record, go
 * to the record loop, which meets them as GNU does.  Records follow
 * from the byte count, as in a coalesced copy.  A fault of any call
 * hands the copy, where it stands, to the record loop, which meets the
 * fault again with GNU's message.  Where the device can't zero
 * (EOPNOTSUPP, EINVAL, ENOTTY), zeros are written, silently.
 */
//config:config FEATURE_DD_ZEROOUT
//config:	bool "Zeros the kernel writes, holes never read"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  Into a block device, zeros from /dev/zero or from the holes
//config:	  of a regular file are written by the device (BLKZEROOUT),
//config:	  in a fraction of the time; holes are not read.  The device
//config:	  ends with the same bytes.


#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs.h"

/* A zeroing step: large enough to be fast, small enough that a slow
 * card answers SIGUSR1 and the progress line between steps. */
enum { ZERO_STEP = 64 << 20 };
/* A data step: read, then written. */
enum { DATA_STEP = 4 << 20 };
/* Written zeros, where the device can't zero or a range is unaligned. */
enum { ZERO_BUFFER = 1 << 20 };
enum { SECTOR = 512 };

/* How zeros get to the device; each way that fails as unsupported
 * gives way to the next. */
enum zero_way { ZERO_IOCTL, ZERO_FALLOCATE, ZERO_WRITE };

struct zeroout {
	struct dd_run *run;
	enum zero_way way;
	uint64_t align;                 /* the device's logical block */
	struct lazy_buffer data;        /* data steps land here */
	struct lazy_buffer zeros;       /* never written: reads as zeros */
};

static bool unsupported(int err)
{
	return err == EOPNOTSUPP || err == EINVAL || err == ENOTTY
		|| err == ENOSYS;
}

bool zeroout_applies(const struct dd_options *opt, const struct dd_plan *plan,
		     const struct io_end *in, const struct io_end *out)
{
	/* conv=verify hashes every byte written, so they must be written. */
	unsigned looking = CONV_SYNC | CONV_NOERROR | CONV_SWAB | CONV_SPARSE
		| CONV_VERIFY;
	bool out_direct = opt->output_open_flags & O_DIRECT;

	if (in->stat_errno || out->stat_errno || !S_ISBLK(out->st.st_mode)
	    || io_end_is_nonblocking(in) || io_end_is_nonblocking(out))
		return false;
	/* A file dd opened: seeking for holes moves the offset, which an
	 * inherited descriptor may share. */
	if (!is_dev_zero(&in->st) && !(S_ISREG(in->st.st_mode) && opt->input_path))
		return false;
	if (opt->reshaping || (opt->conv & looking) || opt->ibs != opt->obs
	    || (opt->input_open_flags & O_DIRECT))
		return false;
	/* fullblock drops a record whose read fails part-way: data steps
	 * would write its start first (a read of /dev/zero never fails). */
	if ((opt->input_flags & FLAG_FULLBLOCK) && !is_dev_zero(&in->st))
		return false;
	/* O_DIRECT writes need whole sectors where they start and end. */
	if (out_direct && (opt->obs % SECTOR || plan->seek_offset % SECTOR
			   || plan->skip_offset % SECTOR))
		return false;
	return true;
}

/* Zero [offset, offset + len) of the output, len > 0.  Returns the bytes
 * zeroed, or 0 with errno for the record loop to meet. */
static size_t write_zeros(struct zeroout *z, uint64_t offset, size_t len)
{
	struct dd_run *run = z->run;

	if (len > z->zeros.capacity)
		len = z->zeros.capacity;
	return transfer_write(&run->transfer, run->out.fd, z->zeros.data, len,
			      (int64_t)offset);
}

static bool device_zero(struct zeroout *z, uint64_t offset, uint64_t len)
{
	int fd = z->run->out.fd;

	while (z->way != ZERO_WRITE) {
		uint64_t range[2] = { offset, len };
		int r = z->way == ZERO_IOCTL ? ioctl(fd, BLKZEROOUT, range)
			: fallocate(fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
				    (off_t)offset, (off_t)len);

		if (r == 0)
			return true;
		if (transfer_retry(&z->run->transfer))
			continue;
		if (!unsupported(errno))
			return false;
		z->way++;       /* the next way, for this call and the rest */
	}
	errno = EOPNOTSUPP;
	return false;
}

/* Zero up to len bytes at offset: the unaligned head, or the aligned
 * middle (the device's, unless it can't), or the tail, one at a time. */
static size_t zero_range(struct zeroout *z, uint64_t offset, uint64_t len)
{
	uint64_t head = (z->align - offset % z->align) % z->align;
	uint64_t middle;

	if (head)
		return write_zeros(z, offset, (size_t)min_u64(head, len));
	middle = len - len % z->align;
	if (middle && z->way != ZERO_WRITE) {
		if (device_zero(z, offset, middle))
			return (size_t)middle;
		if (z->way != ZERO_WRITE)
			return 0;       /* a real fault */
	}
	return write_zeros(z, offset, (size_t)min_u64(len, ZERO_BUFFER));
}

/* Read, then write, up to len bytes of data.  Returns the bytes moved,
 * or 0 for the record loop. */
static size_t copy_data(struct zeroout *z, uint64_t in_at, uint64_t out_at,
			size_t len)
{
	struct dd_run *run = z->run;
	ssize_t n;

	if (len > z->data.capacity)
		len = z->data.capacity;
	do
		n = pread(run->in.fd, z->data.data, len, (off_t)in_at);
	while (n < 0 && transfer_retry(&run->transfer));
	if (n <= 0)
		return 0;
	return transfer_write(&run->transfer, run->out.fd, z->data.data,
			      (size_t)n, (int64_t)out_at);
}

/* Where the input stands at offset: a hole (*hole true) or data, and
 * how far that goes (at most to end).  /dev/zero is all hole. */
static uint64_t input_extent(struct zeroout *z, uint64_t offset, uint64_t end,
			     bool *hole)
{
	int fd = z->run->in.fd;
	uint64_t len;

	*hole = true;
	if (is_dev_zero(&z->run->in.st))
		return end - offset;
	len = file_hole_length(fd, offset, end);
	if (len)
		return len;
	*hole = false;
	return file_data_length(fd, offset, end);
}

/*
 * Where the copy ends (count=, or the input's end: *end), and the bytes
 * the mover may take.  Past the device's end is the record loop's (the
 * write that fails), and so is O_DIRECT's short last record (its write
 * drops O_DIRECT): the mover stops at the last whole record before.
 */
static uint64_t mover_limit(const struct dd_run *run, uint64_t *end)
{
	uint64_t in_at = run->tally.in_offset, out_at = run->tally.out_offset;
	uint64_t out_left = run->out.size > out_at ? run->out.size - out_at : 0;
	uint64_t limit;

	*end = run->plan.count_bytes;
	if (run->in.size_known)
		*end = min_u64(*end, run->in.size > in_at ? run->in.size - in_at : 0);
	limit = *end;
	if (limit > out_left || (run->opt->output_open_flags & O_DIRECT)) {
		limit = min_u64(limit, out_left);
		limit -= limit % run->opt->ibs;
	}
	return limit;
}

static bool zeroout_setup(struct zeroout *z, struct dd_run *run)
{
	int sector = 0;

	z->run = run;
	z->way = ZERO_IOCTL;
	z->align = SECTOR;
	if (ioctl(run->out.fd, BLKSSZGET, &sector) == 0 && sector > 0)
		z->align = (uint64_t)sector;
	z->data.data = z->zeros.data = NULL;
	if (lazy_buffer_alloc(&z->zeros, ZERO_BUFFER) != 0)
		return false;
	if (!is_dev_zero(&run->in.st) && lazy_buffer_alloc(&z->data, DATA_STEP) != 0) {
		lazy_buffer_free(&z->zeros);
		return false;
	}
	return true;
}

static bool seek_to(const struct io_end *end, uint64_t offset)
{
	if (lseek(end->fd, (off_t)offset, SEEK_SET) >= 0)
		return true;
	report_seek_error(end);
	return false;
}

bool copy_zeroout(struct dd_run *run)
{
	struct zeroout z;
	uint64_t end, limit = mover_limit(run, &end), moved = 0;
	bool from_input = !is_dev_zero(&run->in.st);

	if (!zeroout_setup(&z, run))
		return false;
	for (;;) {
		uint64_t in_at = run->tally.in_offset;
		uint64_t out_at = run->tally.out_offset;
		uint64_t extent;
		size_t n;
		bool hole;

		tally_coalesced(run, moved, false);
		housekeep(run);
		if (moved >= limit)
			break;
		extent = input_extent(&z, in_at, in_at + (limit - moved), &hole);
		if (hole)
			n = zero_range(&z, out_at, min_u64(extent, ZERO_STEP));
		else
			n = copy_data(&z, in_at, out_at, (size_t)min_u64(extent, DATA_STEP));
		if (n == 0)
			break;
		moved += n;
		tally_moved(run, n, from_input);
	}
	tally_coalesced(run, moved, moved == end);
	lazy_buffer_free(&z.zeros);
	if (z.data.data)
		lazy_buffer_free(&z.data);
	/* The record loop goes on from the tally's offsets; where an end
	 * can't be put there, nothing after it can be trusted. */
	if (from_input && !seek_to(&run->in, run->tally.in_offset))
		return true;
	if (!seek_to(&run->out, run->tally.out_offset))
		return true;
	return moved == end;
}
