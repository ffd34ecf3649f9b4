/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running one measurement or check in a fresh process, so that the
 * filters it loads (which cannot be removed) go with it.
 */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

/**
 * bench_in_child - @fn(@arg) in a fresh child process
 * @what: named in the line "# WHAT: the child died of signal N" if the
 *        child is killed by a signal; NULL prints nothing
 *
 * Returns 0 if @fn returned 0 in the child, 1 otherwise (it returned
 * non-zero, was killed, or the fork or the wait failed).
 */
int bench_in_child(int (*fn)(void *arg), void *arg, const char *what);

#endif
