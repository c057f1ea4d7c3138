/* curl.c - libcurl's variadic curl_easy_setopt and curl_easy_getinfo with
 * every kind of argument (long, pointer, function pointer, curl_off_t),
 * fetching a local file (file://) five times. */
#include <curl/curl.h>
#include <stdio.h>

static size_t sink(char *data, size_t size, size_t n, void *user)
{
    unsigned long *sum = user;
    for (size_t i = 0; i < size * n; i++)
        *sum = *sum * 31 + (unsigned char)data[i];
    return size * n;
}

int main(int argc, char **argv)
{
    char url[4096];
    snprintf(url, sizeof url, "file://%s", argc > 1 ? argv[1] : "/etc/hostname");
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return 2;
    for (int round = 0; round < 5; round++) {
        CURL *c = curl_easy_init();
        unsigned long sum = 0;
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sink);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &sum);
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 1L);
        curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)1 << 40);
        curl_easy_setopt(c, CURLOPT_RANGE, round % 2 ? "0-99" : (const char *)NULL);
        CURLcode rc = curl_easy_perform(c);
        curl_off_t got = 0;
        char *effective = NULL;
        long filetime = 0;
        curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &got);
        curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &effective);
        curl_easy_getinfo(c, CURLINFO_FILETIME, &filetime);
        printf("round %d: %s, %lld bytes, checksum %lu, url %s\n", round, curl_easy_strerror(rc),
               (long long)got, sum, effective ? effective + 7 : "?");
        curl_easy_cleanup(c);
    }
    curl_global_cleanup();
    return 0;
}
