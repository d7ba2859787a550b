module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // MACRO-NoC, both planes: the hinge-router reply plane and the wormhole request plane
  {{ reply }} reply (
{%- for p in reply_ports %}
    .{{ p }}({{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
  {{ request }} request (
    .clk_i(clk_i), .rst_i(rst_i),
{%- for p in req_ports %}
    .{{ p }}(req_{{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
endmodule
