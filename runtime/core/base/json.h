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

/* The levels kept in the writer itself; deeper documents (call paths of
 * hundreds of nested calls, two levels each) grow a copy on the heap. */
#define LW_JSON_LEVELS 256

typedef struct lw_json {
    FILE *f;
    int depth;
    /* Per open level: its closing character ('}' or ']'), and LW_JSON_SOME
     * once something was written in it. In `inline` up to LW_JSON_LEVELS,
     * else on the heap (`cap` levels). */
    unsigned char *level;
    size_t cap;
    int failed; /* no memory for a deeper level: the document is not valid */
    unsigned char inline_levels[LW_JSON_LEVELS];
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
/* Ends the document with a newline and frees what the writer took; returns
 * 0, or -1 when the stream (or memory for its depth) failed. */
int lw_json_finish(lw_json *j);

#endif /* LIBWRAP_RUNTIME_JSON_H */
