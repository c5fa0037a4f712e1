/*
 * zero.c - is a buffer all zero bytes?  (dd conv=sparse looks at every
 * block it writes.)
 *
 * musl's memcmp compares a byte at a time, so the usual trick of
 * comparing a buffer with itself shifted by one runs at a fraction of
 * memory speed there.  This ORs 16-byte vectors together, four
 * independent ones at a time so that the loads are not queued behind one
 * another, and stops at the first 256-byte step with a non-zero bit: a
 * dense block costs one step.  The vector type is GCC's and clang's
 * vector_size extension, which becomes SSE2, NEON, VMX and so on, or
 * pairs of words on a target without vectors.
 */
#include <stdint.h>
#include <string.h>

#include "libbb.h"

typedef uint64_t zero_vec __attribute__((vector_size(16)));

/* 16 bytes a vector (the type's size); 256 bytes a step. */
#define VEC ((size_t)16)
#define STEP (16 * VEC)
_Static_assert(sizeof(zero_vec) == VEC, "a vector is 16 bytes");

/* acc |= the vector at p.  A fixed-size copy is how C reads bytes as
 * another type; it compiles to one (aligned) vector load.  (Through
 * pointers: a vector passed by value has no fixed ABI on every target.) */
static void or_vec(zero_vec *acc, const unsigned char *p)
{
	zero_vec v;

	memcpy(&v, p, sizeof(v));
	*acc |= v;
}

bool bb_is_all_zero(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	const unsigned char *end = p + len;

	/* Bytes up to a vector boundary, so the loads below are aligned. */
	while (p < end && ((uintptr_t)p % VEC) != 0)
		if (*p++)
			return false;
	for (; (size_t)(end - p) >= STEP; p += STEP) {
		zero_vec a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };

		for (size_t i = 0; i < STEP; i += 4 * VEC) {
			or_vec(&a, p + i);
			or_vec(&b, p + i + VEC);
			or_vec(&c, p + i + 2 * VEC);
			or_vec(&d, p + i + 3 * VEC);
		}
		a |= b | c | d;
		if (a[0] | a[1])
			return false;
	}
	while (p < end)
		if (*p++)
			return false;
	return true;
}
