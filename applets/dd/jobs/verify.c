/*
 * verify.c - conv=verify (FEATURE_DD_VERIFY), a zerobox extension: read
 * the output back from the device once it is written, and compare.
 *
 * The input is never read twice (it may be a pipe): while writing, each
 * chunk of the output range gets a 64-bit hash (verify_hash.c).  At the
 * end the range is read back from the device and compared
 * (verify_readback.c); on a block device the first block, held back
 * (verify_hold.c), is then written, synced and verified in turn.
 *
 * A mismatch is known to the chunk: the report counts the bytes of the
 * chunks whose hashes differ.
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

#include <sys/stat.h>

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

static void report_mismatch(struct dd_run *run)
{
	struct dd_verify_state *v = run->verify;

	bb_error_msg("verify failed: %llu bytes differ in %llu chunk%s, first at offset %llu",
		     (unsigned long long)v->differ_bytes,
		     (unsigned long long)v->differ_chunks,
		     v->differ_chunks == 1 ? "" : "s",
		     (unsigned long long)v->first_differ);
}

void verify_finish(struct dd_run *run, enum dd_stop stop)
{
	bool copy_ok = stop == STOP_DONE && dd_exit_status() == EXIT_SUCCESS;
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
	verify_progress(run, LINE_NOW);
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
	verify_progress(run, LINE_NOW);
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
	format_double_g(seconds, (double)v->verify_ns / SECOND_NS);
	human_readable(rate, v->verified, SECOND_NS,
		       v->verify_ns ? v->verify_ns : 1, HUMAN_SI);
	len = bb_format(buf, sizeof(buf), "%llu bytes verified (%s), %s s, %s/s\n",
			(unsigned long long)v->verified, v->method, seconds, rate);
	bb_write_stderr(buf, len);
}
