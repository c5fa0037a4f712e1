/*
 * verify.c - conv=verify (FEATURE_DD_VERIFY), a zerobox extension: read
 * the output back from the device once it is written, and compare.
 *
 * The input is never read twice (it may be a pipe): while writing, each
 * chunk of the output range gets a 64-bit hash, kept in one mapping that
 * grows as the range does.  At the end the range is read back with
 * O_DIRECT, from the device and not from the page cache, hashed the same
 * way and compared.  Where O_DIRECT is refused, the written range is
 * flushed and dropped from the cache first (fdatasync, POSIX_FADV_DONTNEED,
 * BLKFLSBUF on a block device) and read back buffered.
 *
 * On a block device the first block of the range (the first MiB, or obs
 * if that is larger, in whole chunks) is held in memory and written only
 * once the rest is written and verified: a copy that fails or is
 * interrupted leaves no first block, so no card that boots half an image.
 * The held block is then written, synced and verified in turn.
 *
 * A mismatch is known to the chunk: the report counts the bytes of the
 * chunks whose hashes differ.
 *
 * The O_DIRECT read-back reads ahead: while one half of the buffer is
 * hashed, the device fills the other (Linux AIO, which O_DIRECT makes
 * asynchronous), so the device never waits for the hash.  Where AIO
 * can't be had (ENOSYS, a system limit), each piece is read with pread.
 */
//config:config FEATURE_DD_VERIFY
//config:	bool "conv=verify: read the output back from the device"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  conv=verify (an extension): keep a hash of each MiB written,
//config:	  then read the output back with O_DIRECT and compare.  On a
//config:	  block device the first MiB is written last, once the rest
//config:	  is verified.  Costs 8 bytes of memory per MiB written, plus
//config:	  the held block.

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>

#include "jobs.h"

/* The unit of comparison, and of a mismatch's report. */
enum { CHUNK_SIZE = 1 << 20 };
/* The held first block is at least this. */
enum { HOLD_MIN = 1 << 20 };
/* Read-back requests: large enough for the device's full rate. */
enum { READ_SIZE = 1 << 20 };
/* O_DIRECT offsets and lengths are kept to this (and to the device's
 * logical block size, if larger). */
enum { DIRECT_ALIGN = 4096 };

/* ---- the chunk hash ------------------------------------------------- */

/*
 * A streaming 64-bit hash, four independent lanes over 32-byte stripes
 * so that the multiplications overlap.  It only has to tell a chunk from
 * a damaged copy of itself, never resist an attacker: each lane step
 * (xor in a word, multiply by an odd constant, fold the high half down)
 * is a bijection of the lane, so no single changed word can go unseen.
 */
#define MIX_A 0x9fb21c651e98df25ULL
#define MIX_B 0xc2b2ae3d27d4eb4fULL
#define MIX_C 0x165667b19e3779f9ULL

enum { STRIPE = 32 };

struct chunk_hasher {
	uint64_t lane[4];
	uint64_t length;
	unsigned char pending[STRIPE];
	size_t pending_len;
};

static uint64_t load64(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

static uint64_t lane_step(uint64_t lane, uint64_t word)
{
	lane = (lane ^ word) * MIX_A;
	return lane ^ (lane >> 32);
}

static uint64_t avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= MIX_B;
	h ^= h >> 29;
	h *= MIX_C;
	return h ^ (h >> 32);
}

static void hasher_reset(struct chunk_hasher *h)
{
	h->lane[0] = MIX_A;
	h->lane[1] = MIX_B;
	h->lane[2] = MIX_C;
	h->lane[3] = MIX_A ^ MIX_B;
	h->length = 0;
	h->pending_len = 0;
}

static void hash_stripes(void *hasher, const unsigned char *p, size_t stripes)
{
	struct chunk_hasher *h = hasher;
	uint64_t a = h->lane[0], b = h->lane[1], c = h->lane[2], d = h->lane[3];

	for (; stripes; stripes--, p += STRIPE) {
		a = lane_step(a, load64(p));
		b = lane_step(b, load64(p + 8));
		c = lane_step(c, load64(p + 16));
		d = lane_step(d, load64(p + 24));
	}
	h->lane[0] = a;
	h->lane[1] = b;
	h->lane[2] = c;
	h->lane[3] = d;
}

static void hasher_update(struct chunk_hasher *h, const unsigned char *p,
			  size_t len)
{
	h->length += len;
	feed_blocks(h->pending, &h->pending_len, STRIPE, p, len, hash_stripes, h);
}

