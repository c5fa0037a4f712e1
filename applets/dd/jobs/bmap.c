/*
 * bmap.c - bmap=FILE: write only the blocks that a bmaptool block map
 * lists, each at its own offset, checking each range's checksum as it
 * is read (FEATURE_DD_BMAP, a zerobox extension).
 *
 * The input is read in order, so a pipe works (xzcat img.xz | dd
 * bmap=img.bmap of=/dev/sdX): unmapped input is sought over where the
 * input can seek and read and dropped where it cannot.  Unmapped blocks
 * of the output are left as they are: that is what a bmap means.
 *
 * The map is read twice, so memory does not grow with it: whole, before
 * the output is opened (bmap_prepare: every check, the map's own
 * checksum, the input's size, the output's), then range by range during
 * the copy.  A map that changed in between fails at its end.
 */
//config:config FEATURE_DD_BMAP
//config:	bool "bmap=FILE: write only the blocks a bmaptool map lists"
//config:	default y
//config:	depends on DD
//config:	help
//config:	  The ranges of bmaptool's map (format 1.0 to 2.x), checksums
//config:	  checked, the rest of the output left as it is.  Without this,
//config:	  bmap= is refused.

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs.h"
#include "bmap.h"

/* Reads and writes go in steps of this much: few syscalls, and peak
 * memory that fits a small board. */
enum { BMAP_STEP = 1 << 20, BMAP_READ = 4096 };

struct bmap_state {
	int fd;
	const char *name;
	struct bmap_header header;
	struct bmap_parser parser;
	unsigned char text[BMAP_READ];   /* the map's bytes not yet parsed */
	size_t text_start, text_end;
	struct lazy_buffer buf;          /* the image's bytes, a step at a time */
	uint64_t in_base, out_base;      /* where the image starts on each side */
	uint64_t image_pos;              /* image bytes read or passed so far */
	uint64_t mapped_done;            /* mapped bytes written */
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

/* The output must be a file or a block device that holds the image;
 * learned without opening it for writing (a block device opened for
 * writing makes udev look at it again when it is closed). */
static void check_output(const struct dd_run *run)
{
	const char *path = run->opt->output_path;
	struct stat st;
	struct io_end end;
	int fd;

	if (path ? stat(path, &st) != 0 : fstat(STDOUT_FILENO, &st) != 0) {
		if (path && errno == ENOENT)
			return;
		bb_perror_msg_and_die("cannot stat %s",
				      quote_always(path ? path : "standard output"));
	}
	if (S_ISREG(st.st_mode))
		return;
	if (!S_ISBLK(st.st_mode))
		bb_error_msg_and_die("bmap=: %s is neither a file nor a block device",
				     quote_always(path ? path : "standard output"));
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : STDOUT_FILENO;
	if (fd < 0)
		bb_perror_msg_and_die("failed to open %s", quote_always(path));
	io_end_learn(&end, fd, path ? path : "standard output");
	if (path)
		close(fd);
	if (end.size_known && end.size < bmap.header.image_size)
		bb_error_msg_and_die("bmap=: the image (%llu bytes) does not fit"
				     " in %s (%llu bytes)",
				     (unsigned long long)bmap.header.image_size,
				     quote_always(end.name),
				     (unsigned long long)end.size);
}

void bmap_prepare(struct dd_run *run)
{
	struct stat st;

	bmap.name = run->opt->bmap_path;
	bmap.fd = open(bmap.name, O_RDONLY | O_CLOEXEC);
	if (bmap.fd < 0)
		bb_perror_msg_and_die("failed to open bmap %s", quote_always(bmap.name));
	/* Read twice: it must be a file. */
	if (fstat(bmap.fd, &st) != 0 || !S_ISREG(st.st_mode))
		bb_error_msg_and_die("bmap %s is not a regular file",
				     quote_always(bmap.name));
	rewind_map();
	while (next_range())
		continue;
	bmap.header = bmap.parser.header;

	bmap.in_base = run->in.offset;
	if (run->in.size_known
	    && run->in.size - min_u64(run->in.size, bmap.in_base) != bmap.header.image_size)
		bb_error_msg_and_die("bmap=: %s is %llu bytes, the bmap's image %llu",
				     quote_always(run->in.name),
				     (unsigned long long)(run->in.size
				       - min_u64(run->in.size, bmap.in_base)),
				     (unsigned long long)bmap.header.image_size);
	check_output(run);
	if (lazy_buffer_alloc(&bmap.buf, BMAP_STEP) != 0)
		die_memory_exhausted("input", BMAP_STEP);
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
			bb_error_msg("bmap=: %s ends at byte %llu, before the image does"
				     " (%llu bytes)", quote_always(run->in.name),
				     (unsigned long long)(bmap.image_pos + got),
				     (unsigned long long)bmap.header.image_size);
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

		if (!read_image(run, (size_t)min_u64(to - bmap.image_pos, BMAP_STEP)))
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
	bb_error_msg("bmap=: %s is longer than the image (%llu bytes)",
		     quote_always(run->in.name),
		     (unsigned long long)bmap.header.image_size);
	return false;
}

/* Member by member: the struct has padding, which memcmp would compare. */
static bool same_header(const struct bmap_header *a, const struct bmap_header *b)
{
	return a->version_major == b->version_major
	    && a->version_minor == b->version_minor
	    && a->image_size == b->image_size
	    && a->block_size == b->block_size
	    && a->blocks_count == b->blocks_count
	    && a->mapped_blocks == b->mapped_blocks
	    && a->checksum_type == b->checksum_type
	    && a->digest_size == b->digest_size
	    && a->mapped_bytes == b->mapped_bytes;
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

/* One range: read, hash, write, a step at a time.  STOP_NONE once it is
 * written. */
static enum dd_stop copy_range(struct dd_run *run, const struct bmap_range *r)
{
	uint64_t offset = bmap_range_offset(&bmap.header, r);
	uint64_t left = bmap_range_length(&bmap.header, r);
	uint64_t out_at = bmap.out_base + offset;
	struct sha_ctx h;

	if (bmap.header.checksum_type == BMAP_CHECKSUM_SHA1)
		sha1_init(&h);
	else
		sha256_init(&h);
	if (!pass_input(run, offset))
		return STOP_INPUT_FAILED;
	if (lseek(run->out.fd, (off_t)out_at, SEEK_SET) < 0) {
		bb_perror_msg("%s: cannot seek", quote_if_needed(run->out.name));
		return STOP_WRITE_FAILED;
	}
	tally_passed(run, 0, out_at - run->tally.out_offset);
	while (left) {
		size_t len = (size_t)min_u64(left, BMAP_STEP), done;

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
				     (unsigned long long)(offset + bmap_range_length(&bmap.header, r) - 1),
				     quote_always(run->in.name));
			return STOP_INPUT_FAILED;
		}
		done = write_step(run, bmap.buf.data, len);
		tally_moved(run, done, true);
		bmap.mapped_done += done;
		tally_coalesced(run, bmap.mapped_done, true);
		if (done != len) {
			report_write_error(run, false);
			return STOP_WRITE_FAILED;
		}
		housekeep(run);
	}
	return STOP_NONE;
}

