/* scanviz: the command line and the main loop. Parses the flags, then either
 * opens the window (events -> sv_app_event, frames -> sv_render_frame), or
 * renders headless (--export, --export-plot), or times frames (--bench-frames).
 * Exit status: 0 success, 1 failure, 2 bad usage or input, 3 backend unavailable. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <SDL.h>
#include <epoxy/gl.h>

#include "sv_config.h"
#include "../capture/kernel_run.h"
#include "../core/args.h"
#include "../core/error.h"
#include "../core/escape.h"
#include "../core/exercise_progress.h"
#include "../core/fileio.h"
#include "../core/input.h"
#include "../core/ktrace_table.h"
#include "../core/lab.h"
#include "../core/options.h"
#include "../core/parse.h"
#include "../core/table.h"
#include "../core/trace_file.h"
#include "app.h"
#include "export.h"
#include "platform.h"
#include "render.h"
#include "wake.h"

#define EXIT_USAGE 2
#define EXIT_UNAVAILABLE 3
#define NO_DISPLAY_DIR "scanviz-rounds" /* where the rounds go without a display */

static void usage(FILE *f)
{
    fputs("usage: scanviz [input] [options]\n"
          "An interactive view of the Hillis-Steele scan, round by round.\n", f);
    sv_options_help(SV_FOR_VIEW, f); /* the option table, core/options.def */
    fputs("\n"
          "Keys: H or ? in the window lists them; docs/user-guide.md describes everything.\n"
          "Exit status: 0 success; 1 failure (e.g. a file or standard output could not be\n"
          "written); 2 bad usage or input, or input over its limit; 3 backend unavailable.\n",
          f);
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
    (void)sig;
    got_usr1 = 1;
}

/* Errors go to stderr as "scanviz: message" (core/args.h); usage errors
 * add a pointer to --help and exit EXIT_USAGE. */
#define report(status, ...) sv_report("scanviz", (status), NULL, __VA_ARGS__)
#define usage_error(...) sv_report("scanviz", EXIT_USAGE, SV_USAGE_HINT("scanviz"), __VA_ARGS__)

/* Standard output is checked like a file (core/args.h). */
#define stdout_status(rc) sv_stdout_status("scanviz", (rc), EXIT_FAILURE)

typedef struct options {
    sv_input input; /* --input, --file, -, --random, --seed (core/input.h) */
    const char *trace, *export_dir, *export_plot, *bench_csv, *timeline;
    int trace_arg;
    const char *deck[SV_DECK_MAX]; /* every trace file given, trace first */
    int deck_n;
    const char *op, *type, *backend, *theme, *kernel, *schedule;
    bool exclusive, fullscreen, autoplay, no_animation, code;
    sv_lab_options lab;     /* --runs, --shake, --shake-seed (core/args.h) */
    bool quiz;
    long round;
    double speed;
    int w, h;
    bool size_given;
    long bench_frames;
    /* Slides (issue 10) */
    const char *export_gif, *export_svg, *script;
    bool clean, overview;
    double scale;
    bool help, version;
    /* Your own kernel (issue 18) */
    const char *kernel_file, *entry, *new_kernel;
    double time_limit;
    /* Exercises (issue 19) */
    const char *exercise, *into;
    const char *compare; /* --compare blelloch (issue 20) */
} options;

/* One more trace file (--trace FILE, or FILE.json alone): the first is
 * shown, and with two or more they are a deck that K walks. */
static bool add_trace(options *o, const char *path, int argi, char *err, size_t errlen)
{
    if (o->deck_n == SV_DECK_MAX)
        return sv_errorf(err, errlen, "\"%s\" (argument %d): at most %d trace files", path,
                         argi, SV_DECK_MAX), false;
    if (!o->trace) {
        o->trace = path;
        o->trace_arg = argi;
    }
    o->deck[o->deck_n++] = path;
    return true;
}

/* One option or operand, checked by the table (core/options.def). */
/* A folder argument without its trailing slashes ("slides/" is "slides",
 * "/" stays), so that every path made in it and every message naming it
 * reads "slides/round-00.png", never "slides//". Slot 0 is --export's,
 * 1 --export-svg's; a longer path than the slot stays as given. */
static const char *dir_arg(const char *v, int slot)
{
    static char dirs[2][4096];
    size_t n = strlen(v);
    if (n >= sizeof dirs[0])
        return v;
    while (n > 1 && v[n - 1] == '/')
        n--;
    memcpy(dirs[slot], v, n);
    dirs[slot][n] = '\0';
    return dirs[slot];
}

