module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // baseline NoC: {{ planes }} plane(s) of 3-stage VC routers{% if planes == 2 %} (p0 requests, p1 replies){% endif %}
{%- for k in plane_ids %}
  {{ mesh }} plane{{ k }} (
    .clk_i(clk_i), .rst_i(rst_i),
{%- for p in mesh_ports %}
    .{{ p }}(p{{ k }}_{{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
{%- endfor %}
endmodule
