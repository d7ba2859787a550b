module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // {{ n }}x{{ n }} hinge-router mesh, node id = y*{{ n }} + x; MCs {{ mcs }}; GOM at {{ gom }}.
  // Link format {{ "{" }}{{ link_fields }}} = {{ lw }} bits.
{%- for r in routers %}
  wire [{{ lw - 1 }}:0] e_{{ r.t }}, w_{{ r.t }}, n_{{ r.t }}, s_{{ r.t }}, lo_{{ r.t }}, li_{{ r.t }};
  wire lv_{{ r.t }}, gr_{{ r.t }}, stt_{{ r.t }};
  wire [{{ ovl_bits - 1 }}:0] ra_{{ r.t }}, rb_{{ r.t }};
  wire [{{ row_bits - 1 }}:0] rowa_{{ r.t }}, rowb_{{ r.t }};
  wire [15:0] ec_{{ r.t }};
{%- endfor %}
  assign dbg_ecyc_o = ec_x0y0;
{% for r in routers %}
  // ---- router ({{ r.x }},{{ r.y }}){% if r.mc.is_some() %}: MC {{ r.mc_idx }}{% endif %}{% if r.gom %}: GOM{% endif %}
  {{ r.rom }} #(.ROWS({{ r.rom_rows }})) rom_{{ r.t }} (.addr_a_i(ra_{{ r.t }}), .addr_b_i(rb_{{ r.t }}), .row_a_o(rowa_{{ r.t }}), .row_b_o(rowb_{{ r.t }}));
  {{ router }} r_{{ r.t }} (
    .clk_i(clk_i), .rst_i(rst_i),
    .byp_in_e_i({{ r.bin_e }}), .byp_in_w_i({{ r.bin_w }}), .byp_in_n_i({{ r.bin_n }}), .byp_in_s_i({{ r.bin_s }}),
    .byp_out_e_o(e_{{ r.t }}), .byp_out_w_o(w_{{ r.t }}), .byp_out_n_o(n_{{ r.t }}), .byp_out_s_o(s_{{ r.t }}),
    .loc_in_v_i(lv_{{ r.t }}), .loc_in_link_i(li_{{ r.t }}), .loc_in_grant_o(gr_{{ r.t }}), .loc_in_status_o(stt_{{ r.t }}),
    .loc_out_o(lo_{{ r.t }}),
    .rom_addr_a_o(ra_{{ r.t }}), .rom_addr_b_o(rb_{{ r.t }}), .rom_row_a_i(rowa_{{ r.t }}), .rom_row_b_i(rowb_{{ r.t }}),
    .x_i({{ cw }}'d{{ r.x }}), .y_i({{ cw }}'d{{ r.y }}), .mc_i(1'b{{ r.is_mc }}), .mc_idx_i({{ ovl_bits }}'d{{ r.mc_idx }}), .ph_i(1'b{{ r.ph }}), .gom_i(1'b{{ r.is_gom }}),
    .dbg_sched_o(dbg_sched_o[{{ r.sch_hi }}:{{ r.sch_lo }}]), .dbg_ecyc_o(ec_{{ r.t }}),
    .dbg_inj_o({dbg_inj_hdr_o[{{ r.h_hi }}:{{ r.h_lo }}], dbg_inj_data_o[{{ r.d_hi }}:{{ r.d_lo }}]}),
    .dbg_latch_state_o(dbg_latch_state_o[{{ r.ls_hi }}:{{ r.ls_lo }}]), .dbg_drop_o(dbg_drop_o[{{ r.dr_hi }}:{{ r.dr_lo }}]),
    .dbg_overrun_o(dbg_overrun_o[{{ r.id }}]), .dbg_collision_o(dbg_collision_o[{{ r.id }}])
  );
  assign dbg_grant_o[{{ r.id }}] = gr_{{ r.t }};
{%- for l in r.links %}
  assign dbg_link_hdr_o[{{ l.h_hi }}:{{ l.h_lo }}] = {{ l.wire }}[{{ hdr }}];
  assign dbg_link_data_o[{{ l.d_hi }}:{{ l.d_lo }}] = {{ l.wire }}[{{ pay }}];
{%- endfor %}
{%- if r.gom %}
  // STATUS flits at the GOM node go to the GOM, not to the core
  assign {eject_hdr_o[{{ r.h_hi }}:{{ r.h_lo }}], eject_data_o[{{ r.d_hi }}:{{ r.d_lo }}]} = (lo_{{ r.t }}[{{ ty }}] == 2'd{{ t_status }}) ? {{ lw }}'d0 : lo_{{ r.t }};
  {{ gom_mod }} gom (
    .clk_i(clk_i), .rst_i(rst_i), .ecyc_i(ec_{{ r.t }}), .status_i(lo_{{ r.t }}),
    .inj_v_o(lv_{{ r.t }}), .inj_link_o(li_{{ r.t }})
  );
{%- else %}
  assign {eject_hdr_o[{{ r.h_hi }}:{{ r.h_lo }}], eject_data_o[{{ r.d_hi }}:{{ r.d_lo }}]} = lo_{{ r.t }};
{%- endif %}
{%- match r.mc %}
{%- when Some with (m) %}
  {{ ni }} ni_mc{{ m.i }} (
    .clk_i(clk_i), .rst_i(rst_i), .mc_idx_i({{ ovl_bits }}'d{{ m.i }}),
    .push_v_i({{ m.v }}), .push_link_i({mc_reply_hdr_i[{{ m.h_hi }}:{{ m.h_lo }}], mc_reply_data_i[{{ m.d_hi }}:{{ m.d_lo }}]}),
    .ready_o({{ m.ready }}), .grant_i(gr_{{ r.t }}), .status_i(stt_{{ r.t }}),
    .loc_in_v_o(lv_{{ r.t }}), .loc_in_link_o(li_{{ r.t }})
  );
{%- when None %}
{%- if !r.gom %}
  assign lv_{{ r.t }} = 1'b0;
  assign li_{{ r.t }} = {{ lw }}'d0;
{%- endif %}
{%- endmatch %}
{% endfor %}
  // outputs nobody reads: STATUS slots of non-MC routers, the epoch counters of
  // all but two routers, and the bypass outputs that leave the mesh
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0{% for u in unused %}, {{ u }}{% endfor %}};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
