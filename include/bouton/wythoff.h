/*
 * bouton/wythoff.h -- part of the public contract; include <bouton.h>.
 */
#ifndef BOUTON_WYTHOFF_H
#define BOUTON_WYTHOFF_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
