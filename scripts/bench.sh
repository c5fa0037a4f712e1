#!/bin/sh
# scripts/bench.sh - zerobox dd against GNU dd and BusyBox dd, in one run.
#
# Run from the repo root with `make bench`, or `sh scripts/bench.sh`.
# Progress goes to stderr; stdout gets markdown tables (docs/benchmarks.md):
#   1. throughput per scenario and block size: medians of interleaved runs
#      (zerobox, GNU, BusyBox, ceiling, then the next round in a rotated
#      order), ratios, the spread, and the kernel's best case for the same
#      path (scripts/bench-ceiling.c);
#   2. conv=sparse on an all-hole image and on a dense one;
#   3. peak RSS (KiB) for the large-bs cases;
#   4. page-cache footprint and wall time of oflag=nocache / iflag=nocache
#      (scripts/bench-cachewatch.c);
#   5. only when asked for (BENCH_ONLY=crossover): the crossover, per path
#      that makes a syscall per record, between zero-copy and read/write.
# The default run takes a few minutes on a 2-core machine.
#
# Needs a C compiler (for the helper and tools) and, for the crossover,
# make (it builds a variant of zerobox).  Variables (environment):
#   ZEROBOX=PATH        binary to test (default: ./zerobox of this repo)
#   GNU_DD=PATH         GNU dd (default /usr/bin/dd; empty: skip the column)
#   BUSYBOX=PATH        busybox binary, run as "busybox dd" (default
#                       /usr/bin/busybox; empty: skip the column)
#   BENCH_REF=PATH      another zerobox build (make bench REF=COMMIT builds
#                       one): it takes GNU dd's place in every table, in
#                       the same interleaved rounds, so that its column
#                       and the zerobox÷REF ratios compare two builds side
#                       by side; BusyBox is left out.  BENCH_REF_LABEL
#                       names it in the tables (default "ref")
#   BENCH_BS="..."      block sizes of sections 1 and 2 (default "default 512
#                       4K 64K 1M"; "default": no bs= at all, only for the
#                       scenarios with a pipe, where dd copies record by
#                       record at ibs=obs=512)
#   BENCH_MIB=N         MiB per run at bs >= 64K (default 256)
#   BENCH_SMALL_MIB=N   MiB per run below 64K and without bs= (default 16)
#   BENCH_RUNS=N        rounds: runs per contender and row (default 5)
#   BENCH_ONLY="..."    only these scenarios and sections, by name: any of
#                       zero-null zero-pipe file-null file-pipe pipe-pipe
#                       file-file pipe-file zero-file (or "speed" for all
#                       of them), sparse-hole sparse-dense (or "sparse"),
#                       "rss", "nocache", "crossover"
#   BENCH_PIPE_SZ=...   capacity of the pipes feeding and draining dd, the
#                       same for every contender and the ceiling: "kernel"
#                       (the default: the 64 KiB pipes users get), "bs"
#                       (bs bytes, at least 64 KiB), or a byte count
#   BENCH_CONSUMER=read|splice  what drains an output pipe: read(2) into a
#                       128 KiB buffer (the default, as `cat >/dev/null`),
#                       or splice to /dev/null (the cheapest reader)
#   BENCH_OUTPUT=inplace|new  how a file output is written: inplace (the
#                       default) overwrites a file of the same size, with
#                       conv=notrunc for dd and -K for the ceiling, so that
#                       the copy path is timed and not the page allocator
#                       (in a VM that hands free memory back to the host,
#                       fresh page cache costs a random 1x-4x); new: a new
#                       file every run, as a first write to a fresh file costs
#   BENCH_NOCACHE_MIB=N size of the nocache section's file (default 512)
#   BENCH_NOCACHE_RUNS=N  runs per row of the nocache section (default 1)
#   BENCH_DIR=DIR       where the temp dir goes (default /var/tmp); it must
#                       be on a real disk, not tmpfs
#   BENCH_CC=CC         compiler for the helper and tools (default:
#                       musl-gcc -static, else cc -static, else cc)
# The crossover (see crossover_section):
#   BENCH_CROSS_BS="..."  block sizes (default 512 1K 2K 4K 8K 16K 32K 64K 128K)
#   BENCH_CROSS_MIB=N     MiB per run (default 64)
#   BENCH_CROSS_RUNS=N    rounds (default 5)
#   BENCH_CROSS_PATHS="..." only these paths: pipe-file pipe-pipe pipe-null
#                       file-pipe zero-pipe
#   BENCH_NOZC=PATH     a zerobox built without zero-copy; default: built
#                       here from ZEROBOX's .config (BENCH_CONFIG=FILE, else
#                       the .config beside ZEROBOX, else build/.config) with
#                       FEATURE_ZEROCOPY (or its old name FEATURE_DD_SPLICE)
#                       turned off
#
# scripts/bench-helper.c (pipe producer and consumer, timer, peak RSS,
# cache warming and eviction), scripts/bench-ceiling.c and
# scripts/bench-cachewatch.c are compiled into the temp dir.  Times come
# from the helper's CLOCK_MONOTONIC, around fork and wait.
# POSIX sh (no arrays: word lists in strings, split with globbing off).

