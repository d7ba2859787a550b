module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // The SQ at an LLC partition (golden::llc_compute::sq::Sq): the shared core {{ core_mod }}
  // wired to the LLC request port (WRITE > READ > TOUCH > FB_LOAD, one per cycle), the
  // partition's own ALU ({{ alu_mod }}: the chain's ops of spec 2.2, always granted), and
  // the response port. A WRITE taken moves its entry to the response queue.
  localparam integer L  = {{ lanes }};
  localparam integer W  = L * 32;
  localparam integer TW = {{ tag_w }};
  localparam integer AW = {{ addr_w }};

  wire          run = !rst_i;
  // the core's offers
  wire          fb_empty;
  wire          st_v, fill_v, load_v, fb_v, rsp_v;
  wire [TW-1:0] st_tag, fill_tag, load_tag;
  wire [AW-1:0] st_addr, fill_addr, load_addr, fb_addr;
  wire [W-1:0]  st_data;
  wire [L-1:0]  st_mask;
  wire [5:0]    st_src, st_oqt, fill_src, fill_oqt, load_src, load_oqt, fb_src, fb_oqt, rsp_dst, rsp_oqt;
  wire          fill_which, load_which, fb_which;
  wire [1:0]    rsp_kind;
  wire [W-1:0]  rsp_data;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [TW-1:0] rsp_tag;               // the response names the chain by (dst, oq_tag)
  wire          alu_req, alu_fire;     // the partition's own ALU is always granted
  /* verilator lint_on UNUSEDSIGNAL */
  // ALU request and result
  wire [3:0]    alu_pattern, alu_op0, alu_op1;
  wire          alu_dtype;
  wire [31:0]   alu_imm;
  wire [L-1:0]  alu_mask, alu_bm;
  wire [W-1:0]  alu_a, alu_b, alu_res;

  // the LLC request port: WRITE > READ (buffer fill) > TOUCH > FB_LOAD
  wire take = run && lr_ready_i;
  wire st_take = take && st_v;
  wire fill_take = take && !st_v && fill_v;
  wire load_take = take && !st_v && !fill_v && load_v;
  wire fb_take = take && !st_v && !fill_v && !load_v && fb_v;
  assign lr_valid_o = run && (st_v || fill_v || load_v || fb_v);
  assign lr_kind_o = !lr_valid_o ? 2'd0 : st_v ? 2'd{{ lr_write }} : fill_v ? 2'd{{ lr_read }} : load_v ? 2'd{{ lr_touch }} : 2'd{{ lr_fb_load }};
  assign lr_addr_o = !run ? {AW{1'b0}} : st_v ? st_addr : fill_v ? fill_addr : load_v ? load_addr : fb_addr;
  assign lr_tag_o = !run ? {TW{1'b0}} : st_v ? st_tag : fill_v ? fill_tag : load_v ? load_tag : {TW{1'b0}};
  assign lr_which_o = run && !st_v && (fill_v ? fill_which : load_v ? load_which : fb_which);
  assign lr_wdata_o = run && st_v ? st_data : {W{1'b0}};
  genvar k;
  generate
    for (k = 0; k < L; k = k + 1) begin : g_wbe
      assign lr_wbe_o[k*4 +: 4] = {4{run && st_v && st_mask[k]}};
    end
  endgenerate
  assign lr_reply_node_o = !run ? 6'd0 : st_v ? st_src : fill_v ? fill_src : load_v ? load_src : fb_src;
  assign lr_oq_tag_o = !run ? 6'd0 : st_v ? st_oqt : fill_v ? fill_oqt : load_v ? load_oqt : fb_oqt;

  // CP in: refused while fallback loads wait
  assign cp_ready_o = run && fb_empty;
  // response port
  assign no_valid_o = run && rsp_v;
  assign no_dst_o = run ? rsp_dst : 6'd0;
  assign no_kind_o = run ? rsp_kind : 2'd0;
  assign no_oq_tag_o = run ? rsp_oqt : 6'd0;
  assign no_data_o = run ? rsp_data : {W{1'b0}};

  {{ core_mod }} u_sqsr (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .cp_take_i(cp_valid_i && cp_ready_o),
    .cp_flit_i(cp_flit_i),
    .lp_valid_i(run && lp_valid_i),
    .lp_tag_i(lp_tag_i),
    .lp_which_i(lp_which_i),
    .ld_valid_i(run && ld_valid_i),
    .ld_tag_i(ld_tag_i),
    .ld_which_i(ld_which_i),
    .ld_data_i(ld_data_i),
    .st_take_i(st_take),
    .rq_push_i(st_take),
    .rq_push_tag_i(st_tag),
    .rsp_take_i(run && rsp_v && no_ready_i),
    .fill_take_i(fill_take),
    .load_take_i(load_take),
    .fb_take_i(fb_take),
    .alu_gnt_i(1'b1),
    .alu_res_i(alu_res),
    .alu_bm_i(alu_bm),
    .fb_empty_o(fb_empty),
    .st_valid_o(st_v),
    .st_tag_o(st_tag),
    .st_addr_o(st_addr),
    .st_data_o(st_data),
    .st_mask_o(st_mask),
    .st_src_o(st_src),
    .st_oq_tag_o(st_oqt),
    .rsp_valid_o(rsp_v),
    .rsp_tag_o(rsp_tag),
    .rsp_dst_o(rsp_dst),
    .rsp_kind_o(rsp_kind),
    .rsp_oq_tag_o(rsp_oqt),
    .rsp_data_o(rsp_data),
    .fill_valid_o(fill_v),
    .fill_tag_o(fill_tag),
    .fill_which_o(fill_which),
    .fill_addr_o(fill_addr),
    .fill_src_o(fill_src),
    .fill_oq_tag_o(fill_oqt),
    .load_valid_o(load_v),
    .load_tag_o(load_tag),
    .load_which_o(load_which),
    .load_addr_o(load_addr),
    .load_src_o(load_src),
    .load_oq_tag_o(load_oqt),
    .fb_valid_o(fb_v),
    .fb_addr_o(fb_addr),
    .fb_which_o(fb_which),
    .fb_src_o(fb_src),
    .fb_oq_tag_o(fb_oqt),
    .alu_req_o(alu_req),
    .alu_fire_o(alu_fire),
    .alu_pattern_o(alu_pattern),
    .alu_op0_o(alu_op0),
    .alu_op1_o(alu_op1),
    .alu_dtype_o(alu_dtype),
    .alu_imm_o(alu_imm),
    .alu_mask_o(alu_mask),
    .alu_a_o(alu_a),
    .alu_b_o(alu_b),
    .st_count_o(st_count_o),
    .st_full_o(st_full_o),
    .st_buf_count_o(st_buf_count_o)
  );

  {{ alu_mod }} u_alu (
    .pattern_i(alu_pattern),
    .op0_i(alu_op0),
    .op1_i(alu_op1),
    .dtype_i(alu_dtype),
    .imm_i(alu_imm),
    .mask_i(alu_mask),
    .a_i(alu_a),
    .b_i(alu_b),
    .res_o(alu_res),
    .bitmap_o(alu_bm)
  );
endmodule
