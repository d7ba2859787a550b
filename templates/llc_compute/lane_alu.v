module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // One lane of the 32-bit ALU (spec 2.3 opcodes, golden::llc_compute::lane_op::{alu, cmp}):
  //   0 IADD 1 ISUB 2 IMUL(low) 3 IMIN 4 IMAX 5 AND 6 OR 7 XOR 8 FADD 9 FSUB 10 FMUL 11 FDIV
  //   12 FMIN 13 FMAX 14 unary by b[3:0] (1 INEG 2 IABS 3 FNEG 4 FABS 5 I2F 6 F2I, else MOV) 15 -> 0;
  //   compares 0 EQ 1 NE 2 LT 3 LE 4 GT 5 GE (signed int, or IEEE ordered fp: NaN is unordered).
  // FP: IEEE 754 binary32, round to nearest even, subnormals kept; NaN results as x86 SSE
  // gives them (the first NaN operand, quieted; an invalid op 0xffc00000); FMIN/FMAX as
  // LLVM's minnum/maxnum on x86 (a NaN a gives b; equal operands give a); F2I truncates and
  // saturates, NaN -> 0.
  // Datapath: one adder serves FADD and FSUB, and every FP result that needs rounding (FADD,
  // FSUB, FMUL, FDIV, I2F) goes through one normalize-and-round unit (`pack`, a leading-zero
  // count by a six-level priority encoder and a shifter). The ops' front ends only produce
  // the sign, exponent and significand it rounds, or a special result that bypasses it.
  localparam [31:0] QNAN = 32'hffc00000;

  // the classifiers and field extractors ignore the sign bit (and expo the fraction)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic is_nan(input [31:0] x);
    is_nan = x[30:23] == 8'hff && x[22:0] != 23'd0;
  endfunction

  function automatic is_inf(input [31:0] x);
    is_inf = x[30:23] == 8'hff && x[22:0] == 23'd0;
  endfunction

  function automatic is_zero(input [31:0] x);
    is_zero = x[30:0] == 31'd0;
  endfunction

  // the propagated NaN of a two-operand op: a's if a is NaN, else b's, quieted
  /* verilator lint_on UNUSEDSIGNAL */
  function automatic [31:0] nan2(input [31:0] a, input [31:0] b);
    nan2 = is_nan(a) ? (a | 32'h00400000) : (b | 32'h00400000);
  endfunction

  // leading zeros of a 64-bit word (64 for 0): a six-level priority encoder, each level
  // testing the upper half of what the levels above left
  function automatic [6:0] clz64(input [63:0] m);
    reg [63:0] x;
    reg [5:0] n;
    begin
      x = m;
      n[5] = x[63:32] == 32'd0;
      if (n[5]) x = {x[31:0], 32'd0};
      n[4] = x[63:48] == 16'd0;
      if (n[4]) x = {x[47:0], 16'd0};
      n[3] = x[63:56] == 8'd0;
      if (n[3]) x = {x[55:0], 8'd0};
      n[2] = x[63:60] == 4'd0;
      if (n[2]) x = {x[59:0], 4'd0};
      n[1] = x[63:62] == 2'd0;
      if (n[1]) x = {x[61:0], 2'd0};
      n[0] = !x[63];
      clz64 = m == 64'd0 ? 7'd64 : {1'b0, n};
    end
  endfunction

  // Round (nearest even) and pack sign s, m != 0 with bit 62 of weight 2^(e-127).
  function automatic [31:0] pack(input s, input signed [12:0] e, input [63:0] m);
    reg [6:0] lz;
    reg [63:0] n;
    reg signed [12:0] x;
    reg [12:0] sh;
    reg sub;
    reg [24:0] r;
    reg g, st;
    begin
      lz = clz64(m);
      n = m << lz;
      x = e + 13'sd1 - $signed({6'd0, lz});
      sub = x <= 13'sd0;
      if (sub) begin
        sh = 13'd1 - x;
        if (sh >= 13'd64) n = {63'd0, |n};
        else n = (n >> sh[5:0]) | {63'd0, |(n & ~({64{1'b1}} << sh[5:0]))};
      end
      g = n[39];
      st = |n[38:0];
      r = {1'b0, n[63:40]} + {24'd0, g & (st | n[40])};
      if (sub) pack = {s, 7'd0, r[23], r[22:0]};
      else begin
        if (r[24]) begin
          r = r >> 1;
          x = x + 13'sd1;
        end
        if (x >= 13'sd255) pack = {s, 8'hff, 23'd0};
        else pack = {s, x[7:0], r[22:0]};
      end
    end
  endfunction

  // significand with the hidden bit, and the exponent a subnormal counts as (1)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [23:0] sig(input [31:0] x);
    sig = {x[30:23] != 8'd0, x[22:0]};
  endfunction

  function automatic [7:0] expo(input [31:0] x);
    expo = x[30:23] == 8'd0 ? 8'd1 : x[30:23];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  function automatic [31:0] f2i(input [31:0] a);
    reg [7:0] e;
    reg [31:0] mag;
    begin
      e = a[30:23];
      if (is_nan(a)) f2i = 32'd0;
      else if (e >= 8'd158) f2i = a[31] ? 32'h80000000 : 32'h7fffffff;
      else if (e < 8'd127) f2i = 32'd0;
      else begin
        mag = e >= 8'd150 ? ({8'd0, sig(a)} << (e - 8'd150)) : ({8'd0, sig(a)} >> (8'd150 - e));
        f2i = a[31] ? (~mag + 32'd1) : mag;
      end
    end
  endfunction

  // ordered compare key: a larger key is a larger number (+0 and -0 differ, handled apart)
  function automatic [31:0] key(input [31:0] x);
    key = x[31] ? ~x : (x | 32'h80000000);
  endfunction

  function automatic fless(input [31:0] a, input [31:0] b);
    fless = !(is_zero(a) && is_zero(b)) && key(a) < key(b);
  endfunction

  function automatic [31:0] fminmax(input [31:0] a, input [31:0] b, input is_max);
    if (is_nan(a)) fminmax = b;
    else if (is_nan(b)) fminmax = a;
    else if (is_max ? fless(a, b) : fless(b, a)) fminmax = b;
    else fminmax = a;
  endfunction

  wire [31:0] a = a_i;
  wire [31:0] b = b_i;
  wire sa = a[31], sb = b[31];
  wire unord = is_nan(a) || is_nan(b);
  wire f_eq = !unord && (a == b || (is_zero(a) && is_zero(b)));
  wire f_lt = !unord && fless(a, b);
  wire i_eq = a == b;
  wire i_lt = (sa != sb) ? sa : (a < b);
  wire eq = dtype_i ? f_eq : i_eq;
  wire lt = dtype_i ? f_lt : i_lt;
  wire gt = dtype_i ? (!unord && !f_eq && !f_lt) : (!i_eq && !i_lt);
  reg [31:0] r;
  reg c;
  // the rounding unit's operands: rnd selects it, rs / re / rm as `pack` takes them
  reg rnd;
  reg rs;
  reg signed [12:0] re;
  reg [63:0] rm;
  // FADD / FSUB: b with FSUB's sign flip, the larger and smaller magnitude, the exponent
  // difference, the aligned significands (3 guard bits), the sticky bit and the sum
  reg [31:0] fb, big, sml;
  reg [7:0] d;
  reg [26:0] mb, ms;
  reg [27:0] sum;
  reg stk;
  // FDIV: the significands normalized to a leading 1 at bit 23 (la, lb: their shifts), the
  // dividend and the quotient; I2F: the magnitude
  reg [6:0] la, lb;
  reg [23:0] na, nb;
  reg [49:0] num, q;
  reg [31:0] mag;
  always @(*) begin
    r = 32'd0;
    rnd = 1'b0;
    rs = 1'b0;
    re = 13'sd0;
    rm = 64'd0;
    fb = 32'd0;
    big = 32'd0;
    sml = 32'd0;
    d = 8'd0;
    mb = 27'd0;
    ms = 27'd0;
    sum = 28'd0;
    stk = 1'b0;
    la = 7'd0;
    lb = 7'd0;
    na = 24'd0;
    nb = 24'd0;
    num = 50'd0;
    q = 50'd0;
    mag = 32'd0;
    case (op_i)
      4'd0: r = a + b;
      4'd1: r = a - b;
      4'd2: r = a * b;
      4'd3: r = ((sa != sb) ? sa : (a < b)) ? a : b;
      4'd4: r = ((sa != sb) ? sa : (a < b)) ? b : a;
      4'd5: r = a & b;
      4'd6: r = a | b;
      4'd7: r = a ^ b;
      4'd8, 4'd9: begin
        fb = {sb ^ op_i[0], b[30:0]};
        if (unord) r = nan2(a, b);
        else if (is_inf(a) && is_inf(fb) && sa != fb[31]) r = QNAN;
        else if (is_inf(a)) r = a;
        else if (is_inf(fb)) r = fb;
        else if (is_zero(a) && is_zero(fb)) r = {sa & fb[31], 31'd0};
        else begin
          if (a[30:0] >= fb[30:0]) begin
            big = a;
            sml = fb;
          end else begin
            big = fb;
            sml = a;
          end
          d = expo(big) - expo(sml);
          mb = {sig(big), 3'd0};
          if (d >= 8'd27) begin
            ms = 27'd0;
            stk = sig(sml) != 24'd0;
          end else begin
            ms = {sig(sml), 3'd0} >> d[4:0];
            stk = |({sig(sml), 3'd0} & ~({27{1'b1}} << d[4:0]));
          end
          ms = ms | {26'd0, stk};
          if (big[31] == sml[31]) sum = {1'b0, mb} + {1'b0, ms};
          else sum = {1'b0, mb} - {1'b0, ms};
          // an exact cancellation gives +0 (r stays 0)
          if (sum != 28'd0) begin
            rnd = 1'b1;
            rs = big[31];
            re = $signed({5'd0, expo(big)});
            rm = {sum, 36'd0};
          end
        end
      end
      4'd10: begin
        if (unord) r = nan2(a, b);
        else if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) r = QNAN;
        else if (is_inf(a) || is_inf(b)) r = {sa ^ sb, 8'hff, 23'd0};
        else if (is_zero(a) || is_zero(b)) r = {sa ^ sb, 31'd0};
        else begin
          rnd = 1'b1;
          rs = sa ^ sb;
          re = $signed({5'd0, expo(a)}) + $signed({5'd0, expo(b)}) - 13'sd127;
          rm = {{ '{' }}{24'd0, sig(a)} * {24'd0, sig(b)}, 16'd0};
        end
      end
      4'd11: begin
        if (unord) r = nan2(a, b);
        else if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) r = QNAN;
        else if (is_inf(a) || is_zero(b)) r = {sa ^ sb, 8'hff, 23'd0};
        else if (is_zero(a) || is_inf(b)) r = {sa ^ sb, 31'd0};
        else begin
          la = clz64({40'd0, sig(a)}) - 7'd40;
          lb = clz64({40'd0, sig(b)}) - 7'd40;
          na = sig(a) << la;
          nb = sig(b) << lb;
          num = {na, 26'd0};
          q = num / {26'd0, nb};
          // quotient bit 26 weighs 2^(ea - eb); the remainder is the sticky bit
          rnd = 1'b1;
          rs = sa ^ sb;
          re = $signed({5'd0, expo(a)}) - $signed({6'd0, la}) - $signed({5'd0, expo(b)}) + $signed({6'd0, lb}) + 13'sd127;
          rm = {q[27:0], num != q * {26'd0, nb}, 35'd0};
        end
      end
      4'd12: r = fminmax(a, b, 1'b0);
      4'd13: r = fminmax(a, b, 1'b1);
      4'd14:
        case (b[3:0])
          4'd1: r = ~a + 32'd1;
          4'd2: r = sa ? (~a + 32'd1) : a;
          4'd3: r = {~sa, a[30:0]};
          4'd4: r = {1'b0, a[30:0]};
          4'd5: begin
            // I2F: zero stays +0
            mag = sa ? (~a + 32'd1) : a;
            if (a != 32'd0) begin
              rnd = 1'b1;
              rs = sa;
              re = 13'sd189;
              rm = {32'd0, mag};
            end
          end
          4'd6: r = f2i(a);
          default: r = a;
        endcase
      default: r = 32'd0;
    endcase
    if (rnd) r = pack(rs, re, rm);
    case (op_i)
      4'd0: c = eq;
      4'd1: c = !eq;
      4'd2: c = lt;
      4'd3: c = lt || eq;
      4'd4: c = gt;
      4'd5: c = gt || eq;
      default: c = 1'b0;
    endcase
  end
  assign res_o = r;
  assign bit_o = c;
endmodule
