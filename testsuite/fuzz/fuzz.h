/*
 * fuzz.h - what the fuzz harnesses share.  Include it from exactly one
 * file of each harness (it defines __wrap_exit).
 *
 * Each harness defines LLVMFuzzerTestOneInput().  It is linked two ways:
 *   - with libFuzzer (make fuzz: clang -fsanitize=fuzzer,address,undefined);
 *   - with replay.c into $(O)/unit/test_fuzz_NAME, a unit test that
 *     runs every committed seed and crash input through it (make check,
 *     also under EMU= and in the sanitizer builds).
 *
 * Surviving exit(): libbb's x* and *_and_die functions call exit(), and
 * the dd operand parser dies on every bad operand, as GNU does.  The
 * harnesses are linked with -Wl,--wrap=exit, so those calls land in
 * __wrap_exit below, which longjmps back into the harness when it has
 * armed FUZZ_TRY, and really exits otherwise.  Chosen over refactoring
 * the parser into a non-exiting core: the code under test stays exactly
 * the code that ships (no second error path to keep in step), and the
 * cost is confined to the test build.  Whatever a dying path allocated
 * (quoted names for the message) is lost by the longjmp; that is a leak
 * only in the harness, so leak detection is off where exits are caught.
 */
#ifndef ZEROBOX_FUZZ_H
#define ZEROBOX_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf fuzz_exit_jmp;
static volatile int fuzz_exit_armed;
static volatile int fuzz_exit_status;

void __real_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status)
{
	if (fuzz_exit_armed) {
		fuzz_exit_armed = 0;
		fuzz_exit_status = status;
		longjmp(fuzz_exit_jmp, 1);
	}
	__real_exit(status);
}

/* FUZZ_TRY: true on the first pass; false once the code under test
 * called exit() (fuzz_exit_status holds its status).  Call FUZZ_END
 * when the code that may exit is done. */
#define FUZZ_TRY (fuzz_exit_armed = 1, setjmp(fuzz_exit_jmp) == 0)
#define FUZZ_END (fuzz_exit_armed = 0)

/* An invariant failed: say which, and crash so that libFuzzer saves the
 * input (and replay's unit test fails). */
#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: invariant failed: %s\n", \
			__FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

/* The input as a string: a copy with a NUL after it, to free. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s != NULL);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
