/*
 * bmap.c - bmap=FILE: write only the blocks that a bmaptool block map
 * lists, each at its own offset, checking each range's checksum as it
 * is read (FEATURE_DD_BMAP, a zerobox extension).
 *
 * The input is read in order, so a pipe works (xzcat img.xz | dd
 * bmap=img.bmap of=/dev/sdX): unmapped input is sought over where the
 * input can seek and read and dropped where it cannot.  Unmapped blocks
 * of the output are left as they are: that is what a bmap means; with
 * unmapped=zero the device zeroes them (zeroout.c), so that the output
 * holds the whole image.
 *
 * The map is read again for each pass over it, so memory does not grow
 * with it: whole, before the output is opened (bmap_prepare: every
 * check, the map's own checksum, the input's size, the output's), then
 * range by range during the copy, and for conv=verify's read-back, to
 * which the map's ranges are the extents written.  A map that changed
 * in between fails at its end.
 */
//config:config FEATURE_DD_BMAP
//config:	bool "bmap=FILE: write only the blocks a bmaptool map lists"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  The ranges of bmaptool's map (format 1.0 to 2.x), checksums
//config:	  checked, the rest of the output left as it is (or zeroed,
//config:	  with unmapped=zero).  Without this, bmap= is refused.

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#include "entries.h"
#include "bmap.h"

/* The map is read this much at a time.  The image moves a record (ibs)
 * at a time, a larger one in steps of BMAP_STEP_MAX: peak memory that
 * fits a small board. */
enum { BMAP_READ = 4096, BMAP_STEP_MAX = 4 << 20 };

struct bmap_state {
	int fd;
	const char *name;
	struct bmap_header header;
	struct bmap_parser parser;
	unsigned char text[BMAP_READ];   /* the map's bytes not yet parsed */
	size_t text_start, text_end;
	struct lazy_buffer buf;          /* the image's bytes, a step at a time */
	size_t step;                     /* what one read and one write move */
	uint64_t in_base, out_base;      /* where the image starts on each side */
	uint64_t image_pos;              /* image bytes read or passed so far */
	uint64_t mapped_done;            /* mapped bytes written */
	/* The walk over the extents (image offsets): the copy's, and
	 * conv=verify's read-back's. */
	struct extent_source extents;
	uint64_t extent_end;             /* where the last extent given ends */
	bool range_waiting;              /* parser.range, after the gap before it */
};

static struct bmap_state bmap;

BB_NORETURN static void refuse(const char *why)
{
	bb_error_msg_and_die("bmap %s: line %llu: %s", quote_always(bmap.name),
			     (unsigned long long)bmap.parser.line, why);
}

/* The next range of the map, false at its end (which checks out). */
static bool next_range(void)
{
	for (;;) {
		enum bmap_step step;
		ssize_t n;
		size_t used;

		if (bmap.text_start < bmap.text_end) {
			step = bmap_parse(&bmap.parser, bmap.text + bmap.text_start,
					  bmap.text_end - bmap.text_start, &used);
			bmap.text_start += used;
			if (step == BMAP_RANGE)
				return true;
			if (step == BMAP_ERROR)
				refuse(bmap.parser.error);
			continue;
		}
		n = safe_read(bmap.fd, bmap.text, sizeof(bmap.text));
		if (n < 0)
			bb_perror_msg_and_die("error reading bmap %s",
					      quote_always(bmap.name));
		if (n == 0) {
			if (bmap_parse_end(&bmap.parser) != BMAP_DONE)
				refuse(bmap.parser.error);
			return false;
		}
		bmap.text_start = 0;
		bmap.text_end = (size_t)n;
	}
}

static void rewind_map(void)
{
	if (lseek(bmap.fd, 0, SEEK_SET) != 0)
		bb_perror_msg_and_die("cannot seek bmap %s", quote_always(bmap.name));
	bmap_parse_init(&bmap.parser);
	bmap.text_start = bmap.text_end = 0;
}

/* The extents the copy writes, on the output: the map's ranges, and with
 * unmapped=zero the gaps between them, zeros.  An extent source
 * (entries.h); ctx is the run's options. */
