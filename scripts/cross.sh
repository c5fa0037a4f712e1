#!/bin/sh
# cross.sh [--sizes-only] - build the static musl zerobox for other
# architectures (make CROSS=ARCH) and run the test suite on each under
# qemu-user.
#
# Environment (make check-cross passes them):
#   ARCHS   Debian architecture names (scripts/toolchain.sh archs), default
#           "armhf arm64 s390x i386"
#   TESTS   testsuite names to run (default: all), e.g. "dd dd_conv unit"
#   MAKE    make to use
#   CROSS_O build directory prefix (default build-cross): ARCH goes to
#           $CROSS_O/ARCH, with config/defconfig
#
# Each ARCH needs Debian's multiarch musl and kernel headers (make
# CROSS=ARCH says which packages when they are missing) and
# qemu-user-static.  Prints one line per architecture: PASS/FAIL/SKIP, the
# suite's summary, the toolchain line, the stripped size and the time
# taken; exits non-zero if any architecture failed or could not be built.
set -u
sizes_only=0
[ "${1:-}" = --sizes-only ] && sizes_only=1
: "${ARCHS:=armhf arm64 s390x i386}"
: "${MAKE:=make}"
: "${CROSS_O:=build-cross}"
TESTS=${TESTS:-}
here=$(dirname "$0")

failed=0
summary=
note() { echo "cross: $1"; summary="$summary$1
"; }
for arch in $ARCHS; do
	start=$(date +%s)
	set -- $(sh "$here/toolchain.sh" triplets "$arch") || true
	if [ $# != 3 ]; then
		note "FAIL $arch (unknown architecture)"
		failed=1
		continue
	fi
	gnu=$1 emu=$3
	o=$CROSS_O/$arch
	echo "cross: building $arch"
	if [ ! -f "$o/.config" ]; then
		$MAKE -s O="$o" defconfig || { failed=1; continue; }
	fi
	if ! $MAKE -s -j2 O="$o" CROSS="$arch" all unit; then
		note "FAIL $arch (build)"
		failed=1
		continue
	fi
	"$gnu-strip" -o "$o/zerobox.stripped" "$o/zerobox"
	size=$(wc -c < "$o/zerobox.stripped" | tr -d ' ')
	result="built"
	status=PASS
	if [ $sizes_only = 0 ]; then
		if ! command -v "$emu" >/dev/null 2>&1; then
			status=FAIL result="no $emu (apt-get install qemu-user-static)"
			failed=1
		else
			echo "cross: testing $arch under $emu${TESTS:+ ($TESTS)}"
			$MAKE O="$o" CROSS="$arch" EMU="$emu" TESTS="$TESTS" \
				check > "$o/check.log" 2>&1
			rc=$?
			grep -E '^FAIL' "$o/check.log"
			result=$(grep -E '^[0-9]+ passed, ' "$o/check.log" | tail -n 1)
			[ -n "$result" ] || result=$(tail -n 1 "$o/check.log")
			if [ $rc != 0 ]; then
				status=FAIL
				failed=1
			fi
		fi
	fi
	note "$status $arch: $result; stripped $size bytes ($(cat "$o/toolchain")); $(($(date +%s) - start)) s"
done
printf '%s' "$summary"
exit $failed
