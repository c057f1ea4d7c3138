/*
 * make_trace.c - writes a deterministic OTF2 archive shaped like the
 * runtime's: one location per thread, regions named by readable name with
 * the linker symbol as canonical name, clock properties with an offset and
 * a resolution that is not 1 GHz (so readers must convert ticks).
 *
 *   make_trace DIR [EVENTS [THREADS [TICKS_PER_SECOND [METRICS [IDLE]]]]]
 *
 * Writes DIR/traces.otf2, DIR/traces.def, DIR/traces/. EVENTS (default 64)
 * is the total of Enter and Leave events, rounded down to whole iterations
 * of 8; METRICS=1 adds a PAPI_TOT_INS metric at every outer Enter/Leave.
 * IDLE=1 defines one more location, "idle thread", with no events and no
 * event file, like a thread that never called a measured function (a shape
 * that otf2-print rejects but readers should tolerate).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <otf2/otf2.h>

#define OFFSET 1000000u /* first tick: readers must subtract it */
#define SCALE 1000u     /* ticks per step: an iteration lasts 300000 ticks */

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller, bool final)
{
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
    return 0;
}

static void check(OTF2_ErrorCode e, const char *what)
{
    if (e != OTF2_SUCCESS) {
        fprintf(stderr, "make_trace: %s: %s\n", what, OTF2_Error_GetDescription(e));
        exit(1);
    }
}

