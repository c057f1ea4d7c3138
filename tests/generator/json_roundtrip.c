/*
 * json_roundtrip.c - test driver: reads an inventory (inventory_read_json)
 * and writes it back (inventory_write_json). Exit 0, or 1 after the
 * reader's or writer's message.
 */
#include <stdio.h>

#include "model/inventory.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s IN.json OUT.json\n", argv[0]);
        return 2;
    }
    lwg_inventory inv;
    if (inventory_read_json(&inv, argv[1]) != 0)
        return 1;
    int rc = inventory_write_json(&inv, argv[2]) == 0 ? 0 : 1;
    inventory_free(&inv);
    return rc;
}
