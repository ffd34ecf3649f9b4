/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Behaviour checks behind the side-by-side capabilities table: what the
 * code of each mechanism says, observed in the guest. One line each,
 * read by bench/side_by_side.py:
 *   CHECK <name> pass|fail <observed> <expected>
 */
#ifndef SIDE_CHECKS_H
#define SIDE_CHECKS_H

#include <stdbool.h>

/*
 * side_checks - run every check a @stock kernel (io_uring's filters
 * only) or the patched one can; each in a fresh child. Returns 0 if all
 * passed, 1 if not.
 */
int side_checks(bool stock);
#endif
