/* The look-back timeline file (docs/timeline-format.md): the writer lays the
 * JSON out by hand, one column of the tiles per array, 16 values a line; the
 * reader parses with jansson and validates every field, naming it and its
 * position on error. */
#include "timeline.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "error.h"
#include "fileio.h"

sv_timeline *sv_timeline_new(uint32_t ntiles)
{
    sv_timeline *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ntiles = ntiles;
    t->tiles = calloc(ntiles ? ntiles : 1, sizeof *t->tiles);
    if (!t->tiles) {
        free(t);
        return NULL;
    }
    return t;
}

void sv_timeline_destroy(sv_timeline *t)
{
    if (!t)
        return;
    free(t->tiles);
    free(t->looks);
    free(t);
}

sv_tile_state sv_timeline_state_at(const sv_timeline *t, uint32_t tile, uint64_t time)
{
    const sv_timeline_tile *x = &t->tiles[tile];
    if (time < x->start)
        return SV_TILE_NOT_STARTED;
    if (time >= x->end && x->end > x->start && !x->no_end)
        return SV_TILE_DONE;
    if (!x->no_inclusive && time >= x->inclusive)
        return SV_TILE_PREFIX;
    if (x->wait_to > x->wait_from && time >= x->wait_from &&
        (time < x->wait_to || (x->no_end && time == x->wait_to)))
        return SV_TILE_WAITING;
    if (!x->no_aggregate && time >= x->aggregate)
        return SV_TILE_AGGREGATE;
    return SV_TILE_RUNNING;
}

char *sv_timeline_state_words(const sv_timeline *t, uint64_t time, char *buf, size_t len)
{
    static const char *const words[SV_TILE_STATES] = {
        "not started", "running", "waiting for another tile", "with its aggregate out",
        "with its inclusive prefix out", "done"};
    uint32_t count[SV_TILE_STATES] = {0};
    for (uint32_t i = 0; i < t->ntiles; i++)
        count[sv_timeline_state_at(t, i, time)]++;
    size_t o = (size_t)snprintf(buf, len, "at %" PRIu64 ":", time);
    bool any = false;
    for (int k = SV_TILE_STATES - 1; k >= 0 && o < len; k--)
        if (count[k]) {
            o += (size_t)snprintf(buf + o, len - o, "%s %" PRIu32 " %s", any ? "," : "", count[k],
                                  words[k]);
            any = true;
        }
    return buf;
}

static void step_to(uint64_t v, uint64_t from, bool later, bool *found, uint64_t *best)
{
    if (from != SV_TL_NO_CURSOR && (later ? v <= from : v >= from))
        return;
    if (!*found || (later ? v < *best : v > *best)) {
        *best = v;
        *found = true;
    }
}

bool sv_timeline_step_time(const sv_timeline *t, uint64_t from, bool later, uint64_t *out)
{
    bool found = false;
    uint64_t best = 0;
    for (uint32_t i = 0; i < t->ntiles; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        step_to(x->start, from, later, &found, &best);
        step_to(x->end, from, later, &found, &best);
        if (!x->no_aggregate)
            step_to(x->aggregate, from, later, &found, &best);
        if (!x->no_inclusive)
            step_to(x->inclusive, from, later, &found, &best);
        if (x->wait_to > x->wait_from)
            step_to(x->wait_from, from, later, &found, &best);
    }
    for (size_t k = 0; k < t->nlooks; k++)
        step_to(t->looks[k].time, from, later, &found, &best);
    if (found)
        *out = best;
    return found;
}

uint64_t sv_timeline_span(const sv_timeline *t)
{
    uint64_t m = 0;
    for (uint32_t i = 0; t && i < t->ntiles; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        uint64_t v[] = {x->start, x->aggregate, x->inclusive, x->end};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            if (v[k] > m)
                m = v[k];
    }
    return m;
}

