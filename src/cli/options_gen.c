/* options_gen: writes what the option table (src/core/options.def) gives
 * the rest of the tree, at build time (src/cli/meson.build):
 *
 *     options_gen man PROG TEMPLATE.scd OUT.scd
 *         the man page with its line "@OPTIONS@" replaced by PROG's options,
 *         grouped as in --help (scdoc: "*--runs* _R_" then a tab-indented
 *         paragraph);
 *     options_gen completion TEMPLATE.bash OUT
 *         the bash completion with @FLAGS_scanviz@, @FLAGS_scanviz_trace@,
 *         @FLAGS_scanviz_bench@, @VALUES@, @FILES@ and @FREE@ filled in.
 *
 * Not installed. Exit 0, or 1 naming the file that failed. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/options.h"

static const struct {
    const char *name;
    sv_program prog;
} programs[] = {
    { "scanviz", SV_FOR_VIEW },
    { "scanviz-trace", SV_FOR_TRACE },
    { "scanviz-bench", SV_FOR_BENCH },
};

static bool takes_value(const sv_option *o)
{
    return o->kind != SV_OPT_FLAG && o->kind != SV_OPT_STDIN;
}

/* ---- The man page ---------------------------------------------------------- */

static void man_options(FILE *f, sv_program prog)
{
    bool first = true, head;
    int at = 0;
    for (const sv_option *o; (o = sv_options_next(prog, &at, &head));) {
        if (head) {
            fprintf(f, "%s## %s\n", first ? "" : "\n", sv_opt_group_title(o->group));
            first = false;
        }
        fputc('\n', f);
        if (o->kind == SV_OPT_STDIN)
            fputs("*-*\n", f);
        else if (o->short_name)
            fprintf(f, "*-%c*, *--%s*", o->short_name, o->name);
        else
            fprintf(f, "*--%s*", o->name);
        if (o->kind != SV_OPT_STDIN)
            fprintf(f, "%s%s%s\n", takes_value(o) ? " _" : "", takes_value(o) ? o->arg : "",
                    takes_value(o) ? "_" : "");
        char text[4096];
        sv_option_text(o, o->doc ? o->doc : o->help, text, sizeof text);
        if (!o->doc) /* a --help line as a sentence */
            text[0] = (char)toupper((unsigned char)text[0]);
        size_t len = strlen(text);
        if (!o->doc && len && len + 1 < sizeof text && text[len - 1] != '.')
            strcat(text, ".");
        sv_options_wrap(f, text, 0, 8, 80, true); /* tab-indented; a tab counts 8 */
        if (o->values && o->value_doc) { /* each value in the registry's words */
            fputc('\n', f);
            for (unsigned k = 0; o->values(k) && o->value_doc(k); k++)
                fprintf(f, "\t- *%s*: %s\n", o->values(k), o->value_doc(k));
        }
    }
}

/* ---- The completion -------------------------------------------------------- */

static void flags_of(FILE *f, sv_program prog)
{
    bool any = false;
    for (int i = 0; i < SV_OPTION_COUNT; i++) {
        const sv_option *o = &sv_options[i];
        if (!(o->progs & prog) || o->kind == SV_OPT_STDIN)
            continue;
        if (o->short_name)
            fprintf(f, "%s-%c", any ? " " : "", o->short_name);
        fprintf(f, "%s--%s", any || o->short_name ? " " : "", o->name);
        any = true;
    }
}

/* Whether an earlier row has the same name (the same flag in another
 * program): its case arm is written once. */
static bool seen_before(int i, bool (*same_kind)(const sv_option *))
{
    for (int k = 0; k < i; k++)
        if (strcmp(sv_options[k].name, sv_options[i].name) == 0 && same_kind(&sv_options[k]))
            return true;
    return false;
}

static bool has_values(const sv_option *o)
{
    return (o->kind == SV_OPT_ENUM || o->kind == SV_OPT_LIST) && o->values;
}

static bool is_path(const sv_option *o)
{
    return o->kind == SV_OPT_FILE || o->kind == SV_OPT_DIR;
}

static bool is_free(const sv_option *o)
{
    return takes_value(o) && !has_values(o) && !is_path(o);
}

