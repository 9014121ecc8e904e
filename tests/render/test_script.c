/* The presenter script reader (script.h): the shipped example parses and
 * fits the chapter's trace; each kind of bad line is refused with its line
 * and word; the size bounds hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"

#include "../expect.h"

static bool parse(const char *text, sv_script *s, char *err, size_t errlen)
{
    return sv_script_parse(text, strlen(text), "t.txt", s, err, errlen);
}

static void refused(const char *text, const char *want)
{
    sv_script s;
    char err[256] = "";
    bool ok = parse(text, &s, err, sizeof err);
    CHECK_MSG(!ok, "accepted: %s", text);
    CHECK_MSG(strstr(err, want) != NULL, "for %s: error \"%s\" lacks \"%s\"", text, err, want);
    CHECK_MSG(s.n == 0 && s.steps == NULL, "a refused script is not empty");
    sv_script_finish(&s);
}

int main(int argc, char **argv)
{
    char err[256];
    sv_script s;
    /* The shipped example. */
    char path[1024];
    snprintf(path, sizeof path, "%s/assets/scripts/chapter-story.txt", argc > 1 ? argv[1] : ".");
    CHECK_MSG(sv_script_load(path, &s, err, sizeof err), "%s", err);
    CHECK_MSG(s.n == 12, "%d steps in the example", s.n);
    CHECK_MSG(sv_script_check(&s, 4, false, err, sizeof err), "example vs the chapter: %s", err);
    if (s.n == 12) {
        CHECK_MSG(s.steps[0].view == SV_SCRIPT_VIEW_OVERVIEW && s.steps[0].round == 0, "step 1");
        CHECK_MSG(s.steps[1].view == SV_SCRIPT_VIEW_SCAN && s.steps[1].round == 0, "step 2");
        CHECK_MSG(s.steps[2].round == 1 && s.steps[2].move && s.steps[2].view == SV_SCRIPT_VIEW_SCAN,
              "step 3 keeps the view and moves into round 1");
        CHECK_MSG(s.steps[3].round == 1 && !s.steps[3].move, "step 4 settled");
        CHECK_MSG(strncmp(s.steps[3].caption, "Copy-through (dotted)", 21) == 0, "caption: %s",
              s.steps[3].caption);
        CHECK_MSG(s.steps[8].view == SV_SCRIPT_VIEW_OVERVIEW && s.steps[8].round == 3,
              "last step keeps round 3");
        CHECK_MSG(s.steps[2].line == 11, "line of step 3 is %d", s.steps[2].line);
        /* the chapter's closing warning: in-place, then back */
        CHECK_MSG(s.steps[9].view == SV_SCRIPT_VIEW_SCAN && s.steps[11].view == SV_SCRIPT_VIEW_SCAN,
                  "the mistake's steps show the scan, not the overview");
        CHECK_MSG(strcmp(s.steps[9].kernel, "in-place") == 0 && s.steps[10].kernel[0] == '\0' &&
                  strcmp(s.steps[11].kernel, "correct") == 0, "kernel steps 10 and 12");
    }
    CHECK_MSG(!sv_script_check(&s, 3, false, err, sizeof err) && strstr(err, "line 15") &&
              strstr(err, "rounds 0..2"), "n = 4 trace: %s", err);
    sv_script_finish(&s);
    sv_script_finish(&s); /* twice is fine */

    /* An exercise step (issue 19). */
    CHECK_MSG(parse("round 0 : intro\nexercise guard : now you write it\n", &s, err, sizeof err),
              "exercise step: %s", err);
    CHECK_MSG(s.n == 2 && strcmp(s.steps[1].exercise, "guard") == 0 && s.steps[0].exercise[0] == 0,
              "the exercise step's name");
    sv_script_finish(&s);
    refused("exercise Guard_1 : x\n", "t.txt:1: exercise \"Guard_1\": expected an exercise's name");
    refused("exercise\n", "t.txt:1: \"exercise\" needs a name of 1 to 47 characters");

    /* Forms. */
    CHECK_MSG(parse("# c\n\n  round 2 kernel in-place:  Hi \xc2\xb7 there  \r\nshift\n", &s, err,
                sizeof err), "%s", err);
    CHECK_MSG(s.n == 2 && strcmp(s.steps[0].kernel, "in-place") == 0 &&
              strcmp(s.steps[0].caption, "Hi \xc2\xb7 there") == 0 && s.steps[1].shift &&
              s.steps[1].caption[0] == '\0', "forms");
    CHECK_MSG(!sv_script_check(&s, 4, false, err, sizeof err) && strstr(err, "line 4") &&
              strstr(err, "exclusive"), "shift on an inclusive scan: %s", err);
    CHECK_MSG(sv_script_check(&s, 4, true, err, sizeof err), "%s", err);
    sv_script_finish(&s);
    /* A kernel the lab does not have is refused at the check, by line. */
    CHECK_MSG(parse("round 1\nkernel hs-naive : no\n", &s, err, sizeof err), "%s", err);
    CHECK_MSG(!sv_script_check(&s, 4, false, err, sizeof err) && strstr(err, "line 2") &&
              strstr(err, "hs-naive") && strstr(err, "in-place"), "unknown kernel: %s", err);
    sv_script_finish(&s);

    /* Refusals name the line and the word. */
    refused("round 1\nrond 2\n", "t.txt:2: \"rond\"");
    refused("round\n", "t.txt:1: \"round\" needs a number");
    refused("round x1\n", "round \"x1\"");
    refused("round -1\n", "round \"-1\"");
    refused("round 99\n", "0..64");
    refused("view slides\n", "view \"slides\"");
    refused("kernel a/b\n", "kernel \"a/b\"");
    refused("move\n", "round 0");
    refused("round 1 : bell\x07\n", "control character");
    refused("round 1 : \xff\xfe\n", "not UTF-8");
    refused("# only comments\n\n", "no steps");
    refused("round 1 \x1b[31m\n", "\"?[31m\"");
    char big[400];
    memset(big, 'a', sizeof big);
    memcpy(big, "round 1 : ", 10);
    big[sizeof big - 1] = '\0';
    refused(big, "the caption is");
    /* Bounds. */
    size_t len = SV_SCRIPT_MAX_BYTES + 1;
    char *huge = malloc(len + 1);
    memset(huge, '#', len);
    huge[len] = '\0';
    CHECK_MSG(!sv_script_parse(huge, len, "h.txt", &s, err, sizeof err) && strstr(err, "at most"),
          "oversized: %s", err);
    free(huge);
    char *many = malloc(300 * 10 + 1);
    many[0] = '\0';
    for (int i = 0; i < 300; i++)
        strcat(many, "round 1\n");
    CHECK_MSG(!parse(many, &s, err, sizeof err) && strstr(err, "t.txt:257: more than 256"),
          "too many steps: %s", err);
    free(many);
    CHECK_MSG(!sv_script_load("/nonexistent/x.txt", &s, err, sizeof err) &&
              strstr(err, "/nonexistent/x.txt"), "missing file: %s", err);
    return check_report("all script checks passed");
}
