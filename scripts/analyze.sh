#!/bin/sh
# analyze.sh [BUILD_DIR] - static analysis of libbb/ and applets/ with
# cppcheck and clang-tidy (make analyze).  Prints every finding that is
# not justified below and exits 1 if there is any, 0 otherwise; a
# missing tool is reported and skipped (exit 0 only if the other ran).
#
# BUILD_DIR (default build) provides include/autoconf.h and
# include/applet_tables.h, which make analyze generates first.
#
# Adding a suppression: prefer fixing the code.  If the finding is a
# false positive or the code is right on purpose, add "FILE CHECK  # why"
# to SUPPRESS below (FILE may be '*'); keep it per file, so that the same
# check elsewhere is still reported.
set -u
O=${1:-build}
cd "$(dirname "$0")/.." || exit 2
JOBS=$(nproc 2>/dev/null || echo 2)
SRCS=$(find libbb applets -name '*.c' ! -name '.*' | LC_ALL=C sort)
CFLAGS="-std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -I$O/include -Ilibbb"

# clang-tidy checks: all of bugprone-* and cert-*, minus:
#   bugprone-easily-swappable-parameters  a naming heuristic: it flags
#       every function taking two ints or two pointers (fd pairs, buf and
#       size), which is most of an I/O library; no bug to find there.
#   cert-dcl03-c, cert-dcl16-c, cert-*-cpp  C++ or style duplicates.
TIDY_CHECKS='-*,bugprone-*,cert-*,-bugprone-easily-swappable-parameters,-cert-dcl16-c,-cert-*-cpp'

# cppcheck: warnings, style, performance and portability.
CPPCHECK_ENABLE=warning,style,performance,portability

SUPPRESS='
* variableScope                    # project style: declarations open the block
libbb/human.c knownConditionTrueFalse        # value-flow false positive: ndigits > 1 is reachable (%g with several digits)
libbb/copy_fd.c knownConditionTrueFalse      # false positive: n is RW_CHUNK or limit, both above 0
libbb/quote.c redundantContinue              # "continue" is the empty body of a scanning loop
applets/dd/jobs/bmap.c redundantContinue             # "continue" is the empty body of a reading loop
applets/ddrescue/rescue.c unreachableCode     # raise() returns when the signal is blocked
applets/ddrescue/rescue.c cert-err33-c        # signal(SIG_DFL)/raise() before dying: nothing to do on failure
applets/ddrescue/mapfile.c bugprone-not-null-terminated-result  # ".tmp" is copied with its terminator
applets/dd/report.c cert-err33-c             # raise() to die by the signal: nothing to do on failure
applets/dd/report.c unreachableCode          # raise() returns when the signal is blocked
applets/dd/records.c clarifyCalculation         # "conv & MASK ? x : y": & binds first, as intended
applets/truncate.c clarifyCalculation        # "a % b ? x : y": as intended
libbb/format.c bugprone-branch-clone         # va_arg(long) and va_arg(long long): same code only on LP64
libbb/parse_size.c bugprone-branch-clone     # two causes of overflow, kept apart for the reader
libbb/human.c bugprone-narrowing-conversions # ASCII digits and letters stored in char
applets/dd/operands.c bugprone-narrowing-conversions # FLAG_* bits (< 32) passed as int booleans
applets/cmp.c bugprone-misplaced-widening-cast # uint64_t sums cast for %llu: no narrowing (unsigned long is 64-bit where flagged)
'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/zb-analyze.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/findings"
ran=0

if command -v cppcheck >/dev/null 2>&1; then
	ran=$((ran + 1))
	# shellcheck disable=SC2086
	cppcheck -q -j "$JOBS" --std=c11 --enable=$CPPCHECK_ENABLE \
		--inline-suppr --suppress=missingIncludeSystem \
		-D_GNU_SOURCE -D__linux__ -I"$O/include" -Ilibbb -Iapplets/dd -Iapplets/dd/jobs \
		--template='{file}:{line}: {severity}: {message} [{id}]' \
		$SRCS 2> "$tmp/cppcheck" >/dev/null
	grep -E '^[^ ]+:[0-9]+: .*\[[A-Za-z0-9_]+\]$' "$tmp/cppcheck" >> "$tmp/findings"
else
	echo "analyze: cppcheck not found, skipped" >&2
fi

if command -v clang-tidy >/dev/null 2>&1; then
	ran=$((ran + 1))
	# shellcheck disable=SC2086
	printf '%s\n' $SRCS | xargs -P "$JOBS" -I{} sh -c \
		'clang-tidy -quiet --checks="$1" "$2" -- $3 > "$4/tidy.$$.$(echo "$2" | tr / _)" 2>/dev/null; true' \
		sh "$TIDY_CHECKS" {} "$CFLAGS" "$tmp"
	cat "$tmp"/tidy.* 2>/dev/null |
		grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error): .*\[[a-z0-9.,-]+\]$' |
		sed "s|^$(pwd)/||" >> "$tmp/findings"
else
	echo "analyze: clang-tidy not found, skipped" >&2
fi

# Filter out the justified ones.
printf '%s\n' "$SUPPRESS" | sed 's/#.*//' | awk 'NF == 2' > "$tmp/suppress"
new=0
total=0
while IFS= read -r line; do
	total=$((total + 1))
	file=${line%%:*}
	id=${line##*[}
	id=${id%]}
	ok=0
	while read -r sfile sid; do
		case $id in "$sid"|"$sid",*|*,"$sid") ;; *) continue ;; esac
		if [ "$sfile" = '*' ] || [ "$sfile" = "$file" ]; then
			ok=1
			break
		fi
	done < "$tmp/suppress"
	if [ $ok = 0 ]; then
		echo "$line"
		new=$((new + 1))
	fi
done < "$tmp/findings"

echo "analyze: $total findings, $((total - new)) justified (scripts/analyze.sh), $new new"
[ $ran -gt 0 ] || { echo "analyze: no analyzer found" >&2; exit 2; }
[ $new = 0 ]
