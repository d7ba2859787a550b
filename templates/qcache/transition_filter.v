module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // Q-cache transition filters of one L2's {{ nb }} banks (spec qcache.md 1.2, 5), cycle-exact
  // with golden::qcache::filter::FilterBank: per bank the rule {{ rule_mod }} (the leaf:
  // golden TransitionFilter::classify), its strobes and the requester's domain registered.
  localparam NB = {{ nb }};
  localparam DW = {{ dw }};

  reg [NB-1:0]    prod_r, cons_r, spill_r;
  reg [NB*DW-1:0] prod_dom_r, cons_dom_r;
  wire [NB-1:0]   prod_w, cons_w, spill_w;

  genvar b;
  generate
    for (b = 0; b < NB; b = b + 1) begin : g_bank
      {{ rule_mod }} rule (
        .v_i(v_i[b]),
        .cur_i(cur_state_i[b*3 +: 3]),
        .next_i(next_state_i[b*3 +: 3]),
        .req_i(req_type_i[b*3 +: 3]),
        .local_i(is_local_i[b]),
        .prod_o(prod_w[b]),
        .cons_o(cons_w[b]),
        .spill_o(spill_w[b])
      );
      always @(posedge clk_i) begin
        if (rst_i) begin
          prod_r[b] <= 1'b0;
          cons_r[b] <= 1'b0;
          spill_r[b] <= 1'b0;
          prod_dom_r[b*DW +: DW] <= {DW{1'b0}};
          cons_dom_r[b*DW +: DW] <= {DW{1'b0}};
        end else begin
          prod_r[b] <= prod_w[b];
          cons_r[b] <= cons_w[b];
          spill_r[b] <= spill_w[b];
          // the domain follows its strobe (0 without one)
          prod_dom_r[b*DW +: DW] <= prod_w[b] ? req_dom_i[b*DW +: DW] : {DW{1'b0}};
          cons_dom_r[b*DW +: DW] <= cons_w[b] ? req_dom_i[b*DW +: DW] : {DW{1'b0}};
        end
      end
    end
  endgenerate

  assign ev_prod_o = prod_r;
  assign ev_prod_dom_o = prod_dom_r;
  assign ev_cons_o = cons_r;
  assign ev_cons_dom_o = cons_dom_r;
  assign ev_spill_o = spill_r;
endmodule
