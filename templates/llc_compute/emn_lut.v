module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // {{ ne }} entries ({{ n_mc }} x {{ n_mc }} MC pairs) of {valid, node[{{ node_w - 1 }}:0]}; reset
  // contents: Algorithm 1's table of node {{ self_node }} (golden::llc_compute::emn).
  localparam integer NE = {{ ne }};
  localparam integer DW = {{ dw }};
  localparam [NE*DW-1:0] INIT = {{ init }};

  reg [NE*DW-1:0] words_r;
  always @(posedge clk_i) begin
    if (rst_i) words_r <= INIT;
    else if (cfg_we_i && {{ idx_ok }}) words_r[cfg_idx_i*DW +: DW] <= cfg_data_i;
  end

  // read: entry rd_a_i * N_MC + rd_b_i, 0 past the table
  wire [{{ riw - 1 }}:0] rd_idx = {{ '{' }}{{ riw - mc_w }}'d0, rd_a_i} * {{ riw }}'d{{ n_mc }} + {{ '{' }}{{ riw - mc_w }}'d0, rd_b_i};
  integer e;
  reg [DW-1:0] rd_w;
  always @(*) begin
    rd_w = {DW{1'b0}};
    for (e = 0; e < NE; e = e + 1) begin
      if (rd_idx == e[{{ riw - 1 }}:0]) rd_w = words_r[e*DW +: DW];
    end
  end
  assign rd_vld_o = rd_w[DW-1];
  assign rd_node_o = rd_w[DW-2:0];
endmodule
