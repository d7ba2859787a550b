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
  wire [15:0]   cur_w = done ? fl_proxy_r : proxy_r;
  wire          fl_after  = fl_v_r && !done;

  // ---- the closest setting in the requested direction ----
  {% include "qcache/dvfs_chain.v" %}

  // ---- request: RESTORE replaces a reconfiguration; otherwise NACK while one is under way or at the limit ----
  wire        nack   = req_v_i && !req_restore_i && (fl_after || !bv[NC]);
  wire        accept = req_v_i && !nack;
  wire [2:0]  to_pst   = req_restore_i ? TOP : bp[NC];
  wire [15:0] to_proxy = req_restore_i ? NOMINAL_PROXY : bs[NC];
  wire [15:0] to_mask  = req_restore_i ? ALL16 : bm[NC];
  wire [2:0]  steps    = (to_pst > cur_pst) ? to_pst - cur_pst : cur_pst - to_pst;
  {% include "qcache/dvfs_latency.v" %}

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
      proxy_r <= cur_w;
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
