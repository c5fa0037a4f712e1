#!/bin/sh
# Board test: a small board flashing an image to a slow card, under
# qemu-system-x86_64 with Debian's kernel.  The guest has MEM MiB of RAM
# (the rest of BOOT_MIB held as huge pages) and no swap, a fast source
# disk holding a random image, and one target disk per write run,
# throttled like an SD card (qemu's throttling.bps-*).
# Its /init (testsuite/board/init) runs zerobox dd, the static BusyBox dd
# and GNU dd (packed with the libraries ldd names) in each scenario under
# a sampler (testsuite/board/sampler.c); this script checks every target
# from outside after poweroff and prints markdown tables
# (testsuite/board/report.awk) on stdout, progress on stderr.
#
# Usage: board.sh ZEROBOX WORKDIR
# Environment (defaults in brackets):
#   MEMS       board RAM sizes in MiB, one boot each ["64 48"]
#   BOOT_MIB   the guest's RAM; the init takes all but MEMS away as huge
#              pages (Debian's kernel does not boot in 64 MiB) [256]
#   IMAGE_MIB  image size [256]
#   ROUNDS     boots per RAM size, interleaved; cells are medians [1]
#   RATE       target write limit, bytes/s [8 MiB/s]
#   READ_RATE  target read limit, bytes/s [16 MiB/s]
#   CONTENDERS ["zerobox busybox gnu"]
#   WRITES     ["plain fsync nocache direct pipe nocache-1G"; also
#              pipe-nocache, verify (conv=verify: zerobox only), and
#              bmap, bmap-nocache, bmap-xz (below)]
#   READS      ["read-1G read-direct"]
#   KERNEL (newest /boot/vmlinuz-*), BUSYBOX (/bin/busybox), GNU_DD
#   (/bin/dd), QEMU (qemu-system-x86_64), ACCEL (tcg), CC (cc)
# The exit status is 0 when every run of zerobox exited 0 with the image
# intact and, on boards of 64 MiB or less, zerobox met issue 16's targets
# (listed under each table); the other columns are measurements.
#
# bmap, bmap-nocache: a sparse ext4 image of IMAGE_MIB (mkfs.ext4 -d
# from random files of 15% of its size and 200 small ones; its own fast
# disk) and its map from bmaptool create, written with zerobox dd bmap=
# conv=fsync in bmap='s own records, as docs/bmap.md advises (bmap-nocache:
# oflag=nocache too).  The contender
# bmaptool runs bmaptool copy (which syncs at its end): the host's
# python3 and bmaptool, read-only over 9p (qemu -virtfs of /), under
# chroot.  busybox and gnu write the whole image with conv=fsync; in
# other scenarios bmaptool has no run.  These runs get their own table:
# sectors written, wall time, peak RSS (the sampler's wait4); the host
# compares each target's mapped ranges with the image.  The exit status
# is also 1 when a mapped range differs on a target of zerobox's, or
# of a bmaptool run that exited 0 (one that did not, as when the
# guest's OOM killer ends it, is listed and left out of the
# comparisons), when zerobox wrote more sectors than bmaptool, or when
# zerobox's peak RSS passed 2 MiB.  Issue 24's run:
#   make check-board MEMS=64 WRITES="bmap bmap-nocache" READS= \
#       CONTENDERS="zerobox bmaptool gnu" ROUNDS=3   (docs/bmap.md)
#
# bmap-xz (zerobox and bmaptool only): the same image compressed on the
# host with xz -T1 at its default preset (LZMA2, 8 MiB dictionary), on
# its own fast disk, raw, zero-padded to a whole sector (xz's stream
# padding).  zerobox writes it as one pipeline, `zerobox xzcat DISK |
# zerobox dd of=CARD bmap=os.bmap conv=verify status=progress`, which
# the sampler starts itself (no sh) to sum both processes' wait4 peak
# RSS; bmaptool runs `bmaptool copy --bmap os.bmap os.img.xz CARD`,
# where os.img.xz is a link to the disk in the chroot's /tmp, and pipes
# it through the host's xz -d (over 9p).  The table's "sampled group
# RSS" sums, every 100 ms, the RSS of the run's process group: both
# pipeline commands, or bmaptool with its sh and xz.  The exit status is
# also 1 when zerobox's median wall time over the rounds passes
# bmaptool's (over its finished rounds) by more than XZ_SLACK percent
# [10], or the pipeline's summed peak RSS passes XZ_RSS_MIB [the
# dictionary + 2].  Issue 40's run:
#   make check-board MEMS=64 IMAGE_MIB=64 CONTENDERS="zerobox bmaptool" \
#       WRITES="bmap bmap-xz" READS= ROUNDS=3   (docs/bmap.md)
# Needs: apt-get install qemu-system-x86 linux-image-amd64 busybox-static
#        cpio kmod gcc coreutils libc-bin; for bmap, e2fsprogs bmap-tools;
#        for bmap-xz, xz-utils
set -eu
. "$(dirname "$0")/guest.sh"
: "${MEMS:=64 48}" "${BOOT_MIB:=256}" "${IMAGE_MIB:=256}" "${ROUNDS:=1}"
: "${RATE:=8388608}" "${READ_RATE:=16777216}"
: "${CONTENDERS=zerobox busybox gnu}"
: "${WRITES=plain fsync nocache direct pipe nocache-1G}"
: "${READS=read-1G read-direct}"
: "${GNU_DD:=/bin/dd}" "${CC:=cc}" "${XZ_SLACK:=10}" "${XZ_RSS_MIB:=}"
case " $WRITES " in
*" bmap"*) bmap=1 ;;
*) bmap= ;;
esac
case " $WRITES " in
*" bmap-xz "*) bmap_xz=1 ;;
*) bmap_xz= ;;
esac
case " $CONTENDERS " in
*" bmaptool "*) share=1 ;;
*) share= ;;
esac
guest_check_host check-board "$GNU_DD:coreutils" modprobe:kmod ldd:libc-bin "$CC:gcc" \
	${bmap:+mkfs.ext4:e2fsprogs bmaptool:bmap-tools} ${share:+python3:python3} \
	${bmap_xz:+xz:xz-utils}
