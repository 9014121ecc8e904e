/* The window's keys, declared once (mpv's etc/input.conf idea, written as a
 * sokol-style X-macro): every row is a help line or a binding.
 *
 *   SV_KEYS_TABLE(HELP, BIND, MOUSE)
 *     HELP(label, what)   a line of the help overlay and of the user guide's
 *                         key list (docs/user-guide.md "Keys": its first
 *                         column is exactly label); what NULL: made from
 *                         elsewhere (help.c's sv_help_what)
 *     BIND(sym, last, mods, when, flags, action)
 *                         a binding documented by the HELP line above it:
 *                         SDL keycodes sym .. last (last 0: sym alone), the
 *                         modifiers (SV_KEYMOD_*), the modes it applies in
 *                         (SV_KEYWHEN_* bits, all must hold; 0: always),
 *                         SV_KEYF_* flags, and the action app_keys.c runs
 *     MOUSE(label, what)  a help line of the mouse (the guide's "Mouse")
 *
 * Who reads it: help.c expands the HELP and MOUSE lines into sv_help_keys
 * (the overlay), app_keys.c expands the bindings into the table sv_app_key
 * dispatches from, tests/window/test_keys.c checks the user guide's key
 * list against the HELP labels both ways. Nothing here needs SDL until a
 * BIND is expanded (the renderers never expand it).
 *
 * Dispatch (app_keys.c): the input box takes every key while open; else
 * the bindings of an open predict-mode question (SV_KEYWHEN_ASKING) are
 * tried first, then the rest in table order; the first whose key,
 * modifiers, modes and repeat match and whose action says it acted wins.
 * An action that did nothing (Esc with no typed answer) lets the next
 * matching binding have the key. */
#ifndef SV_KEYS_H
#define SV_KEYS_H

/* Modifiers a binding wants. Alt and GUI are never looked at. */
enum {
    SV_KEYMOD_PLAIN,   /* no Ctrl; Shift either way */
    SV_KEYMOD_NOSHIFT, /* neither Ctrl nor Shift */
    SV_KEYMOD_SHIFT,   /* Shift, no Ctrl */
    SV_KEYMOD_CTRL     /* Ctrl (Shift either way) */
};

/* Modes (bits; a binding applies when all of its bits hold). */
enum {
    SV_KEYWHEN_SCAN = 1 << 0,    /* the scan view (not the Measure view) */
    SV_KEYWHEN_MEASURE = 1 << 1, /* the Measure view */
    SV_KEYWHEN_SCRIPT = 1 << 2,  /* a presenter script is loaded */
    SV_KEYWHEN_QUIZ = 1 << 3,    /* predict mode is on */
    SV_KEYWHEN_ASKING = 1 << 4,  /* a question is open, in the scan view,
                                    help closed (tried before the rest) */
    SV_KEYWHEN_EXERCISE = 1 << 5, /* an exercise is open (--exercise NAME) */
    SV_KEYWHEN_COMPARE = 1 << 6, /* the compare view is on (B, --compare) */
    SV_KEYWHEN_TIMELINE = 1 << 7 /* the Measure view shows a look-back timeline */
};

/* Flags. */
enum {
    SV_KEYF_REPEAT = 1 << 0 /* also on the keyboard's auto-repeat */
};

