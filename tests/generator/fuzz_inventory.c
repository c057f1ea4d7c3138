/*
 * fuzz_inventory.c - libFuzzer target for the inventory reader.
 *
 * Every input is read as an inventory; a rejected one must have left the
 * inventory empty (callers free it either way). An accepted one must
 * survive a round trip, as generator_json_roundtrip checks for generated files:
 * written out and read back, it gives the same line-per-function dump,
 * which walks every field the emitters and probes use.
 */
#include "model/inventory.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dump(const lwg_inventory *inv, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        abort();
    inventory_dump(inv, f);
    fclose(f);
    return text;
}

static char dir[] = "/tmp/libwrap-fuzz-inventory-XXXXXX";
static char *file;

static void remove_scratch(void)
{
    unlink(file);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!file) {
        if (!mkdtemp(dir) || asprintf(&file, "%s/again.json", dir) < 0)
            abort();
        atexit(remove_scratch);
    }
    lwg_inventory inv, again;
    if (inventory_read_json_string(&inv, (const char *)data, size, "fuzz.inventory.json") != 0) {
        if (inv.nfuncs != 0)
            abort();
        inventory_free(&inv);
        return 0;
    }
    if (inventory_write_json(&inv, file) != 0 || inventory_read_json(&again, file) != 0)
        abort();
    size_t n1, n2;
    char *d1 = dump(&inv, &n1), *d2 = dump(&again, &n2);
    if (n1 != n2 || memcmp(d1, d2, n1) != 0)
        abort();
    free(d1);
    free(d2);
    inventory_free(&inv);
    inventory_free(&again);
    return 0;
}
