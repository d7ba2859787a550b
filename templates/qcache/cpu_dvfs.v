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
  wire [15:0]   cur_w = done ? fl_mhz_r : mhz_r;
  wire          fl_after = fl_v_r && !done;

  // ---- the closest P-state in the requested direction ----
  {% include "qcache/dvfs_chain.v" %}

  // ---- request ----
  wire        nack   = req_v_i && !req_restore_i && (fl_after || !bv[NC]);
  wire        accept = req_v_i && !nack;
  wire [2:0]  to_pst = req_restore_i ? NOMINAL : bp[NC];
  wire [15:0] to_mhz = req_restore_i ? NOMINAL_MHZ : bs[NC];
  wire [2:0]  steps  = (to_pst > cur_pst) ? to_pst - cur_pst : cur_pst - to_pst;
  {% include "qcache/dvfs_latency.v" %}

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
      mhz_r <= cur_w;
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
