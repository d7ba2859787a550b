module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // Q-cache GPU actuator (spec qcache.md 1.8, 5) for {{ n }} cores, cycle-exact with
  // golden::qcache::actuator::QcGpuActuator: `settle` (the countdown, the drain) then
  // `request` (RESTORE, NACK while reconfiguring or at the limit, else the closest
  // setting: {{ scale_mod }} once, {{ pick_mod }} per (cores, P-state) pair, fewer cores first).
  localparam N  = {{ n }};   // GPU cores
  localparam LW = {{ lw }};  // transition countdown width
  localparam [LW-1:0] ONE = {{ lw }}'d1;
  localparam [N-1:0]  ALL   = {N{1'b1}};
  localparam [15:0]   ALL16 = 16'h{{ all16 }};
  localparam [2:0]    TOP   = 3'd{{ top_pst }};        // the nominal (highest) P-state
  localparam [15:0]   NOMINAL_PROXY = 16'd{{ nominal_proxy }};  // N x {{ top_mhz }} MHz

  reg [N-1:0]  active_r, dispatch_r;
  reg [2:0]    pst_r, fl_pst_r;
  reg [15:0]   proxy_r, fl_proxy_r;
  reg          fl_v_r, rsp_v_r, rsp_ack_r;
  reg [LW-1:0] left_r;

  // ---- settle: one cycle of the reconfiguration under way ----
  wire [LW-1:0] left_dec = (left_r == {LW{1'b0}}) ? {LW{1'b0}} : left_r - ONE;
  wire          drained  = (core_busy_i & ~dispatch_r) == {N{1'b0}};
  wire          done     = fl_v_r && left_dec == {LW{1'b0}} && drained;
  wire [2:0]    cur_pst   = done ? fl_pst_r : pst_r;
  wire [15:0]   cur_proxy = done ? fl_proxy_r : proxy_r;
  wire          fl_after  = fl_v_r && !done;

  // ---- the closest setting in the requested direction ----
  wire [15:0] r_w;
  wire [31:0] cur16_w, curr_w;
  {{ scale_mod }} scale (.cur_i(cur_proxy), .ratio_i(req_ratio_q44_i), .r_o(r_w), .cur16_o(cur16_w), .curr_o(curr_w));

  // f*r, one product per P-state; a candidate's s*r is the same P-state's with one core fewer plus f*r
  wire [31:0] fr [0:{{ psts.len() - 1 }}];
{%- for q in psts %}
  {{ mul_mod }} mul_fr_{{ q.p }} (.a_i(16'd{{ q.mhz }}), .b_i(r_w), .p_o(fr[{{ q.p }}]));
{%- endfor %}

  localparam NC = {{ ncand }};
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] sr [0:NC-1];  // s*r of every candidate; the most cores' ends its P-state's chain
  /* verilator lint_on UNUSEDSIGNAL */
  wire        bv [0:NC];
  wire [31:0] bd [0:NC];
  wire [15:0] bs [0:NC];
  wire [15:0] bm [0:NC];
  wire [2:0]  bp [0:NC];
  assign bv[0] = 1'b0;
  assign bd[0] = 32'd0;
  assign bs[0] = 16'd0;
  assign bm[0] = 16'd0;
  assign bp[0] = 3'd0;
{%- for c in cands %}
  {{ pick_mod }} pick_{{ loop.index0 }} (  // {{ c.cores }} cores x {{ c.mhz }} MHz
    .s_i(16'd{{ c.s }}), .s16_i(32'd{{ c.s16 }}), .fr_i(fr[{{ c.p }}]), .sr_prev_i({{ c.sr_prev }}), .sr_o(sr[{{ loop.index0 }}]), .mask_i(16'h{{ c.mask }}), .p_i(3'd{{ c.p }}),
    .cur_i(cur_proxy), .cur16_i(cur16_w), .curr_i(curr_w), .speed_i(req_dir_i),
    .bv_i(bv[{{ loop.index0 }}]), .bd_i(bd[{{ loop.index0 }}]), .bs_i(bs[{{ loop.index0 }}]), .bm_i(bm[{{ loop.index0 }}]), .bp_i(bp[{{ loop.index0 }}]),
    .bv_o(bv[{{ loop.index }}]), .bd_o(bd[{{ loop.index }}]), .bs_o(bs[{{ loop.index }}]), .bm_o(bm[{{ loop.index }}]), .bp_o(bp[{{ loop.index }}]));
{%- endfor %}

  // ---- request: RESTORE replaces a reconfiguration; otherwise NACK while one is under way or at the limit ----
  wire        nack   = req_v_i && !req_restore_i && (fl_after || !bv[NC]);
  wire        accept = req_v_i && !nack;
  wire [2:0]  to_pst   = req_restore_i ? TOP : bp[NC];
  wire [15:0] to_proxy = req_restore_i ? NOMINAL_PROXY : bs[NC];
  wire [15:0] to_mask  = req_restore_i ? ALL16 : bm[NC];
  wire [2:0]  steps    = (to_pst > cur_pst) ? to_pst - cur_pst : cur_pst - to_pst;
  reg  [LW-1:0] lat;
  always @(*) begin
    case (steps)
{%- for l in lat %}
      3'd{{ loop.index0 }}: lat = {{ lw }}'d{{ l }};
{%- endfor %}
      default: lat = {LW{1'b0}};
    endcase
  end

  always @(posedge clk_i) begin
    if (rst_i) begin
      active_r   <= ALL;
      dispatch_r <= ALL;
      pst_r      <= TOP;
      proxy_r    <= NOMINAL_PROXY;
      fl_v_r     <= 1'b0;
      fl_pst_r   <= 3'd0;
      fl_proxy_r <= 16'd0;
      left_r     <= {LW{1'b0}};
      rsp_v_r    <= 1'b0;
      rsp_ack_r  <= 1'b0;
    end else begin
      pst_r   <= cur_pst;
      proxy_r <= cur_proxy;
      if (done) active_r <= dispatch_r;
      if (accept) begin
        fl_v_r     <= 1'b1;
        fl_pst_r   <= to_pst;
        fl_proxy_r <= to_proxy;
        left_r     <= lat;
        dispatch_r <= to_mask[N-1:0];
      end else begin
        fl_v_r <= fl_after;
        left_r <= left_dec;
      end
      rsp_v_r   <= nack || done;
      rsp_ack_r <= !nack && done;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, bd[NC], to_mask};  // the best distance ends the chain; mask bits above N
  /* verilator lint_on UNUSEDSIGNAL */

  assign rsp_v_o = rsp_v_r;
  assign rsp_ack_o = rsp_ack_r;
  assign busy_o = fl_v_r;
  assign pstate_o = pst_r;
  assign dispatch_o = dispatch_r;
  assign active_core_mask_o = active_r;
endmodule
