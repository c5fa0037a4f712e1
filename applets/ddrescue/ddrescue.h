/*
 * ddrescue.h - what the files of the ddrescue applet share.
 *
 * Layers, top down (calls go downward only):
 *   ddrescue.c  options, opening the files, signals, the outline
 *   rescue.c    the passes: copy, trim, scrape, retry; progress
 *   mapfile.c   the mapfile's text: parsing, saving it atomically
 *   map.c       the block list: which status each byte range has
 */
#ifndef ZEROBOX_DDRESCUE_H
#define ZEROBOX_DDRESCUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Block statuses, as the mapfile writes them. */
enum {
	ST_NONTRIED = '?', ST_NONTRIMMED = '*', ST_NONSCRAPED = '/',
	ST_BAD = '-', ST_FINISHED = '+',
};

/* ---- map.c: contiguous blocks from 0 to map_end() ----------------- */

/* Reserve room for max_blocks blocks (pages are touched as used; a map
 * reserved before is released);
 * the map starts empty, ending at 0.  Returns 0 or -1 (ENOMEM). */
int map_init(size_t max_blocks);
size_t map_count(void);
uint64_t map_end(void);
void map_block(size_t i, uint64_t *pos, uint64_t *size, int *status);
/* Append a block at map_end() (a status equal to the last one's merges).
 * Returns -1 when the list is full. */
int map_append(uint64_t size, int status);
/* Give [start, end) the status (clamped to the map).  Returns -1 and
 * changes nothing when that needs more blocks than were reserved. */
int map_set(uint64_t start, uint64_t end, int status);
/* The first (or, backwards, the last) block of status st that overlaps
 * [lo, hi), clamped to it; false if none. */
bool map_search(uint64_t lo, uint64_t hi, int st, bool backwards,
		uint64_t *start, uint64_t *end);
/* The status of the byte at pos (ST_FINISHED outside the map, so that
 * nothing beyond it counts as a bad neighbour). */
int map_status_at(uint64_t pos);
/* Bytes of status st within [start, end), and how many blocks. */
uint64_t map_total(uint64_t start, uint64_t end, int st, size_t *blocks);

/* ---- mapfile.c ---------------------------------------------------- */

/* A C++ integer constant (decimal, 0x hex, 0 octal) at *s, at most
 * INT64_MAX; advances *s.  Returns 0 or -1. */
int parse_cxx_integer(const char **s, uint64_t *v);

struct mapfile_parser {
	size_t len;
	bool too_long;           /* the line did not fit: must be a comment */
	bool have_status;
	unsigned lineno;
	const char *error;       /* why parsing stopped, or NULL */
	uint64_t cur_pos;        /* the status line */
	int cur_status, cur_pass;
	char line[128];          /* last: the fields above stay within a
				    short offset, which makes shorter code */
};
/* Parse a mapfile arriving in pieces into the (empty) map.  Each call
 * returns 0, or -1 with p->error and p->lineno set. */
void mapfile_parse_begin(struct mapfile_parser *p);
int mapfile_parse_feed(struct mapfile_parser *p, const char *data, size_t n);
int mapfile_parse_end(struct mapfile_parser *p);

/* The mapfile keeps this much of the command line. */
enum { COMMAND_LINE_MAX = 2048 };

struct mapfile_status {
	const char *command_line;
	const char *phase;        /* "Copying non-tried blocks... Pass 1" */
	uint64_t cur_pos;
	int cur_status, cur_pass;
};
/* Write the map to name atomically: name.tmp, fsync, rename.  Returns 0
 * or -1 with errno. */
int mapfile_save(const char *name, const struct mapfile_status *st);

/* ---- rescue.c ----------------------------------------------------- */

struct rescue {
	int in_fd, out_fd;
	const char *in_name, *out_name, *map_name;  /* map_name may be NULL */
	const char *command_line;
	uint64_t ipos, iend;      /* the rescue domain in the input */
	uint64_t opos;            /* where ipos lands in the output */
	uint64_t sector, cluster; /* bytes */
	int retry_passes;
	bool no_trim, no_scrape, quiet;
	unsigned char *buf;       /* cluster bytes, page aligned */
};
/* Run every phase; returns the exit status. */
int rescue_run(const struct rescue *r);
/* A resumed rescue goes on from the copying pass it was in. */
void rescue_resume_at(int status, int pass);
/* Set by the signal handler: the signal to stop for, or 0. */
extern volatile int rescue_stop_signal;

#endif
