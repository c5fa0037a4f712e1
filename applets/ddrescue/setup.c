/*
 * setup.c - everything before the first read, in GNU ddrescue's order
 * and with its refusals, each before anything is written: the names
 * (input, output and mapfile must differ), the input and its size, the
 * domain (-i, -s, -m), the mapfile read and fitted to the input, -M and
 * -A, then the mapfile created, and the output opened last, so that a
 * rescue that cannot keep its mapfile never touches the output.  Every
 * refusal here exits: nothing has been rescued yet.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

/* "message naming 'name'", then exit 1. */
BB_NORETURN static void die_about(const char *fmt, const char *name)
{
	bb_error_msg_and_die(fmt, quote_always(name));
}

BB_NORETURN static void no_memory(void)
{
	bb_error_msg_and_die("memory exhausted");
}

/* Two names of one file (of one device, for block devices); a name
 * that is not there has no type (st_mode 0) and is no file. */
static bool same_file(const struct stat *a, const struct stat *b)
{
	if (!a->st_mode || !b->st_mode)
		return false;
	if (S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode))
		return a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Input, output and mapfile must be three files; the output a regular
 * file unless -f (and always with -S); the mapfile a regular file. */
static void check_names(const struct rescue *r)
{
	static const char *const what[3] = { "input", "output", "mapfile" };
	const char *name[3] = { r->in_name, r->out_name, r->map_name };
	struct stat st[3];
	int i, j;

	for (i = 0; i < 3; i++)
		if (!name[i] || stat(name[i], &st[i]))
			st[i].st_mode = 0;
	/* only the mapfile's name may be missing */
	for (i = 0; i < 2; i++)
		for (j = i + 1; j < 3; j++)
			if (name[j] && (!strcmp(name[i], name[j]) || same_file(&st[i], &st[j])))
				bb_error_msg_and_die("%s and %s are the same file", what[i], what[j]);
	if (st[2].st_mode && !S_ISREG(st[2].st_mode))
		die_about("%s is not a regular file", r->map_name);
	if (st[1].st_mode && !S_ISREG(st[1].st_mode) &&
	    (!(r->flags & FLAG_FORCE) || r->flags & FLAG_SPARSE))
		die_about("%s is not a regular file (-f writes to a device, without -S)",
			  r->out_name);
	if (S_ISBLK(st[0].st_mode) && st[2].st_mode && st[2].st_dev == st[0].st_rdev)
		bb_error_msg("warning: %s is on the input disk", quote_always(r->map_name));
}

/* A mapfile into *map (the status line into r when status; then a
 * mapfile that does not exist, or no name, leaves *map empty and
 * returns false). */
static bool read_map(struct rescue *r, const char *name, struct map *map, bool status)
{
	struct mapfile_parser p;
	char chunk[4096];
	ssize_t n = 0;
	int fd = name ? open(name, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0 && name && (errno != ENOENT || !status))
		exit(bb_perror_name("cannot open %s", name));
	if (mapfile_parse_begin(&p))
		no_memory();
	while (fd >= 0 && (n = safe_read(fd, chunk, sizeof(chunk))) > 0)
		if (mapfile_parse_feed(&p, chunk, (size_t)n))
			break;
	if (n < 0)
		exit(bb_perror_name("error reading %s", name));
	if (p.error || mapfile_parse_end(&p, map)) {
		xfunc_error_retval = 2;
		bb_error_msg_and_die("%s:%u: %s: mapfile refused, left as it is",
				     quote_always(name), p.lineno, p.error);
	}
	if (fd < 0)
		return false;
	close(fd);
	if (status && p.have_status) {
		r->cur_pos = p.cur_pos;
		r->cur_status = p.cur_status;
		r->cur_pass = p.cur_pass;
	}
	return true;
}

/* The domain: [ipos, end) of the input, and with -m only what that
 * mapfile calls finished; the rest of the map is marked outside it. */