static void pattern(FILE *f, const sv_option *o)
{
    if (o->short_name)
        fprintf(f, "-%c | ", o->short_name);
    fprintf(f, "--%s", o->name);
}

/* The next option from *i on of which pred holds and no option before it
 * with the same names (one arm each); NULL at the end. */
static const sv_option *next_arm(int *i, bool (*pred)(const sv_option *))
{
    for (; *i < SV_OPTION_COUNT; ++*i)
        if (pred(&sv_options[*i]) && !seen_before(*i, pred))
            return &sv_options[(*i)++];
    return NULL;
}

static void values_arms(FILE *f)
{
    int i = 0;
    for (const sv_option *o; (o = next_arm(&i, has_values));) {
        fputs("        ", f);
        pattern(f, o);
        fputs(") echo '", f);
        for (unsigned k = 0; o->values(k); k++)
            fprintf(f, "%s%s", k ? " " : "", o->values(k));
        fputs("' ;;\n", f);
    }
}

static void file_arms(FILE *f)
{
    int i = 0;
    for (const sv_option *o; (o = next_arm(&i, is_path));) {
        fputs("        ", f);
        pattern(f, o);
        if (o->kind == SV_OPT_DIR)
            fputs(") _scanviz_files -d; return ;;\n", f);
        else if (o->complete && o->complete[0])
            fprintf(f, ") _scanviz_files %s; return ;;\n", o->complete);
        else
            fputs(") _scanviz_files; return ;;\n", f);
    }
}

static void free_arm(FILE *f)
{
    bool any = false;
    int i = 0;
    for (const sv_option *o; (o = next_arm(&i, is_free));) {
        fputs(any ? " | " : "        ", f);
        pattern(f, o);
        any = true;
    }
    if (any)
        fputs(") return ;; # a value of the user's own\n", f);
}

static bool completion_marker(FILE *f, const char *line)
{
    const char *at = strchr(line, '@');
    if (!at)
        return false;
    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++) {
        char marker[64];
        snprintf(marker, sizeof marker, "@FLAGS_%s@", programs[k].name);
        for (char *c = marker; *c; c++)
            if (*c == '-')
                *c = '_';
        if (strstr(line, marker)) {
            fwrite(line, 1, (size_t)(strstr(line, marker) - line), f);
            flags_of(f, programs[k].prog);
            fputs(strstr(line, marker) + strlen(marker), f);
            return true;
        }
    }
    if (strstr(line, "@VALUES@"))
        values_arms(f);
    else if (strstr(line, "@FILES@"))
        file_arms(f);
    else if (strstr(line, "@FREE@"))
        free_arm(f);
    else
        return false;
    return true;
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    sv_program prog = 0;
    bool man = argc == 5 && strcmp(argv[1], "man") == 0;
    bool completion = argc == 4 && strcmp(argv[1], "completion") == 0;
    if (man)
        for (size_t k = 0; k < sizeof programs / sizeof programs[0]; k++)
            if (strcmp(argv[2], programs[k].name) == 0)
                prog = programs[k].prog;
    if ((!man && !completion) || (man && !prog)) {
        fprintf(stderr, "usage: options_gen man PROG TEMPLATE OUT | completion TEMPLATE OUT\n");
        return 1;
    }
    const char *in_path = argv[argc - 2], *out_path = argv[argc - 1];
    FILE *in = fopen(in_path, "r");
    if (!in) {
        perror(in_path);
        return 1;
    }
    FILE *out = fopen(out_path, "w");
    if (!out) {
        perror(out_path);
        fclose(in);
        return 1;
    }
    char line[4096];
    bool filled = false;
    while (fgets(line, sizeof line, in)) {
        if (man && strcmp(line, "@OPTIONS@\n") == 0) {
            man_options(out, prog);
            filled = true;
        } else if (completion && completion_marker(out, line)) {
            filled = true;
        } else {
            fputs(line, out);
        }
    }
    bool ok = !ferror(in) && filled;
    fclose(in);
    if (fclose(out) != 0 || !ok) {
        fprintf(stderr, "options_gen: %s: %s\n", ok ? out_path : in_path,
                ok ? "write failed" : "no @OPTIONS@ or @FLAGS_...@ line to fill");
        remove(out_path);
        return 1;
    }
    return 0;
}