static bool take(void *ctx, const sv_opt_arg *a, char *err, size_t errlen)
{
    options *o = ctx;
    int common = sv_args_take_common(&o->input, &o->lab, a, err, errlen);
    if (common >= 0)
        return common == 1;
    const char *v = a->text;
    switch (a->id) {
    case SV_OPTION_NONE: {
        size_t len = strlen(v);
        if (len > 5 && strcmp(v + len - 5, ".json") == 0) /* scanviz FILE.json: the desktop entry's Exec */
            return add_trace(o, v, a->argi, err, errlen);
        return sv_options_bad(a, err, errlen, "unexpected argument (values go in --input \"%s\")",
                              v);
    }
    case SV_OPTION_OP: o->op = v; break;
    case SV_OPTION_TYPE: o->type = v; break;
    case SV_OPTION_EXCLUSIVE: o->exclusive = true; break;
    case SV_OPTION_INCLUSIVE: o->exclusive = false; break;
    case SV_OPTION_BACKEND: o->backend = v; break;
    case SV_OPTION_KERNEL: o->kernel = v; break;
    case SV_OPTION_SCHEDULE: o->schedule = v; break;
    case SV_OPTION_TRACE: return add_trace(o, v, a->argi, err, errlen);
    case SV_OPTION_ROUND: o->round = (long)a->u; break; /* sv_app_init names the trace's range */
    case SV_OPTION_THEME: o->theme = v; break;
    case SV_OPTION_FULLSCREEN: o->fullscreen = true; break;
    case SV_OPTION_SPEED: o->speed = a->f; break;
    case SV_OPTION_AUTOPLAY: o->autoplay = true; break;
    case SV_OPTION_CODE: o->code = true; break;
    case SV_OPTION_COMPARE: o->compare = v; break;
    case SV_OPTION_NO_ANIMATION: o->no_animation = true; break;
    case SV_OPTION_QUIZ: o->quiz = true; break;
    case SV_OPTION_EXPORT: o->export_dir = dir_arg(v, 0); break;
    case SV_OPTION_SIZE:
        sv_options_parse_size(v, &o->w, &o->h); /* the table checked it */
        o->size_given = true;
        break;
    case SV_OPTION_EXPORT_PLOT: o->export_plot = v; break;
    case SV_OPTION_CLEAN: o->clean = true; break;
    case SV_OPTION_OVERVIEW: o->overview = true; break;
    case SV_OPTION_EXPORT_GIF: o->export_gif = v; break;
    case SV_OPTION_EXPORT_SVG: o->export_svg = dir_arg(v, 1); break;
    case SV_OPTION_SCRIPT: o->script = v; break;
    case SV_OPTION_SCALE: o->scale = a->f; break;
    case SV_OPTION_BENCH_CSV: o->bench_csv = v; break;
    case SV_OPTION_TIMELINE: o->timeline = v; break;
    case SV_OPTION_BENCH_FRAMES: o->bench_frames = (long)a->u; break;
    case SV_OPTION_KERNEL_FILE: o->kernel_file = v; break;
    case SV_OPTION_ENTRY: o->entry = v; break;
    case SV_OPTION_TIME_LIMIT: o->time_limit = a->f; break;
    case SV_OPTION_NEW_KERNEL: o->new_kernel = v; break;
    case SV_OPTION_EXERCISE: o->exercise = v; break;
    case SV_OPTION_INTO: o->into = v; break;
    case SV_OPTION_HELP: o->help = true; break;
    case SV_OPTION_VERSION: o->version = true; break;
    default:
        return sv_options_bad(a, err, errlen, "not an option of scanviz");
    }
    return true;
}

/* --exercise list: the exercises and the student's progress, on stdout (no
 * window needed; a bad progress file is said and ignored). From a terminal
 * with a display it then opens the first exercise not passed yet (*pick,
 * returns -1 to go on); printed into a pipe or without a display it ends. */
