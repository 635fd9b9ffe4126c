#ifndef DECAF_CSPAWN_H
#define DECAF_CSPAWN_H

#include <spawn.h>

/// posix_spawn's file actions and a pipe call that glibc declares only under _GNU_SOURCE, which
/// Swift's Glibc module does not define: wrappers compiled with it.

/// Closes every descriptor from `lowest` up in the child, after the actions before it
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34).
int decaf_spawn_add_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Makes `path` the child's working directory (posix_spawn_file_actions_addchdir_np, glibc 2.29).
int decaf_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// A pipe whose two ends close on exec, made in one call (pipe2 with O_CLOEXEC): no child started
/// meanwhile on another thread gets them.
int decaf_pipe_closing_on_exec(int descriptors[2]);

#endif
