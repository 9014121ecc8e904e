/* Trace files: bit-exact JSON round trips (int32, awkward float32 values,
 * inf from overflow, exclusive, a GPU's name), the chapter's example against
 * a saved file, and every kind of bad file rejected with the field named.
 * Argument: the tests/core/data directory. */
#include <jansson.h>
#include <math.h>
#include <unistd.h>
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "parse.h"
#include "trace_file.h"

static const char *data_dir = "tests/core/data";

static sv_trace *make(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[256];
    sv_trace *t = sv_trace_create(op, type, scan, in, n, SV_BACKEND_CPU, NULL, err, sizeof err);
    CHECK_MSG(t && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    return t;
}

/* The JSON text of t (the caller frees it). */
static char *to_json(const sv_trace *t)
{
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL);
    if (!f)
        return NULL;
    CHECK_MSG(sv_trace_write(t, f, err, sizeof err), "%s", err);
    fclose(f);
    return text;
}

/* Writes t, reads it back, and checks bit-identity and the derived fields. */
static void round_trip(const sv_trace *t, const char *what)
{
    char err[512];
    char *text = to_json(t);
    sv_trace *u = text ? sv_trace_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(u != NULL, "%s: %s", what, err);
    if (u) {
        CHECK_MSG(sv_trace_equal(t, u, err, sizeof err), "%s: %s", what, err);
        CHECK(u->backend == t->backend);
        CHECK((u->device == NULL) == (t->device == NULL));
        if (u->device && t->device)
            CHECK_STR(u->device, t->device);
        for (size_t i = 0; i < t->n; i++)
            CHECK_MSG(u->output[i].bits == t->output[i].bits, "%s: output[%zu]", what, i);
        CHECK(u->total_ops == t->total_ops && u->overflow_count == t->overflow_count);
        CHECK(u->max_abs_diff == t->max_abs_diff);
        /* and writing it again gives the same text */
        char *again = to_json(u);
        CHECK_MSG(again && strcmp(again, text) == 0, "%s: second write differs", what);
        free(again);
    }
    sv_trace_destroy(u);
    free(text);
}

/* ---- Editing a good file into bad ones ------------------------------------ */

/* Follows a path like rounds[2].buf[1][5] down to the parent of its last
 * step; *key / *index say what that step is. */
static json_t *walk(json_t *root, const char *path, char *key, long *index)
{
    json_t *cur = root;
    const char *p = path;
    for (;;) {
        char name[64] = "";
        long idx = -1;
        if (*p == '[') {
            idx = strtol(p + 1, (char **)&p, 10);
            p++; /* ']' */
        } else {
            size_t k = 0;
            while (*p && *p != '.' && *p != '[' && k < sizeof name - 1)
                name[k++] = *p++;
            name[k] = '\0';
        }
        if (*p == '.')
            p++;
        if (!*p) {
            strcpy(key, name);
            *index = idx;
            return cur;
        }
        cur = idx >= 0 ? json_array_get(cur, (size_t)idx) : json_object_get(cur, name);
        if (!cur)
            return NULL;
    }
}

/* good with the value at path replaced (value NULL: removed); the caller
 * frees the result. Steals value. */
static char *edit(const char *good, const char *path, json_t *value)
{
    json_error_t jerr;
    json_t *root = json_loads(good, 0, &jerr);
    char key[64];
    long index;
    json_t *parent = root ? walk(root, path, key, &index) : NULL;
    CHECK_MSG(parent != NULL, "no such path %s", path);
    if (!parent) {
        json_decref(value);
        json_decref(root);
        return NULL;
    }
    if (index >= 0) {
        if (value)
            json_array_set_new(parent, (size_t)index, value);
        else
            json_array_remove(parent, (size_t)index);
    } else {
        if (value)
            json_object_set_new(parent, key, value);
        else
            json_object_del(parent, key);
    }
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    json_decref(root);
    return text;
}

/* text must be rejected with a message that starts with want. */
static void expect_rejected_at(const char *file, int line, char *text, const char *want)
{
    char err[512] = "";
    sv_trace *t = text ? sv_trace_parse(text, err, sizeof err) : NULL;
    if (t || strncmp(err, want, strlen(want)) != 0) {
        fprintf(stderr, "%s:%d: %s\n  got      \"%s\"\n  expected \"%s...\"\n", file, line,
                t ? "accepted a bad file" : "wrong message", err, want);
        failures++;
    }
    sv_trace_destroy(t);
    free(text);
}
#define EXPECT_REJECTED(text, want) expect_rejected_at(__FILE__, __LINE__, (text), (want))