enum { S_EMPTY, S_COMPRESS, S_DEFLATE, S_CRC, S_PUSH, S_PUSH_SYM, S_FILE, S_FILE_CXX, S_NODE, S_GROUP,
       S_METRIC, S_METRIC_UNIT, S_THREAD0 };

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: make_trace DIR [EVENTS [THREADS [TICKS_PER_SECOND [METRICS [IDLE]]]]]\n");
        return 2;
    }
    uint64_t events = argc > 2 ? strtoull(argv[2], NULL, 10) : 64;
    uint64_t threads = argc > 3 ? strtoull(argv[3], NULL, 10) : 2;
    uint64_t resolution = argc > 4 ? strtoull(argv[4], NULL, 10) : 2000000000u;
    int metrics = argc > 5 && atoi(argv[5]);
    int idle = argc > 6 && atoi(argv[6]);
    if (threads == 0 || resolution == 0) {
        fprintf(stderr, "make_trace: THREADS and TICKS_PER_SECOND must be positive\n");
        return 2;
    }

    OTF2_Archive *ar = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                         OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!ar) {
        fprintf(stderr, "make_trace: cannot create the archive in %s\n", argv[1]);
        return 1;
    }
    OTF2_FlushCallbacks flush = {pre_flush, post_flush};
    check(OTF2_Archive_SetFlushCallbacks(ar, &flush, NULL), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "collective callbacks");
    check(OTF2_Archive_OpenEvtFiles(ar), "open event files");

    /* One iteration per thread: compress2 { deflate { crc32 } push_back }. */
    uint64_t iterations = events / 8 / threads, end = 0;
    OTF2_Type type = OTF2_TYPE_UINT64;
    for (uint64_t t = 0; t < threads; t++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, t);
        if (!w)
            check(OTF2_ERROR_INVALID, "event writer");
        uint64_t ts = OFFSET + t * 37 * SCALE;
        for (uint64_t i = 0; i < iterations; i++, ts += 300 * SCALE) {
            OTF2_MetricValue v = {.unsigned_int = i * 1000};
            if (metrics)
                check(OTF2_EvtWriter_Metric(w, NULL, ts, 0, 1, &type, &v), "metric");
            check(OTF2_EvtWriter_Enter(w, NULL, ts, 0), "enter");
            check(OTF2_EvtWriter_Enter(w, NULL, ts + 10 * SCALE, 1), "enter");
            check(OTF2_EvtWriter_Enter(w, NULL, ts + 20 * SCALE, 2), "enter");
            check(OTF2_EvtWriter_Leave(w, NULL, ts + 50 * SCALE, 2), "leave");
            check(OTF2_EvtWriter_Leave(w, NULL, ts + 80 * SCALE, 1), "leave");
            check(OTF2_EvtWriter_Enter(w, NULL, ts + 90 * SCALE, 3), "enter");
            check(OTF2_EvtWriter_Leave(w, NULL, ts + 96 * SCALE, 3), "leave");
            check(OTF2_EvtWriter_Leave(w, NULL, ts + 120 * SCALE, 0), "leave");
            v.unsigned_int = i * 1000 + 700;
            if (metrics)
                check(OTF2_EvtWriter_Metric(w, NULL, ts + 120 * SCALE, 0, 1, &type, &v), "metric");
            if (ts + 120 * SCALE > end)
                end = ts + 120 * SCALE;
        }
        check(OTF2_Archive_CloseEvtWriter(ar, w), "close event writer");
    }
    check(OTF2_Archive_CloseEvtFiles(ar), "close event files");

    /* Empty local definition files, as the runtime writes them. */
    check(OTF2_Archive_OpenDefFiles(ar), "open definition files");
    for (uint64_t t = 0; t < threads; t++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, t);
        check(OTF2_Archive_CloseDefWriter(ar, dw), "close definition writer");
    }
    check(OTF2_Archive_CloseDefFiles(ar), "close definition files");

    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    check(OTF2_GlobalDefWriter_WriteClockProperties(g, resolution, OFFSET, end - OFFSET, 0), "clock");
    static const char *strings[] = {"", "compress2", "deflate", "crc32", "std::vector<int>::push_back(const int&)",
                                    "_ZNSt6vectorIiSaIiEE9push_backERKi", "/usr/include/zlib.h",
                                    "/usr/include/c++/12/bits/stl_vector.h", "node", "process",
                                    "PAPI_TOT_INS", "#"};
    for (uint32_t i = 0; i < sizeof strings / sizeof *strings; i++)
        check(OTF2_GlobalDefWriter_WriteString(g, i, strings[i]), "string");
    for (uint64_t t = 0; t < threads; t++) {
        char name[32];
        snprintf(name, sizeof name, "thread %" PRIu64, t);
        check(OTF2_GlobalDefWriter_WriteString(g, S_THREAD0 + (uint32_t)t, name), "string");
    }
    static const struct { uint32_t name, sym, file, line; } regions[] = {
        {S_COMPRESS, S_COMPRESS, S_FILE, 1234}, {S_DEFLATE, S_DEFLATE, S_FILE, 250},
        {S_CRC, S_CRC, S_FILE, 1700}, {S_PUSH, S_PUSH_SYM, S_FILE_CXX, 1187}};
    for (uint32_t r = 0; r < 4; r++)
        check(OTF2_GlobalDefWriter_WriteRegion(g, r, regions[r].name, regions[r].sym, S_EMPTY,
                                               OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
                                               regions[r].file, regions[r].line, regions[r].line),
              "region");
    if (metrics) {
        check(OTF2_GlobalDefWriter_WriteMetricMember(g, 0, S_METRIC, S_EMPTY, OTF2_METRIC_TYPE_PAPI,
                                                     OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
                                                     OTF2_BASE_DECIMAL, 0, S_METRIC_UNIT),
              "metric member");
        OTF2_MetricMemberRef member = 0;
        check(OTF2_GlobalDefWriter_WriteMetricClass(g, 0, 1, &member, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                                    OTF2_RECORDER_KIND_CPU),
              "metric class");
    }
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_NODE, S_NODE, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "system tree");
    check(OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, S_GROUP, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                  OTF2_UNDEFINED_LOCATION_GROUP),
          "location group");
    for (uint64_t t = 0; t < threads; t++)
        check(OTF2_GlobalDefWriter_WriteLocation(g, t, S_THREAD0 + (uint32_t)t, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 iterations * (8 + 2 * (uint64_t)metrics), 0),
              "location");
    if (idle) {
        check(OTF2_GlobalDefWriter_WriteString(g, S_THREAD0 + (uint32_t)threads, "idle thread"), "string");
        check(OTF2_GlobalDefWriter_WriteLocation(g, threads, S_THREAD0 + (uint32_t)threads,
                                                 OTF2_LOCATION_TYPE_CPU_THREAD, 0, 0),
              "location");
    }
    check(OTF2_Archive_CloseGlobalDefWriter(ar, g), "close global definitions");
    check(OTF2_Archive_Close(ar), "close archive");
    return 0;
}
