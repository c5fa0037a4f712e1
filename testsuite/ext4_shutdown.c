/* ext4_shutdown DIR: shut down the ext4 filesystem that holds DIR, as
 * a failing disk would, without flushing the journal.  From then on
 * every write to it fails with EIO until it is unmounted and mounted
 * again.  dd_zerocopy_faults.tests compiles it on the fly. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The kernel's values (fs/ext4/ext4.h), not exported to user space. */
#define SHUTDOWN_REQUEST _IOR('X', 125, uint32_t)
#define SHUTDOWN_NOLOGFLUSH 2

int main(int argc, char **argv)
{
	uint32_t how = SHUTDOWN_NOLOGFLUSH;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ext4_shutdown DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, SHUTDOWN_REQUEST, &how) != 0) {
		perror(argv[1]);
		return 1;
	}
	close(fd);
	return 0;
}
