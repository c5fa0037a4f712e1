#!/bin/sh
# bench_unpack.sh - zerobox's decompressors against the reference tools
# and BusyBox, side by side in one run (docs/unpack.md, "Speed").
#
#   make bench-unpack            (or: ZEROBOX=PATH sh scripts/bench_unpack.sh)
#
# The input is 200 MiB in four equal parts: text (documentation and
# sources under /usr/share and /usr/lib/python3), binaries (/usr/bin
# and the shared libraries), an ext4 image (mkfs.ext4 -d of
# /usr/share/locale, or zeros where mkfs.ext4 is missing) and random
# bytes.  It is made once and kept in BENCH_DIR, with its compressed
# forms.  Each row times zerobox against one other tool with farm-bench
# (the two commands in turn, A B A B ..., and the ratio taken pair by
# pair), or with hyperfine where farm-bench is missing; the ratio is of
# the medians of wall time (below 1: zerobox is faster).  "pipe": the
# output is read through a pipe as it comes (farm-bench's own reader,
# or cat); "/dev/null": written there.  Peak RSS is /usr/bin/time's.
#
# Environment:
#   ZEROBOX=PATH       the binary (default ./zerobox)
#   BENCH_DIR=DIR      where the input is kept (default /var/tmp/zerobox-bench-unpack)
#   BENCH_RUNS=N       pairs of runs per row (default 7)
#   BENCH_MIB=N        the input's size (default 200, a multiple of 4)
#   BUSYBOX=PATH       BusyBox (default: busybox in PATH; empty: no column)
#
# Prints a markdown table on stdout; progress on stderr.  A format adds
# its rows at the end (see "gzip" below).
set -eu

ZEROBOX=${ZEROBOX:-$(pwd)/zerobox}
BENCH_DIR=${BENCH_DIR:-/var/tmp/zerobox-bench-unpack}
RUNS=${BENCH_RUNS:-7}
MIB=${BENCH_MIB:-200}
BUSYBOX=${BUSYBOX-$(command -v busybox || true)}
PART=$((MIB / 4))

say() { echo "bench_unpack: $*" >&2; }

mkdir -p "$BENCH_DIR"
cd "$BENCH_DIR"

# ---- the input ----------------------------------------------------------

make_input() {
	say "making a $MIB MiB input in $BENCH_DIR"
	find /usr/share/doc /usr/share/common-licenses /usr/lib/python3 \
		-type f \( -name '*.py' -o -name '*.txt' -o -name copyright \
		-o -name '*.html' \) 2>/dev/null | LC_ALL=C sort |
		xargs cat 2>/dev/null | head -c ${PART}M > text.part || true
	ls /usr/bin/* /usr/lib/x86_64-linux-gnu/*.so* /usr/lib/*/*.so* 2>/dev/null |
		LC_ALL=C sort -u | xargs cat 2>/dev/null | head -c ${PART}M > bin.part || true
	rm -f fs.part
	truncate -s ${PART}M fs.part
	mkfs.ext4 -q -F -d /usr/share/locale fs.part >/dev/null 2>&1 ||
		say "no mkfs.ext4: the image part is zeros"
	head -c ${PART}M /dev/urandom > random.part
	cat text.part bin.part fs.part random.part > input
	rm -f text.part bin.part fs.part random.part input.*
}
[ -f input ] && [ "$(wc -c < input)" -eq $((MIB << 20)) ] || make_input

# ---- timing -------------------------------------------------------------

# median_ratio A_CMD B_CMD: "A_median B_median ratio" of wall seconds,
# A and B shell command strings.
if command -v farm-bench > /dev/null 2>&1; then
	median_ratio() {
		farm-bench -n "$RUNS" --timeout 3000 --vs "sh -c '$2'" -- sh -c "$1" 2>&1 |
			awk '$1 == "A" && $2 == "wall" { a = $4 }
			     $1 == "B" && $2 == "wall" { b = $4 }
			     $1 == "A/B" && $2 == "wall" { r = $4 }
			     END { printf "%s %s %s\n", a, b, r }'
	}
else
	median_ratio() {
		hyperfine -N -r "$RUNS" --export-json times.json "sh -c '$1'" "sh -c '$2'" \
			> /dev/null 2>&1
		python3 -c 'import json; r = json.load(open("times.json"))["results"]
a, b = r[0]["median"], r[1]["median"]; print("%.3f %.3f %.3f" % (a, b, a / b))'
	}
fi

# rss_kib CMD: its peak RSS (not through sh, whose own peak would count).
# shellcheck disable=SC2086 # CMD: words without blanks
rss_kib() { /usr/bin/time -f %M $1 2>&1 >/dev/null | tail -n 1; }

# row FILE LABEL ZB_CMD REF_NAME REF_CMD [BB_CMD]: one line of the table
# per output (pipe, /dev/null), each command reading FILE.
row() {
	_file=$1 _label=$2 _zb=$3 _refname=$4 _ref=$5 _bb=${6:-}
	for _out in pipe /dev/null; do
		if [ $_out = pipe ]; then _to=" | cat > /dev/null"; else _to=" > /dev/null"; fi
		say "$_label, to $_out: zerobox against $_refname"
		set -- $(median_ratio "$_zb $_file$_to" "$_ref $_file$_to")
		_line="| $_label | $_out | $1 | $_refname $2 | **$3** |"
		if [ -n "$_bb" ]; then
			say "$_label, to $_out: zerobox against busybox"
			set -- $(median_ratio "$_zb $_file$_to" "$_bb $_file$_to")
			_line="$_line busybox $2 | **$3** |"
		else
			_line="$_line | |"
		fi
		echo "$_line"
	done
	_line="| $_label | peak RSS, KiB | $(rss_kib "$_zb $_file") | $_refname $(rss_kib "$_ref $_file") | |"
	[ -z "$_bb" ] || _line="$_line busybox $(rss_kib "$_bb $_file") | |"
	echo "$_line"
}

echo "$MIB MiB input ($(basename "$BENCH_DIR")), $RUNS pairs a row: medians of wall seconds, and the median of the pairs' ratios zerobox / other"
echo
echo "| input | output | zerobox | other | ratio | busybox | ratio |"
echo "|---|---|---|---|---|---|---|"

# ---- gzip -----------------------------------------------------------------

[ -f input.gz ] || { say "gzip -6"; gzip -6 -c input > input.gz; }
row input.gz "gzip -6" "$ZEROBOX zcat" "gzip -dc" "gzip -dc" ${BUSYBOX:+"$BUSYBOX zcat"}
