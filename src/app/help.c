/* The help table (help.h): what the help overlay lists, as app.c binds it. */
#include <stddef.h>

#include "help.h"

const char *const sv_help_keys[][2] = {
    {"Right / Left", "step one round forward / back (animated); with --script: next / previous step"},
    {"Home / End", "first / last round"},
    {"Space", "play / pause"},
    {"+ / -", "faster / slower"},
    {"E", "edit the input (Return applies, Esc cancels, Ctrl+V pastes)"},
    {"Ctrl+1 .. Ctrl+4", "presets: chapter example, all ones, n = 13, random"},
    {"R", "random input of the same size"},
    {"I", "inclusive / exclusive scan"},
    {"O", "next operator"},
    {"T", "next theme (dark, light, high contrast)"},
    {"F or F11", "fullscreen"},
    {"Ctrl + / Ctrl - / Ctrl 0", "UI scale up / down / reset"},
    {"] / [ or wheel", "zoom in / out"},
    {"Shift+Left/Right or drag", "pan"},
    {"Z", "reset zoom and pan"},
    {"V", "overview: every round stacked, like the chapter's figure"},
    {"M", "Measure view: throughput and work against n"},
    {"B (Measure view)", "run the benchmark live on this machine's GPU / stop it"},
    {"H or ?", "this help"},
    {"F12", "print the state line (for scripts)"},
    {"Esc", "close the help, the input box, the Measure view or the overview, then quit"},
    {"hover / click a cell", "tooltip: value, formula, case, window / pin it"},
    {"click the timeline", "go to that round"},
    {NULL, NULL},
};
