/*
 * test_ddrescue_map.c - ddrescue's block list and mapfile parser and
 * writer (applets/ddrescue/map.c and mapfile.c, linked as built): GNU
 * ddrescue 1.27's example mapfile, the errors, the bound on blocks, and
 * a save read back.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libbb.h"
#include "../../applets/ddrescue/ddrescue.h"
#include "unit.h"

/* The map the last parse handed over, or the one a test builds. */
static struct map map;

static int parse_text(const char *text, size_t blocks, struct mapfile_parser *p)
{
	map_free(&map);
	if (mapfile_parse_begin(p, blocks))
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
		uint64_t pos, size;
		int st;

		map_block(&map, i, &pos, &size, &st);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%" PRIu64 " %" PRIu64 " %c,",
					pos, size, st);
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
	CHECK(parse_text(gnu_example, 16, &p) == 0);
	CHECK_U64(p.cur_pos, 0x120000);
	CHECK(p.cur_status == '?' && p.cur_pass == 1);
	CHECK_STR(map_text(), "0 1142784 +,1142784 512 -,1143296 4096 /,1147392 32256 *,1179648 294912 ?,");
	unit_end();

	unit_begin("mapfile: decimal, octal, comments after blanks, pieces");
	map_free(&map);
	CHECK(mapfile_parse_begin(&p, 16) == 0);
	CHECK(mapfile_parse_feed(&p, "0 + 2 # here\n0 0", 16) == 0);
	CHECK(mapfile_parse_feed(&p, "10 - # x\n8 010 +\n", 17) == 0);
	CHECK(mapfile_parse_end(&p, &map) == 0);
	CHECK_STR(map_text(), "0 8 -,8 8 +,");
	CHECK(p.cur_pass == 2);
	unit_end();
}

struct bad_case {
	const char *text, *error;
	unsigned line;
};

static const struct bad_case bad[] = {
	{ "0 ? 1\n0 0x10 +\n0x20 0x10 ?\n", "block not contiguous with the one before", 3 },
	{ "0 ? 1\n0 0x10 x\n", "invalid status character", 2 },
	{ "0 x 1\n", "invalid status character", 1 },
	{ "0 ? 0\n", "invalid pass", 1 },
	{ "0 ? 1\n0 0x10\n", "expected 3 fields", 2 },
	{ "0 ? 1\n0 0x10 + +\n", "expected 3 fields", 2 },
	{ "0 ? 1\n0 08 +\n", "invalid size", 2 },
	{ "0 ? 1\n-1 0x10 +\n", "invalid position", 2 },
	{ "0 ? 1\n0 0x8000000000000000 +\n", "invalid size", 2 },
	{ "0 ? 1\n0x10 0x7fffffffffffffff +\n", "block ends past the largest position", 2 },
	{ "# only a comment\n", "no status line", 1 },
	{ "0 ? 1\n0 1 +\n1 1 -\n2 1 +\n3 1 -\n", "too many blocks", 5 },
};

static void test_errors(void)
{
	struct mapfile_parser p;
	char longline[400];
	size_t i;

	unit_begin("mapfile: errors name the line");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (parse_text(bad[i].text, 3, &p) != -1) {
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
	CHECK(parse_text(longline, 3, &p) == 0);
	longline[0] = '0';
	CHECK(parse_text(longline, 3, &p) == -1);
	CHECK_STR(p.error, "line too long");
	CHECK(parse_text("0 ? 1\n0 0x10 +\0", 3, &p) == 0);
	CHECK(parse_text("", 3, &p) == 0 && map.count == 0);
	unit_end();
}

static void test_set(void)
{
	uint64_t a, b;

	unit_begin("map: set splits and merges");
	map_free(&map);
	CHECK(map_init(&map, 4) == 0);
	CHECK(map_append(&map, 100, '?') == 0);
	CHECK(map_set(&map, 10, 20, '+') == 0);
	CHECK_STR(map_text(), "0 10 ?,10 10 +,20 80 ?,");
	CHECK(map_set(&map, 20, 30, '+') == 0);
	CHECK_STR(map_text(), "0 10 ?,10 20 +,30 70 ?,");
	CHECK(map_set(&map, 0, 10, '+') == 0);
	CHECK_STR(map_text(), "0 30 +,30 70 ?,");
	CHECK(map_set(&map, 50, 60, '-') == 0);
	CHECK_STR(map_text(), "0 30 +,30 20 ?,50 10 -,60 40 ?,");
	unit_end();

	unit_begin("map: at the bound a change is refused, the map kept");
	CHECK(map_set(&map, 90, 95, '*') == -1);
	CHECK_STR(map_text(), "0 30 +,30 20 ?,50 10 -,60 40 ?,");
	CHECK(map_set(&map, 60, 70, '-') == 0);
	CHECK_STR(map_text(), "0 30 +,30 20 ?,50 20 -,70 30 ?,");
	unit_end();

	unit_begin("map: search finds blocks of a status, either way");
	CHECK(map_search(&map, 0, 100, '?', false, &a, &b) && a == 30 && b == 50);
	CHECK(map_search(&map, 40, 100, '?', false, &a, &b) && a == 40 && b == 50);
	CHECK(map_search(&map, 50, 90, '?', false, &a, &b) && a == 70 && b == 90);
	CHECK(map_search(&map, 0, 100, '?', true, &a, &b) && a == 70 && b == 100);
	CHECK(map_search(&map, 35, 70, '?', true, &a, &b) && a == 35 && b == 50);
	CHECK(!map_search(&map, 0, 30, '?', true, &a, &b));
	CHECK(map_status_at(&map, 55) == '-' && map_status_at(&map, 100) == '+');
	unit_end();
}

static void test_save(void)
{
	struct mapfile_status st = { "ddrescue in out map", "Copying", 0x1000, '?', 2 };
	struct mapfile_parser p;
	char path[] = "/tmp/test_ddrescue_mapXXXXXX", buf[2048];
	char *tmp;
	int fd;
	ssize_t n;

	unit_begin("mapfile: a save reads back, in GNU's layout");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	map_free(&map);
	CHECK(map_init(&map, 8) == 0);
	CHECK(map_append(&map, 0x117000, '+') == 0 && map_append(&map, 0x200, '-') == 0 &&
	      map_append(&map, 0x100000000ull, '?') == 0);
	CHECK(mapfile_save(path, &map, &st) == 0);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	CHECK(strstr(buf, "\n# current_pos  current_status  current_pass\n"
		     "0x00001000     ?               2\n"
		     "#      pos        size  status\n"
		     "0x00000000  0x00117000  +\n"
		     "0x00117000  0x00000200  -\n"
		     "0x00117200  0x100000000  ?\n") != NULL);
	CHECK(parse_text(buf, 8, &p) == 0);
	CHECK_STR(map_text(), "0 1142784 +,1142784 512 -,1143296 4294967296 ?,");
	tmp = malloc(sizeof(path) + 4);
	snprintf(tmp, sizeof(path) + 4, "%s.tmp", path);
	CHECK(access(tmp, F_OK) != 0);
	unlink(path);
	free(tmp);
	unit_end();
}

int main(void)
{
	test_parse();
	test_errors();
	test_set();
	test_save();
	return unit_exit_status();
}
