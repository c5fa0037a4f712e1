/*
 * fuzz_operands.c - dd's whole operand parser (parse_operands with its
 * conflict checks) and the buffer plan, on arbitrary argument vectors.
 *
 * Input: operands separated by '\n' (at most 64; a NUL ends one early).
 * The last 8 bytes, when there are more than 8, give the size of a
 * pretend regular input file for the plan.  Every exit() (a bad
 * operand) is caught (see fuzz.h).  Properties of an accepted plan:
 *   - block sizes in [1, INT64_MAX - 1]; records/bytes splits exact;
 *   - the conflicting pairs never both survive, and block/unblock never
 *     survive without cbs=;
 *   - plan_input's products (skip, seek, count in bytes) are exact or
 *     flagged, its input buffer is min(ibs, what the file can give,
 *     count), and it asks for two buffers exactly when GNU uses two;
 *   - plan_output picks a zero-copy mover only for plain copies;
 *   - map_buffers either dies with its message or maps what the plan
 *     asks for.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "dd.h"
#include "fuzz.h"

/* Leaks after a caught exit() are the harness's (fuzz.h). */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void) { return "detect_leaks=0"; }

enum { MAX_OPERANDS = 64 };

static int more_than_one(unsigned bits) { return (bits & (bits - 1)) != 0; }

static void check_options(const struct dd_options *o)
{
	FUZZ_CHECK(o->ibs >= 1 && o->ibs <= (uint64_t)INT64_MAX - 1);
	FUZZ_CHECK(o->obs >= 1 && o->obs <= (uint64_t)INT64_MAX - 1);
	FUZZ_CHECK(o->cbs <= (uint64_t)INT64_MAX - 1);
	FUZZ_CHECK(!o->bs_given || o->ibs == o->obs);
	FUZZ_CHECK(o->skip_bytes < o->ibs && o->max_bytes < o->ibs);
	FUZZ_CHECK(o->seek_bytes < o->obs);
	FUZZ_CHECK(o->max_records == UINT64_MAX || o->max_records <= (uint64_t)INT64_MAX);
	FUZZ_CHECK(o->skip_records <= (uint64_t)INT64_MAX);
	FUZZ_CHECK(o->seek_records <= (uint64_t)INT64_MAX);
	FUZZ_CHECK(!more_than_one(o->conv & (CONV_ASCII | CONV_EBCDIC | CONV_IBM)));
	FUZZ_CHECK(!more_than_one(o->conv & (CONV_BLOCK | CONV_UNBLOCK)));
	FUZZ_CHECK(!more_than_one(o->conv & (CONV_LCASE | CONV_UCASE)));
	FUZZ_CHECK(!more_than_one(o->conv & (CONV_EXCL | CONV_NOCREAT)));
	FUZZ_CHECK(o->cbs || !(o->conv & (CONV_BLOCK | CONV_UNBLOCK)));
	FUZZ_CHECK(!(o->output_flags & FLAG_FULLBLOCK));
	FUZZ_CHECK(o->status <= STATUS_PROGRESS);
	FUZZ_CHECK(o->reshaping == ((o->conv & CONV_RESHAPING) != 0)
		   || (o->cbs == 0));
}

/* records × block + bytes by division, independently of plan.c's
 * overflow builtins: false when it does not fit in 64 bits. */
static bool product(uint64_t records, uint64_t block, uint64_t bytes,
		    uint64_t *result)
{
	if (records && block > UINT64_MAX / records)
		return false;
	if (records * block > UINT64_MAX - bytes)
		return false;
	*result = records * block + bytes;
	return true;
}

/* An end that is a pipe of the default 64 KiB, opened with flags. */
static void pipe_end(struct io_end *e, int flags)
{
	memset(e, 0, sizeof(*e));
	e->st.st_mode = S_IFIFO | 0600;
	e->pipe_capacity = 65536;
	e->status_flags = flags;
}

/* plan_output: zero-copy only for plain copies, and batches from a
 * pipe; run's input is a regular file whose copy starts at start. */
static void check_movers(const struct dd_options *o, struct dd_run *run,
			 uint64_t start, uint64_t file_size)
{
	struct io_end out, pipe_in;
	struct dd_plan piped;

	/* The mover: zero-copy only for plain copies. */
	pipe_end(&out, O_WRONLY);
	run->in.status_flags = O_RDONLY;
	plan_output(&run->plan, o, &run->in, &out);
	if (run->plan.mover != MOVER_RECORDS) {
		FUZZ_CHECK(ENABLE_FEATURE_ZEROCOPY);
		FUZZ_CHECK(!o->reshaping && o->ibs == o->obs);
		FUZZ_CHECK(!(o->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE)));
		/* Into a pipe, writes of at most PIPE_BUF keep their size. */
		FUZZ_CHECK(run->plan.mover == (o->obs > 4096 ? MOVER_COALESCED
					      : MOVER_READ_AHEAD));
		FUZZ_CHECK(o->obs > 4096 || o->input_path);
		FUZZ_CHECK(start < file_size);
	}

	/* From a pipe: batches of whole records, only for plain copies
	 * that look at no single read or write; at most 64 KiB, and into a
	 * pipe writes of at most PIPE_BUF (or one record). */
	piped = run->plan;
	pipe_end(&pipe_in, O_RDONLY);
	plan_output(&piped, o, &pipe_in, &out);
	if (piped.batch_size) {
		FUZZ_CHECK(ENABLE_FEATURE_ZEROCOPY && piped.mover == MOVER_RECORDS);
		FUZZ_CHECK(!o->reshaping && o->ibs == o->obs);
		FUZZ_CHECK(!(o->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE)));
		FUZZ_CHECK(!(o->input_flags & FLAG_FULLBLOCK));
		/* iflag=sync or dsync change nothing for reads of a pipe. */
		FUZZ_CHECK(!((o->input_open_flags | o->output_open_flags)
			     & O_DIRECT));
		FUZZ_CHECK(!(o->output_open_flags & (O_SYNC | O_DSYNC)));
		FUZZ_CHECK(piped.batch_size <= 65536
			   && piped.batch_size >= 2 * o->obs
			   && piped.batch_size % o->obs == 0);
		FUZZ_CHECK(piped.batch_write % o->obs == 0
			   && piped.batch_write <= (o->obs > 4096 ? o->obs : 4096));
	}

}