/* ---- The rules both sides keep ------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool fail(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sv_errorf(why, whylen, "%s", buf);
    return false;
}

bool sv_timeline_check(const sv_timeline *t, char *why, size_t whylen)
{
    if (strcmp(t->algo, "hs") != 0)
        return fail(why, whylen, "algo: \"%s\" is not \"hs\", the one scan that records", t->algo);
    if (t->type != SV_TYPE_INT32 && t->type != SV_TYPE_FLOAT32)
        return fail(why, whylen, "type: not int32 or float32");
    if (t->n < 1 || t->n > INT32_MAX)
        return fail(why, whylen, "n: %" PRIu64 " is outside 1 .. 2147483647", t->n);
    if (t->tile < 1 || t->tile > (1u << 26))
        return fail(why, whylen, "tile: %" PRIu32 " is outside 1 .. 67108864", t->tile);
    const uint64_t want = (t->n + t->tile - 1) / t->tile;
    if (want > SV_TIMELINE_MAX_TILES)
        return fail(why, whylen, "n / tile: %" PRIu64 " tiles, more than the %u a timeline holds",
                    want, SV_TIMELINE_MAX_TILES);
    if (t->ntiles != want)
        return fail(why, whylen, "tiles: %" PRIu32 " of them, but n = %" PRIu64
                    " in tiles of %" PRIu32 " makes %" PRIu64, t->ntiles, t->n, t->tile, want);
    if (t->blocks < 1 || t->blocks > t->ntiles)
        return fail(why, whylen, "blocks: %" PRIu32 " is outside 1 .. %" PRIu32 " (the tiles)",
                    t->blocks, t->ntiles);
    if (t->reps < 1 || t->reps > 100000)
        return fail(why, whylen, "overhead.reps: %d is outside 1 .. 100000", t->reps);
    if (!(isfinite(t->plain_us) && t->plain_us > 0))
        return fail(why, whylen, "overhead.plain_us: not a positive number");
    if (!(isfinite(t->recorded_us) && t->recorded_us > 0))
        return fail(why, whylen, "overhead.recorded_us: not a positive number");
    for (uint32_t i = 0; i < t->ntiles; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        const struct {
            const char *name;
            uint64_t v;
        } times[] = {{"start", x->start}, {"aggregate", x->aggregate},
                     {"inclusive", x->inclusive}, {"end", x->end}};
        for (size_t k = 0; k < 4; k++)
            if (times[k].v > SV_TIMELINE_MAX_NS)
                return fail(why, whylen, "tiles.%s[%" PRIu32 "]: %" PRIu64 " ns is past 2^50",
                            times[k].name, i, times[k].v);
        if (x->aggregate > x->inclusive)
            return fail(why, whylen, "tiles.aggregate[%" PRIu32 "]: %" PRIu64
                        " is after its inclusive prefix's %" PRIu64, i, x->aggregate, x->inclusive);
        if (x->start > x->inclusive)
            return fail(why, whylen, "tiles.start[%" PRIu32 "]: %" PRIu64
                        " is after its inclusive prefix's %" PRIu64, i, x->start, x->inclusive);
        if (x->inclusive > x->end)
            return fail(why, whylen, "tiles.end[%" PRIu32 "]: %" PRIu64
                        " is before its inclusive prefix's %" PRIu64, i, x->end, x->inclusive);
        if (!x->early && x->aggregate < x->start)
            return fail(why, whylen, "tiles.aggregate[%" PRIu32 "]: %" PRIu64
                        " is before its start %" PRIu64 ", but early is 0", i, x->aggregate,
                        x->start);
        if (x->block >= t->blocks)
            return fail(why, whylen, "tiles.block[%" PRIu32 "]: %" PRIu32
                        " is not below blocks (%" PRIu32 ")", i, x->block, t->blocks);
        if (x->sm >= 4096)
            return fail(why, whylen, "tiles.sm[%" PRIu32 "]: %" PRIu32 " is not below 4096", i,
                        x->sm);
        if (i == 0 && (x->lo != 0 || x->windows != 0 || x->early))
            return fail(why, whylen, "tiles[0]: tile 0 looks back at nothing (lo, windows and "
                        "early must be 0)");
        if (i > 0 && x->lo >= i)
            return fail(why, whylen, "tiles.lookback_from[%" PRIu32 "]: %" PRIu32
                        " is not before the tile", i, x->lo);
        if (i > 0 && (x->windows < 1 || x->windows > i))
            return fail(why, whylen, "tiles.windows[%" PRIu32 "]: %" PRIu32 " is outside 1 .. %"
                        PRIu32, i, x->windows, i);
    }
    return true;
}

/* ---- Writing -------------------------------------------------------------- */

static void put_text(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", f);
    free(text);
    json_decref(j);
}

enum col { C_BLOCK, C_SM, C_START, C_AGG, C_INC, C_END, C_LO, C_WINDOWS, C_POLLS, C_EARLY, C_COUNT };
static const char *const col_name[C_COUNT] = {
    "block", "sm", "start", "aggregate", "inclusive", "end", "lookback_from", "windows", "polls",
    "early",
};

static uint64_t col_value(const sv_timeline_tile *x, int c)
{
    switch (c) {
    case C_BLOCK: return x->block;
    case C_SM: return x->sm;
    case C_START: return x->start;
    case C_AGG: return x->aggregate;
    case C_INC: return x->inclusive;
    case C_END: return x->end;
    case C_LO: return x->lo;
    case C_WINDOWS: return x->windows;
    case C_POLLS: return x->polls;
    default: return x->early ? 1 : 0;
    }
}

