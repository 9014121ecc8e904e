/* The help table (help.h): what the help overlay lists, as app.c binds it. */
#include <stddef.h>
#include <stdio.h>

#include "help.h"
#include "../core/lab.h"

const char *const sv_help_keys[][2] = {
    {"Right / Left", "step one round forward / back (animated); with --script: next / previous step"},
    {"Page Down / Page Up", "the same (a presenter's clicker)"},
    {"Down / Up", "next / previous phase of the round (load, guard, add, barrier, swap, copy back)"},
    {"Home / End", "first / last round"},
    {"Space", "play / pause"},
    {"+ / -", "faster / slower"},
    {"E", "edit the input (Return applies, Esc cancels, Ctrl+V pastes)"},
    {"Ctrl+1 .. Ctrl+4", "presets: chapter example, all ones, n = 13, random"},
    {"R", "random input of the same size"},
    {"I or X", "inclusive / exclusive scan"},
    {"Y", "element type: int32 / float32"},
    {"O", "next operator"},
    {"T", "next theme (dark, light, high contrast)"},
    {"F or F11", "fullscreen"},
    {"Ctrl + / Ctrl - / Ctrl 0", "UI scale up / down / reset"},
    {"] / [ or wheel", "zoom in / out"},
    {"Shift+Left/Right or drag", "pan"},
    {"Z", "reset zoom and pan"},
    {"V", "overview: every round stacked, like the chapter's figure"},
    {"C", "the kernel's source beside the cells (the phase's line highlighted)"},
    {"K", NULL}, /* sv_help_what(): the kernels from the lab's registry */
    {"K / Shift+K", "with several --trace files: the next / previous file"},
    {"D", "a mistake: the correct kernel's values beside its own"},
    {"M", "Measure view: throughput and work against n"},
    {"B (Measure view)", "run the benchmark live on this machine's GPU / stop it"},
    {"P", "predict mode: Right asks about the next round, Right again reveals"},
    {"Q (predict mode)", "question: cell values / cases (full, partial, copy-through) / "
                         "with a mistake shown, will each cell be right?"},
    {"Tab / Shift+Tab", "predict: select the next / previous cell (or click it)"},
    {"0-9 - . Return", "predict values: type a number, Return commits it"},
    {"Return or 1 2 3 0", "predict cases: cycle / full, partial, copy-through, none"},
    {"Return or 1 2 0", "predict right or wrong: cycle / right (in every run), wrong, none"},
    {"H, ? or [?]", "this help"},
    {"F12", "print the state line (for scripts)"},
    {"Esc", "close what is open (help, input box, Measure view, overview, fullscreen), then quit"},
    {"Ctrl+Q", "quit at once (Esc asks first after an edit)"},
    {"hover / click a cell", "tooltip: value, formula, case, window / pin it"},
    {"click the timeline", "go to that round"},
    {NULL, NULL},
};

const char *sv_help_what(size_t i)
{
    static char kernels[320]; /* the main thread's, as the renderers */
    if (sv_help_keys[i][1])
        return sv_help_keys[i][1];
    if (!kernels[0])
        snprintf(kernels, sizeof kernels, "next kernel: %s (GPU runs, else emulated)",
                 sv_kernel_list());
    return kernels;
}
