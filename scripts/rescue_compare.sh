#!/bin/sh
# A rescue side by side: GNU ddrescue and zerobox's ddrescue on the same
# failing disk, served by testsuite/faultdisk.py (FUSE, direct_io).  The
# disk is 16 MiB of random bytes with single bad sectors, runs of them, a
# 512 KiB bad area, a bad end of disk, and weak sectors that read after
# one or two failures.  For each tool and each option set (the default,
# -r1, -R, -M on the mapfile of a run with -n, -K 128Ki,1Mi, -S) it
# prints wall time, peak RSS, good sectors recovered, weak sectors read
# back, the most reads any bad sector had, and whether the two mapfiles
# are equal (ddrescuelog -p).  docs/ddrescue.md carries its output.
#
# Usage: scripts/rescue_compare.sh ZEROBOX [WORKDIR]
# Needs: ddrescue and ddrescuelog (gddrescue), python3-fusepy, fuse3,
# /usr/bin/time.
set -eu
zb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
faultdisk=$(cd "$(dirname "$0")/../testsuite" && pwd)/faultdisk.py
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/rescue.XXXXXX")}
mkdir -p "$work" && cd "$work"

rules="bad=0x100000-0x100200 bad=0x200400-0x204000 bad=0x500000-0x500a00
bad=0x777e00-0x778000 bad=0x900000-0x980000 bad=0xc00200-0xc00600
bad=0xfff000-0x1000000 weak=0x300000-0x300800:2 weak=0xa00000-0xa00400:1"
[ -f img ] || head -c 16777216 /dev/urandom > img

# score.py OUTPUT LOG RULES...: compare OUTPUT with img, sector by sector,
# and count the reads of each bad or weak sector in faultdisk's LOG.
cat > score.py <<'EOF'
import sys
img = open('img', 'rb').read()
out = open(sys.argv[1], 'rb').read()
bad = []
for rule in sys.argv[3:]:
	a, b = (int(x, 0) for x in rule.split('=')[1].split(':')[0].split('-'))
	bad.append((a, b))
sectors = range(0, len(img), 512)
is_bad = [any(a <= s < b for a, b in bad) for s in sectors]
same = [out[s:s + 512] == img[s:s + 512] for s in sectors]
good = is_bad.count(False)
got = sum(1 for b, m in zip(is_bad, same) if m and not b)
weak = sum(1 for b, m in zip(is_bad, same) if m and b)
reads = {}
for line in open(sys.argv[2]):
	f = line.split()
	if f[0] != 'R':
		continue
	off, n = int(f[1]), int(f[2])
	for a, b in bad:
		for s in range(max(a, off) // 512 * 512, min(b, off + n), 512):
			reads[s] = reads.get(s, 0) + 1
print('%d/%d good, %d bad or weak read back, at most %d reads of one'
      % (got, good, weak, max(reads.values())))
EOF

unmount() { fusermount3 -u m 2>/dev/null || fusermount -u m; }
printf '%-8s %-11s %-22s %s\n' tool options "wall, peak RSS" sectors
for pass in "" -r1 -R -M -K128Ki,1Mi -S; do
	for tool in gnu zerobox; do
		rm -f log out map
		mkdir -p m
		# shellcheck disable=SC2086
		/usr/bin/python3 "$faultdisk" m img $rules log=log 2>faultdisk.err &
		i=0
		while [ ! -e m/disk ]; do
			i=$((i + 1)); [ $i -lt 200 ] || { cat faultdisk.err; exit 1; }
			sleep 0.05
		done
		head -c 16777216 /dev/zero > out
		case $tool in
		gnu) set -- ddrescue ;;
		*) set -- "$zb" ddrescue ;;
		esac
		# -M retrims what a run without scraping left
		[ "$pass" = -M ] && "$@" -q -n m/disk out map
		: > log
		# shellcheck disable=SC2086
		/usr/bin/time -f '%e s, %M KiB' -o time "$@" -q $pass m/disk out map
		unmount
		wait
		# shellcheck disable=SC2086
		printf '%-8s %-11s %-22s %s\n' $tool "${pass:--}" "$(cat time)" \
			"$(/usr/bin/python3 score.py out log $rules)"
		cp map "map.$tool$pass"
	done
	if ddrescuelog -p "map.gnu$pass" "map.zerobox$pass" >/dev/null; then
		echo "mapfiles ${pass:-default}: equal (ddrescuelog -p)"
	else
		echo "mapfiles ${pass:-default}: differ"
	fi
done
