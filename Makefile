# zerobox: one non-recursive Makefile (GNU make 4.2 or later).
# 'make help' lists the targets and variables.

O ?= build
# One spelling per directory (build, ./build, build/ and $(CURDIR)/build
# are the same build): relative inside the source tree, absolute outside.
override O := $(patsubst $(CURDIR)/%,%,$(abspath $(O)))
.DEFAULT_GOAL := all
# make install with neither DESTDIR= nor PREFIX= fills a staging directory,
# $(O)/_install (as BusyBox's _install), never the running system.
ifeq ($(origin PREFIX)$(origin DESTDIR),undefinedundefined)
  PREFIX :=
  DESTDIR = $(O)/_install
endif
LINKS ?= sym
STATIC ?= 1

ifeq ($(abspath $(O)),$(CURDIR))
$(error O= must not be the source tree: generated files never go there)
endif

# The binary is ./zerobox for the default build directory and $(O)/zerobox
# otherwise, so that several O= builds can live side by side.
ifeq ($(abspath $(O)),$(CURDIR)/build)
BIN := zerobox
else
BIN := $(O)/zerobox
endif

MAKEFLAGS += -r --no-print-directory
.SUFFIXES:
.DELETE_ON_ERROR:

# ---- toolchain -------------------------------------------------------

# CROSS=ARCH (a Debian architecture name: armhf, arm64, s390x, i386, ...)
# builds with Debian's multiarch musl for ARCH:
#   dpkg --add-architecture ARCH && apt-get update
#   apt-get install --no-install-recommends musl-dev:ARCH linux-libc-dev-ARCH-cross
# musl-dev:ARCH brings the cross gcc and /usr/bin/MUSL_TRIPLET-gcc, a
# wrapper that runs it with musl's specs; the kernel headers come from
# the -cross package (or linux-libc-dev:ARCH).  scripts/toolchain.sh has
# the architecture table.
ifneq ($(CROSS),)
  CROSS_TRIPLETS := $(shell $(SHELL) scripts/toolchain.sh triplets '$(CROSS)')
  ifeq ($(CROSS_TRIPLETS),)
    $(error CROSS=$(CROSS): unknown architecture (scripts/toolchain.sh lists them))
  endif
  CROSS_GNU := $(word 1,$(CROSS_TRIPLETS))
  CROSS_MUSL := $(word 2,$(CROSS_TRIPLETS))
  ifeq ($(wildcard /usr/lib/$(CROSS_MUSL)/musl-gcc.specs),)
    $(error CROSS=$(CROSS): no musl for $(CROSS): dpkg --add-architecture $(CROSS) && apt-get update && apt-get install --no-install-recommends musl-dev:$(CROSS) linux-libc-dev-$(CROSS)-cross)
  endif
  ifeq ($(origin CC),default)
    CC := $(CROSS_MUSL)-gcc
  endif
  STRIP ?= $(CROSS_GNU)-strip
endif

# musl-gcc when present (static musl binaries are the smallest), unless
# CC=, CROSS= or CROSS_COMPILE= says otherwise.  The build names the
# compiler and C library it used (scripts/toolchain.sh describe).
ifeq ($(origin CC),default)
  ifneq ($(CROSS_COMPILE),)
    CC := $(CROSS_COMPILE)gcc
  else ifneq ($(shell command -v musl-gcc 2>/dev/null),)
    CC := musl-gcc
  else
    CC := cc
  endif
endif
# CROSS_COMPILE=arm-linux-musleabihf- with Debian's wrapper has a gcc but
# no binutils of that name: strip with the ones of the gcc it runs.
ifeq ($(origin STRIP),undefined)
  ifneq ($(CROSS_COMPILE),)
    ifneq ($(shell command -v $(CROSS_COMPILE)strip 2>/dev/null),)
      STRIP := $(CROSS_COMPILE)strip
    else
      STRIP := $(shell $(CC) -dumpmachine 2>/dev/null)-strip
    endif
  else
    STRIP := strip
  endif
endif

# Size first.  -ffunction-sections/-fdata-sections with --gc-sections drop
# every function and table that no enabled applet reaches, so all sources
# are compiled whatever the configuration.  No unwind tables: nothing
# here throws or unwinds, and .eh_frame is several percent of the binary.
# 64-bit off_t everywhere: 32-bit glibc targets default to 32 bits.
# -Oz (GCC 12, clang) where the compiler has it: smaller than
# -Os, and the loops that matter (bb_is_all_zero, the conversions) come
# out the same; make sizes and make bench REF= measure it.
OPT_SIZE := $(shell $(CC) -Oz -x c -c /dev/null -o /dev/null 2>/dev/null \
	&& echo -Oz || echo -Os)
