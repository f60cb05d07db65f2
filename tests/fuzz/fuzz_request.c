/*
 * fuzz_request.c -- a libFuzzer harness on what the server reads from the
 * network: the position language (bt_position_parse) and the JSON request
 * bodies of every endpoint (srv_handle, which parses the body, the
 * position in both its forms, and answers).
 *
 * The first byte of an input picks the target; the rest is the text.  A
 * crash, a leak, undefined behaviour, a 5xx answer, an answer that is not
 * one JSON value, or one that jansson would print differently (the
 * server writes JSON itself, to the byte as jansson does) is a finding.
 * A position that parses must print in the position language and parse
 * back to the same position.
 *
 * Build and run: tests/fuzz/run.sh (clang -fsanitize=fuzzer).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const endpoints[] = {
    "/v1/analyze", "/v1/move",  "/v1/table", "/v1/count", "/v1/grundy",
    "/v1/pair",    "/v1/parse", "/v1/record", "/v1/games", "/v1/game",
    "/v1/nimber",  "/v1/nothing",
};
#define NENDPOINTS (sizeof endpoints / sizeof endpoints[0])

/* Small limits keep each input quick; the harness checks behaviour, not
   capacity. */
static void
small_config(srv_config *cfg)
{
    srv_config_default(cfg);
    cfg->lim.max_components = 64;
    cfg->lim.max_digits = 200;
    cfg->lim.max_text = 4096;
    cfg->lim.max_search = 2000;
    cfg->lim.max_grundy = 4096;
    cfg->lim.max_table_piles = 6;
    cfg->max_body = 4096;
    cfg->max_page = 20;
    cfg->max_values = 400;
    cfg->budget_ms = 200;
}

static void
check_position(const char *text, const srv_config *cfg)
{
    bt_game *nim = NULL;
    bt_position *p = NULL, *q = NULL;
    bt_diag diag;
    char *again;

    if (bt_game_new(&nim, "nim", NULL) != BT_OK)
        abort();
    memset(&diag, 0, sizeof diag);
    if (bt_position_parse(&p, text, nim, &cfg->lim, &diag) == BT_OK) {
        again = bt_position_format(p);
        if (!again)
            abort();
        if (bt_position_parse(&q, again, nim, &cfg->lim, NULL) != BT_OK ||
            !bt_position_equal(p, q)) {
            fprintf(stderr, "round trip failed: '%s' -> '%s'\n", text,
                    again);
            abort();
        }
        free(again);
    } else if (diag.has_offset && diag.offset > strlen(text)) {
        fprintf(stderr, "error offset %zu past the end of '%s'\n",
                diag.offset, text);
        abort();
    }
    bt_position_free(q);
    bt_position_free(p);
    bt_game_free(nim);
}

static void
check_request(unsigned which, const char *body, size_t len,
              const srv_config *cfg)
{
    const char *path = endpoints[which % NENDPOINTS];
    const char *method = which / NENDPOINTS % 4 == 3 ? "GET" : "POST";
    srv_reply r;
    json_t *v;

    srv_handle(&r, cfg, method, path, body, len);
    /* 503 is for a machine out of memory, which the fuzzer's limits keep
       away: here it would hide a failure to answer */
    if (r.status >= 500) {
        fprintf(stderr, "status %u for %s %s\n", r.status, method, path);
        abort();
    }
    v = json_loadb(r.body, r.size, 0, NULL);
    if (!v || r.size == 0 || r.body[r.size - 1] != '\n') {
        fprintf(stderr, "not one JSON line: %.*s\n", (int)r.size, r.body);
        abort();
    }
    /* server_api.c's own writer must print what jansson prints */
    {
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);

        if (!text || strlen(text) != r.size - 1 ||
            memcmp(text, r.body, r.size - 1) != 0) {
            fprintf(stderr, "answer differs from jansson's:\n%.*s%s\n",
                    (int)r.size, r.body, text ? text : "(null)");
            abort();
        }
        cli_json_free(text);
    }
    if ((r.status == 200) != (json_object_get(v, "error") == NULL)) {
        fprintf(stderr, "status %u with %.*s\n", r.status, (int)r.size,
                r.body);
        abort();
    }
    json_decref(v);
    srv_reply_free(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static srv_config cfg;
    static int ready;
    char *text;

    if (!ready) {
        small_config(&cfg);
        /* the server's allocators (server_api_mem.c), as `bouton serve`
           installs them: every JSON value and answer through them */
        srv_mem_install();
        ready = 1;
    }
    if (size < 1 || size > 8192)
        return 0;
    text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    if (data[0] < 32)
        check_position(text, &cfg);
    else
        check_request(data[0] - 32u, text, size - 1, &cfg);
    free(text);
    return 0;
}
