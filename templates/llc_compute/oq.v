module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // OQSR: {{ n }} entries; CPGU: one forming chain; EMN LUT ROM of node {{ self_node }}
  // ({{ n_mc }} x {{ n_mc }} MC pairs). Per cycle, in the order of spec 1.3.5 (as
  // golden::llc_compute::oq::Oq::eval): (1) response port, (2) L1 result of the forming
  // chain's pending load, (3) chain-instruction port, (4) CPGU decision, (5) flush
  // engine, then the CP output register.
  localparam integer N  = {{ n }};
  localparam integer TW = {{ tag_w }};    // entry index (OQ tag) width
  localparam integer WW = {{ wid_w }};    // warp id width
  localparam integer NW = {{ warps }};    // warps (st_warp_wait bits)
  localparam integer CW = {{ cnt_w }};    // st_count width
  localparam integer MW = {{ mc_w }};     // MC id width
  localparam integer PW = {{ pfx_w }};    // chain-prefix code width
  localparam integer L  = {{ lanes }};    // lanes (active-mask bits)
  localparam integer AW = {{ addr_w }};   // byte-address width
  localparam integer RW = 8;              // register specifier width

  // entry states (spec 1.3.4, the codes of the FSM leaf; FORMING = {{ s_forming }})
  localparam [2:0] S_FREE = 3'd{{ s_free }}, S_SENT = 3'd{{ s_sent }}, S_FALLBACK = 3'd{{ s_fallback }}, S_FLUSH = 3'd{{ s_flush }};
  // per-load states (spec 1.3.2 ld*_st)
  localparam [2:0] L_NONE = 3'd0, L_WAIT = 3'd1, L_HELD = 3'd2, L_HIT = 3'd3, L_PRESENT = 3'd4, L_FLUSHED = 3'd5;
  // ci_kind codes
  localparam [2:0] K_LD = 3'd{{ k_ld }}, K_MOVI = 3'd{{ k_movi }}, K_ALU = 3'd{{ k_alu }}, K_CMP = 3'd{{ k_cmp }}, K_ST = 3'd{{ k_st }};
  // chain-prefix codes: 0 none, {{ pfx_first }} = [ld], {{ pfx_bad }} = not a prefix of any Table 1 pattern
  localparam [PW-1:0] P_FIRST = {{ pfx_w }}'d{{ pfx_first }}, P_BAD = {{ pfx_w }}'d{{ pfx_bad }};

  // ---------------------------------------------------------------------------
  // Table 1 as functions of the chain-prefix code (generated from golden::llc_compute::chain)
  // ---------------------------------------------------------------------------
  // Prefixes:{% for p in prefixes %} {{ p.code }}={{ p.name }}{% endfor %}
  function automatic [PW-1:0] pfx_next(input [PW-1:0] p, input [2:0] k);
    case ({p, k})
{%- for t in next_rows %}
      {{ t }}
{%- endfor %}
      default: pfx_next = P_BAD;
    endcase
  endfunction

  // {loads[1:0], has_movi, key_swapped, pattern[3:0], resp_kind[1:0]} of a prefix
  function automatic [9:0] pfx_info(input [PW-1:0] p);
    case (p)
{%- for p in prefixes %}
      {{ pfx_w }}'d{{ p.code }}: pfx_info = {2'd{{ p.loads }}, 1'b{{ p.movi }}, 1'b{{ p.swap }}, 4'd{{ p.pattern }}, 2'd{{ p.resp }}};
{%- endfor %}
      default: pfx_info = 10'd0;
    endcase
  endfunction

  // {movi_written, replay_idx[2:0]} of a prefix given whether load 0 / load 1 are held
  // (MISS_HELD, PRESENT or FLUSHED): the first absorbed instruction that is neither
  // such a load nor the `ld i`; the `ld i` is written when it lies before that point
  function automatic [3:0] replay(input [PW-1:0] p, input h0, input h1);
    case ({p, h0, h1})
{%- for t in replay_rows %}
      {{ t }}
{%- endfor %}
      default: replay = 4'd0;
    endcase
  endfunction

  // EMN LUT ROM (spec 1.4, Algorithm 1 for node {{ self_node }}): {valid, node}
  function automatic [{{ node_w }}:0] emn(input [MW-1:0] a, input [MW-1:0] b);
    case ({a, b})
{%- for t in lut_rows %}
      {{ t }}
{%- endfor %}
      default: emn = {{ node_w + 1 }}'d0;
    endcase
  endfunction

  function automatic is_llc(input [{{ node_w - 1 }}:0] node);
    is_llc = {{ llc_expr }};
  endfunction

  function automatic held(input [2:0] s);
    held = s == L_HELD || s == L_PRESENT || s == L_FLUSHED;
  endfunction

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  // OQSR, entry e at [e*width +: width]
  wire [N*3-1:0] state_r;              // entry FSM state (one {{ fsm_mod }} per entry)
  wire [N-1:0]   busy, waits;          // per entry: not FREE; SENT, FALLBACK or FLUSH
  reg [N-1:0]    ev_alloc, ev_send, ev_flush, ev_fallback, ev_free; // FSM events this cycle
  reg [N*WW-1:0] wid_r, wid_n;         // warp
  reg [N*PW-1:0] pfx_r, pfx_n;         // absorbed instruction kinds (prefix code)
  reg [N*3-1:0]  ld0_r, ld0_n, ld1_r, ld1_n;   // per-load states
  reg [N*RW-1:0] ldd0_r, ldd0_n, ldd1_r, ldd1_n; // load destinations (fallback writeback)
  reg [N*RW-1:0] dlast_r, dlast_n;     // destination of the last ALU/CMP (DATA/BITMAP writeback)
  reg [N*RW-1:0] mreg_r, mreg_n;       // `ld i` destination
  reg [N*32-1:0] mimm_r, mimm_n;       // `ld i` immediate (also the CP's imm)
  // CPGU: the forming chain's partial ComputePacket
  reg          cg_v_r, cg_v_n;         // a chain is forming
  reg [TW-1:0] cg_ent_r, cg_ent_n;     // its OQSR entry (the CP's oq_tag)
  reg [3:0]    cg_op0_r, cg_op0_n, cg_op1_r, cg_op1_n;
  reg [1:0]    cg_nops_r, cg_nops_n;   // ALU/CMP ops absorbed (saturating)
  reg          cg_dtype_r, cg_dtype_n;
  reg [MW-1:0] cg_mc0_r, cg_mc0_n, cg_mc1_r, cg_mc1_n, cg_mcc_r, cg_mcc_n;
  reg [AW-1:0] cg_a0_r, cg_a0_n, cg_a1_r, cg_a1_n, cg_ac_r, cg_ac_n;
  reg          cg_cv_r, cg_cv_n;       // the store address is known
  reg          cg_div_r, cg_div_n;     // a memory-divergent access was absorbed
  reg          cg_done_r, cg_done_n;   // the `11` was absorbed
  reg [L-1:0]  cg_mask_r, cg_mask_n;
  // flush engine and CP output register
  reg          fl_v_r, fl_v_n;
  reg [TW-1:0] fl_ent_r, fl_ent_n;
  reg          cp_v_r, cp_v_n;         // the sent chain's CP waits for injection (built from the CPGU)

  always @(posedge clk_i) begin
    if (rst_i) begin
      wid_r <= {(N*WW){1'b0}}; pfx_r <= {(N*PW){1'b0}};
      ld0_r <= {(N*3){1'b0}}; ld1_r <= {(N*3){1'b0}};
      ldd0_r <= {(N*RW){1'b0}}; ldd1_r <= {(N*RW){1'b0}}; dlast_r <= {(N*RW){1'b0}};
      mreg_r <= {(N*RW){1'b0}}; mimm_r <= {(N*32){1'b0}};
      cg_v_r <= 1'b0; cg_ent_r <= {TW{1'b0}}; cg_op0_r <= 4'd0; cg_op1_r <= 4'd0; cg_nops_r <= 2'd0;
      cg_dtype_r <= 1'b0; cg_mc0_r <= {MW{1'b0}}; cg_mc1_r <= {MW{1'b0}}; cg_mcc_r <= {MW{1'b0}};
      cg_a0_r <= {AW{1'b0}}; cg_a1_r <= {AW{1'b0}}; cg_ac_r <= {AW{1'b0}};
      cg_cv_r <= 1'b0; cg_div_r <= 1'b0; cg_done_r <= 1'b0; cg_mask_r <= {L{1'b0}};
      fl_v_r <= 1'b0; fl_ent_r <= {TW{1'b0}}; cp_v_r <= 1'b0;
    end else begin
      wid_r <= wid_n; pfx_r <= pfx_n;
      ld0_r <= ld0_n; ld1_r <= ld1_n;
      ldd0_r <= ldd0_n; ldd1_r <= ldd1_n; dlast_r <= dlast_n;
      mreg_r <= mreg_n; mimm_r <= mimm_n;
      cg_v_r <= cg_v_n; cg_ent_r <= cg_ent_n; cg_op0_r <= cg_op0_n; cg_op1_r <= cg_op1_n; cg_nops_r <= cg_nops_n;
      cg_dtype_r <= cg_dtype_n; cg_mc0_r <= cg_mc0_n; cg_mc1_r <= cg_mc1_n; cg_mcc_r <= cg_mcc_n;
      cg_a0_r <= cg_a0_n; cg_a1_r <= cg_a1_n; cg_ac_r <= cg_ac_n;
      cg_cv_r <= cg_cv_n; cg_div_r <= cg_div_n; cg_done_r <= cg_done_n; cg_mask_r <= cg_mask_n;
      fl_v_r <= fl_v_n; fl_ent_r <= fl_ent_n; cp_v_r <= cp_v_n;
    end
  end

  // ---------------------------------------------------------------------------
  // Status from the registers
  // ---------------------------------------------------------------------------
  integer se;
  reg [CW-1:0] count;
  reg [NW-1:0] warp_wait;
  reg          free_found;
  reg [TW-1:0] free_idx;               // lowest FREE entry
  always @(*) begin
    count = {CW{1'b0}};
    warp_wait = {NW{1'b0}};
    free_found = 1'b0;
    free_idx = {TW{1'b0}};
    for (se = N - 1; se >= 0; se = se - 1) begin
      if (busy[se]) count = count + {{ cnt_w }}'d1;
      if (waits[se]) warp_wait = warp_wait | ({{ warps }}'d1 << wid_r[se*WW +: WW]);
      if (!busy[se]) begin
        free_found = 1'b1;
        free_idx = se[TW-1:0];
      end
    end
  end
  assign st_count_o = count;
  assign st_full_o = count == {{ cnt_w }}'d{{ n }};
  assign st_forming_o = cg_v_r;
  assign st_warp_wait_o = warp_wait;

  // ---------------------------------------------------------------------------
  // CP output: built from the CPGU registers and the sent entry, which hold still
  // while the CP waits (ci_ready_o is 0 while cp_v_r); the EMN LUT read is
  // combinational (spec 1.3.3)
  // ---------------------------------------------------------------------------
  integer oe;
  reg [PW-1:0] o_pfx;
  reg [31:0]   o_mimm;
  reg [9:0]    o_info;
  reg [MW-1:0] o_ka, o_kb;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [{{ node_w }}:0] o_emn;           // the valid bit was checked at the decision
  /* verilator lint_on UNUSEDSIGNAL */
  reg [{{ node_w - 1 }}:0] o_node;
  reg [AW-1:0] o_a, o_b;
  always @(*) begin
    o_pfx = {PW{1'b0}};
    o_mimm = 32'd0;
    for (oe = 0; oe < N; oe = oe + 1) begin
      if (cg_ent_r == oe[TW-1:0]) begin
        o_pfx = pfx_r[oe*PW +: PW];
        o_mimm = mimm_r[oe*32 +: 32];
      end
    end
    o_info = pfx_info(o_pfx);
    o_ka = cg_mc0_r;
    o_kb = o_info[9:8] == 2'd2 ? cg_mc1_r : (cg_cv_r ? cg_mcc_r : cg_mc0_r);
    o_a = cg_a0_r;
    o_b = o_info[9:8] == 2'd2 ? cg_a1_r : {AW{1'b0}};
    if (o_info[6]) begin // patterns 8/9: the first load is b
      o_ka = cg_mc1_r; o_kb = cg_mc0_r;
      o_a = cg_a1_r; o_b = cg_a0_r;
    end
    o_emn = emn(o_ka, o_kb);
    o_node = o_emn[{{ node_w - 1 }}:0];
  end
  assign cp_valid_o = cp_v_r;
  assign cp_flit_o = cp_v_r ? {{ cp_expr }} : {{ flit_w }}'d0;

  // ---------------------------------------------------------------------------
  // One cycle
  // ---------------------------------------------------------------------------
  // entry fields read by index: t = the response's tag, f = the forming chain, x = the flushing one
  reg [2:0]    t_st, t_ld0, t_ld1;
  reg [PW-1:0] t_pfx;
  reg [WW-1:0] t_wid;
  reg [RW-1:0] t_dd0, t_dd1, t_dl, t_mreg;
  reg [31:0]   t_mimm;
  reg [2:0]    f_st, f_ld0, f_ld1;
  reg [PW-1:0] f_pfx;
  reg [WW-1:0] f_wid;
  reg [RW-1:0] f_dd0, f_dd1, f_dl, f_mreg;
  reg [31:0]   f_mimm;
  reg [2:0]    x_st, x_ld0, x_ld1;
  reg [PW-1:0] x_pfx;
  reg [WW-1:0] x_wid;
  reg [RW-1:0] x_dd0, x_dd1, x_mreg;
  reg [31:0]   x_mimm;
  reg          t_ok, t_wr, fb_kind, fb_k, fb_ok;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [9:0]    t_info, f_info;         // pfx_info of the response's and the forming entry (not every field is read)
  /* verilator lint_on UNUSEDSIGNAL */
  reg [3:0]    rp;
  reg          pending, pk, hit_now, first, refuse, alloc, waiting, known, flush_now, build, same_mc, fk_v, fk, x_wr;
  reg [MW-1:0] key_a, key_b;
  reg [{{ node_w }}:0] emn_e;
  reg [{{ node_w - 1 }}:0] node;
  integer e;
  reg          ev_ready, ev_err;
  // combinational outputs
{%- for c in comb_outs %}
  {{ c.decl }}
{%- endfor %}
{%- for c in comb_outs %}
  {{ c.assign }}
{%- endfor %}

  always @(*) begin
    ev_alloc = {N{1'b0}}; ev_send = {N{1'b0}}; ev_flush = {N{1'b0}}; ev_fallback = {N{1'b0}}; ev_free = {N{1'b0}};
    wid_n = wid_r; pfx_n = pfx_r; ld0_n = ld0_r; ld1_n = ld1_r;
    ldd0_n = ldd0_r; ldd1_n = ldd1_r; dlast_n = dlast_r; mreg_n = mreg_r; mimm_n = mimm_r;
    cg_v_n = cg_v_r; cg_ent_n = cg_ent_r; cg_op0_n = cg_op0_r; cg_op1_n = cg_op1_r; cg_nops_n = cg_nops_r;
    cg_dtype_n = cg_dtype_r; cg_mc0_n = cg_mc0_r; cg_mc1_n = cg_mc1_r; cg_mcc_n = cg_mcc_r;
    cg_a0_n = cg_a0_r; cg_a1_n = cg_a1_r; cg_ac_n = cg_ac_r;
    cg_cv_n = cg_cv_r; cg_div_n = cg_div_r; cg_done_n = cg_done_r; cg_mask_n = cg_mask_r;
    fl_v_n = fl_v_r; fl_ent_n = fl_ent_r; cp_v_n = cp_v_r;

    rsp_ready = 1'b0; ci_ready = 1'b0; err = 1'b0;
    evc_valid = 1'b0; evc_wid = {WW{1'b0}}; evl_valid = 1'b0; evl_wid = {WW{1'b0}};
    evr_valid = 1'b0; evr_kind = 2'd0; evr_wid = {WW{1'b0}}; evr_reg = {RW{1'b0}};
    evr_data = {(L*32){1'b0}}; evr_replay_idx = 3'd0;
    evr_movi_valid = 1'b0; evr_movi_reg = {RW{1'b0}}; evr_movi_imm = 32'd0;
    evf_valid = 1'b0; evf_wid = {WW{1'b0}}; evf_replay_idx = 3'd0;
    evf_movi_valid = 1'b0; evf_movi_reg = {RW{1'b0}}; evf_movi_imm = 32'd0;
    fm_valid = 1'b0; fm_wid = {WW{1'b0}}; fm_addr = {AW{1'b0}}; fm_dst = {RW{1'b0}}; fm_mask = {L{1'b0}};

    // reads
    t_ok = {{ tag_ok }};
    t_st = S_FREE; t_ld0 = L_NONE; t_ld1 = L_NONE; t_pfx = {PW{1'b0}}; t_wid = {WW{1'b0}};
    t_dd0 = {RW{1'b0}}; t_dd1 = {RW{1'b0}}; t_dl = {RW{1'b0}}; t_mreg = {RW{1'b0}}; t_mimm = 32'd0;
    f_st = S_FREE; f_ld0 = L_NONE; f_ld1 = L_NONE; f_pfx = {PW{1'b0}}; f_wid = {WW{1'b0}};
    f_dd0 = {RW{1'b0}}; f_dd1 = {RW{1'b0}}; f_dl = {RW{1'b0}}; f_mreg = {RW{1'b0}}; f_mimm = 32'd0;
    x_st = S_FREE; x_ld0 = L_NONE; x_ld1 = L_NONE; x_pfx = {PW{1'b0}}; x_wid = {WW{1'b0}};
    x_dd0 = {RW{1'b0}}; x_dd1 = {RW{1'b0}}; x_mreg = {RW{1'b0}}; x_mimm = 32'd0;
    for (e = 0; e < N; e = e + 1) begin
      if (rsp_tag_i == e[TW-1:0]) begin
        t_st = state_r[e*3 +: 3]; t_ld0 = ld0_r[e*3 +: 3]; t_ld1 = ld1_r[e*3 +: 3]; t_pfx = pfx_r[e*PW +: PW];
        t_wid = wid_r[e*WW +: WW]; t_dd0 = ldd0_r[e*RW +: RW]; t_dd1 = ldd1_r[e*RW +: RW];
        t_dl = dlast_r[e*RW +: RW]; t_mreg = mreg_r[e*RW +: RW]; t_mimm = mimm_r[e*32 +: 32];
      end
      if (cg_ent_r == e[TW-1:0]) begin
        f_st = state_r[e*3 +: 3]; f_ld0 = ld0_r[e*3 +: 3]; f_ld1 = ld1_r[e*3 +: 3]; f_pfx = pfx_r[e*PW +: PW];
        f_wid = wid_r[e*WW +: WW]; f_dd0 = ldd0_r[e*RW +: RW]; f_dd1 = ldd1_r[e*RW +: RW];
        f_dl = dlast_r[e*RW +: RW]; f_mreg = mreg_r[e*RW +: RW]; f_mimm = mimm_r[e*32 +: 32];
      end
      if (fl_ent_r == e[TW-1:0]) begin
        x_st = state_r[e*3 +: 3]; x_ld0 = ld0_r[e*3 +: 3]; x_ld1 = ld1_r[e*3 +: 3]; x_pfx = pfx_r[e*PW +: PW];
        x_wid = wid_r[e*WW +: WW]; x_dd0 = ldd0_r[e*RW +: RW]; x_dd1 = ldd1_r[e*RW +: RW];
        x_mreg = mreg_r[e*RW +: RW]; x_mimm = mimm_r[e*32 +: 32];
      end
    end
    if (!t_ok) t_st = S_FREE;
    st_forming_wid = cg_v_r ? f_wid : {WW{1'b0}};

    // flush engine output (registered state): the first held miss of the flushing entry
    fk_v = fl_v_r && (x_ld0 == L_HELD || x_ld1 == L_HELD);
    fk = x_ld0 != L_HELD;
    if (fk_v) begin
      fm_valid = 1'b1;
      fm_wid = x_wid;
      fm_addr = fk ? cg_a1_r : cg_a0_r;
      fm_dst = fk ? x_dd1 : x_dd0;
      fm_mask = cg_mask_r;
    end

    t_wr = 1'b0; fb_kind = 1'b0; fb_k = 1'b0; fb_ok = 1'b0; t_info = 10'd0; f_info = 10'd0; rp = 4'd0;
    pending = 1'b0; pk = 1'b0; hit_now = 1'b0; first = 1'b0; refuse = 1'b0; alloc = 1'b0;
    waiting = 1'b0; known = 1'b0; flush_now = 1'b0; build = 1'b0; same_mc = 1'b0; x_wr = 1'b0;
    key_a = {MW{1'b0}}; key_b = {MW{1'b0}}; emn_e = {{ node_w + 1 }}'d0; node = {{ node_w }}'d0;
    ev_ready = 1'b0; ev_err = 1'b0;

    if (!rst_i) begin
      // (1) response port
      rsp_ready = !wb_busy_i;
      t_info = pfx_info(t_pfx);
      fb_kind = rsp_kind_i == 3'd{{ rsp_fb_a }} || rsp_kind_i == 3'd{{ rsp_fb_b }};
      fb_k = rsp_kind_i == 3'd{{ rsp_fb_b }};
      fb_ok = fb_kind && (t_st == S_SENT || t_st == S_FALLBACK) && {1'b0, fb_k} < t_info[9:8] && (fb_k ? t_ld1 : t_ld0) == L_HELD;
      if (rsp_valid_i && rsp_ready) begin
        if ((rsp_kind_i == 3'd{{ rsp_ack }} || rsp_kind_i == 3'd{{ rsp_data }} || rsp_kind_i == 3'd{{ rsp_bitmap }}) && t_st == S_SENT) begin
          evr_valid = 1'b1;
          evr_wid = t_wid;
          if (rsp_kind_i == 3'd{{ rsp_ack }}) begin
            evr_kind = 2'd{{ ev_resume }};
          end else begin
            evr_kind = 2'd{{ ev_wb_resume }};
            evr_reg = t_dl;
            evr_data = rsp_data_i;
          end
          t_st = S_FREE; t_ld0 = L_NONE; t_ld1 = L_NONE; t_wr = 1'b1;
        end else if (fb_ok) begin
          if (fb_k) t_ld1 = L_PRESENT; else t_ld0 = L_PRESENT;
          evr_valid = 1'b1;
          evr_wid = t_wid;
          evr_reg = fb_k ? t_dd1 : t_dd0;
          evr_data = rsp_data_i;
          if (t_ld0 == L_PRESENT && (t_info[9:8] != 2'd2 || t_ld1 == L_PRESENT)) begin
            evr_kind = 2'd{{ ev_fb_replay }};
            rp = replay(t_pfx, held(t_ld0), held(t_ld1));
            evr_replay_idx = rp[2:0];
            if (rp[3]) begin
              evr_movi_valid = 1'b1; evr_movi_reg = t_mreg; evr_movi_imm = t_mimm;
            end
            t_st = S_FREE; t_ld0 = L_NONE; t_ld1 = L_NONE;
          end else begin
            evr_kind = 2'd{{ ev_fb_wb }};
            t_st = S_FALLBACK;
          end
          t_wr = 1'b1;
        end else begin
          ev_err = 1'b1;
        end
      end

      // (2) L1 result of the forming chain's pending load
      pending = cg_v_r && (f_ld0 == L_WAIT || f_ld1 == L_WAIT);
      pk = f_ld0 != L_WAIT;
      if (l1r_valid_i) begin
        if (!pending) begin
          ev_err = 1'b1;
        end else if (!l1r_hit_i) begin
          if (pk) f_ld1 = L_HELD; else f_ld0 = L_HELD;
        end else if (!pk) begin
          // first load hit: DISCARD, the load completes as a normal hit
          hit_now = 1'b1;
          evl_valid = 1'b1;
          evl_wid = f_wid;
          f_st = S_FREE; f_ld0 = L_NONE; f_ld1 = L_NONE;
          cg_v_n = 1'b0;
        end else begin
          // a later load hit while the first is held: flush
          hit_now = 1'b1;
          f_ld1 = L_HIT;
          f_st = S_FLUSH;
          fl_v_n = 1'b1; fl_ent_n = cg_ent_r;
          cg_v_n = 1'b0;
        end
      end

      // (3) chain-instruction port
      first = ci_tag_i == 2'd{{ tag_first }};
      if (fl_v_r || cp_v_r) ev_ready = 1'b0;
      else if (pending) ev_ready = l1r_valid_i && !l1r_hit_i;
      else ev_ready = !(first && cg_v_r && {{ wait_policy }});
      if (hit_now) ev_ready = 1'b0;
      ci_ready = ev_ready;
      if (ci_valid_i && ev_ready) begin
        if (first) begin
          refuse = cfg_mode_i == 2'd0 || st_full_o || cg_v_r || ci_kind_i != K_LD;
          if (!refuse && free_found) begin
            alloc = 1'b1;
            cg_v_n = 1'b1; cg_ent_n = free_idx;
            cg_op0_n = 4'd0; cg_op1_n = 4'd0; cg_nops_n = 2'd0; cg_dtype_n = 1'b0;
            cg_mc0_n = ci_mc_i; cg_mc1_n = {MW{1'b0}}; cg_mcc_n = {MW{1'b0}};
            cg_a0_n = ci_addr_i; cg_a1_n = {AW{1'b0}}; cg_ac_n = {AW{1'b0}};
            cg_cv_n = 1'b0; cg_div_n = !ci_unit_stride_i; cg_done_n = 1'b0; cg_mask_n = ci_mask_i;
          end else begin
            evc_valid = 1'b1;
            evc_wid = ci_wid_i;
          end
        end else if (cg_v_r && ci_kind_i <= K_ST && f_wid == ci_wid_i && !cg_done_r) begin
          f_info = pfx_info(f_pfx);
          case (ci_kind_i)
            K_LD: begin
              if (f_info[9:8] == 2'd1) begin
                f_ld1 = L_WAIT; cg_a1_n = ci_addr_i; f_dd1 = ci_dst_i; cg_mc1_n = ci_mc_i;
              end else if (f_info[9:8] == 2'd0) begin
                f_ld0 = L_WAIT; cg_a0_n = ci_addr_i; f_dd0 = ci_dst_i; cg_mc0_n = ci_mc_i;
              end
              cg_div_n = cg_div_r | !ci_unit_stride_i;
            end
            K_MOVI: begin
              f_mreg = ci_dst_i; f_mimm = ci_imm_i;
            end
            K_ALU, K_CMP: begin
              if (cg_nops_r == 2'd0) cg_op0_n = ci_op_i;
              if (cg_nops_r == 2'd1) cg_op1_n = ci_op_i;
              if (cg_nops_r != 2'd3) cg_nops_n = cg_nops_r + 2'd1;
              cg_dtype_n = ci_dtype_i;
              f_dl = ci_dst_i;
            end
            default: begin // K_ST
              cg_ac_n = ci_addr_i; cg_mcc_n = ci_mc_i; cg_cv_n = 1'b1;
              cg_div_n = cg_div_r | !ci_unit_stride_i;
            end
          endcase
          f_pfx = pfx_next(f_pfx, ci_kind_i);
          f_info = pfx_info(f_pfx);
          cg_done_n = ci_tag_i == 2'd{{ tag_last }};
          if (f_pfx == P_BAD || (cg_done_n && f_info[5:2] == 4'd0)) ev_err = 1'b1;
        end else begin
          ev_err = 1'b1;
        end
      end

      // (4) CPGU: decide on the forming chain once no L1 lookup is pending
      f_info = pfx_info(f_pfx);
      waiting = f_ld0 == L_WAIT || f_ld1 == L_WAIT;
      if (cg_v_r && cg_v_n && !alloc && !waiting && !ev_err) begin
        known = 1'b1;
        if (f_info[9:8] == 2'd2) begin
          key_a = cg_mc0_n; key_b = cg_mc1_n;
        end else if (cg_cv_n) begin
          key_a = cg_mc0_n; key_b = cg_mcc_n;
        end else if (cg_done_n) begin
          key_a = cg_mc0_n; key_b = cg_mc0_n;
        end else begin
          known = 1'b0;
        end
        if (f_info[6]) begin // patterns 8/9: the first load is b
          key_a = key_b;
          key_b = cg_mc0_n;
        end
        emn_e = emn(key_a, key_b);
        node = emn_e[{{ node_w - 1 }}:0];
        same_mc = (f_info[9:8] != 2'd2 || cg_mc1_n == cg_mc0_n) && (!cg_cv_n || cg_mcc_n == cg_mc0_n);
        flush_now = cg_div_n || (known && (!emn_e[{{ node_w }}] || !cfg_capable_i[node]
          || (cfg_mode_i != 2'd{{ mode_omni }} && (cfg_mode_i != 2'd{{ mode_llc }} || (cfg_llc_rule_i ? !is_llc(node) : !same_mc)))));
        build = !flush_now && known && cg_done_n;
        if (flush_now) begin
          f_st = S_FLUSH;
          fl_v_n = 1'b1; fl_ent_n = cg_ent_r;
          cg_v_n = 1'b0;
        end else if (build) begin
          cp_v_n = 1'b1;
          f_st = S_SENT;
          cg_v_n = 1'b0;
        end
      end

      // (5) flush engine: one held miss per cycle into the normal miss path
      if (fk_v && fm_ready_i) begin
        if (fk) x_ld1 = L_FLUSHED; else x_ld0 = L_FLUSHED;
        x_wr = 1'b1;
        if (x_ld0 != L_HELD && x_ld1 != L_HELD) begin
          rp = replay(x_pfx, held(x_ld0), held(x_ld1));
          evf_valid = 1'b1;
          evf_wid = x_wid;
          evf_replay_idx = rp[2:0];
          if (rp[3]) begin
            evf_movi_valid = 1'b1; evf_movi_reg = x_mreg; evf_movi_imm = x_mimm;
          end
          x_st = S_FREE; x_ld0 = L_NONE; x_ld1 = L_NONE;
          fl_v_n = 1'b0;
        end
      end

      // CP output register
      if (cp_v_r && cp_ready_i) cp_v_n = 1'b0;
      err = ev_err;

      // write back the entries touched this cycle
      for (e = 0; e < N; e = e + 1) begin
        if (t_wr && rsp_tag_i == e[TW-1:0]) begin
          ev_fallback[e] = t_st == S_FALLBACK; ev_free[e] = t_st == S_FREE; ld0_n[e*3 +: 3] = t_ld0; ld1_n[e*3 +: 3] = t_ld1;
        end
        if (cg_v_r && cg_ent_r == e[TW-1:0]) begin
          ev_send[e] = f_st == S_SENT; ev_flush[e] = f_st == S_FLUSH; ev_free[e] = f_st == S_FREE; ld0_n[e*3 +: 3] = f_ld0; ld1_n[e*3 +: 3] = f_ld1; pfx_n[e*PW +: PW] = f_pfx;
          ldd0_n[e*RW +: RW] = f_dd0; ldd1_n[e*RW +: RW] = f_dd1; dlast_n[e*RW +: RW] = f_dl;
          mreg_n[e*RW +: RW] = f_mreg; mimm_n[e*32 +: 32] = f_mimm;
        end
        if (alloc && free_idx == e[TW-1:0]) begin
          ev_alloc[e] = 1'b1; wid_n[e*WW +: WW] = ci_wid_i; pfx_n[e*PW +: PW] = P_FIRST;
          ld0_n[e*3 +: 3] = L_WAIT; ld1_n[e*3 +: 3] = L_NONE;
          ldd0_n[e*RW +: RW] = ci_dst_i; ldd1_n[e*RW +: RW] = {RW{1'b0}}; dlast_n[e*RW +: RW] = {RW{1'b0}};
        end
        if (x_wr && fl_ent_r == e[TW-1:0]) begin
          ev_free[e] = x_st == S_FREE; ld0_n[e*3 +: 3] = x_ld0; ld1_n[e*3 +: 3] = x_ld1;
        end
      end
    end
  end


  // ---------------------------------------------------------------------------
  // OQSR entry state machines (spec 1.3.4)
  // ---------------------------------------------------------------------------
{%- for e in ents %}
  {{ fsm_mod }} fsm_{{ e }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .alloc_i(ev_alloc[{{ e }}]),
    .send_i(ev_send[{{ e }}]),
    .flush_i(ev_flush[{{ e }}]),
    .fallback_i(ev_fallback[{{ e }}]),
    .free_i(ev_free[{{ e }}]),
    .state_o(state_r[{{ e * 3 + 2 }}:{{ e * 3 }}]),
    .busy_o(busy[{{ e }}]),
    .wait_o(waits[{{ e }}])
  );
{%- endfor %}
endmodule
