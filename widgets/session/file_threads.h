// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * @file file_threads.h
 * The threads that read the files the window opens or re-reads (sessions,
 * table files, recovery copies, a saved governor source's hash): a pool of
 * their own, so that a read stuck on a hung file (an NFS server gone) holds
 * none of the simulation's threads, and never the GUI thread.
 */
#pragma once

class QThreadPool;

namespace idlescope {

/// The pool, made once and never destroyed: its end at exit would wait for a stuck read.
QThreadPool &fileThreads();

} // namespace idlescope