static int exercise_list(char *pick, size_t picklen)
{
    char root[4096], err[1400];
    if (!sv_exercise_find_root(root, sizeof root, err, sizeof err))
        return report(EXIT_FAILURE, "%s", err);
    sv_progress p;
    sv_progress_current(&p, err, sizeof err);
    if (err[0])
        report(0, "%s", err);
    char *text = sv_exercise_list_text(root, &p, err, sizeof err);
    if (!text)
        return report(EXIT_FAILURE, "%s", err);
    fputs(text, stdout);
    free(text);
    if (!isatty(STDOUT_FILENO) || !sv_platform_have_display())
        return stdout_status(0);
    char names[SV_EXERCISE_MAX_LIST][SV_EXERCISE_MAX_NAME];
    size_t n = sv_exercise_list(root, names, SV_EXERCISE_MAX_LIST, err, sizeof err), at = 0;
    while (at + 1 < n && sv_progress_find(&p, names[at]) && sv_progress_find(&p, names[at])->passed)
        at++;
    if (!n)
        return stdout_status(0);
    snprintf(pick, picklen, "%s", names[at]);
    printf("scanviz: opening %s, the first not passed yet (G goes on after a pass)\n", pick);
    fflush(stdout);
    return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    sv_input_init(&o->input);
    o->round = -1;
    o->speed = 1.0;
    o->w = SV_VIEW_DEFAULT_W;
    o->h = SV_VIEW_DEFAULT_H;
    char err[1024];
    /* A kernel file whose host function launches many blocks takes its
     * input up to SV_MAX_N_BLOCKS values (issue 31), as scanviz-trace. */
    if ((o->input.max_n = sv_krun_args_max_n(argc, argv)) > SV_MAX_N)
        sv_options_raise(SV_OPTION_RANDOM, o->input.max_n);
    if (!sv_options_parse(SV_FOR_VIEW, argc, argv, take, o, err, sizeof err))
        return usage_error("%s", err);
    if (o->help) {
        usage(stdout);
        return stdout_status(0);
    }
    if (o->version) {
        printf("scanviz %s (%s)\n", SV_VERSION,
               SV_HAVE_CUDA ? "with the CUDA backend"
                            : "GPU runs through NVRTC; built without nvcc");
        return stdout_status(0);
    }
    if (o->new_kernel) { /* writes the starting file and ends */
        if (!sv_app_new_kernel(o->new_kernel, err, sizeof err))
            return report(EXIT_FAILURE, "--new-kernel: %s", err);
        printf("scanviz: wrote %s; run it with: scanviz --kernel-file %s\n",
               sv_escape(o->new_kernel, err, sizeof err), err);
        return stdout_status(0);
    }
    static char pick[SV_EXERCISE_MAX_NAME];
    if (o->exercise && strcmp(o->exercise, "list") == 0) {
        int rc = exercise_list(pick, sizeof pick);
        if (rc >= 0)
            return rc;
        o->exercise = pick;
    }
    if (o->into && !o->exercise)
        return usage_error("--into goes with --exercise NAME");
    if (o->exercise && (o->kernel_file || o->trace || o->kernel))
        return usage_error("--exercise opens its own kernel file: not with %s",
                           o->kernel_file ? "--kernel-file" : o->trace ? "--trace"
                           : "--kernel");
    if ((o->entry || o->time_limit > 0) && !o->kernel_file)
        return usage_error("--entry and --time-limit go with --kernel-file FILE.cu");
    if (o->compare && o->kernel_file)
        return usage_error("--compare %s compares the chapter's kernel with it: not with "
                           "--kernel-file", o->compare);
    if (o->kernel_file && (o->trace || o->kernel))
        return usage_error("--kernel-file shows your kernel: not with %s",
                           o->trace ? "--trace" : "--kernel");
    if (o->trace && o->input.sources)
        return usage_error("give one input: --trace (argument %d) and %s (argument %d) were "
                           "both given", o->trace_arg, o->input.first, o->input.first_arg);
    if (!sv_input_validate(&o->input, err, sizeof err))
        return usage_error("%s", err);
    if (o->trace && (o->op || o->type || o->exclusive))
        return usage_error("--trace \"%s\": the trace file fixes the op, type and scan",
                           o->trace);
    if (o->export_dir && o->export_plot)
        return usage_error("give --export or --export-plot, not both");
    if (o->export_plot && (o->export_gif || o->export_svg))
        return usage_error("--export-plot draws the Measure view alone: not with --export-gif "
                           "or --export-svg");
    return -1;
}

