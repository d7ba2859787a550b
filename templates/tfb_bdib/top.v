module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // {{ n }} warps x {{ d }} entries of {{ ew }} bits, {{ mode_name }}-TFB, {{ nwarq }} WAR query port(s).
  // Entry layout (golden::tfb_bdib::config::entry_fields), LSB first:
  //   cls [2:0], scope [4:3], src [{{ src_hi }}:{{ src_lo }}] ({{ nsrc }} x {{ reg_w }} b),
  //   src_v [{{ srcv_hi }}:{{ srcv_lo }}], payload [{{ ew - 1 }}:{{ pay_lo }}].
  // Each warp's FIFO is a shift register: entry 0 is the head, a pop shifts the
  // others down, a push writes at the occupancy left after this cycle's pop.

  wire [{{ ew - 1 }}:0] iss_entry = {iss_payload_i, iss_src_v_i, iss_src_i, iss_scope_i, iss_cls_i};

  // ===========================================================================
  // Issue route (spec 5.3): ENQ for a shared-class op of a warp in a barrier or
  // with entries buffered (MODE G/F); PASS otherwise
  // ===========================================================================
  wire [{{ n - 1 }}:0] iss_oh;      // one-hot iss_warp_i (none past NUM_WARPS)
  wire [{{ n - 1 }}:0] flush_oh;    // one-hot flush_warp_i
  wire [{{ n - 1 }}:0] drain_req;   // !in_bar & !fence_wait & count != 0
  wire [{{ n - 1 }}:0] grant_oh;    // round-robin drain grant
{%- for w in warps %}
  assign iss_oh[{{ w.w }}] = iss_warp_i == {{ wid }}'d{{ w.w }};
  assign flush_oh[{{ w.w }}] = flush_warp_i == {{ wid }}'d{{ w.w }};
{%- endfor %}
  wire iss_shared = (iss_cls_i == 3'd{{ c_global }}) | (iss_cls_i == 3'd{{ c_scratch }}) | (iss_cls_i == 3'd{{ c_fence }}) | (iss_cls_i == 3'd{{ c_barrier }});
  wire enq = {{ buffers }} & iss_shared & (|(iss_oh & (warp_in_bar_o | warp_nonempty_o)));
  assign mem_issue_stall_o = |drain_req;
  assign iss_ready_o = enq ? ~(|(iss_oh & warp_full_o)) : (mem_ready_i & ~mem_issue_stall_o);
  wire pass_v = iss_valid_i & ~enq;
  wire pass_fire = pass_v & iss_ready_o;
  wire push = iss_valid_i & enq & iss_ready_o;
  wire pop = mem_issue_stall_o & mem_ready_i;
  wire pass_bar = pass_fire & (iss_cls_i == 3'd{{ c_barrier }});

  // ===========================================================================
  // Drain arbitration (spec 2.9): first requesting warp at or after rr_ptr
  // ===========================================================================
  wire [{{ wid - 1 }}:0] grant;
{%- if n > 1 %}
  wire [{{ wid - 1 }}:0] rr_q;
  wire [{{ n - 1 }}:0] ge_rr;       // ge_rr[v]: warp v is at or after rr_ptr
{%- for w in warps %}
  assign ge_rr[{{ w.w }}] = {{ w.ge_expr }};
{%- endfor %}
{%- for w in warps %}
  assign grant_oh[{{ w.w }}] = drain_req[{{ w.w }}] & ~(|(drain_req & (ge_rr[{{ w.w }}] ? (ge_rr & {{ w.lt_mask }}) : (ge_rr | {{ w.lt_mask }}))));
{%- endfor %}
  assign grant = {{ grant_expr }};
  {{ rr_mod }} rr_r (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .d_i(pop ? {{ rr_next }} : rr_q),
    .q_o(rr_q)
  );
{%- else %}
  assign grant_oh = drain_req;
  assign grant = 1'b0;
{%- endif %}

  // ===========================================================================
  // Per-warp control and FIFOs
  // ===========================================================================
  wire [{{ ew - 1 }}:0] head;       // the granted warp's oldest entry
  wire head_is_bar = head[2:0] == 3'd{{ c_barrier }};
  wire head_is_fence = head[2:0] == 3'd{{ c_fence }};
{%- for e in entry_idx %}
  wire [{{ n - 1 }}:0] valid_e{{ e.i }};     // entry {{ e.i }} of warp w holds an instruction
{%- endfor %}
{% for w in warps %}
  // ---- warp {{ w.w }}
  wire [{{ cw - 1 }}:0] cnt_w{{ w.w }};
  wire pop_w{{ w.w }} = pop & grant_oh[{{ w.w }}];
  wire push_w{{ w.w }} = push & iss_oh[{{ w.w }}];
  wire [{{ cw - 1 }}:0] cnt_pop_w{{ w.w }} = pop_w{{ w.w }} ? cnt_w{{ w.w }} - {{ cw }}'d1 : cnt_w{{ w.w }};
  {{ ctl_mod }} ctl_w{{ w.w }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .push_i(push_w{{ w.w }}),
    .pop_i(pop_w{{ w.w }}),
    .set_bar_i((pass_bar & iss_oh[{{ w.w }}]) | (pop_w{{ w.w }} & head_is_bar)),
    .set_fence_i(pop_w{{ w.w }} & head_is_fence),
    .eaf_done_i(eaf_done_i[{{ w.w }}]),
    .fence_done_i(fence_done_i[{{ w.w }}]),
    .flush_i(flush_valid_i & flush_oh[{{ w.w }}]),
    .count_o(cnt_w{{ w.w }}),
    .in_bar_o(warp_in_bar_o[{{ w.w }}]),
    .fence_wait_o(dbg_fence_wait_o[{{ w.w }}]),
    .full_o(warp_full_o[{{ w.w }}]),
    .nonempty_o(warp_nonempty_o[{{ w.w }}]),
    .drain_req_o(drain_req[{{ w.w }}])
  );
  assign dbg_count_o[{{ w.cnt_hi }}:{{ w.cnt_lo }}] = cnt_w{{ w.w }};
{%- for e in entry_idx %}
  assign valid_e{{ e.i }}[{{ w.w }}] = cnt_w{{ w.w }} > {{ cw }}'d{{ e.i }};
  wire [{{ ew - 1 }}:0] e_w{{ w.w }}_{{ e.i }};
{%- endfor %}
{%- for e in entry_idx %}
  wire [{{ ew - 1 }}:0] e_w{{ w.w }}_{{ e.i }}_d = (push_w{{ w.w }} & (cnt_pop_w{{ w.w }} == {{ cw }}'d{{ e.i }})) ? iss_entry : (pop_w{{ w.w }} ? {% if e.last %}{{ ew }}'d0{% else %}e_w{{ w.w }}_{{ e.i + 1 }}{% endif %} : e_w{{ w.w }}_{{ e.i }});
{%- for ch in chunks %}
  {{ ch.module }} e_w{{ w.w }}_{{ e.i }}_r{{ ch.k }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .d_i(e_w{{ w.w }}_{{ e.i }}_d[{{ ch.hi }}:{{ ch.lo }}]),
    .q_o(e_w{{ w.w }}_{{ e.i }}[{{ ch.hi }}:{{ ch.lo }}])
  );
{%- endfor %}
{%- endfor %}
{% endfor %}
  assign head = {{ head_expr }};

  // ===========================================================================
  // Memory dispatch port: the drained head, else the pass-through instruction
  // ===========================================================================
  wire [{{ ew - 1 }}:0] mem_entry = mem_issue_stall_o ? head : (pass_v ? iss_entry : {{ ew }}'d0);
  assign mem_valid_o = mem_issue_stall_o | pass_v;
  assign mem_warp_o = mem_issue_stall_o ? grant : (pass_v ? iss_warp_i : {{ wid }}'d0);
  assign mem_cls_o = mem_entry[2:0];
  assign mem_scope_o = mem_entry[4:3];
  assign mem_src_o = mem_entry[{{ src_hi }}:{{ src_lo }}];
  assign mem_src_v_o = mem_entry[{{ srcv_hi }}:{{ srcv_lo }}];
  assign mem_payload_o = mem_entry[{{ ew - 1 }}:{{ pay_lo }}];
  assign mem_from_bdib_o = mem_issue_stall_o;
  assign mem_bar_arrive_o = mem_valid_o & (mem_cls_o == 3'd{{ c_barrier }});

  // ===========================================================================
  // WAR queries (spec 2.10): a valid source of a buffered entry of the warp
  // ===========================================================================
{%- for q in warq %}
  wire [{{ n - 1 }}:0] wq_oh_{{ q.k }};
{%- for w in warps %}
  assign wq_oh_{{ q.k }}[{{ w.w }}] = warq_warp_i[{{ q.warp_hi }}:{{ q.warp_lo }}] == {{ wid }}'d{{ w.w }};
{%- endfor %}
  wire [{{ reg_w - 1 }}:0] wq_dst_{{ q.k }} = warq_dst_i[{{ q.dst_hi }}:{{ q.dst_lo }}];
{%- for x in q.entries %}
  wire wq_v_{{ q.k }}_{{ x.i }} = |(wq_oh_{{ q.k }} & valid_e{{ x.i }});
  wire [{{ srcv_hi - src_lo }}:0] wq_s_{{ q.k }}_{{ x.i }} = {{ x.mux }};
{%- endfor %}
  assign warq_hit_o[{{ q.k }}] = warq_v_i[{{ q.k }}] & ({{ q.hit_expr }});
{%- endfor %}
endmodule