static uint64_t hasher_final(const struct chunk_hasher *h)
{
	uint64_t sum = h->length * MIX_C;
	size_t i;

	for (i = 0; i < 4; i++)
		sum = lane_step(sum, avalanche(h->lane[i]));
	/* The tail: whole bytes, one at a time, each in its own position. */
	for (i = 0; i < h->pending_len; i++)
		sum = lane_step(sum, ((uint64_t)h->pending[i] << 8) | i);
	return avalanche(sum);
}

/* ---- the state ------------------------------------------------------ */

struct dd_verify_state {
	uint64_t start;               /* output offset of the range */
	uint64_t next;                /* output offset of the next byte */
	struct chunk_hasher hasher;   /* the chunk next is in */
	struct lazy_buffer hashes;    /* uint64_t per whole chunk */
	uint64_t chunks;              /* hashes stored */
	uint64_t hold_size;           /* the first block's size; 0: none */
	struct lazy_buffer hold;      /* its bytes, as they were written */
	/* Read-back. */
	const char *method;           /* how it read, for the report */
	bool direct_refused;          /* O_DIRECT was refused */
	uint64_t verified;            /* bytes verified */
	uint64_t verify_ns;           /* the time it took */
	uint64_t differ_bytes, differ_chunks, first_differ;
	uint64_t progress_done, progress_total;
};

static struct dd_verify_state verify_state;

/* ---- setup ---------------------------------------------------------- */

void verify_check_output(struct dd_run *run)
{
	const struct stat *st = &run->out.st;

	if (!(run->opt->conv & CONV_VERIFY))
		return;
	if (run->out.stat_errno || !(S_ISREG(st->st_mode) || S_ISBLK(st->st_mode)))
		bb_error_msg_and_die("conv=verify needs a regular file or a block"
				     " device to read back; %s is not one",
				     quote_always(run->out.name));
}

/* Room for the hashes of a range of size bytes (it grows past that). */
static void map_hashes(struct dd_verify_state *v, uint64_t size)
{
	uint64_t chunks = size / CHUNK_SIZE + 1;

	if (lazy_buffer_alloc(&v->hashes, chunks * sizeof(uint64_t)) != 0)
		die_memory_exhausted("verify", chunks * sizeof(uint64_t));
}

void verify_start(struct dd_run *run)
{
	struct dd_verify_state *v = &verify_state;
	uint64_t range = run->plan.count_bytes;

	if (!(run->opt->conv & CONV_VERIFY))
		return;
	v->start = v->next = run->tally.out_offset;
	hasher_reset(&v->hasher);
	/* The range, where it is known: what is left of the input or the
	 * device.  A page of hashes covers 512 MiB otherwise. */
	if (run->in.size_known && run->in.size > run->tally.in_offset)
		range = min_u64(range, run->in.size - run->tally.in_offset);
	if (S_ISBLK(run->out.st.st_mode) && run->out.size > v->start)
		range = min_u64(range, run->out.size - v->start);
	map_hashes(v, range == UINT64_MAX ? 0 : range);
	if (S_ISBLK(run->out.st.st_mode)) {
		uint64_t hold = run->opt->obs > HOLD_MIN ? run->opt->obs : HOLD_MIN;

		hold = (hold + CHUNK_SIZE - 1) / CHUNK_SIZE * CHUNK_SIZE;
		if (lazy_buffer_alloc(&v->hold, hold) != 0)
			die_memory_exhausted("verify", hold);
		v->hold_size = hold;
	}
	run->verify = v;
}

/* ---- while writing -------------------------------------------------- */

static void store_hash(struct dd_verify_state *v)
{
	uint64_t need = (v->chunks + 1) * sizeof(uint64_t);

	if (need > v->hashes.capacity
	    && lazy_buffer_grow(&v->hashes, need * 2) != 0)
		die_memory_exhausted("verify", need * 2);
	((uint64_t *)(void *)v->hashes.data)[v->chunks++] = hasher_final(&v->hasher);
	hasher_reset(&v->hasher);
}

/* Hash len bytes that go to the output at v->next, chunk by chunk. */
static void note_bytes(struct dd_verify_state *v, const unsigned char *data,
		       size_t len)
{
	while (len) {
		uint64_t room = CHUNK_SIZE - (v->next - v->start) % CHUNK_SIZE;
		size_t take = len < room ? len : (size_t)room;

		hasher_update(&v->hasher, data, take);
		v->next += take;
		data += take;
		len -= take;
		if (take == room)
			store_hash(v);
	}
}

