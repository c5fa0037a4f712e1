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

/* Block i covers [start[i], start[i + 1]) with status[i]; start[count]
 * is the end of the map.  Its functions are map_*. */
struct map {
	uint64_t *start;
	unsigned char *status;
	size_t count, capacity;
};

/* An empty map ending at 0, with room for max_blocks blocks (pages are
 * touched as used).  Returns 0 or -1 (ENOMEM, the map left empty). */
int map_init(struct map *m, size_t max_blocks);
void map_free(struct map *m);
uint64_t map_end(const struct map *m);
void map_block(const struct map *m, size_t i, uint64_t *pos, uint64_t *size, int *status);
/* Append a block at map_end() (a status equal to the last one's merges).
 * Returns -1 when the list is full. */
int map_append(struct map *m, uint64_t size, int status);
/* Give [start, end) the status (clamped to the map).  Returns -1 and
 * changes nothing when that needs more blocks than were reserved. */
int map_set(struct map *m, uint64_t start, uint64_t end, int status);
/* The first (or, backwards, the last) block of status st that overlaps
 * [lo, hi), clamped to it; false if none. */
bool map_search(const struct map *m, uint64_t lo, uint64_t hi, int st,
		bool backwards, uint64_t *start, uint64_t *end);
/* The status of the byte at pos (ST_FINISHED outside the map, so that
 * nothing beyond it counts as a bad neighbour). */
int map_status_at(const struct map *m, uint64_t pos);
/* Bytes of status st within [start, end), and how many blocks. */
uint64_t map_total(const struct map *m, uint64_t start, uint64_t end, int st,
		   size_t *blocks);

/* ---- mapfile.c ---------------------------------------------------- */

/* A mapfile arriving in pieces: mapfile_parse_begin, mapfile_parse_feed
 * for each piece, mapfile_parse_end, which hands the map over.  The
 * parser fills its own map until then; after an error (-1, with
 * p->error and p->lineno set) that map is the caller's to map_free. */
struct mapfile_parser {
	size_t len;
	bool too_long;           /* the line did not fit: must be a comment */
	bool have_status;
	unsigned lineno;
	const char *error;       /* why parsing stopped, or NULL */
	uint64_t cur_pos;        /* the status line */
	int cur_status, cur_pass;
	struct map map;          /* the blocks so far */
	char line[128];          /* last: the fields above stay within a
				    short offset, which makes shorter code */
};
/* Returns 0, or -1 when the map's room can't be had. */
int mapfile_parse_begin(struct mapfile_parser *p, size_t max_blocks);
int mapfile_parse_feed(struct mapfile_parser *p, const char *data, size_t n);
/* The last line, then the map moves to *map.  Returns 0 or -1. */
int mapfile_parse_end(struct mapfile_parser *p, struct map *map);

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
int mapfile_save(const char *name, const struct map *map,
		 const struct mapfile_status *st);

/* ---- rescue.c ----------------------------------------------------- */

/* Why a rescue stopped. */
enum rescue_stop {
	RESCUE_GO_ON,           /* (within the passes) not stopped */
	RESCUE_FINISHED,        /* every phase ran */
	RESCUE_SIGNALED,        /* by rescue_stop_signal */
	RESCUE_WRITE_FAILED,    /* the output: errno in r->error */
	RESCUE_MAP_FULL,        /* the block list had no room left */
};

/* A rescue: what the command line and the files set (ddrescue.c), the
 * map, and where the passes are.  Passed down the calls; the mapfile
 * is saved from it. */
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
	struct map map;
	/* the mapfile's status line: the phase and pass, and where */
	const char *phase;
	int cur_status, cur_pass;
	uint64_t cur_pos;
	/* progress and saving */
	uint64_t read_bytes, rate_bytes, rate_ns, last_save_ns, last_progress_ns;
	bool line_open;           /* a progress line waits for its end */
	int error;                /* RESCUE_WRITE_FAILED's errno */
};
/* Run every phase from where r's status line says, then save the
 * mapfile (also when stopped).  Returns why it stopped. */
enum rescue_stop rescue_run(struct rescue *r);
/* End a progress line left open, before a message. */
void rescue_end_line(struct rescue *r);
/* Set by the signal handler: the signal to stop for, or 0. */
extern volatile int rescue_stop_signal;

#endif
