#!/bin/sh
# Print the stripped size of zerobox and what each enabled bool symbol
# (applet or feature switch) costs: for each one, build a variant with it
# turned off in O/sizes/SYMBOL and compare the stripped sizes.  Variants
# are kept, so a second run rebuilds only what changed.
#
# Usage: sizes.sh BINARY O
# Environment (from the Makefile): srctree, MAKE, STRIP, and the toolchain
# variables CC CROSS_COMPILE STATIC CFLAGS LDFLAGS EXTRA_CFLAGS
# EXTRA_LDFLAGS, which every variant build gets too.
set -e
: "${srctree:?}"

bin=$1
o=$2
dir=$o/sizes
: "${MAKE:=make}" "${STRIP:=strip}"
mkdir -p "$dir"

# The variants are separate makes with their own parallelism; the parent's
# MAKEFLAGS (jobserver, command-line variables) is not theirs.
unset MAKEFLAGS MFLAGS MAKELEVEL
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

stripped_size() {	# BINARY COPY: strip BINARY into COPY, print its size
	"$STRIP" -o "$2" "$1"
	wc -c <"$2" | tr -d ' '
}

# Olddefconfig also turns off what depends on the symbol.  Without a
# front-end the sed edit alone has to do: code behind a disabled applet is
# dropped anyway, as nothing references it.
if sh "$srctree/scripts/kconfig.sh" probe; then have_kconfig=1; else have_kconfig=; fi

syms=$(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/\1/p' "$o/.config")

# Write each variant's .config.  One that comes out unchanged stays
# untouched, so that its build has nothing to do.
for sym in $syms; do
	d=$dir/$sym
	mkdir -p "$d"
	# Older than the .config written below, as in the parent build.
	cp -p "$o/Config.applets.in" "$d/"
	sed "s/^CONFIG_$sym=y\$/# CONFIG_$sym is not set/" "$o/.config" >"$d/new.config"
	if [ -n "$have_kconfig" ]; then
		a=$(cd "$d" && pwd)
		ZB_BUILD_DIR=$a KCONFIG_CONFIG=$a/new.config \
			sh "$srctree/scripts/kconfig.sh" olddefconfig >/dev/null
	fi
	if cmp -s "$d/new.config" "$d/.config"; then
		rm -f "$d/new.config"
	else
		mv -f "$d/new.config" "$d/.config"
	fi
	rm -f "$d/new.config.old"
done

# Build the variants, $jobs at a time (each make -j1: variants are many,
# their builds small).
build() {	# SYMBOL
	rm -f "$dir/$1/ok"
	$MAKE -s -C "$srctree" O="$dir/$1" CC="$CC" STRIP="$STRIP" \
		STATIC="$STATIC" CROSS_COMPILE="$CROSS_COMPILE" \
		CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
		EXTRA_CFLAGS="$EXTRA_CFLAGS" EXTRA_LDFLAGS="$EXTRA_LDFLAGS" \
		all >"$dir/$1/build.log" 2>&1 && touch "$dir/$1/ok"
}
n=0
for sym in $syms; do
	grep -q "^CONFIG_$sym=y\$" "$dir/$sym/.config" && continue
	build "$sym" &
	n=$((n + 1))
	if [ $n -ge "$jobs" ]; then
		wait
		n=0
	fi
done
wait

base=$(stripped_size "$bin" "$dir/zerobox.stripped")
tc=$(cat "$o/toolchain" 2>/dev/null || echo "$CC")
echo "$bin: $base bytes stripped ($tc; $o/.config)"
case $tc in
*", musl, static") ;;
*)	echo "note: this binary is not static musl, so these are not the" \
		"sizes zerobox ships at (install musl-tools, or CROSS=ARCH)" ;;
esac
echo
printf '%-32s | %14s | %7s\n' symbol "stripped bytes" cost
printf '%-32s-+-%14s-+-%7s\n' -------------------------------- \
	-------------- -------
status=0
for sym in $syms; do
	d=$dir/$sym
	label=$sym
	applet=$(sed -n "s/^\([^ ]*\) $sym\$/\1/p" "$o/applets.list" | tr '\n' ' ')
	[ -z "$applet" ] || label="$sym (applet ${applet% })"
	if grep -q "^CONFIG_$sym=y\$" "$d/.config"; then
		printf '%-32s | %14s | %7s\n' "$label" - "(forced on)"
	elif [ -f "$d/ok" ]; then
		size=$(stripped_size "$d/zerobox" "$d/zerobox.stripped")
		printf '%-32s | %14s | %7s\n' "$label" "$size" $((base - size))
	else
		printf '%-32s | %14s | %7s\n' "$label" "build failed:" "$d/build.log"
		status=1
	fi
done
exit $status
