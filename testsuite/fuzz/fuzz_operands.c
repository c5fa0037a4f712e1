/*
 * fuzz_operands.c - dd's whole operand parser (parse_operands with its
 * conflict checks) and the buffer plan, on arbitrary argument vectors.
 *
 * Input: operands separated by '\n' (at most 64; a NUL ends one early).
 * The last 8 bytes, when there are more than 8, give the size of a
 * pretend regular input file for plan_buffers.  Every exit() (a bad
 * operand) is caught (see fuzz.h).  Properties of an accepted plan:
 *   - block sizes in [1, INT64_MAX - 1]; records/bytes splits exact;
 *   - the conflicting pairs never both survive, and block/unblock never
 *     survive without cbs=;
 *   - input_start_offset never wraps (UINT64_MAX means "overflowed");
 *   - plan_buffers either dies with its message or maps an input buffer
 *     of at least min(ibs, what the file can give, count) bytes, and an
 *     output buffer exactly when GNU uses two.
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

static void check_plan(const struct dd_options *o, uint64_t file_size)
{
	struct dd_run run;
	uint64_t start, want, count_bytes;

	memset(&run, 0, sizeof(run));
	run.opt = o;
	run.in_fd = -1;
	run.out_fd = -1;
	run.in_mode = S_IFREG | 0644;
	run.in_size_known = true;
	run.in_size = file_size;
	run.in_offset = file_size & 0xfff;   /* where a caller left stdin */

	start = input_start_offset(&run);
	if (start != UINT64_MAX) {
		uint64_t skip;

		FUZZ_CHECK(!__builtin_mul_overflow(o->skip_records, o->ibs, &skip));
		FUZZ_CHECK(start == skip + o->skip_bytes + run.in_offset);
	}

	if (!FUZZ_TRY)
		return;   /* "memory exhausted by ... buffer": a clean death */
	plan_buffers(&run);
	FUZZ_END;

	/* What one read can need: ibs, bounded by the file and count=. */
	want = o->ibs;
	if (!(o->conv & CONV_SYNC)) {
		uint64_t left = start < file_size ? file_size - start : 0;

		if (left + 1 < want)
			want = left + 1;
		if (o->max_records != UINT64_MAX
		    && !__builtin_mul_overflow(o->max_records, o->ibs, &count_bytes)
		    && !__builtin_add_overflow(count_bytes, o->max_bytes, &count_bytes)
		    && count_bytes < want)
			want = count_bytes;
	}
	FUZZ_CHECK(run.ibuf.data != NULL);
	FUZZ_CHECK(run.ibuf.capacity >= want || run.ibuf.capacity >= o->ibs);
	FUZZ_CHECK(run.two_buffers == (!o->bs_given || o->ibs != o->obs || o->reshaping));
	FUZZ_CHECK(!run.two_buffers || run.obuf.data != NULL);
	FUZZ_CHECK(run.two_buffers || run.obuf.data == NULL);
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
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
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
