module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // the router at ({{ x }},{{ y }}) of the {{ n }}x{{ n }} mesh, position tied
  {{ router }} router (
    .x_i({{ cw }}'d{{ x }}), .y_i({{ cw }}'d{{ y }}),
{%- for p in pass %}
    .{{ p }}({{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
endmodule
