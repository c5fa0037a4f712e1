/*
 * test_buffer.c - lazily touched buffers: a 1 GiB buffer costs nothing
 * until written, growing keeps the bytes, and impossible sizes fail with
 * ENOMEM instead of crashing.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "libbb.h"
#include "unit.h"

#define GiB (UINT64_C(1) << 30)
/* 1 GiB, or 256 MiB where the address space is 32 bits. */
#define BIG (sizeof(size_t) > 4 ? GiB : GiB / 4)
/* "Barely moves": far below BIG even under qemu-user, whose own RSS
 * grows a little with the guest's mappings. */
#define RSS_SLACK_KIB (32 * 1024L)

/* VmRSS in KiB, or -1 when /proc is not there. */
static long rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void test_round_up(void)
{
	size_t ps = (size_t)getpagesize();

	unit_begin("page_round_up");
	CHECK(page_round_up(0) == ps);
	CHECK(page_round_up(1) == ps);
	CHECK(page_round_up(ps) == ps);
	CHECK(page_round_up(ps + 1) == 2 * ps);
	CHECK(page_round_up(GiB) == GiB);
	CHECK(page_round_up(UINT64_MAX) == 0);
	CHECK(page_round_up((uint64_t)SIZE_MAX) == 0);
	CHECK(page_round_up((uint64_t)SIZE_MAX - ps + 1) == SIZE_MAX - ps + 1);
	CHECK(page_round_up((uint64_t)SIZE_MAX - ps + 2) == 0);
	unit_end();
}

static void test_lazy(void)
{
	struct lazy_buffer b = { NULL, 0 };
	long before, after;
	size_t ps = (size_t)getpagesize();

	unit_begin("1 GiB buffer (256 MiB on 32-bit) is not touched");
	before = rss_kib();
	if (lazy_buffer_alloc(&b, BIG) != 0) {
		unit_fail("alloc: %s", strerror(errno));
		unit_end();
		return;
	}
	CHECK(b.capacity == BIG);
	after = rss_kib();
	if (before >= 0 && after - before > RSS_SLACK_KIB)
		unit_fail("VmRSS grew by %ld KiB after alloc", after - before);
	/* one byte in the middle maps one page, not the buffer */
	b.data[BIG / 2] = 1;
	after = rss_kib();
	if (before >= 0 && after - before > RSS_SLACK_KIB)
		unit_fail("VmRSS grew by %ld KiB after one write",
			  after - before);
	CHECK(b.data[BIG / 2 + 1] == 0);        /* fresh pages read zero */
	lazy_buffer_free(&b);
	CHECK(b.data == NULL && b.capacity == 0);

	CHECK(lazy_buffer_alloc(&b, 1) == 0);
	CHECK(b.capacity == ps);
	lazy_buffer_free(&b);
	lazy_buffer_free(&b);                   /* twice is harmless */
	unit_end();
}

static void test_grow(void)
{
	struct lazy_buffer b = { NULL, 0 };
	size_t ps = (size_t)getpagesize(), i;
	long before, after;
	int bad = 0;

	unit_begin("grow keeps the contents");
	CHECK(lazy_buffer_grow(&b, 3 * ps) == 0);      /* from empty */
	CHECK(b.capacity == 3 * ps);
	for (i = 0; i < b.capacity; i++)
		b.data[i] = (unsigned char)(i * 7 + 3);
	CHECK(lazy_buffer_grow(&b, 2 * ps) == 0);      /* no shrink */
	CHECK(b.capacity == 3 * ps);
	before = rss_kib();
	if (lazy_buffer_grow(&b, 2 * BIG + 1) != 0) {
		unit_fail("grow: %s", strerror(errno));
		lazy_buffer_free(&b);
		unit_end();
		return;
	}
	CHECK(b.capacity == 2 * BIG + ps);
	after = rss_kib();
	if (before >= 0 && after - before > RSS_SLACK_KIB)
		unit_fail("VmRSS grew by %ld KiB on grow", after - before);
	for (i = 0; i < 3 * ps; i++)
		bad += b.data[i] != (unsigned char)(i * 7 + 3);
	CHECK(bad == 0);
	CHECK(b.data[3 * ps] == 0 && b.data[b.capacity - 1] == 0);
	lazy_buffer_free(&b);
	unit_end();
}

static void test_huge(void)
{
	struct lazy_buffer b = { NULL, 0 };
	unsigned char *data;
	size_t cap;

	unit_begin("impossible sizes fail with ENOMEM");
	errno = 0;
	CHECK(lazy_buffer_alloc(&b, UINT64_MAX) == -1);
	CHECK(errno == ENOMEM);
	CHECK(b.data == NULL && b.capacity == 0);
	errno = 0;
	CHECK(lazy_buffer_alloc(&b, UINT64_C(1) << 62) == -1);
	CHECK(errno == ENOMEM);
	CHECK(b.data == NULL && b.capacity == 0);

	CHECK(lazy_buffer_alloc(&b, 100) == 0);
	b.data[0] = 42;
	data = b.data;
	cap = b.capacity;
	errno = 0;
	CHECK(lazy_buffer_grow(&b, UINT64_MAX) == -1);
	CHECK(errno == ENOMEM);
	CHECK(lazy_buffer_grow(&b, UINT64_C(1) << 62) == -1);
	CHECK(errno == ENOMEM);
	CHECK(b.data == data && b.capacity == cap && b.data[0] == 42);
	lazy_buffer_free(&b);
	unit_end();
}

int main(void)
{
	test_round_up();
	test_lazy();
	test_grow();
	test_huge();
	return unit_exit_status();
}
