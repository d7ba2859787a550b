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

{% include "llc_compute/sqsr_inst.v" %}
endmodule
