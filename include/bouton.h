/*
 * bouton.h -- the whole public contract of libbouton.
 *
 * libbouton analyses Bouton's Nim and the games that grew out of it
 * (Wythoff's game, subtraction and octal games, and sums of them), exactly,
 * for numbers of any size.  Nothing that is not declared in this header or
 * in the headers it includes below is a published API.
 *
 * Conventions (they hold for every function of the library):
 *   - A function that can fail returns bt_status; BT_OK is zero.
 *   - Outputs come before inputs, as in GMP; mpz_t arguments belong to the
 *     caller, who initialises and clears them; aliasing is allowed.
 *   - Arguments are borrowed: no function keeps a pointer after it returns
 *     unless its comment says so.
 *   - What bt_X_new() makes, bt_X_free() releases; it accepts NULL.
 *   - On failure an out-pointer is set to NULL, and an optional bt_diag
 *     receives a one-line message naming the input at fault.
 *   - Every size a caller can control is checked against a bt_limits before
 *     GMP or a table sees it, so bad or huge input gives BT_ELIMIT, never an
 *     abort.
 *   - The library does no I/O.  Objects are not shared between threads;
 *     distinct objects may be used from distinct threads.
 *   - Component indexes are 0-based in C (the CLI and JSON count from 1).
 */
#ifndef BOUTON_H
#define BOUTON_H

#include <bouton/core.h>
#include <bouton/nim.h>
#include <bouton/wythoff.h>
#include <bouton/grundy.h>
#include <bouton/play.h>
#include <bouton/misere.h>
#include <bouton/nimber.h>

#endif
