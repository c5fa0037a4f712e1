/*
 * mapfile.c - GNU ddrescue's mapfile: comment lines ('#' at the start
 * of a line or after a blank), a status line "pos status pass", then
 * one "pos size status" line per block, contiguous.  The parser takes
 * the text in pieces through a line buffer of fixed size, so a mapfile
 * of any length costs no more memory than its blocks; a line that does
 * not fit is accepted only as a comment.  Saving writes a new file,
 * fsyncs it and renames it over the old one: a crash leaves one or the
 * other, whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>	/* rename */
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

int mapfile_parse_begin(struct mapfile_parser *p, size_t max_blocks)
{
	memset(p, 0, sizeof(*p));
	return map_init(&p->map, max_blocks);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* Split a line into at most 3 fields; returns how many (4: too many). */
static int fields(char *line, char *field[3])
{
	int n = 0;
	char *s = line;

	for (;;) {
		s = (char *)skip_blanks(s);
		if (!*s || *s == '#')
			return n;
		if (n == 3)
			return 4;
		field[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

/* A field that is a C++ integer constant, at most INT64_MAX: 0 or -1. */
static int number_field(const char *f, uint64_t *v)
{
	static const struct number_syntax integer = { NULL, 0, NUMBER_INTEGER };

	return scan_number(&f, &integer, v) != PARSE_SIZE_OK || *f || *v > INT64_MAX
		? -1 : 0;
}

static int fail(struct mapfile_parser *p, const char *why)
{
	p->error = why;
	return -1;
}

/* The line in p->line: NULL, or what is wrong with it. */
static const char *parse_line(struct mapfile_parser *p)
{
	char *field[3], *status;
	uint64_t pos, size, pass;
	int n;

	p->line[p->len] = '\0';
	n = fields(p->line, field);
	if (!n)
		return NULL;
	if (p->too_long)
		return "line too long";
	if (n != 3)
		return "expected 3 fields";
	if (number_field(field[0], &pos))
		return "invalid position";
	/* The status line is "pos status pass", a block "pos size status". */
	status = field[p->have_status ? 2 : 1];
	if (status[1])
		return "invalid status character";
	if (!p->have_status) {
		if (!strchr("?*/-FG+", *status))
			return "invalid status character";
		if (*field[2] < '1' || *field[2] > '9' ||
		    number_field(field[2], &pass) || pass > 1000000)
			return "invalid pass";
		p->have_status = true;
		p->cur_pos = pos;
		p->cur_status = (unsigned char)*status;
		p->cur_pass = (int)pass;
		return NULL;
	}
	if (number_field(field[1], &size))
		return "invalid size";
	if (!strchr("?*/-+", *status))
		return "invalid status character";
	if (!p->map.count && pos && map_append(&p->map, pos, ST_NONTRIED))
		return "too many blocks";
	if (pos != map_end(&p->map))
		return "block not contiguous with the one before";
	if (size > (uint64_t)INT64_MAX - pos)
		return "block ends past the largest position";
	if (map_append(&p->map, size, *status))
		return "too many blocks";
	return NULL;
}

int mapfile_parse_feed(struct mapfile_parser *p, const char *data, size_t n)
{
	for (; n; data++, n--) {
		if (*data == '\n') {
			p->lineno++;
			if ((p->error = parse_line(p)) != NULL)
				return -1;
			p->len = 0;
			p->too_long = false;
		} else if (*data == '\0') {
			p->lineno++;
			return fail(p, "NUL byte");
		} else if (p->len < sizeof(p->line) - 1) {
			p->line[p->len++] = *data;
		} else {
			p->too_long = true;
		}
	}
	return 0;
}

int mapfile_parse_end(struct mapfile_parser *p, struct map *map)
{
	/* a last line without its newline */
	if ((p->len || p->too_long) && mapfile_parse_feed(p, "\n", 1))
		return -1;
	if (!p->have_status && p->lineno)
		return fail(p, "no status line");
	*map = p->map;
	return 0;
}

/* ---- saving -------------------------------------------------------- */

/* Lines are formatted into a buffer written whenever less than a block
 * line's room (42 bytes) is left; the header, with the command line and
 * the phase cut to COMMAND_LINE_MAX and PHASE_MAX, always fits. */
enum { SAVE_BUF = 4096, LINE_ROOM = 64, PHASE_MAX = 64 };

/* GNU writes the hex of the mapfile in upper case, bb_format in lower:
 * upper-case the letters of the line at s, which are only hex digits. */
static void upper_hex(char *s)
{
	for (; *s != '\n'; s++)
		if (*s >= 'a' && *s <= 'f')
			*s -= 'a' - 'A';
}

int mapfile_save(const char *name, const struct map *map,
		 const struct mapfile_status *st)
{
	char buf[SAVE_BUF], tmp[PATH_MAX], *line;
	size_t len, i = 0;
	int fd, err;

	/* A name that does not fit is one that open() would refuse. */
	if (bb_format(tmp, sizeof(tmp), "%s.tmp", name) >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	len = bb_format(buf, SAVE_BUF,
			"# Mapfile. Created by zerobox ddrescue\n"
			"# Command line: %.*s\n# %.*s\n"
			"# current_pos  current_status  current_pass\n",
			COMMAND_LINE_MAX, st->command_line, PHASE_MAX, st->phase);
	/* At least 8 hex digits, as GNU writes them. */
	line = buf + len;
	len += bb_format(line, SAVE_BUF - len,
			 "0x%08llx     %c               %d\n"
			 "#      pos        size  status\n",
			 (unsigned long long)st->cur_pos, st->cur_status, st->cur_pass);
	upper_hex(line);
	for (;;) {
		uint64_t pos, size;
		int s;

		if (len > SAVE_BUF - LINE_ROOM || i == map->count) {
			if (full_write(fd, buf, len) != (ssize_t)len)
				break;
			len = 0;
		}
		if (i == map->count)
			break;
		map_block(map, i++, &pos, &size, &s);
		line = buf + len;
		len += bb_format(line, SAVE_BUF - len, "0x%08llx  0x%08llx  %c\n",
				 (unsigned long long)pos, (unsigned long long)size, s);
		upper_hex(line);
	}
	/* len is 0 when every line was written */
	if (len || fsync(fd)) {
		err = errno;
		close(fd);
	} else if (close(fd) || rename(tmp, name)) {
		err = errno;
	} else {
		return 0;
	}
	unlink(tmp);
	errno = err;
	return -1;
}
