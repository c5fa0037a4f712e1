#!/bin/sh
# selftest.sh - check that the harness itself can fail.  Not part of
# "make check"; run it after changing runtest or testing.sh:
#     sh testsuite/selftest.sh
# It copies runtest and testing.sh into a scratch directory next to fake
# .tests files, fake unit tests and a fake zerobox (a shell script that
# hands dd to the host's dd), runs the harness in several ways and checks
# its verdicts, counts and exit status.

here=$(cd "${0%/*}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/zerobox-selftest.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0

ts=$tmp/testsuite
mkdir "$ts" "$tmp/unit" "$tmp/bin"
cp "$here/runtest" "$here/testing.sh" "$ts/"
hostdd=$(command -v dd)

cat > "$tmp/bin/zerobox" <<EOF
#!/bin/sh
n=\${0##*/}
if [ "\$n" = zerobox ]; then
	case \$1 in --list) echo dd; echo true; exit 0 ;; esac
	n=\$1; shift
fi
case \$n in
dd) exec "$hostdd" "\$@" ;;
true) exit 0 ;;
*) echo "zerobox: applet not found: \$n" >&2; exit 127 ;;
esac
EOF
chmod +x "$tmp/bin/zerobox"

printf 'CONFIG_DD=y\nCONFIG_FEATURE_YES=y\n# CONFIG_FEATURE_NO is not set\n' > "$tmp/config"

cat > "$ts/mixed.tests" <<'EOF'
testing "good echo" "echo hi" "hi\n" "" ""
testing "bad echo" "echo hi" "ho\n" "" ""
testing "stdin and input" "cat; cat input" "in\nfile\n" "file\n" "in\n"
testing "dd through PATH" "printf abc | dd status=none" "abc" "" ""
testing "wrong arg count" "echo x" "x\n" ""
optional FEATURE_YES
testing "feature yes" "echo y" "y\n" "" ""
optional FEATURE_NO
testing "feature no" "echo n" "WRONG" "" ""
optional ZEROBOX_ONLY
testing "zerobox only" "echo z" "z\n" "" ""
optional HOST_ONLY
testing "host only" "echo h" "h\n" "" ""
optional
require no-such-command-zb
testing "require missing" "echo r" "WRONG" "" ""
require
testing "dd_norm" "printf '10 bytes copied, 0.000123 s, 81.3 kB/s\n1 byte copied, 9.2e-05 s, 10.9 kB/s\n' | dd_norm" "10 bytes copied, T s, R\n1 byte copied, T s, R\n" "" ""
EOF
cat > "$ts/allpass.tests" <<'EOF'
testing "pass 1" "true; echo ok" "ok\n" "" ""
testing "pass 2" "ddrc if=/dev/null status=noxfer" "0+0 records in\n0+0 records out\nrc=0\n" "" ""
EOF
cat > "$ts/dies.tests" <<'EOF'
testing "before dying" "echo ok" "ok\n" "" ""
exit 3
EOF
cat > "$ts/hangs.tests" <<'EOF'
testing "hangs" "sleep 30; echo late" "late\n" "" ""
testing "after hang" "echo ok" "ok\n" "" ""
EOF

cat > "$tmp/unit/test_good" <<'EOF'
#!/bin/sh
echo "PASS: unit one"; echo "PASS: unit two"; exit 0
EOF
cat > "$tmp/unit/test_bad" <<'EOF'
#!/bin/sh
echo "PASS: unit three"; echo "FAIL: unit four: 1 != 2"; exit 1
EOF
cat > "$tmp/unit/test_crash" <<'EOF'
#!/bin/sh
echo "noise"; exit 139
EOF
chmod +x "$tmp/unit/"test_*

