module {{ name }} (
{%- for p in ports %}
  {{ p.decl }}{{ p.pad }}// {{ p.doc }}
{%- endfor %}
);
  // {{ v }} VC(s) x {{ depth }} flits per input port, {{ routing }} routing; iv = p*{{ v }} + vc, ov = o*{{ v }} + vc.
  // flit = {head, tail, src_y, src_x, dst_y, dst_x, data[{{ w - 1 }}:0]}; VC sets are {{ nv }}-bit vectors (bit iv / ov).
{%- for iv in ivs %}
  wire [{{ fw - 1 }}:0] head_{{ iv.i }};
  wire [{{ c - 1 }}:0] cnt_{{ iv.i }}, used_{{ iv.i }};
  wire [2:0] port_{{ iv.i }};
  wire [{{ nv - 1 }}:0] rq_{{ iv.i }}, eff_{{ iv.i }}, alloc_{{ iv.i }}, vareq_{{ iv.i }}, vagnt_{{ iv.i }}, vanm_{{ iv.i }};
{%- endfor %}
  wire [{{ nv - 1 }}:0] heads = { {%- for iv in ivs_rev %}head_{{ iv }}[{{ head_bit }}]{% if !loop.last %}, {% endif %}{% endfor -%} };
  wire [{{ nv - 1 }}:0] tails = { {%- for iv in ivs_rev %}head_{{ iv }}[{{ tail_bit }}]{% if !loop.last %}, {% endif %}{% endfor -%} };
  wire [{{ nv - 1 }}:0] allocd, busy, won, effv, pop, rel, dec, rel_ov, won_ov, cred;
  wire [4:0] port_win;
{%- for p in port_ids %}
  wire [{{ v - 1 }}:0] in_gnt_{{ p }}, in_nm_{{ p }};
  wire [{{ vw - 1 }}:0] cand_u_{{ p }};
  wire [4:0] out_req_{{ p }}, out_gnt_{{ p }}, out_nm_{{ p }};
{%- endfor %}

  // ---- BW: input VC buffers; RC: route of each head ----
{%- for iv in ivs %}
  {{ buffer }} buf_{{ iv.i }} (
    .clk_i(clk_i), .rst_i(rst_i),
    .push_v_i(in_{{ iv.dir }}_v_i & (in_{{ iv.dir }}_vc_i == {{ vw }}'d{{ iv.vc }})), .push_flit_i(in_{{ iv.dir }}_flit_i), .pop_i(pop[{{ iv.i }}]),
    .head__data_o(head_{{ iv.i }}), .count__q_o(cnt_{{ iv.i }})
  );
  {{ route }} rc_{{ iv.i }} (.dx_i(head_{{ iv.i }}[{{ dx_hi }}:{{ w }}]), .dy_i(head_{{ iv.i }}[{{ dy_hi }}:{{ dy_lo }}]), .x_i(x_i), .y_i(y_i), .yx_i(1'b{{ yx }}), .port_o(port_{{ iv.i }}));
{%- endfor %}

  // ---- VA: requests, one round-robin arbiter per output VC ----
  {{ va }} va (
    .head_i(heads), .allocd_i(allocd), .busy_i(busy),
{%- for iv in ivs %}
    .count_i__{{ iv.i }}(cnt_{{ iv.i }}), .port_i__{{ iv.i }}(port_{{ iv.i }}), .used_i__{{ iv.i }}(used_{{ iv.i }}),
    .rq_o__{{ iv.i }}(rq_{{ iv.i }}), .req_o__{{ iv.i }}(vareq_{{ iv.i }}){% if !iv.last %},{% endif %}
{%- endfor %}
  );
{%- for iv in ivs %}
  {{ va_arb }} va_arb_{{ iv.i }} (.req_i(vareq_{{ iv.i }}), .nm_i(vanm_{{ iv.i }}), .gnt_o(vagnt_{{ iv.i }}));
{%- endfor %}

  // ---- SA: input stage, one round-robin arbiter per output port, results ----
  {{ sa }} sa (
    .allocd_i(allocd), .won_o(won), .effv_o(effv),
{%- for iv in ivs %}
    .count_i__{{ iv.i }}(cnt_{{ iv.i }}), .alloc_i__{{ iv.i }}(alloc_{{ iv.i }}), .rq_i__{{ iv.i }}(rq_{{ iv.i }}), .va_gnt_i__{{ iv.i }}(vagnt_{{ iv.i }}),
    .used_i__{{ iv.i }}(used_{{ iv.i }}), .eff_o__{{ iv.i }}(eff_{{ iv.i }}),
{%- endfor %}
{%- for p in port_ids %}
    .in_nm_i__{{ p }}(in_nm_{{ p }}), .in_gnt_o__{{ p }}(in_gnt_{{ p }}), .cand_u_o__{{ p }}(cand_u_{{ p }}), .out_req_o__{{ p }}(out_req_{{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
{%- for p in port_ids %}
  {{ sa_arb }} sa_arb_{{ p }} (.req_i(out_req_{{ p }}), .nm_i(out_nm_{{ p }}), .gnt_o(out_gnt_{{ p }}));
{%- endfor %}
  {{ sar }} sar (
    .won_i(won), .tail_i(tails), .pop_o(pop), .release_o(rel), .port_win_o(port_win), .dec_o(dec), .rel_ov_o(rel_ov), .won_ov_o(won_ov),
{%- for iv in ivs %}
    .eff_i__{{ iv.i }}(eff_{{ iv.i }}),
{%- endfor %}
{%- for p in port_ids %}
    .in_gnt_i__{{ p }}(in_gnt_{{ p }}), .out_gnt_i__{{ p }}(out_gnt_{{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );

  // ---- credit counters (one per output VC) and allocation state ----
{%- for iv in ivs %}
  {{ credit }} cc_{{ iv.i }} (.clk_i(clk_i), .rst_i(rst_i), .dec_i(dec[{{ iv.i }}]), .inc_i(out_{{ iv.dir }}_credit_i[{{ iv.vc }}]), .used__q_o(used_{{ iv.i }}));
{%- endfor %}
  {{ state }} state (
    .clk_i(clk_i), .rst_i(rst_i),
    .effv_i(effv), .release_i(rel), .pop_i(pop), .rel_ov_i(rel_ov), .won_ov_i(won_ov), .port_win_i(port_win),
    .allocd__q_o(allocd), .busy__q_o(busy), .cred__q_o(cred),
{%- for iv in ivs %}
    .eff_i__{{ iv.i }}(eff_{{ iv.i }}), .va_gnt_i__{{ iv.i }}(vagnt_{{ iv.i }}), .alloc__{{ iv.i }}__q_o(alloc_{{ iv.i }}), .va_nm__{{ iv.i }}__q_o(vanm_{{ iv.i }}),
{%- endfor %}
{%- for p in port_ids %}
    .in_gnt_i__{{ p }}(in_gnt_{{ p }}), .out_gnt_i__{{ p }}(out_gnt_{{ p }}), .in_nm__{{ p }}__q_o(in_nm_{{ p }}), .out_nm__{{ p }}__q_o(out_nm_{{ p }}){% if !loop.last %},{% endif %}
{%- endfor %}
  );
{%- for d in dirs %}
  assign in_{{ d.name }}_credit_o = cred[{{ d.c_hi }}:{{ d.c_lo }}];
{%- endfor %}

  // ---- ST + LT: crossbar into the switch register, then the link register ----
  {{ xbar }} xbar (
    .clk_i(clk_i), .rst_i(rst_i),
{%- for iv in ivs %}
    .head_i__{{ iv.i }}(head_{{ iv.i }}),
{%- endfor %}
{%- for d in dirs %}
    .in_gnt_i__{{ d.p }}(in_gnt_{{ d.p }}), .cand_u_i__{{ d.p }}(cand_u_{{ d.p }}), .out_gnt_i__{{ d.p }}(out_gnt_{{ d.p }}),
    .link_v__{{ d.p }}__q_o(out_{{ d.name }}_v_o), .link_u__{{ d.p }}__q_o(out_{{ d.name }}_vc_o), .link_f__{{ d.p }}__q_o(out_{{ d.name }}_flit_o){% if !d.last %},{% endif %}
{%- endfor %}
  );
endmodule