# shellcheck disable=SC2046,SC2086 # word lists are split on purpose
set -eu
set -f
LC_ALL=C
export LC_ALL

REPO=$(cd "$(dirname "$0")/.." && pwd)

# Two builds side by side: the reference build runs as "dd" through a
# symbolic link (zerobox picks the applet by that name), in GNU dd's
# place; the tables name it instead of GNU.
if [ -n "${BENCH_REF:-}" ] && [ -z "${BENCH_REF_LINK:-}" ]; then
	[ -x "$BENCH_REF" ] || { echo "bench: BENCH_REF=$BENCH_REF is not a program" >&2; exit 1; }
	link_dir=$(mktemp -d)
	ln -s "$(cd "$(dirname "$BENCH_REF")" && pwd)/$(basename "$BENCH_REF")" "$link_dir/dd"
	status=0
	BENCH_REF_LINK=$link_dir/dd GNU_DD=$link_dir/dd BUSYBOX='' \
		sh "$0" "$@" >"$link_dir/out" || status=$?
	sed "s/GNU/${BENCH_REF_LABEL:-ref}/g" "$link_dir/out"
	rm -rf "$link_dir"
	exit "$status"
fi
ZEROBOX=${ZEROBOX:-$REPO/zerobox}
GNU_DD=${GNU_DD-/usr/bin/dd}
BUSYBOX=${BUSYBOX-/usr/bin/busybox}
BENCH_BS=${BENCH_BS:-default 512 4K 64K 1M}
BENCH_MIB=${BENCH_MIB:-256}
BENCH_SMALL_MIB=${BENCH_SMALL_MIB:-16}
BENCH_NOCACHE_MIB=${BENCH_NOCACHE_MIB:-512}
BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_NOCACHE_RUNS=${BENCH_NOCACHE_RUNS:-1}
BENCH_ONLY=${BENCH_ONLY:-}
BENCH_DIR=${BENCH_DIR:-/var/tmp}
BENCH_OUTPUT=${BENCH_OUTPUT:-inplace}
BENCH_PIPE_SZ=${BENCH_PIPE_SZ:-kernel}
BENCH_CONSUMER=${BENCH_CONSUMER:-read}
CROSS_BS=${BENCH_CROSS_BS:-512 1K 2K 4K 8K 16K 32K 64K 128K}
CROSS_RUNS=${BENCH_CROSS_RUNS:-5}
CROSS_MIB=${BENCH_CROSS_MIB:-64}
CROSS_CHUNK=131072	# what cat writes per call

# Scenarios: name, input kind, output kind.  Kinds: zero = /dev/zero,
# null = /dev/null, file = a cached file (input) or a file in the temp dir
# (output), hole = an all-hole file, pipe = a pipe from the helper's
# producer, which writes bs-sized chunks (input), or to its consumer
# (output).  The sparse ones copy with conv=sparse.
SCENARIOS='
zero-null zero null
zero-pipe zero pipe
file-null file null
file-pipe file pipe
pipe-pipe pipe pipe
file-file file file
pipe-file pipe file
zero-file zero file
sparse-hole hole file
sparse-dense file file
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

for n in "$BENCH_RUNS" "$BENCH_NOCACHE_RUNS" "$BENCH_MIB" "$BENCH_SMALL_MIB" \
	"$BENCH_NOCACHE_MIB" "$CROSS_RUNS" "$CROSS_MIB"; do
	case $n in
	'' | *[!0-9]*) die "BENCH_RUNS, BENCH_*_RUNS and BENCH_*MIB are whole numbers" ;;
	esac
done
{ [ "$BENCH_RUNS" -ge 1 ] && [ "$CROSS_RUNS" -ge 1 ]; } || die "runs must be at least 1"
for n in "$BENCH_MIB" "$BENCH_SMALL_MIB" "$CROSS_MIB" "$BENCH_NOCACHE_MIB"; do
	[ "$n" -ge 1 ] || die "sizes must be at least 1 MiB"
done
case $BENCH_OUTPUT in
inplace | new) ;;
*) die "BENCH_OUTPUT is inplace or new" ;;
esac
case $BENCH_PIPE_SZ in
kernel | bs) ;;
'' | *[!0-9]*) die "BENCH_PIPE_SZ is kernel, bs, or a byte count" ;;
esac
case $BENCH_CONSUMER in
read | splice) ;;
*) die "BENCH_CONSUMER is read or splice" ;;
esac
for bs in $BENCH_BS $CROSS_BS; do
	case $bs in
	default | [1-9] | [1-9]*[0-9KM]) ;;
	*) die "block size $bs: a number with an optional K or M, or \"default\"" ;;
	esac
