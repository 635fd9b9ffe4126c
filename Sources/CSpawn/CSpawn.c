#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CSpawn.h"

int decaf_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int decaf_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int decaf_pipe_closing_on_exec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}
