module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // Q-cache CPU DVFS of one CPU core (spec qcache.md 1.8, 5), cycle-exact with
  // golden::qcache::actuator::QcCpuDvfs: `settle` (the countdown) then `request`
  // (RESTORE to the nominal P-state, NACK while a transition is under way or at the
  // limit, else the closest P-state in the requested direction: {{ scale_mod }} once,
  // {{ pick_mod }} per P-state, the lower first).
  localparam LW = {{ lw }};  // transition countdown width
  localparam [LW-1:0] ONE = {{ lw }}'d1;
  localparam [2:0]  NOMINAL     = 3'd{{ nominal }};
  localparam [15:0] NOMINAL_MHZ = 16'd{{ nominal_mhz }};

  reg [2:0]    pst_r, fl_pst_r;
  reg [15:0]   mhz_r, fl_mhz_r;
  reg          fl_v_r, rsp_v_r, rsp_ack_r;
  reg [LW-1:0] left_r;

  // ---- settle: one cycle of the transition under way ----
  wire [LW-1:0] left_dec = (left_r == {LW{1'b0}}) ? {LW{1'b0}} : left_r - ONE;
  wire          done    = fl_v_r && left_dec == {LW{1'b0}};
  wire [2:0]    cur_pst = done ? fl_pst_r : pst_r;
  wire [15:0]   cur_mhz = done ? fl_mhz_r : mhz_r;
  wire          fl_after = fl_v_r && !done;

  // ---- the closest P-state in the requested direction ----
  wire [15:0] r_w;
  wire [31:0] cur16_w, curr_w;
  {{ scale_mod }} scale (.cur_i(cur_mhz), .ratio_i(req_ratio_q44_i), .r_o(r_w), .cur16_o(cur16_w), .curr_o(curr_w));

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
  {{ pick_mod }} pick_{{ loop.index0 }} (  // {{ c.mhz }} MHz
    .s_i(16'd{{ c.s }}), .s16_i(32'd{{ c.s16 }}), .fr_i(fr[{{ c.p }}]), .sr_prev_i({{ c.sr_prev }}), .sr_o(sr[{{ loop.index0 }}]), .mask_i(16'h{{ c.mask }}), .p_i(3'd{{ c.p }}),
    .cur_i(cur_mhz), .cur16_i(cur16_w), .curr_i(curr_w), .speed_i(req_dir_i),
    .bv_i(bv[{{ loop.index0 }}]), .bd_i(bd[{{ loop.index0 }}]), .bs_i(bs[{{ loop.index0 }}]), .bm_i(bm[{{ loop.index0 }}]), .bp_i(bp[{{ loop.index0 }}]),
    .bv_o(bv[{{ loop.index }}]), .bd_o(bd[{{ loop.index }}]), .bs_o(bs[{{ loop.index }}]), .bm_o(bm[{{ loop.index }}]), .bp_o(bp[{{ loop.index }}]));
{%- endfor %}

  // ---- request ----
  wire        nack   = req_v_i && !req_restore_i && (fl_after || !bv[NC]);
  wire        accept = req_v_i && !nack;
  wire [2:0]  to_pst = req_restore_i ? NOMINAL : bp[NC];
  wire [15:0] to_mhz = req_restore_i ? NOMINAL_MHZ : bs[NC];
  wire [2:0]  steps  = (to_pst > cur_pst) ? to_pst - cur_pst : cur_pst - to_pst;
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
      pst_r     <= NOMINAL;
      mhz_r     <= NOMINAL_MHZ;
      fl_v_r    <= 1'b0;
      fl_pst_r  <= 3'd0;
      fl_mhz_r  <= 16'd0;
      left_r    <= {LW{1'b0}};
      rsp_v_r   <= 1'b0;
      rsp_ack_r <= 1'b0;
    end else begin
      pst_r <= cur_pst;
      mhz_r <= cur_mhz;
      if (accept) begin
        fl_v_r   <= 1'b1;
        fl_pst_r <= to_pst;
        fl_mhz_r <= to_mhz;
        left_r   <= lat;
      end else begin
        fl_v_r <= fl_after;
        left_r <= left_dec;
      end
      rsp_v_r   <= nack || done;
      rsp_ack_r <= !nack && done;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, bd[NC], bm[NC]};  // the best distance ends the chain; no core masks here
  /* verilator lint_on UNUSEDSIGNAL */

  assign rsp_v_o = rsp_v_r;
  assign rsp_ack_o = rsp_ack_r;
  assign busy_o = fl_v_r;
  assign pstate_o = pst_r;
endmodule
