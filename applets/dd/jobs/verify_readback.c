/*
 * verify_readback.c - conv=verify's read-back: the extents the copy
 * wrote, read from the device and not from the page cache (O_DIRECT),
 * and compared chunk by chunk.  Where O_DIRECT is refused, the output,
 * written out already (verify.c), is dropped from the cache first
 * (POSIX_FADV_DONTNEED, BLKFLSBUF on a block device) and read back
 * buffered.
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

void walk_start(struct walk *w, const struct extent_source *source,
		uint64_t from, uint64_t to, uint64_t align, size_t piece_max)
{
	*w = (struct walk){ .source = source, .from = from, .to = to,
			    .align = align,
			    .piece_max = piece_max - piece_max % align };
	source->rewind(source->ctx);
}

/* The next extent that reaches into [from, to), clipped to it. */
static bool next_extent(struct walk *w)
{
	struct written_extent *e = &w->extent;

	while (!w->done && w->source->next(w->source->ctx, e)) {
		uint64_t lo = e->offset > w->from ? e->offset : w->from;
		uint64_t hi = min_u64(e->offset + e->length, w->to);

		/* In ascending order: none after this one reaches back. */
		if (e->offset >= w->to)
			break;
		if (lo < hi) {
			e->offset = w->pos = lo;
			e->length = hi - lo;
			return true;
		}
	}
	w->done = true;
	return false;
}

bool next_piece(struct walk *w, struct piece *p)
{
	uint64_t end = w->extent.offset + w->extent.length;

	if (w->pos >= end) {
		if (!next_extent(w))
			return false;
		end = w->extent.offset + w->extent.length;
	}
	p->lo = w->pos;
	p->read_at = w->pos / w->align * w->align;
	p->hi = min_u64(end, p->read_at + w->piece_max);
	p->read_len = (size_t)((p->hi - p->read_at + w->align - 1) / w->align * w->align);
	p->zeros = w->extent.zeros;
	w->pos = p->hi;
	return true;
}

/* The comparison of the chunk a read-back is in. */
struct comparison {
	enum expect how;
	uint64_t chunk;               /* UINT64_MAX: none yet */
	struct chunk_hasher hasher;   /* what EXPECT_HASH pieces read */
	uint64_t first_hashed;        /* the offset of its first byte */
	uint64_t byte;                /* the first byte seen to differ */
};

static void end_chunk(struct dd_verify_state *v, struct comparison *c)
{
	bool hash_differs = c->hasher.length
		&& hasher_final(&c->hasher) != stored_hash(v, c->chunk);

	if (c->chunk != UINT64_MAX && (hash_differs || c->byte != UINT64_MAX)) {
		if (!v->differ_chunks) {
			v->first_chunk = v->start + c->chunk * CHUNK_SIZE;
			/* A byte found is the first only if no hashed byte
			 * before it may differ. */
			v->first_byte = hash_differs && c->first_hashed < c->byte
				? UINT64_MAX : c->byte;
		}
		v->differ_chunks++;
	}
	hasher_reset(&c->hasher);
	c->first_hashed = c->byte = UINT64_MAX;
}

/* Compare len bytes read back from output offset at. */
static void compare_piece(struct dd_verify_state *v, struct comparison *c,
			  uint64_t at, const unsigned char *data, size_t len,
			  bool zeros)
{
	while (len) {
		uint64_t chunk = chunk_of(v, at);
		uint64_t room = CHUNK_SIZE - (at - v->start) % CHUNK_SIZE;
		size_t take = (size_t)min_u64(len, room), i = take;

		if (chunk != c->chunk) {
			end_chunk(v, c);
			c->chunk = chunk;
		}
		if (zeros) {
			i = first_nonzero(data, take);
		} else if (c->how == EXPECT_BYTES) {
			i = first_difference(data, v->hold.data + (at - v->start), take);
		} else {
			if (c->first_hashed == UINT64_MAX)
				c->first_hashed = at;
			hasher_update(&c->hasher, data, take);
		}
		if (i < take && c->byte == UINT64_MAX)
			c->byte = at + i;
		at += take;
		data += take;
		len -= take;
	}
}

/* Read the extents in [from, to) through fd and compare them.  align:
 * what O_DIRECT needs, or 1.  Returns 0, DIRECT_REFUSED, or an errno
 * (*at: where the read failed). */
