# guest.sh - sourced by the guests' /init (init, rescue-init): the
# file systems, the modules of /modules.order, and disks by serial.
export PATH=/bin
busybox mount -t proc proc /proc
busybox mount -t sysfs sysfs /sys
busybox mount -t devtmpfs devtmpfs /dev
for m in $(busybox cat /modules.order); do
	busybox insmod "/lib/modules/$m" || echo "insmod $m failed"
done

finish() {
	echo "ZB-DONE"
	busybox sync
	busybox poweroff -f
}

# The disk whose serial is $1, by name (vdc).
disk() {
	for d in /sys/block/vd*; do
		[ "$(busybox cat "$d/serial" 2>/dev/null)" = "$1" ] &&
			{ echo "${d##*/}"; return 0; }
	done
	return 1
}

# Wait (up to 10 s) for the disk whose serial is $1.
wait_disk() {
	_i=0
	while ! disk "$1" >/dev/null && [ $_i -lt 100 ]; do
		busybox sleep 0.1
		_i=$((_i + 1))
	done
}
