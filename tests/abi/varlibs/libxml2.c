/* libxml2.c - libxml2's variadic xmlStrPrintf with integers, strings,
 * doubles and characters. */
#include <libxml/xmlstring.h>
#include <stdio.h>

int main(void)
{
    xmlChar buf[128];
    int total = 0;
    for (int i = 0; i < 10; i++) {
        int n = xmlStrPrintf(buf, sizeof buf, "%d:%s:%.3f:%c:%lld:%e", i, "str", i / 7.0, 'A' + i,
                             (long long)i << 40, i * 1e10);
        total += n;
        printf("%s\n", (const char *)buf);
    }
    printf("total %d\n", total);
    return 0;
}