done
[ -x "$ZEROBOX" ] || die "no zerobox binary at $ZEROBOX (run make, or set ZEROBOX=)"
"$ZEROBOX" dd if=/dev/null of=/dev/null 2>/dev/null ||
	die "$ZEROBOX has no working dd applet"

SIZE=$((BENCH_MIB * 1048576))
SMALL=$((BENCH_SMALL_MIB * 1048576))
NCSIZE=$((BENCH_NOCACHE_MIB * 1048576))
CROSS_SIZE=$((CROSS_MIB * 1048576))
# human BYTES: "1 GiB", "51 MiB" (whole MiB in, one decimal out)
human() { awk -v b="$1" 'BEGIN {
	if (b >= 1073741824) printf "%g GiB\n", int(b / 107374182.4 + 0.5) / 10
	else printf "%g MiB\n", int(b / 104857.6 + 0.5) / 10 }'; }

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

# selected NAME [GROUP]: is it in BENCH_ONLY (or no filter)?  The
# crossover runs only when named.
selected() {
	if [ -z "$BENCH_ONLY" ]; then
		[ "$1" != crossover ]
		return
	fi
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

# build_c NAME: compile scripts/NAME.c to $T/NAME.  Static when it can:
# small and quick to start (and, should ptrace be refused, the helper's
# resident set before exec counts in ru_maxrss).
build_c() {
	src=$REPO/scripts/$1.c bin=$T/$1
	if [ -n "${BENCH_CC:-}" ]; then
		$BENCH_CC -O2 -static -o "$bin" "$src" 2>/dev/null ||
			$BENCH_CC -O2 -o "$bin" "$src"
		return
	fi
	for cc in musl-gcc cc; do
		command -v $cc >/dev/null 2>&1 || continue
		$cc -O2 -static -o "$bin" "$src" 2>/dev/null && return
	done
	cc -O2 -o "$bin" "$src"
}
for tool in bench-helper bench-ceiling bench-cachewatch; do
	build_c $tool || die "cannot compile scripts/$tool.c (a C compiler is required)"
done
HELPER=$T/bench-helper CEILING=$T/bench-ceiling CACHEWATCH=$T/bench-cachewatch

# run_dd WHO DDARG...: one run through the helper, with the helper options in
# $HOPTS and the pipe size in $psz; prints "SECONDS MAXRSS_KIB STATUS".
# dd's stderr goes to $T/err.
HOPTS='' psz=''
run_dd() {
	who=$1; shift
	case $who in
	zerobox) set -- "$ZEROBOX" dd "$@" ;;
	nozc) set -- "$NOZC" dd "$@" ;;
	gnu) set -- "$GNU_DD" "$@" ;;
	busybox) set -- "$BUSYBOX" dd "$@" ;;
	esac
	BENCH_PIPE_SZ=$psz "$HELPER" run $HOPTS -- "$@" 2>"$T/err" </dev/null
}

median() {	# median FILE: of the numbers in FILE, one a line; empty if none
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# spread FILE: (max - min) / median of the times in FILE, in percent
spread() {
	sm=$(median "$1")
	sort -g "$1" | awk -v m="$sm" 'NR == 1 { lo = $1 } { hi = $1 }
		END { if (NR && m > 0) printf "%.0f%%\n", 100 * (hi - lo) / m; else print "-" }'
}

bs_bytes() {
	case $1 in
	default) echo 512 ;;
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*) echo "$1" ;;
	esac
}

label() {
	case $1 in
	zero) echo /dev/zero ;;
	null) echo /dev/null ;;
	hole) echo "all-hole file" ;;
	*) echo "$1" ;;
	esac
}

# calc PROGRAM NAME=VALUE...: the awk BEGIN PROGRAM with those variables,
# or "-" when a value is empty (a median of no runs, a missing contender):
# the one place the numbers below turn a gap into "-".
# The values are numbers, so a word list holds them.
calc() {
	calc_prog=$1 calc_vars=''; shift
	for calc_v in "$@"; do
		[ -n "${calc_v#*=}" ] || { echo -; return 0; }
		calc_vars="$calc_vars -v $calc_v"
	done
	awk $calc_vars "BEGIN { $calc_prog }"
}
# fmt X [DIGITS]: number, or "-" when empty
fmt() { calc 'printf "%.*f\n", d, x' x="$1" d="${2:-2}" || echo -; }
# ratio A B: A / B, or "-"
ratio() { calc 'if (b > 0) printf "%.2f\n", a / b; else print "-"' a="$1" b="$2"; }
# gbps BYTES SECONDS: GB/s, or "-"
gbps() { calc 'printf "%.4f\n", b / t / 1e9' b="$1" t="$2"; }

