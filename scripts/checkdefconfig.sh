#!/bin/sh
# Check the committed configurations against the Kconfig files:
#   - every value config/defconfig sets is the Kconfig default
#     (alldefconfig);
#   - every config/*defconfig is consistent: olddefconfig changes none of
#     the values it sets (no vanished or contradictory symbols).
# A symbol a defconfig does not mention takes its Kconfig default
# (gen_autoconf.sh, olddefconfig), so a new applet or option with a
# default needs no defconfig edit.  Comment lines other than "# CONFIG_X
# is not set" are ignored.  Prints each difference and fails if there is
# one.
#
# Usage: checkdefconfig.sh O     (O absolute; environment: srctree)
set -e
: "${srctree:?}"

tmp=$1/checkdefconfig
rm -rf "$tmp"
mkdir -p "$tmp"
cp -p "$1/Config.applets.in" "$tmp/"
cd "$srctree"

# Only the lines that carry a value, sorted.
values() {
	grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]+ is not set)' "$1" | LC_ALL=C sort || true
}

# FILE's values that EXPECTED does not have.
differs() {	# LABEL ACTUAL EXPECTED
	d=$(LC_ALL=C comm -23 "$2" "$3")
	[ -z "$d" ] && return 1
	printf '%s: %s\n' "$1" "$d" | sed '2,$s/^/    /' >&2
	return 0
}

kconfig() {
	ZB_BUILD_DIR=$tmp KCONFIG_CONFIG=$tmp/.config \
		sh scripts/kconfig.sh "$@" >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; exit 1; }
}

status=0
unset KCONFIG_ALLCONFIG
kconfig alldefconfig
values "$tmp/.config" >"$tmp/expected"
values config/defconfig >"$tmp/actual"
if differs "config/defconfig sets values other than the Kconfig defaults" \
		"$tmp/actual" "$tmp/expected"; then
	status=1
fi

for f in config/*defconfig; do
	cp "$f" "$tmp/.config"
	kconfig olddefconfig
	values "$tmp/.config" >"$tmp/expected"
	values "$f" >"$tmp/actual"
	if differs "$f: values olddefconfig changes (vanished or contradictory)" \
			"$tmp/actual" "$tmp/expected"; then
		status=1
	fi
done

[ $status -ne 0 ] || echo "config/*defconfig: up to date"
exit $status
