/*
 * gunzip.c - the gzip format (RFC 1952) for zcat and gunzip: members
 * one after another, each a header, a deflate stream (inflate.c), its
 * CRC-32 and length; then what GNU gzip makes of the bytes after a
 * member: trailing zeros are ignored, anything else is a warning
 * (exit 2), and with -cf they are copied as they are.
 */
#include "inflate.h"

enum {
	FLAG_HCRC = 0x02,
	FLAG_EXTRA = 0x04,
	FLAG_NAME = 0x08,
	FLAG_COMMENT = 0x10,
	FLAG_ENCRYPTED = 0x20,    /* gzip's own, never implemented */
	FLAG_RESERVED = 0xc0,
	METHOD_DEFLATE = 8,
};

/* The next input byte, or -1 at the end of the input. */
static int next_byte(struct unpack_io *io)
{
	if (io->in_next == io->in_end && !unpack_fill(io))
		return -1;
	return *io->in_next++;
}

/* The input ended inside a member: gzip stops there. */
static enum unpack_result truncated(struct unpack_io *io)
{
	io->stop = true;
	if (!unpack_read_failed(io))
		unpack_error(io, "unexpected end of file");
	return UNPACK_ERROR;
}

/* A header byte, counted in the header's CRC-32 (for FHCRC). */
static int header_byte(struct unpack_io *io, uint32_t *crc)
{
	int c = next_byte(io);
	unsigned char b = (unsigned char)c;

	if (c >= 0)
		*crc = crc32_update(*crc, &b, 1);
	return c;
}

/* Skip a zero-terminated field; false at the end of the input. */
static bool skip_string(struct unpack_io *io, uint32_t *crc)
{
	int c;

	do
		c = header_byte(io, crc);
	while (c > 0);
	return c == 0;
}

/* The rest of a header after its magic (RFC 1952 2.3): 0, -1 at the
 * end of the input, -2 after reporting what gzip does not support.
 * Messages in gzip's words. */
static int read_header(struct unpack_io *io, uint32_t crc)
{
	int method = header_byte(io, &crc), flags = header_byte(io, &crc);
	int lo, hi;

	if (flags < 0)
		return -1;
	if (method != METHOD_DEFLATE) {
		char what[48];

		bb_format(what, sizeof(what), "unknown method %d -- not supported", method);
		unpack_error(io, what);
		return -2;
	}
	if (flags & FLAG_ENCRYPTED) {
		bb_error_msg("%s is encrypted -- not supported", io->name);
		return -2;
	}
	if (flags & FLAG_RESERVED) {
		bb_error_msg("%s has flags 0x%x -- not supported", io->name, (unsigned)flags);
		return -2;
	}
	/* MTIME, XFL, OS */
	for (int i = 0; i < 6; i++)
		if (header_byte(io, &crc) < 0)
			return -1;
	if (flags & FLAG_EXTRA) {
		lo = header_byte(io, &crc);
		hi = header_byte(io, &crc);
		if (hi < 0)
			return -1;
		for (int n = lo | hi << 8; n > 0; n--)
			if (header_byte(io, &crc) < 0)
				return -1;
	}
	if ((flags & FLAG_NAME) && !skip_string(io, &crc))
		return -1;
	if ((flags & FLAG_COMMENT) && !skip_string(io, &crc))
		return -1;
	if (flags & FLAG_HCRC) {
		unsigned want = crc & 0xffff;

		lo = next_byte(io);
		hi = next_byte(io);
		if (hi < 0)
			return -1;
		if ((unsigned)(lo | hi << 8) != want) {
			bb_error_msg("%s: header checksum 0x%04x != computed checksum 0x%04x",
				     io->name, (unsigned)(lo | hi << 8), want);
			return -2;
		}
	}
	return 0;
}

static bool read_le32(struct unpack_io *io, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 32; i += 8) {
		int c = next_byte(io);

		if (c < 0)
			return false;
		*v |= (uint32_t)c << i;
	}
	return true;
}

/* One member, its magic read: header, data, and the check of its
 * CRC-32 and length before its last bytes are written. */
static enum unpack_result member(struct inflate *z, struct unpack_io *io,
				 const unsigned char magic[2])
{
	uint32_t crc, size, want_crc, want_size;
	int r = read_header(io, crc32_update(0, magic, 2));

	if (r == -1)
		return truncated(io);
	if (r)
		return UNPACK_ERROR;
	if (inflate_stream(z, &crc, &size)) {
		io->stop = true;
		return UNPACK_ERROR;
	}
	if (!read_le32(io, &want_crc) || !read_le32(io, &want_size))
		return truncated(io);
	if (crc != want_crc)
		unpack_error(io, "invalid compressed data--crc error");
	if (size != want_size)
		unpack_error(io, "invalid compressed data--length error");
	if (crc != want_crc || size != want_size) {
		io->stop = true;
		return UNPACK_ERROR;
	}
	return inflate_write_rest(z) ? UNPACK_ERROR : UNPACK_OK;
}

/* What follows a member, b0 and b1 its first bytes (b1 -1 at the end
 * of the input), when it is not another member, as GNU gzip takes it. */
static enum unpack_result after_members(struct unpack_io *io, int b0, int b1)
{
	int c = b1;

	if (b0 == 0 && b1 <= 0) {
		while (c == 0)
			c = next_byte(io);
		if (c < 0)
			return unpack_read_failed(io) ? UNPACK_ERROR : UNPACK_OK;
	}
	unpack_warn(io, "decompression OK, trailing garbage ignored");
	return UNPACK_WARNING;
}

enum unpack_result gunzip_decode(struct unpack_io *io)
{
	struct inflate *z = inflate_new(io);
	enum unpack_result r = UNPACK_OK;

	if (!z) {
		unpack_error(io, "memory exhausted");
		return UNPACK_ERROR;
	}
	for (unsigned n = 0; r == UNPACK_OK; n++) {
		unsigned char magic[2];
		int b0 = next_byte(io), b1 = b0 < 0 ? -1 : next_byte(io);

		if (unpack_read_failed(io))
			r = truncated(io);
		else if (b0 < 0 && (n || io->copy_unknown))
			break;
		else if (b0 == 0x1f && (b1 == 0x8b || b1 == 0x9e)) {
			/* 0x9e: the magic of gzip 0.5, which gzip still reads */
			magic[0] = (unsigned char)b0;
			magic[1] = (unsigned char)b1;
			r = member(z, io, magic);
		} else if (b0 == 0x1f && (b1 == 0x1e || b1 == 0x9d || b1 == 0xa0)) {
			unpack_error(io, "pack, compress or lzh data -- not supported");
			r = UNPACK_ERROR;
		} else if (io->copy_unknown) {
			magic[0] = (unsigned char)b0;
			magic[1] = (unsigned char)b1;
			r = unpack_write(io, magic, b1 < 0 ? 1 : 2) ? UNPACK_ERROR
				: unpack_copy_rest(io);
			break;
		} else if (b1 < 0 && b0 != 0) {
			r = truncated(io);
		} else if (!n) {
			unpack_error(io, "not in gzip format");
			r = UNPACK_ERROR;
		} else {
			r = after_members(io, b0, b1);
			break;
		}
	}
	inflate_free(z);
	return r;
}