/* Builds the app config from the options: reads and parses the input. */
static int make_config(const options *o, sv_app_config *c, sv_value **vals)
{
    char err[1024];
    memset(c, 0, sizeof *c);
    c->round = (int)o->round;
    c->speed = (float)o->speed;
    c->autoplay = o->autoplay;
    c->code = o->code;
    c->animations = !o->no_animation;
    c->quiz = o->quiz;
    c->fullscreen = o->fullscreen;
    c->seed = o->input.seed;
    c->scan = o->exclusive ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
    c->bench_csv = o->bench_csv;
    c->timeline = o->timeline;
    c->clean = o->clean;
    c->overview = o->overview;
    c->ui_scale = (float)o->scale;
    c->script = o->script;
    c->compare = o->compare != NULL;
    /* The table checked every name (core/options.def): these map them. */
    if (o->op)
        sv_op_from_name(o->op, &c->op);
    if (o->type)
        sv_type_from_name(o->type, &c->type);
    if (!sv_op_valid(c->op, c->type, err, sizeof err))
        return usage_error("--op %s: %s", sv_op_name(c->op), err);
    if (o->backend)
        sv_backend_choice_from_name(o->backend, &c->backend);
    if (o->theme)
        sv_theme_from_name(o->theme, &c->theme);
    /* --kernel blelloch: a kernel beyond the chapter, run by the kernel
     * runtime on the input and drawn by the kernel pane (issue 20). */
    c->builtin_kernel = sv_option_runtime_kernel(o->kernel);
    if (c->builtin_kernel && o->trace)
        return usage_error("--kernel %s runs on an input: not with --trace (a trace file of it "
                           "opens as it is: scanviz-trace --kernel %s --format json -o FILE)", o->kernel,
                           o->kernel);
    if (o->kernel && !c->builtin_kernel)
        sv_kernel_parse(o->kernel, &c->kernel, err, sizeof err);
    if (o->schedule) {
        sv_schedule_parse(o->schedule, &c->schedule, err, sizeof err);
        c->schedule_given = true;
        if (c->backend == SV_CHOOSE_CUDA)
            return usage_error("--schedule names an emulator schedule, and --backend cuda asks "
                               "for the GPU (drop one of them)");
    }
    c->kernel_file = o->kernel_file;
    c->entry = o->entry;
    c->exercise = o->exercise;
    c->into = o->into;
    c->time_limit_ms = (uint32_t)(o->time_limit * 1000 + 0.5);
    c->runs = o->lab.runs;
    c->shake = o->lab.shake;
    c->shake_seed = o->lab.shake_seed;

    if (o->trace) {
        /* A chapter trace, or a kernel trace (version 3) for the kernel pane. */
        if (!sv_trace_file_load_any(o->trace, &c->trace, &c->ktrace, err, sizeof err))
            return usage_error("--trace: %s", err); /* err names the file once */
        c->trace_path = o->trace;
        if (c->ktrace && o->kernel) {
            sv_ktrace_destroy(c->ktrace);
            c->ktrace = NULL;
            return usage_error("--trace \"%s\" is a kernel trace: it shows its own kernel, "
                               "not --kernel %s", o->trace, o->kernel);
        }
        /* The deck's other files are read now too, so that a bad one is
         * refused before the window opens; K reads each again when shown. */
        for (int i = 1; i < o->deck_n; i++) {
            sv_trace *t;
            sv_ktrace *k;
            if (!sv_trace_file_load_any(o->deck[i], &t, &k, err, sizeof err)) {
                sv_trace_destroy(c->trace); /* the first one, read above */
                sv_ktrace_destroy(c->ktrace);
                c->trace = NULL;
                c->ktrace = NULL;
                return usage_error("--trace: %s", err);
            }
            sv_trace_destroy(t);
            sv_ktrace_destroy(k);
        }
        c->deck = o->deck;
        c->deck_n = o->deck_n;
        return -1;
    }
    size_t n = 0;
    switch (sv_input_read(&o->input, c->op, c->type, vals, &n, err, sizeof err)) {
    case SV_INPUT_OK:
        break;
    case SV_INPUT_BAD:
        return usage_error("%s", err); /* err names the source once */
    case SV_INPUT_FAILED:
        return report(EXIT_FAILURE, "%s", err);
    }
    if (o->input.kind == SV_INPUT_RANDOM)
        c->seed = o->input.seed + 1; /* R goes on from the next seed */
    c->input = *vals;
    c->n = n;
    return -1;
}

static int app_status_exit(sv_app_status st, const char *err)
{
    return report(st == SV_APP_BAD_INPUT ? EXIT_USAGE
                  : st == SV_APP_UNAVAILABLE ? EXIT_UNAVAILABLE : EXIT_FAILURE, "%s", err);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and p99 of ms[0..n), sorting it. */
static void percentiles(double *ms, long n, double *med, double *p99)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    *med = ms[n / 2];
    long i = (long)((double)n * 0.99);
    *p99 = ms[i >= n ? n - 1 : i];
}

