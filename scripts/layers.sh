#!/bin/sh
# layers.sh [--design | --write-design] [OBJECT...] - check that calls
# between source files go down the layers of scripts/layers.order: no
# call to a layer above, and no circle of files calling each other
# within a layer.  It reads the symbol tables of the object files (nm),
# so it sees the calls the compiler kept.  It also checks that every
# object has a line in the table (a one-file applet needs none), and
# that docs/design.md's layer list is the table's.
#
#   O=DIR              the build directory the objects are under (build)
#   --design           print the layer list docs/design.md carries
#   --write-design     put that list into docs/design.md
set -eu
NM=${NM:-nm}
O=${O:-build}
srctree=${srctree:-$(cd "$(dirname "$0")/.." && pwd)}
order=$srctree/scripts/layers.order
design=$srctree/docs/design.md
begin='<!-- layers: begin (sh scripts/layers.sh --write-design) -->'
end='<!-- layers: end -->'

# The table without its comments: "LAYER FILE" per file, 1 the top.
layer_of_files() {
	awk '/^#/ || NF == 0 { next } { n++; for (i = 1; i <= NF; i++) print n, $i }' \
		"$order"
}

# The list docs/design.md shows: the table's lines as a code block.
design_list() {
	echo "$begin"
	echo
	grep -v '^#' "$order" | grep -v '^[[:space:]]*$' | sed 's/^/    /'
	echo
	echo "$end"
}

write_design() {
	design_list > "$1.list"
	awk -v b="$begin" -v e="$end" -v list="$1.list" '
		$0 == b { while ((getline l < list) > 0) print l; skip = 1; next }
		$0 == e { skip = 0; next }
		!skip' "$design"
}

case ${1-} in
--design)
	design_list
	exit 0 ;;
--write-design)
	t=$(mktemp)
	write_design "$t" > "$t.new"
	mv "$t.new" "$design"
	rm -f "$t" "$t.list"
	exit 0 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

layer_of_files > "$tmp/layers"
# A one-file applet (applets/NAME.c) need not be listed: it sits on the
# layer below applets/zerobox.c, which dispatches to every applet.
applet_layer=$(awk '$2 == "applets/zerobox.c" { print $1 + 1 }' "$tmp/layers")
for o in "$@"; do
	f=${o#"$O"/}
	f=${f%.o}.c
	if ! awk -v f="$f" '$2 == f { found = 1 } END { exit !found }' "$tmp/layers"; then
		case ${f#applets/} in
		*/*)
			echo "layers: $f is not in scripts/layers.order: add it to the line of its layer (the table's header says how)"
			status=1 ;;
		*) echo "$applet_layer $f" >> "$tmp/layers" ;;
		esac
	fi
	"$NM" "$o" | awk -v f="$f" '
		$2 ~ /^[TDRB]$/ { print $3, f >> "'"$tmp"'/defs" }
		$1 == "U"       { print $2, f >> "'"$tmp"'/uses" }'
done
touch "$tmp/defs" "$tmp/uses"
# One line per calling file and called file.
awk 'NR == FNR { def[$1] = $2; next }
     ($1 in def) && def[$1] != $2 { print $2, def[$1] }' \
	"$tmp/defs" "$tmp/uses" | sort -u > "$tmp/edges"

# A call up the table: the caller's layer number is larger.
awk 'NR == FNR { layer[$2] = $1; next }
     ($1 in layer) && ($2 in layer) && layer[$1] > layer[$2] {
	print "layers: " $1 " (layer " layer[$1] ") calls " $2 \
	      " (layer " layer[$2] "), a layer above it in scripts/layers.order"
     }' "$tmp/layers" "$tmp/edges" > "$tmp/up"
if [ -s "$tmp/up" ]; then
	cat "$tmp/up"
	status=1
fi

# tsort names the files on a circle; a graph without one sorts cleanly.
if ! tsort "$tmp/edges" > /dev/null 2> "$tmp/circle"; then
	echo "layers: files that call each other in a circle:"
	grep -v 'input contains a loop' "$tmp/circle" | sed 's/^tsort: /  /'
	status=1
fi

if [ -f "$design" ]; then
	write_design "$tmp/design" > "$tmp/design.md"
	if ! cmp -s "$tmp/design.md" "$design" || ! grep -qxF "$begin" "$design"; then
		echo "layers: docs/design.md's layer list is not scripts/layers.order's: run sh scripts/layers.sh --write-design"
		status=1
	fi
fi

[ "$status" = 0 ] &&
	echo "layers: $(wc -l < "$tmp/edges") calls between files, all down scripts/layers.order, no circle"
exit "$status"
