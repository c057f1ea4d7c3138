# blobs.py N - bench/real and tests/throttle: N zlib-compressed blobs inserted into
# an in-memory sqlite3 database, read back and decompressed; prints N and
# the bytes read back.
import sqlite3, sys, zlib
n = int(sys.argv[1])
db = sqlite3.connect(":memory:")
db.execute("CREATE TABLE b(id INTEGER PRIMARY KEY, data BLOB)")
payload = bytes(range(256)) * 8
with db:
    for i in range(n):
        db.execute("INSERT INTO b(data) VALUES(?)", (zlib.compress(payload[: 256 + i % 1792]),))
total = sum(len(zlib.decompress(d)) for (d,) in db.execute("SELECT data FROM b"))
print(n, total)