/* Draws frames as fast as the renderer goes (vsync off): the first half
 * settled (a still round, as a student reading it sees), the second half
 * mid-animation (values moving along the arrows), stepping through rounds.
 * Each frame's time includes glFinish, so it is what the GPU (llvmpipe)
 * really took. */
static int bench_frames(sv_platform *p, sv_gfx *g, sv_app_state *s, long frames, int w, int h)
{
    char err[256];
    sv_gfx_target *target = NULL;
    if (p->headless) {
        target = sv_gfx_target_create(g, w, h, err, sizeof err);
        if (!target) {
            fprintf(stderr, "scanviz: %s\n", err);
            return EXIT_FAILURE;
        }
        sv_gfx_target_bind(target);
        sv_app_resize(s, w, h, w, h);
    } else {
        SDL_GL_SetSwapInterval(0);
        SDL_GL_GetDrawableSize(p->window, &w, &h);
        int ww, wh;
        SDL_GetWindowSize(p->window, &ww, &wh);
        sv_app_resize(s, ww, wh, w, h);
    }
    if (frames < 2)
        frames = 2;
    double *ms = malloc((size_t)frames * sizeof *ms);
    if (!ms) {
        sv_gfx_target_destroy(target);
        return EXIT_FAILURE;
    }
    /* The frames are drawn from a copy of the view, moved through the
     * rounds; the state itself stays where it is. */
    sv_app_view v;
    sv_app_view_of(s, &v);
    int steps = sv_view_steps(v.trace);
    if (steps < 1)
        steps = 1;
    long half = frames / 2, warmup = 3;
    Uint64 freq = SDL_GetPerformanceFrequency();
    sv_gfx_stats stats = {0};
    for (long i = -warmup; i < frames; i++) {
        long k = i < 0 ? 0 : i;
        bool moving = k >= half;
        v.step = (int)((k / 10) % steps);
        v.from_step = moving && v.step > 0 ? v.step - 1 : v.step;
        v.anim = moving ? (float)(k % 10) / 10.0f : 1.0f;
        if (!p->headless) {
            SDL_Event e;
            while (SDL_PollEvent(&e)) /* keep the window responsive */
                ;
        }
        Uint64 t0 = SDL_GetPerformanceCounter();
        sv_render_frame(g, &v, w, h);
        if (!p->headless)
            SDL_GL_SwapWindow(p->window);
        glFinish();
        Uint64 t1 = SDL_GetPerformanceCounter();
        if (i >= 0)
            ms[i] = (double)(t1 - t0) * 1000.0 / (double)freq;
        if (i == frames - 1)
            stats = sv_gfx_get_stats(g);
    }
    double med_s, p99_s, med_m, p99_m, med, p99;
    percentiles(ms, half, &med_s, &p99_s);
    percentiles(ms + half, frames - half, &med_m, &p99_m);
    percentiles(ms, frames, &med, &p99);
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("bench-frames: %ld frames at %dx%d, n = %zu, %s, %s\n", frames, w, h,
           s->trace ? s->trace->n : (size_t)0, p->headless ? "offscreen" : "window",
           renderer ? renderer : "unknown renderer");
    printf("  settled:   median %.2f ms, p99 %.2f ms\n", med_s, p99_s);
    printf("  animating: median %.2f ms, p99 %.2f ms (%d draw calls, %d quads a frame)\n",
           med_m, p99_m, stats.draw_calls, stats.quads);
    printf("  all:       median %.2f ms, p99 %.2f ms (%.0f fps at the median)\n", med, p99,
           med > 0 ? 1000.0 / med : 0.0);
    free(ms);
    sv_gfx_target_destroy(target);
    return 0;
}

static void print_state(const sv_app_state *s)
{
    /* every value twice and the kernel's output, the box, the rest */
    size_t len = sv_app_state_values(s) * 124 + SV_EDIT_MAX + 16384;
    char *line = malloc(len);
    if (!line) {
        fprintf(stderr, "scanviz: state line: out of memory\n");
        return;
    }
    sv_app_state_line(s, line, len);
    printf("%s\n", line);
    fflush(stdout);
    free(line);
}

/* One event; a state line asked for prints at once, so that it shows every
 * event before it and none after. */
static void handle(sv_platform *p, sv_app_state *s, const SDL_Event *e)
{
    sv_platform_event(p, e); /* the window's real size */
    sv_app_event(s, e);
    if (sv_app_take_state_line(s))
        print_state(s);
}

