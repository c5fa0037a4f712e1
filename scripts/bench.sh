#!/bin/sh
# scripts/bench.sh - zerobox dd against GNU dd and BusyBox dd, in one run.
#
# Run from the repo root with `make bench`, or `sh scripts/bench.sh`.
# Progress goes to stderr; stdout gets markdown tables for the README:
#   1. throughput per scenario and block size: medians of interleaved runs
#      (zerobox, GNU, BusyBox, zerobox, GNU, BusyBox, ...), ratios, and the
#      kernel's best case for the same path from ../shared/tools/ceiling.c;
#   2. peak RSS (KiB) for the large-bs cases;
#   3. page-cache footprint and wall time of oflag=nocache / iflag=nocache,
#      from ../shared/tools/cachewatch.c.
# See DESIGN.md, "Benchmarks".
#
# Needs a C compiler (for the helper).  Variables (environment):
#   ZEROBOX=PATH        binary to test (default: ./zerobox of this repo)
#   GNU_DD=PATH         GNU dd (default /usr/bin/dd; empty: skip the column)
#   BUSYBOX=PATH        busybox binary, run as "busybox dd" (default
#                       /usr/bin/busybox; empty: skip the column)
#   BENCH_SCALE=X       multiplies the data sizes (default 1: 1 GiB per run,
#                       bs=512 rows 1/16 of it, nocache 2 GiB); 0.05 is quick
#   BENCH_RUNS=N        runs per contender and scenario (default 7)
#   BENCH_NOCACHE_RUNS=N  runs per row of the nocache section (default 1)
#   BENCH_ONLY="..."    only these scenarios and sections, by name: any of
#                       zero-null zero-pipe file-null file-pipe pipe-pipe
#                       file-file pipe-file zero-file (or "speed" for all
#                       of them), "rss", "nocache"
#   BENCH_PIPE_SZ=BYTES capacity of the pipes feeding and draining dd, the
#                       same for every contender and for ceiling.c (-P).
#                       Default: the block size, at least 64 KiB, which is
#                       what ceiling.c gives its own pipes, so that dd and
#                       the ceiling measure the same path; "kernel": the
#                       kernel's default pipes (64 KiB), which bound what
#                       one splice from an input pipe can move
#   BENCH_OUTPUT=inplace|new  how a file output is written: inplace (the
#                       default) overwrites a file of the same size, with
#                       conv=notrunc for dd and -K for ceiling.c, so that the
#                       copy path is timed and not the page allocator (in a
#                       VM that hands free memory back to the host, fresh
#                       page cache costs a random 1x-4x); new: a new file
#                       every run, as a first write to a fresh file costs
#   BENCH_DIR=DIR       where the temp dir goes (default /var/tmp); it must
#                       be on a real disk, not tmpfs
#   SHARED_TOOLS=DIR    ceiling.c and cachewatch.c (default ../shared/tools
#                       next to the repo); missing: those columns are skipped
#   BENCH_CC=CC         compiler for bench-helper.c (default: musl-gcc
#                       -static, else cc -static, else cc)
#   BENCH_CC_TOOLS=CC   compiler for the ../shared/tools (default cc)
#
# Nothing from ../shared/tools is copied into the repo: the tools, and this
# script's own scripts/bench-helper.c (pipe producer and consumer, timer,
# peak RSS, cache warming and eviction), are compiled into the temp dir.
# Times come from the helper's CLOCK_MONOTONIC, around fork and wait.
# POSIX sh (no arrays: word lists in strings, split with globbing off).

# shellcheck disable=SC2046,SC2086 # word lists are split on purpose
set -eu
set -f
LC_ALL=C
export LC_ALL

REPO=$(cd "$(dirname "$0")/.." && pwd)
ZEROBOX=${ZEROBOX:-$REPO/zerobox}
GNU_DD=${GNU_DD-/usr/bin/dd}
BUSYBOX=${BUSYBOX-/usr/bin/busybox}
SHARED_TOOLS=${SHARED_TOOLS:-$REPO/../shared/tools}
BENCH_SCALE=${BENCH_SCALE:-1}
BENCH_RUNS=${BENCH_RUNS:-7}
BENCH_NOCACHE_RUNS=${BENCH_NOCACHE_RUNS:-1}
BENCH_ONLY=${BENCH_ONLY:-}
BENCH_DIR=${BENCH_DIR:-/var/tmp}
BENCH_OUTPUT=${BENCH_OUTPUT:-inplace}

