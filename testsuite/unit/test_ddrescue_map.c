/*
 * test_ddrescue_map.c - ddrescue's block list and mapfile parser and
 * writer (applets/ddrescue/map.c and mapfile.c, linked as built): GNU
 * ddrescue 1.27's example mapfile, the errors, the bound on blocks, and
 * a save read back.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "../../applets/ddrescue/ddrescue.h"
#include "unit.h"

/* The map the last parse handed over, or the one a test builds. */
static struct map map;

static int parse_text(const char *text, struct mapfile_parser *p)
{
	map_free(&map);
	if (mapfile_parse_begin(p))
		return -2;
	if (mapfile_parse_feed(p, text, strlen(text)) || mapfile_parse_end(p, &map)) {
		map = p->map;
		return -1;
	}
	return 0;
}

/* The map as "pos size st," with decimal numbers. */
static const char *map_text(void)
{
	static char buf[512];
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < map.count && len < sizeof(buf) - 64; i++) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%" PRIu64 " %" PRIu64 " %c,",
					map.start[i], map.start[i + 1] - map.start[i], map.status[i]);
	}
	return buf;
}

static const char gnu_example[] =
	"# Mapfile. Created by GNU ddrescue version 1.27\n"
	"# current_pos  current_status  current_pass\n"
	"0x00120000     ?               1\n"
	"#      pos        size  status\n"
	"0x00000000  0x00117000  +\n"
	"0x00117000  0x00000200  -\n"
	"0x00117200  0x00001000  /\n"
	"0x00118200  0x00007E00  *\n"
	"0x00120000  0x00048000  ?\n";

static void test_parse(void)
{
	struct mapfile_parser p;

	unit_begin("mapfile: GNU's example parses");
	CHECK(parse_text(gnu_example, &p) == 0);
	CHECK_U64(p.cur_pos, 0x120000);
	CHECK(p.cur_status == '?' && p.cur_pass == 1);
	CHECK_STR(map_text(), "0 1142784 +,1142784 512 -,1143296 4096 /,1147392 32256 *,1179648 294912 ?,");
	unit_end();

	unit_begin("mapfile: decimal, octal, comments after blanks, pieces");
	map_free(&map);
	CHECK(mapfile_parse_begin(&p) == 0);
	CHECK(mapfile_parse_feed(&p, "0 + 2 # here\n0 0", 16) == 0);
	CHECK(mapfile_parse_feed(&p, "10 - # x\n8 010 +\n", 17) == 0);
	CHECK(mapfile_parse_end(&p, &map) == 0);
	CHECK_STR(map_text(), "0 8 -,8 8 +,");
	CHECK(p.cur_pass == 2);
	unit_end();

	unit_begin("mapfile: what GNU ddrescue 1.27 accepts");
	/* a 1.19 logfile: no pass in the status line */
	CHECK(parse_text("0x100 *\n0 0x100 +\n0x100 0x100 *\n", &p) == 0);
	CHECK(p.cur_status == '*' && p.cur_pass == 1);
	CHECK_STR(map_text(), "0 256 +,256 256 *,");
	/* comments only: a new rescue */
	CHECK(parse_text("# only\n# comments\n", &p) == 0 && map.count == 0 && !p.have_status);
	/* a fourth field, a block of size 0 at 0, a first block past 0 */
	CHECK(parse_text("0 ? 1\n0 0 +\n0x10 0x10 + extra\n", &p) == 0);
	CHECK_STR(map_text(), "0 16 ?,16 16 +,");
	unit_end();
}

struct bad_case {
	const char *text, *error;
	unsigned line;
};

static const struct bad_case bad[] = {
	{ "0 ? 1\n0 0x10 +\n0x20 0x10 ?\n", "invalid line", 3 },
	{ "0 ? 1\n0 0x10 x\n", "invalid line", 2 },
	{ "0 x 1\n", "invalid line", 1 },
	{ "0 ? 0\n", "invalid line", 1 },
	{ "0 ? x\n", "invalid line", 1 },
	{ "0\n", "invalid line", 1 },
	{ "0 ? 1\n0 0x10\n", "invalid line", 2 },
	{ "0 ? 1\n0 08 +\n", "invalid line", 2 },
	{ "0 ? 1\n-1 0x10 +\n", "invalid line", 2 },
	{ "0 ? 1\n0 0x8000000000000000 +\n", "invalid line", 2 },
	{ "0 ? 1\n0x10 0x7fffffffffffffff +\n", "invalid line", 2 },
	{ "0 ? 1\n0 0x10 +\n0x10 0 +\n", "invalid line", 3 },
	{ "0 ? 1\n0 0x10 ++\n", "invalid line", 2 },
};