/* One bad edit of a good file: the field at path set to value (NULL:
 * removed), and the start of the message that must refuse it. */
typedef struct bad_edit {
    int line;
    const char *path;
    json_t *value; /* edit() takes it */
    const char *want;
} bad_edit;
#define BAD_EDIT(path, value, want) { __LINE__, (path), (value), (want) }

/* Each row's edit of good must be rejected (failures name the row's line). */
static void expect_edits_rejected(const char *good, const bad_edit *rows, size_t n)
{
    for (size_t k = 0; k < n; k++)
        expect_rejected_at(__FILE__, rows[k].line, edit(good, rows[k].path, rows[k].value),
                           rows[k].want);
}

static void bad_files(void)
{
    static const sv_value in[8] = {{.i = 3}, {.i = 1}, {.i = 7}, {.i = 0},
                                   {.i = 4}, {.i = 1}, {.i = 6}, {.i = 3}};
    sv_trace *t = make(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 8);
    char *good = t ? to_json(t) : NULL;
    sv_trace_destroy(t);
    if (!good)
        return;
    char err[512];
    t = sv_trace_parse(good, err, sizeof err);
    CHECK_MSG(t != NULL, "the good file: %s", err);
    sv_trace_destroy(t);

    /* Not JSON, truncated, duplicate keys: jansson's line and column. */
    EXPECT_REJECTED(strdup("hello"), "not valid JSON: line 1, column 5: '[' or '{' expected near 'hello'");
    char *cut = strdup(good);
    cut[strlen(cut) / 2] = '\0';
    {
        char *e = NULL;
        sv_trace *u = sv_trace_parse(cut, err, sizeof err);
        CHECK(u == NULL);
        CHECK_CONTAINS(err, "not valid JSON: line ");
        CHECK_MSG(strstr(err, "end of file") || strstr(err, "premature end of input"),
                  "a truncated file: %s", err); /* jansson's words, by where the cut falls */
        sv_trace_destroy(u);
        (void)e;
    }
    free(cut);
    EXPECT_REJECTED(strdup("{\"format\": \"scanviz-trace\", \"format\": \"x\"}"),
                    "not valid JSON: line 1, column 36: duplicate object key near '\"format\"'");
    EXPECT_REJECTED(strdup("[1, 2]"), "(top level): expected an object, got an array");

    bad_edit rows[] = {
        BAD_EDIT("format", json_string("scanviz-bench"), "format: \"scanviz-bench\", expected \"scanviz-trace\""),  /* Identity of the file */
        BAD_EDIT("format", NULL, "format: missing"),
        BAD_EDIT("version", json_integer(4), "version: 4 is not supported (this reader knows versions 1, 2 and 3)"),
        BAD_EDIT("version", json_string("1"), "version: expected an integer, got a string"),
        BAD_EDIT("version", json_real(1.0), "version: expected an integer, got a real number"),
        BAD_EDIT("algorithm", json_string("blelloch"), "algorithm: \"blelloch\", expected \"hillis-steele\""),
        BAD_EDIT("backend", json_string("opencl"), "backend: \"opencl\", expected \"cpu\" or \"cuda\""),  /* Header fields */
        BAD_EDIT("device", json_string("H200"), "device: expected null for the cpu backend, got a string"),
        BAD_EDIT("device", NULL, "device: missing"),
        BAD_EDIT("op", json_string("div"), "op: \"div\", expected sum, max, min, product or xor"),
        BAD_EDIT("type", json_string("int64"), "type: \"int64\", expected int32 or float32"),
        BAD_EDIT("scan", json_string("both"), "scan: \"both\", expected \"inclusive\" or \"exclusive\""),
        BAD_EDIT("n", json_string("8"), "n: expected an integer, got a string"),
        BAD_EDIT("n", json_integer(2000), "n: 2000 is out of range (1 to 1024)"),
        BAD_EDIT("n", NULL, "n: missing"),
        BAD_EDIT("n", json_integer(7), "input: 8 values, expected n = 7"),
        BAD_EDIT("input[2]", json_real(7.5), "input[2]: expected an integer"),  /* Values */
        BAD_EDIT("input[2]", json_null(), "input[2]: expected an integer"),
        BAD_EDIT("input[0]", json_integer(4294967296LL), "input[0]: 4294967296 is out of int32 range"),
        BAD_EDIT("rounds[2].buf[1][5]", json_string("x"), "rounds[2].buf[1][5]: expected an integer or null"),
        BAD_EDIT("rounds[2].buf[1][5]", json_real(5.0), "rounds[2].buf[1][5]: expected an integer or null"),
        BAD_EDIT("rounds[1].buf[0][7]", NULL, "rounds[1].buf[0]: 7 values, expected n = 8"),  /* Shapes and lengths */
        BAD_EDIT("rounds[1].buf[1]", NULL, "rounds[1].buf: expected an array of the 2 buffers, got 1 array"),
        BAD_EDIT("rounds[1].buf", NULL, "rounds[1].buf: missing"),
        BAD_EDIT("rounds[1].buf", json_object(), "rounds[1].buf: expected an array of the 2 buffers, got an object"),
        BAD_EDIT("rounds[3]", NULL, "rounds: 3 rounds, expected 4 for n = 8"),
        BAD_EDIT("rounds", json_object(), "rounds: expected an array, got an object"),
        BAD_EDIT("rounds[2]", json_integer(2), "rounds[2]: expected an object, got an integer"),
        BAD_EDIT("output[7]", NULL, "output: 7 values, expected n = 8"),
        BAD_EDIT("rounds[2].round", json_integer(3), "rounds[2].round: 3, expected 2"),  /* Round metadata */
        BAD_EDIT("rounds[2].stride", json_integer(3), "rounds[2].stride: 3, expected 2 (2^(round-1))"),
        BAD_EDIT("rounds[0].stride", json_integer(1), "rounds[0].stride: 1, expected 0"),
        BAD_EDIT("rounds[2].pin", json_integer(0), "rounds[2].pin: 0, expected 1 (pin = buf[(round-1) mod 2])"),
        BAD_EDIT("rounds[3].pout", json_integer(0), "rounds[3].pout: 0, expected 1 (pout = buf[(round) mod 2])"),
        BAD_EDIT("rounds[1].pout", json_integer(2), "rounds[1].pout: 2 is out of range (0 to 1)"),
        BAD_EDIT("rounds[0].pin", json_integer(0), "rounds[0].pin: expected null (round 0 only stages the input), got an integer"),
        BAD_EDIT("rounds[1].pin", NULL, "rounds[1].pin: missing"),
        BAD_EDIT("rounds[3].cases[4]", json_string("full"), "rounds[3].cases[4]: \"full\", but cell 4 in round 3 is \"partial\""),  /* Cases */
        BAD_EDIT("rounds[2].cases[0]", json_string("half"), "rounds[2].cases[0]: expected \"copy\", \"partial\" or \"full\""),
        BAD_EDIT("rounds[2].cases", NULL, "rounds[2].cases: missing"),
        BAD_EDIT("rounds[0].cases", json_array(), "rounds[0].cases: round 0 has no cases"),
        BAD_EDIT("rounds[2].buf[0][5]", json_integer(13), "rounds[2].buf[0][5]: breaks the invariant: round 2, buf[0] (pout), cell 5 (full): expected 12 (sum over input[2..5]), got 13"),  /* Values that break the invariant or the output */
        BAD_EDIT("rounds[3].buf[1][7]", json_integer(26), "rounds[3].buf[1][7]: breaks the invariant: round 3, buf[1] (pout), cell 7 (full)"),
        BAD_EDIT("input[2]", json_integer(8), "rounds[0].buf[0][2]: breaks the invariant: round 0, buf[0] (staging), cell 2: expected the input value 8, got 7"),
        BAD_EDIT("rounds[0].buf[1][3]", json_integer(0), "rounds[0].buf[1][3]: breaks the invariant: round 0, buf[1] (uninitialized), cell 3: written"),
        BAD_EDIT("rounds[2].buf[0][1]", json_null(), "rounds[2].buf[0][1]: breaks the invariant: round 2, buf[0] (pout), cell 1: never written"),
        BAD_EDIT("output[3]", json_integer(12), "output[3]: 12, but the last round's pout gives 11"),
        BAD_EDIT("output[3]", json_null(), "output[3]: null, but the last round's pout gives it a value"),
        BAD_EDIT("output", NULL, "output: missing"),
        BAD_EDIT("total_ops", json_integer(18), "total_ops: 18, expected 17"),  /* Optional extras must agree when present */
        BAD_EDIT("overflow_count", json_integer(1), "overflow_count: 1, expected 0"),
        BAD_EDIT("rounds[2].ops", json_integer(8), "rounds[2].ops: 8, expected 6 (n - stride)"),
        BAD_EDIT("rounds[2].window_lo[6]", json_integer(0), "rounds[2].window_lo[6]: 0, expected 3"),
        BAD_EDIT("rounds[2].overflow", json_pack("[i]", 4), "rounds[2].overflow[0]: no further cell wrapped"),
        BAD_EDIT("exclusive", json_object(), "exclusive: present, but scan is \"inclusive\""),
    };
    expect_edits_rejected(good, rows, sizeof rows / sizeof rows[0]);
    {
        char *v1 = edit(good, "version", json_integer(1));
        EXPECT_REJECTED(v1 ? edit(v1, "lab", json_object()) : NULL,
                        "lab: present in a version 1 file (the lab record is version 2)");
        free(v1);
    }
    {
        /* xor on float32 */
        char *x = edit(good, "type", json_string("float32"));
        EXPECT_REJECTED(x ? edit(x, "op", json_string("xor")) : NULL,
                        "op: xor is defined on int32 only, not on float32");
        free(x);
    }
    {
        /* and the minimum file (extras removed) is still accepted */
        char *x = edit(good, "total_ops", NULL);
        char *y = x ? edit(x, "rounds[1].window_lo", NULL) : NULL;
        char *z = y ? edit(y, "rounds[1].ops", NULL) : NULL;
        sv_trace *u = z ? sv_trace_parse(z, err, sizeof err) : NULL;
        CHECK_MSG(u != NULL, "without extras: %s", err);
        sv_trace_destroy(u);
        free(x);
        free(y);
        free(z);
    }
    free(good);

    /* Exclusive and overflow extras. */
    static const sv_value wrap[4] = {{.i = INT32_MAX}, {.i = 1}, {.i = 7}, {.i = 0}};
    t = make(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, wrap, 4);
    good = t ? to_json(t) : NULL;
    sv_trace_destroy(t);
    if (good) {
        CHECK_CONTAINS(good, "\"overflow\": [1]");
        CHECK_CONTAINS(good, "\"exclusive\": {");
        bad_edit wrap_rows[] = {
            BAD_EDIT("rounds[1].overflow", json_pack("[i]", 2), "rounds[1].overflow[0]: 2, expected 1"),
            BAD_EDIT("rounds[1].overflow", json_array(), "rounds[1].overflow[0]: missing: cell 1 wrapped"),
            BAD_EDIT("exclusive.identity", json_integer(1), "exclusive.identity: 1, but the identity of sum is 0"),
            BAD_EDIT("exclusive.values[1]", json_integer(5), "exclusive.values[1]: 5, expected 2147483647"),
            BAD_EDIT("exclusive.inclusive", NULL, "exclusive.inclusive: missing"),
            BAD_EDIT("output[0]", json_integer(2147483647), "output[0]: 2147483647, but the last round's pout gives 0 (shifted right for the exclusive scan)"),
        };
        expect_edits_rejected(good, wrap_rows, sizeof wrap_rows / sizeof wrap_rows[0]);
        free(good);
    }

    /* float32 fields. */
    static const sv_value fin[3] = {{.f = 0.5f}, {.f = 0.25f}, {.f = 2.0f}};
    t = make(SV_OP_SUM, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, fin, 3);
    good = t ? to_json(t) : NULL;
    sv_trace_destroy(t);
    if (good) {
        bad_edit float_rows[] = {
            BAD_EDIT("input[1]", json_string("big"), "input[1]: expected a number, \"inf\", \"-inf\" or \"nan\""),
            BAD_EDIT("rounds[1].buf[1][0]", json_true(), "rounds[1].buf[1][0]: expected a number, \"inf\", \"-inf\" or \"nan\" or null"),
            BAD_EDIT("input[0]", json_real(1e39), "input[0]: 1e+39 is out of float32 range"),
            BAD_EDIT("rounds[2].buf[0][2]", json_real(2.80), "rounds[2].buf[0][2]: breaks the invariant: round 2, buf[0] (pout), cell 2 (partial): expected 2.75 (pin[0] + pin[2] = 0.5 + 2.25, one binary32 operation; bits 40300000), got 2.8"),
            BAD_EDIT("max_abs_diff", json_real(0.5), "max_abs_diff: 0.5, but output and a sequential scan differ by 0"),
            /* With no difference, the index is 0 (checked like every extra). */
            BAD_EDIT("max_diff_index", json_integer(2), "max_diff_index: 2, expected 0"),
        };
        expect_edits_rejected(good, float_rows, sizeof float_rows / sizeof float_rows[0]);
        free(good);
    }
}

