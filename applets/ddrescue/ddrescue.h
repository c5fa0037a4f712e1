/*
 * ddrescue.h - what the files of the ddrescue applet share.
 *
 * Layers, top down (calls go downward only):
 *   ddrescue.c  the options, the outline, the last message
 *   setup.c     before the first read: the checks, the files, the domain,
 *               the map
 *   rescue.c    the phases and passes: copy, trim, scrape, retry
 *   copy.c      one read: the input, the output, the map, the limits,
 *               the clock, and saving the mapfile on its schedule
 *   show.c      what the user sees: the status screen
 *   mapfile.c   the mapfile's text: parsing it, saving it safely
 *   map.c       block lists: the map of the input, and the domain
 */
#ifndef ZEROBOX_DDRESCUE_H
#define ZEROBOX_DDRESCUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libbb.h"

/* Block statuses, as the mapfile writes them. */
enum {
	ST_NONTRIED = '?', ST_NONTRIMMED = '*', ST_NONSCRAPED = '/',
	ST_BAD = '-', ST_FINISHED = '+',
};
/* Added to the status of a block outside the rescue domain (map.c). */
enum { ST_OUTSIDE = 0x80 };

/* The options without an argument: bits of struct rescue's flags. */
enum {
	FLAG_NO_SCRAPE = 1 << 0,        /* -n */
	FLAG_NO_TRIM = 1 << 1,          /* -N */
	FLAG_QUIET = 1 << 2,            /* -q */
	FLAG_REVERSE = 1 << 3,          /* -R */
	FLAG_SPARSE = 1 << 4,           /* -S */
	FLAG_RETRIM = 1 << 5,           /* -M */
	FLAG_TRY_AGAIN = 1 << 6,        /* -A */
	FLAG_REOPEN = 1 << 7,           /* -O */
	FLAG_FORCE = 1 << 8,            /* -f */
	FLAG_DIRECT_IN = 1 << 9,        /* -d */
	FLAG_DIRECT_OUT = 1 << 10,      /* -D */
};

/* ---- map.c: block lists ------------------------------------------- */

/* Block i covers [start[i], start[i + 1]) with status[i]; start[count]
 * is the end; neighbours share no status, unless map_recolor or
 * map_exclude made them.  Its functions are map_*; the arrays grow in
 * their own mappings. */
struct map {
	uint64_t *start;
	unsigned char *status;
	size_t count, capacity;
	struct lazy_buffer start_mem, status_mem;
};

/* An empty map ending at 0.  Returns 0 or -1 (ENOMEM). */
int map_init(struct map *m);
void map_free(struct map *m);
uint64_t map_end(const struct map *m);
/* Append a block at map_end() (a status equal to the last one's merges;
 * a size of 0 adds nothing).  Returns 0 or -1 (ENOMEM). */
int map_append(struct map *m, uint64_t size, int status);
/* Cut the map at end (no longer than it was). */
void map_truncate(struct map *m, uint64_t end);
/* Give [start, end) the status (clamped to the map).  Returns 0, or -1
 * (ENOMEM) with the map unchanged. */
int map_set(struct map *m, uint64_t start, uint64_t end, int status);
/* The status of the byte at pos (ST_FINISHED past the end), with
 * ST_OUTSIDE if it is outside the domain. */
int map_status_at(const struct map *m, uint64_t pos);
/* The first block of status st (so within the domain) that holds or
 * follows pos, or backwards the last that holds or comes before
 * pos - 1, whole; false if none. */
bool map_next_block(const struct map *m, uint64_t pos, int st, bool backwards,
		    uint64_t *start, uint64_t *end);
/* [a, b) leaves the domain: its blocks, split at a and b, take
 * ST_OUTSIDE.  Returns 0 or -1 (ENOMEM). */
int map_exclude(struct map *m, uint64_t a, uint64_t b);
/* Every block of status from takes status to, in place, not joined to
 * its neighbours (GNU's -M and -A leave the blocks they change so, and
 * then trim each on its own). */
void map_recolor(struct map *m, int from, int to);
/* The bytes of the blocks of status st within [lo, hi), and how many
 * blocks (areas: two never touch within the domain) overlap it. */
uint64_t map_total(const struct map *m, int st, uint64_t lo, uint64_t hi, size_t *blocks);

