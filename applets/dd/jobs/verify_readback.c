/*
 * verify_readback.c - conv=verify's read-back: the range, read from the
 * device and not from the page cache (O_DIRECT), hashed and compared
 * chunk by chunk.  Where O_DIRECT is refused, the range is flushed and
 * dropped from the cache first (fdatasync, POSIX_FADV_DONTNEED, BLKFLSBUF
 * on a block device) and read back buffered.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "verify.h"

/* What read_back returns when the first O_DIRECT read was refused. */
enum { DIRECT_REFUSED = -1 };

void verify_progress(struct dd_run *run, enum line_when when)
{
	struct dd_verify_state *v = run->verify;
	char buf[160];
	size_t len;

	if (!ENABLE_FEATURE_DD_PROGRESS || run->opt->status != STATUS_PROGRESS)
		return;
	len = bb_format(buf, sizeof(buf), "verifying (%s): %llu of %llu bytes",
			v->method, (unsigned long long)v->progress_done,
			(unsigned long long)v->progress_total);
	/* Twice a second, as the final sync's line: a read that blocks
	 * for a while still leaves no gap of a second. */
	show_job_progress(buf, len, when);
}

/* Read [from, to) (range offsets, from a chunk's start) through fd and
 * compare it with the hashes.  align: what O_DIRECT needs, or 1.
 * Returns 0, DIRECT_REFUSED, or an errno (*at: where the read failed). */
static int read_back(struct dd_run *run, int fd, struct lazy_buffer *buf,
		     uint64_t from, uint64_t to, uint64_t align, uint64_t *at)
{
	struct dd_verify_state *v = run->verify;
	struct chunk_hasher h;
	struct reader r;
	uint64_t pos = v->start + from, end = v->start + to;
	uint64_t chunk_offset = from;
	uint64_t read_pos = pos / align * align;
	bool first = true;
	int err = 0;

	hasher_reset(&h);
	reader_open(&r, fd, buf, align, align > 1);
	while (pos < end) {
		const unsigned char *p;
		ssize_t n = 0;
		uint64_t got;

		if (!r.started && reader_start(&r, read_pos, piece_at(&r, read_pos, end, align)) != 0)
			n = -1;
		else
			n = reader_finish(run, &r, &p);
		if (n <= 0) {
			*at = read_pos;
			err = n == 0 ? EIO
				: first && errno == EINVAL ? DIRECT_REFUSED : errno;
			break;
		}
		first = false;
		/* The next piece is on its way while this one is hashed; a
		 * failure to start it shows when it is started again. */
		if (r.aio && read_pos + (uint64_t)n < end)
			(void)reader_start(&r, read_pos + (uint64_t)n,
					   piece_at(&r, read_pos + (uint64_t)n, end, align));
		got = (uint64_t)n;
		/* Past what the range needs at the front and the back. */
		if (read_pos < pos) {
			uint64_t skip = pos - read_pos;

			if (got <= skip) {
				read_pos += got;
				continue;
			}
			p += skip;
			got -= skip;
		}
		read_pos += (uint64_t)n;
		if (got > end - pos)
			got = end - pos;
		while (got) {
			uint64_t room = CHUNK_SIZE - (pos - v->start) % CHUNK_SIZE;
			size_t take = (size_t)min_u64(got, room);

			hasher_update(&h, p, take);
			pos += take;
			p += take;
			got -= take;
			if (take == room || pos == end) {
				compare_chunk(v, &h, chunk_offset);
				chunk_offset = pos - v->start;
			}
		}
		v->progress_done += (uint64_t)n;
		verify_progress(run, LINE_WHEN_DUE);
	}
	reader_close(&r);
	return err;
}

/* The page cache must not answer: write it out, drop it. */
static void flush_cache(struct dd_run *run, uint64_t from, uint64_t to)
{
	struct dd_verify_state *v = run->verify;
	int fd = run->out.fd;

	(void)fdatasync(fd);
	(void)posix_fadvise(fd, (off_t)(v->start + from), (off_t)(to - from),
			    POSIX_FADV_DONTNEED);
	if (S_ISBLK(run->out.st.st_mode))
		(void)ioctl(fd, BLKFLSBUF, 0);
}

static int open_again(struct dd_run *run, int flags)
{
	char path[64];
	const char *name = run->opt->output_path;
	int fd;

	if (!name) {
		bb_format(path, sizeof(path), "/proc/self/fd/%d", run->out.fd);
		name = path;
	}
	do
		fd = open(name, O_RDONLY | O_CLOEXEC | flags);
	while (fd < 0 && transfer_retry(&run->transfer));
	return fd;
}

/* Read [from, to) back from the device and compare.  False after a read
 * error (reported). */
bool verify_range(struct dd_run *run, struct lazy_buffer *buf,
			 uint64_t from, uint64_t to)
{
	struct dd_verify_state *v = run->verify;
	uint64_t align = DIRECT_ALIGN, at = 0;
	int sector = 0, fd, err;

	if (from >= to)
		return true;
	if (S_ISBLK(run->out.st.st_mode) && ioctl(run->out.fd, BLKSSZGET, &sector) == 0
	    && (uint64_t)sector > align)
		align = (uint64_t)sector;
	/* Once refused, the held block's read-back does without it too. */
	fd = v->direct_refused ? -1 : open_again(run, O_DIRECT);
	err = DIRECT_REFUSED;
	if (fd >= 0) {
		err = read_back(run, fd, buf, from, to, align, &at);
		close(fd);
	}
	if (err == DIRECT_REFUSED) {
		/* O_DIRECT refused, at open or at the first read. */
		v->direct_refused = true;
		v->method = "cache dropped";
		flush_cache(run, from, to);
		fd = open_again(run, 0);
		if (fd < 0) {
			bb_perror_msg("verify: cannot open %s again",
				      quote_always(run->out.name));
			return false;
		}
		err = read_back(run, fd, buf, from, to, 1, &at);
		close(fd);
	}
	if (err) {
		bb_errno_msg(err, "verify: error reading %s at offset %llu",
			     quote_always(run->out.name), (unsigned long long)at);
		return false;
	}
	return true;
}
