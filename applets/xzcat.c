/*
 * xzcat.c - xzcat and unxz: .xz files decompressed by libbb's decoder
 * (libbb/xz_dec.c and the files it names) through the decompressors'
 * front end (libbb/unpack.c), as xz -dc and unxz do it.
 */
//config:config XZCAT
//config:	bool "xzcat"
//config:	default y
//config:	help
//config:	  Decompress .xz files to standard output, as xz -dc: LZMA2,
//config:	  concatenated streams, CRC32, CRC64 and SHA-256 checks, and
//config:	  a dictionary that grows with the output.
//config:
//config:config UNXZ
//config:	bool "unxz"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  The same decoder as unxz: FILE.xz becomes FILE (FILE.txz
//config:	  becomes FILE.tar).
//config:
//config:config FEATURE_XZ_FAST
//config:	bool "Decode LZMA for speed"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  The LZMA loop and CRC-64 built for speed (-O2, every coder
//config:	  inline): about 1.4 times as fast, for about 2 KiB.
//config:
//config:config FEATURE_XZ_X86
//config:	bool "x86 branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --x86 (x86 executables, kernels).
//config:
//config:config FEATURE_XZ_ARM
//config:	bool "ARM branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --arm (32-bit ARM code).
//config:
//config:config FEATURE_XZ_ARMTHUMB
//config:	bool "ARM-Thumb branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --armthumb (Thumb code).
//config:
//config:config FEATURE_XZ_ARM64
//config:	bool "ARM64 branch filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --arm64 (AArch64 code).
//config:
//config:config FEATURE_XZ_DELTA
//config:	bool "Delta filter"
//config:	default y
//config:	depends on XZCAT
//config:	help
//config:	  Decode .xz files made with xz --delta (images, audio).

/* The applets join the front end (libbb/unpack.c) when it lands. */
