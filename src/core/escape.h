/* Text from files and from the input box, made safe to show: on a terminal
 * and in the window. The one escaping function every printer uses. */
#ifndef SV_ESCAPE_H
#define SV_ESCAPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies s into out[0..outlen) (always NUL-terminated, cut at a whole
 * character) with:
 *   - control characters (U+0000..U+001F, U+007F, and the C1 controls
 *     U+0080..U+009F, which some terminals obey) as escapes: \n, \r, \t,
 *     \e for ESC, \xNN for the other C0 bytes and DEL, \u0085 for C1;
 *   - bytes that are not valid UTF-8 (stray continuation bytes, overlong
 *     forms, surrogates, above U+10FFFF, cut sequences) as U+FFFD;
 *   - everything else (printable ASCII, valid UTF-8) unchanged.
 * So the result is valid UTF-8 without a control character: it cannot move
 * the cursor, clear the screen, set a title or fake a line. Returns out.
 * len: the bytes of s to read (s may hold NUL bytes); use sv_escape() for a
 * NUL-terminated string. */
char *sv_escape_n(const char *s, size_t len, char *out, size_t outlen);
char *sv_escape(const char *s, char *out, size_t outlen);

/* sv_escape of at most the first max bytes of s (cut before a character's
 * continuation bytes), with "..." after it when s was longer: a token
 * quoted in a message, so that a huge one cannot push the words after it
 * (its position) out of the message's buffer. */
char *sv_escape_clip(const char *s, size_t max, char *out, size_t outlen);
/* What a message quotes of a token: SV_SHOWN_MAX bytes, escaped (4 bytes
 * at most for each) into a buffer of SV_SHOWN_TOKEN. */
#define SV_SHOWN_MAX 96
#define SV_SHOWN_TOKEN (4 * SV_SHOWN_MAX + 4)

/* Whether s is already what sv_escape would give (valid UTF-8, no control
 * characters). */
int sv_text_is_safe(const char *s);

/* Copies s into out[0..outlen) as valid UTF-8: bytes that are not (as
 * above) become U+FFFD, control characters are kept, and a string too long
 * is cut at a whole character (never inside one), always NUL-terminated.
 * For text stored and written again (a file's field cut to its buffer), not
 * for printing: use sv_escape for that. Returns out. */
char *sv_utf8_copy(const char *s, char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
