/* The mistakes lab's registry of kernels: one row per kernel file, looked up
 * by name, and which cells a kernel's threads write (its guard and else). */
#include "lab_registry.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "names.h"

/* ---- Kernels ----------------------------------------------------------- */

static const sv_kernel_info kernels[SV_KERNEL_COUNT] = {
    [SV_KERNEL_CORRECT] = {"correct", "kernels/hillis_steele.cu",
                           "the chapter's kernel", true, true, true, 0, false, false},
    [SV_KERNEL_IN_PLACE] = {"in-place", "kernels/mistakes/in_place.cu",
                            "one buffer: buf[i] = buf[i - stride] op buf[i]", false, true, true,
                            0, false, true},
    [SV_KERNEL_NO_BARRIER] = {"no-barrier", "kernels/mistakes/no_barrier.cu",
                              "double buffer, the barrier in the loop removed", true, false,
                              true, 0, false, true},
    [SV_KERNEL_IN_PLACE_NO_BARRIER] = {"in-place-no-barrier",
                                       "kernels/mistakes/in_place_no_barrier.cu",
                                       "one buffer and no barrier in the loop", false, false,
                                       true, 0, false, true},
    [SV_KERNEL_NO_ELSE] = {"no-else", "kernels/mistakes/no_else.cu",
                           "the else copy removed: pout[i] for i < stride is never written",
                           true, true, false, 0, false, false},
    [SV_KERNEL_OFF_BY_ONE] = {"off-by-one", "kernels/mistakes/off_by_one.cu",
                              "the guard written i > stride", true, true, true, 1, false, false},
    [SV_KERNEL_POUT_ACCUMULATE] = {"pout-accumulate", "kernels/mistakes/pout_accumulate.cu",
                                   "pout[i] = pin[i - stride] op pout[i] (GPU Gems 3, listing 39.1)",
                                   true, true, true, 0, true, false},
};

const sv_kernel_info *sv_kernel_get(sv_kernel k)
{
    return (unsigned)k < SV_KERNEL_COUNT ? &kernels[k] : NULL;
}

const char *sv_kernel_name(sv_kernel k)
{
    return (unsigned)k < SV_KERNEL_COUNT ? kernels[k].name : NULL;
}

bool sv_kernel_from_name(const char *name, sv_kernel *out)
{
    int k = SV_NAME_INDEX(name, kernels, SV_KERNEL_COUNT);
    if (k >= 0 && out)
        *out = (sv_kernel)k;
    return k >= 0;
}

static size_t stride_of(int round)
{
    return round >= 1 ? (size_t)1 << (round - 1) : 0;
}

bool sv_kernel_writes(sv_kernel k, int round, size_t i)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (!info || round < 1)
        return round == 0;
    bool taken = i >= stride_of(round) + (size_t)info->guard_offset;
    return taken || info->has_else;
}

/* Built once from the registry, so that a kernel added there is named in
 * every message, the help overlay and --help's checks alike. */
static char kernel_list[SV_KERNEL_COUNT * 32];
static pthread_once_t kernel_list_once = PTHREAD_ONCE_INIT;

static void kernel_list_build(void)
{
    size_t at = 0;
    for (int k = 0; k < SV_KERNEL_COUNT && at < sizeof kernel_list; k++)
        at += (size_t)snprintf(kernel_list + at, sizeof kernel_list - at, "%s%s",
                               k == 0 ? "" : k + 1 == SV_KERNEL_COUNT ? " or " : ", ",
                               sv_kernel_name((sv_kernel)k));
}

const char *sv_kernel_list(void)
{
    pthread_once(&kernel_list_once, kernel_list_build);
    return kernel_list;
}

bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen)
{
    if (name && strcmp(name, SV_KERNEL_TEACHING) == 0) {
        *out = SV_KERNEL_CORRECT;
        return true;
    }
    if (sv_kernel_from_name(name, out))
        return true;
    char shown[41];
    size_t j = 0;
    for (const char *p = name ? name : ""; *p && j < sizeof shown - 1; p++)
        shown[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    shown[j] = '\0';
    sv_errorf(err, errlen, "unknown kernel \"%s\" (expected %s)", shown, sv_kernel_list());
    return false;
}
