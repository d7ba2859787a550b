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

  // leading zeros of a 64-bit word (64 for 0)
  function automatic [6:0] clz64(input [63:0] m);
    integer k;
    reg found;
    begin
      clz64 = 7'd64;
      found = 1'b0;
      for (k = 63; k >= 0; k = k - 1) begin
        if (!found && m[k]) begin
          clz64 = 7'd63 - k[6:0];
          found = 1'b1;
        end
      end
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

  function automatic [31:0] fadd(input [31:0] a, input [31:0] b0, input neg_b);
    reg [31:0] b, big, sml;
    reg [7:0] d;
    reg [26:0] mb, ms;
    reg [27:0] r;
    reg stk;
    begin
      b = {b0[31] ^ neg_b, b0[30:0]};
      if (is_nan(a) || is_nan(b0)) fadd = nan2(a, b0);
      else if (is_inf(a) && is_inf(b) && a[31] != b[31]) fadd = QNAN;
      else if (is_inf(a)) fadd = a;
      else if (is_inf(b)) fadd = b;
      else if (is_zero(a) && is_zero(b)) fadd = {a[31] & b[31], 31'd0};
      else begin
        if (a[30:0] >= b[30:0]) begin
          big = a;
          sml = b;
        end else begin
          big = b;
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
        if (big[31] == sml[31]) r = {1'b0, mb} + {1'b0, ms};
        else r = {1'b0, mb} - {1'b0, ms};
        if (r == 28'd0) fadd = 32'd0;
        else fadd = pack(big[31], $signed({5'd0, expo(big)}), {r, 36'd0});
      end
    end
  endfunction

  function automatic [31:0] fmul(input [31:0] a, input [31:0] b);
    reg s;
    begin
      s = a[31] ^ b[31];
      if (is_nan(a) || is_nan(b)) fmul = nan2(a, b);
      else if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) fmul = QNAN;
      else if (is_inf(a) || is_inf(b)) fmul = {s, 8'hff, 23'd0};
      else if (is_zero(a) || is_zero(b)) fmul = {s, 31'd0};
      else fmul = pack(s, $signed({5'd0, expo(a)}) + $signed({5'd0, expo(b)}) - 13'sd127, {{ '{' }}{24'd0, sig(a)} * {24'd0, sig(b)}, 16'd0});
    end
  endfunction

  function automatic [31:0] fdiv(input [31:0] a, input [31:0] b);
    reg s;
    reg [6:0] la, lb;
    reg [23:0] ma, mb;
    reg [49:0] q, num;
    begin
      s = a[31] ^ b[31];
      if (is_nan(a) || is_nan(b)) fdiv = nan2(a, b);
      else if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) fdiv = QNAN;
      else if (is_inf(a) || is_zero(b)) fdiv = {s, 8'hff, 23'd0};
      else if (is_zero(a) || is_inf(b)) fdiv = {s, 31'd0};
      else begin
        // normalize both significands to a leading 1 at bit 23
        la = clz64({40'd0, sig(a)}) - 7'd40;
        lb = clz64({40'd0, sig(b)}) - 7'd40;
        ma = sig(a) << la;
        mb = sig(b) << lb;
        num = {ma, 26'd0};
        q = num / {26'd0, mb};
        // quotient bit 26 weighs 2^(ea - eb); the remainder is the sticky bit
        fdiv = pack(s, $signed({5'd0, expo(a)}) - $signed({6'd0, la}) - $signed({5'd0, expo(b)}) + $signed({6'd0, lb}) + 13'sd127,
                    {q[27:0], num != q * {26'd0, mb}, 35'd0});
      end
    end
  endfunction

  function automatic [31:0] i2f(input [31:0] a);
    reg [31:0] mag;
    begin
      mag = a[31] ? (~a + 32'd1) : a;
      if (a == 32'd0) i2f = 32'd0;
      else i2f = pack(a[31], 13'sd189, {32'd0, mag});
    end
  endfunction

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
  always @(*) begin
    case (op_i)
      4'd0: r = a + b;
      4'd1: r = a - b;
      4'd2: r = a * b;
      4'd3: r = ((sa != sb) ? sa : (a < b)) ? a : b;
      4'd4: r = ((sa != sb) ? sa : (a < b)) ? b : a;
      4'd5: r = a & b;
      4'd6: r = a | b;
      4'd7: r = a ^ b;
      4'd8: r = fadd(a, b, 1'b0);
      4'd9: r = fadd(a, b, 1'b1);
      4'd10: r = fmul(a, b);
      4'd11: r = fdiv(a, b);
      4'd12: r = fminmax(a, b, 1'b0);
      4'd13: r = fminmax(a, b, 1'b1);
      4'd14:
        case (b[3:0])
          4'd1: r = ~a + 32'd1;
          4'd2: r = sa ? (~a + 32'd1) : a;
          4'd3: r = {~sa, a[30:0]};
          4'd4: r = {1'b0, a[30:0]};
          4'd5: r = i2f(a);
          4'd6: r = f2i(a);
          default: r = a;
        endcase
      default: r = 32'd0;
    endcase
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
