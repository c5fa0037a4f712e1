#!/bin/sh
# cross.sh [--sizes-only] - build zerobox for other architectures and run
# the test suite on each under qemu-user.
#
# Environment (make check-cross passes them):
#   ARCHS   architectures, default "armhf aarch64 riscv64 mipsel mips"
#   TESTS   testsuite names to run (default: all), e.g. "dd dd_conv unit"
#   MAKE    make to use
#   CROSS_O build directory prefix (default build-cross): ARCH goes to
#           $CROSS_O/ARCH, with config/defconfig
#
# Each ARCH needs gcc-TRIPLE (Debian: gcc-arm-linux-gnueabihf, ...) and
# qemu-user-static.  The cross gcc links glibc statically (no musl-gcc for
# the target): a check of the code, not of the shipped size.  Prints one
# line per architecture: PASS/FAIL/SKIP, the suite's summary, the stripped
# size and the time taken; exits non-zero if any architecture failed.
set -u
sizes_only=0
[ "${1:-}" = --sizes-only ] && sizes_only=1
: "${ARCHS:=armhf aarch64 riscv64 mipsel mips}"
: "${MAKE:=make}"
: "${CROSS_O:=build-cross}"
TESTS=${TESTS:-}

triple() {
	case $1 in
	armhf)   echo arm-linux-gnueabihf ;;
	armel)   echo arm-linux-gnueabi ;;
	aarch64|arm64) echo aarch64-linux-gnu ;;
	riscv64) echo riscv64-linux-gnu ;;
	mipsel)  echo mipsel-linux-gnu ;;
	mips)    echo mips-linux-gnu ;;
	mips64el) echo mips64el-linux-gnuabi64 ;;
	ppc64el) echo powerpc64le-linux-gnu ;;
	s390x)   echo s390x-linux-gnu ;;
	i386)    echo i686-linux-gnu ;;
	*)       return 1 ;;
	esac
}

qemu() {
	case $1 in
	armhf|armel) echo qemu-arm-static ;;
	aarch64|arm64) echo qemu-aarch64-static ;;
	ppc64el) echo qemu-ppc64le-static ;;
	*)       echo "qemu-$1-static" ;;
	esac
}

failed=0
summary=
for arch in $ARCHS; do
	start=$(date +%s)
	t=$(triple "$arch") || { echo "cross: unknown architecture $arch" >&2; failed=1; continue; }
	emu=$(qemu "$arch")
	o=$CROSS_O/$arch
	if ! command -v "$t-gcc" >/dev/null 2>&1; then
		line="SKIP $arch (no $t-gcc)"
		echo "cross: $line"; summary="$summary$line
"
		continue
	fi
	echo "cross: building $arch ($t-gcc)"
	if [ ! -f "$o/.config" ]; then
		$MAKE -s O="$o" defconfig || { failed=1; continue; }
	fi
	if ! $MAKE -s -j"$(nproc 2>/dev/null || echo 2)" O="$o" CROSS_COMPILE="$t-" all unit; then
		line="FAIL $arch (build)"
		echo "cross: $line"; summary="$summary$line
"
		failed=1
		continue
	fi
	"$t-strip" -o "$o/zerobox.stripped" "$o/zerobox"
	size=$(stat -c %s "$o/zerobox.stripped")
	result="built"
	status=PASS
	if [ $sizes_only = 0 ]; then
		if ! command -v "$emu" >/dev/null 2>&1; then
			status=SKIP result="no $emu"
		else
			echo "cross: testing $arch under $emu${TESTS:+ ($TESTS)}"
			$MAKE O="$o" CROSS_COMPILE="$t-" EMU="$emu" TESTS="$TESTS" \
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
	line="$status $arch: $result; stripped $size bytes (static glibc); $(($(date +%s) - start)) s"
	echo "cross: $line"
	summary="$summary$line
"
done
printf '%s' "$summary"
exit $failed