/* The chapter's example is saved in data/: the writer reproduces the
 * version 3 file byte for byte (the rounds and, under "run", the kernel trace
 * they are a reading of), and the loader accepts it and the version 2 and 1
 * files from before, each to the same trace (and rejects the truncated
 * copy). */
static void saved_files(void)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/chapter-example-v3.json", data_dir);
    char *saved = sv_read_file(path, err, sizeof err);
    CHECK_MSG(saved != NULL, "%s", err);
    static const sv_value in[8] = {{.i = 3}, {.i = 1}, {.i = 7}, {.i = 0},
                                   {.i = 4}, {.i = 1}, {.i = 6}, {.i = 3}};
    sv_trace *t = make(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 8);
    char *text = t ? to_json(t) : NULL;
    CHECK_MSG(saved && text && strcmp(saved, text) == 0, "the writer no longer matches %s", path);
    sv_trace *u = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(u != NULL, "%s", err);
    CHECK_MSG(u && t && sv_trace_equal(t, u, err, sizeof err), "%s", err);
    CHECK_MSG(u && u->run && u->run->nsteps == 5 && u->run->narrays == 2,
              "the version 3 file's run: %zu steps", u && u->run ? u->run->nsteps : 0);
    sv_trace_destroy(u);
    /* The version 2 file of the same example, as scanviz wrote it before. */
    snprintf(path, sizeof path, "%s/chapter-example.json", data_dir);
    u = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(u != NULL, "%s", err);
    CHECK_MSG(u && t && sv_trace_equal(t, u, err, sizeof err), "%s", err);
    sv_trace_destroy(u);
    /* A version 1 file (before the lab) still opens, to the same trace. */
    snprintf(path, sizeof path, "%s/chapter-example-v1.json", data_dir);
    u = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(u != NULL, "%s", err);
    CHECK_MSG(u && t && sv_trace_equal(t, u, err, sizeof err), "%s", err);
    CHECK(u && u->lab == NULL);
    sv_trace_destroy(u);

    snprintf(path, sizeof path, "%s/truncated.json", data_dir);
    u = sv_trace_load(path, err, sizeof err);
    CHECK(u == NULL);
    char want[600];
    snprintf(want, sizeof want, "%s: not valid JSON: line ", path);
    CHECK_MSG(strncmp(err, want, strlen(want)) == 0, "%s", err);
    sv_trace_destroy(u);

    u = sv_trace_load("/nonexistent/trace.json", err, sizeof err);
    CHECK(u == NULL);
    CHECK_STR(err, "/nonexistent/trace.json: cannot open: No such file or directory");

    /* save, then load */
    char tmp[] = "/tmp/sv-trace-XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0);
    if (fd >= 0 && t) {
        close(fd);
        CHECK_MSG(sv_trace_save(t, tmp, err, sizeof err), "%s", err);
        u = sv_trace_load(tmp, err, sizeof err);
        CHECK_MSG(u && sv_trace_equal(t, u, err, sizeof err), "%s", err);
        sv_trace_destroy(u);
        remove(tmp);
    }
    CHECK(!sv_trace_save(t, "/nonexistent/dir/t.json", err, sizeof err));
    CHECK_STR(err, "/nonexistent/dir/t.json: cannot create a temporary file beside it: No such file or directory");
    sv_trace_destroy(t);
    free(text);
    free(saved);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];

    /* int32: the example, every op on random arrays, exclusive, overflow. */
    for (int op = 0; op < SV_OP_COUNT; op++) {
        for (int scan = 0; scan < 2; scan++) {
            size_t sizes[] = {1, 2, 8, 37, 1024};
            for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
                sv_value *in = sv_random_values((sv_op)op, SV_TYPE_INT32, sizes[k], 11 + k);
                sv_trace *t = make((sv_op)op, SV_TYPE_INT32, (sv_scan)scan, in, sizes[k]);
                char what[64];
                snprintf(what, sizeof what, "int32 %s n=%zu", sv_op_name((sv_op)op), sizes[k]);
                if (t)
                    round_trip(t, what);
                sv_trace_destroy(t);
                free(in);
            }
        }
    }
    static const sv_value wrap[8] = {{.i = INT32_MAX}, {.i = 1}, {.i = INT32_MIN}, {.i = -1},
                                     {.i = 4}, {.i = 1}, {.i = 6}, {.i = 3}};
    sv_trace *t = make(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, wrap, 8);
    CHECK(t && t->overflow_count > 0);
    if (t)
        round_trip(t, "int32 wrapping sum");
    sv_trace_destroy(t);

    /* float32: awkward values, for every float op and both scans; 3e38 + 3e38
     * overflows to inf inside the trace; 1e-45 is subnormal. */
    sv_value awk[12];
    const float fv[12] = {0.1f, 1e-30f, -0.0f, 3e38f, 3e38f, 1e-45f, -2.5f, 0.0f,
                          16777217.0f, 1.17549435e-38f, -1e-30f, 123456.789f};
    for (int i = 0; i < 12; i++)
        awk[i].f = fv[i];
    for (int op = 0; op < SV_OP_COUNT; op++) {
        if (op == SV_OP_XOR)
            continue;
        for (int scan = 0; scan < 2; scan++) {
            t = make((sv_op)op, SV_TYPE_FLOAT32, (sv_scan)scan, awk, 12);
            char what[64];
            snprintf(what, sizeof what, "float32 %s %s", sv_op_name((sv_op)op), sv_scan_name((sv_scan)scan));
            if (t)
                round_trip(t, what);
            sv_trace_destroy(t);
            sv_value *in = sv_random_values((sv_op)op, SV_TYPE_FLOAT32, 1000, 5);
            t = make((sv_op)op, SV_TYPE_FLOAT32, (sv_scan)scan, in, 1000);
            if (t)
                round_trip(t, "float32 random n=1000");
            sv_trace_destroy(t);
            free(in);
        }
    }
    t = make(SV_OP_SUM, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, awk, 12);
    if (t) {
        int pout = t->rounds[1].pout;
        CHECK(isinf(t->rounds[1].buf[pout][4].f)); /* 3e38 + 3e38 */
        char *text = to_json(t);
        CHECK_CONTAINS(text, "\"inf\"");
        CHECK_CONTAINS(text, "-0.0");
        CHECK_CONTAINS(text, "0.1, 1e-30, -0.0, 3e+38");
        free(text);
    }
    sv_trace_destroy(t);

    /* A GPU trace keeps its device name, quotes and non-ASCII included. */
    {
        char err[256];
        static const sv_value in[3] = {{.i = 1}, {.i = 2}, {.i = 3}};
        t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 3, SV_BACKEND_CUDA,
                            "NVIDIA H200 \"test\" \xc3\xa9", err, sizeof err);
        CHECK(t && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err));
        if (t)
            round_trip(t, "cuda device name");
        sv_trace_destroy(t);
    }

    /* Issue 21 item 23: a file of millions of tiny values is refused before
     * jansson builds its tree (1 M empty arrays took 140 MB, a 16 MiB file
     * of them 730 MB); the largest trace scanviz writes stays well below. */
    {
        char err[256];
        static const struct { const char *piece; const char *want; } floods[] = {
            {"[],", "JSON arrays, more than the 524288"},
            {"{},", "JSON objects, more than the 65536"},
            {"0,", "JSON values, more than the 2097152"},
        };
        for (size_t k = 0; k < 3; k++) {
            size_t pl = strlen(floods[k].piece), count = (size_t)3 << 20;
            if (k == 0)
                count = (size_t)600 << 10;
            if (k == 1)
                count = (size_t)70 << 10;
            char *text = malloc(count * pl + 64);
            CHECK(text != NULL);
            if (!text)
                continue;
            size_t at = (size_t)sprintf(text, "{\"format\": \"scanviz-trace\", \"x\": [");
            for (size_t i = 0; i < count; i++, at += pl)
                memcpy(text + at, floods[k].piece, pl);
            strcpy(text + at, "0]}");
            t = sv_trace_parse(text, err, sizeof err);
            CHECK(t == NULL);
            CHECK_CONTAINS(err, floods[k].want);
            CHECK_CONTAINS(err, "refused before parsing");
            sv_trace_destroy(t);
            free(text);
        }
    }

    bad_files();
    saved_files();
    return check_status();
}
