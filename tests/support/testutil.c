/*
 * testutil.c -- see testutil.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <bouton.h>

#include "testutil.h"

static unsigned long long first = 20261122ULL, state_ = 20261122ULL;

int
bt_test_setup(void **state)
{
    const char *env = getenv("BT_TEST_SEED");
    (void)state;
    first = env ? strtoull(env, NULL, 10) : 20261122ULL;
    state_ = first;
    return 0;
}

unsigned long long
bt_test_seed(void)
{
    return first;
}

unsigned
bt_test_rnd(unsigned n)
{
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state_ >> 33) % n);
}

bt_position *
bt_test_parse(const char *text, const char *game, const bt_limits *lim)
{
    bt_position *p = NULL;
    bt_game *g = NULL;
    bt_diag d;
    memset(&d, 0, sizeof d);
    if (game != NULL && bt_game_new(&g, game, &d) != BT_OK)
        fail_msg("game '%s': %s", game, d.message);
    if (bt_position_parse(&p, text, g, lim, &d) != BT_OK) {
        bt_game_free(g);
        fail_msg("parse '%s': %s", text, d.message);
    }
    bt_game_free(g);
    return p;
}

int
bt_test_light(void)
{
    const char *env = getenv("BT_TEST_LIGHT");
    return env != NULL && *env != '\0' && strcmp(env, "0") != 0;
}
