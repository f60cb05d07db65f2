/*
 * consumer.c -- a program that uses an installed libbouton, as a user's
 * would: <bouton.h> from the include directory, the library from its
 * directory.  Built by install.sh through pkg-config and through
 * find_package(bouton).  Prints the library's version; exits 1 when the
 * analysis of a Nim position disagrees with Bouton's rule computed here.
 */
#include <stdio.h>
#include <string.h>

#include <bouton.h>

int
main(void)
{
    static const unsigned long piles[] = {3, 4, 5, 12, 9};
    unsigned long x = 0;
    size_t i;
    int ok = 1;
    bt_position *p = NULL;
    bt_analysis *a = NULL;
    mpz_t g;
    char text[128] = "nim";
    bt_diag diag;

    /* The header and the library linked in are one version. */
    if (strcmp(bt_version_string(), BT_VERSION_STRING) != 0)
        ok = 0;
    for (i = 0; i < sizeof piles / sizeof piles[0]; i++) {
        x ^= piles[i];
        snprintf(text + strlen(text), sizeof text - strlen(text), " %lu",
                 piles[i]);
    }
    mpz_init(g);
    if (bt_position_parse(&p, text, NULL, NULL, &diag) != BT_OK ||
        bt_analyze(&a, p, 0, NULL, &diag) != BT_OK) {
        fprintf(stderr, "consumer: %s\n", diag.message);
        ok = 0;
    } else {
        /* Bouton: the position is P exactly when the nim-sum is 0. */
        if (bt_analysis_grundy(g, a) != BT_OK || mpz_cmp_ui(g, x) != 0 ||
            bt_analysis_outcome(a) != (x == 0 ? BT_P : BT_N))
            ok = 0;
    }
    printf("bouton %s\n", bt_version_string());
    bt_analysis_free(a);
    bt_position_free(p);
    mpz_clear(g);
    return ok ? 0 : 1;
}
