/*
 * unit.h - the whole framework for the libbb unit tests.
 *
 * A test program is a list of groups.  Each group prints one line:
 *   PASS: name
 *   FAIL: name (first failed check, and how many failed)
 * and main returns unit_exit_status(): non-zero if any group failed.
 * Tests may use stdio freely; only libbb itself avoids it.
 */
#ifndef ZEROBOX_UNIT_H
#define ZEROBOX_UNIT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *unit_group;
static int unit_group_failures;
static int unit_groups_failed;
static char unit_first_failure[512];

static void unit_begin(const char *name)
{
	unit_group = name;
	unit_group_failures = 0;
	unit_first_failure[0] = '\0';
}

__attribute__((format(printf, 1, 2)))
static void unit_fail(const char *fmt, ...)
{
	va_list ap;

	if (unit_group_failures++ == 0) {
		va_start(ap, fmt);
		vsnprintf(unit_first_failure, sizeof(unit_first_failure),
			  fmt, ap);
		va_end(ap);
	}
}

static void unit_end(void)
{
	if (unit_group_failures) {
		printf("FAIL: %s (%s", unit_group, unit_first_failure);
		if (unit_group_failures > 1)
			printf("; %d failed checks", unit_group_failures);
		printf(")\n");
		unit_groups_failed++;
	} else {
		printf("PASS: %s\n", unit_group);
	}
	fflush(stdout);
}

static int unit_exit_status(void)
{
	return unit_groups_failed ? 1 : 0;
}

#define CHECK(cond) \
	do { \
		if (!(cond)) \
			unit_fail("line %d: %s", __LINE__, #cond); \
	} while (0)

#define CHECK_STR(got, want) \
	do { \
		const char *g_ = (got), *w_ = (want); \
		if (strcmp(g_, w_) != 0) \
			unit_fail("line %d: got \"%s\", want \"%s\"", \
				  __LINE__, g_, w_); \
	} while (0)

#define CHECK_U64(got, want) \
	do { \
		uint64_t g_ = (got), w_ = (want); \
		if (g_ != w_) \
			unit_fail("line %d: %s = %" PRIu64 ", want %" PRIu64, \
				  __LINE__, #got, g_, w_); \
	} while (0)

#endif