static bool next_extent(void *ctx, struct written_extent *e)
{
	const struct dd_options *opt = ctx;
	uint64_t at = bmap.header.image_size;

	/* After the map's end this finds it again. */
	if (!bmap.range_waiting)
		bmap.range_waiting = next_range();
	if (bmap.range_waiting)
		at = bmap_range_offset(&bmap.header, &bmap.parser.range);
	e->zeros = opt->zero_unmapped && at > bmap.extent_end;
	if (e->zeros) {
		e->offset = bmap.extent_end;
		e->length = at - bmap.extent_end;
	} else if (bmap.range_waiting) {
		e->offset = at;
		e->length = bmap_range_length(&bmap.header, &bmap.parser.range);
		bmap.range_waiting = false;
	} else {
		return false;
	}
	bmap.extent_end = e->offset + e->length;
	e->offset += bmap.out_base;
	return true;
}

static void rewind_extents(void *ctx)
{
	(void)ctx;
	rewind_map();
	bmap.extent_end = 0;
	bmap.range_waiting = false;
}

/* The output must be a file or a block device that holds the image;
 * learned without opening it for writing (a block device opened for
 * writing makes udev look at it again when it is closed). */
static void check_output(const struct dd_run *run)
{
	const char *path = run->opt->output_path;
	const char *name = path ? path : "standard output";
	struct stat st;
	uint64_t size = UINT64_MAX;
	int fd;

	/* Not there (or not to be known): opening it says what it is. */
	if ((path ? stat(path, &st) : fstat(STDOUT_FILENO, &st)) != 0
	    || S_ISREG(st.st_mode))
		return;
	if (!S_ISBLK(st.st_mode))
		bb_error_msg_and_die("bmap=: %s is neither a file nor a block device",
				     quote_always(name));
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : STDOUT_FILENO;
	if (fd < 0)
		bb_perror_msg_and_die("failed to open %s", quote_always(name));
	(void)ioctl(fd, BLKGETSIZE64, &size);
	if (path)
		close(fd);
	if (size < bmap.header.image_size)
		bb_error_msg_and_die("bmap=: %s is smaller than the image (%llu bytes)",
				     quote_always(name),
				     (unsigned long long)bmap.header.image_size);
}

/* The input is not the image's size (a pipe says so once read). */
static void report_input_size(const struct dd_run *run, uint64_t size)
{
	bb_error_msg("bmap=: %s is %llu bytes, the bmap's image %llu",
		     quote_always(run->in.name), (unsigned long long)size,
		     (unsigned long long)bmap.header.image_size);
}

/* An image shipped compressed (.img.xz, .img.gz) is the usual reason
 * for the wrong size: say how to give dd the image itself. */
static void suggest_decompressing(const struct dd_run *run)
{
	unsigned char magic[2] = { 0, 0 };

	(void)pread(run->in.fd, magic, 2, (off_t)bmap.in_base);
	if ((magic[0] == 0xfd && magic[1] == '7') || (magic[0] == 0x1f && magic[1] == 0x8b))
		bb_error_msg("%s is compressed: %s it into dd",
			     quote_always(run->in.name),
			     magic[0] == 0xfd ? "xzcat" : "zcat");
}

void bmap_prepare(struct dd_run *run)
{
	uint64_t in_size;

	bmap.name = run->opt->bmap_path;
	bmap.fd = open(bmap.name, O_RDONLY | O_CLOEXEC);
	if (bmap.fd < 0)
		bb_perror_msg_and_die("failed to open bmap %s", quote_always(bmap.name));
	/* It is read again for each pass: one that can't seek (a pipe)
	 * fails here. */
	rewind_map();
	while (next_range())
		continue;
	bmap.header = bmap.parser.header;
	run->expected_bytes = bmap.header.mapped_bytes;

	/* The image must end where the map says: a character device has
	 * no size, and /dev/zero no end to read to. */
	if (!run->in.stat_errno && S_ISCHR(run->in.st.st_mode))
		bb_error_msg_and_die("bmap=: %s is neither a file, a block device"
				     " nor a pipe", quote_always(run->in.name));
	bmap.in_base = run->in.offset;
	in_size = run->in.size - min_u64(run->in.size, bmap.in_base);
	if (run->in.size_known && in_size != bmap.header.image_size) {
		report_input_size(run, in_size);
		suggest_decompressing(run);
		exit(xfunc_error_retval);
	}
	check_output(run);
	bmap.step = (size_t)min_u64(run->opt->ibs, BMAP_STEP_MAX);
	if (lazy_buffer_alloc(&bmap.buf, bmap.step) != 0)
		die_memory_exhausted("input", bmap.step);
}