#define SV_KEYS_TABLE(HELP, BIND, MOUSE) \
    HELP("Right / Left", "step one round forward / back (animated); with --script: next / previous step") \
    BIND(SDLK_RIGHT, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_next) \
    BIND(SDLK_LEFT, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_prev) \
    BIND(SDLK_RIGHT, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, forward) \
    BIND(SDLK_LEFT, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, back) \
    HELP("Page Down / Page Up", "the same (a presenter's clicker)") \
    BIND(SDLK_PAGEDOWN, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_next) \
    BIND(SDLK_PAGEUP, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_prev) \
    BIND(SDLK_PAGEDOWN, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, forward) \
    BIND(SDLK_PAGEUP, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, back) \
    HELP("Down / Up", "next / previous phase: load, guard, add, barrier, swap, copy back (a kernel file: its writes, its barrier)") \
    /* (inside a presenter script too: the script's step stays) */ \
    BIND(SDLK_DOWN, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, phase_next) \
    BIND(SDLK_UP, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, phase_prev) \
    HELP("Home / End", "first / last round") \
    BIND(SDLK_HOME, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_first) \
    BIND(SDLK_END, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCRIPT, SV_KEYF_REPEAT, script_last) \
    BIND(SDLK_HOME, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, first) \
    BIND(SDLK_END, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, last) \
    HELP("Space", "play / pause") \
    BIND(SDLK_SPACE, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, play) \
    HELP("+ / -", "faster / slower") \
    BIND(SDLK_PLUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, faster) \
    BIND(SDLK_EQUALS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, faster) \
    BIND(SDLK_KP_PLUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, faster) \
    BIND(SDLK_MINUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, slower) \
    BIND(SDLK_KP_MINUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, slower) \
    HELP("E", "edit the input (Return applies, Esc cancels, Ctrl+V pastes)") \
    BIND(SDLK_e, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, edit) \
    HELP("Ctrl+1 .. Ctrl+4", "presets: chapter example, all ones, n = 13, random") \
    BIND(SDLK_1, SDLK_4, SV_KEYMOD_CTRL, SV_KEYWHEN_SCAN, 0, preset) \
    HELP("R", "random input of the same size") \
    BIND(SDLK_r, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, random) \
    HELP("I or X", "inclusive / exclusive scan") \
    BIND(SDLK_i, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, scan_kind) \
    BIND(SDLK_x, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, scan_kind) \
    HELP("Y", "element type: int32 / float32") \
    BIND(SDLK_y, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, type) \
    HELP("O", "next operator") \
    BIND(SDLK_o, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, op) \
    HELP("T", "next theme (dark, light, high contrast)") \
    BIND(SDLK_t, 0, SV_KEYMOD_PLAIN, 0, 0, theme) \
    HELP("F or F11", "fullscreen") \
    BIND(SDLK_f, 0, SV_KEYMOD_PLAIN, 0, 0, fullscreen) \
    BIND(SDLK_F11, 0, SV_KEYMOD_PLAIN, 0, 0, fullscreen) \
    HELP("Ctrl + / Ctrl - / Ctrl 0", "UI scale up / down / reset") \
    BIND(SDLK_EQUALS, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_bigger) \
    BIND(SDLK_PLUS, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_bigger) \
    BIND(SDLK_KP_PLUS, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_bigger) \
    BIND(SDLK_MINUS, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_smaller) \
    BIND(SDLK_KP_MINUS, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_smaller) \
    BIND(SDLK_0, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_reset) \
    BIND(SDLK_KP_0, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, ui_reset) \
    HELP("] / [ or wheel", "zoom in / out") \
    BIND(SDLK_RIGHTBRACKET, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, zoom_in) \
    BIND(SDLK_LEFTBRACKET, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, zoom_out) \
    HELP("Shift+Left/Right or drag", "pan") \
    BIND(SDLK_RIGHT, 0, SV_KEYMOD_SHIFT, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, pan_right) \
    BIND(SDLK_LEFT, 0, SV_KEYMOD_SHIFT, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, pan_left) \
    HELP("Tab / Shift+Tab (a launch)", "a kernel file's launch: zoom in on its next / " \
                                       "previous tile (Z: all of them)") \
    BIND(SDLK_TAB, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, tile_step) \
    HELP("Z", "reset zoom and pan") \
    BIND(SDLK_z, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, SV_KEYF_REPEAT, zoom_reset) \
    HELP("V", "overview: every round stacked, like the chapter's figure (a kernel file: every step)") \
    BIND(SDLK_v, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, overview) \
    HELP("B", "compare: Hillis-Steele beside Blelloch on this input, each with its own " \
              "steps and counters; M there: the measured cost (B again leaves)") \
    BIND(SDLK_b, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, compare) \
    HELP("Tab (compare view)", "which pane Right/Left step: both together, Hillis-Steele " \
                               "alone, Blelloch alone") \
    BIND(SDLK_TAB, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN | SV_KEYWHEN_COMPARE, 0, compare_focus) \
    HELP("C", "the kernel's source beside the cells (the phase's line highlighted)") \
    BIND(SDLK_c, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, code) \
    HELP("K", NULL) /* sv_help_what(): the kernels from the lab's registry */ \
    BIND(SDLK_k, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, kernel) \
    HELP("K / Shift+K", "with several --trace files: the next / previous file") \
    /* (the same binding: kernel walks the deck when there is one) */ \
    HELP("D", "a mistake, or a --kernel-file: the chapter kernel's values beside its own") \
    BIND(SDLK_d, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, correct) \
    HELP("Ctrl+E", "--kernel-file: open the file in your editor ($VISUAL, $EDITOR, xdg-open)") \
    BIND(SDLK_e, 0, SV_KEYMOD_CTRL, 0, 0, kedit) \
    HELP("S", "--kernel-file: the next schedule (lockstep, sequential, reverse, random, warps)") \
    BIND(SDLK_s, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, kschedule) \
    HELP("W / Shift+W", "--kernel-file with --runs: show the next / previous run in which the hovered cell was wrong") \
    BIND(SDLK_w, 0, SV_KEYMOD_NOSHIFT, SV_KEYWHEN_SCAN, 0, kwrong_next) \
    BIND(SDLK_w, 0, SV_KEYMOD_SHIFT, SV_KEYWHEN_SCAN, 0, kwrong_prev) \
    HELP("N (exercise)", "the next hint (1, 2, 3), in the exercise's panel") \
    BIND(SDLK_n, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_EXERCISE, 0, ex_hint) \
    HELP("A (exercise)", "reveal the solution: after a pass, or when asked twice") \
    BIND(SDLK_a, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_EXERCISE, 0, ex_reveal) \
    HELP("G (exercise)", "after a pass: open the next exercise") \
    BIND(SDLK_g, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_EXERCISE, 0, ex_next) \
    HELP("Ctrl+Down / Ctrl+Up (exercise)", "scroll the exercise's panel a line (the wheel " \
                                           "over the panel: three)") \
    BIND(SDLK_DOWN, 0, SV_KEYMOD_CTRL, SV_KEYWHEN_EXERCISE, SV_KEYF_REPEAT, ex_scroll_down) \
    BIND(SDLK_UP, 0, SV_KEYMOD_CTRL, SV_KEYWHEN_EXERCISE, SV_KEYF_REPEAT, ex_scroll_up) \
    HELP("Ctrl+Page Down / Ctrl+Page Up (exercise)", "scroll the exercise's panel a page") \
    BIND(SDLK_PAGEDOWN, 0, SV_KEYMOD_CTRL, SV_KEYWHEN_EXERCISE, SV_KEYF_REPEAT, ex_page_down) \
    BIND(SDLK_PAGEUP, 0, SV_KEYMOD_CTRL, SV_KEYWHEN_EXERCISE, SV_KEYF_REPEAT, ex_page_up) \
    HELP("M", "Measure view: throughput and work against n") \
    BIND(SDLK_m, 0, SV_KEYMOD_PLAIN, 0, 0, measure) \
    HELP("B (Measure view)", "run the benchmark live on this machine's GPU / stop it") \
    BIND(SDLK_b, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_MEASURE, 0, bench) \
    HELP("L (Measure view)", "with --timeline FILE: hs's look-back timeline / the plots") \
    BIND(SDLK_l, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_MEASURE, 0, tl_toggle) \
    HELP("L (a launch)", "a kernel file's launch: its tiles over time (the look-back " \
                         "timeline of what its blocks did)") \
    BIND(SDLK_l, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, tl_launch) \
    HELP("Right / Left (timeline)", "step by time: the next / previous start, publish, read " \
                                    "or end of a tile") \
    BIND(SDLK_RIGHT, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_later) \
    BIND(SDLK_LEFT, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_earlier) \
    HELP("Down / Up (timeline)", "the next / previous tile (Page Down / Page Up: a page; " \
                                 "Home / End: the first / last tiles)") \
    BIND(SDLK_DOWN, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_down) \
    BIND(SDLK_UP, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_up) \
    BIND(SDLK_PAGEDOWN, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_page_down) \
    BIND(SDLK_PAGEUP, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_page_up) \
    BIND(SDLK_HOME, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, 0, tl_home) \
    BIND(SDLK_END, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, 0, tl_end) \
    HELP("] / [ (timeline)", "fewer tiles, with the look-back's arrows / more tiles, up to all") \
    BIND(SDLK_RIGHTBRACKET, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_fewer) \
    BIND(SDLK_LEFTBRACKET, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_TIMELINE, SV_KEYF_REPEAT, tl_more) \
    HELP("P", "predict mode: Right asks about the next round, Right again reveals") \
    BIND(SDLK_p, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN, 0, predict) \
    HELP("Q (predict mode)", "question: cell values / cases (full, partial, copy-through) / " \
                             "with a mistake shown, will each cell be right?") \
    BIND(SDLK_q, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_SCAN | SV_KEYWHEN_QUIZ, 0, question) \
    HELP("Tab / Shift+Tab", "predict: select the next / previous cell (or click it)") \
    BIND(SDLK_TAB, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    HELP("0-9 - . Return", "predict values: type a number, Return commits it") \
    BIND(SDLK_0, SDLK_9, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_KP_1, SDLK_KP_9, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_KP_0, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_MINUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_KP_MINUS, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_PERIOD, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_KP_PERIOD, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_RETURN, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_KP_ENTER, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_BACKSPACE, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_DELETE, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    BIND(SDLK_ESCAPE, 0, SV_KEYMOD_PLAIN, SV_KEYWHEN_ASKING, SV_KEYF_REPEAT, answer) \
    HELP("Return or 1 2 3 0", "predict cases: cycle / full, partial, copy-through, none") \
    HELP("Return or 1 2 0", "predict right or wrong: cycle / right (in every run), wrong, none") \
    /* (the bindings of "0-9 - . Return": the answer depends on the question) */ \
    HELP("H, ? or [?]", "this help") \
    BIND(SDLK_h, 0, SV_KEYMOD_PLAIN, 0, 0, help) \
    BIND(SDLK_SLASH, 0, SV_KEYMOD_SHIFT, 0, 0, help) \
    BIND(SDLK_QUESTION, 0, SV_KEYMOD_PLAIN, 0, 0, help) \
    HELP("F12", "print the state line (for scripts)") \
    BIND(SDLK_F12, 0, SV_KEYMOD_PLAIN, 0, SV_KEYF_REPEAT, state_line) \
    HELP("Esc", "close what is open (help, input box, Measure view, compare view, overview, " \
              "fullscreen), then quit") \
    BIND(SDLK_ESCAPE, 0, SV_KEYMOD_PLAIN, 0, 0, escape) \
    HELP("Ctrl+Q", "quit at once (Esc asks first after an edit)") \
    BIND(SDLK_q, 0, SV_KEYMOD_CTRL, 0, SV_KEYF_REPEAT, quit) \
    MOUSE("hover / click a cell", "tooltip: value, formula, case, window / pin it") \
    MOUSE("click the timeline", "go to that round")

#endif
