/*
 * bcj.c - the branch filters of .xz (x86, ARM, ARM-Thumb, ARM64), for
 * executables.  The encoder rewrote the relative target of each call or
 * branch it recognised as an absolute address (a function called from
 * many places then looks the same each time, and compresses better);
 * the decoder subtracts the address again.  An instruction's address
 * is the filter's start offset plus its position in the block, modulo
 * 2^32.  Each filter finds instructions only where a whole one is in
 * the buffer: the bytes after the last one it could look at come again
 * in the next call (bcj_filter's contract, xz.h).
 *
 * Each filter has its own switch, so the unused ones cost nothing.
 */
#include "xz.h"

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The top byte of an x86 rel32 that the encoder would take for a near
 * call or jump: 0x00 or 0xFF (a target within 16 MiB). */
static bool x86_near(unsigned char b)
{
	return b == 0x00 || b == 0xFF;
}

/*
 * x86: E8 (call) and E9 (jmp) with a 32-bit operand.  The encoder
 * converted an opcode when its operand's top byte was near (above) and
 * the opcodes it had left alone in the three bytes before were few: at
 * most one, and none with a near top byte of its own.  Such a left-alone
 * opcode at distance d overlaps this operand, whose byte 3 - d is its
 * top byte; if the conversion makes that byte near, the encoder flipped
 * the bits below it and converted again, and so must we.  Once is
 * enough: below that byte, flipping and converting again gives the
 * complement of the operand's own bits, whose byte 3 - d is not near
 * (that opcode's top byte was not).  A converted instruction is
 * skipped whole; after one left alone, the search goes on at the next
 * byte.
 *
 * f->x86_alone keeps the opcodes left alone around f->x86_last (the
 * address of the last opcode looked at): bit k for the one k bytes
 * before it; f->x86_alone_near those of them with a near top byte.
 */
static size_t x86_decode(struct xz_filter *f, unsigned char *buf, size_t len)
{
	size_t i = 0;

	for (; i + 5 <= len; i++) {
		uint32_t at = f->pos + (uint32_t)i, back;
		unsigned alone, alone_near;

		if ((buf[i] & 0xFE) != 0xE8)
			continue;
		/* Those left alone 1-3 bytes before this one. */
		back = at - f->x86_last;
		alone = back > 3 ? 0 : f->x86_alone << back & 0x0E;
		alone_near = back > 3 ? 0 : f->x86_alone_near << back & 0x0E;
		f->x86_last = at;
		if (!x86_near(buf[i + 4]) || alone_near || (alone & (alone - 1))) {
			f->x86_alone = (unsigned char)(alone | 1);
			f->x86_alone_near = (unsigned char)(alone_near | x86_near(buf[i + 4]));
			continue;
		}
		{
			uint32_t dest = get_le32(buf + i + 1) - (at + 5);

			if (alone) {
				unsigned d = alone == 2 ? 1 : alone == 4 ? 2 : 3;
				unsigned shift = 24 - 8 * d;

				if (x86_near((unsigned char)(dest >> shift)))
					dest = (dest ^ ((1u << (shift + 8)) - 1)) - (at + 5);
			}
			/* 25 bits, the top one repeated above them. */
			dest &= 0x01FFFFFF;
			put_le32(buf + i + 1, dest | (0 - (dest & 0x01000000)));
		}
		f->x86_alone = f->x86_alone_near = 0;
		i += 4;
	}
	f->pos += (uint32_t)i;
	return i;
}

/* ARM: BL, a 24-bit word offset from the instruction's address + 8,
 * the condition byte 0xEB (always); instructions at multiples of 4. */
static size_t arm_decode(struct xz_filter *f, unsigned char *buf, size_t len)
{
	size_t i = 0;

	for (; i + 4 <= len; i += 4) {
		if (buf[i + 3] == 0xEB) {
			uint32_t target = (uint32_t)(buf[i + 2] << 16 | buf[i + 1] << 8 | buf[i]) << 2;
			uint32_t rel = (target - (f->pos + (uint32_t)i + 8)) >> 2;

			buf[i] = (unsigned char)rel;
			buf[i + 1] = (unsigned char)(rel >> 8);
			buf[i + 2] = (unsigned char)(rel >> 16);
		}
	}
	f->pos += (uint32_t)i;
	return i;
}

/* ARM-Thumb: BL as two 16-bit halves (11110 hi, 11111 lo), a 22-bit
 * halfword offset from the address + 4; halves at multiples of 2. */
static size_t armthumb_decode(struct xz_filter *f, unsigned char *buf, size_t len)
{
	size_t i = 0;

	for (; i + 4 <= len; i += 2) {
		uint32_t target, rel;

		if ((buf[i + 1] & 0xF8) != 0xF0 || (buf[i + 3] & 0xF8) != 0xF8)
			continue;
		target = ((uint32_t)(buf[i + 1] & 7) << 19 | (uint32_t)buf[i] << 11
			  | (uint32_t)(buf[i + 3] & 7) << 8 | buf[i + 2]) << 1;
		rel = (target - (f->pos + (uint32_t)i + 4)) >> 1;
		buf[i + 1] = (unsigned char)(0xF0 | (rel >> 19 & 7));
		buf[i] = (unsigned char)(rel >> 11);
		buf[i + 3] = (unsigned char)(0xF8 | (rel >> 8 & 7));
		buf[i + 2] = (unsigned char)rel;
		i += 2;
	}
	f->pos += (uint32_t)i;
	return i;
}

/*
 * ARM64, instructions at multiples of 4: BL (26-bit word offset), and
 * ADRP (21-bit offset in 4 KiB pages: immlo in bits 29-30, immhi in
 * 5-23) when the offset is within +-512 MiB, i.e. its bits 17-20 agree;
 * only the low 18 bits were converted, bits 18-20 then repeat bit 17.
 */
static size_t arm64_decode(struct xz_filter *f, unsigned char *buf, size_t len)
{
	size_t i = 0;

	for (; i + 4 <= len; i += 4) {
		uint32_t insn = get_le32(buf + i), at = f->pos + (uint32_t)i;

		if (insn >> 26 == 0x25) {
			insn = 0x94000000 | ((insn - (at >> 2)) & 0x03FFFFFF);
		} else if ((insn & 0x9F000000) == 0x90000000) {
			uint32_t page = (insn >> 29 & 3) | (insn >> 3 & 0x001FFFFC);

			if ((page + 0x00020000) & 0x001C0000)
				continue;
			page -= at >> 12;
			insn = (insn & 0x9000001F) | (page & 3) << 29
				| (page & 0x0003FFFC) << 3
				| ((0 - (page & 0x00020000)) & 0x00E00000);
		} else {
			continue;
		}
		put_le32(buf + i, insn);
	}
	f->pos += (uint32_t)i;
	return i;
}

size_t bcj_filter(struct xz_filter *f, unsigned char *buf, size_t len)
{
	if (ENABLE_FEATURE_XZ_X86 && f->id == XZ_FILTER_X86)
		return x86_decode(f, buf, len);
	if (ENABLE_FEATURE_XZ_ARM && f->id == XZ_FILTER_ARM)
		return arm_decode(f, buf, len);
	if (ENABLE_FEATURE_XZ_ARMTHUMB && f->id == XZ_FILTER_ARMTHUMB)
		return armthumb_decode(f, buf, len);
	if (ENABLE_FEATURE_XZ_ARM64 && f->id == XZ_FILTER_ARM64)
		return arm64_decode(f, buf, len);
	return len;
}
