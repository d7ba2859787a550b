module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // Q-cache rate monitor of one L2 (Hestness 2016 ch. 6; spec qcache.md 1.2-1.8, 5),
  // cycle-exact with golden::qcache::monitor::RateMonitor: `step` there is the leaves'
  // logic and the combinational block below, in the spec 1.6 order. The
  // datapath is rust-hdl leaves: the per-bank event sums ({{ bank_mod }}, one per bank,
  // chained), the window counters after the events ({{ win_mod }}), the rate comparison
  // ({{ cmp_mod }}) and the magnitude with its serial divider ({{ div_mod }}).
  localparam W   = {{ w }};   // CNT_W: every counter saturates at 2^W - 1
  localparam W2  = {{ w2 }};  // rate products produced*cyc_c, consumed*cyc_p
  localparam NB  = {{ nb }};   // L2 banks reporting events
  localparam ND  = {{ nd }};   // rate domains
  localparam DW  = {{ dw }};   // domain id width
  localparam PW  = {{ pw }};   // per-cycle event count width
  localparam ET  = {{ et }}, WT = {{ wt }}, DT = {{ dt }}, PT = {{ pt }}, SW = {{ sw }};

  localparam [2:0] S_DISABLED = 3'd0, S_DETECT = 3'd1, S_ACTIVE = 3'd2, S_PENDING = 3'd3, S_LOCKED = 3'd4, S_OFF = 3'd5;

  localparam [W-1:0]  CAP_LINES   = {{ w }}'d{{ cap_lines }};
  localparam [W-1:0]  MIN_LINES   = {{ w }}'d{{ min_lines }};
  localparam [W-1:0]  QLOW_LINES  = {{ w }}'d{{ qlow_lines }};
  localparam [ET-1:0] EVAL_INTERVAL  = {{ et }}'d{{ eval_interval }};
  localparam [WT-1:0] WINDOW_CYCLES  = {{ wt }}'d{{ window_cycles }};
  localparam [WT-1:0] MIN_OBS_CYCLES = {{ wt }}'d{{ min_obs_cycles }};
  localparam [DT-1:0] DETECT_TIMEOUT = {{ dt }}'d{{ detect_timeout }};
  localparam [PT-1:0] ACK_TIMEOUT    = {{ pt }}'d{{ ack_timeout }};
  localparam [SW-1:0] SCHED_CNT      = {{ sw }}'d{{ sched_cnt }};  // RC_LAT - 2
  localparam [1:0] QLOW_STREAK = 2'd{{ qlow_streak }}, GIVEUP_STREAK = 2'd{{ giveup_streak }};
  localparam [3:0] QPRE_NUM = 4'd{{ qpre_num }}, QPRE_DEN = 4'd{{ qpre_den }};
  localparam [7:0] MIN_STEP_Q44 = 8'd{{ min_step }}, UP_STEP_Q44 = 8'd{{ up_step }};
  localparam SPILL_LITTLE_SHIFT = {{ spill_shift }}, QLOCK_SHIFT = {{ qlock_shift }};
  localparam DAMP_ON_REVERSAL = {{ damp }};
{%- if lock_probe > 0 %}
  localparam LPW = {{ lpw }};   // quiet-LOCKED evaluation counter
  localparam [LPW-1:0] LOCK_PROBE_EVALS = {{ lpw }}'d{{ lock_probe }};
{%- endif %}

  // ---------------------------------------------------------------------------
  // registers (spec 1.3 register file, plus the request path)
  // ---------------------------------------------------------------------------
  reg [2:0]    state_r;
  reg [W-1:0]  produced_r, consumed_r, spilled_r, cyc_p_r, cyc_c_r, q_r, q_max_r;
  reg          qmax_valid_r;
  reg [ND-1:0] prod_mask_r, cons_mask_r, throttled_r;
  reg [ET-1:0] eval_t_r;
  reg [WT-1:0] win_t_r;
  reg [DT-1:0] det_t_r;
  reg [PT-1:0] pend_t_r;
  reg [1:0]    lowq_streak_r, giveup_streak_r, last_dir_r;
  reg          tot_p_seen_r, tot_c_seen_r, force_eval_r;
{%- if lock_probe > 0 %}
  // LOCK_PROBE_EVALS: quiet LOCKED evaluations in a row; the waiting decision is a probe
  // (sent without a fallback)
  reg [LPW-1:0] lock_quiet_r;
  reg           sched_probe_r;
{%- endif %}
  // the decision waiting RC_LAT cycles (sched): kind, request, fallback target (its
  // ratio is the register of {{ div_mod }})
  reg          sched_v_r, sched_giveup_r, sched_role_r, sched_dir_r, sched_damp_r;
  reg [SW-1:0] sched_cnt_r;
  reg [ND-1:0] sched_target_r, sched_fb_target_r;
  // fallback of the request in flight
  reg          fb_v_r, fb_role_r, fb_dir_r;
  reg [ND-1:0] fb_target_r;
  reg [7:0]    fb_ratio_r;
  // the request register (req_v_o and its fields) and what an ACK throttles
  reg          req_v_r, req_role_r, req_dir_r, req_restore_r;
  reg [ND-1:0] req_target_r, issued_target_r;
  reg [7:0]    req_ratio_r;

  // ---------------------------------------------------------------------------
  // datapath leaves
  // ---------------------------------------------------------------------------
  // this cycle's events: bank b adds its strobes and domain bits to the sums of
  // banks 0 .. b-1 (segment b of each chain); segment NB is the cycle's total
  wire [(NB+1)*PW-1:0] np_chain, nc_chain, ns_chain;
  wire [(NB+1)*ND-1:0] pm_chain, cm_chain;
  assign np_chain[PW-1:0] = {PW{1'b0}};
  assign nc_chain[PW-1:0] = {PW{1'b0}};
  assign ns_chain[PW-1:0] = {PW{1'b0}};
  assign pm_chain[ND-1:0] = {ND{1'b0}};
  assign cm_chain[ND-1:0] = {ND{1'b0}};
  genvar b;
  generate
    for (b = 0; b < NB; b = b + 1) begin : g_bank
      {{ bank_mod }} u_events (
        .prod_i(ev_prod_i[b]), .prod_dom_i(ev_prod_dom_i[b*DW +: DW]),
        .cons_i(ev_cons_i[b]), .cons_dom_i(ev_cons_dom_i[b*DW +: DW]),
        .spill_i(ev_spill_i[b]),
        .np_i(np_chain[b*PW +: PW]), .nc_i(nc_chain[b*PW +: PW]), .ns_i(ns_chain[b*PW +: PW]),
        .pm_i(pm_chain[b*ND +: ND]), .cm_i(cm_chain[b*ND +: ND]),
        .np_o(np_chain[(b+1)*PW +: PW]), .nc_o(nc_chain[(b+1)*PW +: PW]), .ns_o(ns_chain[(b+1)*PW +: PW]),
        .pm_o(pm_chain[(b+1)*ND +: ND]), .cm_o(cm_chain[(b+1)*ND +: ND])
      );
    end
  endgenerate
  wire [PW-1:0] np = np_chain[NB*PW +: PW], nc = nc_chain[NB*PW +: PW], ns = ns_chain[NB*PW +: PW];
  wire [ND-1:0] pm_ev = pm_chain[NB*ND +: ND], cm_ev = cm_chain[NB*ND +: ND];

  // kernel begin clears every register but the request register (spec 1.4); the
  // window counters after this cycle's events ({{ win_mod }})
  wire         kend_fire   = kend_i && state_r != S_DISABLED;
  wire         kbegin_fire = kbegin_i && state_r == S_DISABLED;
  wire [2:0]   st_e = kbegin_fire ? S_DETECT : state_r;
  wire         ev_on = st_e != S_DISABLED && st_e != S_OFF;
  wire [W-1:0] prod_e, cons_e, spil_e, cp_e, cc_e, q_e, qm_e;
  wire         qv_e, fe_e;
  {{ win_mod }} u_window (
    .en_i(ev_on), .onset_ok_i(st_e != S_DETECT), .np_i(np), .nc_i(nc), .ns_i(ns),
    .produced_i(kbegin_fire ? {W{1'b0}} : produced_r), .consumed_i(kbegin_fire ? {W{1'b0}} : consumed_r),
    .spilled_i(kbegin_fire ? {W{1'b0}} : spilled_r), .cyc_p_i(kbegin_fire ? {W{1'b0}} : cyc_p_r),
    .cyc_c_i(kbegin_fire ? {W{1'b0}} : cyc_c_r), .q_i(kbegin_fire ? {W{1'b0}} : q_r),
    .q_max_i(kbegin_fire ? {W{1'b0}} : q_max_r), .qmax_valid_i(!kbegin_fire && qmax_valid_r),
    .force_eval_i(!kbegin_fire && force_eval_r),
    .produced_o(prod_e), .consumed_o(cons_e), .spilled_o(spil_e), .cyc_p_o(cp_e), .cyc_c_o(cc_e),
    .q_o(q_e), .q_max_o(qm_e), .qmax_valid_o(qv_e), .force_eval_o(fe_e)
  );
  // the domains and the kernel's first PRODUCE / CONSUME
  wire [ND-1:0] pm_e = (kbegin_fire ? {ND{1'b0}} : prod_mask_r) | (ev_on ? pm_ev : {ND{1'b0}});
  wire [ND-1:0] cm_e = (kbegin_fire ? {ND{1'b0}} : cons_mask_r) | (ev_on ? cm_ev : {ND{1'b0}});
  wire          tps_e = (!kbegin_fire && tot_p_seen_r) || (ev_on && np != {PW{1'b0}});
  wire          tcs_e = (!kbegin_fire && tot_c_seen_r) || (ev_on && nc != {PW{1'b0}});

  // Table 6.1's rate comparison on them (used in an evaluation cycle)
  wire          cmp_gt, cmp_lt, cmp_rc_zero;
  wire [W2-1:0] rmax, rmin;
  {{ cmp_mod }} u_cmp (
    .produced_i(prod_e), .consumed_i(cons_e), .cyc_p_i(cp_e), .cyc_c_i(cc_e),
    .gt_o(cmp_gt), .lt_o(cmp_lt), .rc_zero_o(cmp_rc_zero), .rmax_o(rmax), .rmin_o(rmin)
  );

  // the decision's magnitude: a constant step, or sat8((rmax << 4) / rmin) by the
  // serial divider during the RC_LAT delay; cleared at reset, kernel end and begin
  reg        div_load, div_start;
  reg [7:0]  div_load_ratio;
  wire [7:0] sched_ratio;
  {{ div_mod }} u_ratio (
    .clk_i(clk_i), .rst_i(rst_i || kend_fire), .clear_i(kbegin_fire),
    .load_i(div_load), .load_ratio_i(div_load_ratio),
    .start_i(div_start), .inf_i(cmp_rc_zero), .rmax_i(rmax), .rmin_i(rmin),
    .ratio_o(sched_ratio)
  );

  // ---------------------------------------------------------------------------
  // helpers
  // ---------------------------------------------------------------------------
  function automatic [1:0] sat3(input [1:0] x);
    sat3 = (x == 2'd3) ? 2'd3 : x + 2'd1;
  endfunction

  // ---------------------------------------------------------------------------
  // next state
  // ---------------------------------------------------------------------------
  reg [2:0]    st;
  reg [W-1:0]  prod, cons, spil, cp, cc, q, qm;
  reg          qv, tps, tcs, fe;
  reg [ND-1:0] pm, cm, thr;
  reg [ET-1:0] et;
  reg [WT-1:0] wt;
  reg [DT-1:0] dt;
  reg [PT-1:0] pt;
  reg [1:0]    lows, gus, ld;
{%- if lock_probe > 0 %}
  reg [LPW-1:0] lq, lq_prev;
  reg           sprobe, d_probe;
{%- endif %}
  reg          sv, sg, srole, sdir, sdamp;
  reg [SW-1:0] sc;
  reg [ND-1:0] stgt, sfbt;
  reg          fv, frole, fdir;
  reg [ND-1:0] ftgt, itgt;
  reg [7:0]    frat;
  reg          rv, rrole, rdir, rrest;
  reg [ND-1:0] rtgt;
  reg [7:0]    rrat;
  // the evaluation
  reg          gt, lt, spills_y, qlow, near_full, decide, d_giveup, d_role, d_dir, d_div;
  reg [7:0]    d_ratio, fin;
  reg [1:0]    d_class;
  reg [W-1:0]  cap_ref;

  // (4) the state's work, (5) the delayed decision
  always @(*) begin
    st    = st_e;
    prod  = prod_e;
    cons  = cons_e;
    spil  = spil_e;
    cp    = cp_e;
    cc    = cc_e;
    q     = q_e;
    qm    = qm_e;
    qv    = qv_e;
    pm    = pm_e;
    cm    = cm_e;
    tps   = tps_e;
    tcs   = tcs_e;
    fe    = fe_e;
    thr   = kbegin_fire ? {ND{1'b0}} : throttled_r;
    et    = kbegin_fire ? {ET{1'b0}} : eval_t_r;
    wt    = kbegin_fire ? {WT{1'b0}} : win_t_r;
    dt    = kbegin_fire ? {DT{1'b0}} : det_t_r;
    pt    = kbegin_fire ? {PT{1'b0}} : pend_t_r;
    lows  = kbegin_fire ? 2'd0 : lowq_streak_r;
    gus   = kbegin_fire ? 2'd0 : giveup_streak_r;
    ld    = kbegin_fire ? 2'd0 : last_dir_r;
{%- if lock_probe > 0 %}
    lq    = kbegin_fire ? {LPW{1'b0}} : lock_quiet_r;
    lq_prev = {LPW{1'b0}};
    sprobe = !kbegin_fire && sched_probe_r;
    d_probe = 1'b0;
{%- endif %}
    sv    = !kbegin_fire && sched_v_r;
    sg    = !kbegin_fire && sched_giveup_r;
    srole = !kbegin_fire && sched_role_r;
    sdir  = !kbegin_fire && sched_dir_r;
    sdamp = !kbegin_fire && sched_damp_r;
    sc    = kbegin_fire ? {SW{1'b0}} : sched_cnt_r;
    stgt  = kbegin_fire ? {ND{1'b0}} : sched_target_r;
    sfbt  = kbegin_fire ? {ND{1'b0}} : sched_fb_target_r;
    fv    = !kbegin_fire && fb_v_r;
    frole = !kbegin_fire && fb_role_r;
    fdir  = !kbegin_fire && fb_dir_r;
    ftgt  = kbegin_fire ? {ND{1'b0}} : fb_target_r;
    frat  = kbegin_fire ? 8'd0 : fb_ratio_r;
    itgt  = kbegin_fire ? {ND{1'b0}} : issued_target_r;
    // the request register empties at the edge where it is accepted
    rv = req_v_r; rtgt = req_target_r; rrole = req_role_r; rdir = req_dir_r; rrat = req_ratio_r; rrest = req_restore_r;
    if (req_v_r && req_ready_i) begin
      rv = 1'b0; rtgt = {ND{1'b0}}; rrole = 1'b0; rdir = 1'b0; rrat = 8'd0; rrest = 1'b0;
    end
    gt = 1'b0; lt = 1'b0; spills_y = 1'b0; qlow = 1'b0; near_full = 1'b0; cap_ref = {W{1'b0}};
    decide = 1'b0; d_giveup = 1'b0; d_role = 1'b0; d_dir = 1'b0; d_div = 1'b0; d_ratio = 8'd0; d_class = 2'd0; fin = 8'd0;
    div_load = 1'b0; div_start = 1'b0; div_load_ratio = 8'd0;

    if (st != S_DISABLED && st != S_OFF) begin
      // (4) the state's work
      case (st)
        S_DETECT: begin
          dt = dt + {{ '{' }}{(DT-1){1'b0}}, 1'b1};
          if (tps && tcs) begin
            prod = {W{1'b0}}; cons = {W{1'b0}}; spil = {W{1'b0}}; cp = {W{1'b0}}; cc = {W{1'b0}};
            wt = {WT{1'b0}}; et = {ET{1'b0}}; fe = 1'b0;
            st = S_ACTIVE;
          end else if (dt >= DETECT_TIMEOUT) begin
            st = S_OFF;
          end
        end
        S_PENDING: begin
          if (!req_v_r) begin
            pt = pt + {{ '{' }}{(PT-1){1'b0}}, 1'b1};
            if (rsp_v_i) begin
              if (rsp_ack_i) begin
                thr = thr | itgt;
                fv = 1'b0;
                prod = {W{1'b0}}; cons = {W{1'b0}}; spil = {W{1'b0}}; cp = {W{1'b0}}; cc = {W{1'b0}};
                wt = {WT{1'b0}}; et = {ET{1'b0}}; fe = 1'b0;
                st = S_ACTIVE;
              end else if (fv) begin
                rv = 1'b1; rtgt = ftgt; rrole = frole; rdir = fdir; rrat = frat; rrest = 1'b0;
                itgt = ftgt;
                fv = 1'b0;
                pt = {PT{1'b0}};
              end else begin
                st = S_ACTIVE;
              end
            end else if (pt >= ACK_TIMEOUT) begin
              fv = 1'b0;
              st = S_ACTIVE;
            end
          end
        end
        S_ACTIVE, S_LOCKED: begin
          wt = wt + {{ '{' }}{(WT-1){1'b0}}, 1'b1};
          et = et + {{ '{' }}{(ET-1){1'b0}}, 1'b1};
          if (wt >= WINDOW_CYCLES) begin
            prod = {W{1'b0}}; cons = {W{1'b0}}; spil = {W{1'b0}}; cp = {W{1'b0}}; cc = {W{1'b0}};
            wt = {WT{1'b0}}; et = {ET{1'b0}}; fe = 1'b0;
          end else if (et >= EVAL_INTERVAL || fe) begin
            et = {ET{1'b0}};
            fe = 1'b0;
            // an evaluation while a decision waits is skipped
            if (!sv && wt >= MIN_OBS_CYCLES && !(prod < MIN_LINES && cons < MIN_LINES)) begin
              // fail-safe: spills keep pace with consumption
              if ({1'b0, cons} + {1'b0, spil} >= {1'b0, MIN_LINES} && spil >= cons) begin
                gus = sat3(gus);
                if (gus >= GIVEUP_STREAK) begin
                  decide = 1'b1; d_giveup = 1'b1;
                end
              end else begin
                gus = 2'd0;
              end
              if (!decide) begin
                // Table 6.1 on R_P ~ produced*cyc_c against R_C ~ consumed*cyc_p
                // ({{ cmp_mod }}: a side with no event in the window has rate 0)
                gt = cmp_gt;
                lt = cmp_lt;
                spills_y = spil > (prod >> SPILL_LITTLE_SHIFT);
                qlow = q <= QLOW_LINES;
                lows = qlow ? sat3(lows) : 2'd0;
                cap_ref = qv ? qm : CAP_LINES;
{%- if lock_probe > 0 %}
                // the quiet-LOCKED run ends at any evaluation that does not lock again
                lq_prev = lq;
                lq = {LPW{1'b0}};
{%- endif %}
                if (lows >= QLOW_STREAK && !gt) begin
                  // row 4: the consumer starves
                  decide = 1'b1; d_role = 1'b0; d_dir = 1'b1; d_ratio = UP_STEP_Q44;
                end else if (gt) begin
                  // row 1: wait for the first spill, then act; afterwards act near q_max
                  near_full = qv && ({4'd0, q} * {{ '{' }}{W{1'b0}}, QPRE_DEN}) >= ({4'd0, qm} * {{ '{' }}{W{1'b0}}, QPRE_NUM});
                  if (spil != {W{1'b0}} || near_full) begin
                    decide = 1'b1; d_role = 1'b1; d_dir = 1'b1; d_div = 1'b1;
                  end else begin
                    st = S_ACTIVE;
                  end
                end else if (!lt && spills_y && !qlow) begin
                  // row 2: matched rates, light spilling
                  decide = 1'b1; d_role = 1'b1; d_dir = 1'b1; d_ratio = MIN_STEP_Q44;
                end else if (!lt && q >= (cap_ref >> QLOCK_SHIFT)) begin
                  // row 3: locked
{%- if lock_probe > 0 %}
                  // after LOCK_PROBE_EVALS quiet evaluations in LOCKED, probe upward:
                  // speed the producer by MIN_STEP, without a fallback
                  if (st == S_LOCKED) begin
                    if (lq_prev == LOCK_PROBE_EVALS) begin
                      decide = 1'b1; d_probe = 1'b1; d_role = 1'b0; d_dir = 1'b1; d_ratio = MIN_STEP_Q44;
                    end else begin
                      lq = lq_prev + {{ '{' }}{(LPW-1){1'b0}}, 1'b1};
                    end
                  end
{%- endif %}
                  st = S_LOCKED;
                end else begin
                  st = S_ACTIVE;
                end
              end
              if (decide) begin
                sv = 1'b1; sc = SCHED_CNT; sg = d_giveup;
                if (!d_giveup) begin
                  d_class = (d_role == d_dir) ? 2'd1 : 2'd2;
                  sdamp = DAMP_ON_REVERSAL != 0 && ld != 2'd0 && ld != d_class;
                  ld = d_class;
                  srole = d_role; sdir = d_dir;
{%- if lock_probe > 0 %}
                  sprobe = d_probe;
{%- endif %}
                  stgt = d_role ? cm : pm;
                  sfbt = d_role ? pm : cm;
                  // the magnitude: a constant step, or the division (0xff at once for
                  // 16.0 or more and for R_C = 0)
                  div_load = !d_div; div_load_ratio = d_ratio;
                  div_start = d_div;
                end
              end
            end
          end
        end
        default: ;
      endcase

      // (5) the delayed decision: counted down, emitted at its edge
      if (sched_v_r) begin
        if (sc != {SW{1'b0}}) begin
          sc = sc - {{ '{' }}{(SW-1){1'b0}}, 1'b1};
        end else if (!rv) begin
          sv = 1'b0;
          if (sg) begin
            st = S_OFF;
            fv = 1'b0;
            if (thr != {ND{1'b0}}) begin
              rv = 1'b1; rtgt = thr; rrole = 1'b0; rdir = 1'b0; rrat = 8'd0; rrest = 1'b1;
              thr = {ND{1'b0}};
            end
          end else begin
            fin = sdamp ? 8'h10 + ((sched_ratio - 8'h10) >> 1) : sched_ratio;
            rv = 1'b1; rtgt = stgt; rrole = srole; rdir = sdir; rrat = fin; rrest = 1'b0;
{%- if lock_probe > 0 %}
            fv = !sprobe; ftgt = sfbt; frole = !srole; fdir = !sdir; frat = fin;
{%- else %}
            fv = 1'b1; ftgt = sfbt; frole = !srole; fdir = !sdir; frat = fin;
{%- endif %}
            itgt = stgt;
            st = S_PENDING;
            pt = {PT{1'b0}};
          end
        end
      end
    end
  end

  always @(posedge clk_i) begin
    if (rst_i || kend_fire) begin
      // reset, or kernel end: DISABLED with everything cleared; at kernel end the
      // request register gets RESTORE(throttled), keeps an unaccepted RESTORE, or empties
      state_r <= S_DISABLED;
      produced_r <= {W{1'b0}}; consumed_r <= {W{1'b0}}; spilled_r <= {W{1'b0}};
      cyc_p_r <= {W{1'b0}}; cyc_c_r <= {W{1'b0}}; q_r <= {W{1'b0}}; q_max_r <= {W{1'b0}};
      qmax_valid_r <= 1'b0;
      prod_mask_r <= {ND{1'b0}}; cons_mask_r <= {ND{1'b0}}; throttled_r <= {ND{1'b0}};
      eval_t_r <= {ET{1'b0}}; win_t_r <= {WT{1'b0}}; det_t_r <= {DT{1'b0}}; pend_t_r <= {PT{1'b0}};
      lowq_streak_r <= 2'd0; giveup_streak_r <= 2'd0; last_dir_r <= 2'd0;
      tot_p_seen_r <= 1'b0; tot_c_seen_r <= 1'b0; force_eval_r <= 1'b0;
{%- if lock_probe > 0 %}
      lock_quiet_r <= {LPW{1'b0}}; sched_probe_r <= 1'b0;
{%- endif %}
      sched_v_r <= 1'b0; sched_giveup_r <= 1'b0; sched_role_r <= 1'b0; sched_dir_r <= 1'b0; sched_damp_r <= 1'b0;
      sched_cnt_r <= {SW{1'b0}}; sched_target_r <= {ND{1'b0}}; sched_fb_target_r <= {ND{1'b0}};
      fb_v_r <= 1'b0; fb_role_r <= 1'b0; fb_dir_r <= 1'b0; fb_target_r <= {ND{1'b0}}; fb_ratio_r <= 8'd0;
      issued_target_r <= {ND{1'b0}};
      if (!rst_i && throttled_r != {ND{1'b0}}) begin
        req_v_r <= 1'b1; req_target_r <= throttled_r; req_role_r <= 1'b0; req_dir_r <= 1'b0; req_ratio_r <= 8'd0; req_restore_r <= 1'b1;
      end else if (!rst_i && rv && rrest) begin
        req_v_r <= rv; req_target_r <= rtgt; req_role_r <= rrole; req_dir_r <= rdir; req_ratio_r <= rrat; req_restore_r <= rrest;
      end else begin
        req_v_r <= 1'b0; req_target_r <= {ND{1'b0}}; req_role_r <= 1'b0; req_dir_r <= 1'b0; req_ratio_r <= 8'd0; req_restore_r <= 1'b0;
      end
    end else begin
      state_r <= st;
      produced_r <= prod; consumed_r <= cons; spilled_r <= spil; cyc_p_r <= cp; cyc_c_r <= cc; q_r <= q; q_max_r <= qm;
      qmax_valid_r <= qv;
      prod_mask_r <= pm; cons_mask_r <= cm; throttled_r <= thr;
      eval_t_r <= et; win_t_r <= wt; det_t_r <= dt; pend_t_r <= pt;
      lowq_streak_r <= lows; giveup_streak_r <= gus; last_dir_r <= ld;
      tot_p_seen_r <= tps; tot_c_seen_r <= tcs; force_eval_r <= fe;
{%- if lock_probe > 0 %}
      lock_quiet_r <= lq; sched_probe_r <= sprobe;
{%- endif %}
      sched_v_r <= sv; sched_giveup_r <= sg; sched_role_r <= srole; sched_dir_r <= sdir; sched_damp_r <= sdamp;
      sched_cnt_r <= sc; sched_target_r <= stgt; sched_fb_target_r <= sfbt;
      fb_v_r <= fv; fb_role_r <= frole; fb_dir_r <= fdir; fb_target_r <= ftgt; fb_ratio_r <= frat;
      issued_target_r <= itgt;
      req_v_r <= rv; req_target_r <= rtgt; req_role_r <= rrole; req_dir_r <= rdir; req_ratio_r <= rrat; req_restore_r <= rrest;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, rsp_dom_i};  // the first response answers a multicast request
  /* verilator lint_on UNUSEDSIGNAL */

  assign req_v_o = req_v_r;
  assign req_target_o = req_target_r;
  assign req_role_o = req_role_r;
  assign req_dir_o = req_dir_r;
  assign req_ratio_q44_o = req_ratio_r;
  assign req_restore_o = req_restore_r;
  assign state_o = state_r;
  assign produced_o = produced_r;
  assign consumed_o = consumed_r;
  assign spilled_o = spilled_r;
  assign cyc_p_o = cyc_p_r;
  assign cyc_c_o = cyc_c_r;
  assign q_o = q_r;
  assign q_max_o = q_max_r;
  assign qmax_valid_o = qmax_valid_r;
  assign prod_mask_o = prod_mask_r;
  assign cons_mask_o = cons_mask_r;
  assign throttled_o = throttled_r;
endmodule
