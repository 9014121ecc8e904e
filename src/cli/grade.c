/* scanviz-trace --grade (grade.h): the folder walked, each file checked in
 * a process group of its own, the CSV made in memory and written whole. */
#define _GNU_SOURCE
#include "grade.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/args.h"
#include "../core/buf.h"
#include "../core/error.h"
#include "../core/escape.h"
#include "../core/fileio.h"
#include "../core/ktrace.h"
#include "../capture/exercise_run.h"
#include "../runtime/sandbox.h"

#define MAX_FILES 10000

typedef struct submission {
    char *student; /* the folder's name, "" for a file directly in the folder */
    char *name;    /* the file's name */
    char *shown;   /* the path as the CSV and messages give it: DIR/[STUDENT/]NAME */
} submission;

typedef struct list {
    submission *v;
    size_t n, cap;
} list;

/* What a check's process sends back: fixed size, checked before it is
 * believed. */
#define GRADE_MAGIC 0x53564744u /* "SVGD" */
typedef struct grade_wire {
    uint32_t magic;
    int32_t verdict;  /* sv_exercise_verdict; -1: the check could not run (words say why) */
    uint64_t hazards;
    uint64_t checks;
    double seconds;
    char words[2048];
    uint32_t end;
} grade_wire;

static volatile sig_atomic_t current_group; /* the file being checked, for an interrupt */

static void on_interrupt(int sig)
{
    if (current_group > 0)
        kill(-(pid_t)current_group, SIGKILL);
    static const char msg[] = "\nscanviz-trace: --grade interrupted: no CSV written\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
        /* nothing more to say */
    }
    _exit(sig == SIGINT ? 130 : 128 + sig);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* dir + "/" + a (+ "/" + b): no doubled slash when dir ends with one. */
static char *join(const char *dir, const char *a, const char *b)
{
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    size_t n = dl + strlen(a) + (b ? strlen(b) : 0) + 3;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s/%s%s%s", (int)dl, dir, a, b ? "/" : "", b ? b : "");
    return p;
}

static bool is_cu(const char *name)
{
    size_t l = strlen(name);
    return l > 3 && strcasecmp(name + l - 3, ".cu") == 0;
}

static void skipped(const char *prog, const char *path, const char *why)
{
    char esc[1024];
    sv_report(prog, 0, NULL, "skipped %s: %s", sv_escape(path, esc, sizeof esc), why);
}

static bool add(list *l, const char *student, const char *name, char *shown)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        submission *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return false;
        l->v = nv;
        l->cap = cap;
    }
    submission *s = &l->v[l->n];
    s->student = strdup(student);
    s->name = strdup(name);
    s->shown = shown;
    if (!s->student || !s->name || !shown) {
        free(s->student);
        free(s->name);
        free(shown);
        return false;
    }
    l->n++;
    return true;
}

/* The entries of one folder: its .cu files (student: its name, "" for the
 * top), and (top only) its folders, walked one level. */
