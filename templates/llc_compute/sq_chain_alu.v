module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // A reading of golden::llc_compute::lane_op::chain_result (spec 2.2), lane by lane with
  // two {{ lane_mod }}s: the first computes op0 on (x, y) for patterns 1, 2, 5, on (x, imm)
  // for 4, 6, 7 and on (y, imm) for 8, 9; the second op1 on (x, first) for 8, 9. Pattern 3
  // copies x. Inactive lanes and patterns outside 1..9 give 0.
  localparam integer L = {{ lanes }};
  wire p12 = pattern_i == 4'd1 || pattern_i == 4'd2;
  wire p47 = pattern_i == 4'd4 || pattern_i == 4'd7;
  wire p89 = pattern_i == 4'd8 || pattern_i == 4'd9;
  wire pcmp = pattern_i == 4'd5 || pattern_i == 4'd6;
  wire imm_b = p47 || p89 || pattern_i == 4'd6;
  genvar k;
  generate
    for (k = 0; k < L; k = k + 1) begin : g_lane
      wire [31:0] x = a_i[k*32 +: 32];
      wire [31:0] y = b_i[k*32 +: 32];
      wire [31:0] r0, r1;
      wire c0;
      /* verilator lint_off UNUSEDSIGNAL */
      wire c1;                 // the second op is never a compare
      /* verilator lint_on UNUSEDSIGNAL */
      {{ lane_mod }} u_op0 (
        .op_i(op0_i),
        .dtype_i(dtype_i),
        .a_i(p89 ? y : x),
        .b_i(imm_b ? imm_i : y),
        .res_o(r0),
        .bit_o(c0)
      );
      {{ lane_mod }} u_op1 (
        .op_i(op1_i),
        .dtype_i(dtype_i),
        .a_i(x),
        .b_i(r0),
        .res_o(r1),
        .bit_o(c1)
      );
      assign res_o[k*32 +: 32] = !mask_i[k] ? 32'd0 : (p12 || p47) ? r0 : p89 ? r1 : pattern_i == 4'd3 ? x : 32'd0;
      assign bitmap_o[k] = mask_i[k] && pcmp && c0;
    end
  endgenerate
endmodule
