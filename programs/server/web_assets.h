/*
 * web_assets.h -- the files of web/, compiled into the program.
 *
 * The build generates web_assets.c from every file of web/ (see
 * cmake/embed.cmake): one entry per file, named by its file name (web/ is
 * flat), in sorted order, the table ending with an entry whose name is NULL.
 * Each data array has a NUL byte after its `size` bytes.
 */
#ifndef BOUTON_WEB_ASSETS_H
#define BOUTON_WEB_ASSETS_H

#include <stddef.h>

typedef struct bt_web_asset {
    const char *name;          /* "index.html" */
    const unsigned char *data; /* the file's bytes */
    size_t size;               /* their number */
} bt_web_asset;

extern const bt_web_asset bt_web_assets[];

#endif
