/*
 * inflate.h - the deflate decoder (inflate.c) as the gzip container
 * (gunzip.c) drives it: one deflate stream per member.
 */
#ifndef ZEROBOX_INFLATE_H
#define ZEROBOX_INFLATE_H

#include "libbb.h"

struct inflate;

/* A decoder writing to io (NULL without memory); free with
 * inflate_free.  Its memory is the 32 KiB window, the bytes decoded
 * but not yet written, and the Huffman tables. */
struct inflate *inflate_new(struct unpack_io *io);
void inflate_free(struct inflate *z);

/* Decode one deflate stream (RFC 1951) from io->in_next, up to the end
 * of its final block; io->in_next is then the byte after it.  What it
 * decodes goes to the output as the window fills, except the last part,
 * which waits for inflate_write_rest (so that a member's check can come
 * first).  *crc and *size are the CRC-32 and byte count (mod 2^32) of
 * the whole stream.  Returns 0, or -1 after an error was reported
 * (damaged or truncated data, a read or write error). */
int inflate_stream(struct inflate *z, uint32_t *crc, uint32_t *size);
/* Write what inflate_stream left; 0, or -1 after a write error. */
int inflate_write_rest(struct inflate *z);
/* "NAME: invalid compressed data--what", gzip's words for damage. */
void inflate_data_error(struct unpack_io *io, const char *what);

#endif