# run_ceiling BS OPTS IN OUT: one run of each of bench-ceiling's methods,
# each timed by the helper as dd is (fork to exit), with the same producer
# and consumer as dd's, on fds 3 and 4 (IN /dev/fd/3, OUT /dev/fd/4), so
# that the kernel schedules them alike; appends "METHOD GB/s OWN_GB/s" to
# $T/ceiling.runs (OWN: the tool's own clock, which starts after its
# set-up) and prints the GB/s on one line.  A method the kernel refuses
# for this path (EINVAL@copy_file_range...) is not tried again.
run_ceiling() {
	cbs=$1 cop=$2 cin=$3 cout=$4 cline=
	methods="rw splice sendfile cfr"
	[ "$cin" = /dev/zero ] && [ "$cout" = /dev/fd/4 ] && methods="$methods vmsplice"
	for m in $methods; do
		grep -qx "$m" "$T/ceiling.refused" && continue
		BENCH_PIPE_SZ=$psz "$HELPER" run -f $HOPTS -- "$CEILING" -b "$cbs" $cop "$m" "$cin" "$cout" \
			>"$T/ceiling.txt" 2>"$T/ceiling.err" </dev/null
		# Line 1: the tool's "METHOD BYTES SECONDS STATUS"; line 2:
		# the helper's "SECONDS MAXRSS STATUS".
		res=$(awk 'NR == 1 { bytes = $2; own = $3; st = $4 }
			NR == 2 { secs = $1 }
			END { if (st == "ok" && secs > 0 && own > 0)
				printf "%.4f %.4f\n", bytes / secs / 1e9, bytes / own / 1e9
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
HOLE=$T/hole
HOLE_SMALL=$T/hole.small
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

# pipe_size BS: the capacity of the pipes around dd for this bs, or empty
# for the kernel's default
pipe_size() {
	case $BENCH_PIPE_SZ in
	kernel) ;;
	bs) p=$(bs_bytes "$1"); [ "$p" -ge 65536 ] || p=65536; echo "$p" ;;
	*) echo "$BENCH_PIPE_SZ" ;;
	esac
}

# rotate WORD...: the words with the first one moved last.  Both timing
# loops start each round one later in their list of contenders, so that
# nobody always runs right after the same neighbour.
rotate() { rotate_first=$1; shift; echo "$* $rotate_first"; }

