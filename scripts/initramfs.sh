#!/bin/sh
# Boot test: an initramfs holding zerobox (with its applet links), a
# busybox sh and the virtio modules, booted in qemu-system-x86_64 with a
# 64 MiB virtio disk.  Its /init (testsuite/initramfs/init) flashes a
# random 16 MiB image to the disk with dd and reads it back with dd, cat,
# head and cmp.  Here the PASS/FAIL lines are checked, then the disk
# image itself.
#
# Usage: initramfs.sh ZEROBOX WORKDIR
# Environment: KERNEL (default: the newest /boot/vmlinuz-*), BUSYBOX
# (/bin/busybox, from Debian's busybox-static), QEMU
# (qemu-system-x86_64), TIMEOUT (seconds, 300), ACCEL (tcg; kvm to try it).
# Needs: apt-get install --no-install-recommends busybox-static
#        qemu-system-x86 linux-image-amd64 cpio binutils kmod
# The initramfs has no C library: the shell and zerobox must both be
# static, which is checked before booting (readelf from binutils).
set -eu
. "$(dirname "$0")/guest.sh"
: "${TIMEOUT:=300}"
guest_check_host check-initramfs readelf:binutils modprobe:kmod
# A dynamic program has an interpreter (PT_INTERP) that the initramfs
# lacks: the kernel would say only "Failed to execute /init".
for prog in "$BUSYBOX" "$zb"; do
	if LC_ALL=C readelf -l "$prog" 2>/dev/null | grep -q 'INTERP'; then
		echo "check-initramfs: $prog is dynamically linked; the initramfs" \
			"needs static programs (busybox-static; zerobox with STATIC=1)" >&2
		exit 1
	fi
done
rm -rf "$work"
root=$work/root
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
	"$root/lib/modules"
cp "$zb" "$root/bin/zerobox"
for a in $("$zb" --list); do ln -s zerobox "$root/bin/$a"; done
cp "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp "$src/testsuite/initramfs/init" "$root/init"
chmod 755 "$root/init"

guest_modules "$root" "$kver" virtio_pci virtio_blk

head -c 16777216 /dev/urandom > "$root/image.bin"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$work/initramfs.cpio"
truncate -s 64M "$work/disk.img"

guest_disk "$work/disk.img" disk
start=$(date +%s)
status=0
guest_boot 256 "$TIMEOUT" "$work/initramfs.cpio" "$work/console" || status=1
grep -E '^(PASS|FAIL|ZB-)' "$work/console.txt" || true
grep -q '^FAIL' "$work/console.txt" && status=1
# From outside: both copies on the disk, and zeros after them.
if cmp -n 16777216 "$work/disk.img" "$root/image.bin" &&
   cmp -n 16777216 -i 16777216:0 "$work/disk.img" "$root/image.bin" &&
   cmp -i 33554432 "$work/disk.img" /dev/zero 2>&1 | grep -q 'EOF on'; then
	echo "PASS: disk image checked from the host"
else
	echo "FAIL: disk image checked from the host"
	status=1
fi
passes=$(grep -c '^PASS' "$work/console.txt" || true)
steps=$(grep -c '^step ' "$src/testsuite/initramfs/init")
if [ "$passes" != "$steps" ]; then
	echo "FAIL: $passes of $steps steps passed inside"
	status=1
fi
echo "check-initramfs: $passes/$steps passed inside, $(( $(date +%s) - start )) s (${ACCEL:-tcg}), $([ $status = 0 ] && echo OK || echo FAILED)"
exit $status
