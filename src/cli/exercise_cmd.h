/* scanviz-trace --exercise NAME: --kernel-file FILE.cu checks one file,
 * --grade DIR every .cu file of a folder (one CSV line each), "list" lists
 * the exercises. Prints, and returns the exit status. */
#ifndef SV_EXERCISE_CMD_H
#define SV_EXERCISE_CMD_H

#include <stdint.h>

/* out_path: --grade's CSV (-o FILE, all or nothing); NULL: stdout. */
int sv_exercise_cmd_run(const char *prog, const char *name, const char *kernel_file,
                        const char *grade_dir, uint32_t time_limit_ms, const char *out_path);

#endif
