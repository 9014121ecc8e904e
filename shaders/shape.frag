#version 330 core
// Signed-distance shading, antialiased over one pixel, output premultiplied
// (blend ONE, ONE_MINUS_SRC_ALPHA). Compiled once per class by src/app/gfx.c,
// because a software rasteriser runs every branch for every pixel:
//   (default)   boxes with a solid border or none, and triangles
//   SV_FLAT     the inside of a large box: its fill (gfx.c's push_flat_box)
//   SV_STRIPES  parallel lines across a box (gfx.c's sv_gfx_stripes)
//   SV_PATTERN  boxes with a dashed or dotted border
//   SV_GLYPH    glyphs: coverage from the R8 atlas
in vec2 v_local;
in vec4 v_fill; // the same at every pixel of a quad (shape.vert says why not flat)
in vec4 v_border;
in vec4 v_shape;
in vec4 v_extra;
in vec4 v_extra2;

uniform sampler2D u_atlas;

out vec4 o_color;

float sd_round_box(vec2 p, vec2 b, float r)
{
    vec2 q = abs(p) - b + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

#if defined(SV_FLAT)

void main()
{
    o_color = v_fill;
}

#elif defined(SV_STRIPES)

void main()
{
    // The distance from the nearest line's centre, antialiased as a line's
    // side is in the default build: clamp(half width + 0.5 - distance).
    float t = dot(v_local, v_extra.xy) - v_extra.w;
    float period = v_extra.z;
    float a = abs(t - period * floor(t / period + 0.5));
    o_color = v_fill * clamp(v_extra2.x + 0.5 - a, 0.0, 1.0);
}

#elif defined(SV_GLYPH)

void main()
{
    // Glyph quads are texel-aligned: the pixel centre falls in texel v_local.
    o_color = v_fill * texture(u_atlas, v_local * (1.0 / 2048.0)).r;
}

#elif defined(SV_PATTERN)

// atan(y / x) for x, y >= 0, within 0.005 rad.
float atan_q1(float y, float x)
{
    float lo = min(x, y), hi = max(max(x, y), 1e-6);
    float z = lo / hi;
    float a = z * (0.7853982 + 0.273 * (1.0 - z));
    return y > x ? 1.5707963 - a : a;
}

void main()
{
    vec2 p = v_local;
    vec2 half_size = v_shape.xy;
    float r = v_shape.z, w = v_shape.w;
    float hw = v_extra2.x, rc = v_extra2.y, half_arc = v_extra2.z;
    float d = sd_round_box(p, half_size, r);
    float outer = clamp(0.5 - d, 0.0, 1.0);
    float inner = clamp(0.5 - (d + w), 0.0, 1.0);

    // Distance along the centre line from the nearest corner midpoint. The
    // pattern is symmetric in x and y, so one quadrant serves for all.
    vec2 q = abs(p);
    vec2 b = half_size - hw;
    vec2 c = b - rc;
    vec2 v = q - c;
    float t = rc * atan_q1(v.y, v.x);           // in a corner: 0 at the side
    bool in_corner = v.x > 0.0 && v.y > 0.0;
    bool horizontal = in_corner ? t > half_arc
                                : v.x <= 0.0 && (v.y > 0.0 || b.y - q.y < b.x - q.x);
    float u = in_corner ? abs(t - half_arc)
                        : half_arc + (horizontal ? -v.x : -v.y);
    float period = horizontal ? v_extra.x : v_extra.z;
    float inv_period = horizontal ? v_extra.y : v_extra.w;
    float along = abs(u - period * floor(u * inv_period + 0.5)); // to the nearest centre

    float across = d + hw; // from the centre line
    float ring;
    // The style and kind are whole numbers, but interpolated (shape.vert says
    // why not flat): on a GPU they may come out an ulp off, so never ==.
    if (abs(v_extra2.w - 2.0) < 0.5) { // dashed: 3/5 of each period, square ends
        ring = (outer - inner) * clamp(0.3 * period - along + 0.5, 0.0, 1.0);
    } else {                 // dotted: round dots of diameter w
        float dot_d = length(vec2(along, across)) - hw;
        ring = min(outer, clamp(0.5 - dot_d, 0.0, 1.0));
    }
    o_color = v_border * ring + v_fill * outer * (1.0 - v_border.a * ring);
}

#else

void main()
{
    vec2 p = v_local;
    vec2 half_size = v_shape.xy;
    float w = v_shape.w;
    float d_box = sd_round_box(p, half_size, v_shape.z);
    // Triangle: the base's half plane and the two mirrored edges.
    float d_tri = max(-half_size.x - p.x,
                      dot(vec2(p.x, abs(p.y)) - vec2(half_size.x, 0.0), v_extra.xy));
    float d = abs(v_extra.z - 1.0) < 0.5 ? d_tri : d_box; // kind 1: a triangle (not ==: see SV_PATTERN)
    float outer = clamp(0.5 - d, 0.0, 1.0);
    float ring = outer - clamp(0.5 - (d + w), 0.0, 1.0); // 0 without a border
    o_color = v_border * ring + v_fill * outer * (1.0 - v_border.a * ring);
}

#endif
