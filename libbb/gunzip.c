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

/* The input ended inside a member: gzip stops there. */
static enum unpack_result truncated(struct unpack_io *io)
{
	io->stop = true;
	if (!unpack_read_failed(io))
		unpack_error(io, "unexpected end of file");
	return UNPACK_ERROR;
}

/* Read n bytes into buf (when not NULL), counted in the header's
 * CRC-32 *crc (when not NULL; for FHCRC); n 0 reads up to a zero byte.
 * False at the end of the input. */
static bool read_bytes(struct unpack_io *io, uint32_t *crc, unsigned char *buf,
		       unsigned n)
{
	unsigned i = 0;

	do {
		int c = unpack_next_byte(io);
		unsigned char b = (unsigned char)c;

		if (c < 0)
			return false;
		if (crc)
			*crc = crc32_update(*crc, &b, 1);
		if (buf)
			buf[i] = b;
		if (!n && !b)
			break;
	} while (!n || ++i < n);
	return true;
}

/* The rest of a header after its magic (RFC 1952 2.3): 0, -1 at the
 * end of the input, -2 after reporting what gzip does not support, in
 * gzip's words. */
static int read_header(struct unpack_io *io, uint32_t crc)
{
	/* CM FLG MTIME XFL OS, then XLEN or the FHCRC */
	unsigned char h[10];
	unsigned flags, want;

	if (!read_bytes(io, &crc, h, 8))
		return -1;
	flags = h[1];
	if (h[0] != METHOD_DEFLATE) {
		bb_error_msg("%s: unknown method %d -- not supported", io->name, h[0]);
		return -2;
	}
	if (flags & FLAG_ENCRYPTED) {
		bb_error_msg("%s is encrypted -- not supported", io->name);
		return -2;
	}
	if (flags & FLAG_RESERVED) {
		bb_error_msg("%s has flags 0x%x -- not supported", io->name, flags);
		return -2;
	}
	if ((flags & FLAG_EXTRA)
	    && (!read_bytes(io, &crc, h, 2)
		|| ((h[0] | h[1]) && !read_bytes(io, &crc, NULL, h[0] | h[1] << 8))))
		return -1;
	if ((flags & FLAG_NAME) && !read_bytes(io, &crc, NULL, 0))
		return -1;
	if ((flags & FLAG_COMMENT) && !read_bytes(io, &crc, NULL, 0))
		return -1;
	want = crc & 0xffff;
	if ((flags & FLAG_HCRC) && !read_bytes(io, &crc, h, 2))
		return -1;
	if ((flags & FLAG_HCRC) && (unsigned)(h[0] | h[1] << 8) != want) {
		bb_error_msg("%s: header checksum 0x%04x != computed checksum 0x%04x",
			     io->name, (unsigned)(h[0] | h[1] << 8), want);
		return -2;
	}
	return 0;
}

/* One member, its magic read: header, data, and the check of its
 * CRC-32 and length before its last bytes are written. */
static enum unpack_result member(struct inflate *z, struct unpack_io *io,
				 const unsigned char magic[2])
{
	uint32_t crc, size;
	unsigned char t[8];
	int r = read_header(io, crc32_update(0, magic, 2));

	if (r)
		return r == -1 ? truncated(io) : UNPACK_ERROR;
	if (inflate_stream(z, &crc, &size)) {
		io->stop = true;
		return UNPACK_ERROR;
	}
	if (!read_bytes(io, NULL, t, 8))
		return truncated(io);
	for (int i = 3; i >= 0; i--) {
		crc ^= (uint32_t)t[i] << 8 * i;
		size ^= (uint32_t)t[i + 4] << 8 * i;
	}
	if (crc)
		inflate_data_error(io, "crc error");
	if (size)
		inflate_data_error(io, "length error");
	if (crc | size) {
		io->stop = true;
		return UNPACK_ERROR;
	}
	return inflate_write_rest(z) ? UNPACK_ERROR : UNPACK_OK;
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
		int b0 = unpack_next_byte(io), b1 = b0 < 0 ? -1 : unpack_next_byte(io);
		unsigned char magic[2] = { (unsigned char)b0, (unsigned char)b1 };

		if (b0 < 0 && !unpack_read_failed(io) && (n || io->copy_unknown))
			break;
		if (unpack_read_failed(io) || (b1 < 0 && b0 != 0 && !io->copy_unknown)) {
			/* (gzip wants two bytes of a magic) */
			r = truncated(io);
		} else if (b0 == 0x1f && (b1 == 0x8b || b1 == 0x9e)) {
			/* 0x9e: the magic of gzip 0.5, which gzip still reads */
			r = member(z, io, magic);
		} else if (b0 == 0x1f && (b1 == 0x1e || b1 == 0x9d || b1 == 0xa0)) {
			unpack_error(io, "pack, compress or lzh data -- not supported");
			r = UNPACK_ERROR;
		} else if (io->copy_unknown) {
			r = unpack_write(io, magic, b1 < 0 ? 1 : 2) ? UNPACK_ERROR
				: unpack_copy_rest(io);
			break;
		} else if (!n) {
			unpack_error(io, "not in gzip format");
			r = UNPACK_ERROR;
		} else {
			/* After the last member: zeros to the end are
			 * fine, anything else is garbage. */
			while (b0 == 0 && b1 == 0)
				b1 = unpack_next_byte(io);
			if (b0 == 0 && b1 < 0) {
				r = unpack_read_failed(io) ? UNPACK_ERROR : UNPACK_OK;
			} else {
				unpack_warn(io, "decompression OK, trailing garbage ignored");
				r = UNPACK_WARNING;
			}
			break;
		}
	}
	inflate_free(z);
	return r;
}