size_t verify_hold(struct dd_run *run, const unsigned char *data, size_t len)
{
	struct dd_verify_state *v = run->verify;
	uint64_t offset = v->next - v->start;
	size_t take;

	if (offset >= v->hold_size)
		return 0;
	take = len < v->hold_size - offset ? len : (size_t)(v->hold_size - offset);
	/* The device's offset moves on as if the bytes were written. */
	if (lseek(run->out.fd, (off_t)take, SEEK_CUR) < 0)
		return 0;
	memcpy(v->hold.data + offset, data, take);
	note_bytes(v, data, take);
	return take;
}

void verify_written(struct dd_run *run, const unsigned char *data, size_t len)
{
	note_bytes(run->verify, data, len);
}

/* ---- reading back --------------------------------------------------- */

static void verify_progress(struct dd_run *run, bool force)
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
	show_job_progress(buf, len, force);
}

/* The stored hash of the chunk at offset (relative to the range). */
static uint64_t stored_hash(const struct dd_verify_state *v, uint64_t offset)
{
	return ((const uint64_t *)(const void *)v->hashes.data)[offset / CHUNK_SIZE];
}

static void compare_chunk(struct dd_verify_state *v, struct chunk_hasher *h,
			  uint64_t chunk_offset)
{
	if (hasher_final(h) != stored_hash(v, chunk_offset)) {
		if (!v->differ_chunks)
			v->first_differ = v->start + chunk_offset;
		v->differ_chunks++;
		v->differ_bytes += h->length;
	}
	hasher_reset(h);
}

/* What read_back returns when the first O_DIRECT read was refused. */
enum { DIRECT_REFUSED = -1 };

/* ---- the read-back's reader ----------------------------------------- */

/*
 * start() asks for the piece at pos; finish() waits for it and says
 * where its bytes are.  With AIO the pieces go to the two halves of the
 * buffer in turn, and the next piece can be started before this one is
 * hashed; without, one pread into the whole buffer.
 */
struct reader {
	int fd;
	aio_context_t aio;           /* 0: pread */
	struct iocb request;
	unsigned char *area[2];      /* where the pieces land, in turn */
	size_t piece_max;            /* the most one piece may be */
	int filling;                 /* the area of the piece started */
	bool started;
	uint64_t pos;                /* the piece started */
	size_t len;
};

static void reader_open(struct reader *r, int fd, struct lazy_buffer *buf,
			uint64_t align, bool ahead)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->area[0] = r->area[1] = buf->data;
	r->piece_max = buf->capacity;
	if (!ahead || buf->capacity / 2 < align || buf->capacity / 2 % align
	    || syscall(SYS_io_setup, 1L, &r->aio) != 0) {
		r->aio = 0;
		return;
	}
	r->piece_max = buf->capacity / 2;
	r->area[1] = buf->data + r->piece_max;
}

/* Returns 0, or -1 with errno. */
static int reader_start(struct reader *r, uint64_t pos, size_t len)
{
	struct iocb *list[1] = { &r->request };

	r->pos = pos;
	r->len = len;
	r->started = true;
	if (!r->aio)
		return 0;
	memset(&r->request, 0, sizeof(r->request));
	r->request.aio_fildes = (uint32_t)r->fd;
	r->request.aio_lio_opcode = IOCB_CMD_PREAD;
	r->request.aio_buf = (uint64_t)(uintptr_t)r->area[r->filling];
	r->request.aio_nbytes = len;
	r->request.aio_offset = (int64_t)pos;
	if (syscall(SYS_io_submit, r->aio, 1L, list) == 1)
		return 0;
	r->started = false;
	return -1;
}

/* The started piece's byte count (0 at the end), or -1 with errno;
 * *data: where its bytes are. */
static ssize_t reader_finish(struct dd_run *run, struct reader *r,
			     const unsigned char **data)
{
	struct io_event done;
	long got;

	r->started = false;
	if (!r->aio) {
		ssize_t n;

		do
			n = pread(r->fd, r->area[0], r->len, (off_t)r->pos);
		while (n < 0 && transfer_retry(&run->transfer));
		*data = r->area[0];
		return n;
	}
	do
		got = syscall(SYS_io_getevents, r->aio, 1L, 1L, &done, NULL);
	while (got < 0 && transfer_retry(&run->transfer));
	if (got != 1)
		return -1;
	*data = r->area[r->filling];
	r->filling ^= 1;
	if (done.res < 0) {
		errno = (int)-done.res;
		return -1;
	}
	return (ssize_t)done.res;
}

