module {{ name }} (
  input  wire              clk_i,
  input  wire              rst_i,
  input  wire [{{ lw - 1 }}:0]      byp_in_e_i,
  input  wire [{{ lw - 1 }}:0]      byp_in_w_i,
  input  wire [{{ lw - 1 }}:0]      byp_in_n_i,
  input  wire [{{ lw - 1 }}:0]      byp_in_s_i,
  output wire [{{ lw - 1 }}:0]      byp_out_e_o,
  output wire [{{ lw - 1 }}:0]      byp_out_w_o,
  output wire [{{ lw - 1 }}:0]      byp_out_n_o,
  output wire [{{ lw - 1 }}:0]      byp_out_s_o,
  input  wire              loc_in_v_i,
  input  wire [{{ lw - 1 }}:0]      loc_in_link_i,
  output wire              loc_in_grant_o,
  output wire              loc_in_status_o,
  output wire [{{ lw - 1 }}:0]      loc_out_o,
  output wire [{{ schw - 1 }}:0]        dbg_sched_o,
  output wire [15:0]       dbg_ecyc_o,
  output wire [{{ lw - 1 }}:0]      dbg_inj_o,
  output wire [9:0]        dbg_latch_state_o,
  output wire [4:0]        dbg_drop_o,
  output wire              dbg_overrun_o,
  output wire              dbg_collision_o
);
  // router ({{ r.x }},{{ r.y }}){% if r.is_mc == 1 %}, MC {{ r.mc_idx }} (phase {{ r.ph }}){% endif %}{% if r.gom %}, GOM node{% endif %}, with its route lookup ROM
  wire [3:0] ra, rb;
  wire [29:0] rowa, rowb;
  {{ rom }} rom (.addr_a_i(ra), .addr_b_i(rb), .row_a_o(rowa), .row_b_o(rowb));
  {{ router }} router (
    .clk_i(clk_i), .rst_i(rst_i),
    .byp_in_e_i(byp_in_e_i), .byp_in_w_i(byp_in_w_i), .byp_in_n_i(byp_in_n_i), .byp_in_s_i(byp_in_s_i),
    .byp_out_e_o(byp_out_e_o), .byp_out_w_o(byp_out_w_o), .byp_out_n_o(byp_out_n_o), .byp_out_s_o(byp_out_s_o),
    .loc_in_v_i(loc_in_v_i), .loc_in_link_i(loc_in_link_i), .loc_in_grant_o(loc_in_grant_o), .loc_in_status_o(loc_in_status_o),
    .loc_out_o(loc_out_o),
    .rom_addr_a_o(ra), .rom_addr_b_o(rb), .rom_row_a_i(rowa), .rom_row_b_i(rowb),
    .x_i({{ cw }}'d{{ r.x }}), .y_i({{ cw }}'d{{ r.y }}), .mc_i(1'b{{ r.is_mc }}), .mc_idx_i(4'd{{ r.mc_idx }}), .ph_i(1'b{{ r.ph }}), .gom_i(1'b{{ r.is_gom }}),
    .dbg_sched_o(dbg_sched_o), .dbg_ecyc_o(dbg_ecyc_o), .dbg_inj_o(dbg_inj_o),
    .dbg_latch_state_o(dbg_latch_state_o), .dbg_drop_o(dbg_drop_o),
    .dbg_overrun_o(dbg_overrun_o), .dbg_collision_o(dbg_collision_o)
  );
endmodule
