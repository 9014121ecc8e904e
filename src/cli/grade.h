/* scanviz-trace --exercise NAME --grade DIR: a class's kernel files
 * checked against an exercise, one CSV line each (issue 27, layer 7; issue
 * 28's grader). Every file is someone else's code. */
#ifndef SV_GRADE_H
#define SV_GRADE_H

#include <stdint.h>

#include "../core/exercise.h"

/* The CSV's columns, in order (the first five are the original interface;
 * student and sandbox were added after them). */
#define SV_GRADE_CSV_HEADER "file,result,first_failure,hazards,seconds,student,sandbox"

/* Grades the kernel files of dir against spec:
 *   - the .cu files (the extension in any case: .CU too) in dir, and in each
 *     folder directly inside it (an LMS's export: one folder a student, whose
 *     name is the student column); deeper folders, symbolic links and other
 *     files are skipped and said on stderr;
 *   - each file in its own process group, killed with it at its deadline
 *     (checked on every turn); a check that dies, stops, or is killed is one
 *     CSV line saying so, never the grading's end;
 *   - the CSV is made whole in memory and written at the end, all or
 *     nothing: to out_path (replaced by rename) or, NULL, to stdout;
 *   - stderr says what was skipped, each file's time and the whole's, and
 *     which wall of the sandbox this machine lacks, if any.
 * Returns the exit status: 0, 2 when no file was graded (or dir cannot be
 * read), 1 when the CSV could not be written, 130 when interrupted. */
int sv_grade_run(const char *prog, const sv_exercise_spec *spec, const char *dir, uint32_t limit,
                 const char *out_path);

#endif
