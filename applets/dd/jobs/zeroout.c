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
 *
 * With oflag=direct, each of GNU's writes reaches the device before the
 * next begins, and a failing one leaves every byte after its record as
 * it was.  A step of many records can't promise that: the kernel zeroes
 * (or writes) all of a range that it can, around a failed sector.  So
 * there no step crosses a record's end, and a record counts once all of
 * it is done: one that fails part-way is handed over from its start,
 * and the record loop's one write of it fails as GNU's.  oflag=dsync and
 * sync are left to the record loop: their writes go through the page
 * cache, whose write-back fails a page or a request at a time, which
 * zeroing can't do the same way.
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

#include "entries.h"

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
	bool by_record;                 /* oflag=direct: a record a step */
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
	/* dsync's page-cache writes fail as zeroing can't (see above). */
	if (opt->reshaping || (opt->conv & looking) || opt->ibs != opt->obs
	    || (opt->input_open_flags & O_DIRECT)
	    || (opt->output_open_flags & O_DSYNC))
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

/* The bytes moved that count: all of them; with oflag=direct, only
 * whole records (and the copy's short last one), so that the record
 * loop redoes a record that failed part-way from its start, whole, as
 * GNU's one write of it fails. */
static uint64_t settled(const struct zeroout *z, uint64_t moved, uint64_t end)
{
	if (!z->by_record || moved == end)
		return moved;
	return moved - moved % z->run->opt->ibs;
}

static bool zeroout_setup(struct zeroout *z, struct dd_run *run)
{
	int sector = 0;

	z->run = run;
	z->way = ZERO_IOCTL;
	z->by_record = (run->opt->output_open_flags & O_DIRECT) != 0;
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
	uint64_t end, limit = mover_limit(run, &end), moved = 0, counted = 0;
	bool from_input = !is_dev_zero(&run->in.st);

	if (!zeroout_setup(&z, run))
		return false;
	for (;;) {
		uint64_t in_at = run->tally.in_offset + (moved - counted);
		uint64_t out_at = run->tally.out_offset + (moved - counted);
		uint64_t extent, now = settled(&z, moved, end);
		size_t n;
		bool hole;

		if (from_input)
			tally_moved(run, now - counted);
		else
			tally_output(run, now - counted);
		counted = now;
		tally_coalesced(run, counted, COALESCED_SO_FAR);
		housekeep(run);
		if (moved >= limit)
			break;
		extent = input_extent(&z, in_at, in_at + (limit - moved), &hole);
		/* No step past a record's end where records fail one by one. */
		if (z.by_record)
			extent = min_u64(extent, run->opt->ibs - moved % run->opt->ibs);
		if (hole)
			n = zero_range(&z, out_at, min_u64(extent, ZERO_STEP));
		else
			n = copy_data(&z, in_at, out_at, (size_t)min_u64(extent, DATA_STEP));
		if (n == 0)
			break;
		moved += n;
	}
	tally_coalesced(run, counted, counted == end ? COALESCED_AT_END
						       : COALESCED_SO_FAR);
	lazy_buffer_free(&z.zeros);
	if (z.data.data)
		lazy_buffer_free(&z.data);
	/* The record loop goes on from the tally's offsets; where an end
	 * can't be put there, nothing after it can be trusted. */
	if (from_input && !seek_to(&run->in, run->tally.in_offset))
		return true;
	if (!seek_to(&run->out, run->tally.out_offset))
		return true;
	return counted == end;
}

bool zero_output(struct dd_run *run, uint64_t offset, uint64_t len)
{
	static struct zeroout z;

	if (!z.run && !zeroout_setup(&z, run))
		return false;
	while (len) {
		size_t n = zero_range(&z, offset, min_u64(len, ZERO_STEP));

		if (!n)
			return false;
		offset += n;
		len -= n;
		housekeep(run);
	}
	return true;
}
