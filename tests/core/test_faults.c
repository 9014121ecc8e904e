/* Issue 7's core pieces: the all-or-nothing writer (fileio.h), the bounded
 * reader, the escaper (escape.h), the input layer (input.h), and the trace
 * loader's refusal of float-only fields in an int32 trace. The command-line
 * reproducers are in tests/cli/test_trace_cli.c and tests/window/test_cli.py. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../expect.h"
#include "emulate.h"
#include "escape.h"
#include "fileio.h"
#include "input.h"
#include "parse.h"
#include "trace_file.h"

static char dir[64];

static char *read_all(const char *path)
{
    char err[256];
    return sv_read_bounded(path, 1 << 20, "a test file", NULL, err, sizeof err);
}

static void test_writer(void)
{
    char err[512], path[128];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    CHECK_MSG(sv_write_atomic(path, "first\n", 6, err, sizeof err), "%s", err);
    char *got = read_all(path);
    CHECK_STR(got, "first\n");
    free(got);
    /* An abandoned write leaves the old file and no temporary file. */
    sv_file *f = sv_file_begin(path, err, sizeof err);
    CHECK_MSG(f != NULL, "%s", err);
    if (f) {
        fputs("half", sv_file_stream(f));
        CHECK(check_temporaries(dir) == 1);
        sv_file_abort(f);
    }
    got = read_all(path);
    CHECK_STR(got, "first\n");
    free(got);
    CHECK_INT(check_temporaries(dir), 0);
    /* The mode of the file it replaces is kept. */
    chmod(path, 0640);
    CHECK_MSG(sv_write_atomic(path, "second\n", 7, err, sizeof err), "%s", err);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    /* A folder is refused; a device is written in place, never removed. */
    CHECK(!sv_write_atomic(dir, "x", 1, err, sizeof err));
    CHECK_CONTAINS(err, "not a regular file");
    CHECK(!sv_write_atomic("/dev/full", "x", 1, err, sizeof err));
    CHECK_CONTAINS(err, "/dev/full: write failed: ");
    CHECK_CONTAINS(err, strerror(ENOSPC));
    CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
    CHECK_MSG(sv_write_atomic("/dev/null", "x", 1, err, sizeof err), "%s", err);
    /* A symbolic link stays a link; its target gets the new bytes. */
    char link[160];
    snprintf(link, sizeof link, "%s/link.txt", dir);
    CHECK(symlink("out.txt", link) == 0);
    CHECK_MSG(sv_write_atomic(link, "third\n", 6, err, sizeof err), "%s", err);
    struct stat lst;
    CHECK(lstat(link, &lst) == 0 && S_ISLNK(lst.st_mode));
    got = read_all(path);
    CHECK_STR(got, "third\n");
    free(got);
    unlink(link);
    unlink(path);
}

static void test_reader(void)
{
    char err[512], path[128];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    CHECK(sv_write_atomic(path, "12345678", 8, err, sizeof err));
    size_t len = 0;
    char *t = sv_read_bounded(path, 8, "values", &len, err, sizeof err);
    CHECK(t && len == 8 && strcmp(t, "12345678") == 0);
    free(t);
    t = sv_read_bounded(path, 7, "values", &len, err, sizeof err);
    CHECK(t == NULL);
    char want[256];
    snprintf(want, sizeof want, "%s: longer than the limit of 7 bytes for values", path);
    CHECK_STR(err, want);
    t = sv_read_bounded("/dev/zero", SV_LIMIT_VALUES, "values", NULL, err, sizeof err);
    CHECK(t == NULL);
    CHECK_STR(err, "/dev/zero: longer than the limit of 1 MiB for values");
    CHECK(sv_write_atomic(path, "1 2\0 3", 6, err, sizeof err));
    t = sv_read_bounded(path, 100, "values", NULL, err, sizeof err);
    CHECK(t == NULL);
    CHECK_CONTAINS(err, "contains a NUL byte");
    unlink(path);
    /* Issue 21 item 23: a named pipe with no writer is refused after a
     * while, saying what was waited for, instead of blocking forever. */
    CHECK(mkfifo(path, 0600) == 0);
    time_t t0 = time(NULL);
    t = sv_read_bounded(path, 100, "values", NULL, err, sizeof err);
    CHECK(t == NULL && time(NULL) - t0 <= SV_FIFO_WAIT_MS / 1000 + 2);
    CHECK_CONTAINS(err, "a named pipe that nothing writes to");
    CHECK_CONTAINS(err, path);
    /* And one that nothing reads, as output: refused too, never removed. */
    t0 = time(NULL);
    CHECK(!sv_write_atomic(path, "1\n", 2, err, sizeof err));
    CHECK(time(NULL) - t0 <= SV_FIFO_WAIT_MS / 1000 + 2);
    CHECK_CONTAINS(err, "a named pipe that nothing reads");
    struct stat st;
    CHECK(stat(path, &st) == 0 && S_ISFIFO(st.st_mode));
    unlink(path);
}

