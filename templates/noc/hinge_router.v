module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // latch registers E, W, N, S, L and the N/S drive of E, W, L
  wire [{{ lw - 1 }}:0] lat_e, lat_w, lat_n, lat_s, lat_l;
  wire [1:0] st_e, st_w, st_n, st_s, st_l;
  wire dn_e, dn_w, dn_l, ds_e, ds_w, ds_l;
  wire [4:0] cap_en, ovr;
  wire tn_e, tn_w, tn_l, ts_e, ts_w, ts_l;
  wire e_str, e_inj, w_str, w_inj, n_str, s_str;
  wire [{{ lw - 1 }}:0] n_drv, s_drv, inj;
  wire slot0, slot1, fin0, fin1, last_period, gom_slot;

  // overlay controller (Algorithm 1, windows, T-pending)
  {{ ctrl }} ctrl (
    .clk_i(clk_i), .rst_i(rst_i),
    .pay_i__0(lat_e[{{ pay }}]), .pay_i__1(lat_w[{{ pay }}]), .pay_i__2(lat_n[{{ pay }}]), .pay_i__3(lat_s[{{ pay }}]), .pay_i__4(lat_l[{{ pay }}]),
    .ty_i__0(lat_e[{{ ty }}]), .ty_i__1(lat_w[{{ ty }}]), .ty_i__2(lat_n[{{ ty }}]),
    .ty_i__3(lat_s[{{ ty }}]), .ty_i__4(lat_l[{{ ty }}]),
    .st_i__0(st_e), .st_i__1(st_w), .st_i__2(st_n), .st_i__3(st_s), .st_i__4(st_l),
    .sched_o(dbg_sched_o), .ovl_a_o(rom_addr_a_o), .ovl_b_o(rom_addr_b_o),
    .slot0_o(slot0), .slot1_o(slot1), .fin0_o(fin0), .fin1_o(fin1),
    .last_period_o(last_period), .gom_slot_o(gom_slot), .ecyc_o(dbg_ecyc_o)
  );

  // input selection (Algorithm 2), live-configuration decode, grant, ejection
  {{ sel }} sel (
    .row_a_i(rom_row_a_i), .row_b_i(rom_row_b_i),
    .x_i(x_i), .y_i(y_i), .mc_i(mc_i), .mc_idx_i(mc_idx_i), .ph_i(ph_i), .gom_i(gom_i),
    .ovl_a_i(rom_addr_a_o), .ovl_b_i(rom_addr_b_o), .slot0_i(slot0), .slot1_i(slot1),
    .fin0_i(fin0), .fin1_i(fin1), .last_period_i(last_period), .gom_slot_i(gom_slot),
    .lat_i__0(lat_e), .lat_i__1(lat_w), .lat_i__2(lat_n), .lat_i__3(lat_s), .lat_i__4(lat_l),
    .st_i__0(st_e), .st_i__1(st_w), .st_i__2(st_n), .st_i__3(st_s), .st_i__4(st_l),
    .dn_i__0(dn_e), .dn_i__1(dn_w), .dn_i__2(dn_l), .ds_i__0(ds_e), .ds_i__1(ds_w), .ds_i__2(ds_l),
    .grant_o(loc_in_grant_o), .status_o(loc_in_status_o),
    .cap_en_o__0(cap_en[0]), .cap_en_o__1(cap_en[1]), .cap_en_o__2(cap_en[2]), .cap_en_o__3(cap_en[3]), .cap_en_o__4(cap_en[4]),
    .turn_n_o__0(tn_e), .turn_n_o__1(tn_w), .turn_n_o__2(tn_l),
    .turn_s_o__0(ts_e), .turn_s_o__1(ts_w), .turn_s_o__2(ts_l),
    .e_str_o(e_str), .e_inj_o(e_inj), .w_str_o(w_str), .w_inj_o(w_inj), .n_str_o(n_str), .s_str_o(s_str),
    .n_drv_o(n_drv), .s_drv_o(s_drv), .loc_out_o(loc_out_o),
    .drop_o__0(dbg_drop_o[0]), .drop_o__1(dbg_drop_o[1]), .drop_o__2(dbg_drop_o[2]), .drop_o__3(dbg_drop_o[3]), .drop_o__4(dbg_drop_o[4]),
    .collision_o(dbg_collision_o)
  );

  // local injection on a transfer
  {{ inj }} inject (.v_i(loc_in_v_i), .link_i(loc_in_link_i), .grant_i(loc_in_grant_o), .inj_o(inj));
  assign dbg_inj_o = inj;

  // latches: E, W and L may turn onto Y; N and S only eject
  {{ latch }} lat_e_r (.clk_i(clk_i), .rst_i(rst_i), .wire_i(byp_in_e_i), .cap_en_i(cap_en[0]), .turn_n_i(tn_e), .turn_s_i(ts_e),
    .lat__q_o(lat_e), .st__q_o(st_e), .dn__q_o(dn_e), .ds__q_o(ds_e), .overrun_o(ovr[0]));
  {{ latch }} lat_w_r (.clk_i(clk_i), .rst_i(rst_i), .wire_i(byp_in_w_i), .cap_en_i(cap_en[1]), .turn_n_i(tn_w), .turn_s_i(ts_w),
    .lat__q_o(lat_w), .st__q_o(st_w), .dn__q_o(dn_w), .ds__q_o(ds_w), .overrun_o(ovr[1]));
  {{ end_latch }} lat_n_r (.clk_i(clk_i), .rst_i(rst_i), .wire_i(byp_in_n_i), .cap_en_i(cap_en[2]),
    .lat__q_o(lat_n), .st__q_o(st_n), .overrun_o(ovr[2]));
  {{ end_latch }} lat_s_r (.clk_i(clk_i), .rst_i(rst_i), .wire_i(byp_in_s_i), .cap_en_i(cap_en[3]),
    .lat__q_o(lat_s), .st__q_o(st_s), .overrun_o(ovr[3]));
  {{ latch }} lat_l_r (.clk_i(clk_i), .rst_i(rst_i), .wire_i(inj), .cap_en_i(cap_en[4]), .turn_n_i(tn_l), .turn_s_i(ts_l),
    .lat__q_o(lat_l), .st__q_o(st_l), .dn__q_o(dn_l), .ds__q_o(ds_l), .overrun_o(ovr[4]));
  assign dbg_latch_state_o = {st_l, st_s, st_n, st_w, st_e};
  assign dbg_overrun_o = |ovr;

  // bypass outputs, one mux per direction
  {{ bew }} byp_e (.straight_i(byp_in_w_i), .inj_i(inj), .str_i(e_str), .inj_sel_i(e_inj), .out_o(byp_out_e_o));
  {{ bew }} byp_w (.straight_i(byp_in_e_i), .inj_i(inj), .str_i(w_str), .inj_sel_i(w_inj), .out_o(byp_out_w_o));
  {{ bns }} byp_n (.straight_i(byp_in_s_i), .drv_i(n_drv), .str_i(n_str), .out_o(byp_out_n_o));
  {{ bns }} byp_s (.straight_i(byp_in_n_i), .drv_i(s_drv), .str_i(s_str), .out_o(byp_out_s_o));
endmodule