/* ---- mapfile.c ---------------------------------------------------- */

/* A mapfile arriving in pieces: mapfile_parse_begin, mapfile_parse_feed
 * for each piece, mapfile_parse_end, which hands the map over.  The
 * parser fills its own map until then; after an error (-1, with
 * p->error and p->lineno set) that map is the caller's to map_free.
 * GNU ddrescue 1.27's rules: '#' starts a comment at the start of a
 * line or after a blank; the status line "pos status [pass]" (a 1.19
 * logfile has no pass); blocks "pos size status", contiguous, fields
 * after the third ignored; no status line at all is a new rescue. */
struct mapfile_parser {
	size_t len;
	bool too_long;           /* the line did not fit: must be a comment */
	bool have_status;
	unsigned lineno;
	const char *error;       /* why parsing stopped, or NULL */
	uint64_t cur_pos;        /* the status line */
	int cur_status, cur_pass;
	struct map map;          /* the blocks so far */
	char line[128];
};
/* Returns 0, or -1 (ENOMEM). */
int mapfile_parse_begin(struct mapfile_parser *p);
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
/*
 * Save the map as the mapfile name: a new file beside the one a chain
 * of symbolic links ends at, with its mode and owner, written, fsynced,
 * and renamed over it, its directory then fsynced, so that a crash
 * leaves the old map or the new one, and after the save the new one.
 * Where no new file can be made there (a directory the user may not
 * write, a full file system), the mapfile is rewritten in place,
 * its room taken first, then fsynced.  Returns 0, or -1 with errno.
 */
int mapfile_save(const char *name, const struct map *map,
		 const struct mapfile_status *st);

/* ---- copy.c: one read --------------------------------------------- */

/* Why a rescue stopped. */
enum rescue_stop {
	RESCUE_GO_ON,           /* (within the passes) not stopped */
	RESCUE_FINISHED,        /* every phase ran */
	RESCUE_SIGNALED,        /* by r->transfer.stopped_by */
	/* the stops with an errno in r->error, up to RESCUE_SAVE_FAILED */
	RESCUE_WRITE_FAILED,    /* the output */
	RESCUE_READ_FAILED,     /* the input went away (ENODEV, ENXIO,
				   ENOTCONN) */
	RESCUE_REOPEN_FAILED,   /* -O */
	RESCUE_SAVE_FAILED,     /* the mapfile */
	RESCUE_UNALIGNED,       /* EINVAL: -b is not the device's sector */
	RESCUE_INPUT_GONE,      /* the input's name no longer names a file */
	RESCUE_NO_MEMORY,       /* the map could not grow */
	RESCUE_TOO_MANY_BAD,    /* -e */
	RESCUE_ERROR_RATE,      /* -E */
	RESCUE_TIMEOUT,         /* -T */
};

/* Sizes by status: the index of a status character. */
enum { SIZE_NONTRIED, SIZE_NONTRIMMED, SIZE_NONSCRAPED, SIZE_BAD, SIZE_FINISHED };
int size_index(int status);

/* A rescue: what the command line and the files set (ddrescue.c), the
 * map and the domain, where the passes are, and the counts and clocks
 * of this run.  One is passed down every call.  (The fields used most
 * come first: within a short offset, their code is shorter.) */
