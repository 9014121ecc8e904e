/* The help the window shows: every key and mouse action, and the input
 * box's hint line. Plain text, so that the renderers (render_overlay.c)
 * read it without the app's event code or SDL; app.c binds the keys it
 * lists, and the two are kept in step by hand (tests/window checks keys). */
#ifndef SV_HELP_H
#define SV_HELP_H

/* Every key and mouse action as {keys, what}, ending with {NULL, NULL}. */
extern const char *const sv_help_keys[][2];

/* The input box's hint line: Return applies, Esc cancels, Ctrl+V pastes,
 * presets Ctrl+1 chapter example, Ctrl+2 all ones (n = 16), Ctrl+3 a
 * non-power-of-two size (n = 13), Ctrl+4 random. */
#define SV_EDIT_HINT "Return apply · Esc cancel · Ctrl+V paste · Ctrl+1 chapter · " \
    "Ctrl+2 all ones · Ctrl+3 n = 13 · Ctrl+4 random"

#endif