static void test_escape(void)
{
    char out[256];
    CHECK_STR(sv_escape("plain 3 1 7 é ×", out, sizeof out), "plain 3 1 7 é ×");
    CHECK_STR(sv_escape("\x1b[2J\x1b]0;pwned\x07\nRound 9\r\t\x7f", out, sizeof out),
              "\\e[2J\\e]0;pwned\\x07\\nRound 9\\r\\t\\x7f");
    CHECK_STR(sv_escape("a\xff" "b\xc3" "c\xed\xa0\x80" "d\xc0\xaf", out, sizeof out),
              "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
              "d\xef\xbf\xbd\xef\xbf\xbd");
    CHECK_STR(sv_escape("\xc2\x9b" "1m", out, sizeof out), "\\u009b1m"); /* C1 CSI */
    CHECK_STR(sv_escape_n("1\0" "2", 3, out, sizeof out), "1\\x002");
    /* Cut at a whole character, always terminated. */
    CHECK_STR(sv_escape("ab\x1b", out, 4), "ab");
    CHECK_STR(sv_escape("a\xc3\xa9", out, 3), "a");
    CHECK(sv_text_is_safe("3 1 7 é") && !sv_text_is_safe("a\x1b") && !sv_text_is_safe("\xff"));
}

static void test_input(void)
{
    char err[512];
    sv_value *v = NULL;
    size_t n = 0;
    /* A NUL inside the text is refused, naming where, never taken as the end. */
    CHECK(sv_input_parse_text("1 2\0 3 4", 8, SV_TYPE_INT32, &v, &n, err, sizeof err) ==
          SV_INPUT_BAD && v == NULL);
    CHECK_STR(err, "a NUL byte at byte 4: values are text");
    CHECK(sv_input_parse_text("1 2 3 4", 7, SV_TYPE_INT32, &v, &n, err, sizeof err) ==
          SV_INPUT_OK && n == 4 && v[3].i == 4);
    free(v);
    CHECK_STR(sv_input_presets[0], SV_CHAPTER_EXAMPLE);
    /* Issue 21 item 23: a UTF-8 byte order mark at the start is skipped;
     * one later is still a bad token. */
    CHECK_MSG(sv_input_parse_text("\xEF\xBB\xBF" "3 1 7", 8, SV_TYPE_INT32, &v, &n, err,
                                  sizeof err) == SV_INPUT_OK && n == 3 && v[0].i == 3,
              "%s", err);
    free(v);
    CHECK(sv_input_parse_text("3 \xEF\xBB\xBF" "1", 6, SV_TYPE_INT32, &v, &n, err, sizeof err) ==
          SV_INPUT_BAD && v == NULL);
    CHECK_CONTAINS(err, "token 2");

    sv_input in;
    sv_input_init(&in);
    CHECK(sv_input_read(&in, SV_OP_SUM, SV_TYPE_INT32, &v, &n, err, sizeof err) == SV_INPUT_OK &&
          n == 8 && v[2].i == 7);
    free(v);
    CHECK(!sv_input_set_seed(&in, "0x10", 3, err, sizeof err));
    CHECK_STR(err, "--seed \"0x10\" (argument 3): expected a whole decimal number from 0 to "
                   "18446744073709551615");
    CHECK(!sv_input_set_seed(&in, "-1", 3, err, sizeof err));
    CHECK(sv_input_set_seed(&in, "18446744073709551615", 3, err, sizeof err));
    CHECK(!sv_input_validate(&in, err, sizeof err));
    CHECK_STR(err, "--seed (argument 3) applies to --random only");
    CHECK(sv_input_set_random(&in, "5", 1, err, sizeof err) && sv_input_validate(&in, err, sizeof err));
    CHECK(!sv_input_set_random(&in, "1025", 5, err, sizeof err));
    CHECK_CONTAINS(err, "above the block limit");
    sv_input_init(&in);
    CHECK(sv_input_set_file(&in, "/dev/zero", 2, err, sizeof err));
    CHECK(sv_input_read(&in, SV_OP_SUM, SV_TYPE_INT32, &v, &n, err, sizeof err) == SV_INPUT_BAD);
    CHECK_STR(err, "/dev/zero: longer than the limit of 1 MiB for values"); /* named once */
    CHECK(sv_input_set_text(&in, "1", 4, err, sizeof err) && !sv_input_validate(&in, err, sizeof err));
    CHECK_STR(err, "give one input: --file (argument 2) and another source were both given "
                   "(one of --input, --file, -, --random)");
}

