module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // router ({{ r.x }},{{ r.y }}){% if r.is_mc == 1 %}, MC {{ r.mc_idx }} (phase {{ r.ph }}){% endif %}{% if r.gom %}, GOM node{% endif %}, with its route lookup ROM
  wire [{{ ovl_bits - 1 }}:0] ra, rb;
  wire [{{ row_bits - 1 }}:0] rowa, rowb;
  {{ r.rom }} #(.ROWS({{ r.rom_rows }})) rom (.addr_a_i(ra), .addr_b_i(rb), .row_a_o(rowa), .row_b_o(rowb));
  {{ router }} router (
{%- for p in pass %}
    .{{ p }}({{ p }}),
{%- endfor %}
    .rom_addr_a_o(ra), .rom_addr_b_o(rb), .rom_row_a_i(rowa), .rom_row_b_i(rowb),
    .x_i({{ cw }}'d{{ r.x }}), .y_i({{ cw }}'d{{ r.y }}), .mc_i(1'b{{ r.is_mc }}), .mc_idx_i({{ ovl_bits }}'d{{ r.mc_idx }}), .ph_i(1'b{{ r.ph }}), .gom_i(1'b{{ r.is_gom }})
  );
endmodule
