/*
 * bouton/grundy.h -- part of the public contract; include <bouton.h>.
 */
#ifndef BOUTON_GRUNDY_H
#define BOUTON_GRUNDY_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