/* Defect 12: an int32 trace carrying the float-only fields is refused. */
static void test_int32_float_fields(void)
{
    char err[512];
    sv_value in[3] = {{.i = 1}, {.i = 2}, {.i = 3}};
    sv_trace *t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 3,
                                  SV_BACKEND_CPU, NULL, err, sizeof err);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(t && f && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err) && sv_trace_write(t, f, err, sizeof err));
    fclose(f);
    sv_trace_destroy(t);
    const char *fields[2] = {",\n  \"max_abs_diff\": 0.0\n}\n", ",\n  \"max_diff_index\": 0\n}\n"};
    for (int k = 0; k < 2 && buf; k++) {
        char *json = malloc(len + 64);
        /* the file ends with "...\"overflow_count\": 0\n}\n": add the field before "}" */
        size_t head = (size_t)(strstr(buf, "\n}\n") - buf);
        snprintf(json, len + 64, "%.*s%s", (int)head, buf, fields[k]);
        t = sv_trace_parse(json, err, sizeof err);
        CHECK(t == NULL);
        CHECK_STR(err, k == 0 ? "max_abs_diff: present, but type is \"int32\" (a float32 field)"
                              : "max_diff_index: present, but type is \"int32\" (a float32 field)");
        sv_trace_destroy(t);
        free(json);
    }
    free(buf);
}

/* Issue 21 item 19: a link another user planted in a shared folder is not
 * followed (the writer would replace what it points at); one's own is. The
 * link is made by uid 65534 through setpriv, so this needs root. Returns 77
 * (skip) without setpriv or root. */
static int test_planted_links(void)
{
    if (system("command -v setpriv >/dev/null 2>&1") != 0 || geteuid() != 0) {
        printf("SKIP: planted links need root and setpriv(1)\n");
        return 77;
    }
    char err[512], shared[128], victim[128], link[160], dlink[160], cmd[1024];
    chmod(dir, 0755);
    snprintf(shared, sizeof shared, "%s/shared", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(link, sizeof link, "%s/t.json", shared);
    snprintf(dlink, sizeof dlink, "%s/d", shared);
    CHECK(mkdir(shared, 0777) == 0 && chmod(shared, 01777) == 0); /* like /tmp */
    CHECK(sv_write_atomic(victim, "precious\n", 9, err, sizeof err));
    snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups "
             "sh -c 'ln -s %s %s && ln -s %s %s'", victim, link, dir, dlink);
    CHECK_INT(system(cmd), 0);
    /* The planted file link: refused, naming the link and its owner. */
    CHECK(!sv_write_atomic(link, "pwned\n", 6, err, sizeof err));
    CHECK_CONTAINS(err, link);
    CHECK_CONTAINS(err, "a symbolic link owned by ");
    CHECK_CONTAINS(err, "uid 65534");
    CHECK_CONTAINS(err, "not followed");
    /* A planted folder link on the way: refused, naming that link. */
    char through[200];
    snprintf(through, sizeof through, "%s/victim", dlink);
    CHECK(!sv_write_atomic(through, "pwned\n", 6, err, sizeof err));
    CHECK_CONTAINS(err, dlink);
    CHECK_CONTAINS(err, "uid 65534");
    char *got = read_all(victim);
    CHECK_STR(got, "precious\n");
    free(got);
    struct stat lst;
    CHECK(lstat(link, &lst) == 0 && S_ISLNK(lst.st_mode));
    CHECK_INT(check_temporaries(dir), 0);
    /* The user's own link in the same folder is followed. */
    char own[160];
    snprintf(own, sizeof own, "%s/own.json", shared);
    CHECK(symlink(victim, own) == 0);
    CHECK_MSG(sv_write_atomic(own, "mine\n", 5, err, sizeof err), "%s", err);
    got = read_all(victim);
    CHECK_STR(got, "mine\n");
    free(got);
    unlink(own);
    unlink(link);
    unlink(dlink);
    rmdir(shared);
    unlink(victim);
    rmdir(dir);
    return check_status();
}

int main(int argc, char **argv)
{
    check_tmpdir(dir, sizeof dir, "sv-faults");
    if (argc > 1 && strcmp(argv[1], "links") == 0)
        return test_planted_links();
    test_writer();
    test_reader();
    test_escape();
    test_input();
    test_int32_float_fields();
    rmdir(dir);
    return check_status();
}
