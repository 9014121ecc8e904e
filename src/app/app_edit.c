/* The input box (E): the shown array as text, edited in place (UTF-8
 * aware cursor, selection, paste), checked by the one parser of --input and
 * applied on Return; the presets of Ctrl+1 .. Ctrl+4. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/input.h"
#include "../core/parse.h"
#include "app_internal.h"

void sv_app_edit_open(sv_app_state *s)
{
    if (s->trace && s->trace->n > SV_MAX_N) { /* a kernel file's many blocks: not cut short */
        char msg[200];
        snprintf(msg, sizeof msg, "The input box holds at most %d values; this input has %zu "
                 "(R draws new random values of the same size; --file or --random for another)",
                 SV_MAX_N, s->trace->n);
        sv_app_set_status(s, msg);
        return;
    }
    s->editing = true;
    s->edit_error[0] = '\0';
    if (s->trace)
        sv_app_format_values(s->trace->type, s->trace->input, s->trace->n, ' ', NULL,
                             s->edit_text, sizeof s->edit_text);
    else
        s->edit_text[0] = '\0';
    s->edit_cursor = strlen(s->edit_text);
    s->edit_all = s->edit_text[0] != '\0'; /* typing replaces the shown array */
    s->help = false;
    SDL_StartTextInput();
}

static void edit_close(sv_app_state *s)
{
    s->editing = false;
    s->edit_all = false;
    s->edit_error[0] = '\0';
    SDL_StopTextInput();
}

static void edit_clear(sv_app_state *s)
{
    s->edit_text[0] = '\0';
    s->edit_cursor = 0;
    s->edit_all = false;
}

/* Inserts typed or pasted text at the cursor. The box holds SV_EDIT_MAX - 1
 * bytes, room for the largest valid array (state.h); text that does not fit
 * whole is not inserted at all, and edit_error says so: nothing is cut. */
void sv_app_edit_insert(sv_app_state *s, const char *text)
{
    size_t add = strlen(text);
    size_t len = s->edit_all ? 0 : strlen(s->edit_text);
    if (len + add >= sizeof s->edit_text) {
        snprintf(s->edit_error, sizeof s->edit_error,
                 "%s of %zu bytes not inserted: the box holds %zu bytes (%d values of up to "
                 "%d characters); use --file for more", add > 1 ? "Text" : "Character", add,
                 sizeof s->edit_text - 1, SV_MAX_N, (int)(SV_EDIT_MAX / SV_MAX_N) - 1);
        return;
    }
    if (s->edit_all)
        edit_clear(s);
    if (add == 0)
        return;
    size_t c = s->edit_cursor > len ? len : s->edit_cursor;
    memmove(s->edit_text + c + add, s->edit_text + c, len - c + 1);
    for (size_t i = 0; i < add; i++) {
        char ch = text[i];
        s->edit_text[c + i] = (ch == '\n' || ch == '\r' || ch == '\t') ? ' ' : ch;
    }
    s->edit_cursor = c + add;
}

static size_t utf8_prev(const char *t, size_t i)
{
    if (i == 0)
        return 0;
    i--;
    while (i > 0 && ((unsigned char)t[i] & 0xC0) == 0x80)
        i--;
    return i;
}