# bench_case NAME IN OUT BS: all contenders, interleaved, plus the ceiling.
bench_case() {
	name=$1 in=$2 out=$3 bs=$4
	bbs=$(bs_bytes "$bs")
	bytes=$SIZE infile=$DATA
	[ "$in" != hole ] || infile=$HOLE
	if [ "$bbs" -lt 65536 ]; then
		bytes=$SMALL infile=$DATA_SMALL
		[ "$in" != hole ] || infile=$HOLE_SMALL
	fi
	nblocks=$((bytes / bbs))
	if [ ! -f "$infile" ]; then
		case $in in
		hole) : >"$infile"; truncate -s "$bytes" "$infile" ;;
		*) "$HELPER" mkfile "$infile" "$bytes" ;;
		esac
	fi

	psz=$(pipe_size "$bs")
	# A pipe's producer writes bs-sized chunks, as the ceiling reads
	# them; without bs=, it writes as cat does.
	chunk=$bbs
	[ "$bs" != default ] || chunk=$CROSS_CHUNK
	HOPTS='' ddargs="bs=$bs" cin='' cout='' copts="-P ${psz:-65536}"
	[ "$bs" != default ] || ddargs=
	case $in in
	zero) ddargs="$ddargs if=/dev/zero count=$nblocks" cin=/dev/zero copts="$copts -n $bytes" ;;
	file | hole) ddargs="$ddargs if=$infile" cin=$infile ;;
	pipe) HOPTS="-p $infile -b $chunk" cin=/dev/fd/3 ;;
	esac
	# One conv= operand, added last: a symbol appended to ddargs would
	# glue onto whatever operand came before it.
	conv=
	case $name in sparse-*) conv=sparse ;; esac
	# An all-hole input writes nothing: a new file every time.
	inplace=$BENCH_OUTPUT
	[ "$in" != hole ] || inplace=new
	case $out in
	null) ddargs="$ddargs of=/dev/null" cout=/dev/null ;;
	file)
		ddargs="$ddargs of=$OUT" cout=$OUT
		if [ "$inplace" = inplace ]; then
			conv="${conv:+$conv,}notrunc"
			copts="$copts -K"
			"$HELPER" mkfile "$OUT" "$bytes"
		fi ;;
	pipe)
		HOPTS="$HOPTS -c" cout=/dev/fd/4
		[ "$BENCH_CONSUMER" = splice ] || HOPTS="$HOPTS -r" ;;
	esac
	[ -z "$conv" ] || ddargs="$ddargs conv=$conv"
	desc="$(label "$in") → $(label "$out")"
	case $name in sparse-*) desc="$desc, conv=sparse" ;; esac
	say "== $desc, bs=$bs, $(human "$bytes"), $BENCH_RUNS runs: dd $ddargs"

	for who in $CONTENDERS; do
		: >"$T/times.$who"
		: >"$T/fail.$who"
	done
	: >"$T/ceiling.runs"
	: >"$T/ceiling.refused"
	# conv=sparse: BusyBox 1.35 has none, and no syscall of the kernel's
	# does it, so there is no ceiling either.
	runners="$CONTENDERS ceiling"
	case $name in sparse-*) runners=$(echo "$CONTENDERS" | sed 's/ busybox//') ;; esac
	# Each round starts one later in this list, so that nobody always
	# runs right after the same neighbour (a file freed by the one before
	# is slow to allocate again once the host has reclaimed it).
	order=$runners
	for r in $(seq "$BENCH_RUNS"); do
		line="   run $r:"
		for who in $order; do
			# Cached input before every run: some VMs reclaim idle
			# page cache.  Costs little when it is still cached.
			[ "$in" = zero ] || "$HELPER" warm "$infile"
			[ "$inplace" = inplace ] || rm -f "$OUT"
			if [ "$who" = ceiling ]; then
				line="$line ceiling $(run_ceiling "$bbs" "$copts" "$cin" "$cout")"
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
		order=$(rotate $order)
		say "$line"
	done
	# Each run was to write $OUT: a file beside it means its operands
	# were not what the row says.
	stray=$(find "$T" -maxdepth 1 -name "${OUT##*/}?*")
	[ -z "$stray" ] || die "a run wrote $stray, not $OUT: dd $ddargs"
	rm -f "$OUT"

	# GB/s = bytes / median seconds / 1e9
	for who in $CONTENDERS; do
		m=$(median "$T/times.$who")
		# shellcheck disable=SC2034 # read by the eval
		g=$(gbps "$bytes" "$m")
		[ "$g" != - ] || g=
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

	pct=-
	if [ -n "$ceil" ] && [ -n "$gbps_zerobox" ]; then
		pct=$(awk -v z="$gbps_zerobox" -v c="$ceil" 'BEGIN { printf "%.0f%%\n", 100 * z / c }')
	fi
	ceilcell=-
	[ -z "$ceil" ] || ceilcell="$(fmt "$ceil") ($ceilm; own clock $(fmt "$ceilown"))"
	gnucell=- bbcell=- sp="$(spread "$T/times.zerobox")"
	case " $CONTENDERS " in *" gnu "*) gnucell=$(cell gnu) sp="$sp / $(spread "$T/times.gnu")" ;; esac
	case " $runners " in *" busybox "*) bbcell=$(cell busybox) ;; esac
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$desc" "$bs" \
		"$(cell zerobox)" "$gnucell" "$bbcell" \
		"$(ratio "$med_gnu" "$med_zerobox")" "$(ratio "$med_busybox" "$med_zerobox")" \
		"$sp" "$ceilcell" "$pct" >>"$SPEED_TABLE"
	say "   median GB/s: zerobox $(cell zerobox), GNU $gnucell, BusyBox $bbcell; spread $sp;" \
		"ceiling $ceilcell; zerobox $pct of it"
}

# has_pipe IN OUT: does the scenario read or write a pipe?
has_pipe() { [ "$1" = pipe ] || [ "$2" = pipe ]; }

speed_section() {
	while read -r name in out <&3; do
		[ -n "$name" ] || continue
		case $name in
		sparse-*) selected "$name" sparse || continue ;;
		*) selected "$name" speed || continue ;;
		esac
		for bs in $BENCH_BS; do
			[ "$bs" != default ] || has_pipe "$in" "$out" || continue
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

