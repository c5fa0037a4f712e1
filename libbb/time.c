/*
 * time.c - the clock dd measures its transfer rate with.
 *
 * The system call itself, not libc's clock_gettime: in a static musl
 * binary that one brings the vDSO lookup along, which costs more code
 * than the clock is worth to dd (it reads it for the summary and, with
 * status=progress, once per loop turn).
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "libbb.h"

/* musl's 32-bit targets with a 64-bit time_t name the old call
 * clock_gettime32. */
#if defined(SYS_clock_gettime32) && !defined(SYS_clock_gettime)
#define SYS_clock_gettime SYS_clock_gettime32
#endif

static uint64_t ns(uint64_t sec, uint64_t nsec)
{
	return sec * SECOND_NS + nsec;
}

uint64_t monotonic_ns(void)
{
#ifdef SYS_clock_gettime64
	/* A 32-bit target.  With a 64-bit time_t (musl) the timespec is
	 * the kernel's 64-bit one; kernels before 5.1 lack the call, and
	 * the old one fills two longs. */
	struct timespec ts;
	long old[2] = { 0, 0 };

	if (sizeof(ts.tv_sec) == 8
	    && syscall(SYS_clock_gettime64, CLOCK_MONOTONIC, &ts) == 0)
		return ns((uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, old);
	return ns((uint64_t)old[0], (uint64_t)old[1]);
#else
	struct timespec ts;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return ns((uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec);
#endif
}
