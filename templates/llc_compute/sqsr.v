module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // The SQ core both variants share (golden::llc_compute::sqsr::Sqsr): SQMU CP decode with
  // allocation or fallback loads, {{ n }} SQSR entries (one {{ fsm_mod }} each), the
  // ready-order FIFO, {{ nb }} temporary-buffer slots and their fill order, the ALU pipeline
  // (delay lines of 1, {{ lat }} and {{ 2 * lat }} cycles: copy, one op, two dependent ops),
  // the store and response queues, the fallback-load queue. The variant decides which of the
  // offered requests (store, fill read, operand load, fallback load) it takes each cycle.
  localparam integer N  = {{ n }};
  localparam integer NB = {{ nb }};
  localparam integer TW = {{ tag_w }};    // entry index width
  localparam integer BW = {{ slot_w }};    // buffer slot index width
  localparam integer CW = {{ cnt_w }};    // st_count width
  localparam integer L  = {{ lanes }};    // lanes
  localparam integer W  = L * 32;         // an operand or result line
  localparam integer AW = {{ addr_w }};   // byte-address width
  localparam integer NW = {{ node_w }};    // src_node width (the CP field)
  localparam integer QW = {{ oq_tag_w }};    // oq_tag width (the CP field)
  localparam integer FW = AW + 1 + NW + QW; // a fallback load: {addr, which, src, oq_tag}
  localparam integer LAT = {{ lat }};
  localparam [2:0] S_WAIT = 3'd{{ s_wait }};

  // Table 1 (golden::llc_compute::chain::PATTERNS): memory loads and ALU ops of a pattern
  // (a pattern outside 1..9 counts as one load and one op, as the golden model)
  function automatic two_loads(input [3:0] p);
    two_loads = {{ two_loads }};
  endfunction
  function automatic [1:0] alu_ops(input [3:0] p);
    alu_ops = {{ alu_ops }};
  endfunction

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  // SQSR, entry e at [e*width +: width]
  wire [N*3-1:0] state;                // entry FSM state
  wire [N-1:0]   busy;                 // not FREE
  reg  [N-1:0]   ev_alloc, ev_ready, ev_fill, ev_issue, ev_done, ev_store, ev_written, ev_free;
  reg [N*NW-1:0] src_r, src_n;         // the CP: requesting core
  reg [N*QW-1:0] oqt_r, oqt_n;         //   its OQ tag
  reg [N*4-1:0]  pat_r, pat_n;         //   pattern
  reg [N*2-1:0]  kind_r, kind_n;       //   resp_kind
  reg [N*4-1:0]  op0_r, op0_n, op1_r, op1_n;
  reg [N-1:0]    dt_r, dt_n;           //   dtype
  reg [N*AW-1:0] aa_r, aa_n, ab_r, ab_n, ac_r, ac_n; // operand and store byte addresses
  reg [N*32-1:0] imm_r, imm_n;
  reg [N*L-1:0]  mask_r, mask_n;
  reg [N*2-1:0]  iss_r, iss_n;         // operand load issued (TOUCH / LOAD_REQ accepted)
  reg [N*2-1:0]  pres_r, pres_n;       // operand present
  reg [N*W-1:0]  res_r, res_n;         // the result vector, written at dispatch
  reg [N*L-1:0]  bm_r, bm_n;           // the compare bitmap, written at dispatch
  // temporary buffer
  reg [NB-1:0]   bv_r, bv_n;           // slot holds an entry
  reg [NB*TW-1:0] be_r, be_n;          // its entry
  reg [NB-1:0]   bh0_r, bh0_n, bh1_r, bh1_n; // operand a / b arrived
  reg [NB*W-1:0] bd0_r, bd0_n, bd1_r, bd1_n; // operand data
  // the entry whose second operand read is still to be issued (its data finds the slot by entry)
  reg            fv_r, fv_n;
  reg [TW-1:0]   fe_r, fe_n;
  // ALU pipeline: delay lines of entries (copy 1 cycle, one op LAT, two ops 2*LAT)
  reg            p1v_r, p1v_n;
  reg [TW-1:0]   p1e_r, p1e_n;
  reg [LAT-1:0]  p2v_r, p2v_n;
  reg [LAT*TW-1:0] p2e_r, p2e_n;
  reg [2*LAT-1:0] p3v_r, p3v_n;
  reg [2*LAT*TW-1:0] p3e_r, p3e_n;

  always @(posedge clk_i) begin
    if (rst_i) begin
      iss_r <= {(N*2){1'b0}}; pres_r <= {(N*2){1'b0}};
      bv_r <= {NB{1'b0}}; bh0_r <= {NB{1'b0}}; bh1_r <= {NB{1'b0}};
      fv_r <= 1'b0; fe_r <= {TW{1'b0}};
      p1v_r <= 1'b0; p2v_r <= {LAT{1'b0}}; p3v_r <= {(2*LAT){1'b0}};
    end else begin
      iss_r <= iss_n; pres_r <= pres_n;
      bv_r <= bv_n; bh0_r <= bh0_n; bh1_r <= bh1_n;
      fv_r <= fv_n; fe_r <= fe_n;
      p1v_r <= p1v_n; p2v_r <= p2v_n; p3v_r <= p3v_n;
    end
    // payload registers (read only under a valid bit)
    src_r <= src_n; oqt_r <= oqt_n; pat_r <= pat_n; kind_r <= kind_n; op0_r <= op0_n; op1_r <= op1_n;
    dt_r <= dt_n; aa_r <= aa_n; ab_r <= ab_n; ac_r <= ac_n; imm_r <= imm_n; mask_r <= mask_n;
    res_r <= res_n; bm_r <= bm_n;
    be_r <= be_n; bd0_r <= bd0_n; bd1_r <= bd1_n;
    p1e_r <= p1e_n; p2e_r <= p2e_n; p3e_r <= p3e_n;
  end

  // ---------------------------------------------------------------------------
  // Queues
  // ---------------------------------------------------------------------------
  reg          rdy_push;
  reg [TW-1:0] rdy_in;
  reg          rdy_pop;
  wire [TW-1:0] rdy_head;
  wire         rdy_v;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [CW-1:0] rdy_cnt, stq_cnt, rsq_cnt;
  wire [1:0]   fbq_cnt;
  /* verilator lint_on UNUSEDSIGNAL */
  {{ rdy_fifo }} u_ready_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(rdy_push), .data_i(rdy_in), .pop_i(rdy_pop), .head_o(rdy_head), .valid_o(rdy_v), .count_o(rdy_cnt));

  reg [2:0]      stq_push;             // ALU results of store chains: 2-op, 1-op, copy
  reg [3*TW-1:0] stq_in;
  wire [TW-1:0]  stq_head;
  wire           stq_v;
  {{ stq_fifo }} u_store_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(stq_push), .data_i(stq_in), .pop_i(st_take_i), .head_o(stq_head), .valid_o(stq_v), .count_o(stq_cnt));

  reg [3:0]      rsq_push;             // rq_push_i, then the ALU results of the others
  reg [4*TW-1:0] rsq_in;
  wire [TW-1:0]  rsq_head;
  wire           rsq_v;
  {{ rsq_fifo }} u_resp_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(rsq_push), .data_i(rsq_in), .pop_i(rsp_take_i), .head_o(rsq_head), .valid_o(rsq_v), .count_o(rsq_cnt));

  reg [1:0]      fbq_push;
  reg [2*FW-1:0] fbq_in;
  wire [FW-1:0]  fbq_head;
  wire           fbq_v;
  {{ fbq_fifo }} u_fb_q (.clk_i(clk_i), .rst_i(rst_i), .push_i(fbq_push), .data_i(fbq_in), .pop_i(fb_take_i), .head_o(fbq_head), .valid_o(fbq_v), .count_o(fbq_cnt));

  reg          ord_push, ord_pop;
  reg [BW-1:0] ord_in;
  wire [BW-1:0] ord_head;
  wire         ord_v;
  wire [{{ bcnt_w - 1 }}:0] ord_cnt;
  {{ ord_fifo }} u_buf_order (.clk_i(clk_i), .rst_i(rst_i), .push_i(ord_push), .data_i(ord_in), .pop_i(ord_pop), .head_o(ord_head), .valid_o(ord_v), .count_o(ord_cnt));

  // ---------------------------------------------------------------------------
  // Status and the offered requests (from the registers)
  // ---------------------------------------------------------------------------
  integer se;
  reg [CW-1:0] count;
  reg          load_found, slot_found;
  reg [TW-1:0] free_idx, load_idx;
  reg          load_k;
  reg [BW-1:0] slot_idx;
  always @(*) begin
    count = {CW{1'b0}};
    free_idx = {TW{1'b0}};
    load_found = 1'b0; load_idx = {TW{1'b0}}; load_k = 1'b0;
    for (se = N - 1; se >= 0; se = se - 1) begin
      if (busy[se]) count = count + {{ cnt_w }}'d1;
      if (!busy[se]) free_idx = se[TW-1:0];
      if (busy[se] && (!iss_r[se*2] || (two_loads(pat_r[se*4 +: 4]) && !iss_r[se*2+1]))) begin
        load_found = 1'b1; load_idx = se[TW-1:0]; load_k = iss_r[se*2];
      end
    end
    slot_found = 1'b0; slot_idx = {BW{1'b0}};
    for (se = NB - 1; se >= 0; se = se - 1) begin
      if (!bv_r[se]) begin
        slot_found = 1'b1; slot_idx = se[BW-1:0];
      end
    end
  end
  assign st_count_o = count;
  assign st_full_o = count == {{ cnt_w }}'d{{ n }};
  assign st_buf_count_o = ord_cnt;
  assign fb_empty_o = !fbq_v;

  // entry fields by index: s = store head, r = response head, f = fill, l = load, a = ALU head
  function automatic [AW-1:0] sel_aw(input [N*AW-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_aw = {AW{1'b0}};
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_aw = v[x*AW +: AW];
    end
  endfunction
  function automatic [W-1:0] sel_w(input [N*W-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_w = {W{1'b0}};
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_w = v[x*W +: W];
    end
  endfunction
  function automatic [31:0] sel_32(input [N*32-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_32 = 32'd0;
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_32 = v[x*32 +: 32];
    end
  endfunction
  function automatic [L-1:0] sel_l(input [N*L-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_l = {L{1'b0}};
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_l = v[x*L +: L];
    end
  endfunction
  function automatic [5:0] sel_6(input [N*6-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_6 = 6'd0;
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_6 = v[x*6 +: 6];
    end
  endfunction
  function automatic [3:0] sel_4(input [N*4-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_4 = 4'd0;
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_4 = v[x*4 +: 4];
    end
  endfunction
  function automatic [1:0] sel_2(input [N*2-1:0] v, input [TW-1:0] i);
    integer x;
    begin
      sel_2 = 2'd0;
      for (x = 0; x < N; x = x + 1) if (i == x[TW-1:0]) sel_2 = v[x*2 +: 2];
    end
  endfunction

  // store head: its WRITE / STORE_REQ
  assign st_valid_o = stq_v;
  assign st_tag_o = stq_head;
  assign st_addr_o = stq_v ? sel_aw(ac_r, stq_head) : {AW{1'b0}};
  assign st_data_o = stq_v ? sel_w(res_r, stq_head) : {W{1'b0}};
  assign st_mask_o = stq_v ? sel_l(mask_r, stq_head) : {L{1'b0}};
  assign st_src_o = stq_v ? sel_6(src_r, stq_head) : {NW{1'b0}};
  assign st_oq_tag_o = stq_v ? sel_6(oqt_r, stq_head) : {QW{1'b0}};

  // response head: (dst, kind, oq_tag, data): DATA the result, BITMAP the bitmap in word 0, else 0
  wire [1:0] r_kind = sel_2(kind_r, rsq_head);
  assign rsp_valid_o = rsq_v;
  assign rsp_tag_o = rsq_head;
  assign rsp_dst_o = rsq_v ? sel_6(src_r, rsq_head) : {NW{1'b0}};
  assign rsp_kind_o = rsq_v ? r_kind : 2'd0;
  assign rsp_oq_tag_o = rsq_v ? sel_6(oqt_r, rsq_head) : {QW{1'b0}};
  assign rsp_data_o = !rsq_v ? {W{1'b0}}
                    : r_kind == 2'd{{ resp_data }} ? sel_w(res_r, rsq_head)
                    : r_kind == 2'd{{ resp_bitmap }} ? { {(W-L){1'b0}}, sel_l(bm_r, rsq_head)} : {W{1'b0}};

  // buffer fill: the second operand of the entry being filled, else the first of the ready
  // FIFO's head when a slot is free
  wire          fill_start = !fv_r && rdy_v && slot_found;
  wire [TW-1:0] fill_e = fv_r ? fe_r : rdy_head;
  assign fill_valid_o = fv_r || fill_start;
  assign fill_tag_o = fill_valid_o ? fill_e : {TW{1'b0}};
  assign fill_which_o = fv_r;
  assign fill_addr_o = !fill_valid_o ? {AW{1'b0}} : fv_r ? sel_aw(ab_r, fill_e) : sel_aw(aa_r, fill_e);
  assign fill_src_o = fill_valid_o ? sel_6(src_r, fill_e) : {NW{1'b0}};
  assign fill_oq_tag_o = fill_valid_o ? sel_6(oqt_r, fill_e) : {QW{1'b0}};

  // operand load: the lowest live entry with an operand not yet issued
  assign load_valid_o = load_found;
  assign load_tag_o = load_idx;
  assign load_which_o = load_k;
  assign load_addr_o = !load_found ? {AW{1'b0}} : load_k ? sel_aw(ab_r, load_idx) : sel_aw(aa_r, load_idx);
  assign load_src_o = load_found ? sel_6(src_r, load_idx) : {NW{1'b0}};
  assign load_oq_tag_o = load_found ? sel_6(oqt_r, load_idx) : {QW{1'b0}};

  // fallback load: the queue's head
  assign fb_valid_o = fbq_v;
  assign {fb_addr_o, fb_which_o, fb_src_o, fb_oq_tag_o} = fbq_head;

  // ALU: the oldest buffer entry, when all its operands arrived
  reg [TW-1:0] a_e;
  reg [W-1:0]  a_d0, a_d1;
  reg          a_h0, a_h1;
  integer sb;
  always @(*) begin
    a_e = {TW{1'b0}}; a_d0 = {W{1'b0}}; a_d1 = {W{1'b0}}; a_h0 = 1'b0; a_h1 = 1'b0;
    for (sb = 0; sb < NB; sb = sb + 1) begin
      if (ord_head == sb[BW-1:0]) begin
        a_e = be_r[sb*TW +: TW]; a_d0 = bd0_r[sb*W +: W]; a_d1 = bd1_r[sb*W +: W]; a_h0 = bh0_r[sb]; a_h1 = bh1_r[sb];
      end
    end
  end
  wire [3:0] a_pat = sel_4(pat_r, a_e);
  wire [1:0] a_ops = alu_ops(a_pat);
  wire       a_complete = ord_v && a_h0 && (!two_loads(a_pat) || a_h1);
  wire       a_go = a_complete && (a_ops == 2'd0 || alu_gnt_i);
  assign alu_req_o = a_complete && a_ops != 2'd0;
  assign alu_fire_o = a_go && a_ops != 2'd0;
  assign alu_pattern_o = a_complete ? a_pat : 4'd0;
  assign alu_op0_o = a_complete ? sel_4(op0_r, a_e) : 4'd0;
  assign alu_op1_o = a_complete ? sel_4(op1_r, a_e) : 4'd0;
  assign alu_dtype_o = a_complete && dt_r[a_e];
  assign alu_imm_o = a_complete ? sel_32(imm_r, a_e) : 32'd0;
  assign alu_mask_o = a_complete ? sel_l(mask_r, a_e) : {L{1'b0}};
  assign alu_a_o = a_complete ? a_d0 : {W{1'b0}};
  assign alu_b_o = a_complete && a_h1 ? a_d1 : {W{1'b0}};

  // ---------------------------------------------------------------------------
  // One cycle: the updates of golden Sqsr's take_fill, accept_cp, set_present,
  // fill_data, alu and respond, in the wrapper's order
  // ---------------------------------------------------------------------------
  // the CP as decoded by the SQMU (spec 2.3 field positions)
  wire [NW-1:0] c_src = cp_flit_i[{{ f_src }}];
  wire [QW-1:0] c_oqt = cp_flit_i[{{ f_oq_tag }}];
  wire [3:0]    c_pat = cp_flit_i[{{ f_pattern }}];
  wire [1:0]    c_kind = cp_flit_i[{{ f_resp_kind }}];
  wire [3:0]    c_op0 = cp_flit_i[{{ f_op0 }}];
  wire [3:0]    c_op1 = cp_flit_i[{{ f_op1 }}];
  wire          c_dt = cp_flit_i[{{ f_dtype }}];
  wire [AW-1:0] c_a = cp_flit_i[{{ f_addr_a }}];
  wire [AW-1:0] c_b = cp_flit_i[{{ f_addr_b }}];
  wire [AW-1:0] c_c = cp_flit_i[{{ f_addr_c }}];
  wire [31:0]   c_imm = cp_flit_i[{{ f_imm }}];
  wire [L-1:0]  c_mask = cp_flit_i[{{ f_mask }}];
  /* verilator lint_off UNUSEDSIGNAL */
  wire [{{ flit_w - 1 }}:0] c_flit = cp_flit_i;  // header, dst_node, reserved bits: not read by the SQMU
  /* verilator lint_on UNUSEDSIGNAL */

  integer b, t;
  reg [1:0] np;                        // present bits after this cycle's notification
  reg [2:0] done_v;                   // results leaving the delay lines: 2-op, 1-op, copy
  reg [3*TW-1:0] done_e;
  always @(*) begin
    ev_alloc = {N{1'b0}}; ev_ready = {N{1'b0}}; ev_fill = {N{1'b0}}; ev_issue = {N{1'b0}};
    ev_done = {N{1'b0}}; ev_store = {N{1'b0}}; ev_written = {N{1'b0}}; ev_free = {N{1'b0}};
    src_n = src_r; oqt_n = oqt_r; pat_n = pat_r; kind_n = kind_r; op0_n = op0_r; op1_n = op1_r;
    dt_n = dt_r; aa_n = aa_r; ab_n = ab_r; ac_n = ac_r; imm_n = imm_r; mask_n = mask_r;
    iss_n = iss_r; pres_n = pres_r; res_n = res_r; bm_n = bm_r;
    bv_n = bv_r; be_n = be_r; bh0_n = bh0_r; bh1_n = bh1_r; bd0_n = bd0_r; bd1_n = bd1_r;
    fv_n = fv_r; fe_n = fe_r;
    rdy_push = 1'b0; rdy_in = {TW{1'b0}}; rdy_pop = 1'b0;
    stq_push = 3'd0; stq_in = {(3*TW){1'b0}};
    rsq_push = 4'd0; rsq_in = {(4*TW){1'b0}};
    fbq_push = 2'd0; fbq_in = {(2*FW){1'b0}};
    ord_push = 1'b0; ord_in = {BW{1'b0}}; ord_pop = 1'b0;
    np = 2'd0;
    b = 0; t = 0;

    // operand load taken
    if (load_take_i && load_found) iss_n[load_idx*2 + (load_k ? 1 : 0)] = 1'b1;
    // buffer fill read taken
    if (fill_take_i && fill_valid_o) begin
      if (fill_start) begin
        rdy_pop = 1'b1;
        ev_fill[rdy_head] = 1'b1;
        bv_n[slot_idx] = 1'b1; be_n[slot_idx*TW +: TW] = rdy_head; bh0_n[slot_idx] = 1'b0; bh1_n[slot_idx] = 1'b0;
        ord_push = 1'b1; ord_in = slot_idx;
      end
      fv_n = !fv_r && two_loads(pat_r[fill_e*4 +: 4]);
      fe_n = fill_e;
    end
    // CP in: a free entry (the lowest), or one fallback load per memory operand when full
    if (cp_take_i) begin
      if (st_full_o) begin
        fbq_push = {two_loads(c_pat), 1'b1};
        fbq_in = {c_b, 1'b1, c_src, c_oqt, c_a, 1'b0, c_src, c_oqt};
      end else begin
        ev_alloc[free_idx] = 1'b1;
        src_n[free_idx*NW +: NW] = c_src; oqt_n[free_idx*QW +: QW] = c_oqt;
        pat_n[free_idx*4 +: 4] = c_pat; kind_n[free_idx*2 +: 2] = c_kind;
        op0_n[free_idx*4 +: 4] = c_op0; op1_n[free_idx*4 +: 4] = c_op1; dt_n[free_idx] = c_dt;
        aa_n[free_idx*AW +: AW] = c_a; ab_n[free_idx*AW +: AW] = c_b; ac_n[free_idx*AW +: AW] = c_c;
        imm_n[free_idx*32 +: 32] = c_imm; mask_n[free_idx*L +: L] = c_mask;
        iss_n[free_idx*2 +: 2] = 2'd0; pres_n[free_idx*2 +: 2] = 2'd0;
      end
    end
    // present notification: the entry joins the ready FIFO with its last operand
    if (lp_valid_i) begin
      np = pres_n[lp_tag_i*2 +: 2];
      np[lp_which_i] = 1'b1;
      pres_n[lp_tag_i*2 +: 2] = np;
      if (np[0] && (!two_loads(pat_n[lp_tag_i*4 +: 4]) || np[1])) begin
        rdy_push = 1'b1; rdy_in = lp_tag_i;
        ev_ready[lp_tag_i] = state[lp_tag_i*3 +: 3] == S_WAIT;
      end
    end
    // operand data into the slot holding the entry (the lowest, as the golden search)
    if (ld_valid_i) begin
      t = NB;
      for (b = NB - 1; b >= 0; b = b - 1) if (bv_n[b] && be_n[b*TW +: TW] == ld_tag_i) t = b;
      for (b = 0; b < NB; b = b + 1) begin
        if (t == b) begin
          if (ld_which_i) begin
            bh1_n[b] = 1'b1; bd1_n[b*W +: W] = ld_data_i;
          end else begin
            bh0_n[b] = 1'b1; bd0_n[b*W +: W] = ld_data_i;
          end
        end
      end
    end
    // ALU: results leave the delay lines (oldest dispatch first: 2-op, 1-op, copy) ...
    done_v = {p1v_r, p2v_r[LAT-1], p3v_r[2*LAT-1]};
    done_e = {p1e_r, p2e_r[(LAT-1)*TW +: TW], p3e_r[(2*LAT-1)*TW +: TW]};
    rsq_push[0] = rq_push_i; rsq_in[0 +: TW] = rq_push_tag_i;
    if (rq_push_i) ev_written[rq_push_tag_i] = 1'b1;
    for (t = 0; t < 3; t = t + 1) begin
      if (done_v[t]) begin
        ev_done[done_e[t*TW +: TW]] = 1'b1;
        if (kind_r[done_e[t*TW +: TW]*2 +: 2] == 2'd{{ resp_ack }}) begin
          ev_store[done_e[t*TW +: TW]] = 1'b1;
          stq_push[t] = 1'b1; stq_in[t*TW +: TW] = done_e[t*TW +: TW];
        end else begin
          rsq_push[t+1] = 1'b1; rsq_in[(t+1)*TW +: TW] = done_e[t*TW +: TW];
        end
      end
    end
    p1v_n = 1'b0; p1e_n = p1e_r;
    for (t = LAT - 1; t > 0; t = t - 1) begin
      p2v_n[t] = p2v_r[t-1]; p2e_n[t*TW +: TW] = p2e_r[(t-1)*TW +: TW];
    end
    p2v_n[0] = 1'b0; p2e_n[0 +: TW] = p2e_r[0 +: TW];
    for (t = 2 * LAT - 1; t > 0; t = t - 1) begin
      p3v_n[t] = p3v_r[t-1]; p3e_n[t*TW +: TW] = p3e_r[(t-1)*TW +: TW];
    end
    p3v_n[0] = 1'b0; p3e_n[0 +: TW] = p3e_r[0 +: TW];
    // ... then the oldest complete buffer entry is dispatched (the copy needs no ALU)
    if (a_go) begin
      ev_issue[a_e] = 1'b1;
      res_n[a_e*W +: W] = alu_res_i;
      bm_n[a_e*L +: L] = alu_bm_i;
      if (a_ops == 2'd0) begin
        p1v_n = 1'b1; p1e_n = a_e;
      end else if (a_ops == 2'd1) begin
        p2v_n[0] = 1'b1; p2e_n[0 +: TW] = a_e;
      end else begin
        p3v_n[0] = 1'b1; p3e_n[0 +: TW] = a_e;
      end
      bv_n[ord_head] = 1'b0;
      ord_pop = 1'b1;
    end
    // the response taken frees the entry
    if (rsp_take_i && rsq_v) ev_free[rsq_head] = 1'b1;
  end

  // ---------------------------------------------------------------------------
  // SQSR entry state machines
  // ---------------------------------------------------------------------------
{%- for e in ents %}
  {{ fsm_mod }} fsm_{{ e }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .alloc_i(ev_alloc[{{ e }}]),
    .ready_i(ev_ready[{{ e }}]),
    .fill_i(ev_fill[{{ e }}]),
    .issue_i(ev_issue[{{ e }}]),
    .done_i(ev_done[{{ e }}]),
    .store_i(ev_store[{{ e }}]),
    .written_i(ev_written[{{ e }}]),
    .free_i(ev_free[{{ e }}]),
    .state_o(state[{{ e * 3 + 2 }}:{{ e * 3 }}]),
    .busy_o(busy[{{ e }}])
  );
{%- endfor %}
endmodule
