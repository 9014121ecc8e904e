/* sv_escape (escape.h): a UTF-8 decoder that passes through what is valid
 * and printable and names everything else. */
#include "escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Decodes one UTF-8 sequence at s[0..len). Returns its length (1..4) and
 * the code point, or 0 when s does not start a valid, shortest-form
 * sequence of a code point <= U+10FFFF that is not a surrogate. */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    size_t need;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        need = 2; v = c & 0x1f; min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 3; v = c & 0x0f; min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 4; v = c & 0x07; min = 0x10000;
    } else {
        return 0;
    }
    if (len < need)
        return 0;
    for (size_t k = 1; k < need; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[k] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return need;
}

char *sv_escape_n(const char *s, size_t len, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return out;
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    if (!s)
        len = 0;
    for (size_t i = 0; i < len;) {
        char buf[8];
        const char *piece = buf;
        size_t plen;
        uint32_t cp = 0;
        size_t k = utf8_decode(p + i, len - i, &cp);
        if (k == 0) {
            piece = "\xef\xbf\xbd"; /* U+FFFD */
            plen = 3;
            k = 1;
        } else if (cp == '\n' || cp == '\r' || cp == '\t' || cp == 0x1b) {
            buf[0] = '\\';
            buf[1] = cp == '\n' ? 'n' : cp == '\r' ? 'r' : cp == '\t' ? 't' : 'e';
            plen = 2;
        } else if (cp < 0x20 || cp == 0x7f) {
            snprintf(buf, sizeof buf, "\\x%02x", (unsigned)cp);
            plen = 4;
        } else if (cp >= 0x80 && cp <= 0x9f) {
            snprintf(buf, sizeof buf, "\\u%04x", (unsigned)cp);
            plen = 6;
        } else {
            piece = (const char *)p + i;
            plen = k;
        }
        if (o + plen >= outlen)
            break; /* cut at a whole character */
        memcpy(out + o, piece, plen);
        o += plen;
        i += k;
    }
    out[o] = '\0';
    return out;
}

char *sv_escape(const char *s, char *out, size_t outlen)
{
    return sv_escape_n(s, s ? strlen(s) : 0, out, outlen);
}

char *sv_escape_clip(const char *s, size_t max, char *out, size_t outlen)
{
    size_t len = s ? strlen(s) : 0;
    if (len <= max)
        return sv_escape_n(s, len, out, outlen);
    size_t cut = max;
    for (int back = 0; back < 3 && cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80; back++)
        cut--; /* a character is 4 bytes at most: stray continuation bytes are cut anywhere */
    sv_escape_n(s, cut, out, outlen > 3 ? outlen - 3 : outlen);
    if (outlen > 3)
        strcat(out, "...");
    return out;
}

int sv_text_is_safe(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = utf8_decode(p + i, len - i, &cp);
        if (k == 0 || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
            return 0;
        i += k;
    }
    return 1;
}

char *sv_utf8_copy(const char *s, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return out;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t len = strlen((const char *)p), o = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = utf8_decode(p + i, len - i, &cp);
        const char *piece = (const char *)p + i;
        size_t plen = k;
        if (k == 0) {
            piece = "\xef\xbf\xbd";
            plen = 3;
            k = 1;
        }
        if (o + plen >= outlen)
            break;
        memcpy(out + o, piece, plen);
        o += plen;
        i += k;
    }
    out[o] = '\0';
    return out;
}