say() { echo "board: $*" >&2; }

rm -rf "$work"
root=$work/root
mkdir -p "$root/bin" "$root/gnu" "$root/proc" "$root/sys" "$root/dev" \
	"$root/tmp" "$root/lib/modules"
cp "$zb" "$root/bin/zerobox"
cp "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
"$CC" -O2 -Wall -Wextra -static -o "$root/bin/sampler" \
	"$src/testsuite/board/sampler.c"
cp "$src/testsuite/board/init" "$root/init"
cp "$src/testsuite/board/guest.sh" "$root/guest.sh"
chmod 755 "$root/init"
head -c 4096 /dev/urandom > "$root/canary"
# GNU dd with the shared libraries ldd names, at the same paths.
guest_program "$root" "$GNU_DD" /gnu/dd
# The virtio disk drivers; 9p for the host's / (bmaptool).
guest_modules "$root" "$kver" virtio_pci virtio_blk ${share:+9pnet_virtio 9p}

image=$work/image.bin
head -c $((IMAGE_MIB * 1048576)) /dev/urandom > "$image"
if [ -n "$bmap" ]; then
	# An OS-like sparse image: ext4 with some big files and many small.
	mkdir -p "$work/tree/big" "$work/tree/small" "$root/host"
	for i in 1 2 3; do
		head -c $((IMAGE_MIB * 1048576 / 20)) /dev/urandom > "$work/tree/big/$i"
	done
	for i in $(seq 200); do
		head -c $((i * 97)) /dev/urandom > "$work/tree/small/$i"
	done
	truncate -s "${IMAGE_MIB}M" "$work/os.img"
	mkfs.ext4 -q -F -d "$work/tree" "$work/os.img"
	bmaptool -q create -o "$work/os.bmap" "$work/os.img"
	cp "$work/os.bmap" "$root/os.bmap"
	# The map's ranges, as "FIRST LAST" block numbers, for the check.
	block_size=$(sed -n 's|.*<BlockSize> *\([0-9]*\) *</BlockSize>.*|\1|p' "$work/os.bmap")
	sed -n 's|.*<Range[^>]*> *\([0-9-]*\) *</Range>.*|\1|p' "$work/os.bmap" |
		awk -F- '{ print $1, ($2 == "" ? $1 : $2) }' > "$work/os.ranges"
	say "bmap image: $(grep -o '<MappedBlocksCount> *[0-9]*' "$work/os.bmap" | tr -dc 0-9) of $((IMAGE_MIB * 1048576 / block_size)) blocks of $block_size bytes mapped, $(wc -l < "$work/os.ranges") ranges"
fi
xz_note=
if [ -n "$bmap_xz" ]; then
	# The image as shipped: xz's default preset, one thread.  The guest's
	# disk holds it zero-padded to a whole sector, which is xz's stream
	# padding (a multiple of 4 bytes), so both tools read a valid .xz.
	xz -T1 -c "$work/os.img" > "$work/os.img.xz"
	cp "$work/os.img.xz" "$work/xz.img"
	truncate -s %512 "$work/xz.img"
	xz_dict=$(xz -lvv "$work/os.img.xz" | grep -o 'dict=[0-9]*MiB' | sort -u)
	# The pipeline's bound: xzcat's dictionary, plus 2 MiB for dd's
	# records and both processes' own pages.
	[ -n "$XZ_RSS_MIB" ] || XZ_RSS_MIB=$(( $(echo "$xz_dict" | tr -dc 0-9) + 2 ))
	xz_note="the image as os.img.xz, xz -T1 (preset 6, LZMA2 $xz_dict), $(wc -c < "$work/os.img.xz") bytes"
	say "bmap-xz: $xz_note"