# Scenarios: name, input kind, output kind, block sizes.
# Kinds: zero = /dev/zero, null = /dev/null, file = a cached file (input) or
# a new file in the temp dir (output), pipe = a pipe from the helper's
# producer, which writes bs-sized chunks as ceiling.c's does (input), or to
# its splice sink (output).
SCENARIOS='
zero-null zero null 64K 1M
zero-pipe zero pipe 64K 1M
file-null file null 64K 1M
file-pipe file pipe 64K 1M
pipe-pipe pipe pipe 64K 1M
file-file file file 512 64K 1M
pipe-file pipe file 64K 1M
zero-file zero file 64K 1M
'

# Peak RSS cases (one run each).  @FIFO: an empty fifo the script holds open
# for writing; @TEN: a 10-byte file; @OUT: a file in the temp dir; @FILE: the
# data file; @PIPE: stdout is a pipe to the sink.
RSS_CASES='
bs=1G count=1 iflag=nonblock if=@FIFO of=/dev/null
obs=11777777 ibs=1111 bs=7177118117 cbs=8818181111 if=/dev/null of=@OUT
bs=2G if=@TEN of=@OUT
bs=1G count=1 if=/dev/null of=/dev/null
bs=1M if=/dev/zero count=1024 of=/dev/null
bs=64K if=@FILE @PIPE
'

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

# ---- checks and setup ------------------------------------------------

case $BENCH_RUNS$BENCH_NOCACHE_RUNS in
*[!0-9]*) die "BENCH_RUNS and BENCH_NOCACHE_RUNS are counts" ;;
esac
case $BENCH_OUTPUT in
inplace | new) ;;
*) die "BENCH_OUTPUT is inplace or new" ;;
esac
case ${BENCH_PIPE_SZ:-0} in
kernel) ;;
*[!0-9]*) die "BENCH_PIPE_SZ is a byte count, or \"kernel\"" ;;
esac
[ "$BENCH_RUNS" -ge 1 ] || die "BENCH_RUNS must be at least 1"
awk -v s="$BENCH_SCALE" 'BEGIN { exit !(s + 0 > 0) }' ||
	die "BENCH_SCALE must be a positive number"
[ -x "$ZEROBOX" ] || die "no zerobox binary at $ZEROBOX (run make, or set ZEROBOX=)"
"$ZEROBOX" dd if=/dev/null of=/dev/null 2>/dev/null ||
	die "$ZEROBOX has no working dd applet"

# Sizes in bytes, whole MiB: SIZE per throughput run, SMALL for bs=512,
# NCSIZE for the nocache section.
mib() { awk -v s="$BENCH_SCALE" -v m="$1" 'BEGIN {
	n = int(m * s); if (n < 1) n = 1; printf "%.0f\n", n * 1048576 }'; }
# human BYTES: "1 GiB", "51 MiB" (whole MiB in, one decimal out)
human() { awk -v b="$1" 'BEGIN {
	if (b >= 1073741824) printf "%g GiB\n", int(b / 107374182.4 + 0.5) / 10
	else printf "%g MiB\n", int(b / 104857.6 + 0.5) / 10 }'; }
SIZE=$(mib 1024)
SMALL=$(mib 64)
NCSIZE=$(mib 2048)

# Contenders present, zerobox first.
CONTENDERS=zerobox
if [ -n "$GNU_DD" ] && [ -x "$GNU_DD" ]; then
	CONTENDERS="$CONTENDERS gnu"
else
	say "bench: GNU dd not found; skipping its column"; GNU_DD=
fi
if [ -n "$BUSYBOX" ] && [ -x "$BUSYBOX" ] &&
   "$BUSYBOX" dd if=/dev/null of=/dev/null 2>/dev/null; then
	CONTENDERS="$CONTENDERS busybox"
else
	say "bench: busybox dd not found; skipping its column"; BUSYBOX=
fi

