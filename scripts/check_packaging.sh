#!/bin/sh
# check_packaging.sh - check what a packager and an embedded engineer rely
# on, in a scratch copy of the source tree (make check-packaging):
#
#   - adding an applet is one file: a new default-y applet appears in
#     zerobox --list with no defconfig or list edited, and checkdefconfig
#     still passes;
#   - a hand-written .config lacking symbols gets their defaults, with a
#     warning;
#   - every Kconfig symbol has help naming its source;
#   - make install without DESTDIR/PREFIX stages into O/_install, and
#     never replaces a file that is not zerobox unless FORCE=1;
#   - the link names compiler, libc and linking; a glibc build says so;
#   - the missing-front-end hint names both front-ends;
#   - make sizes says when a binary is not static musl;
#   - check-initramfs lists its packages and refuses a dynamic shell.
#
# Prints "PASS: name" or "FAIL: name" per check and ends with
# "N passed, M failed".  Environment: srctree, MAKE.
set -u
: "${srctree:?}" "${MAKE:=make}"
unset MAKEFLAGS MFLAGS MAKELEVEL O DESTDIR PREFIX FORCE

tmp=$(mktemp -d "${TMPDIR:-/tmp}/zerobox-pkg.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
mkdir -p "$src"
if [ -e "$srctree/.git" ] && git -C "$srctree" ls-files >/dev/null 2>&1; then
	(cd "$srctree" && git ls-files -z | xargs -0 cp --parents -t "$src")
else
	(cd "$srctree" && tar --exclude='./build*' --exclude=./zerobox -cf - .) |
		(cd "$src" && tar -xf -)
fi
cd "$src" || exit 2

passed=0 failed=0
check() {	# NAME COMMAND...: PASS when COMMAND succeeds
	name=$1; shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "PASS: $name"; passed=$((passed + 1))
	else
		echo "FAIL: $name"; failed=$((failed + 1))
		sed 's/^/    /' "$tmp/out" | tail -n 15
	fi
}

# ---- one applet, one file ---------------------------------------------
cat > applets/true.c <<'EOF'
/* true.c - a scratch applet of check_packaging.sh. */
//config:config TRUE
//config:	bool "true"
//config:	default y
//config:	help
//config:	  Do nothing, successfully.

//applet:true true_main TRUE

//usage:
//usage:Exit with a status code indicating success.

#include <stdlib.h>

int true_main(int argc, char **argv);
int true_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return EXIT_SUCCESS;
}
EOF
new_applet() {
	$MAKE -s O=b defconfig && $MAKE -s -j2 O=b 2>&1 &&
		b/zerobox --list | grep -qx true && b/zerobox true &&
		b/zerobox --list-full | grep -qx bin/true &&
		grep -q '^CONFIG_TRUE=y$' b/include/config.resolved &&
		$MAKE -s O=b checkdefconfig
}
check "a new default-y applet: in --list, checkdefconfig passes, no other file touched" \
	new_applet
new_applet_tiny() {
	$MAKE -s O=t tiny_defconfig && $MAKE -s -j2 O=t 2>&1 &&
		t/zerobox --list | grep -qx true
}
check "a new default-y applet is in tiny_defconfig's build too" new_applet_tiny
new_applet_tests() {
	printf 'testing "true exits 0" "true; echo rc=\\$?" "rc=0\\n" "" ""\n' \
		> testsuite/true.tests
	$MAKE O=b check TESTS=true | tee "$tmp/true.log" &&
		grep -q '^1 passed, 0 failed' "$tmp/true.log"
}
check "a new applet's tests run through its link" new_applet_tests
rm -f applets/true.c testsuite/true.tests

# ---- Kconfig ----------------------------------------------------------
missing_defaults() {
	$MAKE -s O=h defconfig >/dev/null &&
	printf 'CONFIG_DD=y\n# CONFIG_FEATURE_DD_CONV is not set\n' > h/.config &&
	$MAKE -s -j2 O=h > "$tmp/h.log" 2>&1 &&
	grep -q 'does not set.*CMP.*using the Kconfig defaults' "$tmp/h.log" &&
	grep -q '^CONFIG_CMP=y$' h/include/config.resolved &&
	grep -q '^CONFIG_FEATURE_DD_SPLICE=y$\|^CONFIG_FEATURE_ZEROCOPY=y$' h/include/config.resolved &&
	! grep -q '^CONFIG_FEATURE_DD_CONV=y$' h/include/config.resolved &&
	h/zerobox --list | grep -qx cmp
}
check "a .config lacking symbols gets their defaults, with a warning" \
	missing_defaults
