/*
 * test_human.c - dd's summary numbers.  Byte counts were checked against
 * GNU dd 9.1 (dd if=/dev/zero of=/dev/null bs=16M count=N
 * iflag=count_bytes); rates against gnulib's human_readable() algorithm
 * (long double path), including values whose exact result is a tie.
 */
#include <float.h>

#include "libbb.h"
#include "unit.h"

static const struct {
	uint64_t bytes;
	const char *si, *iec;
} bytes[] = {
	{ 0u, "0 B", "0 B" },
	{ 1u, "1 B", "1 B" },
	{ 999u, "999 B", "999 B" },
	{ 1000u, "1.0 kB", "1000 B" },
	{ 1023u, "1.0 kB", "1023 B" },
	{ 1024u, "1.0 kB", "1.0 KiB" },
	{ 1049u, "1.0 kB", "1.0 KiB" },
	{ 1050u, "1.0 kB", "1.0 KiB" },
	{ 1051u, "1.1 kB", "1.0 KiB" },
	{ 1100u, "1.1 kB", "1.1 KiB" },
	{ 1149u, "1.1 kB", "1.1 KiB" },
	{ 1150u, "1.2 kB", "1.1 KiB" },
	{ 1151u, "1.2 kB", "1.1 KiB" },
	{ 9949u, "9.9 kB", "9.7 KiB" },
	{ 9950u, "10 kB", "9.7 KiB" },
	{ 9999u, "10 kB", "9.8 KiB" },
	{ 10000u, "10 kB", "9.8 KiB" },
	{ 10239u, "10 kB", "10 KiB" },
	{ 10240u, "10 kB", "10 KiB" },
	{ 99999u, "100 kB", "98 KiB" },
	{ 100000u, "100 kB", "98 KiB" },
	{ 999499u, "999 kB", "976 KiB" },
	{ 999500u, "1.0 MB", "976 KiB" },
	{ 999999u, "1.0 MB", "977 KiB" },
	{ 1000000u, "1.0 MB", "977 KiB" },
	{ 1048575u, "1.0 MB", "1.0 MiB" },
	{ 1048576u, "1.0 MB", "1.0 MiB" },
	{ 9950000u, "10 MB", "9.5 MiB" },
	{ 10485760u, "10 MB", "10 MiB" },
	{ 104857600u, "105 MB", "100 MiB" },
	{ 1000000000u, "1.0 GB", "954 MiB" },
	{ 1073741824u, "1.1 GB", "1.0 GiB" },
	{ 1234567890u, "1.2 GB", "1.1 GiB" },
	{ 4294967296u, "4.3 GB", "4.0 GiB" },
	{ 999999999999999999u, "1.0 EB", "888 PiB" },
	{ 1000000000000000000u, "1.0 EB", "888 PiB" },
	{ 18446744073709551615u, "18 EB", "16 EiB" },
};

static const struct {
	uint64_t amount, multiplier, divisor;
	int binary;
	const char *want;
} rates[] = {
	{ 13524u, 1000000000u, 3920000u, 1, "3.3 MiB" },
	{ 7506u, 1000000000u, 360000u, 1, "20 MiB" },
	{ 909u, 1000000000u, 180u, 1, "4.7 GiB" },
	{ 492450u, 1000000000u, 7u, 1, "64 TiB" },
	{ 1700u, 6u, 4u, 1, "2.5 KiB" },
	{ 0u, 1000000000u, 139355u, 0, "0.0 kB" },
	{ 0u, 1000000000u, 139355u, 1, "0.0 KiB" },
	{ 1048576u, 1000000000u, 64321u, 0, "16.3 GB" },
	{ 1048576u, 1000000000u, 64321u, 1, "15 GiB" },
	{ 1073741824u, 1000000000u, 65800000u, 0, "16.3 GB" },
	{ 1073741824u, 1000000000u, 65800000u, 1, "15 GiB" },
	{ 512u, 1000000000u, 1000000001u, 0, "0.5 kB" },
	{ 512u, 1000000000u, 1000000001u, 1, "0.5 KiB" },
	{ 1000u, 1000000000u, 2500000000u, 0, "0.4 kB" },
	{ 1000u, 1000000000u, 2500000000u, 1, "0.4 KiB" },
	{ 5u, 1000000000u, 3u, 0, "1.7 GB" },
	{ 5u, 1000000000u, 3u, 1, "1.6 GiB" },
	{ 18446744073709551615u, 1000000000u, 1u, 0, "18.4 RB" },
	{ 18446744073709551615u, 1000000000u, 1u, 1, "15 RiB" },
	{ 18446744073709551615u, 18446744073709551615u, 1u, 0, "340282367 QB" },
	{ 18446744073709551615u, 18446744073709551615u, 1u, 1, "268435456 QiB" },
	{ 104857600u, 1000000000u, 6432100u, 0, "16.3 GB" },
	{ 104857600u, 1000000000u, 6432100u, 1, "15 GiB" },
	{ 999u, 1000000000u, 1000u, 0, "999 MB" },
	{ 999u, 1000000000u, 1000u, 1, "953 MiB" },
	{ 1u, 1000000000u, 1000u, 0, "1.0 MB" },
	{ 1u, 1000000000u, 1000u, 1, "977 KiB" },
	{ 123456789u, 1000000000u, 1000000000u, 0, "123 MB" },
	{ 123456789u, 1000000000u, 1000000000u, 1, "118 MiB" },
	{ 1u, 1000000000u, 2000000000u, 0, "0 B" },
	{ 1u, 1000000000u, 2000000000u, 1, "0 B" },
	{ 3u, 1000000000u, 2000000000u, 0, "2 B" },
	{ 3u, 1000000000u, 2000000000u, 1, "2 B" },
	{ 5u, 1000000000u, 2000000000u, 0, "2 B" },
	{ 5u, 1000000000u, 2000000000u, 1, "2 B" },
	{ 15u, 1000000000u, 10000000000u, 0, "2 B" },
	{ 15u, 1000000000u, 10000000000u, 1, "2 B" },
	{ 25u, 1000000000u, 10000000000u, 0, "2 B" },
	{ 25u, 1000000000u, 10000000000u, 1, "2 B" },
	{ 35u, 1000000000u, 10000000000u, 0, "4 B" },
	{ 35u, 1000000000u, 10000000000u, 1, "4 B" },
};

