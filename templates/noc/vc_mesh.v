module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // {{ n }}x{{ n }} mesh of {{ router }} ({{ w }}-bit flits, {{ v }} VC(s) x {{ depth }}, {{ routing }}); node id = y*{{ n }} + x.
  // Link header {valid, vc[{{ vw - 1 }}:0], head, tail, src_y, src_x, dst_y, dst_x} ({{ ih }} bits) above the {{ w }}-bit data.
{%- for r in routers %}
{%- for d in dirs %}
  wire ov_{{ r.t }}_{{ d }};
  wire [{{ vw - 1 }}:0] ovc_{{ r.t }}_{{ d }};
  wire [{{ fw - 1 }}:0] of_{{ r.t }}_{{ d }};
  wire [{{ v - 1 }}:0] ic_{{ r.t }}_{{ d }};
{%- endfor %}
{%- endfor %}
{% for r in routers %}
  {{ router }} r_{{ r.t }} (
    .clk_i(clk_i), .rst_i(rst_i), .x_i({{ cw }}'d{{ r.x }}), .y_i({{ cw }}'d{{ r.y }}),
{%- for l in r.ins %}
    .in_{{ l.d }}_v_i({{ l.v }}), .in_{{ l.d }}_vc_i({{ l.vc }}), .in_{{ l.d }}_flit_i({{ l.flit }}), .in_{{ l.d }}_credit_o(ic_{{ r.t }}_{{ l.d }}),
    .out_{{ l.d }}_v_o(ov_{{ r.t }}_{{ l.d }}), .out_{{ l.d }}_vc_o(ovc_{{ r.t }}_{{ l.d }}), .out_{{ l.d }}_flit_o(of_{{ r.t }}_{{ l.d }}), .out_{{ l.d }}_credit_i({{ l.cred }}){% if !l.last %},{% endif %}
{%- endfor %}
  );
  assign ej_hdr_o[{{ r.h_hi }}:{{ r.h_lo }}] = {ov_{{ r.t }}_l, ovc_{{ r.t }}_l, of_{{ r.t }}_l[{{ fw - 1 }}:{{ w }}]};
  assign ej_data_o[{{ r.d_hi }}:{{ r.d_lo }}] = of_{{ r.t }}_l[{{ w - 1 }}:0];
  assign inj_credit_o[{{ r.c_hi }}:{{ r.c_lo }}] = ic_{{ r.t }}_l;
{%- for l in r.links %}
  assign link_hdr_o[{{ l.h_hi }}:{{ l.h_lo }}] = {ov_{{ r.t }}_{{ l.d }}, ovc_{{ r.t }}_{{ l.d }}, of_{{ r.t }}_{{ l.d }}[{{ fw - 1 }}:{{ w }}]};
  assign link_data_o[{{ l.d_hi }}:{{ l.d_lo }}] = of_{{ r.t }}_{{ l.d }}[{{ w - 1 }}:0];
  assign credit_o[{{ l.c_hi }}:{{ l.c_lo }}] = ic_{{ r.t }}_{{ l.d }};
{%- endfor %}
{% endfor %}
endmodule
