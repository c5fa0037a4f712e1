/*
 * verify.c - conv=verify (FEATURE_DD_VERIFY), a zerobox extension: read
 * the output back from the device once it is written, and compare.
 *
 * The input is never read twice for it (it may be a pipe): while
 * writing, each chunk of the output gets a 64-bit hash of the bytes
 * written in it (verify_hash.c).  At the end the extents written (one
 * for a plain copy, a map's ranges for bmap=) are read back from the
 * device and compared (verify_readback.c); on a block device the first
 * chunk, held back (verify_hold.c), is then written, synced and
 * compared byte for byte.
 *
 * A mismatch is known to the chunk; its first differing byte is found
 * where the input can be read again (verify_locate.c).
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
//config:	  the held MiB.

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify.h"

static struct dd_verify_state verify_state;

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

/* A plain copy's one extent, from the range's start to where it got. */
static bool next_written(void *ctx, struct written_extent *e)
{
	struct dd_verify_state *v = ctx;

	if (v->own_given || v->next == v->start)
		return false;
	e->offset = v->start;
	e->length = v->next - v->start;
	e->zeros = false;
	v->own_given = true;
	return true;
}

static void rewind_written(void *ctx)
{
	struct dd_verify_state *v = ctx;

	v->own_given = false;
}

/* Where the writes go: the offset after seek=, or, on a descriptor
 * opened for appending (oflag=append, or a shell's >>), the file's end. */
static uint64_t first_write_offset(const struct dd_run *run)
{
	struct stat st;

	if (run->out.status_flags >= 0 && (run->out.status_flags & O_APPEND)
	    && fstat(run->out.fd, &st) == 0)
		return (uint64_t)st.st_size;
	return run->tally.out_offset;
}

void verify_start(struct dd_run *run)
{
	struct dd_verify_state *v = &verify_state;
	uint64_t range = run->plan.count_bytes;

	if (!(run->opt->conv & CONV_VERIFY))
		return;
	v->start = v->next = first_write_offset(run);
	v->in_start = run->tally.in_offset;
	hasher_reset(&v->hasher);
	v->own = (struct extent_source){ next_written, rewind_written, v, 0, 0 };
	v->source = &v->own;
	/* The range, where it is known: what is left of the input or the
	 * device.  A page of hashes covers 512 MiB otherwise. */
	if (run->in.size_known && run->in.size > run->tally.in_offset)
		range = min_u64(range, run->in.size - run->tally.in_offset);
	if (S_ISBLK(run->out.st.st_mode) && run->out.size > v->start)
		range = min_u64(range, run->out.size - v->start);
	map_hashes(v, range == UINT64_MAX ? 0 : range);
	if (S_ISBLK(run->out.st.st_mode)) {
		if (lazy_buffer_alloc(&v->hold, HOLD_SIZE) != 0)
			die_memory_exhausted("verify", HOLD_SIZE);
		v->hold_size = HOLD_SIZE;
	}
	run->verify = v;
}

void verify_use_extents(struct dd_run *run, const struct extent_source *source)
{
	run->verify->source = source;
}

/* How much of the held first block the extents would have written. */
static uint64_t held_bytes(const struct dd_verify_state *v)
{
	return v->held_written || v->source->end <= v->start ? 0
		: min_u64(v->hold_size, v->source->end - v->start);
}

static void report_not_written(struct dd_run *run, const char *why)
{
	uint64_t held = held_bytes(run->verify);

	if (held)
		bb_error_msg("verify: %sthe first %llu bytes of %s were not written",
			     why, (unsigned long long)held,
			     quote_always(run->out.name));
}

static void report_mismatch(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;
	char byte[80] = "";

	if (v->first_byte != UINT64_MAX)
		bb_format(byte, sizeof(byte), "; its first differing byte is at offset %llu",
			  (unsigned long long)v->first_byte);
	if (v->differ_chunks == 1)
		bb_error_msg("verify failed: 1 chunk (1 MiB) differs, at offset %llu%s",
			     (unsigned long long)v->first_chunk, byte);
	else
		bb_error_msg("verify failed: %llu chunks (1 MiB each) differ,"
			     " the first at offset %llu%s",
			     (unsigned long long)v->differ_chunks,
			     (unsigned long long)v->first_chunk, byte);
}

