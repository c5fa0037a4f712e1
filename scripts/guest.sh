# guest.sh - sourced by the qemu guest tests (board.sh, rescue_vm.sh):
# what goes into a guest's initramfs, and its disks.

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
