/* Linux's fallocate(2), which the C library declares only for _GNU_SOURCE builds: reserving a
 * file's blocks ahead of large writes. */
#include <sys/types.h>

#define DECAF_FALLOC_FL_KEEP_SIZE 0x01

extern int fallocate(int fd, int mode, off_t offset, off_t len);