bool sv_timeline_write(const sv_timeline *t, FILE *f, char *why, size_t whylen)
{
    if (!sv_timeline_check(t, why, whylen))
        return false;
    fprintf(f, "{\n  \"format\": \"scanviz-timeline\",\n  \"version\": %d,\n  \"algo\": ",
            SV_TIMELINE_VERSION);
    put_text(f, t->algo);
    fputs(",\n  \"variant\": ", f);
    put_text(f, t->variant);
    fputs(",\n  \"gpu\": ", f);
    put_text(f, t->gpu);
    fputs(",\n  \"cuda\": ", f);
    put_text(f, t->cuda);
    fputs(",\n  \"date\": ", f);
    put_text(f, t->date);
    fputs(",\n  \"command\": ", f);
    put_text(f, t->command);
    fprintf(f, ",\n  \"clock\": \"globaltimer\",\n  \"type\": \"%s\",\n  \"n\": %" PRIu64
            ",\n  \"tile\": %" PRIu32 ",\n  \"blocks\": %" PRIu32 ",\n",
            sv_type_name(t->type), t->n, t->tile, t->blocks);
    fprintf(f, "  \"overhead\": {\"reps\": %d, \"plain_us\": %.3f, \"recorded_us\": %.3f},\n",
            t->reps, t->plain_us, t->recorded_us);
    fprintf(f, "  \"tiles\": {\n    \"count\": %" PRIu32 ",\n", t->ntiles);
    for (int c = 0; c < C_COUNT; c++) {
        fprintf(f, "    \"%s\": [", col_name[c]);
        for (uint32_t i = 0; i < t->ntiles; i++) {
            if (i)
                fputs(i % 16 ? ", " : ",\n      ", f);
            fprintf(f, "%" PRIu64, col_value(&t->tiles[i], c));
        }
        fputs(c + 1 < C_COUNT ? "],\n" : "]\n", f);
    }
    fputs("  }\n}\n", f);
    return sv_stream_written(f, why, whylen);
}

SV_FILE_SAVER(sv_timeline_save, sv_timeline, sv_timeline_write)

/* ---- Reading -------------------------------------------------------------- */

static bool get_text(json_t *root, const char *key, char *out, size_t cap, char *err,
                     size_t errlen)
{
    json_t *j = json_object_get(root, key);
    if (!json_is_string(j))
        return fail(err, errlen, "%s: missing or not a string", key);
    const char *s = json_string_value(j);
    size_t len = json_string_length(j);
    if (len >= cap || strlen(s) != len)
        return fail(err, errlen, "%s: longer than %zu bytes, or holds a NUL", key, cap - 1);
    memcpy(out, s, len + 1);
    return true;
}

static bool get_uint(json_t *obj, const char *key, uint64_t hi, uint64_t *out, char *err,
                     size_t errlen)
{
    json_t *j = json_object_get(obj, key);
    if (!json_is_integer(j) || json_integer_value(j) < 0 ||
        (uint64_t)json_integer_value(j) > hi)
        return fail(err, errlen, "%s: missing, or not an integer in 0 .. %" PRIu64, key, hi);
    *out = (uint64_t)json_integer_value(j);
    return true;
}

static bool get_number(json_t *obj, const char *key, double *out, char *err, size_t errlen)
{
    json_t *j = json_object_get(obj, key);
    if (!json_is_number(j))
        return fail(err, errlen, "overhead.%s: missing or not a number", key);
    *out = json_number_value(j);
    return true;
}

static void set_col(sv_timeline_tile *x, int c, uint64_t v)
{
    switch (c) {
    case C_BLOCK: x->block = (uint32_t)v; break;
    case C_SM: x->sm = (uint32_t)v; break;
    case C_START: x->start = v; break;
    case C_AGG: x->aggregate = v; break;
    case C_INC: x->inclusive = v; break;
    case C_END: x->end = v; break;
    case C_LO: x->lo = (uint32_t)v; break;
    case C_WINDOWS: x->windows = (uint32_t)v; break;
    case C_POLLS: x->polls = (uint32_t)v; break;
    default: x->early = v != 0; break;
    }
}

