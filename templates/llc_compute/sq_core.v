module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // The SQ in the core at node {{ self_node }} (golden::llc_compute::sq_core::SqCore): the shared core
  // {{ core_mod }} wired to the NoC (STORE_REQ > response > LOAD_REQ > FB_LOAD, one per cycle),
  // the NoC replies (load data into the shared-memory write queue, store acks), the core's
  // shared memory (a queued write before a buffer-fill read; reads return in order) and the
  // core's ALU ({{ alu_mod }}: the chain's ops of spec 2.2, only when alu_gnt_i).
  localparam integer L  = {{ lanes }};
  localparam integer W  = L * 32;
  localparam integer TW = {{ tag_w }};
  localparam integer AW = {{ addr_w }};
  localparam integer NW = {{ node_w }};
  localparam integer SAW = {{ smem_aw }};     // shared-memory line address
  localparam [NW-1:0] SELF_NODE = {{ node_w }}'d{{ self_node }};
  localparam [{{ smw_cnt_w - 1 }}:0] SMW_DEPTH = {{ smw_cnt_w }}'d{{ smw_depth }};

  // the LLC node of a byte address: MC (addr >> 7) mod {{ n_mc }} (golden SqCore::llc_of)
  // (called with the 128-B line address addr[AW-1:7])
  function automatic [NW-1:0] llc_of(input [AW-8:0] line);
    reg [{{ line_w - 1 }}:0] m;
    begin
      m = line % {{ line_w }}'d{{ n_mc }};
      llc_of = {NW{1'b0}};
{%- for (k, node) in mcs %}
      if (m == {{ line_w }}'d{{ k }}) llc_of = {{ node_w }}'d{{ node }};
{%- endfor %}
    end
  endfunction

  wire          run = !rst_i;
  // the core's offers
  wire          fb_empty;
  wire          st_v, fill_v, load_v, fb_v, rsp_v;
  wire [TW-1:0] st_tag, fill_tag, load_tag, rsp_tag;
  wire [AW-1:0] st_addr, load_addr, fb_addr;
  wire [W-1:0]  st_data;
  wire [L-1:0]  st_mask;
  wire [NW-1:0] rsp_dst, fb_src;
  wire [5:0]    st_oqt, load_oqt, fb_oqt, rsp_oqt;
  wire          fill_which, load_which, fb_which;
  wire [1:0]    rsp_kind;
  wire [W-1:0]  rsp_data;
  wire          alu_req, alu_fire;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [AW-1:0] fill_addr;             // shared memory is addressed by entry, not by the operand's address
  wire [NW-1:0] st_src, fill_src, load_src; // a core SQ's packets reply to this node
  wire [5:0]    fill_oqt;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // NoC out: STORE_REQ > response > LOAD_REQ > FB_LOAD
  // ---------------------------------------------------------------------------
  wire take = run && no_ready_i;
  wire st_take = take && st_v;
  wire rsp_take = take && !st_v && rsp_v;
  wire load_take = take && !st_v && !rsp_v && load_v;
  wire fb_take = take && !st_v && !rsp_v && !load_v && fb_v;
  assign no_valid_o = run && (st_v || rsp_v || load_v || fb_v);
  assign no_kind_o = !no_valid_o ? 3'd0 : st_v ? 3'd{{ no_store_req }} : rsp_v ? {1'b0, rsp_kind} : load_v ? 3'd{{ no_load_req }} : 3'd{{ no_fb_load }};
  assign no_dst_o = !no_valid_o ? {NW{1'b0}} : st_v ? llc_of(st_addr[AW-1:7]) : rsp_v ? rsp_dst : load_v ? llc_of(load_addr[AW-1:7]) : llc_of(fb_addr[AW-1:7]);
  assign no_tag_o = !run ? {TW{1'b0}} : st_v ? st_tag : rsp_v ? rsp_tag : load_v ? load_tag : {TW{1'b0}};
  assign no_which_o = run && !st_v && !rsp_v && (load_v ? load_which : fb_v && fb_which);
  assign no_oq_tag_o = !run ? 6'd0 : st_v ? st_oqt : rsp_v ? rsp_oqt : load_v ? load_oqt : fb_v ? fb_oqt : 6'd0;
  assign no_reply_node_o = !no_valid_o ? {NW{1'b0}} : (st_v || rsp_v || load_v) ? SELF_NODE : fb_src;
  assign no_addr_o = !run ? {AW{1'b0}} : st_v ? st_addr : rsp_v ? {AW{1'b0}} : load_v ? load_addr : fb_v ? fb_addr : {AW{1'b0}};
  assign no_data_o = !run ? {W{1'b0}} : st_v ? st_data : rsp_v ? rsp_data : {W{1'b0}};
  genvar k;
  generate
    for (k = 0; k < L; k = k + 1) begin : g_wbe
      assign no_wbe_o[k*4 +: 4] = {4{run && st_v && st_mask[k]}};
    end
  endgenerate

  // CP in: refused while fallback loads wait
  assign cp_ready_o = run && fb_empty;

  // ---------------------------------------------------------------------------
  // NoC in and the shared-memory write queue {entry, which, line}
  // ---------------------------------------------------------------------------
  wire          smw_v;
  wire [TW+W:0] smw_head;
  wire [{{ smw_cnt_w - 1 }}:0] smw_cnt;
  wire [TW-1:0] smw_tag = smw_head[TW+W:W+1];
  wire          smw_which = smw_head[W];
  wire [W-1:0]  smw_data = smw_head[W-1:0];
  assign ni_ready_o = run && smw_cnt != SMW_DEPTH;
  wire ni_take = ni_valid_i && ni_ready_o;
  wire smw_push = ni_take && ni_kind_i != 1'd{{ ni_store_ack }};
  wire ack = ni_take && ni_kind_i == 1'd{{ ni_store_ack }};

  // ---------------------------------------------------------------------------
  // Shared memory: a queued write (the operand is present once it is taken) before a
  // buffer-fill read; reads return in order through the queue of reads in flight
  // ---------------------------------------------------------------------------
  wire smw_take = run && smw_v && sm_ready_i;
  wire fill_take = run && !smw_v && fill_v && sm_ready_i;
  assign sm_valid_o = run && (smw_v || fill_v);
  assign sm_we_o = run && smw_v;
  assign sm_addr_o = !run ? {SAW{1'b0}} : smw_v ? { {{ sm_pad }}smw_tag, smw_which} : fill_v ? { {{ sm_pad }}fill_tag, fill_which} : {SAW{1'b0}};
  assign sm_wdata_o = run && smw_v ? smw_data : {W{1'b0}};

  wire          rdq_v;
  wire [TW:0]   rdq_head;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [{{ rdq_cnt_w - 1 }}:0] rdq_cnt;
  /* verilator lint_on UNUSEDSIGNAL */
  // a read answered in the cycle it is taken finds the queue empty: it bypasses it
  wire          rd_ret = run && sm_rvalid_i && (rdq_v || fill_take);
  wire [TW:0]   rd_ew = rdq_v ? rdq_head : {fill_tag, fill_which};

  {{ smw_fifo }} u_smw_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(run && smw_push), .data_i({ni_tag_i, ni_which_i, ni_data_i}), .pop_i(smw_take), .head_o(smw_head), .valid_o(smw_v), .count_o(smw_cnt));
  {{ rdq_fifo }} u_rd_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(fill_take && !(sm_rvalid_i && !rdq_v)), .data_i({fill_tag, fill_which}), .pop_i(run && sm_rvalid_i), .head_o(rdq_head), .valid_o(rdq_v), .count_o(rdq_cnt));

  // ---------------------------------------------------------------------------
  // The core's ALU: used only in cycles the core leaves it free
  // ---------------------------------------------------------------------------
  assign alu_req_o = run && alu_req;
  assign alu_fire_o = run && alu_fire;
  assign st_contend_o = run && alu_req && !alu_gnt_i;

{% include "llc_compute/sqsr_inst.v" %}
endmodule
