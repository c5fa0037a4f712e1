/* bench-clock.h - the one clock of the benchmark helpers (scripts/
 * bench-*.c): seconds, monotonic. */
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
