/*
 * unpack_feed.h - a decompressors' front end in memory, for the unit
 * test and the fuzz harness of the .xz decoder (test_xz.c, fuzz_xz.c):
 * the calls a decoder makes (unpack_fill, unpack_read_failed,
 * unpack_write, unpack_error, unpack_warn) are wrapped at link time (-Wl,--wrap, as
 * the fuzz harnesses wrap exit) to these, which hand the input over in
 * pieces of a chosen size, each in a buffer of its own (so that ASan
 * sees a read past a piece), and keep the output and the messages.
 * Include it from one file of a program.
 */
#ifndef ZEROBOX_UNPACK_FEED_H
#define ZEROBOX_UNPACK_FEED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xz.h"

struct feed {
	const unsigned char *data;
	size_t len, at;
	size_t piece;           /* bytes a fill gives; 0: random 1-300 */
	uint32_t seed;
	unsigned char *chunk;   /* the piece handed over, malloc'd alone */
	unsigned char *out;     /* the output, if keep_out */
	size_t out_len, out_cap;
	bool keep_out;
	uint32_t out_crc;       /* of all the output */
	uint64_t write_limit;   /* a write past this many bytes fails */
	bool write_failed;
	char msgs[512];
};

static struct feed *feed;

bool __wrap_unpack_fill(struct unpack_io *io);
bool __wrap_unpack_read_failed(const struct unpack_io *io);
int __wrap_unpack_write(struct unpack_io *io, const void *data, size_t len);
void __wrap_unpack_error(struct unpack_io *io, const char *what);
void __wrap_unpack_warn(struct unpack_io *io, const char *what);

bool __wrap_unpack_fill(struct unpack_io *io)
{
	size_t n = feed->piece;

	free(feed->chunk);
	feed->chunk = NULL;
	if (feed->at == feed->len)
		return false;
	if (!n) {
		feed->seed = feed->seed * 1103515245u + 12345u;
		n = 1 + (feed->seed >> 16) % 300;
	}
	if (n > feed->len - feed->at)
		n = feed->len - feed->at;
	feed->chunk = malloc(n);
	memcpy(feed->chunk, feed->data + feed->at, n);
	feed->at += n;
	io->in_next = feed->chunk;
	io->in_end = feed->chunk + n;
	return true;
}

bool __wrap_unpack_read_failed(const struct unpack_io *io)
{
	(void)io;
	return false;
}

int __wrap_unpack_write(struct unpack_io *io, const void *data, size_t len)
{
	(void)io;
	if (!len)
		return 0;
	if (feed->out_len + len > feed->write_limit) {
		feed->write_failed = true;
		return -1;
	}
	feed->out_crc = crc32_update(feed->out_crc, data, len);
	if (!feed->keep_out) {
		feed->out_len += len;
		return 0;
	}
	if (feed->out_len + len > feed->out_cap) {
		feed->out_cap = (feed->out_len + len) * 2;
		feed->out = realloc(feed->out, feed->out_cap);
	}
	memcpy(feed->out + feed->out_len, data, len);
	feed->out_len += len;
	return 0;
}

void __wrap_unpack_error(struct unpack_io *io, const char *what)
{
	size_t n = strlen(feed->msgs);

	snprintf(feed->msgs + n, sizeof(feed->msgs) - n, "%s: %s\n", io->name, what);
}

void __wrap_unpack_warn(struct unpack_io *io, const char *what)
{
	if (!io->quiet)
		__wrap_unpack_error(io, what);
}

struct outcome {
	enum unpack_result result;
	char msgs[512];
	unsigned char *out;     /* NULL unless kept; free it */
	size_t out_len;
	uint32_t out_crc;
	bool write_failed;
};

/* Decode data in pieces of piece bytes (0: random ones), keeping the
 * output if keep, failing a write past write_limit bytes. */
static struct outcome decode_feed(const unsigned char *data, size_t len, size_t piece,
				  uint64_t mem_limit, bool keep, uint64_t write_limit)
{
	struct feed f = { .data = data, .len = len, .piece = piece, .seed = 7,
			  .keep_out = keep, .write_limit = write_limit };
	struct unpack_io io;
	struct outcome o;

	memset(&io, 0, sizeof(io));
	io.name = "f.xz";
	io.mem_limit = mem_limit;
	feed = &f;
	o.result = xz_decode(&io);
	free(f.chunk);
	memcpy(o.msgs, f.msgs, sizeof(o.msgs));
	o.out = f.out;
	o.out_len = f.out_len;
	o.out_crc = f.out_crc;
	o.write_failed = f.write_failed;
	return o;
}

#endif