static void test_errors(void)
{
	struct mapfile_parser p;
	char longline[400];
	size_t i;

	unit_begin("mapfile: errors name the line");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (parse_text(bad[i].text, &p) != -1) {
			unit_fail("case %zu parsed", i);
			continue;
		}
		CHECK_STR(p.error, bad[i].error);
		CHECK(p.lineno == bad[i].line);
	}
	unit_end();

	unit_begin("mapfile: a long line is only a comment");
	memset(longline, 'x', sizeof(longline));
	longline[0] = '#';
	memcpy(longline + sizeof(longline) - 10, "\n0 ? 1\n\0", 8);
	CHECK(parse_text(longline, &p) == 0);
	longline[0] = '0';
	CHECK(parse_text(longline, &p) == -1);
	CHECK_STR(p.error, "invalid line");
	CHECK(parse_text("0 ? 1\n0 0x10 +\0", &p) == 0);
	/* a NUL byte inside the text */
	map_free(&map);
	CHECK(mapfile_parse_begin(&p) == 0);
	CHECK(mapfile_parse_feed(&p, "0 ? 1\n\0\n", 8) == -1 && p.lineno == 2);
	map = p.map;
	CHECK(parse_text("", &p) == 0 && map.count == 0);
	unit_end();
}

/* map_set(a, b, status) on one ? block of 100, one after the other, and
 * the map after each. */
static const struct set_step {
	uint64_t a, b;
	char status;
	const char *after;
} set_steps[] = {
	{ 10, 20, '+', "0 10 ?,10 10 +,20 80 ?," },
	{ 20, 30, '+', "0 10 ?,10 20 +,30 70 ?," },
	{ 0, 10, '+', "0 30 +,30 70 ?," },
	{ 50, 60, '-', "0 30 +,30 20 ?,50 10 -,60 40 ?," },
	{ 60, 70, '-', "0 30 +,30 20 ?,50 20 -,70 30 ?," },
};

/* map_next_block on the map of "blocks within a domain" below: from,
 * status, backwards, and the block it finds ([0, 0): none). */
static const struct next_block {
	uint64_t from;
	char status;
	bool backwards;
	uint64_t a, b;
} next_blocks[] = {
	{ 0, '?', false, 30, 40 },
	{ 35, '?', false, 30, 40 },
	{ 40, '?', false, 70, 90 },
	{ 90, '?', false, 0, 0 },
	{ 100, '?', true, 70, 90 },
	{ 70, '?', true, 30, 40 },
	{ 65, '-', true, 60, 70 },
	{ 30, '?', true, 0, 0 },
};

static void test_set(void)
{
	uint64_t a, b;
	size_t n, i;

	unit_begin("map: set splits and merges");
	map_free(&map);
	CHECK(map_init(&map) == 0);
	CHECK(map_append(&map, 100, '?') == 0);
	for (i = 0; i < ARRAY_SIZE(set_steps); i++) {
		const struct set_step *st = &set_steps[i];

		CHECK(map_set(&map, st->a, st->b, st->status) == 0);
		CHECK_STR(map_text(), st->after);
	}
	map_truncate(&map, 55);
	CHECK_STR(map_text(), "0 30 +,30 20 ?,50 5 -,");
	unit_end();

	unit_begin("map: no bound on blocks (200,000 scattered bad sectors)");
	map_free(&map);
	CHECK(map_init(&map) == 0 && map_append(&map, 400000, '?') == 0);
	for (i = 0; i < 200000; i++)
		CHECK(map_set(&map, 2 * i + 1, 2 * i + 2, '-') == 0);
	CHECK(map.count == 400000 && map_status_at(&map, 399999) == '-');
	CHECK(map_status_at(&map, 399998) == '?');
	unit_end();

	unit_begin("map: blocks within a domain, either way");
	map_free(&map);
	CHECK(map_init(&map) == 0);
	CHECK(map_append(&map, 30, '+') == 0 && map_append(&map, 20, '?') == 0 &&
	      map_append(&map, 20, '-') == 0 && map_append(&map, 30, '?') == 0);
	/* the domain: [0, 40) and [60, 90) */
	CHECK(map_exclude(&map, 40, 60) == 0 && map_exclude(&map, 90, 100) == 0);
	for (i = 0; i < ARRAY_SIZE(next_blocks); i++) {
		const struct next_block *nb = &next_blocks[i];
		bool found;

		a = b = 0;
		found = map_next_block(&map, nb->from, nb->status, nb->backwards,
				       &a, &b);
		if (found != (nb->b != 0) || (found && (a != nb->a || b != nb->b)))
			unit_fail("next %c block from %" PRIu64 "%s: %d [%" PRIu64
				  ", %" PRIu64 ")", nb->status, nb->from,
				  nb->backwards ? " backwards" : "", found, a, b);
	}
	CHECK(map_total(&map, '?', 0, UINT64_MAX, &n) == 30 && n == 2);
	CHECK(map_total(&map, '?', 35, 75, &n) == 10 && n == 2);
	CHECK(map_status_at(&map, 65) == '-' && map_status_at(&map, 55) == ('-' | ST_OUTSIDE));
	CHECK(map_status_at(&map, 100) == '+');
	map_recolor(&map, '-', '*');
	CHECK(map_status_at(&map, 65) == '*' && map_status_at(&map, 55) == ('-' | ST_OUTSIDE));
	unit_end();
}

