/*
 * unpack_tmp.h - the decompressors' front end as issue 40 fixes it
 * (libbb/unpack.c, from branch gz), so that the .xz decoder builds
 * before the front end lands; its own section of libbb.h replaces this
 * file then.
 */
#ifndef ZEROBOX_UNPACK_TMP_H
#define ZEROBOX_UNPACK_TMP_H

enum unpack_result {
	UNPACK_OK,       /* all input decoded and checked */
	UNPACK_ERROR,    /* reported (corrupt, truncated, unsupported, I/O, memory): exit 1 */
	UNPACK_WARNING,  /* decoded, a warning reported (gzip's trailing garbage): exit 2 */
};
struct unpack_io {
	const unsigned char *in_next, *in_end;  /* unread input bytes; the decoder advances in_next */
	const char *name;        /* the input's name for messages, as the reference tool prints it */
	uint64_t mem_limit;      /* -M (xz), UINT64_MAX for none */
	bool quiet;              /* -q: no warnings */
};
bool unpack_fill(struct unpack_io *io);
bool unpack_read_failed(const struct unpack_io *io);
int unpack_write(struct unpack_io *io, const void *data, size_t len);
void unpack_error(struct unpack_io *io, const char *what);
struct unpack_format {
	const char *tool;
	const char *const *suffixes;
	enum unpack_result (*decode)(struct unpack_io *io);
};
int unpack_main(int argc, char **argv, const struct unpack_format *format);

/* The .xz decoder (xz_dec.c), an unpack_format's decode. */
enum unpack_result xz_decode(struct unpack_io *io);

#endif
