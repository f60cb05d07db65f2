/*
 * bouton/play.h -- part of the public contract; include <bouton.h>.
 */
#ifndef BOUTON_PLAY_H
#define BOUTON_PLAY_H

#include <bouton/core.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
