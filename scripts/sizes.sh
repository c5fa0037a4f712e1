#!/bin/sh
# Print the stripped size of zerobox, what each enabled bool symbol
# (applet or feature switch) costs, and two fixed configurations (see
# "six-applets" below).  For each symbol, build a variant with it
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
settle_config() {	# DIR: DIR/new.config becomes DIR/.config if it differs
	cmp -s "$1/new.config" "$1/.config" || mv -f "$1/new.config" "$1/.config"
	rm -f "$1/new.config" "$1/new.config.old"
}
variant_dir() {		# NAME: make $d, the variant's build directory
	d=$dir/$1
	mkdir -p "$d"
	# Older than the .config written below, as in the parent build.
	cp -p "$o/Config.applets.in" "$d/"
}
kconfig() {		# ACTION [ALLCONFIG]: on $d/new.config
	a=$(cd "$d" && pwd)
	ZB_BUILD_DIR=$a KCONFIG_CONFIG=$a/new.config KCONFIG_ALLCONFIG=${2:+$a/$2} \
		sh "$srctree/scripts/kconfig.sh" "$1" >/dev/null
}
for sym in $syms; do
	variant_dir "$sym"
	sed "s/^CONFIG_$sym=y\$/# CONFIG_$sym is not set/" "$o/.config" >"$d/new.config"
	[ -z "$have_kconfig" ] || kconfig olddefconfig
	settle_config "$d"
done

# Three whole configurations besides the per-symbol ones (allnoconfig plus
# exactly these symbols, so that switches added later stay off):
#   six-applets  the six applets and every feature they had when zerobox
#                was measured against BusyBox 1.35 with the same applets
#                (docs/benchmarks.md): the like-for-like line, which new
#                applets and features do not move;
#   dd-only      dd and every dd feature there is now (FEATURE_DD_*);
#   dd-core      dd with the features of its core, none of the jobs built
#                on it (bmap=, conv=verify, zeroing): the line issue 26
#                measured the core by.
SIX_APPLETS='LONG_USAGE FEATURE_ZEROCOPY CAT FEATURE_CAT_OPTIONS CMP DD
FEATURE_DD_NOCACHE FEATURE_DD_CONV FEATURE_DD_PROGRESS FEATURE_DD_SIGNALS
FEATURE_DD_IOFLAGS HEAD FEATURE_HEAD_ELIDE SYNC TRUNCATE'
DD_ONLY="DD FEATURE_ZEROCOPY $(echo "$syms" | grep '^FEATURE_DD_' | tr '\n' ' ')"
DD_CORE='DD FEATURE_ZEROCOPY FEATURE_DD_NOCACHE FEATURE_DD_CONV
FEATURE_DD_PROGRESS FEATURE_DD_SIGNALS FEATURE_DD_IOFLAGS'
configs='six-applets dd-only dd-core'
for c in $configs; do
	variant_dir "$c"
	case $c in
	six-applets) want=$SIX_APPLETS ;;
	dd-only) want=$DD_ONLY ;;
	dd-core) want=$DD_CORE ;;
	esac
	for sym in $want; do echo "CONFIG_$sym=y"; done >"$d/want.config"
	if [ -n "$have_kconfig" ]; then
		kconfig allnoconfig want.config
	else
		sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/# CONFIG_\1 is not set/p' \
			"$o/.config" >"$d/new.config"
		for sym in $want; do
			sed -i "s/^# CONFIG_$sym is not set\$/CONFIG_$sym=y/" "$d/new.config"
		done
	fi
	settle_config "$d"
done

# Build the variants, $jobs at a time (each make -j1: variants are many,
# their builds small).
build() {	# SYMBOL
	variant=$1
	rm -f "$dir/$variant/ok"
	# Only the toolchain variables that are set are passed on: an empty
	# CC= on make's command line would replace its default with nothing.
	set -- STRIP="$STRIP"
	for var in CC STATIC CROSS_COMPILE CFLAGS LDFLAGS EXTRA_CFLAGS EXTRA_LDFLAGS; do
		eval "value=\${$var-}"
		[ -z "$value" ] || set -- "$@" "$var=$value"
	done
	$MAKE -s -C "$srctree" O="$dir/$variant" "$@" \
		all >"$dir/$variant/build.log" 2>&1 && touch "$dir/$variant/ok"
}
n=0
queue() {	# NAME: build it in the background, at most $jobs at once
	build "$1" &
	n=$((n + 1))
	if [ $n -ge "$jobs" ]; then
		wait
		n=0
	fi
}
for sym in $syms; do
	grep -q "^CONFIG_$sym=y\$" "$dir/$sym/.config" || queue "$sym"
done
for c in $configs; do
	queue "$c"
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

echo
printf '%-32s | %14s\n' configuration "stripped bytes"
printf '%-32s-+-%14s\n' -------------------------------- --------------
printf '%-32s | %14s\n' "this build ($o/.config)" "$base"
for c in $configs; do
	d=$dir/$c
	case $c in
	six-applets) label="six applets (BusyBox comparison)" ;;
	dd-only) label="dd only, every dd feature" ;;
	dd-core) label="dd core (dd only, no jobs)" ;;
	esac
	if [ -f "$d/ok" ]; then
		printf '%-32s | %14s\n' "$label" \
			"$(stripped_size "$d/zerobox" "$d/zerobox.stripped")"
	else
		printf '%-32s | %14s\n' "$label" "build failed: $d/build.log"
		status=1
	fi
done
exit $status
