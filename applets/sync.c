/*
 * sync.c - commit cached writes to storage, as GNU coreutils sync:
 * sync() with no FILE, else fsync, fdatasync (-d) or syncfs (-f) of each.
 */
//config:config SYNC
//config:	bool "sync"
//config:	default y
//config:	help
//config:	  Synchronize cached writes to persistent storage.

//applet:sync sync_main SYNC

//usage:[-df] [FILE]...
//usage:Synchronize cached writes to persistent storage: all of them, or
//usage:those of each FILE.
//usage:
//usage:  -d   sync only file data, no unneeded metadata
//usage:  -f   sync the file systems that contain the files

#include <fcntl.h>
#include <unistd.h>

#include "libbb.h"

static const char sync_longopts[] = "ddata\0" "ffile-system\0";

int sync_main(int argc, char **argv)
{
	int c, data = 0, fs = 0, status = EXIT_SUCCESS;

	while ((c = bb_getopt(argc, argv, ":df", sync_longopts)) != -1) {
		if (c == 'd')
			data = 1;
		else if (c == 'f')
			fs = 1;
	}
	if (data && fs)
		bb_error_msg_and_die("cannot specify both --data and --file-system");
	if (data && optind >= argc)
		bb_error_msg_and_die("--data needs at least one argument");
	if (optind >= argc) {
		sync();
		return EXIT_SUCCESS;
	}
	for (; optind < argc; optind++) {
		const char *name = argv[optind];
		int fd = open(name, O_RDONLY | O_NONBLOCK);
		int r;

		/* A file we may only write (GNU tries that too). */
		if (fd < 0)
			fd = open(name, O_WRONLY | O_NONBLOCK);
		if (fd < 0) {
			status = bb_perror_name("error opening %s", name);
			continue;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		r = fs ? syncfs(fd) : data ? fdatasync(fd) : fsync(fd);
		if (r != 0)
			status = bb_perror_name("error syncing %s", name);
		if (close(fd) != 0)
			status = bb_perror_name("failed to close %s", name);
	}
	return status;
}