selected() {	# selected NAME [GROUP]: is it in BENCH_ONLY (or no filter)?
	[ -z "$BENCH_ONLY" ] && return 0
	for w in $BENCH_ONLY; do
		[ "$w" = "$1" ] && return 0
		[ $# -gt 1 ] && [ "$w" = "$2" ] && return 0
	done
	return 1
}

mkdir -p "$BENCH_DIR"
T=$(mktemp -d "$BENCH_DIR/zerobox-bench.XXXXXX")
cleanup() {
	exec 9>&- 2>/dev/null || :
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
case $T in
*[!A-Za-z0-9/._-]*) die "temp dir $T: use a BENCH_DIR without spaces or odd characters" ;;
esac
FSTYPE=$(stat -f -c %T "$T")
case $FSTYPE in
tmpfs | ramfs) die "$BENCH_DIR is on $FSTYPE: set BENCH_DIR to a directory on a real disk" ;;
esac

# ---- helpers and tools -----------------------------------------------

HELPER=$T/bench-helper
build_helper() {
	src=$REPO/scripts/bench-helper.c
	if [ -n "${BENCH_CC:-}" ]; then
		$BENCH_CC -O2 -static -o "$HELPER" "$src" 2>/dev/null ||
			$BENCH_CC -O2 -o "$HELPER" "$src"
		return
	fi
	# Static: small and quick to start (and, should ptrace be refused,
	# its resident set before exec counts in ru_maxrss).
	for cc in musl-gcc cc; do
		command -v $cc >/dev/null 2>&1 || continue
		$cc -O2 -static -o "$HELPER" "$src" 2>/dev/null && return
	done
	cc -O2 -o "$HELPER" "$src"
}
build_helper || die "cannot compile scripts/bench-helper.c (a C compiler is required)"

CEILING='' CACHEWATCH=''
build_tool() {	# build_tool NAME: prints the binary, or nothing
	[ -f "$SHARED_TOOLS/$1.c" ] || { say "bench: no $SHARED_TOOLS/$1.c; skipping $1"; return 0; }
	if ${BENCH_CC_TOOLS:-cc} -O2 -o "$T/$1" "$SHARED_TOOLS/$1.c" 2>"$T/cc.err"; then
		printf '%s\n' "$T/$1"
	else
		say "bench: cannot compile $1.c; skipping it:"; cat "$T/cc.err" >&2
	fi
}
CEILING=$(build_tool ceiling)
CACHEWATCH=$(build_tool cachewatch)

# run_dd WHO DDARG...: one run through the helper, with the helper options in
# $HOPTS; prints "SECONDS MAXRSS_KIB STATUS".  dd's stderr goes to $T/err.
HOPTS= psz=
run_dd() {
	who=$1; shift
	case $who in
	zerobox) set -- "$ZEROBOX" dd "$@" ;;
	gnu) set -- "$GNU_DD" "$@" ;;
	busybox) set -- "$BUSYBOX" dd "$@" ;;
	esac
	BENCH_PIPE_SZ=$psz "$HELPER" run $HOPTS -- "$@" 2>"$T/err" </dev/null
}

median() {	# median FILE: of the numbers in FILE, one a line; empty if none
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bs_bytes() {
	case $1 in
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*) echo "$1" ;;
	esac
}

label() {
	case $1 in
	zero) echo /dev/zero ;;
	null) echo /dev/null ;;
	*) echo "$1" ;;
	esac
}

# fmt X [DIGITS]: number, or "-" when empty
fmt() { [ -n "$1" ] && awk -v x="$1" -v d="${2:-2}" 'BEGIN { printf "%.*f\n", d, x }' || echo -; }
# ratio A B: A / B, or "-"
ratio() {
	if [ -n "$1" ] && [ -n "$2" ]; then
		awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "-" }'
	else
		echo -
	fi
}

