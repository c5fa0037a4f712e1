/*
 * version.c - the version string, from the generated version.h (the
 * VERSION file and git describe: scripts/gen_version.sh).  Only this file
 * includes it, so a new commit recompiles one file.
 */
#include "libbb.h"
#include "version.h"

const char bb_version[] = ZB_VERSION;