# check WHAT EXPECTED-RC EXPECTED-LAST-LINE [GREP...] -- ENV... runtest ARGS
check() {
	what=$1 xrc=$2 xlast=$3
	shift 3
	pats=
	while [ "$1" != -- ]; do pats="$pats
$1"; shift; done
	shift
	out=$(env "$@" 2>&1)
	rc=$?
	last=$(printf '%s\n' "$out" | tail -n 1)
	ok=1
	[ "$rc" = "$xrc" ] || { ok=0; echo "  exit status $rc, expected $xrc"; }
	[ "$last" = "$xlast" ] || { ok=0; echo "  last line '$last', expected '$xlast'"; }
	printf '%s\n' "$pats" | while IFS= read -r p; do
		[ -z "$p" ] && continue
		printf '%s\n' "$out" | grep -qF -- "$p" || echo "  missing line: $p"
	done > "$tmp/missing"
	[ -s "$tmp/missing" ] && { ok=0; cat "$tmp/missing"; }
	if [ $ok = 1 ]; then
		echo "ok: $what"
	else
		echo "NOT OK: $what"
		printf '%s\n' "$out" | sed 's/^/  | /'
		failures=$((failures + 1))
	fi
}

rt=$ts/runtest
check "failures are counted and make the exit status non-zero" 1 "6 passed, 2 failed, 3 skipped" \
	"PASS: good echo" "FAIL: bad echo" "-ho" "+hi" "PASS: stdin and input" \
	"PASS: dd through PATH" "FAIL: wrong arg count" "PASS: feature yes" \
	"SKIP: feature no" "PASS: zerobox only" "SKIP: host only" "SKIP: require missing" \
	"PASS: dd_norm" -- \
	ZEROBOX="$tmp/bin/zerobox" ZB_CONFIG="$tmp/config" sh "$rt" mixed
check "TEST_HOST: ZEROBOX_ONLY skipped, HOST_ONLY and all features run" 1 "6 passed, 3 failed, 2 skipped" \
	"SKIP: zerobox only" "PASS: host only" "FAIL: feature no" -- \
	TEST_HOST=1 ZEROBOX=/bin/false sh "$rt" mixed
check "all passing: exit 0" 0 "2 passed, 0 failed" "PASS: pass 1" "PASS: pass 2" -- \
	ZEROBOX="$tmp/bin/zerobox" ZB_CONFIG="$tmp/config" sh "$rt" allpass
check "EMU wrappers" 0 "2 passed, 0 failed" "PASS: pass 2" -- \
	EMU=env ZEROBOX="$tmp/bin/zerobox" ZB_CONFIG="$tmp/config" sh "$rt" allpass
check "a test file that dies is a failure" 1 "1 passed, 1 failed" \
	"PASS: before dying" "FAIL: dies.tests (exited with status 3)" -- \
	TEST_HOST=1 sh "$rt" dies
check "a missing test file is a failure" 1 "0 passed, 1 failed" "FAIL: nosuch.tests (no such file)" -- \
	TEST_HOST=1 sh "$rt" nosuch
check "a hanging test times out" 1 "1 passed, 1 failed" \
	"FAIL: hangs (timed out after 2s)" "PASS: after hang" -- \
	TEST_HOST=1 ZB_TIMEOUT=2 sh "$rt" hangs
check "unit tests count, a crash without FAIL lines fails" 1 "3 passed, 2 failed" \
	"PASS: unit one" "FAIL: unit four: 1 != 2" "FAIL: test_crash (exited with status 139)" -- \
	ZEROBOX="$tmp/bin/zerobox" UNIT_DIR="$tmp/unit" sh "$rt" unit
check "TEST_HOST skips the unit tests" 0 "0 passed, 0 failed" -- \
	TEST_HOST=1 UNIT_DIR="$tmp/unit" sh "$rt" unit
check "no ZEROBOX without TEST_HOST is an error" 2 "runtest: set ZEROBOX to the binary's absolute path (or TEST_HOST=1)" -- \
	ZEROBOX= TEST_HOST= sh "$rt" allpass

if [ $failures = 0 ]; then
	echo "selftest: all checks passed"
else
	echo "selftest: $failures check(s) failed"
	exit 1
fi