# run_ceiling BS OPTS IN OUT: one run of each of ceiling.c's methods, each
# timed by the helper as dd is (fork to exit), with the same producer and
# consumer as dd's, on fds 3 and 4 (IN /dev/fd/3, OUT /dev/fd/4), so that
# the kernel schedules the three alike; appends "METHOD GB/s
# OWN_GB/s" to $T/ceiling.runs (OWN: ceiling.c's own clock, which starts
# after its set-up) and prints the GB/s on one line.  A method the kernel
# refuses for this path (EINVAL@copy_file_range...) is not tried again.
run_ceiling() {
	cbs=$1 cop=$2 cin=$3 cout=$4 cline=
	methods="rw splice sendfile cfr"
	[ "$cin" = /dev/zero ] && [ "$cout" = /dev/fd/4 ] && methods="$methods vmsplice"
	for m in $methods; do
		grep -qx "$m" "$T/ceiling.refused" && continue
		BENCH_PIPE_SZ=$psz "$HELPER" run -f $HOPTS -- "$CEILING" -q -b "$cbs" $cop "$m" "$cin" "$cout" \
			>"$T/ceiling.txt" 2>"$T/ceiling.err" </dev/null
		# Line 1: ceiling.c's report (tab-separated); line 2: the
		# helper's "SECONDS MAXRSS STATUS".
		res=$(awk -F'\t' 'NR == 1 { bytes = $5; own = $7; st = $11 }
			NR == 2 { split($0, h, " "); secs = h[1] }
			END { if (st == "ok" && secs > 0) printf "%.4f %s\n", bytes / secs / 1e9, own
			      else print "refused" }' "$T/ceiling.txt")
		if [ "$res" = refused ]; then
			echo "$m" >>"$T/ceiling.refused"
			continue
		fi
		echo "$m $res" >>"$T/ceiling.runs"
		cline="$cline${cline:+, }$m $(fmt "${res%% *}")"
	done
	echo "$cline GB/s"
}

# ---- data ------------------------------------------------------------

DATA=$T/data
DATA_SMALL=$T/data.small
OUT=$T/out

# ---- throughput ------------------------------------------------------

cell() {	# cell WHO: the scenario's GB/s for WHO, or its failing status
	eval "cg=\${gbps_$1:-}"
	if [ -n "$cg" ]; then fmt "$cg"
	elif [ -s "$T/fail.$1" ]; then echo "fail ($(cat "$T/fail.$1"))"
	else echo -; fi
}

SPEED_TABLE=$T/table.speed
: >"$SPEED_TABLE"

# bench_case NAME IN OUT BS: all contenders, interleaved, plus the ceiling.
bench_case() {
	in=$2 out=$3 bs=$4
	bytes=$SIZE infile=$DATA
	if [ "$bs" = 512 ]; then
		bytes=$SMALL infile=$DATA_SMALL
	fi
	nblocks=$((bytes / $(bs_bytes "$bs")))
	[ -f "$infile" ] || "$HELPER" mkfile "$infile" "$bytes"

	# The pipes around dd: the same for every contender and the ceiling.
	psz=${BENCH_PIPE_SZ:-$(bs_bytes "$bs")}
	[ "$psz" = kernel ] && psz=65536
	[ "$psz" -ge 65536 ] || psz=65536

	HOPTS='' ddargs="bs=$bs" cin='' cout='' copts="-P $psz"
	case $in in
	zero) ddargs="$ddargs if=/dev/zero count=$nblocks" cin=/dev/zero copts="$copts -n $bytes" ;;
	file) ddargs="$ddargs if=$infile" cin=$infile copts="$copts -w" ;;
	pipe) HOPTS="-p $infile -b $(bs_bytes "$bs")" cin=/dev/fd/3 ;;
	esac
	case $out in
	null) ddargs="$ddargs of=/dev/null" cout=/dev/null ;;
	file)
		ddargs="$ddargs of=$OUT" cout=$OUT
		if [ "$BENCH_OUTPUT" = inplace ]; then
			ddargs="$ddargs conv=notrunc" copts="$copts -K"
			"$HELPER" mkfile "$OUT" "$bytes"
		fi ;;
	pipe) HOPTS="$HOPTS -c" cout=/dev/fd/4 ;;
	esac
	desc="$(label "$in") → $(label "$out")"
	say "== $desc, bs=$bs, $(human "$bytes"), $BENCH_RUNS runs: dd $ddargs"

	for who in $CONTENDERS; do
		: >"$T/times.$who"
		: >"$T/fail.$who"
	done
	: >"$T/ceiling.runs"
	: >"$T/ceiling.refused"
	# Each round starts one later in this list, so that nobody always
	# runs right after the same neighbour (a file freed by the one before
	# is slow to allocate again once the host has reclaimed it).
	order="$CONTENDERS${CEILING:+ ceiling}"
	r=1
	while [ "$r" -le "$BENCH_RUNS" ]; do
		line="   run $r:"
		for who in $order; do
			# Cached input before every run: some VMs reclaim idle
			# page cache.  Costs little when it is still cached.
			[ "$in" = zero ] || "$HELPER" warm "$infile"
			[ "$BENCH_OUTPUT" = inplace ] || rm -f "$OUT"
			if [ "$who" = ceiling ]; then
				line="$line ceiling $(run_ceiling "$bs" "$copts" "$cin" "$cout")"
				continue
			fi
			set -- $(run_dd "$who" $ddargs)
			if [ "${3:-x}" = 0 ]; then
				echo "$1" >>"$T/times.$who"
				line="$line $who $(fmt "$1" 3)s"
			else
				echo "${3:-?}" >"$T/fail.$who"
				line="$line $who FAILED(${3:-?}: $(tail -n 1 "$T/err"))"
			fi
		done
		set -- $order
		first=$1; shift
		order="$* $first"
		say "$line"
		r=$((r + 1))
	done
	rm -f "$OUT"

	# GB/s = bytes / median seconds / 1e9
	for who in $CONTENDERS; do
		m=$(median "$T/times.$who")
		g=
		# shellcheck disable=SC2034 # read by the eval
		[ -z "$m" ] || g=$(awk -v b="$bytes" -v t="$m" 'BEGIN { printf "%.4f\n", b / t / 1e9 }')
		eval "med_$who=\$m gbps_$who=\$g"
	done
	med_zerobox=${med_zerobox:-} med_gnu=${med_gnu:-} med_busybox=${med_busybox:-}
	gbps_gnu=${gbps_gnu:-} gbps_busybox=${gbps_busybox:-}

	# The ceiling: the method with the best median over the rounds, by
	# the same clock as dd's; its median by its own clock beside it.
	ceil='' ceilm='' ceilown=''
	if [ -s "$T/ceiling.runs" ]; then
		for m in $(awk '{ print $1 }' "$T/ceiling.runs" | sort -u); do
			awk -v m="$m" '$1 == m { print $2 }' "$T/ceiling.runs" >"$T/ceiling.m"
			awk -v m="$m" '$1 == m { print $3 }' "$T/ceiling.runs" >"$T/ceiling.own"
			echo "$(median "$T/ceiling.m") $m $(median "$T/ceiling.own")"
		done | sort -g | tail -n 1 >"$T/ceiling.best"
		read -r ceil ceilm ceilown <"$T/ceiling.best" || :
	fi
	rm -f "$T/ceiling.runs" "$T/ceiling.refused"

	pct=- pctown=-
	if [ -n "$ceil" ] && [ -n "$gbps_zerobox" ]; then
		pct=$(awk -v z="$gbps_zerobox" -v c="$ceil" 'BEGIN { printf "%.0f%%\n", 100 * z / c }')
		pctown=$(awk -v z="$gbps_zerobox" -v c="$ceilown" 'BEGIN { if (c > 0) printf "%.0f%%\n", 100 * z / c; else print "-" }')
	fi
	ceilcell=-
	[ -z "$ceil" ] || ceilcell="$(fmt "$ceil") ($ceilm; own clock $(fmt "$ceilown"))"
	gnucell=- bbcell=-
	case " $CONTENDERS " in *" gnu "*) gnucell=$(cell gnu) ;; esac
	case " $CONTENDERS " in *" busybox "*) bbcell=$(cell busybox) ;; esac
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$desc" "$bs" \
		"$(cell zerobox)" "$gnucell" "$bbcell" \
		"$(ratio "$med_gnu" "$med_zerobox")" "$(ratio "$med_busybox" "$med_zerobox")" \
		"$ceilcell" "$pct" "$pctown" >>"$SPEED_TABLE"
	say "   median GB/s: zerobox $(cell zerobox), GNU $gnucell, BusyBox $bbcell; ceiling $ceilcell; zerobox $pct of it ($pctown by its own clock)"
}