/* A file shorter than the image (a new one) gets the image's size, as
 * the unmapped end reads as zeros; nothing that was there changes. */
static enum dd_stop extend_file(struct dd_run *run)
{
	struct stat st;
	uint64_t end = bmap.out_base + bmap.header.image_size;

	if (!S_ISREG(run->out.st.st_mode) || fstat(run->out.fd, &st) != 0
	    || (uint64_t)st.st_size >= end)
		return STOP_NONE;
	if (ftruncate(run->out.fd, (off_t)end) == 0)
		return STOP_NONE;
	bb_perror_msg("failed to extend %s to the image's size",
		      quote_always(run->out.name));
	return STOP_WRITE_FAILED;
}

enum dd_stop copy_bmap(struct dd_run *run)
{
	enum dd_stop stop;
	bool input_whole;

	if (!run->out.seekable)
		bb_error_msg_and_die("bmap=: %s cannot seek",
				     quote_if_needed(run->out.name));
	bmap.out_base = run->out.offset;
	rewind_map();
	while (next_range()) {
		stop = copy_range(run, &bmap.parser.range);
		if (stop != STOP_NONE)
			return stop;
	}
	if (bmap.header.mapped_bytes != bmap.mapped_done
	    || !same_header(&bmap.header, &bmap.parser.header)) {
		bb_error_msg("bmap %s changed during the copy", quote_always(bmap.name));
		return STOP_INPUT_FAILED;
	}
	input_whole = check_input_end(run);
	stop = extend_file(run);
	if (stop != STOP_NONE)
		return stop;
	return input_whole ? STOP_DONE : STOP_INPUT_FAILED;
}
