/* sv_name_index (names.h): a name's row in the table that defines it. */
#include "names.h"

#include <string.h>

int sv_name_index(const char *key, const void *rows, size_t count, size_t stride,
                  size_t offset)
{
    for (size_t i = 0; key && i < count; i++) {
        const char *name;
        memcpy(&name, (const char *)rows + i * stride + offset, sizeof name);
        if (name && strcmp(key, name) == 0)
            return (int)i;
    }
    return -1;
}
