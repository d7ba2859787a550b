module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // {{ n_out }} outputs ({{ outs }}); the output a packet in progress is locked to is the only state.
  reg          lock_v_r;
  reg [{{ ow - 1 }}:0] lock_r;
  wire [1:0]   sink = in_flit_i[{{ sink_msb }}:{{ sink_lsb }}];
  wire [{{ ow - 1 }}:0] head_route = {{ route_expr }};
  wire [{{ ow - 1 }}:0] route = lock_v_r ? lock_r : head_route;
  assign out_flit_o = in_flit_i;
{%- for k in ks %}
  assign out_valid_o[{{ k }}] = in_valid_i && route == {{ ow }}'d{{ k }};
{%- endfor %}
  assign in_ready_o = {{ ready_expr }};
  always @(posedge clk_i) begin
    if (rst_i) begin
      lock_v_r <= 1'b0;
      lock_r <= {{ ow }}'d0;
    end else if (in_valid_i && in_ready_o) begin
      lock_v_r <= !in_tail_i;
      lock_r <= in_tail_i ? {{ ow }}'d0 : route;
    end
  end
  // the head marker is implied by the lock (a flit with no lock is a head)
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &{1'b0, in_head_i};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
