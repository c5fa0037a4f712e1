# testing.sh - helpers sourced by every testsuite/*.tests file.
#
# runtest sources this file in a fresh subshell for each .tests file, with
# the current directory set to an empty scratch directory and PATH starting
# with a directory of applet links.  Environment (set by runtest):
#   ZEROBOX      absolute path of the multicall binary under test
#   ZB_CONFIG    the build's .config (CONFIG_FOO=y / # CONFIG_FOO is not set)
#   EMU          emulator prefix such as qemu-arm-static, empty natively
#   TEST_HOST    1 = the links point at the host's tools (e.g. GNU dd)
#   ZB_BIN       the directory of applet links
#   ZB_BUILT     " NAME NAME ... ": the applets under test (zerobox --list)
#   ZB_HOST_PATH PATH as it was before runtest changed it
#   ZB_RESULTS   file that collects one PASS/FAIL/SKIP word per test
#   ZB_CURRENT   file naming the running test's process, for the watchdog
#   VERBOSE      1 = print the command, the full diff and stderr on failure
#   ZB_TIMEOUT   seconds one test may run (default 60)
#
# The main entry:
#
#   testing NAME COMMAND EXPECTED INFILE STDIN
#
# writes INFILE to ./input, runs COMMAND (eval'd in a subshell, so the
# functions below and those of the .tests file can be used in it) with
# STDIN on its standard input, and compares its standard output with
# EXPECTED.  Standard error is not compared unless COMMAND redirects it
# (2>&1).  EXPECTED, INFILE and STDIN go through printf %b, so \n \t \\
# and \0NNN are interpreted.  Prints "PASS: NAME", "FAIL: NAME" followed by
# a short diff (VERBOSE=1: the command, the whole diff and stderr), or
# "SKIP: NAME".
#
# Gating, in force until changed:
#   optional [FEATURE...]  run what follows only if every CONFIG_FEATURE=y
#                          (!FEATURE: only if it is off; never under TEST_HOST);
#                          also the words ZEROBOX_ONLY (skipped under
#                          TEST_HOST) and HOST_ONLY (only under TEST_HOST).
#                          "optional" alone resets it.
#   require [CMD...]       skip what follows unless each CMD is on the host;
#                          "require" alone resets it and skip_under_emu.
#   skip_under_emu         skip what follows when EMU is set (strace, RSS).
#   skip_under_sanitizer   skip what follows in an ASan/UBSan build.
#   skip_unless_built APPLET
#                          skip the whole file when APPLET is not in the
#                          binary (runtest does it for NAME*.tests).

: "${ZB_TIMEOUT:=60}"
: "${ZB_RESULTS:=/dev/null}"
: "${ZB_HOST_PATH:=$PATH}"

# Host tools used by the harness and the helpers, resolved from the
# original PATH, so that a broken applet cannot break the harness.
_zb_host() { (PATH=$ZB_HOST_PATH; command -v "$1") || echo "$1"; }
_CAT=$(_zb_host cat)
_CMP=$(_zb_host cmp)
_DIFF=$(_zb_host diff)
_SED=$(_zb_host sed)
_HEAD=$(_zb_host head)
_STAT=$(_zb_host stat)
_CKSUM=$(_zb_host cksum)
_TR=$(_zb_host tr)
_SLEEP=$(_zb_host sleep)

_zb_optional=
_zb_require=
_zb_emu_skip=
_zb_unbuilt=

# skip_unless_built APPLET: the tests of an applet the binary lacks skip,
# whatever else they ask for.  zerobox (the multicall entry) is always
# there: a file of several applets' tests names it, and each test its
# applet with optional.
skip_unless_built() {
	_zb_unbuilt=
	[ "$1" = zerobox ] && return 0
	[ -n "$ZB_BUILT" ] || return 0
	case $ZB_BUILT in
	*" $1 "*) ;;
	*) _zb_unbuilt=" applet-$1" ;;
	esac
	return 0
}

# has_feature FEATURE: true if CONFIG_FEATURE=y in ZB_CONFIG.  Under
# TEST_HOST, or when no config was given, every feature counts as present.
has_feature() {
	_f=${1#CONFIG_}
	[ "$TEST_HOST" = 1 ] && return 0
	[ -n "$ZB_CONFIG" ] && [ -r "$ZB_CONFIG" ] || return 0
	while IFS= read -r _l; do
		[ "$_l" = "CONFIG_$_f=y" ] && return 0
	done < "$ZB_CONFIG"
	return 1
}

optional() {
	_zb_optional=
	for _w in "$@"; do
		case $_w in
		ZEROBOX_ONLY) [ "$TEST_HOST" = 1 ] && _zb_optional="$_zb_optional $_w" ;;
		HOST_ONLY)    [ "$TEST_HOST" = 1 ] || _zb_optional="$_zb_optional $_w" ;;
		!*)           has_feature "${_w#!}" && _zb_optional="$_zb_optional $_w" ;;
		*)            has_feature "$_w" || _zb_optional="$_zb_optional $_w" ;;
		esac
	done
}

