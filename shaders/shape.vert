#version 330 core
// Every shape of scanviz is one quad of four vertices from src/app/gfx.c: a
// rounded box (cells, circles, capsule lines), a triangle (arrow heads) or a
// glyph from the atlas. The fragment shader tells them apart by a_param.z.
layout(location = 0) in vec2 a_pos;    // framebuffer px, origin top left
layout(location = 1) in vec2 a_local;  // px from the shape's centre, or atlas texels
layout(location = 2) in vec2 a_half;   // half size of the box / triangle, px
layout(location = 3) in vec4 a_param;  // radius, border width, kind, border style
layout(location = 4) in vec4 a_fill;   // straight alpha, 0..1
layout(location = 5) in vec4 a_border;

uniform vec2 u_viewport; // framebuffer size in px

out vec2 v_local;
flat out vec2 v_half;
flat out vec4 v_param;
flat out vec4 v_fill;   // premultiplied
flat out vec4 v_border; // premultiplied

void main()
{
    vec2 ndc = a_pos / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
    v_local = a_local;
    v_half = a_half;
    v_param = a_param;
    v_fill = vec4(a_fill.rgb * a_fill.a, a_fill.a);
    v_border = vec4(a_border.rgb * a_border.a, a_border.a);
}