/* The transfer's hooks while verifying: SIGUSR1's summary shows the
 * copy's time (the clock is paused); SIGINT says what was not written,
 * then ends dd as it would have. */
static void info_while_verifying(void *client)
{
	struct dd_run *run = client;

	answer_info_request(client);
	verify_progress(run, LINE_NOW);
}

static void interrupted_while_verifying(void *client, int sig)
{
	struct dd_run *run = client;

	report_not_written(run, "interrupted; ");
	die_by_interrupt(client, sig);
}

/* Read back what was written, then write and read back the held block.
 * False when that failed (reported). */
static bool read_back_all(struct dd_run *run, struct lazy_buffer *buf)
{
	struct dd_verify_state *v = run->verify;
	uint64_t hold_end = v->start + v->hold_size;

	if (!verify_window(run, buf, hold_end, UINT64_MAX, EXPECT_HASH))
		return false;
	if (v->differ_chunks) {
		locate_first_byte(run, buf);
		report_mismatch(run);
		return false;
	}
	if (held_bytes(v) && (!write_held_block(run)
	    || !verify_window(run, buf, v->start, hold_end, EXPECT_BYTES)))
		return false;
	if (v->differ_chunks) {
		report_mismatch(run);
		return false;
	}
	return true;
}

/* The copy's bytes on the device, before they are read back: a write
 * the device failed is a write error, said as such (an O_DIRECT read
 * would write them out itself and blame its read).  With conv=fsync,
 * fdatasync or nocache the copy's own syncs met it already. */
static bool written_out(struct dd_run *run)
{
	int r;

	do
		r = fdatasync(run->out.fd);
	while (r != 0 && transfer_retry(&run->transfer));
	return r == 0 || errno == EINVAL || errno == ENOSYS;
}

void verify_finish(struct dd_run *run, enum dd_stop stop)
{
	bool copy_ok = stop == STOP_DONE && dd_exit_status() == EXIT_SUCCESS;
	struct dd_verify_state *v = run->verify;
	struct lazy_buffer own = { NULL, 0 }, *buf = &own;
	struct transfer saved;
	bool ok;

	if (!v)
		return;
	if (v->hasher.length)
		store_hash(v);
	v->own.total = v->next - v->start;
	v->own.end = v->next;
	if (!copy_ok) {
		report_not_written(run, "not done; ");
		return;
	}
	if (!written_out(run)) {
		report_writeback_error(&run->out, errno);
		report_not_written(run, "not done; ");
		return;
	}
	/* The input buffer is free now; it serves if it is large enough. */
	if (run->ibuf.capacity >= READ_SIZE && run->ibuf.capacity % DIRECT_ALIGN == 0)
		buf = &run->ibuf;
	else if (lazy_buffer_alloc(&own, READ_SIZE) != 0)
		die_memory_exhausted("verify", READ_SIZE);
	/* the statistics are the copy's, the read-back's time left out */
	report_pause();
	v->began = monotonic_ns();
	saved = run->transfer;
	run->transfer.on_info = info_while_verifying;
	run->transfer.on_interrupt = interrupted_while_verifying;
	v->method = "O_DIRECT";
	v->progress_total = v->source->total;
	verify_progress(run, LINE_NOW);
	ok = read_back_all(run, buf);
	if (ok)
		verify_progress(run, LINE_NOW);
	else
		report_not_written(run, "");
	run->transfer.on_info = saved.on_info;
	run->transfer.on_interrupt = saved.on_interrupt;
	lazy_buffer_free(&own);
	v->verify_ns = monotonic_ns() - v->began;
	report_resume();
	if (ok) {
		v->verified = v->source->total;
		return;
	}
	note_failure();
	v->method = NULL;
}

void verify_report(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;
	char buf[200], seconds[HUMAN_BUF_SIZE], rate[HUMAN_BUF_SIZE];
	size_t len;

	if (!v || !v->method || run->opt->status == STATUS_NONE)
		return;
	format_double_g(seconds, (double)v->verify_ns / SECOND_NS);
	human_readable(rate, v->verified, SECOND_NS,
		       v->verify_ns ? v->verify_ns : 1, HUMAN_SI);
	len = bb_format(buf, sizeof(buf), "%llu bytes verified (%s), %s s, %s/s\n",
			(unsigned long long)v->verified, v->method, seconds, rate);
	bb_write_stderr(buf, len);
}
