#!/bin/sh
# scripts/bench_bmap.sh - dd bmap= against bmaptool copy on loop devices,
# in interleaved rounds (docs/bmap.md, "Measured").
#
# The image: an ext4 file system of BMAP_MIB MiB made with mkfs.ext4 -d
# from BMAP_DATA_MIB MiB of random files (16 MiB each, then 200 small
# ones), its map from bmaptool create.  Two loop devices over files in
# BENCH_DIR: bmaptool writes one, zerobox the other.  Each round runs
# every contender once, in an order rotated from round to round:
#
#   bmaptool       bmaptool copy --bmap MAP IMG DEV (it syncs at its end)
#   bmap           zerobox dd if=IMG of=DEV bmap=MAP conv=fsync
#   bmap bs=4M     the same with bs=4M
#   bmap verify    the same with conv=fsync,verify
#   unmapped=zero  the same with unmapped=zero: the whole image, the device
#                  zeroing the unmapped blocks
#   whole image    zerobox dd if=IMG of=DEV bs=4M conv=fsync (its holes
#                  zeroed by the device: FEATURE_DD_ZEROOUT)
#   GNU dd         GNU_DD if=IMG of=DEV bs=4M conv=fsync, the whole image
#                  written (GNU_DD empty: left out)
#
# After each round both devices must read as the image (their backing
# files start as holes, so the unmapped blocks read as zeros either way).
# Prints a markdown table on stdout: the range of wall times, the median,
# bmaptool's median divided by the row's (above 1: faster than bmaptool)
# and the row's median divided by bmap='s.
#
# Usage: sh scripts/bench_bmap.sh ZEROBOX   (make bench-bmap)
# Environment: BMAP_MIB (512), BMAP_DATA_MIB (150), BMAP_RUNS (5),
# BMAPTOOL (bmaptool), GNU_DD (/usr/bin/dd), BENCH_DIR (/var/tmp; a
# real disk, not tmpfs).
# Needs root, losetup, mkfs.ext4 and bmaptool.
set -eu
zb=$1
: "${BMAP_MIB:=512}" "${BMAP_DATA_MIB:=150}" "${BMAP_RUNS:=5}"
: "${BMAPTOOL:=bmaptool}" "${BENCH_DIR:=/var/tmp}" "${GNU_DD=/usr/bin/dd}"
[ "$(id -u)" = 0 ] || { echo "bench_bmap: needs root (loop devices)" >&2; exit 1; }
for t in losetup mkfs.ext4 "$BMAPTOOL"; do
	command -v "$t" >/dev/null || { echo "bench_bmap: $t is missing" >&2; exit 1; }
done
work=$(mktemp -d "$BENCH_DIR/zb-bmap.XXXXXX")
loops=
cleanup() {
	for dev in $loops; do losetup -d "$dev"; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
bench=bench_bmap
. "$(dirname "$0")/bench_timing.sh"

img=$work/img map=$work/img.bmap
mkdir "$work/tree"
i=0 left=$BMAP_DATA_MIB
while [ "$left" -gt 0 ]; do
	n=$((left < 16 ? left : 16))
	head -c $((n * 1048576)) /dev/urandom > "$work/tree/f$i"
	left=$((left - n)) i=$((i + 1))
done
i=0
while [ $i -lt 200 ]; do
	head -c $((i * 97 + 1)) /dev/urandom > "$work/tree/s$i"
	i=$((i + 1))
done
truncate -s ${BMAP_MIB}M "$img"
mkfs.ext4 -q -F -d "$work/tree" "$img" >/dev/null
rm -rf "$work/tree"
"$BMAPTOOL" create -o "$map" "$img" 2>/dev/null
mapped=$(sed -n 's/.*<MappedBlocksCount> *\([0-9]*\) *<.*/\1/p' "$map")
ranges=$(grep -c '<Range' "$map")
truncate -s ${BMAP_MIB}M "$work/a.img" "$work/b.img"
a=$(losetup -f --show "$work/a.img")
loops=$a
b=$(losetup -f --show "$work/b.img")
loops="$a $b"
echo "bench_bmap: $BMAP_MIB MiB image, $((mapped * 4096 / 1048576)) MiB mapped" \
	"in $ranges ranges; $BMAP_RUNS rounds" >&2

# run NAME: one run of the contender NAME, its wall time in seconds
# appended to $work/NAME.t.
run() {
	case $1 in
	bmaptool) set -- "$1" "$BMAPTOOL" -q copy --bmap "$map" "$img" "$b" ;;
	bmap) set -- "$1" "$zb" dd if="$img" of="$a" bmap="$map" conv=fsync ;;
	bmap4m) set -- "$1" "$zb" dd if="$img" of="$a" bmap="$map" bs=4M conv=fsync ;;
	verify) set -- "$1" "$zb" dd if="$img" of="$a" bmap="$map" conv=fsync,verify ;;
	zero) set -- "$1" "$zb" dd if="$img" of="$a" bmap="$map" unmapped=zero conv=fsync ;;
	whole) set -- "$1" "$zb" dd if="$img" of="$a" bs=4M conv=fsync ;;
	gnu) set -- "$1" "$GNU_DD" if="$img" of="$a" bs=4M conv=fsync ;;
	esac
	name=$1
	shift
	# What the runs before left dirty is not this run's to write.
	sync
	wall_time "$@" >> "$work/$name.t"
}

contenders="bmaptool bmap bmap4m verify zero whole${GNU_DD:+ gnu}"
equal=yes
r=0
while [ $r -lt "$BMAP_RUNS" ]; do
	# Rotate the order by one contender each round.
	set -- $contenders
	k=0
	while [ $k -lt $((r % $#)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for c in "$@"; do
		run "$c"
	done
	cmp -s "$a" "$img" && cmp -s "$b" "$img" || equal=no
	r=$((r + 1))
	echo "bench_bmap: round $r of $BMAP_RUNS" >&2
done

set -- $(stats "$work/bmaptool.t")
tool_median=$2
set -- $(stats "$work/bmap.t")
bmap_median=$2
echo "| command | wall s (min-max) | median s | bmaptool ÷ this | ÷ bmap= |"
echo "|---|---|---:|---:|---:|"
for c in $contenders; do
	case $c in
	bmaptool) what="\`bmaptool copy --bmap\`" ;;
	bmap) what="\`dd bmap= conv=fsync\`" ;;
	bmap4m) what="\`dd bmap= bs=4M conv=fsync\`" ;;
	verify) what="\`dd bmap= conv=fsync,verify\`" ;;
	zero) what="\`dd bmap= unmapped=zero conv=fsync\`" ;;
	whole) what="\`dd bs=4M conv=fsync\` (the whole image)" ;;
	gnu) what="GNU \`dd bs=4M conv=fsync\` (the whole image)" ;;
	esac
	set -- $(stats "$work/$c.t")
	echo "$what $1 $2 $tool_median $bmap_median" |
		awk '{ n = NF; printf "| %s", $1; for (i = 2; i <= n - 4; i++) printf " %s", $i;
		       printf " | %s | %s | %.2f | %.2f |\n", $(n - 3), $(n - 2),
		       $(n - 1) / $(n - 2), $(n - 2) / $n }'
done
echo
echo "Devices equal to the image after every round: $equal."
