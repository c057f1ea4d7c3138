#!/usr/bin/env bash
# sql.sh ROWS - the sqlite3 shell's script of bench/real (and of
# tests/throttle/real.sh): ROWS inserts in one transaction, an index, and
# three queries over them.
set -eu
echo "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, qty INT, price REAL);"
echo "BEGIN;"
awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf "INSERT INTO t(name, qty, price) VALUES(%cname%d%c, %d, %d.25);\n", 39, i, 39, (i * 37) % 1009, i % 17 }'
echo "COMMIT;"
echo "CREATE INDEX t_qty ON t(qty);"
echo "SELECT count(*), sum(qty), printf('%.2f', sum(qty * price)) FROM t;"
echo "SELECT qty % 10, count(*), max(name) FROM t GROUP BY 1 ORDER BY 1;"
echo "SELECT count(*) FROM t WHERE qty BETWEEN 100 AND 200;"
