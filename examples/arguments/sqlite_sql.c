/*
 * sqlite_sql.c - which SQL a program prepares, and how often: a table
 * created, ten rows inserted with one statement prepared each time, a
 * count queried three times, the rows read back.
 *
 *   LIBWRAP_ARGUMENTS='sqlite3_prepare*:zSql' ./sqlite_sql
 *   libwrap-report --arguments libwrap-*
 */
#include <sqlite3.h>
#include <stdio.h>

static int run(sqlite3 *db, sqlite3_stmt *s, int a, const char *b)
{
    if (a >= 0)
        sqlite3_bind_int(s, 1, a);
    if (b)
        sqlite3_bind_text(s, 2, b, -1, SQLITE_STATIC);
    int rc, rows = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        rows++;
    if (rc != SQLITE_DONE)
        fprintf(stderr, "sqlite: %s\n", sqlite3_errmsg(db));
    sqlite3_finalize(s);
    return rows;
}

int main(void)
{
    static const char *const names[] = {"ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo"};
    sqlite3 *db;
    sqlite3_stmt *s;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return 1;
    sqlite3_prepare_v2(db, "CREATE TABLE t(a INTEGER, b TEXT)", -1, &s, NULL);
    run(db, s, -1, NULL);
    for (int i = 0; i < 10; i++) {
        sqlite3_prepare_v2(db, "INSERT INTO t VALUES(?1, ?2)", -1, &s, NULL);
        run(db, s, i, names[i]);
    }
    for (int i = 0; i < 3; i++) {
        sqlite3_prepare_v3(db, "SELECT count(*) FROM t WHERE a > ?1", -1, 0, &s, NULL);
        sqlite3_bind_int(s, 1, 3 * i);
        if (sqlite3_step(s) == SQLITE_ROW)
            printf("count(a > %d) = %d\n", 3 * i, sqlite3_column_int(s, 0));
        sqlite3_finalize(s);
    }
    sqlite3_prepare_v2(db, "SELECT b FROM t ORDER BY a", -1, &s, NULL);
    printf("rows = %d\n", run(db, s, -1, NULL));
    return sqlite3_close(db);
}
