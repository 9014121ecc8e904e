/* Every file the app writes goes through here: all or nothing (a temporary
 * file in the same folder, every write, flush and close checked, fsync,
 * rename). One function, so that it can be swapped for a shared writer. */
#ifndef SV_OUTFILE_H
#define SV_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes len bytes of data to path, replacing it only when every byte is
 * on disk. On failure path is untouched, the temporary file is removed and
 * err says why (naming path). */
bool sv_outfile_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

#endif
