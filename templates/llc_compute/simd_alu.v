module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // {{ lanes }} lanes of {{ lane_mod }}; results of an accepted op wait in a {{ lat }}-stage shift
  // register (valid, result vector, bitmap); inactive lanes give 0.
{%- if fdiv %}
  // FDIV (op 11, not a compare) takes the divider instead: its result waits {{ fdiv_lat }} cycles
  // in div_res_r while div_busy_r counts down; in_ready_o is low while it counts.
{%- endif %}
  localparam integer L = {{ lanes }};
  localparam integer LAT = {{ lat }};
  localparam integer W = L * 32;

  wire [W-1:0] lane_res;
  wire [L-1:0] lane_bit;
  genvar k;
  generate
    for (k = 0; k < L; k = k + 1) begin : g_lane
      wire [31:0] r;
      wire c;
      {{ lane_mod }} u_lane (
        .op_i(op_i),
        .dtype_i(dtype_i),
        .a_i(a_i[k*32 +: 32]),
        .b_i(b_i[k*32 +: 32]),
        .res_o(r),
        .bit_o(c)
      );
      assign lane_res[k*32 +: 32] = (mask_i[k] && !cmp_i) ? r : 32'd0;
      assign lane_bit[k] = mask_i[k] && cmp_i && c;
    end
  endgenerate

{%- if fdiv %}
  reg [{{ div_w - 1 }}:0] div_busy_r;
  reg [W-1:0] div_res_r;
  wire is_div = !cmp_i && op_i == 4'd11;
  assign in_ready_o = div_busy_r == {{ div_w }}'d0;
{%- else %}
  wire is_div = 1'b0;
  assign in_ready_o = 1'b1;
{%- endif %}
  wire take = in_valid_i && in_ready_o;

  reg [LAT-1:0] v_r;
  reg [LAT*W-1:0] res_r;
  reg [LAT*L-1:0] bm_r;
  integer s;
  always @(posedge clk_i) begin
    if (rst_i) begin
      v_r <= {LAT{1'b0}};
    end else begin
      v_r[0] <= take && !is_div;
      for (s = 1; s < LAT; s = s + 1) v_r[s] <= v_r[s-1];
    end
    res_r[0 +: W] <= lane_res;
    bm_r[0 +: L] <= lane_bit;
    for (s = 1; s < LAT; s = s + 1) begin
      res_r[s*W +: W] <= res_r[(s-1)*W +: W];
      bm_r[s*L +: L] <= bm_r[(s-1)*L +: L];
    end
  end
{%- if fdiv %}
  always @(posedge clk_i) begin
    if (rst_i) div_busy_r <= {{ div_w }}'d0;
    else if (take && is_div) div_busy_r <= {{ div_w }}'d{{ fdiv_lat }};
    else if (div_busy_r != {{ div_w }}'d0) div_busy_r <= div_busy_r - {{ div_w }}'d1;
    if (take && is_div) div_res_r <= lane_res;
  end
  // the pipeline's result goes first (in a collision it is the older op; the divide's is lost, as in the golden model)
  wire div_done = div_busy_r == {{ div_w }}'d1;
  assign out_valid_o = v_r[LAT-1] || div_done;
  assign res_o = v_r[LAT-1] ? res_r[(LAT-1)*W +: W] : div_done ? div_res_r : {W{1'b0}};
  assign bitmap_o = v_r[LAT-1] ? bm_r[(LAT-1)*L +: L] : {L{1'b0}};
{%- else %}
  assign out_valid_o = v_r[LAT-1];
  assign res_o = v_r[LAT-1] ? res_r[(LAT-1)*W +: W] : {W{1'b0}};
  assign bitmap_o = v_r[LAT-1] ? bm_r[(LAT-1)*L +: L] : {L{1'b0}};
{%- endif %}
endmodule