fi
nwrites=0
for s in $WRITES; do for c in $CONTENDERS; do nwrites=$((nwrites + 1)); done; done
# The write runs' target disks, by serial: t01, t02, ...
targets=$(seq -f t%02g "$nwrites")
nreads=0
for s in $READS; do for c in $CONTENDERS; do nreads=$((nreads + 1)); done; done
# Generous: every run at half the throttle, plus boot.
timeout=$(( (nwrites * IMAGE_MIB * 1048576 / RATE + nreads * IMAGE_MIB * 1048576 / READ_RATE) * 2 + 300 ))
throttle="throttling.bps-write=$RATE,throttling.bps-read=$READ_RATE"
status=0
inputs=

# boot MEM ROUND: one guest, all runs; appends its verdicts and logs to
# the report's inputs.
boot() {
	mem=$1
	tag=$mem-$2
	say "guest with $mem MiB, round $2: $nwrites write runs, $nreads read runs of $IMAGE_MIB MiB, timeout $timeout s"
	printf 'MEM_MIB=%s\nCONTENDERS="%s"\nWRITES="%s"\nREADS="%s"\nSHARE=%s\n' \
		"$mem" "$CONTENDERS" "$WRITES" "$READS" "$share" > "$root/board.conf"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$work/initramfs.cpio"
	truncate -s 256M "$work/res.img"
	truncate -s "${IMAGE_MIB}M" "$work/scr.img"
	cp "$image" "$work/rd.img"
	disk_args=
	guest_disk "$image" src readonly=on
	guest_disk "$work/res.img" res
	guest_disk "$work/scr.img" scr
	guest_disk "$work/rd.img" rd "readonly=on,$throttle"
	[ -z "$bmap" ] || guest_disk "$work/os.img" os readonly=on
	[ -z "$bmap_xz" ] || guest_disk "$work/xz.img" xz readonly=on
	# The host's / for bmaptool (one export: remap the file ids of the
	# file systems under it).
	[ -z "$share" ] ||
		disk_args="$disk_args -virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
	for t in $targets; do
		truncate -s "${IMAGE_MIB}M" "$work/$t.img"
		guest_disk "$work/$t.img" $t "$throttle"
	done
	start=$(date +%s)
	guest_boot "$BOOT_MIB" "$timeout" "$work/initramfs.cpio" "$work/console-$tag" >&2 ||
		status=1
	say "guest with $mem MiB, round $2: done after $(( $(date +%s) - start )) s"
	# Each run's log from its slot; then each target against the image.
	: > "$work/logs-$tag"
	slots=$(grep -c '^ZB-RUN' "$work/console-$tag.txt" || true)
	i=0
	while [ $i -lt "$slots" ]; do
		dd if="$work/res.img" bs=4M skip=$i count=1 status=none | tr -d '\000' >> "$work/logs-$tag"
		i=$((i + 1))
	done
	: > "$work/verdicts-$tag"
	n=0
	for s in $WRITES; do for c in $CONTENDERS; do
		n=$((n + 1))
		t=$(printf t%02d $n)
		case $s in
		bmap*) if mapped_equal "$work/$t.img"; then v=ok; else v=bad; fi ;;
		*) if cmp -s "$work/$t.img" "$image"; then v=ok; else v=bad; fi ;;
		esac
		echo "V $mem $n $v" >> "$work/verdicts-$tag"
	done; done
	rm -f "$work"/t*.img "$work/scr.img" "$work/rd.img" "$work/res.img"
	inputs="$inputs $work/verdicts-$tag $work/logs-$tag"
}

# mapped_equal TARGET: whether each range of the map holds on TARGET
# what it holds in the bmap image.
mapped_equal() {
	while read -r first last; do
		cmp -s -i $((first * block_size)) -n $(((last - first + 1) * block_size)) \
			"$work/os.img" "$1" || return 1
	done < "$work/os.ranges"
}

round=0
while [ $round -lt "$ROUNDS" ]; do
	round=$((round + 1))
	for mem in $MEMS; do
		boot "$mem" $round
	done
done

awk -v image_mib="$IMAGE_MIB" -v rate="$RATE" -v read_rate="$READ_RATE" \
	-v xz_slack="$XZ_SLACK" -v xz_rss_mib="$XZ_RSS_MIB" -v xz_note="$xz_note" \
	-f "$src/testsuite/board/report.awk" $inputs > "$work/report.md"
cat "$work/report.md"
grep -q 'FAIL:' "$work/report.md" && status=1
say "$( [ $status = 0 ] && echo OK || echo FAILED); logs in $work"
exit $status
