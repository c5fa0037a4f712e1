#!/bin/sh
# scripts/bench_zeros.sh - zeros and holes into a block device: zerobox dd
# against GNU dd on two loop devices, in interleaved runs (docs/zeros.md).
#
#   1. a wipe: dd if=/dev/zero of=DEV bs=4M count=N conv=fsync
#   2. a sparse image (10% data in 1 MiB pieces, the rest holes):
#      dd if=IMG of=DEV bs=4M conv=fsync
#
# Each run starts from a device filled with 0xFF, and after each pair the
# two devices must compare equal (and, for the image, equal the image).
# Prints a markdown table on stdout: the range of wall times and the
# ratio of the medians.
#
# Usage: sh scripts/bench_zeros.sh ZEROBOX
# Environment: GNU_DD (/usr/bin/dd), ZB_MIB (1024), ZB_RUNS (3),
# BENCH_DIR (/var/tmp; a real disk, not tmpfs).  Needs root and losetup.
set -eu
zb=$1
: "${GNU_DD:=/usr/bin/dd}" "${ZB_MIB:=1024}" "${ZB_RUNS:=3}" "${BENCH_DIR:=/var/tmp}"
[ "$(id -u)" = 0 ] || { echo "bench_zeros: needs root (loop devices)" >&2; exit 1; }
work=$(mktemp -d "$BENCH_DIR/zb-zeros.XXXXXX")
a= b=
cleanup() {
	[ -z "$a" ] || losetup -d "$a"
	[ -z "$b" ] || losetup -d "$b"
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
bench=bench_zeros
. "$(dirname "$0")/bench_timing.sh"

truncate -s ${ZB_MIB}M "$work/a.img" "$work/b.img" "$work/sparse.img"
a=$(losetup -f --show "$work/a.img")
b=$(losetup -f --show "$work/b.img")
# 10% data: one random MiB in every ten.
i=0
while [ $i -lt "$ZB_MIB" ]; do
	head -c 1048576 /dev/urandom | "$GNU_DD" of="$work/sparse.img" bs=1M \
		seek=$i conv=notrunc status=none
	i=$((i + 10))
done

fill_ff() { tr '\000' '\377' < /dev/zero | head -c $((ZB_MIB * 1048576)) > "$1"; sync; }
echo "| job | zerobox s | GNU dd s | GNU ÷ zerobox (medians) | devices equal |"
echo "|---|---|---|---|---|"
for job in wipe sparse; do
	: > "$work/zb.t"; : > "$work/gnu.t"
	equal=yes
	r=0
	while [ $r -lt "$ZB_RUNS" ]; do
		case $job in
		wipe) src=/dev/zero; extra="count=$((ZB_MIB / 4))" ;;
		sparse) src=$work/sparse.img; extra= ;;
		esac
		fill_ff "$a"; fill_ff "$b"
		# Alternate which tool goes first.
		if [ $((r % 2)) = 0 ]; then
			wall_time "$zb" dd if="$src" of="$a" bs=4M $extra conv=fsync >> "$work/zb.t"
			wall_time "$GNU_DD" if="$src" of="$b" bs=4M $extra conv=fsync >> "$work/gnu.t"
		else
			wall_time "$GNU_DD" if="$src" of="$b" bs=4M $extra conv=fsync >> "$work/gnu.t"
			wall_time "$zb" dd if="$src" of="$a" bs=4M $extra conv=fsync >> "$work/zb.t"
		fi
		cmp -s "$a" "$b" || equal=no
		[ $job = wipe ] || cmp -s "$a" "$src" || equal=no
		r=$((r + 1))
	done
	set -- $(stats "$work/zb.t") $(stats "$work/gnu.t")
	ratio=$(echo "$2 $4" | awk '{ printf "%.0f", $2 / ($1 > 0.001 ? $1 : 0.001) }')
	case $job in
	wipe) what="\`if=/dev/zero bs=4M count=$((ZB_MIB / 4)) conv=fsync\`" ;;
	sparse) what="a ${ZB_MIB} MiB image, 10% data, \`bs=4M conv=fsync\`" ;;
	esac
	echo "| $what | $1 | $3 | $ratio | $equal |"
	[ $equal = yes ]
done
