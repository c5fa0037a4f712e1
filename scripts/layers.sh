#!/bin/sh
# layers.sh OBJECT... - check that calls between source files go one way
# only: no two files, and no longer circle of files, call each other.
# It reads the symbol tables of the object files (nm), so it sees the
# calls the compiler kept.  Prints the circle it finds and exits 1.
set -eu
NM=${NM:-nm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for o in "$@"; do
	f=$(basename "$(dirname "$o")")/$(basename "$o" .o)
	"$NM" "$o" | awk -v f="$f" '
		$2 ~ /^[TDRB]$/ { print $3, f >> "'"$tmp"'/defs" }
		$1 == "U"       { print $2, f >> "'"$tmp"'/uses" }'
done
touch "$tmp/defs" "$tmp/uses"
# One line per calling file and called file.
awk 'NR == FNR { def[$1] = $2; next }
     ($1 in def) && def[$1] != $2 { print $2, def[$1] }' \
	"$tmp/defs" "$tmp/uses" | sort -u > "$tmp/edges"
# tsort names the files on a circle; a graph without one sorts cleanly.
if tsort "$tmp/edges" > /dev/null 2> "$tmp/circle"; then
	echo "layers: $(wc -l < "$tmp/edges") calls between files, no circle"
	exit 0
fi
echo "layers: files that call each other in a circle:"
grep -v 'input contains a loop' "$tmp/circle" | sed 's/^tsort: /  /'
exit 1