# nc_run KEY FILE_WATCHED DD...: watch one dd's page cache; appends
# "wall peak final status" to $T/nc.KEY
nc_run() {
	key=$1 watched=$2; shift 2
	rm -f "$T/cw.report"
	"$CACHEWATCH" -o "$T/cw.report" -f "$watched" -- "$@" 2>"$T/cw.err" >/dev/null || :
	set -- $(cat "$T/cw.report" 2>/dev/null)
	if [ $# -lt 4 ]; then
		say "   $key: bench-cachewatch gave no report: $(tail -n 2 "$T/cw.err")"
		return
	fi
	echo "$2 $3 $4 $1" >>"$T/nc.$key"
	say "   $key: exit $1, $2 s, peak $3 MiB, final $4 MiB"
	[ "$1" = 0 ] || say "     $(tail -n 1 "$T/cw.err")"
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
	nmb=$((NCSIZE / 1048576))
	say "== nocache: $(human "$NCSIZE"), $BENCH_NOCACHE_RUNS run(s)"
	NCIN=$T/nc.in
	"$HELPER" mkfile "$NCIN" "$NCSIZE"
	sync	# start from a quiet disk
	ncw=zerobox ncr=zerobox
	[ -z "$GNU_DD" ] || ncw="zerobox gnu" ncr="zerobox gnu"
	rm -f "$T"/nc.w.* "$T"/nc.r.*
	for r in $(seq "$BENCH_NOCACHE_RUNS"); do
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

# ---- crossover -------------------------------------------------------

# The same source as $ZEROBOX, built with the zero-copy switch off, so that
# its record loop (read/write) faces its zero-copy paths.  The switch is
# whichever of FEATURE_ZEROCOPY and FEATURE_DD_SPLICE the .config has.
NOZC=${BENCH_NOZC:-}
NOZC_DESC="$NOZC"
build_nozc() {
	[ -z "$NOZC" ] || return 0
	cfg=${BENCH_CONFIG:-$(dirname "$ZEROBOX")/.config}
	[ -f "$cfg" ] || cfg=$REPO/build/.config
	[ -f "$cfg" ] || die "no .config for $ZEROBOX (set BENCH_CONFIG= or BENCH_NOZC=)"
	sw=$(sed -n 's/^CONFIG_\(FEATURE_ZEROCOPY\|FEATURE_DD_SPLICE\)=y$/\1/p' "$cfg" | head -n 1)
	[ -n "$sw" ] || die "$cfg has no zero-copy switch turned on (FEATURE_ZEROCOPY or FEATURE_DD_SPLICE)"
	mkdir -p "$T/nozc"
	sed "s/^CONFIG_$sw=y\$/# CONFIG_$sw is not set/" "$cfg" >"$T/nozc/.config"
	say "bench: building $cfg with $sw off, in $T/nozc"
	make -C "$REPO" -s -j2 O="$T/nozc" all >"$T/nozc.log" 2>&1 ||
		{ cat "$T/nozc.log" >&2; die "cannot build the variant without $sw"; }
	! grep -q "^CONFIG_$sw=y" "$T/nozc/.config" || die "the build turned $sw back on"
	NOZC=$T/nozc/zerobox
	NOZC_DESC="the same source and .config with $sw off"
}

# Paths that make one or more syscalls per record in some regime:
# pipe input with bs= given (a splice per record), and a file or
# /dev/zero into a pipe (the record loop at obs <= PIPE_BUF, coalesced
# above it).
CROSS_PATHS='
pipe-file pipe file
pipe-pipe pipe pipe
pipe-null pipe null
file-pipe file pipe
zero-pipe zero pipe
'
CROSS_TABLE=$T/table.cross
CROSS_PICK=$T/table.pick
: >"$CROSS_TABLE"
: >"$CROSS_PICK"

# cross_args IN OUT BS: sets ddargs and HOPTS for one crossover run
cross_args() {
	HOPTS='' ddargs="bs=$3"
	case $1 in
	zero) ddargs="$ddargs if=/dev/zero count=$((CROSS_SIZE / $(bs_bytes "$3")))" ;;
	file) ddargs="$ddargs if=$CROSS_DATA" ;;
	pipe) HOPTS="-p $CROSS_DATA -b $CROSS_CHUNK" ;;
	esac
	case $2 in
	null) ddargs="$ddargs of=/dev/null" ;;
	file) ddargs="$ddargs of=$OUT conv=notrunc" ;;
	pipe) HOPTS="$HOPTS -c -r" ;;
	esac
}

