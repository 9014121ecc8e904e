/* The capture decision and the probe's reason, on whatever machine runs it:
 * the probe is the kernel runtime's (no nvcc needed); without a GPU, the
 * reason is one of the documented forms, --backend cuda is
 * refused with it and auto falls back to the emulator saying so; with one,
 * the device is sane and auto picks it. Runs (does not skip) everywhere. */
#include <stdio.h>
#include <string.h>

#include "sv_config.h"
#include "capture.h"
#include "trace.h"
#include "../../src/runtime/runtime.h"
#if SV_HAVE_CUDA
#include "../../kernels/scan_cuda.h"
#endif

#include "../expect.h"

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static sv_capture_status cap(sv_op op, sv_type type, const sv_value *in, size_t n,
                             sv_backend_choice choice, bool fallback, sv_trace **t,
                             sv_capture_source *src, char *err, size_t errlen)
{
    const sv_capture_request req = {
        .op = op, .type = type, .scan = SV_SCAN_INCLUSIVE, .input = in, .n = n,
        .choice = choice, .fallback = fallback,
    };
    return sv_capture(&req, t, src, err, errlen);
}

int main(void)
{
    char device[256] = "", why[256] = "", why2[256] = "", note[600], err[512];
    sv_capture_source src;
    size_t max_n = 0;
    sv_value in[8];
    static const int32_t ex[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    for (int i = 0; i < 8; i++)
        in[i].i = ex[i];

    bool gpu = sv_capture_cuda_available(device, sizeof device, &max_n, why, sizeof why);
    /* Cached: a second call says the same. */
    bool again = sv_capture_cuda_available(NULL, 0, NULL, why2, sizeof why2);
    CHECK_MSG(gpu == again && strcmp(why, why2) == 0, "second probe: %d \"%s\" vs \"%s\"", again,
          why2, why);

    sv_trace *t = NULL;
    sv_capture_status st;
    if (!gpu) {
        printf("no GPU: %s\n", why);
        CHECK_MSG(why[0] != '\0' && strchr(why, '\n') == NULL, "reason \"%s\"", why);
        /* the runtime's probe, whether or not nvcc built anything */
        bool sane = (starts_with(why, "no CUDA driver (") && why[strlen(why) - 1] == ')') ||
                    strcmp(why, "no CUDA device") == 0 || starts_with(why, "no NVIDIA GPU (") ||
                    starts_with(why, "no NVRTC (") || strlen(why) > 8;
        CHECK_MSG(sane, "reason \"%s\" is none of the documented forms", why);
        CHECK_MSG(strcmp(why, "built without CUDA") != 0, "the probe needs no nvcc: \"%s\"", why);
        sv_runtime_gpu_device d;
        CHECK_MSG(!sv_runtime_gpu_probe(&d, why2, sizeof why2) && strcmp(why, why2) == 0,
              "sv_runtime_gpu_probe says \"%s\", capture \"%s\"", why2, why);
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 8, SV_CHOOSE_CUDA, false, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_UNAVAILABLE && t == NULL && strstr(err, why),
              "cuda without GPU: status %d, err \"%s\"", (int)st, err);
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 8, SV_CHOOSE_AUTO, false, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_OK && t && t->backend == SV_BACKEND_CPU, "auto: %d %s", (int)st,
              err);
        sv_capture_source_line(&src, note, sizeof note);
        CHECK_MSG(starts_with(note, "CPU emulator: ") && strstr(note, why), "note \"%s\"", note);
        CHECK_MSG(src.backend == SV_BACKEND_CPU && src.fallback == SV_FALLBACK_NO_GPU &&
              strcmp(src.reason, why) == 0 && strcmp(src.label, "CPU emulator") == 0 &&
              src.device[0] == '\0', "auto source: %d \"%s\" \"%s\"", (int)src.fallback,
              src.reason, src.label);
        CHECK_MSG(t && t->output[7].i == 25, "auto output");
        sv_trace_destroy(t);
        /* The window's policy: --backend cuda falls back too, saying why. */
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 8, SV_CHOOSE_CUDA, true, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_OK && t && t->backend == SV_BACKEND_CPU &&
              src.fallback == SV_FALLBACK_NO_GPU && strcmp(src.reason, why) == 0,
              "cuda with fallback: %d %s", (int)st, err);
        CHECK_MSG(t && t->output[7].i == 25, "fallback output");
        sv_trace_destroy(t);
    } else {
        printf("GPU: %s, n up to %zu\n", device, max_n);
        CHECK_MSG(device[0] != '\0' && why[0] == '\0', "device \"%s\", why \"%s\"", device, why);
        CHECK_MSG(max_n >= 1 && max_n <= SV_MAX_N, "max_n %zu", max_n);
        sv_runtime_gpu_device d;
        CHECK_MSG(sv_runtime_gpu_probe(&d, why2, sizeof why2), "probe: %s", why2);
        CHECK_MSG(strcmp(d.name, device) == 0, "probe name \"%s\"", d.name);
        CHECK_MSG(d.max_threads_per_block >= max_n && d.cc_major >= 3 && d.sm_count > 0,
              "threads %zu, cc %d.%d, SMs %d", d.max_threads_per_block, d.cc_major, d.cc_minor,
              d.sm_count);
        printf("probe: %s, cc %d.%d, %d SMs, %zu threads per block\n", d.name, d.cc_major,
               d.cc_minor, d.sm_count, d.max_threads_per_block);
#if SV_HAVE_CUDA
        sv_cuda_device cd; /* scanviz-bench's probe (nvcc's) agrees */
        CHECK_MSG(sv_cuda_probe(&cd, why2, sizeof why2) && strcmp(cd.name, d.name) == 0 &&
                  cd.max_threads_per_block == (int)d.max_threads_per_block &&
                  cd.sm_count == d.sm_count, "sv_cuda_probe: %s %s", why2, cd.name);
#endif
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 8, SV_CHOOSE_AUTO, false, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_OK && t && t->backend == SV_BACKEND_CUDA, "auto: %d %s",
              (int)st, err);
        CHECK_MSG(src.backend == SV_BACKEND_CUDA && src.fallback == SV_FALLBACK_NONE &&
              src.reason[0] == '\0' && strcmp(src.device, device) == 0 &&
              starts_with(src.label, "CUDA · ") && strstr(src.label, device),
              "source with a GPU: \"%s\" \"%s\"", src.label, src.reason);
        sv_capture_source_line(&src, note, sizeof note);
        CHECK_MSG(strcmp(note, src.label) == 0, "line \"%s\" with a GPU", note);
        CHECK_MSG(t && t->device && strcmp(t->device, device) == 0, "trace device");
        CHECK_MSG(t && t->output[7].i == 25, "auto output");
        sv_trace_destroy(t);
    }

    /* Refusals, the same with every choice. */
    for (int c = 0; c < 3; c++) {
        t = NULL;
        st = cap(SV_OP_XOR, SV_TYPE_FLOAT32, in, 8, (sv_backend_choice)c, true, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_BAD_INPUT && !t && strstr(err, "xor"), "xor float32: %d \"%s\"",
              (int)st, err);
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, SV_MAX_N + 1, (sv_backend_choice)c, true, &t,
                 &src, err, sizeof err);
        CHECK_MSG(st == SV_CAPTURE_BAD_INPUT && !t && strstr(err, "1025"), "n = 1025: %d \"%s\"",
              (int)st, err);
        st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 0, (sv_backend_choice)c, true, &t, &src, err,
                 sizeof err);
        CHECK_MSG(st == SV_CAPTURE_BAD_INPUT && !t, "n = 0: %d \"%s\"", (int)st, err);
        const sv_capture_request bad_kernel = {
            .op = SV_OP_SUM, .type = SV_TYPE_INT32, .input = in, .n = 8,
            .choice = (sv_backend_choice)c, .kernel = SV_KERNEL_LIMIT, .fallback = true,
        };
        st = sv_capture(&bad_kernel, &t, &src, err, sizeof err);
        CHECK_MSG(st == SV_CAPTURE_BAD_INPUT && !t && strstr(err, "not a shipped kernel"),
              "unknown kernel: %d \"%s\"", (int)st, err);
    }

    /* --backend cpu: the emulator, and the source says it was asked for. */
    st = cap(SV_OP_SUM, SV_TYPE_INT32, in, 8, SV_CHOOSE_CPU, false, &t, &src, err, sizeof err);
    CHECK_MSG(st == SV_CAPTURE_OK && t && t->backend == SV_BACKEND_CPU &&
          src.fallback == SV_FALLBACK_NONE && strcmp(src.reason, "--backend cpu") == 0,
          "cpu: %d \"%s\"", (int)st, src.reason);
    sv_capture_source_line(&src, note, sizeof note);
    CHECK_MSG(strcmp(note, "CPU emulator: --backend cpu") == 0, "cpu line \"%s\"", note);
    if (t) {
        sv_capture_source of;
        sv_capture_source_of_trace(t, &of);
        CHECK_MSG(of.backend == SV_BACKEND_CPU && strcmp(of.label, "CPU emulator") == 0 &&
              of.reason[0] == '\0', "source of a trace: \"%s\"", of.label);
        sv_trace_destroy(t);
    }

    sv_backend_choice ch;
    CHECK_MSG(sv_backend_choice_from_name("auto", &ch) && ch == SV_CHOOSE_AUTO, "auto");
    CHECK_MSG(sv_backend_choice_from_name("cuda", &ch) && ch == SV_CHOOSE_CUDA, "cuda");
    CHECK_MSG(sv_backend_choice_from_name("cpu", &ch) && ch == SV_CHOOSE_CPU, "cpu");
    CHECK_MSG(!sv_backend_choice_from_name("gpu", &ch) && !sv_backend_choice_from_name(NULL, &ch),
          "bad names");

    return check_status();
}
