/*
 * bouton/export.h -- BT_API, the mark of a published function.
 * Part of the public contract; include <bouton.h> rather than this file.
 *
 * libbouton is compiled with -fvisibility=hidden: a function is exported
 * from the shared library only when its declaration carries BT_API, so the
 * library's internal bt__ functions and rulesets stay internal (as Lua's
 * LUA_API and LUAI_FUNC do).  Every function declared in <bouton.h> and
 * <bouton/...> is marked; nothing else is.
 */
#ifndef BOUTON_EXPORT_H
#define BOUTON_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define BT_API __attribute__((visibility("default")))
#else
#define BT_API
#endif

#endif