require() {
	_zb_require=
	[ $# = 0 ] && _zb_emu_skip=
	for _w in "$@"; do
		(PATH=$ZB_HOST_PATH; command -v "$_w" >/dev/null 2>&1) ||
			_zb_require="$_zb_require $_w"
	done
}

skip_under_emu() { [ -n "$EMU" ] && _zb_emu_skip=" no-EMU"; }

# skip_under_sanitizer: skip what follows in a sanitizer build
# (ZB_SANITIZED=1): its shadow memory makes RSS, address-space limits and
# mmap counts meaningless.  "require" alone resets it, as for EMU.
skip_under_sanitizer() {
	[ -n "$ZB_SANITIZED" ] && _zb_emu_skip="$_zb_emu_skip no-sanitizer"
	return 0
}

# only_if WHY CMD...: skip the tests that follow unless CMD succeeds
# (WHY names what is missing); "only_if" alone ends that.
_zb_only=
only_if() {
	_zb_only=
	[ $# = 0 ] && return 0
	_w=$1; shift
	"$@" > /dev/null 2>&1 || _zb_only=" $_w"
	return 0
}

_zb_result() { echo "$1" >> "$ZB_RESULTS"; }

testing() {
	if [ $# -ne 5 ]; then
		echo "FAIL: ${1:-?} (testing needs 5 arguments, got $#)"
		_zb_result FAIL
		return 1
	fi
	_name=$1
	_why="$_zb_unbuilt$_zb_optional$_zb_require$_zb_emu_skip$_zb_only"
	if [ -n "$_why" ]; then
		echo "SKIP: $_name"
		[ "$VERBOSE" = 1 ] && echo "      (needs:$_why)"
		_zb_result SKIP
		return 0
	fi
	printf '%b' "$4" > input
	printf '%b' "$5" > .zb_stdin
	printf '%b' "$3" > .zb_expected
	# The command runs in the foreground (an asynchronous list would start
	# with SIGINT ignored).  It announces its pid to runtest's watchdog.
	(
		if [ -n "$ZB_CURRENT" ]; then
			read -r _me _rest 2>/dev/null < /proc/self/stat
			echo "$_me" > "$ZB_CURRENT"
		fi
		eval "$2"
	) < .zb_stdin > .zb_actual 2> .zb_stderr
	if [ -n "$ZB_CURRENT" ]; then
		_me=; _to=
		read -r _me 2>/dev/null < "$ZB_CURRENT"
		: > "$ZB_CURRENT"
		read -r _to 2>/dev/null < "$ZB_CURRENT.timedout"
		if [ -n "$_to" ] && [ "$_to" = "$_me" ]; then
			: > "$ZB_CURRENT.timedout"
			echo "FAIL: $_name (timed out after ${ZB_TIMEOUT}s)"
			_zb_result FAIL
			return 1
		fi
	fi
	if "$_CMP" -s .zb_expected .zb_actual; then
		echo "PASS: $_name"
		_zb_result PASS
		return 0
	fi
	echo "FAIL: $_name"
	_zb_result FAIL
	if [ "$VERBOSE" = 1 ]; then
		echo "---- command:"
		printf '%s\n' "$2"
		"$_DIFF" -a -u .zb_expected .zb_actual 2>&1 |
			"$_SED" -e '1s/^--- .*/--- expected/' -e '2s/^+++ .*/+++ actual/'
		if [ -s .zb_stderr ]; then
			echo "---- stderr:"
			"$_CAT" .zb_stderr
		fi
	else
		"$_DIFF" -a -u .zb_expected .zb_actual 2>&1 |
			"$_SED" -e '1{/^--- /d;}' -e '2{/^+++ /d;}' -e '/^@@/d' \
				-e 's/^/    /' | "$_HEAD" -n 12
	fi
	return 1
}

# ---- the watchdog (runtest starts one per run) --------------------------

# _zb_killtree PID: SIGKILL PID and all its descendants (found via /proc).
# Each process is stopped first so that its children stay its children.
_zb_killtree() {
	kill -STOP "$1" 2>/dev/null
	for _s in /proc/[0-9]*/stat; do
		read -r _line 2>/dev/null < "$_s" || continue
		set -- "$1" ${_line##*) }
		[ "$3" = "$1" ] || continue
		_c=${_s#/proc/}
		(_zb_killtree "${_c%/stat}")
	done 2>/dev/null
	kill -9 "$1" 2>/dev/null
}

# _zb_watchdog: once a second, look at which test runs (ZB_CURRENT); if
# the same one has run for ZB_TIMEOUT seconds, record it as timed out and
# kill it with all it started.
_zb_watchdog() {
	_last= _n=0
	while "$_SLEEP" 1; do
		_cur=
		read -r _cur 2>/dev/null < "$ZB_CURRENT"
		if [ -n "$_cur" ] && [ "$_cur" = "$_last" ]; then
			_n=$((_n + 1))
		else
			_n=0 _last=$_cur
		fi
		if [ -n "$_cur" ] && [ $_n -ge "$ZB_TIMEOUT" ]; then
			echo "$_cur" > "$ZB_CURRENT.timedout"
			_zb_killtree "$_cur"
			_n=0
		fi
	done
}

# ---- helpers for test commands ----------------------------------------

# dd_norm: filter dd's messages, replacing the time and rate of the summary
# ("... copied, 0.00012 s, 83.3 kB/s") by "T s, R".
dd_norm() {
	while IFS= read -r _l || [ -n "$_l" ]; do
		case $_l in
		*" copied, "*" s, "*"B/s") _l="${_l%% copied, *} copied, T s, R" ;;
		esac
		printf '%s\n' "$_l"
	done
}

# no_times: dd's standard error with carriage returns shown as '#' and
# every statistics line's time and rate left out ("N bytes copied"), so
# that progress lines, their order and their line ends can be compared.
no_times() { "$_TR" '\r' '#' | "$_SED" 's/ copied, [^,]* s, [^/]*\/s/ copied/g'; }

# ddrc ARGS...: run dd ARGS; print its stdout, then its stderr through
# dd_norm, then "rc=N".  Keeping the streams apart makes this deterministic.
ddrc() {
	dd "$@" 2> .zb_ddrc_err
	_rc=$?
	dd_norm < .zb_ddrc_err
	echo "rc=$_rc"
}

# fsize FILE: size in bytes, or "none" when FILE does not exist.
fsize() { "$_STAT" -c %s "$1" 2>/dev/null || echo none; }

# fsum FILE: "CRC SIZE" from cksum.
fsum() { "$_CKSUM" < "$1"; }

# hcat FILE...: cat with the host's cat (not an applet under test).
hcat() { "$_CAT" "$@"; }

# shownul [FILE]: print FILE (or stdin) with each NUL byte shown as '@'.
shownul() { "$_CAT" "$@" | "$_TR" '\000' @; }

# mkzero FILE SIZE: FILE of SIZE NUL bytes, a new file (a daemon that still
# serves the old one writes there, not here).
mkzero() { rm -f "$1"; "$_HEAD" -c "$2" /dev/zero > "$1"; }

# mkpat FILE SIZE: FILE of SIZE bytes repeating 0123456789.
mkpat() {
	_s=0123456789
	while [ ${#_s} -lt "$2" ] && [ ${#_s} -lt 10000 ]; do _s=$_s$_s$_s$_s$_s; done
	while :; do printf %s "$_s"; done 2>/dev/null | "$_HEAD" -c "$2" > "$1"
}

# _zb_alive PID: PID runs (has not ended, not even as a zombie).
_zb_alive() {
	_st=
	{ read -r _st < "/proc/$1/stat"; } 2>/dev/null || return 1
	case $_st in *") Z "*) return 1 ;; esac
}

# wait_wchan PID WORD...: until PID sleeps in a kernel function whose
# name holds one of WORDs (its /proc wait channel), 5 s at most.  Fails
# when PID has ended.
wait_wchan() {
	_wpid=$1; shift
	_i=0
	while [ $_i -lt 500 ] && _zb_alive "$_wpid"; do
		_w=
		read -r _w 2>/dev/null < "/proc/$_wpid/wchan"
		for _word in "$@"; do
			case $_w in *"$_word"*) return 0 ;; esac
		done
		_i=$((_i + 1))
		"$_SLEEP" 0.01
	done
	return 1
}

# wait_blocked PID: until PID sleeps in a pipe read.
wait_blocked() { wait_wchan "$1" pipe_read pipe_wait; }
# wait_opening PID: until PID waits in the open of a fifo for its other end.
wait_opening() { wait_wchan "$1" wait_for_partner; }

# wait_lines FILE N PID: until FILE has N lines (a summary a signal asked
# for has been printed) or PID has ended, 10 s at most.  A fixed sleep
# instead lets a loaded machine reorder what the test looks at.
wait_lines() {
	_i=0
	while [ $_i -lt 1000 ] && _zb_alive "$3"; do
		_n=0
		while IFS= read -r _l; do _n=$((_n + 1)); done 2>/dev/null < "$1"
		[ $_n -ge "$2" ] && return 0
		_i=$((_i + 1))
		"$_SLEEP" 0.01
	done
}

# feed PID CHUNK...: write each CHUNK (printf %b) to stdout - a pipe or
# fifo that process PID reads - as its own write, and before each one wait
# until PID is blocked reading the empty pipe.  So PID sees each chunk as
# one short read, deterministically.  Where the wait channel cannot be
# read it falls back to waiting 5 s per chunk.  Stops early when PID has
# ended.
feed() {
	_fpid=$1; shift
	for _c in "$@"; do
		wait_blocked "$_fpid" || _zb_alive "$_fpid" || return 0
		printf '%b' "$_c" || return 0
	done
}

# feed_dd 'DD ARGS' CHUNK...: run dd with ARGS (split at blanks) reading a
# fifo fed by feed with the CHUNKs; print its stdout, stderr and rc as
# ddrc does.
feed_dd() {
	_args=$1; shift
	[ -p .zb_fifo ] || mkfifo .zb_fifo || return 1
	dd $_args < .zb_fifo 2> .zb_ddrc_err &
	_ddpid=$!
	(feed "$_ddpid" "$@" > .zb_fifo)
	wait "$_ddpid"
	_rc=$?
	dd_norm < .zb_ddrc_err
	echo "rc=$_rc"
}

# zb ARGS...: run the multicall binary itself (through EMU when set).
zb() { $EMU "$ZEROBOX" "$@"; }

# The failing disk (faultdisk.py, FUSE): it runs on Debian's python3 and
# fusepy, whatever python3 comes first in PATH.
_ZB_FAULTDISK=$TESTSUITE/faultdisk.py
# faultdisk_usable: FUSE and fusepy are there (use with only_if).
faultdisk_usable() {
	[ -c /dev/fuse ] && [ -z "$EMU" ] && [ -f "$_ZB_FAULTDISK" ] &&
		/usr/bin/python3 -c 'import fusepy' 2>/dev/null &&
		(PATH=$ZB_HOST_PATH; command -v fusermount3 || command -v fusermount)
}
# faultdisk_start DIR IMAGE [RULE...]: serve IMAGE as DIR/disk with the
# RULEs (see faultdisk.py); returns once DIR/disk is there (10 s at most).
faultdisk_start() {
	mkdir -p "$1" || return 1
	/usr/bin/python3 "$_ZB_FAULTDISK" "$@" 2> "$1.err" &
	_i=0
	while [ ! -e "$1/disk" ] && [ $_i -lt 1000 ]; do
		_i=$((_i + 1)); "$_SLEEP" 0.01
	done
	[ -e "$1/disk" ]
}
# faultdisk_stop DIR: unmount it; its daemon then ends.
faultdisk_stop() {
	(PATH=$ZB_HOST_PATH; fusermount3 -u "$1" 2>/dev/null ||
		fusermount -u "$1" 2>/dev/null || umount -l "$1" 2>/dev/null)
	return 0
}
# card_from IMAGE [RULE...]: a card, the loop device $LOOP over IMAGE
# served by faultdisk.py (in ./fd) with the RULEs; kept open on
# descriptor 3, as udev or an automounter keeps a card open, so that the
# device's page cache outlives dd; its requests at most 128 KiB
# (queue/max_sectors_kb), since the loop driver reports a request that
# was partly written as written.  card_down undoes it.
LOOP=
card_from() {
	faultdisk_start fd "$@" || return 1
	LOOP=$(losetup -f --show fd/disk) || { faultdisk_stop fd; return 1; }
	{ echo 128 > "/sys/block/${LOOP#/dev/}/queue/max_sectors_kb"; } 2>/dev/null
	exec 3< "$LOOP"
}
card_down() {
	# What the device's cache still holds goes to this card now, not
	# late into the next one's image (a loop device busy with udev's
	# probe is detached only when it lets go).
	[ -z "$LOOP" ] || (PATH=$ZB_HOST_PATH; blockdev --flushbufs "$LOOP") 2>/dev/null
	exec 3<&-
	[ -z "$LOOP" ] || losetup -d "$LOOP"
	LOOP=
	faultdisk_stop fd
}
