/*
 * test_zero.c - bb_is_all_zero: every length up to a few steps, every
 * alignment of the start, and a single non-zero bit in every position,
 * including the bytes before the first aligned word and after the last
 * whole step.
 */
#include "libbb.h"
#include "unit.h"

enum { MAX_LEN = 300, MAX_SHIFT = 16 };

static unsigned char buf[MAX_SHIFT + MAX_LEN + 16];

int main(void)
{
	unit_begin("is_all_zero: zero buffers of every length and alignment");
	for (size_t shift = 0; shift < MAX_SHIFT; shift++)
		for (size_t len = 0; len <= MAX_LEN; len++)
			if (!bb_is_all_zero(buf + shift, len))
				unit_fail("shift %zu len %zu: said non-zero", shift, len);
	unit_end();

	unit_begin("is_all_zero: one bit set anywhere is seen");
	for (size_t shift = 0; shift < MAX_SHIFT; shift++)
		for (size_t len = 1; len <= MAX_LEN; len += (len < 80 ? 1 : 7))
			for (size_t at = 0; at < len; at++)
				for (int bit = 0; bit < 8; bit += 7) {
					buf[shift + at] = (unsigned char)(1u << bit);
					if (bb_is_all_zero(buf + shift, len))
						unit_fail("shift %zu len %zu: byte %zu bit %d missed",
							  shift, len, at, bit);
					buf[shift + at] = 0;
				}
	unit_end();

	unit_begin("is_all_zero: bytes outside the range do not count");
	buf[MAX_SHIFT - 1] = 0xff;
	buf[MAX_SHIFT + 100] = 0xff;
	if (!bb_is_all_zero(buf + MAX_SHIFT, 100))
		unit_fail("a non-zero byte just outside the range was counted");
	buf[MAX_SHIFT - 1] = 0;
	buf[MAX_SHIFT + 100] = 0;
	unit_end();
	return unit_exit_status();
}
