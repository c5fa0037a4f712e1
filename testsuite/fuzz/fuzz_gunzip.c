/*
 * fuzz_gunzip.c - the gzip decoder (libbb/gunzip.c over inflate.c) on
 * arbitrary input, driven as the front end drives it: the input comes
 * through a descriptor in pieces (a SOCK_SEQPACKET socket gives each
 * piece to one read, so the decoder's refills fall where the first
 * byte says), the output and the messages go to memfds.  For every
 * input:
 *   - the result is OK, ERROR or WARNING; ERROR and WARNING (unless -q)
 *     come with a message, OK with none;
 *   - the same bytes in one piece give the same result, the same stop
 *     flag and the same output: a refill at any boundary changes
 *     nothing;
 *   - it ends, and touches no memory it should not (ASan, UBSan).
 * The first byte chooses the pieces and the flags (-q, -cf's copying,
 * -t); the rest is the gzip data.
 */
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libbb.h"
#include "fuzz.h"

enum { MAX_PIECES = 8, MAX_INPUT = 1 << 16 };

struct run {
	enum unpack_result r;
	bool stop;
	size_t out_len, err_len;
	unsigned char *out;
};

static size_t fd_size(int fd)
{
	off_t n = lseek(fd, 0, SEEK_END);

	FUZZ_CHECK(n >= 0);
	return (size_t)n;
}

/* Decode data, sent in pieces of the sizes given (the last takes the
 * rest), with the flags of mode. */
static void decode(const uint8_t *data, size_t size, const size_t *pieces,
		   unsigned npieces, unsigned mode, struct run *run)
{
	static unsigned char in_buf[UNPACK_KEEP + UNPACK_IN_SIZE];
	struct unpack_io io;
	int sv[2], out = memfd_create("out", 0), err = memfd_create("err", 0);
	int saved_err = dup(STDERR_FILENO);
	size_t at = 0;

	FUZZ_CHECK(out >= 0 && err >= 0);
	FUZZ_CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	for (unsigned i = 0; i < npieces && at < size; i++) {
		size_t n = i + 1 == npieces || pieces[i] > size - at ? size - at : pieces[i];

		FUZZ_CHECK(write(sv[1], data + at, n) == (ssize_t)n);
		at += n;
	}
	close(sv[1]);
	memset(&io, 0, sizeof(io));
	io.mem_limit = UINT64_MAX;
	io.quiet = mode & 1;
	io.copy_unknown = mode & 2;
	io.to_null = mode & 4;
	io.in_fd = sv[0];
	io.out_fd = out;
	io.name = "fuzz";
	io.out_name = "stdout";
	io.in_buf = in_buf;
	io.in_next = io.in_end = in_buf + UNPACK_KEEP;
	dup2(err, STDERR_FILENO);
	run->r = gunzip_decode(&io);
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	} else {
		close(STDERR_FILENO);
	}
	run->stop = io.stop;
	run->err_len = fd_size(err);
	run->out_len = fd_size(out);
	run->out = run->out_len ? mmap(NULL, run->out_len, PROT_READ, MAP_PRIVATE, out, 0) : NULL;
	FUZZ_CHECK(run->out != MAP_FAILED);
	close(sv[0]);
	close(out);
	close(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t pieces[MAX_PIECES];
	struct run a, b;
	unsigned mode, npieces;

	if (size < 1 || size > MAX_INPUT)
		return 0;
	applet_name = "zcat";
	/* The first byte: the pieces (1 to 8, of sizes 1 to 13 but the
	 * last) and the flags. */
	npieces = 1 + (data[0] & 7);
	mode = data[0] >> 5;
	for (unsigned i = 0; i < MAX_PIECES; i++)
		pieces[i] = 1 + (data[0] * (i + 3)) % 13;
	data++;
	size--;
	decode(data, size, pieces, npieces, mode, &a);
	FUZZ_CHECK(a.r == UNPACK_OK || a.r == UNPACK_ERROR || a.r == UNPACK_WARNING);
	FUZZ_CHECK((a.r == UNPACK_OK) == (a.err_len == 0) || (a.r == UNPACK_WARNING && (mode & 1)));
	FUZZ_CHECK(!a.stop || a.r == UNPACK_ERROR);
	FUZZ_CHECK(!(mode & 4) || a.out_len == 0);
	decode(data, size, pieces, 1, mode, &b);
	FUZZ_CHECK(a.r == b.r && a.stop == b.stop);
	FUZZ_CHECK(a.out_len == b.out_len);
	FUZZ_CHECK(a.out_len == 0 || memcmp(a.out, b.out, a.out_len) == 0);
	if (a.out)
		munmap(a.out, a.out_len);
	if (b.out)
		munmap(b.out, b.out_len);
	return 0;
}
