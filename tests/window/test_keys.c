/* The one key table (src/app/keys.h) against the user guide: the first
 * column of docs/user-guide.md's "Keys" table is exactly the table's help
 * labels, both ways (a key the window binds and the guide does not list
 * fails, and so does a key the guide lists that the table does not have),
 * and the help overlay (sv_help_keys) lists the same lines in table order.
 * Usage: test_keys docs/user-guide.md */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "help.h"
#include "keys.h"

#include "../expect.h"

#define KEY_LABEL(label, what) label,
#define NO_BIND(sym, last, mods, when, flags, action)
#define NO_MOUSE(label, what)
#define MOUSE_LABEL(label, what) label,
static const char *const key_labels[] = { SV_KEYS_TABLE(KEY_LABEL, NO_BIND, NO_MOUSE) };
static const char *const all_labels[] = { SV_KEYS_TABLE(KEY_LABEL, NO_BIND, MOUSE_LABEL) };
#define NKEYS (sizeof key_labels / sizeof key_labels[0])
#define NALL (sizeof all_labels / sizeof all_labels[0])

enum { MAX_ROWS = 256 };

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* The first cells of the table under "## Keys" (header and rule left out),
 * trimmed, into rows; returns how many. */
static int guide_keys(char *doc, char *rows[], int max)
{
    char *at = strstr(doc, "\n## Keys\n");
    if (!at)
        return -1;
    at += strlen("\n## Keys\n");
    char *end = strstr(at, "\n## ");
    if (end)
        *end = '\0';
    int n = 0, line = 0;
    for (char *l = strtok(at, "\n"); l; l = strtok(NULL, "\n")) {
        if (l[0] != '|')
            continue;
        if (line++ < 2)
            continue; /* | Key | What it does | and | --- | --- | */
        char *cell = l + 1, *bar = strchr(cell, '|');
        if (!bar)
            continue;
        *bar = '\0';
        while (*cell == ' ')
            cell++;
        size_t len = strlen(cell);
        while (len && cell[len - 1] == ' ')
            cell[--len] = '\0';
        if (n < max)
            rows[n++] = cell;
    }
    return n;
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s docs/user-guide.md\n", argv[0]);
        return 2;
    }
    char *doc = read_all(argv[1]);
    CHECK_MSG(doc != NULL, "cannot read %s", argv[1]);
    if (!doc)
        return check_status();
    char *rows[MAX_ROWS];
    int n = guide_keys(doc, rows, MAX_ROWS);
    CHECK_MSG(n > 0, "%s: no \"## Keys\" table", argv[1]);
    for (size_t i = 0; i < NKEYS; i++)
        CHECK_MSG(in_list(key_labels[i], (const char *const *)rows, (size_t)(n > 0 ? n : 0)),
                  "key table line \"%s\" is not in the user guide's Keys table", key_labels[i]);
    for (int i = 0; i < n; i++)
        CHECK_MSG(in_list(rows[i], key_labels, NKEYS),
                  "the user guide's Keys table lists \"%s\", which the key table has not",
                  rows[i]);
    /* The help overlay is the table's help and mouse lines, in order. */
    size_t h = 0;
    while (sv_help_keys[h][0]) {
        CHECK_MSG(h < NALL && strcmp(sv_help_keys[h][0], all_labels[h]) == 0,
                  "help line %zu \"%s\" is not the table's", h, sv_help_keys[h][0]);
        CHECK_MSG(sv_help_what(h) && sv_help_what(h)[0], "help line %zu has no text", h);
        h++;
    }
    CHECK_INT((long)h, (long)NALL);
    free(doc);
    return check_report("the key table, the help overlay and the user guide agree");
}
