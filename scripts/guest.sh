# guest.sh - sourced by the qemu guest tests (initramfs.sh, board.sh,
# rescue_vm.sh): the host's tools, what goes into a guest's initramfs,
# its disks and its boot.  Each of them is called as SCRIPT ZEROBOX
# WORKDIR: zb is ZEROBOX's absolute path, work WORKDIR, src the tree.

zb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
src=$(cd "$(dirname "$0")/.." && pwd)

: "${BUSYBOX:=/bin/busybox}" "${QEMU:=qemu-system-x86_64}"
if [ -z "${KERNEL:-}" ]; then
	KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
fi
kver=${KERNEL##*/vmlinuz-}
disk_args=

# guest_check_host NAME [PROGRAM:PACKAGE...]: exit 1, with the apt-get
# line, unless the kernel, a static busybox, qemu, cpio and each PROGRAM
# (a path, or a command looked up in PATH) are here.
guest_check_host() {
	_name=$1
	shift
	_missing=
	[ -r "${KERNEL:-/nonexistent}" ] || _missing=" linux-image-amd64"
	[ -x "$BUSYBOX" ] || _missing="$_missing busybox-static"
	for _pair in "$QEMU:qemu-system-x86" cpio:cpio "$@"; do
		_prog=${_pair%:*} _package=${_pair##*:}
		case $_prog in
		/*) [ -x "$_prog" ] ;;
		*) command -v "$_prog" >/dev/null ;;
		esac && continue
		case "$_missing " in
		*" $_package "*) ;;
		*) _missing="$_missing $_package" ;;
		esac
	done
	if [ -n "$_missing" ]; then
		echo "$_name: missing; run: apt-get install --no-install-recommends$_missing" >&2
		exit 1
	fi
}

# guest_program ROOT PROGRAM DEST: PROGRAM at ROOT/DEST, with the shared
# libraries ldd names at their own paths (a dynamic program runs in the
# guest as it does here).
guest_program() {
	mkdir -p "$1${3%/*}"
	cp "$2" "$1$3"
	for lib in $(ldd "$2" | grep -o '/[^ ]*'); do
		mkdir -p "$1${lib%/*}"
		cp -L "$lib" "$1$lib"
	done
}

# guest_modules ROOT KVER MODULE...: the modules and what they depend on,
# uncompressed in ROOT/lib/modules, listed in ROOT/modules.order in the
# order modprobe would load them.
guest_modules() {
	_root=$1 _kver=$2
	shift 2
	mkdir -p "$_root/lib/modules"
	: > "$_root/modules.order"
	for path in $(for m in "$@"; do
			modprobe -S "$_kver" --show-depends "$m"; done |
			awk '$1 == "insmod" { print $2 }'); do
		base=${path##*/}
		case $base in
		*.ko.xz) xz -dc "$path" > "$_root/lib/modules/${base%.xz}"; base=${base%.xz} ;;
		*.ko.zst) zstd -qdc "$path" > "$_root/lib/modules/${base%.zst}"; base=${base%.zst} ;;
		*.ko.gz) gzip -dc "$path" > "$_root/lib/modules/${base%.gz}"; base=${base%.gz} ;;
		*) cp "$path" "$_root/lib/modules/" ;;
		esac
		grep -qx "$base" "$_root/modules.order" || echo "$base" >> "$_root/modules.order"
	done
}

# guest_disk FILE SERIAL [DRIVE-OPTIONS] [DEVICE-OPTIONS]: add a virtio
# disk to $disk_args (the guest finds it by SERIAL; paths must not hold
# spaces).
guest_disk() {
	disk_args="$disk_args -drive file=$1,format=raw,if=none,id=$2${3:+,$3}"
	disk_args="$disk_args -device virtio-blk-pci,drive=$2,serial=$2${4:+,$4}"
}

# guest_boot MIB SECONDS INITRAMFS CONSOLE: boot the kernel with INITRAMFS
# and $disk_args in MIB of memory, at most SECONDS; the console goes to
# CONSOLE.log, and without carriage returns to CONSOLE.txt.  TCG unless
# ACCEL= says otherwise: under nested virtualization /dev/kvm can exist
# and yet hang the guest at boot.  Returns 0 when the guest's /init
# printed ZB-DONE and no ZB-FAIL, else prints the console's end.
guest_boot() {
	set +e
	timeout "$2" "$QEMU" -accel "${ACCEL:-tcg}" -m "$1" -smp 1 -nographic \
		-no-reboot -kernel "$KERNEL" -initrd "$3" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3" $disk_args \
		< /dev/null > "$4.log" 2>&1
	_rc=$?
	set -e
	tr -d '\r' < "$4.log" > "$4.txt"
	if [ $_rc != 0 ] || ! grep -q '^ZB-DONE' "$4.txt" || grep -q '^ZB-FAIL' "$4.txt"; then
		echo "FAIL: the guest did not finish (qemu exit $_rc$([ $_rc = 124 ] && echo ", timed out after $2 s")); console:"
		tail -n 30 "$4.txt"
		return 1
	fi
}
