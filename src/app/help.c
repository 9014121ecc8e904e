/* The help table (help.h): the help lines of the one key table (keys.h),
 * in its order, so the overlay lists what sv_app_key dispatches. */
#include <stddef.h>
#include <stdio.h>

#include "help.h"
#include "keys.h"
#include "../core/lab.h"

#define SV_HELP_LINE(keys, what) {keys, what},
#define SV_HELP_NO_BIND(sym, last, mods, when, flags, action)
const char *const sv_help_keys[][2] = {
    SV_KEYS_TABLE(SV_HELP_LINE, SV_HELP_NO_BIND, SV_HELP_LINE)
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
