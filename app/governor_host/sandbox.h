// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file sandbox.h
 * The governor host's cell. A governor file is code from anywhere (a
 * colleague's tarball, a session found on the web): before the host loads
 * it (its initcalls run at load), the host shuts itself in, in three layers
 * that do not depend on each other:
 *
 * - rlimits: 1 GiB of memory, an hour of CPU, no file written, no process
 *   started, no core dump;
 * - Linux namespaces (unshare(2)): a user namespace of its own, so that the
 *   two below need no privilege; a network namespace with no interface; a
 *   mount namespace whose root holds the built governor only (read-only);
 * - a seccomp filter (libseccomp): only the system calls the replay needs,
 *   writes to the decision and text channels only, signals to itself only;
 *   any other call stops the host and names the call (HOST_EXIT_SANDBOX).
 *
 * Then the parent-death signal: the host dies with the idlescope thread
 * that watches it. Where the kernel or a container forbids a layer, the host
 * goes on without it and HostProgress::sandbox says which one is missing
 * (idlescope says so in the run's message): never silently unconfined.
 */
#pragma once

#include "core/source_governor/host_protocol.h"

#include <string>
#include <sys/types.h>

namespace idlescope::source_governor {

/**
 * Confines this process as above, recording in @p progress what it could
 * and could not do. @p sharedObject is the governor to load: the path to
 * dlopen() afterwards is returned (inside the new root when there is one).
 * @p parent is idlescope's pid (0: not checked): a host whose parent is
 * already gone exits. A step that fails for a reason other than the kernel or a
 * container forbidding its mechanism (a copy cut short, an object past
 * HOST_OBJECT_LIMIT) sets @p refusal: the host must not run the governor.
 */
std::string confine(const std::string &sharedObject, pid_t parent, HostProgress &progress, std::string &refusal);

} // namespace idlescope::source_governor
