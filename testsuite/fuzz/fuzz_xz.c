/*
 * fuzz_xz.c - the .xz decoder (libbb/xz_dec.c and its parts) on arbitrary
 * bytes, fed from memory by unpack_feed.h's front end, with properties
 * that must hold for every input:
 *   - it never crashes, reads out of bounds, leaks or hangs;
 *   - the pieces the input comes in change nothing: the first byte picks
 *     a piece size (1-64 bytes) and whether -M is 512 KiB; the result,
 *     the messages and the output must equal those of one piece;
 *   - a good result comes without a message, a bad one with one.
 * Output past 64 MiB fails as a write error would, which keeps a tiny
 * input that expands hugely from timing out, and tests that path too.
 */
#include "xz.h"
#include "fuzz.h"
#include "../unit/unpack_feed.h"

enum { WRITE_LIMIT = 64 << 20 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct outcome whole, parts;
	uint64_t limit;
	size_t piece;

	if (size < 1 || size > (1 << 20))
		return 0;
	piece = data[0] % 64 + 1;
	limit = data[0] & 0x40 ? 512 << 10 : UINT64_MAX;
	data++;
	size--;
	whole = decode_feed(data, size, size ? size : 1, limit, false, WRITE_LIMIT);
	parts = decode_feed(data, size, piece, limit, false, WRITE_LIMIT);
	FUZZ_CHECK(whole.result == parts.result);
	FUZZ_CHECK(strcmp(whole.msgs, parts.msgs) == 0);
	FUZZ_CHECK(whole.out_len == parts.out_len && whole.out_crc == parts.out_crc);
	FUZZ_CHECK(whole.result == UNPACK_OK || whole.result == UNPACK_ERROR
		   || whole.result == UNPACK_WARNING);
	FUZZ_CHECK(whole.write_failed == parts.write_failed);
	if (whole.write_failed)
		FUZZ_CHECK(whole.result == UNPACK_ERROR);
	else
		FUZZ_CHECK((whole.result == UNPACK_OK) == (whole.msgs[0] == '\0'));
	return 0;
}