static int run_window(sv_platform *p, sv_gfx *g, sv_app_state *s)
{
    bool fullscreen_applied = s->fullscreen;
    bool dirty = true;
    int drawn_w = 0, drawn_h = 0; /* the size the last frame was laid out for */
    Uint64 freq = SDL_GetPerformanceFrequency();
    Uint64 last = SDL_GetPerformanceCounter();
    while (!s->quit) {
        SDL_Event e;
        /* Wait when nothing moves: no spinning while idle or minimised. */
        if (s->minimised || (!dirty && !sv_app_busy(s))) {
            if (SDL_WaitEventTimeout(&e, s->minimised ? 200 : 250)) {
                handle(p, s, &e);
                dirty = true;
            } else if (sv_app_running(s)) { /* its progress line, 4 times a second */
                dirty = true;
            }
        }
        while (!s->quit && SDL_PollEvent(&e)) {
            handle(p, s, &e);
            dirty = true;
        }
        if (got_usr1) {
            got_usr1 = 0;
            sv_app_request_state_line(s);
        }
        if (sv_app_take_state_line(s))
            print_state(s);
        if (s->fullscreen != fullscreen_applied) {
            if (sv_platform_fullscreen(p, s->fullscreen)) /* without a WM: borderless */
                fullscreen_applied = s->fullscreen;
            else
                sv_app_set_fullscreen(s, fullscreen_applied);
            dirty = true;
        }
        Uint64 now = SDL_GetPerformanceCounter();
        float dt = (float)((double)(now - last) / (double)freq);
        last = now;
        sv_app_update(s, dt);
        if (s->quit)
            break;
        if (s->minimised || (SDL_GetWindowFlags(p->window) & SDL_WINDOW_MINIMIZED)) {
            sv_app_set_minimised(s, true);
            continue;
        }
        if (!dirty && !sv_app_busy(s))
            continue;
        /* High-DPI: the drawable (pixels) may differ from the window (points);
         * both as the window really is (platform.c follows SDL's events). */
        int ww, wh, fw, fh;
        sv_platform_size(p, &ww, &wh, &fw, &fh);
        sv_app_resize(s, ww, wh, fw, fh);
        sv_gfx_target_bind(NULL);
        sv_app_view v;
        sv_app_view_of(s, &v);
        sv_render_frame(g, &v, s->fb_w, s->fb_h);
        if (v.exercise) { /* how far its panel scrolls, as drawn */
            int page = 0, max = sv_render_exercise_scroll_max(g, &v, s->fb_w, s->fb_h, &page);
            sv_app_exercise_scroll_room(s, max, page);
        }
        SDL_GL_SwapWindow(p->window);
        /* A frame at a new size is drawn twice. Under the hood: Mesa takes a
         * window's new size for its back buffer when it next validates the
         * drawable, after a swap, so the first frame after a resize (the
         * very first frame of --fullscreen on a bare X server, where the
         * window grew just before it) was drawn into the old, smaller
         * buffer: laid out for the display and cut to the old size, with
         * black beyond it, until an event drew again (issue 28). */
        dirty = s->fb_w != drawn_w || s->fb_h != drawn_h;
        drawn_w = s->fb_w;
        drawn_h = s->fb_h;
    }
    return 0;
}

/* Where the exported trace came from, for the messages: the source line,
 * or for a kernel trace its file and runtime. */
static const char *export_source(const sv_app_state *s, char *buf, size_t len)
{
    if (!s->ktrace)
        return sv_escape(s->source, buf, len);
    const char *f = s->ktrace->file ? s->ktrace->file : s->ktrace->kernel ? s->ktrace->kernel
                                                                           : "kernel";
    const char *slash = strrchr(f, '/');
    char name[300];
    sv_escape(slash && slash[1] ? slash + 1 : f, name, sizeof name);
    snprintf(buf, len, "your kernel %s, %s runtime", name,
             s->ktrace->backend == SV_BACKEND_CUDA ? "GPU" : "CPU");
    return buf;
}

/* The export of a kernel file that never ran (it does not compile, its
 * signature is wrong, an #include, or no runtime): nothing to draw, so
 * nothing is written, not even the folder, and the exit status says so,
 * as scanviz-trace's does: 2 for the file's fault, 1 otherwise. Returns
 * -1 when there is something to export. */