static int read_back(struct dd_run *run, int fd, struct lazy_buffer *buf,
		     const uint64_t window[2], uint64_t align, enum expect how,
		     uint64_t *at)
{
	struct dd_verify_state *v = run->verify;
	struct comparison c = { .how = how, .chunk = UINT64_MAX };
	struct reader r;
	struct walk w;
	struct piece now, ahead;
	bool more, first = true;
	int err = 0;

	reader_open(&r, fd, buf, align, align > 1);
	walk_start(&w, v->source, window[0], window[1], align, r.piece_max);
	hasher_reset(&c.hasher);
	c.first_hashed = c.byte = UINT64_MAX;
	more = next_piece(&w, &now);
	while (more) {
		const unsigned char *p;
		ssize_t n = -1;

		if (r.started || reader_start(&r, now.read_at, now.read_len) == 0)
			n = reader_finish(run, &r, &p);
		if (n < (ssize_t)(now.hi - now.read_at)) {
			*at = now.read_at + (n > 0 ? (uint64_t)n : 0);
			err = n >= 0 ? EIO
				: first && errno == EINVAL ? DIRECT_REFUSED : errno;
			break;
		}
		first = false;
		more = next_piece(&w, &ahead);
		/* The next piece is on its way while this one is compared; a
		 * failure to start it shows when it is started again. */
		if (more && r.aio)
			(void)reader_start(&r, ahead.read_at, ahead.read_len);
		compare_piece(v, &c, now.lo, p + (now.lo - now.read_at),
			      (size_t)(now.hi - now.lo), now.zeros);
		v->progress_done += now.hi - now.lo;
		transfer_act_on_signals(&run->transfer);
		verify_progress(run, LINE_WHEN_DUE);
		now = ahead;
	}
	end_chunk(v, &c);
	reader_close(&r);
	return err;
}

/* The page cache must not answer: drop it.  It is clean: verify_finish
 * wrote the copy out, and the held block is synced as it is written. */
static void flush_cache(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;
	int fd = run->out.fd;

	(void)posix_fadvise(fd, (off_t)v->start, (off_t)(v->source->end - v->start),
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

uint64_t direct_alignment(const struct dd_run *run)
{
	int sector = 0;

	if (S_ISBLK(run->out.st.st_mode) && ioctl(run->out.fd, BLKSSZGET, &sector) == 0
	    && sector > DIRECT_ALIGN)
		return (uint64_t)sector;
	return DIRECT_ALIGN;
}

/* A descriptor that reads the device: O_DIRECT, or once that was
 * refused, the cache dropped before each opening (the held block is
 * written after the first read-back, and would be read from it). */
int open_for_reading(struct dd_run *run)
{
	if (!run->verify->direct_refused)
		return open_again(run, O_DIRECT);
	flush_cache(run);
	return open_again(run, 0);
}

/* O_DIRECT refused, at open or at the first read: from now on the
 * output is read through the cache, dropped first. */
static int refuse_direct(struct dd_run *run)
{
	run->verify->direct_refused = true;
	run->verify->method = "cache dropped";
	return open_for_reading(run);
}

int read_fully(struct dd_run *run, int fd, unsigned char *buf, size_t len,
	       uint64_t at)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, (off_t)at);

		if (n < 0 && transfer_retry(&run->transfer))
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		buf += n;
		len -= (size_t)n;
		at += (uint64_t)n;
	}
	return 0;
}

bool verify_window(struct dd_run *run, struct lazy_buffer *buf,
		   uint64_t from, uint64_t to, enum expect how)
{
	struct dd_verify_state *v = run->verify;
	const uint64_t window[2] = { from, to };
	uint64_t at = 0;
	int fd = open_for_reading(run), err = DIRECT_REFUSED;

	if (fd >= 0) {
		err = read_back(run, fd, buf, window,
				v->direct_refused ? 1 : direct_alignment(run), how, &at);
		close(fd);
	}
	if (err == DIRECT_REFUSED) {
		fd = refuse_direct(run);
		if (fd < 0) {
			bb_perror_msg("verify: cannot open %s again",
				      quote_always(run->out.name));
			return false;
		}
		err = read_back(run, fd, buf, window, 1, how, &at);
		close(fd);
		if (err == DIRECT_REFUSED)
			err = EINVAL;
	}
	if (err) {
		bb_errno_msg(err, "verify: error reading %s at offset %llu",
			     quote_always(run->out.name), (unsigned long long)at);
		return false;
	}
	return true;
}