speed_section() {
	while read -r name in out sizes <&3; do
		[ -n "$name" ] || continue
		selected "$name" speed || continue
		for bs in $sizes; do
			bench_case "$name" "$in" "$out" "$bs"
		done
	done 3<<EOF
$SCENARIOS
EOF
}

# ---- peak RSS --------------------------------------------------------

RSS_TABLE=$T/table.rss
: >"$RSS_TABLE"

rss_section() {
	say "== peak RSS"
	mkfifo "$T/fifo"
	exec 9<>"$T/fifo"	# a writer, so the reader sees no EOF: just no data
	printf '0123456789' >"$T/ten"
	[ -f "$DATA" ] || "$HELPER" mkfile "$DATA" "$SIZE"
	while read -r spec <&3; do
		[ -n "$spec" ] || continue
		shown=$(echo "$spec" | sed 's/@FIFO/EMPTY_FIFO/; s/@TEN/TEN_BYTE_FILE/; s/@OUT/OUT/;
			s/@FILE/FILE/; s/ @PIPE/ (→ pipe)/')
		args=$(echo "$spec" | sed "s|@FIFO|$T/fifo|; s|@TEN|$T/ten|; s|@OUT|$OUT|;
			s|@FILE|$DATA|; s| @PIPE||")
		HOPTS=-R
		case $spec in *@PIPE*) HOPTS="-R -c" ;; esac
		case $spec in *@FILE*) "$HELPER" warm "$DATA" ;; esac
		row="| \`$shown\` |"
		for who in zerobox gnu busybox; do
			case " $CONTENDERS " in *" $who "*) ;; *) row="$row - |"; continue ;; esac
			rm -f "$OUT"
			set -- $(run_dd "$who" $args)
			rm -f "$OUT"
			if [ "${3:-x}" = 0 ]; then
				row="$row $2 |"
			else
				row="$row exit ${3:-?} ($2) |"
			fi
			say "   $who dd $shown: ${2:-?} KiB, status ${3:-?} $(tail -n 1 "$T/err" | cut -c1-70)"
		done
		echo "$row" >>"$RSS_TABLE"
	done 3<<EOF