static int export_refused(const sv_app_state *s, const options *o)
{
    const sv_ktrace *t = s->ktrace;
    if (!t || !s->kerror[0] || t->nsteps > 0)
        return -1;
    sv_kverdict v = sv_ktrace_verdict(t);
    char file[300], words[1200], at[48] = "";
    const char *f = s->kfile[0] ? s->kfile : t->file ? t->file : "the kernel";
    sv_escape(f, file, sizeof file);
    sv_escape(s->kerror, words, sizeof words);
    if (s->kerror_line > 0)
        snprintf(at, sizeof at, " (line %d)", s->kerror_line);
    const char *flag = o->export_dir ? "--export" : o->export_gif ? "--export-gif"
                                                                  : "--export-svg";
    const char *where = o->export_dir ? o->export_dir : o->export_gif ? o->export_gif
                                                                      : o->export_svg;
    return report(v == SV_KVERDICT_REFUSED ? EXIT_USAGE : EXIT_FAILURE,
                  "%s %s: %s: %s%s; nothing written", flag, where, file, words, at);
}

/* --export, --export-gif, --export-svg: the rounds as PNG files (and the
 * overview), the animation, the rounds as SVG; the exit status. */
static int export_files(sv_gfx *g, sv_app_state *s, const options *o, bool no_display)
{
    char err[1024];
    int rc = export_refused(s, o);
    if (rc >= 0)
        return rc;
    rc = 0;
    sv_app_resize(s, o->w, o->h, o->w, o->h);
    sv_app_view v;
    sv_app_view_of(s, &v);
    v.overview = false; /* the rounds; --overview adds overview.png */
    v.caption = NULL;   /* each round its own caption, not a script step's */
    char e1[512], e2[512];
    if (o->export_dir && rc == 0) {
        int count = 0;
        if (sv_export_rounds(g, &v, o->export_dir, o->w, o->h, &count, err, sizeof err)) {
            if (no_display && s->ktrace) /* as scanviz-trace prints it */
                sv_ktrace_print_table(s->ktrace, stdout, isatty(STDOUT_FILENO), NULL);
            else if (no_display)
                sv_trace_print_table(s->trace, stdout, isatty(STDOUT_FILENO), s->source);
            if (count == 1) /* n = 1: one round */
                printf("scanviz: wrote 1 image: %s/round-00.png (%dx%d, %s, n = %zu, %s)\n",
                       sv_escape(o->export_dir, e1, sizeof e1), o->w, o->h, sv_op_name(s->op),
                       s->trace->n, export_source(s, e2, sizeof e2));
            else
                printf("scanviz: wrote %d images (%dx%d) to %s/: round-00.png .. "
                       "round-%02d.png (%s, n = %zu, %s)\n",
                       count, o->w, o->h, sv_escape(o->export_dir, e1, sizeof e1), count - 1,
                       sv_op_name(s->op), s->trace->n, export_source(s, e2, sizeof e2));
        } else {
            rc = report(EXIT_FAILURE, "--export %s: %s", o->export_dir, err);
        }
        if (rc == 0 && o->overview) {
            char path[4200];
            snprintf(path, sizeof path, "%s/overview.png", o->export_dir);
            sv_app_view ov = v;
            ov.overview = true;
            if (sv_export_frame(g, &ov, o->w, o->h, path, err, sizeof err))
                printf("scanviz: wrote the overview (%dx%d) to %s\n", o->w, o->h,
                       sv_escape(path, e1, sizeof e1));
            else
                rc = report(EXIT_FAILURE, "--export %s: %s", o->export_dir, err);
        }
    }
    if (o->export_gif && rc == 0) {
        sv_export_gif_info gi;
        if (sv_export_gif(g, &v, o->export_gif, o->w, o->h, s->speed, &gi, err, sizeof err))
            printf("scanviz: wrote %s: %d frames, %dx%d, %.1f s a loop, %d colours, "
                   "%zu bytes\n", sv_escape(o->export_gif, e1, sizeof e1), gi.frames, o->w,
                   o->h, gi.seconds, gi.colours, gi.bytes);
        else
            rc = report(EXIT_FAILURE, "--export-gif %s: %s", o->export_gif, err);
    }
    if (o->export_svg && rc == 0) {
        int count = 0;
        if (sv_export_svg(g, &v, o->export_svg, o->w, o->h, &count, err, sizeof err))
            if (count == 2) /* n = 1: one round and the overview */
                printf("scanviz: wrote 2 SVG files (%dx%d) to %s/: round-00.svg, "
                       "overview.svg\n", o->w, o->h, sv_escape(o->export_svg, e1, sizeof e1));
            else
                printf("scanviz: wrote %d SVG files (%dx%d) to %s/: round-00.svg .. "
                       "round-%02d.svg, overview.svg\n", count, o->w, o->h,
                       sv_escape(o->export_svg, e1, sizeof e1), count - 2);
        else
            rc = report(EXIT_FAILURE, "--export-svg %s: %s", o->export_svg, err);
    }
    return rc;
}

