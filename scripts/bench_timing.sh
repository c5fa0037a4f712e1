# scripts/bench_timing.sh - sourced by bench_zeros.sh and bench_bmap.sh:
# one timed run, and the figures of several.  Needs $work (a temp dir)
# and $bench (the script's name, for messages).

# wall_time COMMAND...: the wall time of one run in seconds; a command
# that fails ends the bench with its last message.
wall_time() {
	t0=$(date +%s.%N)
	"$@" 2>"$work/err" || {
		echo "$bench: $*: failed: $(tail -n 1 "$work/err")" >&2
		exit 1
	}
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# stats FILE: "min-max median" of the times in FILE, one a line.
stats() {
	sort -n "$1" |
		awk '{ v[NR] = $1 } END { printf "%.2f-%.2f %.3f\n", v[1], v[NR], v[int((NR + 1) / 2)] }'
}