static void check_plan(const struct dd_options *o, uint64_t file_size)
{
	struct dd_run run;
	uint64_t skip = 0, seek = 0, count = 0;
	bool skip_fits, seek_fits, count_fits;
	uint64_t start, want;

	memset(&run, 0, sizeof(run));
	run.opt = o;
	run.in.fd = -1;
	run.in.st.st_mode = S_IFREG | 0644;
	run.in.size_known = true;
	run.in.size = file_size;
	run.in.seekable = true;
	run.in.offset = file_size & 0xfff;   /* where a caller left stdin */
	plan_input(&run.plan, o, &run.in);

	/* Every product exact, or flagged as too large. */
	skip_fits = product(o->skip_records, o->ibs, o->skip_bytes, &skip);
	FUZZ_CHECK(run.plan.skip_overflow == !skip_fits);
	FUZZ_CHECK(!skip_fits || run.plan.skip_offset == skip);
	seek_fits = product(o->seek_records, o->obs, o->seek_bytes, &seek)
		&& seek <= INT64_MAX;
	FUZZ_CHECK(run.plan.seek_too_large == !seek_fits);
	FUZZ_CHECK(!seek_fits || run.plan.seek_offset == seek);
	count_fits = product(o->max_records, o->ibs, o->max_bytes, &count);
	if (o->max_records == UINT64_MAX || !count_fits)
		FUZZ_CHECK(run.plan.count_bytes == UINT64_MAX);
	else
		FUZZ_CHECK(run.plan.count_bytes == count);
	FUZZ_CHECK(run.plan.two_buffers
		   == (!o->bs_given || o->ibs != o->obs || o->reshaping));

	/* What one read can need: ibs, bounded by the file and count=. */
	start = !skip_fits || skip > UINT64_MAX - run.in.offset ? UINT64_MAX
		: skip + run.in.offset;
	want = o->ibs;
	if (!(o->conv & CONV_SYNC)) {
		uint64_t left = start < file_size ? file_size - start : 0;

		if (left + 1 < want)
			want = left + 1;
		if (run.plan.count_bytes < want)
			want = run.plan.count_bytes;
	}
	/* A record larger than a step moves a step (4 MiB) at a time, when
	 * one buffer holds it as read and nothing looks at it whole. */
	FUZZ_CHECK(run.plan.record_steps
		   == (!run.plan.two_buffers
		       && !(o->conv & (CONV_SYNC | CONV_NOERROR | CONV_SPARSE))));
	if (run.plan.record_steps && want > (4 << 20))
		want = 4 << 20;
	FUZZ_CHECK(run.plan.ibuf_size == want);
	FUZZ_CHECK(!run.plan.two_buffers || run.plan.obuf_size <= o->obs);

	check_movers(o, &run, start, file_size);

	if (!FUZZ_TRY)
		return;   /* "memory exhausted by ... buffer": a clean death */
	map_buffers(&run);
	FUZZ_END;
	FUZZ_CHECK(run.ibuf.data != NULL && run.ibuf.capacity >= want);
	FUZZ_CHECK(run.plan.two_buffers == (run.obuf.data != NULL));
	lazy_buffer_free(&run.ibuf);
	lazy_buffer_free(&run.obuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dd_options opt;   /* static: survives the longjmp */
	char *text, *argv[MAX_OPERANDS + 1];
	static uint64_t file_size;   /* static: survives the longjmp */
	size_t argc = 0;

	file_size = 0;
	if (size > 200000)
		return 0;
	if (size > 8) {
		memcpy(&file_size, data + size - 8, 8);
		file_size &= ((uint64_t)1 << 40) - 1;   /* up to 1 TiB */
		size -= 8;
	}
	text = fuzz_string(data, size);
	for (char *p = text; argc < MAX_OPERANDS; ) {
		char *nl = strchr(p, '\n');

		argv[argc++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[argc] = NULL;

	applet_name = "dd";
	if (FUZZ_TRY) {
		parse_operands(&opt, argv);
		FUZZ_END;
		check_options(&opt);
		check_plan(&opt, file_size);
	} else {
		FUZZ_CHECK(fuzz_exit_status == EXIT_FAILURE);
	}
	free(text);
	return 0;
}