static size_t utf8_next(const char *t, size_t i)
{
    size_t len = strlen(t);
    if (i >= len)
        return len;
    i++;
    while (i < len && ((unsigned char)t[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* Parses text and, when valid, captures its trace; on error the message
 * (naming the bad token) goes to edit_error and the shown trace stays. */
static bool apply_text(sv_app_state *s, const char *text)
{
    sv_value *vals = NULL;
    size_t n = 0;
    char err[256];
    /* The one parser of --input, --file and stdin (core/input.h). */
    if (sv_input_parse_text(text, strlen(text), s->type, &vals, &n, err, sizeof err) !=
        SV_INPUT_OK) {
        sv_app_copy_text(s->edit_error, sizeof s->edit_error, err);
        return false;
    }
    bool ok = sv_app_recapture(s, s->op, s->type, s->scan, vals, n, err, sizeof err) == SV_CAPTURE_OK;
    free(vals);
    if (!ok) {
        sv_app_copy_text(s->edit_error, sizeof s->edit_error, err);
        return false;
    }
    s->custom_input = true;
    char msg[64];
    snprintf(msg, sizeof msg, "New input: n = %zu", n);
    sv_app_set_status(s, msg);
    return true;
}

/* Every edit, from the first keystroke, checks the text again, so a bad
 * token is named as soon as it is typed and the message goes away once the
 * text is valid (nothing is applied until Return; the cursor and the box
 * stay as they are). A box with nothing in it yet is not an error until
 * Return. */
void sv_app_edit_revalidate(sv_app_state *s)
{
    if (s->edit_text[strspn(s->edit_text, " ")] == '\0') {
        s->edit_error[0] = '\0';
        return;
    }
    sv_value *vals = NULL;
    size_t n = 0;
    char err[256];
    /* the parser apply_text uses */
    if (sv_input_parse_text(s->edit_text, strlen(s->edit_text), s->type, &vals, &n, err,
                            sizeof err) == SV_INPUT_OK)
        s->edit_error[0] = '\0';
    else
        sv_app_copy_text(s->edit_error, sizeof s->edit_error, err);
    free(vals);
}

/* A fingerprint of the box's text (FNV-1a): an event that leaves it as it
 * was (a refused paste, a cursor move) keeps the message it set. */
uint64_t sv_app_edit_hash(const sv_app_state *s)
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)s->edit_text; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

void sv_app_apply_preset(sv_app_state *s, int which)
{
    char text[SV_EDIT_MAX];
    if (which >= 1 && which <= SV_INPUT_PRESETS) {
        sv_app_copy_text(text, sizeof text, sv_input_presets[which - 1]);
    } else {
        size_t n = 5 + (size_t)(s->seed % 12);
        sv_value *v = sv_random_values(s->op, s->type, n, s->seed++);
        if (!v)
            return;
        sv_app_format_values(s->type, v, n, ' ', NULL, text, sizeof text);
        free(v);
    }
    if (!s->editing)
        sv_app_edit_open(s);
    sv_app_copy_text(s->edit_text, sizeof s->edit_text, text);
    s->edit_cursor = strlen(s->edit_text);
    s->edit_all = false;
    if (apply_text(s, s->edit_text))
        edit_close(s);
}

void sv_app_edit_key(sv_app_state *s, const SDL_Keysym *k)
{
    bool ctrl = (k->mod & KMOD_CTRL) != 0;
    size_t len = strlen(s->edit_text);
    if (s->edit_cursor > len)
        s->edit_cursor = len;
    bool all = s->edit_all;
    switch (k->sym) {
    case SDLK_LEFT: case SDLK_RIGHT: case SDLK_HOME: case SDLK_END:
        s->edit_all = false;
        break;
    case SDLK_BACKSPACE: case SDLK_DELETE:
        if (all) {
            edit_clear(s);
            return;
        }
        break;
    default:
        break;
    }
    switch (k->sym) {
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (apply_text(s, s->edit_text))
            edit_close(s);
        break;
    case SDLK_ESCAPE:
        edit_close(s);
        break;
    case SDLK_LEFT:
        if (all) /* leaving a selection puts the cursor at its start */
            s->edit_cursor = 0;
        else
            s->edit_cursor = utf8_prev(s->edit_text, s->edit_cursor);
        break;
    case SDLK_RIGHT:
        if (all)
            s->edit_cursor = len;
        else
            s->edit_cursor = utf8_next(s->edit_text, s->edit_cursor);
        break;
    case SDLK_HOME:
        s->edit_cursor = 0;
        break;
    case SDLK_END:
        s->edit_cursor = len;
        break;
    case SDLK_BACKSPACE:
        if (s->edit_cursor > 0) {
            size_t p = utf8_prev(s->edit_text, s->edit_cursor);
            memmove(s->edit_text + p, s->edit_text + s->edit_cursor, len - s->edit_cursor + 1);
            s->edit_cursor = p;
        }
        break;
    case SDLK_DELETE:
        if (s->edit_cursor < len) {
            size_t q = utf8_next(s->edit_text, s->edit_cursor);
            memmove(s->edit_text + s->edit_cursor, s->edit_text + q, len - q + 1);
        }
        break;
    case SDLK_v:
        if (ctrl && SDL_HasClipboardText()) {
            char *clip = SDL_GetClipboardText();
            if (clip)
                sv_app_edit_insert(s, clip);
            SDL_free(clip);
        }
        break;
    case SDLK_a:
        if (ctrl) {
            s->edit_all = len > 0;
            s->edit_cursor = len;
        }
        break;
    case SDLK_1: case SDLK_2: case SDLK_3: case SDLK_4:
        if (ctrl)
            sv_app_apply_preset(s, (int)(k->sym - SDLK_0));
        break;
    case SDLK_F12:
        s->want_state_line = true;
        break;
    default:
        break; /* text arrives as SDL_TEXTINPUT */
    }
}
