/*
 * test_time.c - monotonic_ns reads the kernel's CLOCK_MONOTONIC itself:
 * it must agree with libc's clock_gettime, whatever the timespec layout
 * of the target.
 */
#include <time.h>

#include "libbb.h"
#include "unit.h"

static uint64_t libc_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	int i;

	unit_begin("monotonic_ns agrees with clock_gettime(CLOCK_MONOTONIC)");
	for (i = 0; i < 100; i++) {
		uint64_t before = libc_ns(), ours = monotonic_ns(),
			 after = libc_ns();

		if (ours < before || ours > after) {
			unit_fail("%" PRIu64 " not within [%" PRIu64 ", %" PRIu64 "]",
				  ours, before, after);
			break;
		}
	}
	unit_end();
	return unit_exit_status();
}
