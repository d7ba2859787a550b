{#- The actuators' closest-setting search, included by gpu_actuator.v and cpu_dvfs.v:
    qc_dvfs_scale on cur_w and the request's ratio, f*r per P-state, a qc_dvfs_pick per
    candidate; the best candidate is bv/bs/bm/bp[NC]. -#}
  wire [15:0] r_w;
  wire [31:0] cur16_w, curr_w;
  {{ scale_mod }} scale (.cur_i(cur_w), .ratio_i(req_ratio_q44_i), .r_o(r_w), .cur16_o(cur16_w), .curr_o(curr_w));

  // f*r, one product per P-state; a candidate's s*r is the same P-state's with one core fewer plus f*r
  wire [31:0] fr [0:{{ psts.len() - 1 }}];
{%- for q in psts %}
  {{ mul_mod }} mul_fr_{{ q.p }} (.a_i(16'd{{ q.mhz }}), .b_i(r_w), .p_o(fr[{{ q.p }}]));
{%- endfor %}

  localparam NC = {{ ncand }};
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] sr [0:NC-1];  // s*r of every candidate; the most cores' ends its P-state's chain
  /* verilator lint_on UNUSEDSIGNAL */
  wire        bv [0:NC];
  wire [31:0] bd [0:NC];
  wire [15:0] bs [0:NC];
  wire [15:0] bm [0:NC];
  wire [2:0]  bp [0:NC];
  assign bv[0] = 1'b0;
  assign bd[0] = 32'd0;
  assign bs[0] = 16'd0;
  assign bm[0] = 16'd0;
  assign bp[0] = 3'd0;
{%- for c in cands %}
  {{ pick_mod }} pick_{{ loop.index0 }} (  // {{ c.cores }} x {{ c.mhz }} MHz
    .s_i(16'd{{ c.s }}), .s16_i(32'd{{ c.s16 }}), .fr_i(fr[{{ c.p }}]), .sr_prev_i({{ c.sr_prev }}), .sr_o(sr[{{ loop.index0 }}]), .mask_i(16'h{{ c.mask }}), .p_i(3'd{{ c.p }}),
    .cur_i(cur_w), .cur16_i(cur16_w), .curr_i(curr_w), .speed_i(req_dir_i),
    .bv_i(bv[{{ loop.index0 }}]), .bd_i(bd[{{ loop.index0 }}]), .bs_i(bs[{{ loop.index0 }}]), .bm_i(bm[{{ loop.index0 }}]), .bp_i(bp[{{ loop.index0 }}]),
    .bv_o(bv[{{ loop.index }}]), .bd_o(bd[{{ loop.index }}]), .bs_o(bs[{{ loop.index }}]), .bm_o(bm[{{ loop.index }}]), .bp_o(bp[{{ loop.index }}]));
{%- endfor %}