# One path, every block size, three contenders.  Rounds are outermost,
# so that drift on the shared machine touches every cell alike.
cross_path() {
	in=$2 out=$3
	desc="$(label "$in") → $(label "$out")"
	# Rotated each round, as in bench_case.
	order="zerobox nozc${GNU_DD:+ gnu}"
	psz=
	[ "$out" != file ] || "$HELPER" mkfile "$OUT" "$CROSS_SIZE"
	say "== crossover $desc, bs $CROSS_BS: $(human "$CROSS_SIZE"), $CROSS_RUNS rounds"
	for bs in $CROSS_BS; do
		for who in $order; do
			: >"$T/x.$bs.$who"
			: >"$T/x.$bs.$who.cpu"
			: >"$T/x.$bs.$who.ddcpu"
		done
	done
	for r in $(seq "$CROSS_RUNS"); do
		line="   round $r:"
		for bs in $CROSS_BS; do
			cross_args "$in" "$out" "$bs"
			for who in $order; do
				[ "$in" = zero ] || "$HELPER" warm "$CROSS_DATA"
				set -- $(run_dd "$who" $ddargs)
				if [ "${3:-x}" = 0 ]; then
					echo "$1" >>"$T/x.$bs.$who"
					echo "$5" >>"$T/x.$bs.$who.cpu"
					echo "$4" >>"$T/x.$bs.$who.ddcpu"
				else
					line="$line $who bs=$bs FAILED(${3:-?}: $(tail -n 1 "$T/err"))"
				fi
			done
			order=$(rotate $order)
		done
		say "$line done"
	done
	rm -f "$OUT"
	pick='' pick_dd='' pick_cpu=''
	for bs in $CROSS_BS; do
		mz=$(median "$T/x.$bs.zerobox") mn=$(median "$T/x.$bs.nozc") mg=''
		cz=$(median "$T/x.$bs.zerobox.cpu") cn=$(median "$T/x.$bs.nozc.cpu") cg=''
		dz=$(median "$T/x.$bs.zerobox.ddcpu") dn=$(median "$T/x.$bs.nozc.ddcpu") dg=''
		sp="$(spread "$T/x.$bs.zerobox") / $(spread "$T/x.$bs.nozc")"
		if [ -n "$GNU_DD" ]; then
			mg=$(median "$T/x.$bs.gnu") cg=$(median "$T/x.$bs.gnu.cpu")
			dg=$(median "$T/x.$bs.gnu.ddcpu")
			sp="$sp / $(spread "$T/x.$bs.gnu")"
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s |\n' "$desc" "$bs" \
			"$(cross_gbps "$mz")" "$(cross_gbps "$mn")" "$(cross_gbps "$mg")" \
			"$(ratio "$mn" "$mz")" "$(ratio "$mg" "$mz")" "$sp" \
			"$(msec "$dz")" "$(msec "$dn")" "$(msec "$dg")" \
			"$(msec "$cz")" "$(msec "$cn")" "$(msec "$cg")" >>"$CROSS_TABLE"
		say "   $(tail -n 1 "$CROSS_TABLE")"
		pick=$(next_pick "$pick" "$bs" "$mz" "$mn")
		pick_dd=$(next_pick "$pick_dd" "$bs" "$dz" "$dn")
		pick_cpu=$(next_pick "$pick_cpu" "$bs" "$cz" "$cn")
	done
	echo "| $desc | ${pick:-none up to $bs} | ${pick_dd:-none up to $bs} | ${pick_cpu:-none up to $bs} |" >>"$CROSS_PICK"
}

cross_gbps() { g=$(gbps "$CROSS_SIZE" "$1"); if [ "$g" = - ]; then echo -; else fmt "$g"; fi; }
msec() { calc 'printf "%.0f\n", s * 1000' s="$1"; }

# next_pick PICK BS ZEROCOPY RECORDLOOP: the smallest bs from which zero-copy
# costs no more than the record loop, at this bs and every larger one, as
# the sizes come in ascending order
next_pick() {
	if [ -n "$3" ] && [ -n "$4" ] && awk -v z="$3" -v n="$4" 'BEGIN { exit !(z <= n) }'; then
		echo "${1:-$2}"
	fi
}

crossover_section() {
	build_nozc
	CROSS_DATA=$T/cross.data
	"$HELPER" mkfile "$CROSS_DATA" "$CROSS_SIZE"
	while read -r name in out <&3; do
		[ -n "$name" ] || continue
		case " ${BENCH_CROSS_PATHS:-$name} " in
		*" $name "*) cross_path "$name" "$in" "$out" ;;
		esac
	done 3<<EOF
$CROSS_PATHS
EOF
	rm -f "$CROSS_DATA"
}

# ---- main ------------------------------------------------------------

START=$(date +%s)
say "bench: zerobox=$ZEROBOX contenders: $CONTENDERS; temp dir $T ($FSTYPE)"
say "bench: $(human "$SIZE") per run ($(human "$SMALL") below bs=64K), $BENCH_RUNS rounds;" \
	"pipes: $BENCH_PIPE_SZ; pipe consumer: $BENCH_CONSUMER"

run_speed=0
echo "$SCENARIOS" | while read -r name rest; do
	[ -n "$name" ] && { selected "$name" speed || selected "$name" sparse; } && echo yes
done | grep -q yes && run_speed=1
FLOOR=
[ "$run_speed" = 0 ] || speed_section
! selected rss || rss_section
! selected nocache || nocache_section
! selected crossover || crossover_section