# -malign-data=abi (gcc on x86 only, hence the probe): gcc otherwise
# aligns large arrays beyond what the psABI asks, for vector loads, and
# pads the tables, option strings and messages to get there; ordinary
# loads need only the psABI's alignment.
ALIGN_DATA := $(shell $(CC) -malign-data=abi -x c -c /dev/null -o /dev/null \
	2>/dev/null && echo -malign-data=abi)
ZB_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 $(OPT_SIZE) -Wall -Wextra \
	-ffunction-sections -fdata-sections $(ALIGN_DATA) \
	-fno-asynchronous-unwind-tables -fno-unwind-tables
# -z noseparate-code: no page-aligned padding around .text (about 8 KiB).
ZB_LDFLAGS := -Wl,--gc-sections -Wl,-z,noseparate-code
ifneq ($(STATIC),0)
  # A static non-PIE binary: PIE code is larger and buys nothing here.
  # -z norelro: RELRO pads the file to a page boundary before .data
  # (about 3 KiB), and musl applies no RELRO in static binaries anyway.
  # -z common-page-size=64: otherwise ld may pad the file up to 4 KiB to
  # start the data segment on a page boundary (to save a page of address
  # space), which also makes size costs jump in page steps.
  ZB_CFLAGS += -fno-pie
  ZB_LDFLAGS += -static -Wl,-z,norelro -Wl,-z,common-page-size=64
endif

ALL_CFLAGS = $(ZB_CFLAGS) -I$(O)/include -Ilibbb $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS = $(ZB_LDFLAGS) $(LDFLAGS) $(EXTRA_LDFLAGS)

# Quiet "  CC file" lines, none at all with make -s, commands with V=1.
ifeq ($(V),1)
  Q :=
  msg :=
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
  Q := @
  msg :=
else
  Q := @
  msg = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif

# ---- sources and generated files -------------------------------------

