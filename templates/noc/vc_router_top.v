module {{ name }} (
  input  wire              clk_i,
  input  wire              rst_i,
{%- for d in dirs %}
  input  wire              in_{{ d.name }}_v_i,
  input  wire [{{ vw - 1 }}:0]        in_{{ d.name }}_vc_i,
  input  wire [{{ fw - 1 }}:0]      in_{{ d.name }}_flit_i,
  output wire [{{ v - 1 }}:0]        in_{{ d.name }}_credit_o,
  output wire              out_{{ d.name }}_v_o,
  output wire [{{ vw - 1 }}:0]        out_{{ d.name }}_vc_o,
  output wire [{{ fw - 1 }}:0]      out_{{ d.name }}_flit_o,
  input  wire [{{ v - 1 }}:0]        out_{{ d.name }}_credit_i{% if !d.last %},{% endif %}
{%- endfor %}
);
  // the router at ({{ x }},{{ y }}) of the {{ n }}x{{ n }} mesh, position tied
  {{ router }} router (
    .clk_i(clk_i), .rst_i(rst_i), .x_i({{ cw }}'d{{ x }}), .y_i({{ cw }}'d{{ y }}),
{%- for d in dirs %}
    .in_{{ d.name }}_v_i(in_{{ d.name }}_v_i), .in_{{ d.name }}_vc_i(in_{{ d.name }}_vc_i), .in_{{ d.name }}_flit_i(in_{{ d.name }}_flit_i), .in_{{ d.name }}_credit_o(in_{{ d.name }}_credit_o),
    .out_{{ d.name }}_v_o(out_{{ d.name }}_v_o), .out_{{ d.name }}_vc_o(out_{{ d.name }}_vc_o), .out_{{ d.name }}_flit_o(out_{{ d.name }}_flit_o), .out_{{ d.name }}_credit_i(out_{{ d.name }}_credit_i){% if !d.last %},{% endif %}
{%- endfor %}
  );
endmodule
