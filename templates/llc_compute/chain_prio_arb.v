module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // {{ n }} warps; the priority warp register (prio_v_r, prio_r) is the only state.
  localparam integer N  = {{ n }};
  localparam integer WW = {{ wid_w }};

  reg          prio_v_r;
  reg [WW-1:0] prio_r;
  wire [N-1:0] issuable = ready_i & ~(tag_first_i & {N{cpgu_busy_i}});

  // grant: the priority warp when it is issuable, else the first issuable warp in GTO order
  integer k;
  reg          gv;
  reg [WW-1:0] g, w;
  always @(*) begin
    gv = 1'b0;
    g = {WW{1'b0}};
    w = {WW{1'b0}};
    for (k = N - 1; k >= 0; k = k - 1) begin
      w = gto_order_i[k*WW +: WW];
      if (issuable[w]) begin
        gv = 1'b1;
        g = w;
      end
    end
    if (prio_v_r && issuable[prio_r]) begin
      gv = 1'b1;
      g = prio_r;
    end
  end
  assign grant_valid_o = gv;
  assign grant_o = g;
  assign prio_valid_o = prio_v_r;
  assign prio_wid_o = prio_r;

  // the granted warp's `01` takes the priority when none is held (after an abort this
  // cycle too); its `11` (the priority warp's) releases it
  reg          nv;
  reg [WW-1:0] np;
  always @(*) begin
    nv = prio_v_r && !abort_i;
    np = prio_r;
    if (gv) begin
      if (tag_first_i[g] && !nv) begin
        nv = 1'b1;
        np = g;
      end else if (tag_last_i[g] && nv && np == g) begin
        nv = 1'b0;
      end
    end
  end
  always @(posedge clk_i) begin
    if (rst_i) begin
      prio_v_r <= 1'b0;
      prio_r <= {WW{1'b0}};
    end else begin
      prio_v_r <= nv;
      prio_r <= nv ? np : {WW{1'b0}};
    end
  end
endmodule