struct rescue {
	uint64_t sector;          /* bytes */
	unsigned flags;           /* FLAG_*: the options without arguments */
	/* the mapfile's status line: the phase and pass, and where */
	int cur_status, cur_pass;
	enum rescue_stop limit;   /* a limit reached, or GO_ON */
	bool forward;             /* the pass's direction */
	bool slow, was_slow;      /* the last second was slow, and the one
				     before */
	bool slow_read;           /* the read just done ended a slow second */
	bool pass_pending;
	bool map_existed;         /* the mapfile was read */
	uint64_t cur_pos;
	uint64_t size[5];         /* bytes of each status in the domain */
	uint64_t bad_areas;
	uint64_t insize;          /* the input's size */
	uint64_t second;          /* of this run, the last one rated */
	const char *in_name, *out_name, *map_name;  /* map_name may be NULL */
	uint64_t skip_min, skip_max;  /* the copying passes' skips (-K) */
	unsigned char *buf;       /* a cluster and a sector, page aligned */
	struct map map;           /* the domain's blocks without ST_OUTSIDE */
	/* the files */
	int in_fd, out_fd, in_flags;
	const char *command_line;
	uint64_t ipos, opos;      /* the output position of input byte ipos */
	/* the options */
	uint64_t cluster;         /* bytes */
	int retry_passes;         /* -r; INT_MAX for -1 */
	bool new_bad_only;        /* -e +N */
	const char *domain_name;  /* -m */
	int64_t min_rate;         /* -a: -1 unset, 0 auto */
	uint64_t delay_slow;      /* seconds before slow reads count */
	uint64_t max_error_rate;  /* -E, UINT64_MAX unset */
	uint64_t max_bad_areas;   /* -e, UINT64_MAX unset (+N: added up) */
	uint64_t timeout;         /* -T, UINT64_MAX unset */
	uint64_t map_insize;      /* the mapfile's extent when read */
	const char *phase;        /* phase_text, or "Finished" */
	int next_status, next_pass;  /* of a pass begun, at its first read */
	/* this run: counts and clocks (seconds since start_ns) */
	uint64_t start_ns;
	uint64_t rescued_at_start, rescued_last_second;
	uint64_t last_good_second;          /* of a read that finished bytes */
	uint64_t error_bytes;               /* failed in the current second */
	uint64_t current_rate, average_rate;
	uint64_t sparse_end;                /* -S: the output's end to make */
	uint64_t copied;                    /* what the last read finished */
	uint64_t next_save_ns;
	int error;                          /* errno of a stop that has one */
	struct transfer transfer;           /* signals */
	struct progress_line screen;
	char phase_text[64];
};

/* Read [a, b) of the input (at most a cluster, within one piece),
 * write what was read, and mark it in the map: finished bytes
 * ST_FINISHED, a failure fail_status, or ST_BAD if at most a sector
 * failed.  r->cur_pos becomes a (b if backwards).  r->copied and
 * *failed say how it went; then the clock (rates, limits, the screen)
 * and the mapfile's schedule.  Returns RESCUE_GO_ON, or why to stop: a
 * stop before the read reads nothing. */
enum rescue_stop copy_chunk(struct rescue *r, uint64_t a, uint64_t b, int fail_status,
			    uint64_t *failed);
/* Give [a, b), within one piece, the status. */
enum rescue_stop mark(struct rescue *r, uint64_t a, uint64_t b, int status);
/* The sizes and bad areas of the domain, counted anew. */
void count_sizes(struct rescue *r);
/* The mapfile saved as r stands (r->map_name not NULL), the output not
 * fsynced.  Returns 0, or -1 with errno. */
int save_mapfile(const struct rescue *r);
/* The output fsynced, then the mapfile saved (if there is one).  Returns
 * RESCUE_GO_ON, RESCUE_WRITE_FAILED or RESCUE_SAVE_FAILED. */
enum rescue_stop save_now(struct rescue *r);
/* Start the clock of the run; at its end, the last part of a second
 * counts (a limit may be found reached). */
void copy_start(struct rescue *r);
void copy_finish(struct rescue *r);
/* -O: close the input and open it again.  false, with r->error. */
bool reopen_input(struct rescue *r);
/* -S: make the output as long as the zeros left unwritten say.
 * Returns 0, or -1 with r->error. */
int extend_output(struct rescue *r);

/* ---- show.c ------------------------------------------------------- */

/* The domain's bytes: the sizes of all statuses added up. */
uint64_t domain_size(const struct rescue *r);
/* The status line, every second (and last, ended). */
void show_status(struct rescue *r, bool last);
/* The phase's line (r->phase), as a pass begins, and "Finished". */
void show_phase(struct rescue *r);
/* "Initial status (read from mapfile)" and its line. */
void show_initial_status(struct rescue *r);

/* ---- setup.c ------------------------------------------------------ */

/* Everything before the first read (size: -s, UINT64_MAX for none):
 * the checks, the input, the domain, the map, the mapfile created and
 * the output opened.  A refusal exits. */
void setup(struct rescue *r, uint64_t size);

/* ---- rescue.c ----------------------------------------------------- */

/* Run the phases still to do, from where r's status line says, then
 * save the mapfile (also when stopped).  Returns why it stopped. */
enum rescue_stop rescue_run(struct rescue *r);

#endif