/* The text of file path (at most 2047 bytes). */
static const char *file_text(const char *path)
{
	static char buf[2048];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY);

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* How many entries directory dir has, . and .. left out. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_save(void)
{
	struct mapfile_status st = { "ddrescue in out map", "Copying", 0x1000, '?', 2 };
	struct mapfile_parser p;
	char dir[] = "/tmp/test_ddrescue_mapXXXXXX", path[64], real[64], link[64], chain[64];
	char mine[64];
	struct stat sb;
	int fd;

	unit_begin("mapfile: a save reads back, in GNU's layout");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/map", dir);
	map_free(&map);
	CHECK(map_init(&map) == 0);
	CHECK(map_append(&map, 0x117000, '+') == 0 && map_append(&map, 0x200, '-') == 0 &&
	      map_append(&map, 0x100000000ull, '?') == 0);
	CHECK(mapfile_save(path, &map, &st) == 0);
	CHECK(strstr(file_text(path), "\n# current_pos  current_status  current_pass\n"
		     "0x00001000     ?               2\n"
		     "#      pos        size  status\n"
		     "0x00000000  0x00117000  +\n"
		     "0x00117000  0x00000200  -\n"
		     "0x00117200  0x100000000  ?\n") != NULL);
	CHECK(parse_text(file_text(path), &p) == 0);
	CHECK_STR(map_text(), "0 1142784 +,1142784 512 -,1143296 4294967296 ?,");
	/* nothing else was left in the directory */
	CHECK(entries(dir) == 1);
	unit_end();

	unit_begin("mapfile: saved through links, with its mode, beside the user's files");
	snprintf(real, sizeof(real), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(chain, sizeof(chain), "%s/chain", dir);
	snprintf(mine, sizeof(mine), "%s/real.tmp", dir);
	CHECK(rename(path, real) == 0 && chmod(real, 0600) == 0);
	CHECK(symlink("real", link) == 0 && symlink(link, chain) == 0);
	fd = open(mine, O_WRONLY | O_CREAT, 0644);
	CHECK(fd >= 0 && write(fd, "mine\n", 5) == 5 && close(fd) == 0);
	st.cur_pass = 3;
	CHECK(mapfile_save(chain, &map, &st) == 0);
	CHECK(lstat(chain, &sb) == 0 && S_ISLNK(sb.st_mode));
	CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
	CHECK(lstat(real, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 07777) == 0600);
	CHECK(strstr(file_text(real), "0x00001000     ?               3\n") != NULL);
	CHECK_STR(file_text(mine), "mine\n");
	CHECK(entries(dir) == 4);
	unlink(chain);
	unlink(link);
	unlink(real);
	unlink(mine);
	rmdir(dir);
	unit_end();
}

int main(void)
{
	/* the mapfile's integers are ddrescue's spellings of the one
	 * number parser, refused in a build without it */
	if (!ENABLE_DDRESCUE) {
		printf("SKIP: ddrescue's map and mapfile (DDRESCUE is off)\n");
		return 0;
	}
	test_parse();
	test_errors();
	test_set();
	test_save();
	return unit_exit_status();
}
