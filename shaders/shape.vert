#version 330 core
// Every shape of scanviz is one quad of four vertices from src/app/gfx.c: a
// rounded box (cells, circles, capsule lines), a triangle (arrow heads) or a
// glyph from the atlas. Per-shape constants (the triangle's edge normal, the
// dash and dot periods) are worked out here, once per vertex, so the
// fragment shaders, which run for every pixel, stay short. Built like
// shape.frag: plain, with SV_FLAT, SV_PATTERN, SV_STRIPES or SV_GLYPH defined.
layout(location = 0) in vec2 a_pos;    // framebuffer px, origin top left
layout(location = 1) in vec2 a_local;  // px from the shape's centre, or atlas texels
layout(location = 2) in vec2 a_half;   // half size of the box / triangle, px
layout(location = 3) in vec4 a_param;  // radius, border width, kind, border style
layout(location = 4) in vec4 a_fill;   // straight alpha, 0..1
layout(location = 5) in vec4 a_border;

uniform vec2 u_viewport; // framebuffer size in px

// Not flat, though each is the same at the four vertices (so it comes out
// exact): with a flat input, llvmpipe draws each quad as two triangles,
// shading the blocks along the diagonal twice, instead of as a rectangle.
out vec2 v_local;
out vec4 v_fill;   // premultiplied
out vec4 v_border; // premultiplied
out vec4 v_shape;  // half size, corner radius, border width
out vec4 v_extra;  // triangle: edge normal, kind; patterns: see below
out vec4 v_extra2; // patterns: see below

const float PI = 3.14159265358979;
const float STYLE_DASHED = 2.0;

void main()
{
    vec2 ndc = a_pos / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
    v_local = a_local;
    v_fill = vec4(a_fill.rgb * a_fill.a, a_fill.a);
    v_border = vec4(a_border.rgb * a_border.a, a_border.a);
#if defined(SV_GLYPH)
    v_shape = vec4(0.0);
    v_extra = vec4(0.0);
    v_extra2 = vec4(0.0);
#elif defined(SV_STRIPES)
    // Parallel lines (gfx.c's sv_gfx_stripes): a_local is the framebuffer
    // position; the lines' unit normal and phase in a_param, period and
    // half width in a_half.
    v_shape = vec4(0.0);
    v_extra = vec4(a_param.xy, a_half.x, a_param.z);
    v_extra2 = vec4(a_half.y, 0.0, 0.0, 0.0);
#else
    float r = min(a_param.x, min(a_half.x, a_half.y));
    float w = a_param.y;
    v_shape = vec4(a_half, r, w);
#if !defined(SV_PATTERN)
    // Arrow head: base at x = -half.x, tip at (half.x, 0); the outward
    // normal of the upper edge (the lower one is its mirror image).
    v_extra = vec4(normalize(vec2(a_half.y, 2.0 * a_half.x)), a_param.z, 0.0);
    v_extra2 = vec4(0.0);
#else
    // Dashed and dotted borders follow the border's centre line: a rounded
    // rectangle of half size b and radius rc. It is cut into four segments
    // running from one corner's midpoint to the next (a side plus half of
    // each corner arc); each segment holds a whole number of periods, with a
    // dash or dot centred on each corner, so all four corners look alike.
    float hw = 0.5 * w;
    vec2 b = max(a_half - hw, vec2(0.0));
    float rc = max(r - hw, 0.0);
    vec2 c = b - rc;
    float arc = 0.5 * PI * rc;
    vec2 seg = 2.0 * c + arc; // top/bottom, left/right
    // Dashes 3w with 2w gaps; dots w across with w gaps, but gaps of at
    // least 2 px, so thin dotted borders do not blur into a faint line.
    float nominal = a_param.w == STYLE_DASHED ? 5.0 * w : max(2.0 * w, w + 2.0);
    vec2 count = max(vec2(1.0), floor(seg / max(nominal, 1.0) + 0.5));
    vec2 period = max(seg / count, vec2(1e-3));
    v_extra = vec4(period.x, 1.0 / period.x, period.y, 1.0 / period.y);
    v_extra2 = vec4(hw, rc, 0.5 * arc, a_param.w);
#endif
#endif
}
