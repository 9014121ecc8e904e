/* The benchmark's registry of algorithms (algo.h). */
#include "algo.h"

#include <stdio.h>
#include <string.h>

#include "names.h"
/* Colour, marker and dash each tell the series apart on their own, so the
 * chart reads in grey print and for every kind of colour vision. */
static const sv_algo_info algos[SV_ALGO_COUNT] = {
    [SV_ALGO_COPY] = { "copy", "copy (the bound)", 0, 0, SV_MARKER_SQUARE, SV_DASH_SOLID },
    [SV_ALGO_CUB] = { "cub", "CUB", 0x009E73, 0x009E73, SV_MARKER_DIAMOND, SV_DASH_DASHED },
    [SV_ALGO_HS] = { "hs", "hs (Hillis-Steele, tuned)", 0x56B4E9, 0x0072B2, SV_MARKER_CIRCLE,
                     SV_DASH_SOLID },
    [SV_ALGO_HS_LOOKBACK] = { "hs-lookback", "hs-lookback (first hs)", 0x0072B2, 0x56B4E9,
                              SV_MARKER_CIRCLE, SV_DASH_DOTTED },
    [SV_ALGO_HS_NAIVE] = { "hs-naive", "hs-naive (chapter)", 0xE69F00, 0xE69F00,
                           SV_MARKER_TRIANGLE, SV_DASH_DOTTED },
    [SV_ALGO_BLELLOCH] = { "blelloch", "Blelloch", 0xCC79A7, 0xCC79A7,
                           SV_MARKER_TRIANGLE_DOWN, SV_DASH_DASHDOT },
    [SV_ALGO_CPU] = { "cpu", "CPU (1 core)", 0xD55E00, 0xD55E00, SV_MARKER_CROSS,
                      SV_DASH_DASHED },
};

const sv_algo_info *sv_algo_get(sv_algo a)
{
    return (int)a >= 0 && a < SV_ALGO_COUNT ? &algos[a] : NULL;
}

const char *sv_algo_name(sv_algo a)
{
    const sv_algo_info *i = sv_algo_get(a);
    return i ? i->name : NULL;
}

bool sv_algo_from_name(const char *name, sv_algo *out)
{
    int a = SV_NAME_INDEX(name, algos, SV_ALGO_COUNT);
    if (a >= 0 && out)
        *out = (sv_algo)a;
    return a >= 0;
}

bool sv_algo_is_gpu(sv_algo a)
{
    return (int)a >= 0 && a < SV_ALGO_GPU_COUNT;
}

void sv_algo_list(char *buf, size_t len, const char *last_sep)
{
    size_t used = 0;
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    for (int a = 0; a < SV_ALGO_COUNT && used < len; a++) {
        const char *sep = a == 0 ? "" : a == SV_ALGO_COUNT - 1 ? last_sep : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, algos[a].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