$RSS_CASES
EOF
	exec 9>&-
	rm -f "$T/fifo" "$T/ten"
	# For scale: a static process that does nothing.  0 means ptrace was
	# refused and the figures are ru_maxrss (coarse, see bench-helper.c).
	FLOOR=$("$HELPER" run -R -- "$HELPER" noop | awk '{ print $2 }')
}

# ---- nocache ---------------------------------------------------------

NC_TABLE=$T/table.nocache
: >"$NC_TABLE"

# nc_run KEY FILE_WATCHED DD...: cachewatch one dd; appends
# "wall peak final status" to $T/nc.KEY
nc_run() {
	key=$1 watched=$2; shift 2
	"$CACHEWATCH" -f "$watched" -- "$@" 2>"$T/cw.err" >/dev/null || :
	set -- $(sed -n 's/^cachewatch: exit=\([0-9]*\) wall=\([0-9.]*\) s.*/\1 \2/p' "$T/cw.err") \
		$(sed -n 's/.*peak_resident=[0-9]* pages (\([0-9.]*\) MiB).*final_resident=[0-9]* pages (\([0-9.]*\) MiB).*/\1 \2/p' "$T/cw.err")
	if [ $# -lt 4 ]; then
		say "   $key: cachewatch gave no report: $(tail -n 2 "$T/cw.err")"
		return
	fi
	echo "$2 $3 $4 $1" >>"$T/nc.$key"
	say "   $key: exit $1, $2 s, peak $3 MiB, final $4 MiB"
	[ "$1" = 0 ] || say "     $(grep -v '^ *file \|^ *meminfo\|^cachewatch' "$T/cw.err" | tail -n 1)"
}

nc_row() {	# nc_row KEY OPERATION DD-LABEL FLAGS
	f=$T/nc.$1
	[ -s "$f" ] || { echo "| $2 | $3 | \`$4\` | - | - | - | - |" >>"$NC_TABLE"; return; }
	st=$(awk '$4 != 0 { s = $4 } END { print s }' "$f")
	wall=$(awk '{ print $1 }' "$f" >"$f.w"; median "$f.w")
	peak=$(awk '{ print $2 }' "$f" >"$f.p"; median "$f.p")
	final=$(awk '{ print $3 }' "$f" >"$f.f"; median "$f.f")
	gbps=$(awk -v b="$NCSIZE" -v t="$wall" 'BEGIN { printf "%.2f\n", b / t / 1e9 }')
	[ -z "$st" ] || gbps="exit $st"
	echo "| $2 | $3 | \`$4\` | $(fmt "$wall") | $gbps | $(fmt "$peak" 0) | $(fmt "$final" 0) |" >>"$NC_TABLE"
}

# Writes from /dev/zero, then reads a file first dropped from the page
# cache (fdatasync + POSIX_FADV_DONTNEED by the helper), each under
# cachewatch watching that file.
nocache_section() {
	[ -n "$CACHEWATCH" ] || { say "bench: no cachewatch; skipping the nocache section"; return 0; }
	nmb=$((NCSIZE / 1048576))
	say "== nocache: $(human "$NCSIZE"), $BENCH_NOCACHE_RUNS run(s)"
	NCIN=$T/nc.in
	"$HELPER" mkfile "$NCIN" "$NCSIZE"
	sync	# start from a quiet disk
	ncw=zerobox ncr=zerobox
	[ -z "$GNU_DD" ] || ncw="zerobox gnu" ncr="zerobox gnu"
	rm -f "$T"/nc.w.* "$T"/nc.r.*
	r=1
	while [ "$r" -le "$BENCH_NOCACHE_RUNS" ]; do
		for key in $ncw plain; do
			rm -f "$OUT"
			case $key in
			zerobox) nc_run w.$key "$OUT" "$ZEROBOX" dd if=/dev/zero of="$OUT" bs=1M count=$nmb oflag=nocache ;;
			gnu) nc_run w.$key "$OUT" "$GNU_DD" if=/dev/zero of="$OUT" bs=1M count=$nmb oflag=nocache ;;
			plain) nc_run w.$key "$OUT" "$ZEROBOX" dd if=/dev/zero of="$OUT" bs=1M count=$nmb conv=fdatasync ;;
			esac
			rm -f "$OUT"
		done
		for key in $ncr plain; do
			"$HELPER" evict "$NCIN" >/dev/null
			case $key in
			zerobox) nc_run r.$key "$NCIN" "$ZEROBOX" dd if="$NCIN" of=/dev/null bs=1M iflag=nocache ;;
			gnu) nc_run r.$key "$NCIN" "$GNU_DD" if="$NCIN" of=/dev/null bs=1M iflag=nocache ;;
			plain) nc_run r.$key "$NCIN" "$ZEROBOX" dd if="$NCIN" of=/dev/null bs=1M ;;
			esac
		done
		r=$((r + 1))
	done
	h=$(human "$NCSIZE")
	nc_row w.zerobox "write $h" zerobox "if=/dev/zero bs=1M oflag=nocache"
	[ -z "$GNU_DD" ] || nc_row w.gnu "write $h" GNU "if=/dev/zero bs=1M oflag=nocache"
	nc_row w.plain "write $h" zerobox "if=/dev/zero bs=1M conv=fdatasync"
	nc_row r.zerobox "read $h, uncached" zerobox "of=/dev/null bs=1M iflag=nocache"
	[ -z "$GNU_DD" ] || nc_row r.gnu "read $h, uncached" GNU "of=/dev/null bs=1M iflag=nocache"
	nc_row r.plain "read $h, uncached" zerobox "of=/dev/null bs=1M"
	rm -f "$NCIN"
}

