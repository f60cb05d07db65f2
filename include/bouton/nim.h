/*
 * bouton/nim.h -- part of the public contract; include <bouton.h>.
 */
#ifndef BOUTON_NIM_H
#define BOUTON_NIM_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