/*
 * Exact decimal ties (13524e9 / 3920000 is exactly 3.45e6): the answer
 * depends on how the platform's long double rounds n * (1e9 / ns), just
 * as GNU's does.  "want" is x87's 64-bit long double (x86); elsewhere
 * either neighbour is accepted.
 */
static const struct {
	uint64_t amount, multiplier, divisor;
	const char *want, *other;
} ties[] = {
	{ 13524u, 1000000000u, 3920000u, "3.5 MB", "3.4 MB" },
	{ 7506u, 1000000000u, 360000u, "20.9 MB", "20.8 MB" },
	{ 909u, 1000000000u, 180u, "5.1 GB", "5.0 GB" },
	{ 492450u, 1000000000u, 7u, "70.3 TB", "70.4 TB" },
	{ 1700u, 6u, 4u, "2.5 kB", "2.6 kB" },
};

static void test_ties(void)
{
	char buf[HUMAN_BUF_SIZE];
	size_t i;

	unit_begin("rates at exact decimal ties");
	for (i = 0; i < sizeof(ties) / sizeof(ties[0]); i++) {
		human_readable(buf, ties[i].amount, ties[i].multiplier,
			       ties[i].divisor, HUMAN_SI);
		if (LDBL_MANT_DIG == 64 || strcmp(buf, ties[i].other) != 0)
			CHECK_STR(buf, ties[i].want);
	}
	unit_end();
}

static void test_bytes(void)
{
	char buf[HUMAN_BUF_SIZE];
	size_t i;

	unit_begin("byte counts (integer path)");
	for (i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		CHECK_STR(human_readable(buf, bytes[i].bytes, 1, 1, HUMAN_SI),
			  bytes[i].si);
		CHECK_STR(human_readable(buf, bytes[i].bytes, 1, 1, HUMAN_IEC),
			  bytes[i].iec);
	}
	CHECK(human_readable(buf, 5, 1, 1, 0) == buf);
	unit_end();
}

static void test_rates(void)
{
	char buf[HUMAN_BUF_SIZE];
	size_t i;

	unit_begin("rates (bytes * 1e9 / ns)");
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
		CHECK_STR(human_readable(buf, rates[i].amount,
					 rates[i].multiplier,
					 rates[i].divisor, rates[i].binary),
			  rates[i].want);
	unit_end();
}

/* GNU: "0 bytes copied, 0.000139 s, 0.0 kB/s" - the long double path
 * always scales at least once; an exact division does not. */
static void test_zero(void)
{
	char buf[HUMAN_BUF_SIZE];

	unit_begin("zero bytes");
	CHECK_STR(human_readable(buf, 0, 1000000000, 139355, 0), "0.0 kB");
	CHECK_STR(human_readable(buf, 0, 1000000000, 1000, 0), "0 B");
	CHECK_STR(human_readable(buf, 0, 1000000000, 3000000000u, 0), "0 B");
	CHECK_STR(human_readable(buf, 0, 1, 1, 0), "0 B");
	CHECK_STR(human_readable(buf, 0, 1, 1, 1), "0 B");
	unit_end();
}

int main(void)
{
	test_bytes();
	test_rates();
	test_ties();
	test_zero();
	return unit_exit_status();
}