/* One read(2) of the input into the buffer at offset at; -1 when it
 * failed (reported). */
static ssize_t read_some(struct dd_run *run, size_t at, size_t len)
{
	ssize_t n = read_restarting(run, bmap.buf.data + at, len);

	if (n < 0)
		bb_perror_msg("error reading %s", quote_always(run->in.name));
	return n;
}

/* Read exactly len bytes of the image into the buffer; false when the
 * input failed (reported) or ended too soon (reported). */
static bool read_image(struct dd_run *run, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read_some(run, got, len - got);

		if (n < 0)
			return false;
		if (n == 0) {
			report_input_size(run, bmap.image_pos + got);
			return false;
		}
		got += (size_t)n;
	}
	bmap.image_pos += len;
	return true;
}

/* Pass over the input up to image offset `to`. */
static bool pass_input(struct dd_run *run, uint64_t to)
{
	uint64_t gap = to - bmap.image_pos;

	if (!gap)
		return true;
	if (run->in.seekable) {
		if (lseek(run->in.fd, (off_t)(bmap.in_base + to), SEEK_SET) < 0) {
			bb_perror_msg("%s: cannot skip", quote_if_needed(run->in.name));
			return false;
		}
		bmap.image_pos = to;
		tally_passed(run, gap, 0);
		return true;
	}
	while (bmap.image_pos < to) {
		uint64_t before = bmap.image_pos;

		if (!read_image(run, (size_t)min_u64(to - bmap.image_pos, bmap.step)))
			return false;
		tally_passed(run, bmap.image_pos - before, 0);
		housekeep(run);
	}
	return true;
}

/* A pipe is read to its end: an image of another size is an error,
 * and the writer does not die of SIGPIPE. */
static bool check_input_end(struct dd_run *run)
{
	uint64_t extra = 0;
	ssize_t n;

	if (run->in.size_known)
		return true;
	if (!pass_input(run, bmap.header.image_size))
		return false;
	while ((n = read_some(run, 0, bmap.buf.capacity)) != 0) {
		if (n < 0)
			return false;
		extra += (uint64_t)n;
	}
	if (!extra)
		return true;
	report_input_size(run, bmap.header.image_size + extra);
	return false;
}

static bool range_checks_out(const struct sha_ctx *h, const struct bmap_range *r)
{
	unsigned char digest[BMAP_DIGEST_MAX];
	struct sha_ctx copy = *h;

	if (!r->has_checksum || bmap.header.checksum_type == BMAP_CHECKSUM_NONE)
		return true;
	sha_final(&copy, digest);
	return memcmp(digest, r->checksum, bmap.header.digest_size) == 0;
}

/* One range, the extent e: read, hash, write, a step at a time.
 * STOP_NONE once it is written. */
