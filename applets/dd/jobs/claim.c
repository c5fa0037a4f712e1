/*
 * claim.c - bmap= and conv=verify write a block device only when nobody
 * else uses it: opened with O_EXCL (without O_CREAT, which would refuse
 * any file that exists), a device that is mounted or claimed fails with
 * EBUSY.  Not with conv=excl, which keeps GNU's meaning.  A block device
 * on standard output is claimed through a descriptor of its own, kept
 * open to the end.  Plain dd stays GNU's.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs.h"

void die_claimed(const char *name)
{
	bb_perror_msg_and_die("cannot open %s exclusively (is it mounted or in use?)",
			      quote_always(name));
}

bool jobs_claim_output(const struct dd_options *opt)
{
	struct stat st;

	if (!((ENABLE_FEATURE_DD_BMAP && opt->bmap_path)
	      || (ENABLE_FEATURE_DD_VERIFY && (opt->conv & CONV_VERIFY)))
	    || (opt->conv & CONV_EXCL))
		return false;
	if ((opt->output_path ? stat(opt->output_path, &st)
	     : fstat(STDOUT_FILENO, &st)) != 0 || !S_ISBLK(st.st_mode))
		return false;
	if (!opt->output_path
	    && open("/proc/self/fd/1", O_RDONLY | O_EXCL | O_CLOEXEC) < 0
	    && errno == EBUSY)
		die_claimed("standard output");
	return opt->output_path != NULL;
}