LIBBB_SRCS := $(sort $(wildcard libbb/*.c))
APPLET_SRCS := $(shell find applets -name '*.c' ! -name '.*' | LC_ALL=C sort)
APPLET_DIRS := $(shell find applets -type d)
UNIT_SRCS := $(sort $(wildcard testsuite/unit/test_*.c))

LIBBB_OBJS := $(LIBBB_SRCS:%.c=$(O)/%.o)
APPLET_OBJS := $(APPLET_SRCS:%.c=$(O)/%.o)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(O)/%.o)
UNIT_BINS := $(UNIT_SRCS:testsuite/unit/%.c=$(O)/unit/%)
OBJS := $(LIBBB_OBJS) $(APPLET_OBJS)

AUTOCONF := $(O)/include/autoconf.h
RESOLVED_CONFIG := $(O)/include/config.resolved
GEN_APPLETS := $(O)/Config.applets.in $(O)/include/applet_tables.h \
	$(O)/applets.list
KCONFIG_FILES := Config.in libbb/Config.in $(O)/Config.applets.in
DEFCONFIGS := $(notdir $(wildcard config/*defconfig))

# Everything 'make clean' removes from $(O) (it keeps .config*).
CLEAN_FILES := libbb applets testsuite include unit sizes checkdefconfig bench-ref \
	initramfs toolchain _install \
	kernel-include \
	Config.applets.in applets.list defconfig zerobox \
	.stamp-applets .stamp-autoconf .cflags .ldflags

# The compiler, flags and object list of the build, recorded in files that
# change only when their content does, so that changing any of them (make
# CC=clang, a deleted source) rebuilds what it affects.  They are updated
# here, before make looks at any time, unless no goal builds anything.
CFLAGS_ID = $(CC) $(ALL_CFLAGS)
LDFLAGS_ID = $(CC) $(ALL_LDFLAGS) $(OBJS)
CONFIG_GOALS := menuconfig oldconfig olddefconfig allnoconfig allyesconfig \
	alldefconfig savedefconfig $(DEFCONFIGS)
NOBUILD_GOALS := clean distclean help uninstall checkdefconfig check-packaging \
	$(CONFIG_GOALS)

# A musl compiler from Debian (musl-gcc, or MUSL_TRIPLET-gcc for another
# architecture) sees musl's headers only.  When the compiler cannot find
# <linux/fs.h>, give it the kernel's UAPI headers of its own architecture
# (linux/, asm/, asm-generic/, which do not depend on the C library) after
# musl's, and nothing else.  Toolchains with a sysroot (Buildroot,
# OpenWrt) have their own and get nothing.
ifneq ($(filter-out $(NOBUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
  ifneq ($(shell printf '\043include <linux/fs.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 || echo missing),)
    KERNEL_INCLUDE := $(O)/kernel-include
    ZB_CFLAGS += -idirafter $(KERNEL_INCLUDE)
  endif
endif

ifneq ($(filter-out $(NOBUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
  $(shell mkdir -p $(O))
  ifneq ($(file <$(O)/.cflags),$(CFLAGS_ID))
    $(file >$(O)/.cflags,$(CFLAGS_ID))
  endif
  ifneq ($(file <$(O)/.ldflags),$(LDFLAGS_ID))
    $(file >$(O)/.ldflags,$(LDFLAGS_ID))
  endif
endif
# (Again if 'make clean all' removed them meanwhile.)
$(O)/.cflags:
	$(shell mkdir -p $(@D))$(file >$@,$(CFLAGS_ID))
$(O)/.ldflags:
	$(shell mkdir -p $(@D))$(file >$@,$(LDFLAGS_ID))

# 'make clean all', 'make tiny_defconfig all': one goal after the other,
# even with -j.
ifneq ($(filter clean distclean $(CONFIG_GOALS),$(MAKECMDGOALS)),)
  ifneq ($(filter-out clean distclean $(CONFIG_GOALS),$(MAKECMDGOALS)),)
    .NOTPARALLEL:
  endif
endif

# ---- build -----------------------------------------------------------

.PHONY: all
all: $(BIN) $(RESOLVED_CONFIG)

# The link names the compiler, the C library and the linking in one line
# (kept in $(O)/toolchain for make sizes).  A binary that is not static
# musl is never a silent surprise: make -s still says so.
$(BIN): $(OBJS) $(O)/.ldflags
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)
	$(Q)$(SHELL) scripts/toolchain.sh describe '$(CC)' '$(STATIC)' > $(O)/toolchain
	$(if $(msg),@echo "  zerobox: $$(cat $(O)/toolchain)",@grep -q ', musl, static$$' $(O)/toolchain || \
		echo "zerobox: not static musl: $$(cat $(O)/toolchain)")

$(O)/%.o: %.c $(AUTOCONF) $(O)/.cflags | $(KERNEL_INCLUDE)
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/applets/zerobox.o: $(O)/include/applet_tables.h

# Asked every build (git describe moves with each commit); the file is
# rewritten only when the version changes, and then only version.o is
# rebuilt.
VERSION_H := $(O)/include/version.h
$(O)/libbb/version.o: $(VERSION_H)
.PHONY: version-check
$(VERSION_H): version-check
	@mkdir -p $(@D)
	$(Q)srctree='$(CURDIR)' $(SHELL) scripts/gen_version.sh $@

$(KERNEL_INCLUDE):
	$(Q)$(SHELL) scripts/toolchain.sh kernel-include '$@' '$(CC)'

-include $(OBJS:.o=.d) $(UNIT_OBJS:.o=.d)

# FEATURE_XZ_FAST builds the .xz decoder's inner loops for speed, the
# rest stays built for size (docs/unpack.md has what each costs).
XZ_FAST_OBJS := $(O)/libbb/lzma_dec.o $(O)/libbb/crc64.o
$(XZ_FAST_OBJS): ALL_CFLAGS += $(if $(shell grep -s '^\#define ENABLE_FEATURE_XZ_FAST 1' $(AUTOCONF)),-O2)

# Generated files are written only when their content changes; the stamps
# remember that the generator ran.  The empty recipes make make look at
# the real files' times again, so an unchanged header rebuilds nothing.
$(O)/.stamp-applets: $(APPLET_SRCS) $(APPLET_DIRS) scripts/gen_applets.sh
	$(call msg,GEN,$(O)/include/applet_tables.h)
	$(Q)$(SHELL) scripts/gen_applets.sh $(O) $(APPLET_SRCS)
	@touch $@
$(GEN_APPLETS): $(O)/.stamp-applets ;

$(O)/.stamp-autoconf: $(O)/.config $(KCONFIG_FILES) scripts/gen_autoconf.sh
	$(call msg,GEN,$(AUTOCONF))
	@mkdir -p $(O)/include
	$(Q)$(SHELL) scripts/gen_autoconf.sh $(O)/.config $(AUTOCONF) $(KCONFIG_FILES)
	@touch $@
$(AUTOCONF): $(O)/.stamp-autoconf ;

# The configuration as built: every symbol that is on, defaults filled in
# for what .config does not mention (install and the tests read it).
$(RESOLVED_CONFIG): $(AUTOCONF)
	$(Q)sed -n 's/^#define CONFIG_\([A-Za-z0-9_]*\) 1$$/CONFIG_\1=y/p' $< > $@

# No .config yet: start from the full default one.
$(O)/.config: | $(O)/Config.applets.in
	$(call msg,CP,config/defconfig -> $@)
	$(Q)cp config/defconfig $@

# ---- unit tests ------------------------------------------------------

.PHONY: unit
unit: $(UNIT_BINS)

# Each testsuite/unit/test_*.c has its own main and links with libbb only.
# (Its object is kept: it is an intermediate file of a pattern chain.)
.SECONDARY: $(UNIT_OBJS)
$(O)/unit/%: $(O)/testsuite/unit/%.o $(LIBBB_OBJS) $(O)/.ldflags
	$(call msg,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(LIBBB_OBJS) $(LDLIBS)

# The bmap parser's unit test links the parser too.
BMAPFILE_OBJ := $(O)/applets/dd/jobs/bmapfile.o
$(O)/unit/test_bmapfile: $(O)/testsuite/unit/test_bmapfile.o $(BMAPFILE_OBJ) \
		$(LIBBB_OBJS) $(O)/.ldflags
	$(call msg,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(BMAPFILE_OBJ) $(LIBBB_OBJS) $(LDLIBS)

# The .xz decoder's unit test feeds it from memory: the front end's
# calls go to the test's own (as the fuzz harnesses' exit does), and it
# reads the test files of testsuite/xz/.
UNPACK_WRAP := -Wl,--wrap=unpack_fill -Wl,--wrap=unpack_read_failed \
	-Wl,--wrap=unpack_write -Wl,--wrap=unpack_error -Wl,--wrap=unpack_warn
$(O)/testsuite/unit/test_xz.o: ALL_CFLAGS += -DXZ_DIR='"$(CURDIR)/testsuite/xz"'
$(O)/unit/test_xz: ALL_LDFLAGS += $(UNPACK_WRAP)

# ddrescue's block list and mapfile code: its unit test and its fuzz
# harness link them.
RESCUE_MAP_OBJS := $(O)/applets/ddrescue/map.o $(O)/applets/ddrescue/mapfile.o
$(O)/unit/test_ddrescue_map: $(O)/testsuite/unit/test_ddrescue_map.o \
		$(RESCUE_MAP_OBJS) $(LIBBB_OBJS) $(O)/.ldflags
	$(call msg,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $< $(RESCUE_MAP_OBJS) $(LIBBB_OBJS) $(LDLIBS)

# ---- configuration ---------------------------------------------------

KCONFIG_ENV = srctree='$(CURDIR)' ZB_BUILD_DIR='$(abspath $(O))' \
	KCONFIG_CONFIG='$(abspath $(O))/.config'
ifdef KCONFIG_ALLCONFIG
  # The front-end runs in $(O): make a file name absolute.
  KCONFIG_ENV += KCONFIG_ALLCONFIG='$(if $(wildcard $(KCONFIG_ALLCONFIG)),$(abspath $(KCONFIG_ALLCONFIG)),$(KCONFIG_ALLCONFIG))'
endif

.PHONY: menuconfig oldconfig olddefconfig allnoconfig allyesconfig alldefconfig \
	savedefconfig checkdefconfig $(DEFCONFIGS)
menuconfig oldconfig olddefconfig: $(O)/.config $(O)/Config.applets.in
	$(Q)$(KCONFIG_ENV) $(SHELL) scripts/kconfig.sh $@

allnoconfig allyesconfig alldefconfig: $(O)/Config.applets.in
	$(Q)$(KCONFIG_ENV) $(SHELL) scripts/kconfig.sh $@

savedefconfig: $(O)/.config $(O)/Config.applets.in
	$(Q)$(KCONFIG_ENV) $(SHELL) scripts/kconfig.sh $@ '$(abspath $(O))/defconfig'
	@echo "minimal configuration written to $(O)/defconfig"

# make defconfig, make tiny_defconfig, ...: copy config/NAME to .config.
$(DEFCONFIGS): %: config/% | $(O)/Config.applets.in
	$(call msg,CP,$< -> $(O)/.config)
	$(Q)cp $< $(O)/.config

checkdefconfig: $(O)/Config.applets.in
	$(Q)srctree='$(CURDIR)' $(SHELL) scripts/checkdefconfig.sh '$(abspath $(O))'

# ---- install ---------------------------------------------------------

BINDIR = $(DESTDIR)$(PREFIX)/bin

.PHONY: install install-strip uninstall
install: $(BIN) $(O)/applets.list $(RESOLVED_CONFIG)
	$(Q)FORCE='$(FORCE)' $(SHELL) scripts/install.sh install '$(BIN)' '$(BINDIR)' '$(LINKS)' \
		$(O)/applets.list $(RESOLVED_CONFIG)

# The same, with the installed copy stripped (the build's stays as it is).
install-strip: $(BIN) $(O)/applets.list $(RESOLVED_CONFIG)
	$(Q)FORCE='$(FORCE)' INSTALL_STRIP='$(STRIP)' $(SHELL) scripts/install.sh install '$(BIN)' \
		'$(BINDIR)' '$(LINKS)' $(O)/applets.list $(RESOLVED_CONFIG)

uninstall: $(O)/applets.list $(RESOLVED_CONFIG)
	$(Q)$(SHELL) scripts/install.sh uninstall '$(BIN)' '$(BINDIR)' '$(LINKS)' \
		$(O)/applets.list $(RESOLVED_CONFIG)

# ---- checks and reports ----------------------------------------------

.PHONY: check sizes bench
check: $(BIN) unit $(O)/applets.list $(RESOLVED_CONFIG)
	@if [ ! -f testsuite/runtest ]; then \
		echo "testsuite/runtest not found" >&2; exit 1; fi
	$(Q)NM='$(CROSS_COMPILE)nm' O='$(O)' $(SHELL) scripts/layers.sh $(APPLET_OBJS) $(LIBBB_OBJS)
	$(Q)ZEROBOX='$(abspath $(BIN))' ZB_CONFIG='$(abspath $(RESOLVED_CONFIG))' \
		ZB_APPLETS_LIST='$(abspath $(O))/applets.list' \
		UNIT_DIR='$(abspath $(O))/unit' EMU='$(EMU)' \
		TEST_HOST='$(TEST_HOST)' $(SHELL) testsuite/runtest $(TESTS)

# Packaging checks in a scratch copy of the tree (scripts/check_packaging.sh
# lists them): a new applet is one file, defaults for a short .config,
# Kconfig help, install staging and FORCE=, the toolchain line.
.PHONY: check-packaging
check-packaging:
	$(Q)srctree='$(CURDIR)' MAKE='$(MAKE)' $(SHELL) scripts/check_packaging.sh

# Boot test (not part of check): zerobox in an initramfs under qemu,
# flashing a virtio disk (scripts/initramfs.sh says what it needs).
.PHONY: check-initramfs
check-initramfs: $(BIN)
	$(Q)$(SHELL) scripts/initramfs.sh '$(BIN)' '$(O)/initramfs'

# The variant builds get the same toolchain and flags.
sizes: $(BIN)
	$(Q)CC='$(CC)' STRIP='$(STRIP)' STATIC='$(STATIC)' \
		CROSS_COMPILE='$(CROSS_COMPILE)' CFLAGS='$(CFLAGS)' \
		LDFLAGS='$(LDFLAGS)' EXTRA_CFLAGS='$(EXTRA_CFLAGS)' \
		EXTRA_LDFLAGS='$(EXTRA_LDFLAGS)' MAKE='$(MAKE)' \
		srctree='$(CURDIR)' $(SHELL) scripts/sizes.sh '$(BIN)' '$(O)'

# make bench REF=COMMIT: build COMMIT too (from git archive, with this
# build's .config, in $(O)/bench-ref) and run it beside this build.
bench: $(BIN)
	@if [ ! -f scripts/bench.sh ]; then \
		echo "scripts/bench.sh not found" >&2; exit 1; fi
ifneq ($(REF),)
	$(Q)rm -rf '$(O)/bench-ref' && mkdir -p '$(O)/bench-ref/src' && \
		git archive '$(REF)' | tar -x -C '$(O)/bench-ref/src' && \
		mkdir -p '$(O)/bench-ref/build' && \
		cp '$(O)/.config' '$(O)/bench-ref/build/.config' && \
		$(MAKE) -s -C '$(O)/bench-ref/src' O='$(abspath $(O))/bench-ref/build' \
			CC='$(CC)' STATIC='$(STATIC)' REF= olddefconfig && \
		$(MAKE) -s -C '$(O)/bench-ref/src' O='$(abspath $(O))/bench-ref/build' \
			CC='$(CC)' STATIC='$(STATIC)' REF= all
	$(Q)ZEROBOX='$(abspath $(BIN))' \
		BENCH_REF='$(abspath $(O))/bench-ref/build/zerobox' \
		BENCH_REF_LABEL='ref $(REF)' $(SHELL) scripts/bench.sh
else
	$(Q)ZEROBOX='$(abspath $(BIN))' $(SHELL) scripts/bench.sh
endif

# ---- hardening: fuzzing, cross-architecture runs, static analysis ----
# (testsuite/fuzz/fuzz.h, scripts/cross.sh, scripts/analyze.sh)

# make fuzz [FUZZ_SECONDS=N]: build each libFuzzer harness with clang
# (ASan+UBSan) and run it N seconds from the committed seeds; new inputs
# go to $(O)/fuzz/corpus-NAME, crashes to $(O)/fuzz/crash-NAME-*.
# A target that never crashed may have no testsuite/fuzz/crashes/NAME.
FUZZ_TARGETS := parse_size operands conv bmapfile mapfile gunzip xz
FUZZ_SECONDS ?= 20
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -g -O1 \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I$(O)/include -Ilibbb -Iapplets/dd -Iapplets/dd/jobs -Itestsuite/fuzz
FUZZ_DEPS := testsuite/fuzz/fuzz.h $(LIBBB_SRCS) libbb/libbb.h \
	$(wildcard applets/dd/*.c applets/dd/*.h applets/dd/jobs/*.c applets/dd/jobs/*.h applets/ddrescue/*.c applets/ddrescue/*.h)
DD_SRCS := $(filter applets/dd/%,$(APPLET_SRCS))
DD_OBJS := $(filter $(O)/applets/dd/%,$(APPLET_OBJS))
RESCUE_MAP_SRCS := applets/ddrescue/map.c applets/ddrescue/mapfile.c
# The operand harness links all of dd; the conversion harness conv.c
# alone (it stubs the two functions conv.c calls); the bmap harness the
# parser alone; the mapfile harness ddrescue's map and mapfile.
fuzz_links = $(if $(filter operands,$(1)),$(2))$(if $(filter mapfile,$(1)),$(3))$(if $(filter conv,$(1)),$(filter %/conv.c %/conv.o,$(2)))$(if $(filter bmapfile,$(1)),$(filter %/bmapfile.c %/bmapfile.o,$(2)))

.PHONY: fuzz check-cross sizes-cross analyze
fuzz: $(FUZZ_TARGETS:%=$(O)/fuzz/fuzz_%)
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(O)/fuzz/corpus-$$t || exit 1; \
		if $(O)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-close_fd_mask=3 -print_final_stats=1 \
			$$([ $$t = operands ] && echo -detect_leaks=0) \
			-artifact_prefix=$(O)/fuzz/crash-$$t- \
			$(O)/fuzz/corpus-$$t testsuite/fuzz/corpus/$$t \
			$$(ls -d testsuite/fuzz/crashes/$$t 2>/dev/null) \
			> $(O)/fuzz/$$t.log 2>&1; then \
			printf '  FUZZ    %-10s %s execs in %s s, corpus %s\n' $$t \
				"$$(sed -n 's/^stat::number_of_executed_units: *//p' $(O)/fuzz/$$t.log)" \
				'$(FUZZ_SECONDS)' "$$(ls $(O)/fuzz/corpus-$$t | wc -l)"; \
		else \
			tail -n 40 $(O)/fuzz/$$t.log; \
			echo "fuzz $$t FAILED: input in $(O)/fuzz/crash-$$t-*; add it to testsuite/fuzz/crashes/$$t/" >&2; \
			exit 1; \
		fi; \
	done

# The .xz harness is fed by a front end in memory (UNPACK_WRAP, above).
$(O)/fuzz/fuzz_xz: FUZZ_CFLAGS += $(UNPACK_WRAP)
$(O)/unit/test_fuzz_xz: ALL_LDFLAGS += $(UNPACK_WRAP)
$(O)/fuzz/fuzz_xz $(O)/unit/test_fuzz_xz: libbb/xz.h testsuite/unit/unpack_feed.h
$(O)/fuzz/fuzz_%: testsuite/fuzz/fuzz_%.c $(FUZZ_DEPS) $(AUTOCONF)
	$(call msg,FUZZCC,$@)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Wl,--wrap=exit -o $@ $< $(LIBBB_SRCS) \
		$(call fuzz_links,$*,$(DD_SRCS),$(RESCUE_MAP_SRCS))

# Each harness is also a unit test (make check, under EMU= and in the
# sanitizer builds too): it replays the committed seeds and every input
# that once crashed (testsuite/fuzz/crashes/NAME/) with the build's own
# compiler and flags.
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(O)/unit/test_fuzz_%)
unit: $(FUZZ_REPLAY)
$(O)/unit/test_fuzz_%: testsuite/fuzz/fuzz_%.c testsuite/fuzz/replay.c \
		$(FUZZ_DEPS) $(LIBBB_OBJS) $(DD_OBJS) $(RESCUE_MAP_OBJS) $(O)/.cflags $(O)/.ldflags \
		| $(KERNEL_INCLUDE)
	$(call msg,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Iapplets/dd -Iapplets/dd/jobs -Itestsuite/fuzz \
		-DFUZZ_DIR='"$(CURDIR)/testsuite/fuzz"' -DFUZZ_NAME='"$*"' \
		$(ALL_LDFLAGS) -Wl,--wrap=exit -o $@ $< testsuite/fuzz/replay.c \
		$(LIBBB_OBJS) $(call fuzz_links,$*,$(DD_OBJS),$(RESCUE_MAP_OBJS)) $(LDLIBS)

# make check-cross [ARCHS="armhf s390x"] [TESTS=...]: build the static musl
# binary of each architecture (make CROSS=ARCH) into build-cross/ARCH and
# run the suite under qemu-user; make sizes-cross: only build, and print
# the stripped size of each.
ARCHS ?= armhf arm64 s390x i386
check-cross sizes-cross:
	$(Q)ARCHS='$(ARCHS)' TESTS='$(TESTS)' MAKE='$(MAKE)' \
		$(SHELL) scripts/cross.sh $(if $(filter sizes-cross,$@),--sizes-only)

# make analyze: cppcheck and clang-tidy over libbb/ and applets/; fails
# on any finding not justified in scripts/analyze.sh.
analyze: $(AUTOCONF) $(O)/include/applet_tables.h
	$(Q)$(SHELL) scripts/analyze.sh '$(O)'

CLEAN_FILES += fuzz

# ---- cleaning --------------------------------------------------------

.PHONY: clean distclean
clean:
	$(call msg,CLEAN,$(O))
	$(Q)rm -rf $(addprefix $(O)/,$(CLEAN_FILES)) $(BIN)

distclean: clean
	$(Q)rm -f $(O)/.config $(O)/.config.old
	@rmdir $(O) 2>/dev/null || true

# ---- help ------------------------------------------------------------

.PHONY: help
help:
	@echo 'Build:'
	@echo '  all (default)   build $(BIN) (from $(O)/.config; config/defconfig if none)'
	@echo '  unit            build the libbb unit tests into $(O)/unit/'
	@echo '  check           build, then run testsuite/runtest'
	@echo '  check-packaging a new applet is one file, .config defaults, install'
	@echo '                  staging, the toolchain line (in a scratch copy)'
	@echo '  check-initramfs boot zerobox in an initramfs under qemu (slow)'
	@echo '  check-board     dd writing a throttled card in a small guest (docs/board.md)'
	@echo '  check-rescue-vm ddrescue from device-mapper fault disks in a guest'
	@echo '  sizes           stripped size, and the cost of every applet and feature'
	@echo '  bench           run scripts/bench.sh (REF=COMMIT: that build beside this one)'
	@echo '  bench-zeros     wipe and sparse image into loop devices against GNU dd (docs/zeros.md)'
	@echo '  bench-bmap      bmap= against bmaptool copy on loop devices (docs/bmap.md)'
	@echo '  bench-unpack    zcat and xzcat against gzip, xz and BusyBox, 200 MiB mixed input (docs/unpack.md)'
	@echo '  fuzz            build the libFuzzer harnesses (clang) and run each'
	@echo '                  FUZZ_SECONDS (20) from testsuite/fuzz/corpus/'
	@echo '  check-cross     static musl build and suite under qemu-user, per ARCHS='
	@echo '                  ("$(ARCHS)"); TESTS= as for check'
	@echo '  sizes-cross     cross-build ARCHS= only; print each stripped size'
	@echo '  analyze         cppcheck and clang-tidy over libbb/ and applets/'
	@echo '  install         binary and applet links into $$(DESTDIR)$$(PREFIX)/bin;'
	@echo '                  $(O)/_install/bin unless DESTDIR= or PREFIX= is given'
	@echo '  install-strip   the same, with the installed binary stripped'
	@echo '  uninstall       remove what install put there'
	@echo '  clean           remove the build products (keeps $(O)/.config)'
	@echo '  distclean       clean, and remove $(O)/.config'
	@echo 'Configuration (kconfig-frontends or python3-kconfiglib):'
	@echo '  menuconfig oldconfig olddefconfig allnoconfig allyesconfig alldefconfig'
	@echo '  savedefconfig   write a minimal configuration to $(O)/defconfig'
	@echo '  checkdefconfig  check config/*defconfig against the Kconfig files'
	@echo '  $(DEFCONFIGS)'
	@echo '                  copy config/NAME to $(O)/.config'
	@echo 'Variables:'
	@echo '  O=DIR           build directory (default build; binary ./zerobox,'
	@echo '                  else DIR/zerobox)'
	@echo '  CROSS=ARCH      Debian multiarch musl for ARCH (armhf, arm64, s390x, i386,'
	@echo '                  ...): apt-get install musl-dev:ARCH linux-libc-dev-ARCH-cross'
	@echo '  CC= CROSS_COMPILE= STRIP= CFLAGS= LDFLAGS= EXTRA_CFLAGS= EXTRA_LDFLAGS='
	@echo '  STATIC=0        link dynamically (e.g. for sanitizer builds)'
	@echo '  V=1             show the commands'
	@echo '  DESTDIR= PREFIX=  install root and prefix (default: DESTDIR=$(O)/_install)'
	@echo '  FORCE=1         let install replace files that are not zerobox links'
	@echo '  LINKS=hard      hard links instead of symlinks for install'
	@echo '  KCONFIG_ALLCONFIG=FILE  preset symbols for allnoconfig/allyesconfig'
	@echo '  EMU= TEST_HOST=1  passed to testsuite/runtest by check'
	@echo '  TESTS="dd unit"   run only these testsuite/NAME.tests (check)'

# Board test (not part of check): dd on a 64 and a 48 MiB guest writing an
# image to a disk throttled like an SD card, zerobox against BusyBox and
# GNU dd; prints docs/board.md's tables (scripts/board.sh says what it needs
# and which variables change it: ROUNDS=3 for docs/board.md's medians, or a
# short run such as MEMS=64 IMAGE_MIB=64 CONTENDERS=zerobox; docs/bmap.md's
# bmap= against bmaptool copy is WRITES="bmap bmap-nocache" READS=
# CONTENDERS="zerobox bmaptool gnu").
.PHONY: check-board
check-board: $(BIN)
	$(Q)$(SHELL) scripts/board.sh '$(BIN)' '$(O)/board'

# Zeros and holes into a block device against GNU dd (not part of check;
# root, loop devices): docs/zeros.md's table.
.PHONY: bench-zeros
bench-zeros: $(BIN)
	$(Q)$(SHELL) scripts/bench_zeros.sh '$(abspath $(BIN))'

# bmap= against bmaptool copy on loop devices (not part of check; root,
# bmaptool): docs/bmap.md's table.
.PHONY: bench-bmap
bench-bmap: $(BIN)
	$(Q)$(SHELL) scripts/bench_bmap.sh '$(abspath $(BIN))'

# Decompressors against the reference tools and BusyBox on a 200 MiB
# mixed input (not part of check): docs/unpack.md's table.
.PHONY: bench-unpack
bench-unpack: $(BIN)
	$(Q)ZEROBOX='$(abspath $(BIN))' $(SHELL) scripts/bench_unpack.sh

# Rescue test (not part of check): ddrescue against GNU ddrescue in a
# guest, from device-mapper error, delay and flakey tables with O_DIRECT;
# prints docs/ddrescue.md's table (scripts/rescue_vm.sh says what it needs).
.PHONY: check-rescue-vm
check-rescue-vm: $(BIN)
	$(Q)$(SHELL) scripts/rescue_vm.sh '$(BIN)' '$(O)/rescue-vm'
