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
#        qemu-system-x86 linux-image-amd64 cpio binutils
# The initramfs has no C library: the shell and zerobox must both be
# static, which is checked before booting (readelf from binutils).
set -eu

zb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
src=$(cd "$(dirname "$0")/.." && pwd)
: "${BUSYBOX:=/bin/busybox}" "${QEMU:=qemu-system-x86_64}" "${TIMEOUT:=300}"
if [ -z "${KERNEL:-}" ]; then
	KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
fi
packages="busybox-static qemu-system-x86 linux-image-amd64 cpio binutils"
missing=
[ -r "${KERNEL:-/nonexistent}" ] || missing="$missing linux-image-amd64"
[ -x "$BUSYBOX" ] || missing="$missing busybox-static"
command -v "$QEMU" >/dev/null || missing="$missing qemu-system-x86"
command -v cpio >/dev/null || missing="$missing cpio"
command -v readelf >/dev/null || missing="$missing binutils"
if [ -n "$missing" ]; then
	echo "check-initramfs: missing:$missing" >&2
	echo "check-initramfs: it needs: apt-get install --no-install-recommends $packages" >&2
	exit 1
fi
# A dynamic program has an interpreter (PT_INTERP) that the initramfs
# lacks: the kernel would say only "Failed to execute /init".
for prog in "$BUSYBOX" "$zb"; do
	if LC_ALL=C readelf -l "$prog" 2>/dev/null | grep -q 'INTERP'; then
		echo "check-initramfs: $prog is dynamically linked; the initramfs" \
			"needs static programs (busybox-static; zerobox with STATIC=1)" >&2
		exit 1
	fi
done
kver=${KERNEL##*/vmlinuz-}
moddir=/lib/modules/$kver

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

# virtio_pci and virtio_blk with what they depend on, dependencies first
# (modules.dep lists them); built-in ones need nothing.
: > "$root/modules.order"
# sh has no local variables: the recursion clobbers line, path and base,
# so they are looked up again after it.
mod_line() { grep -E "(^|/)$1\.ko[^:]*:" "$moddir/modules.dep" || true; }
add_module() {	# NAME
	line=$(mod_line "$1")
	[ -n "$line" ] || return 0
	path=${line%%:*}
	base=${path##*/}
	grep -qx "${base%.ko*}.ko" "$root/modules.order" && return 0
	for dep in ${line#*:}; do
		d=${dep##*/}
		add_module "${d%%.ko*}"
	done
	line=$(mod_line "$1")
	path=${line%%:*}
	base=${path##*/}
	case $base in
	*.ko) cp "$moddir/$path" "$root/lib/modules/" ;;
	*.ko.xz) xz -dc "$moddir/$path" > "$root/lib/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -qdc "$moddir/$path" > "$root/lib/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko.gz) gzip -dc "$moddir/$path" > "$root/lib/modules/${base%.gz}"; base=${base%.gz} ;;
	esac
	grep -qx "$base" "$root/modules.order" ||
		echo "$base" >> "$root/modules.order"
}
add_module virtio_pci
add_module virtio_blk

head -c 16777216 /dev/urandom > "$root/image.bin"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$work/initramfs.cpio"
truncate -s 64M "$work/disk.img"

# TCG unless ACCEL= says otherwise: under nested virtualization (this
# project's VMs) /dev/kvm can exist and yet hang the guest at boot.
accel=${ACCEL:-tcg}
start=$(date +%s)
set +e
timeout "$TIMEOUT" "$QEMU" -accel "$accel" -m 256 -smp 1 -nographic \
	-no-reboot -kernel "$KERNEL" -initrd "$work/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 quiet" \
	-drive "file=$work/disk.img,format=raw,if=virtio" \
	< /dev/null > "$work/console.log" 2>&1
rc=$?
set -e
tr -d '\r' < "$work/console.log" > "$work/console.txt"
grep -E '^(PASS|FAIL|ZB-)' "$work/console.txt" || true
status=0
if [ $rc = 124 ]; then
	echo "FAIL: boot test timed out after $TIMEOUT s"
	status=1
fi
if ! grep -q '^ZB-DONE' "$work/console.txt"; then
	echo "FAIL: the init script did not finish; console:"
	tail -n 30 "$work/console.txt"
	status=1
fi
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
echo "check-initramfs: $passes/$steps passed inside, $(( $(date +%s) - start )) s ($accel), $([ $status = 0 ] && echo OK || echo FAILED)"
exit $status