# ---- main ------------------------------------------------------------

START=$(date +%s)
say "bench: zerobox=$ZEROBOX contenders: $CONTENDERS; temp dir $T ($FSTYPE)"
say "bench: $(human "$SIZE") per run, $BENCH_RUNS runs; ceiling: ${CEILING:-none}; cachewatch: ${CACHEWATCH:-none}"

run_speed=0
echo "$SCENARIOS" | while read -r name rest; do
	[ -n "$name" ] && selected "$name" speed && echo yes
done | grep -q yes && run_speed=1
FLOOR=
[ "$run_speed" = 0 ] || speed_section
! selected rss || rss_section
! selected nocache || nocache_section

# The report, on stdout.
gnuv=$([ -z "$GNU_DD" ] || "$GNU_DD" --version 2>/dev/null | head -n 1)
bbv=$([ -z "$BUSYBOX" ] || "$BUSYBOX" 2>/dev/null | head -n 1 | cut -d' ' -f1-2)
echo "## dd benchmark"
echo
echo "- kernel: $(uname -r), $(nproc 2>/dev/null || echo ?) CPUs; date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- data: $(human "$SIZE") per run (bs=512: $(human "$SMALL")), runs per contender: $BENCH_RUNS," \
	"interleaved; medians; GB = 1e9 bytes; files on $FSTYPE"