static sv_timeline *parse_root(json_t *root, char *err, size_t errlen)
{
    if (!json_is_object(root)) {
        fail(err, errlen, "not a JSON object");
        return NULL;
    }
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "scanviz-timeline") != 0) {
        fail(err, errlen, "format: not \"scanviz-timeline\"");
        return NULL;
    }
    json_t *ver = json_object_get(root, "version");
    if (!json_is_integer(ver) || json_integer_value(ver) != SV_TIMELINE_VERSION) {
        fail(err, errlen, "version: not %d, the version this scanviz reads",
             SV_TIMELINE_VERSION);
        return NULL;
    }
    json_t *clock = json_object_get(root, "clock");
    if (!json_is_string(clock) || strcmp(json_string_value(clock), "globaltimer") != 0) {
        fail(err, errlen, "clock: not \"globaltimer\"");
        return NULL;
    }
    json_t *tiles = json_object_get(root, "tiles");
    uint64_t count = 0;
    if (!json_is_object(tiles)) {
        fail(err, errlen, "tiles: missing or not an object");
        return NULL;
    }
    if (!get_uint(tiles, "count", SV_TIMELINE_MAX_TILES, &count, err, errlen))
        return NULL; /* "count: ..." */
    sv_timeline *t = sv_timeline_new((uint32_t)count);
    if (!t) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    char type[16];
    uint64_t n = 0, tile = 0, blocks = 0, reps = 0;
    json_t *over = json_object_get(root, "overhead");
    if (!get_text(root, "algo", t->algo, sizeof t->algo, err, errlen) ||
        !get_text(root, "variant", t->variant, sizeof t->variant, err, errlen) ||
        !get_text(root, "gpu", t->gpu, sizeof t->gpu, err, errlen) ||
        !get_text(root, "cuda", t->cuda, sizeof t->cuda, err, errlen) ||
        !get_text(root, "date", t->date, sizeof t->date, err, errlen) ||
        !get_text(root, "command", t->command, sizeof t->command, err, errlen) ||
        !get_text(root, "type", type, sizeof type, err, errlen))
        goto bad;
    if (!sv_type_from_name(type, &t->type)) {
        fail(err, errlen, "type: \"%s\" is not int32 or float32", type);
        goto bad;
    }
    if (!get_uint(root, "n", INT32_MAX, &n, err, errlen) ||
        !get_uint(root, "tile", 1u << 26, &tile, err, errlen) ||
        !get_uint(root, "blocks", SV_TIMELINE_MAX_TILES, &blocks, err, errlen))
        goto bad;
    if (!json_is_object(over)) {
        fail(err, errlen, "overhead: missing or not an object");
        goto bad;
    }
    if (!get_uint(over, "reps", 100000, &reps, err, errlen) ||
        !get_number(over, "plain_us", &t->plain_us, err, errlen) ||
        !get_number(over, "recorded_us", &t->recorded_us, err, errlen))
        goto bad;
    t->n = n;
    t->tile = (uint32_t)tile;
    t->blocks = (uint32_t)blocks;
    t->reps = (int)reps;
    for (int c = 0; c < C_COUNT; c++) {
        json_t *a = json_object_get(tiles, col_name[c]);
        if (!json_is_array(a) || json_array_size(a) != count) {
            fail(err, errlen, "tiles.%s: missing, or not an array of count (%" PRIu64 ") values",
                 col_name[c], count);
            goto bad;
        }
        const uint64_t hi = c == C_EARLY ? 1
                            : (c == C_START || c == C_AGG || c == C_INC || c == C_END)
                                ? SV_TIMELINE_MAX_NS
                                : UINT32_MAX;
        for (size_t i = 0; i < count; i++) {
            json_t *v = json_array_get(a, i);
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                (uint64_t)json_integer_value(v) > hi) {
                fail(err, errlen, "tiles.%s[%zu]: not an integer in 0 .. %" PRIu64, col_name[c],
                     i, hi);
                goto bad;
            }
            set_col(&t->tiles[i], c, (uint64_t)json_integer_value(v));
        }
    }
    if (!sv_timeline_check(t, err, errlen))
        goto bad;
    return t;
bad:
    sv_timeline_destroy(t);
    return NULL;
}

sv_timeline *sv_timeline_parse(const char *text, char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        fail(err, errlen, "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return NULL;
    }
    sv_timeline *t = parse_root(root, err, errlen);
    json_decref(root);
    return t;
}

sv_timeline *sv_timeline_load(const char *path, char *err, size_t errlen)
{
    char *text = sv_read_bounded(path, SV_LIMIT_TIMELINE, "a timeline", NULL, err, errlen);
    if (!text)
        return NULL; /* err names the file */
    char inner[512];
    sv_timeline *t = sv_timeline_parse(text, inner, sizeof inner);
    if (!t)
        sv_errorf(err, errlen, "%s: %s", sv_path_name(path), inner);
    free(text);
    return t;
}
