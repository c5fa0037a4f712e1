/*
 * mapfile.c - GNU ddrescue's mapfile: comment lines ('#' at the start
 * of a line or after a blank), a status line "pos status pass", then
 * one "pos size status" line per block, contiguous.  The parser takes
 * the text in pieces through a line buffer of fixed size, so a mapfile
 * of any length costs no more memory than its blocks; a line that does
 * not fit is accepted only as a comment.  Saving writes a new file,
 * fsyncs it and renames it over the old one (ddrescue.h says how the
 * links, the mode and a full disk are dealt with).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>	/* rename */
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "ddrescue.h"

int mapfile_parse_begin(struct mapfile_parser *p)
{
	memset(p, 0, sizeof(*p));
	return map_init(&p->map);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return s;
}

/* Split a line into at most 3 fields (what follows is ignored, as GNU
 * ignores it); returns how many. */
static int fields(char *line, char *field[3])
{
	int n = 0;
	char *s = line;

	while (n < 3) {
		s = (char *)skip_blanks(s);
		if (!*s || *s == '#')
			break;
		field[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

/* A field that is a C++ integer constant, at most max: 0 or -1. */
static int number_field(const char *f, uint64_t max, uint64_t *v)
{
	static const struct number_syntax integer = { NULL, 0, NUMBER_INTEGER };

	return scan_number(&f, &integer, v) != PARSE_SIZE_OK || *f || *v > max ? -1 : 0;
}

/* The status line "pos status [pass]": false if it is not one. */
static bool status_line(struct mapfile_parser *p, char *field[3], int n)
{
	uint64_t pass = 1;

	if (field[1][1] || !strchr("?*/-FG+", *field[1]) ||
	    (n == 3 && (*field[2] < '0' || *field[2] > '9' ||
			number_field(field[2], INT_MAX, &pass) || !pass)))
		return false;
	p->have_status = true;
	p->cur_status = (unsigned char)*field[1];
	p->cur_pass = (int)pass;
	return true;
}

/* The line in p->line: NULL, or what is wrong with it (GNU says no
 * more than which line). */
static const char *parse_line(struct mapfile_parser *p)
{
	char *field[3], *status;
	uint64_t pos, size;
	int n;

	p->line[p->len] = '\0';
	n = fields(p->line, field);
	if (!n)
		return NULL;
	if (p->too_long || n < 2 + p->have_status || number_field(field[0], INT64_MAX, &pos))
		return "invalid line";
	if (!p->have_status) {
		p->cur_pos = pos;
		return status_line(p, field, n) ? NULL : "invalid line";
	}
	status = field[2];
	/* contiguous blocks; one of size 0 only at 0, as GNU has it; the
	 * first may start past 0, non-tried up to it */
	if (number_field(field[1], INT64_MAX - pos, &size) || (!size && pos) ||
	    status[1] || !strchr("?*/-+", *status) ||
	    (p->map.count && pos != map_end(&p->map)))
		return "invalid line";
	if (map_append(&p->map, pos - map_end(&p->map), ST_NONTRIED) ||
	    map_append(&p->map, size, *status))
		return "memory exhausted";
	return NULL;
}

int mapfile_parse_feed(struct mapfile_parser *p, const char *data, size_t n)
{
	for (; n; data++, n--) {
		if (*data == '\n' || !*data) {
			p->lineno++;
			if (!*data || (p->error = parse_line(p)) != NULL) {
				if (!p->error)
					p->error = "invalid line";
				return -1;
			}
			p->len = 0;
			p->too_long = false;
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
	*map = p->map;
	return 0;
}

/* ---- saving -------------------------------------------------------- */

/* Lines are formatted into a buffer written whenever less than a block
 * line's room (42 bytes) is left; the header, with the command line and
 * the phase cut to COMMAND_LINE_MAX and PHASE_MAX, always fits. */
enum { SAVE_BUF = 4096, LINE_ROOM = 64, PHASE_MAX = 64, LINK_HOPS = 40 };

/* GNU writes the hex of the mapfile in upper case, bb_format in lower:
 * upper-case the letters of the line at s, which are only hex digits. */
static void upper_hex(char *s)
{
	for (; *s != '\n'; s++)
		if (*s >= 'a' && *s <= 'f')
			*s -= 'a' - 'A';
}

/* The mapfile's text, written to fd from offset 0 (fd < 0: only
 * counted); *len is its length.  Returns 0 or -1 with errno. */
static int write_text(int fd, const struct map *map, const struct mapfile_status *st,
		      off_t *len)
{
	char buf[SAVE_BUF], *line;
	size_t n, i = 0, j;
	off_t at = 0;

	n = bb_format(buf, SAVE_BUF,
		      "# Mapfile. Created by zerobox ddrescue\n"
		      "# Command line: %.*s\n# %.*s\n"
		      "# current_pos  current_status  current_pass\n",
		      COMMAND_LINE_MAX, st->command_line, PHASE_MAX, st->phase);
	/* At least 8 hex digits, as GNU writes them. */
	line = buf + n;
	n += bb_format(line, SAVE_BUF - n,
		       "0x%08llx     %c               %d\n"
		       "#      pos        size  status\n",
		       (unsigned long long)st->cur_pos, st->cur_status, st->cur_pass);
	upper_hex(line);
	for (;;) {
		if (n > SAVE_BUF - LINE_ROOM || i == map->count) {
			/* no transfer: the mapfile is saved whole even
			 * while a signal stops the rescue */
			if (fd >= 0 && transfer_write(NULL, fd, buf, n, at) != n)
				return -1;
			at += (off_t)n;
			n = 0;
		}
		if (i == map->count)
			break;
		/* a block, with those after it of its status (GNU's at its
		 * end: the domain's bounds, -M and -A leave neighbours so) */
		for (j = i + 1; j < map->count &&
		     !((map->status[j] ^ map->status[i]) & ~ST_OUTSIDE); j++)
			;
		line = buf + n;
		n += bb_format(line, SAVE_BUF - n, "0x%08llx  0x%08llx  %c\n",
			       (unsigned long long)map->start[i],
			       (unsigned long long)(map->start[j] - map->start[i]),
			       map->status[i] & ~ST_OUTSIDE);
		upper_hex(line);
		i = j;
	}
	*len = at;
	return 0;
}

/* The file a chain of symbolic links from name ends at, into path
 * (PATH_MAX bytes); name itself when it is no link.  Returns 0, or -1
 * (ENAMETOOLONG, ELOOP). */
static int resolve_links(const char *name, char *path)
{
	char link[PATH_MAX];
	size_t len = strlen(name);
	int hops = 0;

	if (len >= PATH_MAX)
		goto too_long;
	memcpy(path, name, len + 1);
	for (;;) {
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		char *slash = strrchr(path, '/');
		size_t dir;

		if (n < 0)
			return 0;
		link[n] = '\0';
		if (++hops > LINK_HOPS) {
			errno = ELOOP;
			return -1;
		}
		/* a relative link is relative to its own directory */
		dir = link[0] == '/' || !slash ? 0 : (size_t)(slash + 1 - path);
		if (dir + (size_t)n >= PATH_MAX)
			goto too_long;
		memcpy(path + dir, link, (size_t)n + 1);
	}
too_long:
	errno = ENAMETOOLONG;
	return -1;
}

/* The mapfile's text into fd, which is closed: in place, its room
 * taken first (so that a full disk fails before a byte changes); then
 * the text, the length, fsync.  Returns 0, or -1 with errno. */
static int write_file(int fd, const struct map *map, const struct mapfile_status *st,
		      bool in_place)
{
	off_t len;
	int err;

	write_text(-1, map, st, &len);
	if ((in_place && fallocate(fd, 0, 0, len) && errno != EOPNOTSUPP) ||
	    write_text(fd, map, st, &len) || ftruncate(fd, len) || fsync(fd)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return close(fd);
}

/* fsync the directory that holds path, so that a rename into it outlasts
 * a crash (without it, ext4 can lose the rename, and with it the map of a
 * whole rescue, when power goes in the seconds after).  Returns 0, or -1
 * with errno; a file system that cannot fsync a directory (EINVAL) is
 * not an error. */
static int sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) + 1 : 0;
	int fd, err;

	memcpy(dir, path, len);
	bb_format(dir + len, sizeof(dir) - len, ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = fsync(fd) && errno != EINVAL ? errno : 0;
	close(fd);
	errno = err;
	return err ? -1 : 0;
}

int mapfile_save(const char *name, const struct map *map, const struct mapfile_status *st)
{
	char path[PATH_MAX], tmp[PATH_MAX + 24];
	struct stat old;
	int fd;

	if (resolve_links(name, path))
		return -1;
	/* a name of its own, never a file the user has (O_EXCL); the mode
	 * the umask leaves, or the old mapfile's */
	bb_format(tmp, sizeof(tmp), "%s.ddrescue-%u", path, (unsigned)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0) {
		if (stat(path, &old) == 0)
			fchmod(fd, old.st_mode & 07777);
		if (write_file(fd, map, st, false) == 0 && rename(tmp, path) == 0)
			return sync_dir_of(path);
		unlink(tmp);
	}
	/* where no new file can be made or written: in place */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	return fd < 0 ? -1 : write_file(fd, map, st, true);
}