/* A piece still started is waited for (its area may be freed next). */
static void reader_close(struct reader *r)
{
	if (r->aio)
		(void)syscall(SYS_io_destroy, r->aio);
}

/* The piece at pos: whole aligned blocks up to end, at most piece_max. */
static size_t piece_at(const struct reader *r, uint64_t pos, uint64_t end,
		       uint64_t align)
{
	return (size_t)min_u64(r->piece_max, (end - pos + align - 1) / align * align);
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
		verify_progress(run, false);
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
static bool verify_range(struct dd_run *run, struct lazy_buffer *buf,
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

/* Write the held first block (and sync it).  False if that failed
 * (reported). */
static bool write_held_block(struct dd_run *run, uint64_t len)
{
	struct dd_verify_state *v = run->verify;
	int fd = run->out.fd, flags = fcntl(fd, F_GETFL);

	/* A short held block can't go through O_DIRECT; it is synced. */
	if (flags >= 0 && (flags & O_DIRECT) && len % DIRECT_ALIGN)
		(void)fcntl(fd, F_SETFL, flags & ~O_DIRECT);
	if (transfer_write(&run->transfer, fd, v->hold.data, (size_t)len,
			   (int64_t)v->start) != len) {
		bb_perror_msg("verify: writing the first block of %s",
			      quote_always(run->out.name));
		return false;
	}
	if (((run->opt->conv & CONV_FSYNC) ? fsync(fd) : fdatasync(fd)) != 0) {
		bb_perror_msg("verify: syncing the first block of %s",
			      quote_always(run->out.name));
		return false;
	}
	return true;
}

static void report_mismatch(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;

	bb_error_msg("verify failed: %llu bytes differ in %llu chunk%s, first at offset %llu",
		     (unsigned long long)v->differ_bytes,
		     (unsigned long long)v->differ_chunks,
		     v->differ_chunks == 1 ? "" : "s",
		     (unsigned long long)v->first_differ);
}

void verify_finish(struct dd_run *run, bool copy_ok)
{
	struct dd_verify_state *v = run->verify;
	uint64_t total, held, began = monotonic_ns();
	struct lazy_buffer own = { NULL, 0 }, *buf = &own;

	if (!v)
		return;
	total = v->next - v->start;
	held = min_u64(v->hold_size, total);
	if (!copy_ok) {
		if (held)
			bb_error_msg("verify: not done; the first %llu bytes of %s"
				     " were not written", (unsigned long long)held,
				     quote_always(run->out.name));
		return;
	}
	if ((v->next - v->start) % CHUNK_SIZE)
		store_hash(v);
	/* The input buffer is free now; it serves if it is large enough. */
	if (run->ibuf.capacity >= READ_SIZE && run->ibuf.capacity % DIRECT_ALIGN == 0)
		buf = &run->ibuf;
	else if (lazy_buffer_alloc(&own, READ_SIZE) != 0)
		die_memory_exhausted("verify", READ_SIZE);
	v->method = "O_DIRECT";
	v->progress_total = total;
	verify_progress(run, true);
	if (!verify_range(run, buf, held, total))
		goto failed;
	if (v->differ_chunks) {
		report_mismatch(run);
		if (held)
			bb_error_msg("verify: the first %llu bytes of %s were not written",
				     (unsigned long long)held, quote_always(run->out.name));
		goto failed;
	}
	if (held && (!write_held_block(run, held) || !verify_range(run, buf, 0, held)))
		goto failed;
	if (v->differ_chunks) {
		report_mismatch(run);
		goto failed;
	}
	verify_progress(run, true);
	v->verified = total;
	lazy_buffer_free(&own);
	v->verify_ns = monotonic_ns() - began;
	/* The statistics are the copy's; the verification reports its own
	 * time after them. */
	report_leave_out(began);
	return;
failed:
	lazy_buffer_free(&own);
	note_failure();
	report_leave_out(began);
	v->verify_ns = 0;
	v->verified = 0;
	v->method = NULL;
}

void verify_report(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;
	char buf[200], seconds[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	size_t len;

	if (!v || !v->method || run->opt->status == STATUS_NONE)
		return;
	format_double_g(seconds, (double)v->verify_ns / 1e9);
	human_readable(rate, v->verified, 1000000000,
		       v->verify_ns ? v->verify_ns : 1, 0);
	len = bb_format(buf, sizeof(buf), "%llu bytes verified (%s), %s s, %s/s\n",
			(unsigned long long)v->verified, v->method, seconds, rate);
	bb_write_stderr(buf, len);
}
