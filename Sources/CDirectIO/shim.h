/* O_DIRECT, which the C library declares only for _GNU_SOURCE builds: writing gigabytes of output
 * around the page cache. Its value differs between architectures (Linux's asm/fcntl.h). */
#if defined(__aarch64__) || defined(__arm__)
#define DECAF_O_DIRECT 0200000
#elif defined(__powerpc__) || defined(__powerpc64__)
#define DECAF_O_DIRECT 0400000
#else
#define DECAF_O_DIRECT 040000
#endif
