/* The help the window shows: every key and mouse action, and the input
 * box's hint line. Plain text, so that the renderers (render_overlay.c)
 * read it without the app's event code or SDL. The lines come from the one
 * key table (keys.h), the same rows app_keys.c dispatches from. */
#ifndef SV_HELP_H
#define SV_HELP_H

#include <stddef.h>

/* Every key and mouse action as {keys, what} (keys.h's HELP and MOUSE
 * lines, in order), ending with {NULL, NULL}; a
 * what of NULL is made from elsewhere (K: the lab's registry of kernels):
 * read it with sv_help_what(). */
extern const char *const sv_help_keys[][2];

/* The text of row i of sv_help_keys (never NULL for a row before the end).
 * Main thread only, as the renderers. */
const char *sv_help_what(size_t i);

/* The input box's hint line: Return applies, Esc cancels, Ctrl+V pastes,
 * presets Ctrl+1 chapter example, Ctrl+2 all ones (n = 16), Ctrl+3 a
 * non-power-of-two size (n = 13), Ctrl+4 random. */
#define SV_EDIT_HINT "Return apply · Esc cancel · Ctrl+V paste · Ctrl+1 chapter · " \
    "Ctrl+2 all ones · Ctrl+3 n = 13 · Ctrl+4 random"

#endif