echo "- contenders: zerobox dd${gnuv:+, $gnuv}${bbv:+, $bbv dd}"
if [ -s "$SPEED_TABLE" ]; then
	echo
	echo "| scenario | bs | zerobox GB/s | GNU GB/s | BusyBox GB/s | zerobox÷GNU | zerobox÷BusyBox | ceiling GB/s | zerobox % of ceiling | % by ceiling's own clock |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$SPEED_TABLE"
	echo
	echo "Ratios are speedups (other's median time ÷ zerobox's; >1: zerobox faster)."
	[ -z "$CEILING" ] || echo "Ceiling: the fastest method of ../shared/tools/ceiling.c for the same path and chunk," \
		"run once per method in every round, between the contenders, and timed by the same clock" \
		"as dd (the helper's, from fork to exit); its best median. Beside it, that method's median" \
		"by ceiling.c's own clock, which starts after its set-up (its pipes, its producer or" \
		"consumer, its buffer). Above 100%: zerobox moved more than bs per system call, or skipped" \
		"work that the ceiling does."
	case ${BENCH_PIPE_SZ:-} in
	'') echo "Pipes: every pipe around dd holds bs bytes (at least 64 KiB), as ceiling.c's do." ;;
	kernel) echo "Pipes: the kernel's default, 64 KiB, around dd and in ceiling.c." ;;
	*) echo "Pipes: $BENCH_PIPE_SZ bytes around dd and in ceiling.c." ;;
	esac
	if [ "$BENCH_OUTPUT" = inplace ]; then
		echo "A file output is overwritten in place (dd conv=notrunc, ceiling -K): in a VM with" \
			"free page reporting, memory that sat free for 2 s goes back to the host, and a new" \
			"file's page cache then costs a random 1x-4x. BENCH_OUTPUT=new times new files."
	else
		echo "A file output is a new file every run: rows writing one are the noisiest, since in a VM" \
			"with free page reporting, memory that sat free for 2 s is slow to fault in again."
	fi
fi
if [ -s "$RSS_TABLE" ]; then
	echo
	echo "Peak RSS in KiB (a failing run shows its exit status, and its RSS in parentheses):"
	echo
	echo "| dd operands | zerobox | GNU | BusyBox |"
	echo "|---|---|---|---|"
	cat "$RSS_TABLE"
	echo
	if [ "${FLOOR:-0}" -gt 0 ]; then
		echo "VmHWM read at exit (ptrace exit stop); for scale, a static no-op process: $FLOOR KiB."
	else
		echo "ru_maxrss from wait4 (ptrace refused): coarse, small values may read as 0."
	fi
	echo "FILE is the $(human "$SIZE") data file; OUT a new file; EMPTY_FIFO has a writer but no data."
fi
if [ -s "$NC_TABLE" ]; then
	echo
	echo "Page cache of the file written or read (cachewatch), runs: $BENCH_NOCACHE_RUNS:"
	echo
	echo "| operation | dd | flags | wall s | GB/s | peak MiB | final MiB |"
	echo "|---|---|---|---|---|---|---|"
	cat "$NC_TABLE"
fi
say "bench: done in $(($(date +%s) - START)) s"
