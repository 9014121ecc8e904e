#version 330 core
// Signed-distance shading for every shape (see shape.vert), antialiased over
// one pixel, output premultiplied (blend ONE, ONE_MINUS_SRC_ALPHA).
// Boxes: a rounded rectangle, filled, with a border of width w inside its
// edge. Dashed and dotted borders are laid out along the arc length of the
// border's centre line (straight sides plus quarter circles at the corners),
// with the period stretched so a whole number of dashes or dots goes round.
in vec2 v_local;
flat in vec2 v_half;
flat in vec4 v_param;
flat in vec4 v_fill;
flat in vec4 v_border;

uniform sampler2D u_atlas; // R8 glyph coverage

out vec4 o_color;

const float PI = 3.14159265358979;
const float KIND_BOX = 0.0, KIND_TRIANGLE = 1.0, KIND_GLYPH = 2.0;
const float STYLE_SOLID = 1.0, STYLE_DASHED = 2.0, STYLE_DOTTED = 3.0;

float sd_round_box(vec2 p, vec2 b, float r)
{
    vec2 q = abs(p) - b + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

// Arc length of the point nearest to p on a rounded rectangle of half size
// b and corner radius r, clockwise (y down) from the left end of the top
// side. Returns (s, perimeter).
vec2 perimeter_param(vec2 p, vec2 b, float r)
{
    vec2 c = b - r;        // centres of the corner circles
    float a = 0.5 * PI * r; // one corner arc
    float top = 2.0 * c.x, side = 2.0 * c.y;
    float per = 2.0 * (top + side) + 4.0 * a;
    vec2 q = abs(p);
    float s;
    if (q.x > c.x && q.y > c.y) { // a corner
        vec2 v = q - c;
        float t = r * atan(v.y, v.x); // 0 at the side, a at top or bottom
        if (p.x > 0.0 && p.y < 0.0)      s = top + a - t;
        else if (p.x > 0.0)              s = top + a + side + t;
        else if (p.y > 0.0)              s = 2.0 * top + 2.0 * a + side + a - t;
        else                             s = 2.0 * top + 3.0 * a + 2.0 * side + t;
    } else {
        // A side: outside the inner rectangle the region decides; inside it,
        // the nearer edge does.
        bool horiz = q.x <= c.x && (q.y > c.y || b.y - q.y < b.x - q.x);
        if (horiz) {
            if (p.y < 0.0) s = p.x + c.x;
            else           s = top + 2.0 * a + side + (c.x - p.x);
        } else {
            if (p.x > 0.0) s = top + a + (p.y + c.y);
            else           s = 2.0 * top + 3.0 * a + side + (c.y - p.y);
        }
    }
    return vec2(s, per);
}

void main()
{
    float kind = v_param.z;
    if (kind == KIND_GLYPH) {
        float cov = texture(u_atlas, v_local / vec2(textureSize(u_atlas, 0))).r;
        o_color = v_fill * cov;
        return;
    }
    vec2 p = v_local;
    float d;
    if (kind == KIND_TRIANGLE) {
        // Base on x = -half.x, tip at (half.x, 0), half base height half.y.
        vec2 tip = vec2(v_half.x, 0.0);
        vec2 e = vec2(2.0 * v_half.x, v_half.y); // tip to base corner, mirrored
        vec2 n = normalize(vec2(e.y, e.x));
        d = max(-v_half.x - p.x, dot(vec2(p.x, abs(p.y)) - tip, n));
        float cov = clamp(0.5 - d, 0.0, 1.0);
        o_color = v_fill * cov;
        return;
    }
    float r = min(v_param.x, min(v_half.x, v_half.y));
    float w = v_param.y;
    float style = v_param.w;
    d = sd_round_box(p, v_half, r);
    float outer = clamp(0.5 - d, 0.0, 1.0);
    if (outer <= 0.0)
        discard;
    vec4 col = v_fill * outer;
    if (style >= STYLE_SOLID && w > 0.0 && d > -w - 1.0) {
        float ring = outer - clamp(0.5 - (d + w), 0.0, 1.0);
        float m = 1.0;
        if (style != STYLE_SOLID) {
            // The border's centre line: inset by w/2, radius shrunk alike.
            float hw = 0.5 * w;
            vec2 sp = perimeter_param(p, v_half - hw, max(r - hw, 0.0));
            float across = d + hw; // signed distance from the centre line
            if (style == STYLE_DASHED) {
                float n = max(1.0, floor(sp.y / (5.0 * w) + 0.5));
                float period = sp.y / n;
                float dash = period * 0.6; // 3w of a nominal 5w period
                // A dash is centred on the start (top-left), so corners match.
                float t = mod(sp.x + 0.5 * dash, period);
                m = clamp(max(min(t, dash - t), t - period) + 0.5, 0.0, 1.0);
            } else {
                float n = max(1.0, floor(sp.y / (2.0 * w) + 0.5));
                float period = sp.y / n;
                float u = (fract(sp.x / period + 0.5) - 0.5) * period;
                float dot_d = length(vec2(u, across)) - hw;
                ring = min(outer, clamp(0.5 - dot_d, 0.0, 1.0));
            }
        }
        float b = ring * m;
        col = v_border * b + col * (1.0 - v_border.a * b);
    }
    o_color = col;
}