static bool walk(const char *prog, const char *top, int dfd, const char *student, list *l)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        if ((names[n] = strdup(e->d_name)))
            n++;
    }
    for (size_t i = 0; i < n; i++) {
        const char *nm = names[i];
        char *shown = student[0] ? join(top, student, nm) : join(top, nm, NULL);
        struct stat st;
        if (!shown || fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            skipped(prog, shown ? shown : nm, "cannot be read");
            free(shown);
        } else if (S_ISLNK(st.st_mode)) {
            skipped(prog, shown, "a symbolic link (never followed: it could point at a file of "
                    "the grader's)");
            free(shown);
        } else if (S_ISDIR(st.st_mode) && !student[0] && nm[0] != '.') {
            int sfd = openat(dirfd(d), nm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            free(shown);
            if (sfd < 0 || !walk(prog, top, sfd, nm, l)) {
                char *p = join(top, nm, NULL);
                skipped(prog, p ? p : nm, "a folder that cannot be read");
                free(p);
            }
        } else if (S_ISDIR(st.st_mode)) {
            skipped(prog, shown, student[0] ? "a folder inside a student's folder (one level of "
                                              "folders is graded)"
                                            : "a hidden folder");
            free(shown);
        } else if (!S_ISREG(st.st_mode)) {
            skipped(prog, shown, "not a regular file");
            free(shown);
        } else if (!is_cu(nm)) {
            skipped(prog, shown, "not a .cu file");
            free(shown);
        } else if (l->n >= MAX_FILES) {
            skipped(prog, shown, "more than 10000 files");
            free(shown);
        } else if (!add(l, student, nm, shown)) {
            break;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return true;
}

static int cmp_sub(const void *a, const void *b)
{
    const submission *x = a, *y = b;
    int c = strcmp(x->student, y->student);
    return c ? c : strcmp(x->name, y->name);
}

/* In the check's own process: reads the file (no link followed on the way)
 * and checks it; the result to fd. */
static void check_child(const sv_exercise_spec *spec, const char *dir, const submission *s,
                        uint32_t limit, int fd)
{
    grade_wire w;
    memset(&w, 0, sizeof w);
    w.magic = GRADE_MAGIC;
    w.end = GRADE_MAGIC;
    w.verdict = -1;
    char err[1024] = "";
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0 && s->student[0]) {
        int sfd = openat(dfd, s->student, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(dfd);
        dfd = sfd;
    }
    int ffd = dfd >= 0 ? openat(dfd, s->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
    if (dfd >= 0)
        close(dfd);
    char *source = NULL;
    if (ffd < 0)
        snprintf(err, sizeof err, "%s: cannot open: %s", s->name, strerror(errno));
    else
        source = sv_read_regular_fd(ffd, s->name, SV_KTRACE_MAX_SOURCE, "a kernel file", true,
                                    NULL, err, sizeof err);
    sv_exercise_result res;
    if (source && sv_exercise_check(spec, s->shown, source, limit, &res, err, sizeof err)) {
        w.verdict = (int32_t)res.verdict;
        w.hazards = res.hazards;
        w.checks = res.checks;
        w.seconds = res.seconds;
        snprintf(w.words, sizeof w.words, "%s", res.verdict == SV_EXERCISE_PASSED ? "" : res.words);
    } else {
        snprintf(w.words, sizeof w.words, "%s", err);
    }
    free(source);
    const char *p = (const char *)&w;
    for (size_t off = 0; off < sizeof w;) {
        ssize_t k = write(fd, p + off, sizeof w - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    _exit(0);
}

/* The deadline of one file's check: the compile's limit, then every run of
 * the spec with its time limit and a second more. */
static double deadline_s(const sv_exercise_spec *spec, uint32_t limit)
{
    double per = (double)(limit ? limit : spec->time_limit_ms) / 1000.0 + 1.5;
    return 35.0 + (double)(spec->ninputs * spec->nschedules) * per;
}

/* Checks one file in its own process group: *w its result, or words
 * saying how the check ended without one. */
static void check_file(const sv_exercise_spec *spec, const char *dir, const submission *s,
                       uint32_t limit, grade_wire *w)
{
    memset(w, 0, sizeof *w);
    w->verdict = -1;
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) {
        snprintf(w->words, sizeof w->words, "the grader could not start the check: %s",
                 strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t me = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(w->words, sizeof w->words, "the grader could not start the check: %s",
                 strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return;
    }
    if (pid == 0) {
        setpgid(0, 0);
        /* ended with the grader, whatever ends it */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != me)
            _exit(1);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        close(fd[0]);
        check_child(spec, dir, s, limit, fd[1]);
    }
    setpgid(pid, pid);
    current_group = pid;
    close(fd[1]);
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    grade_wire got;
    size_t have = 0;
    double end = now_s() + deadline_s(spec, limit);
    int status = 0;
    bool reaped = false, late = false, stopped = false;
    for (;;) {
        struct pollfd p = {fd[0], POLLIN, 0};
        poll(&p, 1, 50);
        for (;;) {
            ssize_t k = have < sizeof got ? read(fd[0], (char *)&got + have, sizeof got - have) : 0;
            if (k > 0) {
                have += (size_t)k;
                continue;
            }
            if (k < 0 && errno == EINTR)
                continue;
            break;
        }
        pid_t r = waitpid(pid, &status, WNOHANG | WUNTRACED);
        if (r == pid && WIFSTOPPED(status)) {
            stopped = true;
            kill(-pid, SIGKILL);
            continue; /* reaped next turn */
        }
        if (r == pid) {
            reaped = true;
            ssize_t k;
            while (have < sizeof got && (k = read(fd[0], (char *)&got + have, sizeof got - have)) > 0)
                have += (size_t)k;
            break;
        }
        if (now_s() > end) { /* checked on every turn, however busy the pipe */
            late = true;
            kill(-pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            reaped = true;
            break;
        }
    }
    kill(-pid, SIGKILL); /* anything of its group left */
    current_group = 0;
    close(fd[0]);
    if (!reaped)
        waitpid(pid, &status, 0);
    bool valid = !late && !stopped && have == sizeof got && got.magic == GRADE_MAGIC &&
                 got.end == GRADE_MAGIC && got.verdict >= -1 &&
                 got.verdict <= (int32_t)SV_EXERCISE_BANKS;
    if (valid) {
        *w = got;
        w->words[sizeof w->words - 1] = '\0';
        return;
    }
    if (late)
        snprintf(w->words, sizeof w->words, "the check ran past the grader's limit of %.0f s for "
                 "one file and was stopped", deadline_s(spec, limit));
    else if (stopped)
        snprintf(w->words, sizeof w->words, "the check was stopped (SIGSTOP) and was ended");
    else if (WIFSIGNALED(status))
        snprintf(w->words, sizeof w->words, "the check ended by signal %d (%s) without a result",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(w->words, sizeof w->words, "the check ended (status %d) without a result",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* A CSV field: quoted, "" for a quote, escaped (no control character, no
 * invalid UTF-8: a name with a newline stays on its line). */
static void csv_field(sv_buf *b, const char *s, bool last)
{
    char esc[8192];
    sv_escape(s, esc, sizeof esc);
    sv_buf_append(b, "\"", 1);
    for (const char *p = esc; *p; p++) {
        if (*p == '"')
            sv_buf_append(b, "\"", 1);
        sv_buf_append(b, p, 1);
    }
    sv_buf_append(b, last ? "\"\n" : "\",", 2);
}

static bool write_csv(const char *out_path, const sv_buf *b, char *err, size_t errlen)
{
    if (out_path && strcmp(out_path, "-") != 0)
        return sv_write_atomic(out_path, b->p, b->n, err, errlen);
    size_t n = fwrite(b->p, 1, b->n, stdout);
    if (n != b->n) {
        sv_errorf(err, errlen, "stdout: %s", strerror(errno));
        return false;
    }
    return sv_stdout_check(err, errlen);
}

int sv_grade_run(const char *prog, const sv_exercise_spec *spec, const char *dir, uint32_t limit,
                 const char *out_path)
{
    char esc[4096], err[1024];
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return sv_report(prog, 2, NULL, "--grade %s: cannot open the folder: %s",
                         sv_escape(dir, esc, sizeof esc), strerror(errno));
    list l = {NULL, 0, 0};
    walk(prog, dir, dfd, "", &l);
    if (l.n == 0) {
        free(l.v);
        return sv_report(prog, 2, NULL, "--grade %s: no .cu file to grade (in the folder or in "
                         "the folders directly inside it)", sv_escape(dir, esc, sizeof esc));
    }
    qsort(l.v, l.n, sizeof *l.v, cmp_sub);
    const char *missing = sv_sandbox_missing();
    if (missing[0])
        sv_report(prog, 0, NULL, "the sandbox is weaker on this machine: %s", missing);
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sv_buf csv = {0};
    sv_buf_append(&csv, SV_GRADE_CSV_HEADER "\n", strlen(SV_GRADE_CSV_HEADER) + 1);
    double t0 = now_s();
    size_t passed = 0;
    for (size_t i = 0; i < l.n; i++) {
        const submission *s = &l.v[i];
        grade_wire w;
        double f0 = now_s();
        check_file(spec, dir, s, limit, &w);
        double took = now_s() - f0;
        bool pass = w.verdict == SV_EXERCISE_PASSED;
        passed += pass;
        char hz[64];
        csv_field(&csv, s->shown, false);
        sv_buf_append(&csv, pass ? "passed," : "failed,", 7);
        csv_field(&csv, pass ? "" : w.words, false);
        snprintf(hz, sizeof hz, "%llu,%.3f,", (unsigned long long)w.hazards,
                 w.verdict >= 0 ? w.seconds : took);
        sv_buf_append(&csv, hz, strlen(hz));
        csv_field(&csv, s->student, false);
        csv_field(&csv, missing, true);
        sv_report(prog, 0, NULL, "graded %s: %s (%.2f s)", sv_escape(s->shown, esc, sizeof esc),
                  pass ? "passed" : "failed", took);
    }
    double all = now_s() - t0;
    sv_report(prog, 0, NULL, "graded %zu file%s in %.1f s (%.2f s a file): %zu passed, %zu "
              "failed", l.n, l.n == 1 ? "" : "s", all, all / (double)l.n, passed, l.n - passed);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    int st = 0;
    if (csv.oom) {
        st = sv_report(prog, 1, NULL, "out of memory making the CSV");
    } else if (!write_csv(out_path, &csv, err, sizeof err)) {
        st = sv_report(prog, 1, NULL, "%s", err);
    }
    sv_buf_free(&csv);
    for (size_t i = 0; i < l.n; i++) {
        free(l.v[i].student);
        free(l.v[i].name);
        free(l.v[i].shown);
    }
    free(l.v);
    return st;
}
