/* The header's source, from the recorded scene (issue 21 item 6): on a
 * machine without an NVIDIA GPU it says so in words, "CPU emulator (no
 * NVIDIA GPU found)", not the CUDA runtime's error (which stays in the
 * state line and scanviz-trace); other sources are shown as before. */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "capture.h"

static sv_gfx_rec *rec;

/* The header's right-aligned source text, or "" when none. */
static const char *header_source(void)
{
    return rec_header_source(rec);
}

static void test_header(void)
{
    rec = sv_gfx_rec_create();
    sv_app_view s;
    sv_trace *t = view_example(&s);
    s.source = "CPU emulator: no CUDA driver (CUDA driver version is "
               "insufficient for CUDA runtime version)";
    static const int widths[3] = {1024, 1280, 1920};
    for (int k = 0; k < 3; k++) {
        view_draw(&s, widths[k], widths[k] * 9 / 16, rec, "header-", NULL);
        CHECK_MSG(strcmp(header_source(), "CPU emulator (no NVIDIA GPU found)") == 0,
                  "%d wide: the header says \"%s\"", widths[k], header_source());
    }
    /* The pointer on it: the tooltip holds the whole line, the CUDA
     * runtime's reason included; off it, no such text is drawn. */
    const char *full = s.source;
    CHECK(!rec_has_text(rec, "insufficient for CUDA runtime version"));
    s.hover_source = true;
    view_draw(&s, 1280, 720, rec, "header-", NULL);
    CHECK_MSG(rec_has_text(rec, full), "hovered: the tooltip shows \"%s\"", full);
    CHECK_MSG(strcmp(header_source(), "CPU emulator (no NVIDIA GPU found)") == 0,
              "hovered: the header itself still says it in words");
    s.hover_source = false;
    s.source = "CPU emulator: built without CUDA";
    view_draw(&s, 1280, 720, rec, "header-", NULL);
    CHECK_MSG(strcmp(header_source(), "CPU emulator: built without CUDA") == 0,
              "built without CUDA: the header says \"%s\"", header_source());
    /* What capture calls no GPU at all (kernels/device.cu's words). */
    CHECK(sv_capture_reason_is_no_gpu("no CUDA driver (CUDA driver version is insufficient "
                                      "for CUDA runtime version)"));
    CHECK(sv_capture_reason_is_no_gpu("no CUDA device"));
    CHECK(!sv_capture_reason_is_no_gpu("built without CUDA"));
    CHECK(!sv_capture_reason_is_no_gpu("GPU capture failed: out of memory"));
    sv_trace_destroy(t);
    sv_gfx_rec_destroy(rec);
}

int main(int argc, char **argv)
{
    static const view_test_fn tests[] = {test_header, NULL};
    return view_test_main(argc, argv, "test_header", tests, "all header checks passed");
}