static enum dd_stop copy_range(struct dd_run *run, const struct bmap_range *r,
			       const struct written_extent *e)
{
	uint64_t out_at = e->offset, offset = out_at - bmap.out_base;
	uint64_t left = e->length;
	struct sha_ctx h;

	if (bmap.header.checksum_type == BMAP_CHECKSUM_SHA1)
		sha1_init(&h);
	else
		sha256_init(&h);
	if (!pass_input(run, offset))
		return STOP_INPUT_FAILED;
	if (lseek(run->out.fd, (off_t)out_at, SEEK_SET) < 0) {
		report_seek_error(&run->out);
		return STOP_WRITE_FAILED;
	}
	if (run->verify)
		verify_moved_to(run, out_at);
	tally_passed(run, 0, out_at - run->tally.out_offset);
	while (left) {
		size_t len = (size_t)min_u64(left, bmap.step), done;

		if (!read_image(run, len))
			return STOP_INPUT_FAILED;
		if (bmap.header.checksum_type != BMAP_CHECKSUM_NONE)
			sha_update(&h, bmap.buf.data, len);
		left -= len;
		/* The range's last step waits for its checksum: a bad range
		 * of one step is never written. */
		if (!left && !range_checks_out(&h, r)) {
			bb_error_msg("bmap=: range %llu-%llu (bytes %llu-%llu) of %s:"
				     " checksum mismatch",
				     (unsigned long long)r->first, (unsigned long long)r->last,
				     (unsigned long long)offset,
				     (unsigned long long)(offset + e->length - 1),
				     quote_always(run->in.name));
			return STOP_INPUT_FAILED;
		}
		done = write_bytes(run, bmap.buf.data, len);
		tally_moved(run, done);
		bmap.mapped_done += done;
		tally_coalesced(run, bmap.mapped_done, COALESCED_AT_END);
		if (done != len) {
			report_write_error(run, WRITE_RECORD);
			return STOP_WRITE_FAILED;
		}
		housekeep(run);
	}
	return STOP_NONE;
}

/* unmapped=zero: the gap e, zeroed as the zeroing mover zeroes a hole.
 * The held first block's are conv=verify's to write, with it, last. */
static enum dd_stop zero_gap(struct dd_run *run, const struct written_extent *e)
{
	uint64_t from = e->offset, to = e->offset + e->length;
	uint64_t held_end = run->verify ? verify_hold_end(run) : 0;

	if (from < held_end)
		from = min_u64(held_end, to);
	if (ENABLE_FEATURE_DD_ZEROOUT && zero_output(run, from, to - from))
		return STOP_NONE;
	report_write_error(run, WRITE_RECORD);
	return STOP_WRITE_FAILED;
}

/* A file shorter than the image (a new one) gets the image's size, as
 * the unmapped end reads as zeros; nothing that was there changes. */
static enum dd_stop extend_file(struct dd_run *run)
{
	uint64_t end = bmap.out_base + bmap.header.image_size;

	/* The writes end within the image: this only makes it longer. */
	if (!S_ISREG(run->out.st.st_mode) || run->out.size >= end
	    || ftruncate(run->out.fd, (off_t)end) == 0)
		return STOP_NONE;
	bb_perror_msg("failed to truncate to %llu bytes in output file %s",
		      (unsigned long long)end, quote_always(run->out.name));
	return STOP_WRITE_FAILED;
}

/* The extents, then the checks at the end. */
static enum dd_stop copy_extents(struct dd_run *run)
{
	struct written_extent e;
	enum dd_stop stop = STOP_NONE;
	bool input_whole;

	rewind_extents(NULL);
	while (stop == STOP_NONE && next_extent((void *)run->opt, &e))
		stop = e.zeros ? zero_gap(run, &e) : copy_range(run, &bmap.parser.range, &e);
	if (stop != STOP_NONE)
		return stop;
	/* The map read again is the one checked before. */
	if (bmap.header.mapped_bytes != bmap.mapped_done
	    || bmap.header.image_size != bmap.parser.header.image_size) {
		bb_error_msg("bmap %s changed during the copy", quote_always(bmap.name));
		return STOP_INPUT_FAILED;
	}
	input_whole = check_input_end(run);
	stop = extend_file(run);
	if (stop != STOP_NONE)
		return stop;
	return input_whole ? STOP_DONE : STOP_INPUT_FAILED;
}

enum dd_stop copy_bmap(struct dd_run *run)
{
	bool zeros = run->opt->zero_unmapped;
	enum dd_stop stop;

	bmap.out_base = run->out.offset;
	bmap.extents = (struct extent_source){
		next_extent, rewind_extents, (void *)run->opt,
		zeros ? bmap.header.image_size : bmap.header.mapped_bytes,
		bmap.out_base + bmap.header.image_size,
	};
	if (run->verify)
		verify_use_extents(run, &bmap.extents);
	stop = copy_extents(run);
	/* Its memory is conv=verify's now. */
	lazy_buffer_free(&bmap.buf);
	return stop;
}
