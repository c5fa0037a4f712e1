#!/bin/sh
# toolchain.sh - what the Makefile needs to know about compilers.
#
#   toolchain.sh triplets ARCH      "GNU_TRIPLET MUSL_TRIPLET QEMU" of a
#                                   Debian architecture name (fails if
#                                   unknown)
#   toolchain.sh archs              the architectures the table knows
#   toolchain.sh kernel-include DIR CC
#                                   make DIR hold linux/, asm/ and
#                                   asm-generic/ of CC's architecture
#   toolchain.sh describe CC STATIC one line: compiler, C library and
#                                   static or dynamic linking
set -e

# Debian architecture, GNU triplet (the cross gcc and binutils), musl
# triplet (/usr/lib/TRIPLET/musl-gcc.specs from musl-dev:ARCH), qemu-user.
table() {
	cat <<'EOF'
armhf    arm-linux-gnueabihf      arm-linux-musleabihf   qemu-arm-static
armel    arm-linux-gnueabi        arm-linux-musleabi     qemu-arm-static
arm64    aarch64-linux-gnu        aarch64-linux-musl     qemu-aarch64-static
aarch64  aarch64-linux-gnu        aarch64-linux-musl     qemu-aarch64-static
s390x    s390x-linux-gnu          s390x-linux-musl       qemu-s390x-static
i386     i686-linux-gnu           i386-linux-musl        qemu-i386-static
mipsel   mipsel-linux-gnu         mipsel-linux-musl      qemu-mipsel-static
mips64el mips64el-linux-gnuabi64  mips64el-linux-musl    qemu-mips64el-static
ppc64el  powerpc64le-linux-gnu    powerpc64le-linux-musl qemu-ppc64le-static
riscv64  riscv64-linux-gnu        riscv64-linux-musl     qemu-riscv64-static
amd64    x86_64-linux-gnu         x86_64-linux-musl      qemu-x86_64-static
EOF
}

# The kernel headers of triplet T: Debian's linux-libc-dev-ARCH-cross puts
# them in /usr/T/include, linux-libc-dev:ARCH in /usr/include/MULTIARCH
# (asm/ only; linux/ and asm-generic/ are shared by all architectures).
kernel_include() {
	dir=$1 cc=$2
	gnu=$($cc -dumpmachine 2>/dev/null) || gnu=
	multiarch=$($cc -print-multiarch 2>/dev/null) || multiarch=
	mkdir -p "$dir"
	for t in "$gnu" "$multiarch"; do
		[ -n "$t" ] && [ -d "/usr/$t/include/asm" ] || continue
		for d in linux asm asm-generic; do
			ln -sfn "/usr/$t/include/$d" "$dir/$d"
		done
		return 0
	done
	asm=/usr/include/asm
	for t in "$multiarch" "$gnu"; do
		if [ -n "$t" ] && [ -d "/usr/include/$t/asm" ]; then
			asm=/usr/include/$t/asm
			break
		fi
	done
	if [ ! -d "$asm" ] || [ ! -d /usr/include/linux ]; then
		echo "toolchain.sh: no kernel headers for ${gnu:-$cc}:" \
			"apt-get install --no-install-recommends linux-libc-dev" \
			"(or linux-libc-dev-ARCH-cross)" >&2
		exit 1
	fi
	ln -sfn /usr/include/linux "$dir/linux"
	ln -sfn /usr/include/asm-generic "$dir/asm-generic"
	ln -sfn "$asm" "$dir/asm"
}

# glibc, uClibc and bionic say who they are in their headers; musl
# deliberately does not, so it is what is left.
libc_of() {
	printf '%s\n' '#include <stdio.h>' \
		'#if defined __GLIBC__' 'zb_libc=glibc' \
		'#elif defined __UCLIBC__' 'zb_libc=uclibc' \
		'#elif defined __BIONIC__' 'zb_libc=bionic' \
		'#elif defined _NEWLIB_VERSION' 'zb_libc=newlib' \
		'#else' 'zb_libc=musl' '#endif' |
		$1 -E -P -x c - 2>/dev/null | sed -n 's/^zb_libc=//p'
}

describe() {
	cc=$1 static=$2
	if $cc -dM -E -x c /dev/null 2>/dev/null | grep -q __clang__; then
		kind=clang
	else
		kind=gcc
	fi
	version=$($cc -dumpfullversion -dumpversion 2>/dev/null | head -n 1)
	machine=$($cc -dumpmachine 2>/dev/null)
	libc=$(libc_of "$cc")
	[ "$static" = 0 ] && link=dynamic || link=static
	echo "$cc ($kind $version for $machine), ${libc:-unknown libc}, $link"
}

case $1 in
triplets)
	table | while read -r arch gnu musl qemu; do
		[ "$arch" = "$2" ] && echo "$gnu $musl $qemu"
	done | grep . ;;
archs)
	table | while read -r arch _; do printf '%s ' "$arch"; done; echo ;;
kernel-include)
	kernel_include "$2" "$3" ;;
describe)
	describe "$2" "$3" ;;
*)
	echo "usage: toolchain.sh triplets ARCH | archs | kernel-include DIR CC | describe CC STATIC" >&2
	exit 2 ;;
esac
