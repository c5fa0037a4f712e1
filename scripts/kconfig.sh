#!/bin/sh
# Run a Kconfig front-end on Config.in.
#
# Usage: kconfig.sh ACTION [OUTFILE]
#   ACTION: menuconfig oldconfig olddefconfig allnoconfig allyesconfig
#           alldefconfig savedefconfig (writes the minimal config to OUTFILE)
#           probe (exit status only: is there a front-end?)
#
# Environment, set by the Makefile (all paths absolute):
#   srctree           the source tree (holds Config.in)
#   ZB_BUILD_DIR      the build directory (holds Config.applets.in)
#   KCONFIG_CONFIG    the .config to read and write
#   KCONFIG_ALLCONFIG optional, for allnoconfig/allyesconfig/alldefconfig
#   KCONFIG_FRONTEND  optional: kconfig-frontends, kconfiglib, or none (as
#                     if neither were installed), to force a choice
#
# Front-ends, in order of preference: kconfig-conf/kconfig-mconf (Debian's
# kconfig-frontends-nox), then python3-kconfiglib.  Both look a relative
# 'source' path up under $srctree, and both expand $ZB_BUILD_DIR.
set -e

action=$1
outfile=$2

# A python that can import kconfiglib (Debian's package has no scripts in
# /usr/bin, so run its modules with -m).
find_kconfiglib() {
	for py in python3 /usr/bin/python3; do
		if "$py" -c 'import kconfiglib' >/dev/null 2>&1; then
			echo "$py"
			return 0
		fi
	done
	return 1
}

if [ -z "$KCONFIG_FRONTEND" ]; then
	if command -v kconfig-conf >/dev/null 2>&1; then
		KCONFIG_FRONTEND=kconfig-frontends
	elif find_kconfiglib >/dev/null; then
		KCONFIG_FRONTEND=kconfiglib
	else
		KCONFIG_FRONTEND=none
	fi
fi
case $KCONFIG_FRONTEND in
kconfig-frontends) command -v kconfig-conf >/dev/null 2>&1 || KCONFIG_FRONTEND=none ;;
kconfiglib) find_kconfiglib >/dev/null || KCONFIG_FRONTEND=none ;;
*) KCONFIG_FRONTEND=none ;;
esac
if [ "$KCONFIG_FRONTEND" = none ]; then
	[ "$action" = probe ] && exit 1
	echo "install a Kconfig front-end: apt-get install --no-install-recommends" \
		"kconfig-frontends-nox (or python3-kconfiglib)" >&2
	exit 1
fi
[ "$action" = probe ] && exit 0

export srctree ZB_BUILD_DIR KCONFIG_CONFIG
# Stray files a front-end may write (.config.old, temporaries) stay in the
# build directory.
cd "$ZB_BUILD_DIR"

case $KCONFIG_FRONTEND in
kconfig-frontends)
	case $action in
	menuconfig)	exec kconfig-mconf Config.in ;;
	savedefconfig)	exec kconfig-conf --savedefconfig="$outfile" Config.in ;;
	*)		exec kconfig-conf --"$action" Config.in ;;
	esac
	;;
kconfiglib)
	py=$(find_kconfiglib)
	case $action in
	savedefconfig)
		exec "$py" -m savedefconfig --kconfig Config.in --out "$outfile" ;;
	*)	exec "$py" -m "$action" Config.in ;;
	esac
	;;
esac
