#!/bin/sh
# Rescue from real block devices: zerobox ddrescue and GNU ddrescue in a
# qemu guest with Debian's kernel, reading device-mapper tables over
# virtio disks of 512- and 4096-byte sectors, with O_DIRECT (-d): error
# segments (scattered sectors, a 1 MiB run, the disk's end), a slow
# segment (delay) and a weak one (flakey: up 1 s, down 3 s, repeating);
# with every pass reversed (-R), and with 512-byte sectors on the
# 4096-byte disk (-d fails with EINVAL at the first sector read).
# The guest's /init is testsuite/board/rescue-init; this script checks
# every output from outside after poweroff:
#   - each output holds the image where the table reads, and zeros (what
#     it held before) where it fails;
#   - the two tools' mapfiles are equal (ddrescuelog -p);
#   - the weak area is bad after a pass without retries, and whole after
#     retries;
#   - the EINVAL runs exit 1, their mapfiles equal.
# It prints a markdown table (docs/ddrescue.md carries one) and exits 0
# when every check passed.
#
# Usage: rescue_vm.sh ZEROBOX WORKDIR
# Needs: apt-get install qemu-system-x86 linux-image-amd64 busybox-static
#        cpio kmod dmsetup gddrescue libc-bin
set -eu
. "$(dirname "$0")/guest.sh"
: "${DDRESCUE:=/usr/bin/ddrescue}" "${DMSETUP:=/usr/sbin/dmsetup}"
guest_check_host check-rescue-vm "$DDRESCUE:gddrescue" ddrescuelog:gddrescue \
	"$DMSETUP:dmsetup" modprobe:kmod ldd:libc-bin
say() { echo "rescue-vm: $*" >&2; }

rm -rf "$work"
root=$work/root
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp "$zb" "$root/bin/zerobox"
cp "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$src/testsuite/board/rescue-init" "$root/init"
cp "$src/testsuite/board/guest.sh" "$root/guest.sh"
chmod 755 "$root/init"
guest_program "$root" "$DDRESCUE" /gnu/ddrescue
guest_program "$root" "$DMSETUP" /gnu/dmsetup
guest_modules "$root" "$kver" virtio_pci virtio_blk dm_mod dm_delay dm_flakey

# The image, 32 MiB; the segments, in 512-byte sectors, each a whole
# number of 4096-byte sectors: eight scattered bad sectors, a 1 MiB run,
# a slow MiB (5 ms a read), a bad end of disk.
image=$work/image.bin
head -c 33554432 /dev/urandom > "$image"
cat > "$root/segments" <<'SEGMENTS'
error 4096 8
error 9000 8
error 15000 8
error 20480 8
error 25000 8
error 30000 8
error 33336 8
error 40000 8
error 45056 2048
delay 51200 2048 5
error 65280 256
SEGMENTS
# 32 KiB, 15 MiB in: from the table's making, up for 1 s, then down
# for 3 s, over and over.
echo "flakey 30720 64 1 3" > "$root/weak.segments"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$work/initramfs.cpio"

guest_disk "$image" s512 readonly=on
guest_disk "$image" s4k readonly=on logical_block_size=4096,physical_block_size=4096
outs="out512zerobox out4kzerobox out512gnu out4kgnu weakzerobox weakgnu outRzerobox outRgnu
outuzerobox outugnu"
for o in $outs; do
	truncate -s 32M "$work/$o.img"
	guest_disk "$work/$o.img" "$o"
done
say "booting; 12 rescues of a 32 MiB disk"
status=0
fail() { echo "FAIL: $*"; status=1; }
guest_boot 256 900 "$work/initramfs.cpio" "$work/console" || status=1
# Each run's mapfile, from the console.
awk -v dir="$work" '/^ZB-MAP / { out = dir "/map." $2; printf "" > out; next }
	/^ZB-END/ { close(out); out = ""; next }
	out != "" { print >> out }' "$work/console.txt"

# The image as a rescue leaves it: zeros where the table fails.
cp "$image" "$work/expected.img"
awk '$1 == "error" { print $2, $3 }' "$root/segments" | while read -r at n; do
	dd if=/dev/zero of="$work/expected.img" bs=512 seek="$at" count="$n" \
		conv=notrunc status=none
done
# The weak area, as the image holds it.
dd if="$image" of="$work/weak.expected" bs=1M skip=14 count=2 status=none

run_field() {	# NAME FIELD: rc or cs of the run NAME
	sed -n "s/^ZB-RUN $1 .*$2=\\([0-9]*\\).*/\\1/p" "$work/console.txt"
}
# row TOOL RUN OUTPUT RC WHAT: run RUN of TOOL checked (its output
# against the expected image, unless OUTPUT is -; the two tools'
# mapfiles; its exit status RC) and its row printed.
row() {
	name=$1-$2
	out=EINVAL
	if [ "$3" != - ]; then
		if cmp -s "$work/$3" "$work/expected.img"; then out="as expected"; else out=differs; fail "$name: output"; fi
	fi
	if ddrescuelog -p "$work/map.zerobox-$2" "$work/map.gnu-$2" >/dev/null 2>&1; then
		m="equal"; else m="differ"; fail "$name: mapfiles"; fi
	[ "$(run_field "$name" rc)" = "$4" ] || fail "$name: exit $(run_field "$name" rc), not $4"
	echo "| $name ($5) | $(run_field "$name" rc) | $(run_field "$name" cs)0 ms | $out | $m |"
}
echo "| run | exit | time | output | mapfile |"
echo "|---|---:|---:|---|---|"
for tool in zerobox gnu; do
	row $tool 512 "out512$tool.img" 0 "512 sectors"
	row $tool 4k "out4k$tool.img" 0 "4k sectors"
	row $tool 512R "outR$tool.img" 0 "-R, 512 sectors"
	row $tool 4k512 - 1 "-b 512 on 4096 sectors"
done
for tool in zerobox gnu; do
	name=$tool-weak
	# After the pass without retries, the weak area is not all finished.
	if grep -v '^#' "$work/map.$name-first" | awk 'NR > 1 && $3 != "+" { bad = 1 } END { exit !bad }'; then
		first="left bad"; else first="all read"; fail "$name: the pass while down read it all"; fi
	dd if="$work/weak$tool.img" bs=1M skip=14 count=2 status=none > "$work/weak.$tool"
	if cmp -s "$work/weak.$tool" "$work/weak.expected"; then out=whole; else out=differs; fail "$name: output"; fi
	[ "$(run_field $name rc)" = 0 ] || fail "$name: exit $(run_field $name rc)"
	echo "| $name (-r0, then -r -1) | $(run_field $name rc) | $(run_field $name cs)0 ms | first pass: $first; then $out | |"
done
say "$( [ $status = 0 ] && echo OK || echo FAILED); logs in $work"
exit $status