static void make_domain(struct rescue *r, uint64_t end)
{
	struct map *m = &r->map, from;
	size_t i;
	int err = map_exclude(m, 0, r->ipos) | map_exclude(m, end, UINT64_MAX);

	if (r->domain_name) {
		read_map(r, r->domain_name, &from, false);
		for (i = 0; i < from.count; i++)
			if (from.status[i] != ST_FINISHED)
				err |= map_exclude(m, from.start[i], from.start[i + 1]);
		err |= map_exclude(m, map_end(&from), UINT64_MAX);
		map_free(&from);
	}
	if (err)
		no_memory();
}

/* The map fitted to an input of r->insize bytes, as GNU's: non-tried
 * up to it; past it, a last block that is not finished is cut off. */
static void fit_map(struct rescue *r)
{
	struct map *m = &r->map;
	size_t last;

	if (map_end(m) < r->insize && map_append(m, r->insize - map_end(m), ST_NONTRIED))
		no_memory();
	if (map_end(m) <= r->insize)
		return;
	last = m->count - 1;
	if (m->start[last] > r->insize || m->status[last] == ST_FINISHED)
		bb_error_msg_and_die("the mapfile goes past the input's end");
	map_truncate(m, r->insize);
}

/* The mapfile saved (made, if it is new) before the output is opened,
 * so that one that cannot be written stops the rescue before anything
 * is; then the output.  A new mapfile is removed again if the output
 * fails. */
static void create_files(struct rescue *r)
{
	bool new_map = r->map_name && !r->map_existed;
	int fd;

	/* r->phase is "Starting" */
	if (r->map_name && save_mapfile(r))
		exit(bb_perror_name("error saving mapfile %s", r->map_name));
	fd = open(r->out_name, O_WRONLY | O_CREAT | O_CLOEXEC | (r->flags & FLAG_DIRECT_OUT ? O_DIRECT : 0),
		  0666);
	if (fd < 0) {
		int err = errno;

		if (new_map)
			unlink(r->map_name);
		errno = err;
		exit(bb_perror_name("cannot open %s", r->out_name));
	}
	r->out_fd = fd;
}

void setup(struct rescue *r, uint64_t size)
{
	struct io_end in;
	struct lazy_buffer buf = { NULL, 0 };
	int fd;

	check_names(r);
	fd = open(r->in_name, r->in_flags);
	if (fd < 0)
		exit(bb_perror_name("cannot open %s", r->in_name));
	io_end_learn(&in, fd, r->in_name);
	r->in_fd = fd;
	if (!in.size_known && size == UINT64_MAX)
		die_about("%s: unknown size: use -s", r->in_name);
	r->insize = in.size_known ? in.size : r->ipos + size;
	if (r->insize && r->ipos >= r->insize)
		bb_error_msg_and_die("can't start reading at %llu: the input has %llu bytes",
				     (unsigned long long)r->ipos, (unsigned long long)r->insize);
	if ((r->map_existed = read_map(r, r->map_name, &r->map, true)))
		r->map_insize = map_end(&r->map);
	fit_map(r);
	make_domain(r, min_u64(r->insize, r->ipos + min_u64(size, INT64_MAX)));
	/* -M: failed blocks to be trimmed again; -A: non-trimmed and
	 * non-scraped ones to be copied again */
	if (r->flags & FLAG_RETRIM) {
		map_recolor(&r->map, ST_NONSCRAPED, ST_NONTRIMMED);
		map_recolor(&r->map, ST_BAD, ST_NONTRIMMED);
	}
	if (r->flags & FLAG_TRY_AGAIN) {
		map_recolor(&r->map, ST_NONTRIMMED, ST_NONTRIED);
		map_recolor(&r->map, ST_NONSCRAPED, ST_NONTRIED);
	}
	count_sizes(r);
	if (r->new_bad_only && r->max_bad_areas != UINT64_MAX)
		r->max_bad_areas += r->bad_areas;
	if (!domain_size(r)) {
		if (!(r->flags & FLAG_QUIET))
			bb_error_msg("nothing to do");
		exit(0);
	}
	if (lazy_buffer_alloc(&buf, r->cluster + r->sector))
		no_memory();
	r->buf = buf.data;
	create_files(r);
}