every_help() {
	LC_ALL=C awk '
	/^(menu)?config[ \t]/ { if (sym != "" && !ok) { print sym ": no help naming its source"; bad = 1 } sym = $2; ok = 0; next }
	/^[ \t]+Source: / { ok = 1 }
	/^[ \t]*[Ss]ource: / { ok = 1 }
	END { if (sym != "" && !ok) { print sym ": no help naming its source"; bad = 1 } exit bad }
	' b/Config.applets.in &&
	grep -q 'Source:' Config.in
}
check "every Kconfig symbol's help names its source" every_help
hint() {
	! KCONFIG_FRONTEND=none $MAKE -s O=b olddefconfig > "$tmp/hint" 2>&1 &&
		grep -q kconfig-frontends-nox "$tmp/hint" &&
		grep -q python3-kconfiglib "$tmp/hint"
}
check "the missing-front-end hint names both front-ends" hint

# ---- install ----------------------------------------------------------
staged() {
	$MAKE -s O=b install >/dev/null &&
		[ -x b/_install/bin/zerobox ] && [ -L b/_install/bin/dd ] &&
		[ "$(readlink b/_install/bin/dd)" = zerobox ]
}
check "make install with no DESTDIR/PREFIX stages into O/_install" staged
foreign() {
	mkdir -p root/bin && echo theirs > root/bin/dd &&
	! $MAKE -s O=b install DESTDIR="$PWD/root" PREFIX= >"$tmp/f" 2>&1 &&
	grep -q 'not zerobox' "$tmp/f" &&
	[ "$(cat root/bin/dd)" = theirs ] && [ ! -e root/bin/zerobox ] &&
	$MAKE -s O=b install DESTDIR="$PWD/root" PREFIX= FORCE=1 >/dev/null &&
	[ "$(readlink root/bin/dd)" = zerobox ]
}
check "install refuses to replace a foreign dd unless FORCE=1" foreign

# ---- the toolchain line -------------------------------------------------
toolchain_line() {
	rm -f b/zerobox && $MAKE -j2 O=b > "$tmp/l" 2>&1 &&
		grep -Eq '^  zerobox: .*\((gcc|clang) [0-9.]+ for [^)]*\), [a-z]+, (static|dynamic)$' "$tmp/l"
}
check "the link names compiler, libc and linking" toolchain_line
glibc_said() {
	command -v gcc >/dev/null || return 0
	$MAKE -s O=g defconfig && $MAKE -s -j2 O=g CC=gcc STATIC=0 > "$tmp/g" 2>&1 &&
		grep -q 'not static musl: .*glibc, dynamic' "$tmp/g"
}
check "a glibc build says so even with make -s" glibc_said

sizes_note() {
	mkdir -p s && : > s/.config && : > s/applets.list &&
	cp b/Config.applets.in b/zerobox s/ &&
	echo 'gcc (gcc 12.2.0 for x86_64-linux-gnu), glibc, static' > s/toolchain &&
	srctree=$PWD sh scripts/sizes.sh s/zerobox s > "$tmp/s1" 2>&1 &&
	grep -q 'not static musl' "$tmp/s1" &&
	echo 'musl-gcc (gcc 12.2.0 for x86_64-linux-gnu), musl, static' > s/toolchain &&
	srctree=$PWD sh scripts/sizes.sh s/zerobox s > "$tmp/s2" 2>&1 &&
	! grep -q 'not static musl' "$tmp/s2"
}
check "make sizes says when the binary is not static musl" sizes_note

# ---- check-initramfs --------------------------------------------------
initramfs_hint() {
	! BUSYBOX=/bin/sh KERNEL=${KERNEL:-} sh scripts/initramfs.sh b/zerobox "$tmp/ir" \
		> "$tmp/ir.log" 2>&1 || return 1
	if grep -q 'missing:' "$tmp/ir.log"; then
		grep -q 'busybox-static.*cpio\|cpio.*busybox-static' "$tmp/ir.log"
	else
		grep -q 'dynamically linked' "$tmp/ir.log"
	fi
}
check "check-initramfs names every package, and refuses a dynamic shell" initramfs_hint

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
