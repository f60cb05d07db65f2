/*
 * grundys.c -- Grundy's game (P. M. Grundy, Eureka 2, 1939): a move splits
 * one heap into two non-empty heaps of different sizes; heaps of 1 and 2
 * are dead.  Not an octal game (the parts must differ), but the engine
 * treats it as the split rule d0 = 4 with unequal parts.  Whether its
 * Grundy sequence is eventually periodic is an open problem (Winning Ways
 * ch. 4 conjectures it), so no periodicity is ever claimed as proved; its
 * values have a sparse space (Flammenkamp: mask ...1110 in binary), which
 * the rare-value method uses.
 *
 * Text: "grundy" (canonical) or "grundys-game"; no parameters.
 */
#include <stdlib.h>

#include "engines/heapgame.h"

static bt_status
grundys_init(bt_game *g, const char *name, const char *params, bt_diag *diag)
{
    static const unsigned char d[1] = {4};
    bt__heap_game *hg;
    bt_status st;
    if (params != NULL)
        return bt__fail_at(diag, BT_EPARSE, 0,
                           "%s takes no parameters (got '%s:%.40s')", name,
                           name, params);
    hg = calloc(1, sizeof *hg);
    if (hg == NULL)
        return bt__fail(diag, BT_ENOMEM, "out of memory");
    g->state = hg;
    st = bt__heap_rules_digits(&hg->rules, BT__HEAP_GRUNDY, d, 0, 1);
    if (st != BT_OK)
        return bt__fail(diag, st, "out of memory");
    st = bt__game_set_spec(g, "grundy");
    return st == BT_OK ? BT_OK : bt__fail(diag, st, "out of memory");
}

const bt__ruleset bt__ruleset_grundys = {
    .info =
        {"grundy", "grundy",
         "Grundy's game: split one heap into two non-empty heaps of different "
         "sizes.",
         "grundys-game", "Grundy's game", "grundy"},
    .arity = 1,
    .init = grundys_init,
    .fini = bt__heap_fini,
    .flags = BT__RS_HEAPS,
    .heap = bt__heap_state,
    .grundy = bt__heap_grundy,
    .options = bt__heap_options,
    .moves_to = bt__heap_moves_to,
    .is_option = bt__heap_is_option,
    .describe = bt__heap_describe,
    /* misere and explain: NULL, the generic search and explanation */
};