int main(int argc, char **argv)
{
    options o;
    sv_app_config c;
    sv_value *vals = NULL;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0)
        rc = make_config(&o, &c, &vals); /* reads the input */
    if (rc >= 0) {
        free(vals);
        return rc;
    }

    bool headless = o.export_dir || o.export_plot || o.export_gif || o.export_svg;
    /* No display and nothing headless asked for: do the next best thing the
     * README promises, render the rounds to ./scanviz-rounds and print the
     * trace, and say how to choose the folder. */
    bool no_display = false;
    if (!headless && !o.bench_frames && !sv_platform_have_display()) {
        no_display = true;
        headless = true;
        o.export_dir = NO_DISPLAY_DIR;
        fprintf(stderr, "scanviz: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no "
                        "window: rendering every round to " NO_DISPLAY_DIR "/ instead "
                        "(--export DIR chooses the folder).\n");
    }
    if (o.bench_frames && !sv_platform_have_display())
        headless = true;

    char err[1024];
    sv_app_state s;
    c.background = !headless && !o.bench_frames;
    if (!headless && !o.bench_frames) {
        /* The workers' wake-up event (wake.h) needs SDL's events. */
        if (SDL_Init(SDL_INIT_EVENTS) != 0) {
            fprintf(stderr, "scanviz: SDL: %s\n", SDL_GetError());
            sv_trace_destroy(c.trace);
            sv_ktrace_destroy(c.ktrace);
            free(vals);
            return EXIT_FAILURE;
        }
        sv_wake_register();
    }
    sv_app_status st = sv_app_init(&s, &c, err, sizeof err);
    free(vals);
    if (st != SV_APP_OK)
        return app_status_exit(st, err);

    sv_platform p;
    memset(&p, 0, sizeof p);
    if (!sv_platform_open(&p, "scanviz", o.w, o.h, headless, o.fullscreen && !headless, err,
                          sizeof err)) {
        fprintf(stderr, "scanviz: cannot open %s: %s\n", headless ? "an offscreen context" :
                "a window", err);
        sv_app_cleanup(&s);
        SDL_Quit();
        return EXIT_FAILURE;
    }
    sv_gfx *g = sv_gfx_create(err, sizeof err);
    if (!g) {
        fprintf(stderr, "scanviz: OpenGL: %s\n", err);
        sv_platform_close(&p);
        sv_app_cleanup(&s);
        SDL_Quit();
        return EXIT_FAILURE;
    }
    SDL_StopTextInput(); /* only the input box takes text */

    rc = 0;
    if (o.export_dir || o.export_gif || o.export_svg) {
        rc = export_files(g, &s, &o, no_display);
    } else if (o.export_plot) {
        sv_app_show(&s, SV_VIEW_MEASURE);
        sv_app_resize(&s, o.w, o.h, o.w, o.h);
        sv_app_view v;
        sv_app_view_of(&s, &v);
        if (sv_export_frame(g, &v, o.w, o.h, o.export_plot, err, sizeof err)) {
            char path[512], src[512];
            printf("scanviz: wrote the Measure view (%dx%d) to %s (%s)\n", o.w, o.h,
                   sv_escape(o.export_plot, path, sizeof path),
                   s.timeline && s.timeline_on
                       ? "hs's look-back timeline"
                       : sv_escape(s.bench_source[0] ? s.bench_source : "no measurements", src,
                                   sizeof src));
        } else {
            rc = report(EXIT_FAILURE, "--export-plot: %s", err); /* err names the file */
        }
    } else if (o.bench_frames) {
        rc = bench_frames(&p, g, &s, o.bench_frames, o.w, o.h);
    } else {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_usr1;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGUSR1, &sa, NULL);
        rc = run_window(&p, g, &s);
    }

    sv_gfx_destroy(g);
    sv_platform_close(&p);
    sv_app_cleanup(&s);
    SDL_Quit();
    /* What went to stdout (the printed trace, the report lines, state
     * lines) is output too: a full disk or a closed pipe is a failure. */
    return stdout_status(rc);
}
