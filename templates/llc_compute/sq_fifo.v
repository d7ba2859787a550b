module {{ top }} (
  input              clk_i,    // clock
  input              rst_i,    // synchronous active-high reset: empty
  input  [{{ p - 1 }}:0]        push_i,   // push lane k (lanes in order 0..{{ p - 1 }}, after the pop)
  input  [{{ p * w - 1 }}:0] data_i,   // lane k's word at [k*{{ w }} +: {{ w }}]
  input              pop_i,    // drop the head (ignored when empty)
  output [{{ w - 1 }}:0]  head_o,   // the oldest word (0 when empty)
  output             valid_o,  // not empty
  output [{{ cw - 1 }}:0]  count_o   // words held
);
  // Compacting queue: word 0 is the head; a pop shifts down by one word, pushes write
  // at the count in lane order. Pushes beyond {{ d }} words are dropped (the SQ never
  // holds more: every word names a distinct entry or fallback load).
  localparam integer W = {{ w }};
  localparam integer D = {{ d }};
  localparam integer P = {{ p }};
  localparam integer CW = {{ cw }};
  reg [D*W-1:0] q_r, q_n;
  reg [CW-1:0]  cnt_r, cnt_n;
  integer k, j;
  always @(*) begin
    j = 0;
    q_n = q_r;
    cnt_n = cnt_r;
    if (pop_i && cnt_r != {CW{1'b0}}) begin
      q_n = q_r >> W;
      cnt_n = cnt_r - {{ cw }}'d1;
    end
    for (k = 0; k < P; k = k + 1) begin
      if (push_i[k] && cnt_n != {{ cw }}'d{{ d }}) begin
        for (j = 0; j < D; j = j + 1) begin
          if (cnt_n == j[CW-1:0]) q_n[j*W +: W] = data_i[k*W +: W];
        end
        cnt_n = cnt_n + {{ cw }}'d1;
      end
    end
  end
  always @(posedge clk_i) begin
    if (rst_i) begin
      q_r <= {(D*W){1'b0}};
      cnt_r <= {CW{1'b0}};
    end else begin
      q_r <= q_n;
      cnt_r <= cnt_n;
    end
  end
  assign head_o = q_r[W-1:0];
  assign valid_o = cnt_r != {CW{1'b0}};
  assign count_o = cnt_r;
endmodule
