#!/bin/sh
# Check the committed configurations against the Kconfig files:
#   - config/defconfig must be exactly the Kconfig defaults (alldefconfig);
#   - every config/*defconfig must be up to date: olddefconfig leaves it
#     unchanged (no new, vanished or inconsistent symbols).
# Comment lines other than "# CONFIG_X is not set" are ignored.  Prints
# each difference and fails if there is one.
#
# Usage: checkdefconfig.sh O     (O absolute; environment: srctree)
set -e
: "${srctree:?}"

tmp=$1/checkdefconfig
rm -rf "$tmp"
mkdir -p "$tmp"
cp -p "$1/Config.applets.in" "$tmp/"
cd "$srctree"

# Only the lines that carry a value.
values() {
	grep -E '^(CONFIG_|# CONFIG_[A-Za-z0-9_]+ is not set)' "$1" || true
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
if ! diff -u --label config/defconfig --label "Kconfig defaults" \
		"$tmp/actual" "$tmp/expected"; then
	echo "config/defconfig differs from the Kconfig defaults" >&2
	status=1
fi

for f in config/*defconfig; do
	cp "$f" "$tmp/.config"
	kconfig olddefconfig
	values "$tmp/.config" >"$tmp/expected"
	values "$f" >"$tmp/actual"
	if ! diff -u --label "$f" --label "$f after olddefconfig" \
			"$tmp/actual" "$tmp/expected"; then
		echo "$f is not up to date with the Kconfig files" >&2
		status=1
	fi
done

[ $status -ne 0 ] || echo "config/*defconfig: up to date"
exit $status