# The report, on stdout.
gnuv=$([ -z "$GNU_DD" ] || "$GNU_DD" --version 2>/dev/null | head -n 1)
bbv=$([ -z "$BUSYBOX" ] || "$BUSYBOX" 2>/dev/null | head -n 1 | cut -d' ' -f1-2)
echo "## dd benchmark"
echo
echo "- kernel: $(uname -r), $(nproc 2>/dev/null || echo ?) CPUs; date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- contenders: zerobox dd${gnuv:+, $gnuv}${bbv:+, $bbv dd}; files on $FSTYPE"
if [ -s "$SPEED_TABLE" ]; then
	echo "- throughput: $(human "$SIZE") per run at bs >= 64K, $(human "$SMALL") below and without bs=;" \
		"$BENCH_RUNS interleaved rounds; medians; GB = 1e9 bytes"
	echo
	echo "| scenario | bs | zerobox GB/s | GNU GB/s | BusyBox GB/s | zerobox÷GNU | zerobox÷BusyBox | spread zerobox / GNU | ceiling GB/s | zerobox % of ceiling |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$SPEED_TABLE"
	echo
	echo "Ratios are speedups (the other's median time ÷ zerobox's; >1: zerobox faster)." \
		"Spread: (slowest − fastest) ÷ median of the runs' times."
	echo "bs \"default\": no bs= operand (ibs=obs=512); a pipe's producer then writes 128 KiB at a time, as cat does," \
		"and otherwise bs bytes at a time."
	echo "Ceiling: the fastest method of scripts/bench-ceiling.c (read/write, splice, sendfile," \
		"copy_file_range, vmsplice) for the same path and chunk, run once per method in every round," \
		"between the contenders, and timed by the same clock as dd (the helper's, from fork to exit);" \
		"its best median, and beside it that method's median by the tool's own clock, which leaves" \
		"out its set-up. Above 100%: zerobox moved more than bs per system call, or skipped work" \
		"that the ceiling does. conv=sparse has no ceiling."
	case $BENCH_PIPE_SZ in
	kernel) echo "Pipes: the kernel's default (64 KiB) around dd, as users get; dd may resize them itself." ;;
	bs) echo "Pipes: every pipe around dd holds bs bytes (at least 64 KiB)." ;;
	*) echo "Pipes: $BENCH_PIPE_SZ bytes around dd." ;;
	esac
	case $BENCH_CONSUMER in
	read) echo "An output pipe is drained by read(2) into a 128 KiB buffer, as \`cat >/dev/null\` does." ;;
	splice) echo "An output pipe is drained by splice to /dev/null." ;;
	esac
	if [ "$BENCH_OUTPUT" = inplace ]; then
		echo "A file output is overwritten in place (dd conv=notrunc, ceiling -K): in a VM with" \
			"free page reporting, memory that sat free for 2 s goes back to the host, and a new" \
			"file's page cache then costs a random 1x-4x. BENCH_OUTPUT=new times new files." \
			"The all-hole input writes nothing, so it gets a new file every run."
	else
		echo "A file output is a new file every run: rows writing one are the noisiest, since in a VM" \
			"with free page reporting, memory that sat free for 2 s is slow to fault in again."
	fi
fi
if [ -s "$CROSS_TABLE" ]; then
	echo
	echo "Crossover: $(human "$CROSS_SIZE") per run, $CROSS_RUNS interleaved rounds, medians; the kernel's" \
		"default pipes; the input pipe is fed $CROSS_CHUNK bytes per write (as cat writes), the output" \
		"pipe drained by read(2) of 128 KiB; a file output is overwritten in place (conv=notrunc)." \
		"\"no zero-copy\": $NOZC_DESC." \
		"Spread: (slowest − fastest) ÷ median of the times (zerobox / no zero-copy / GNU)." \
		"CPU: median user+system time of dd alone, and of dd, producer and consumer together" \
		"(zerobox / no zero-copy / GNU)."
	echo
	echo "| path | bs | zerobox GB/s | no zero-copy GB/s | GNU GB/s | zerobox÷no-zc | zerobox÷GNU | spread | CPU ms, dd | CPU ms, pipeline |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$CROSS_TABLE"
	echo
	echo "The smallest bs from which zero-copy costs no more than the record loop, there and at every larger bs," \
		"by median wall time, by dd's CPU time, and by the CPU time of the whole pipeline (CPU time is" \
		"what waiting for a CPU on a busy machine does not inflate):"
	echo
	echo "| path | zero-copy from bs, by wall time | by dd's CPU | by the pipeline's CPU |"
	echo "|---|---|---|---|"
	cat "$CROSS_PICK"
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
	echo "Page cache of the file written or read (scripts/bench-cachewatch.c), runs: $BENCH_NOCACHE_RUNS:"
	echo
	echo "| operation | dd | flags | wall s | GB/s | peak MiB | final MiB |"
	echo "|---|---|---|---|---|---|---|"
	cat "$NC_TABLE"
fi
say "bench: done in $(($(date +%s) - START)) s"
