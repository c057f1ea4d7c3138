/*
 * json.h - a small streaming JSON writer for the runtime's results
 * (profile.json), so that the measured program needs no JSON library.
 *
 * Values are written as they come, pretty-printed ("key": value, two spaces
 * of indentation), through a buffer of the writer's that lw_json_finish
 * empties into the stream. Inside an object every value has a key; inside an array
 * and at the top, key is NULL. Errors of the stream are kept in the FILE and
 * reported by lw_json_finish. Not thread-safe: one writer per stream.
 *
 * The output is valid UTF-8 whatever the strings hold: a byte that is not
 * part of a valid UTF-8 sequence is written as U+FFFD, and a string member
 * "KEY" with such bytes is followed by "KEY_bytes", its bytes in hex
 * (common/utf8.h).
 */
#ifndef LIBWRAP_RUNTIME_JSON_H
#define LIBWRAP_RUNTIME_JSON_H

#include <stdint.h>
#include <stdio.h>

#define LW_JSON_MAX_DEPTH 256

typedef struct lw_json {
    FILE *f;
    int depth;
    unsigned char count[LW_JSON_MAX_DEPTH]; /* 0: nothing written yet at that depth */
    char close[LW_JSON_MAX_DEPTH];          /* '}' or ']' */
    /* The text not yet given to the stream: a document is many short
     * pieces, each a stdio call of its own otherwise. */
    size_t n;
    char buf[8192];
} lw_json;

void lw_json_init(lw_json *j, FILE *f);
void lw_json_object(lw_json *j, const char *key);
void lw_json_array(lw_json *j, const char *key);
void lw_json_end(lw_json *j); /* closes the innermost object or array */
void lw_json_string(lw_json *j, const char *key, const char *s); /* NULL: null */
void lw_json_uint(lw_json *j, const char *key, uint64_t v);
void lw_json_int(lw_json *j, const char *key, int64_t v);
void lw_json_double(lw_json *j, const char *key, double v); /* not finite: null */
void lw_json_bool(lw_json *j, const char *key, int v);
/* Ends the document with a newline; returns 0, or -1 when the stream failed. */
int lw_json_finish(lw_json *j);

#endif /* LIBWRAP_RUNTIME_JSON_H */
