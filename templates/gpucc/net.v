module {{ top }} (
{%- for port in ports %}
  {{ port.decl }}{{ port.pad }}// {{ port.doc }}
{%- endfor %}
);
  // Geometry: {{ n }} positions ({{ n_lsu }} LSUs), {{ l }} lanes, {{ w }}-bit data.
  // Operand slot (p, k) is index s = p*{{ n_in }} + k in every per-slot vector.
  // CR layout (golden::gpucc::cr): {{ cr_bits }} bits per position, {{ cr_words }} words of 32.

  // ===========================================================================
  // Mode control (spec 1.9) and configuration registers (spec 1.5)
  // ===========================================================================
  wire active;      // RUN or DRAIN: the network moves tokens
  wire init;        // ARM: clear FIFOs, preload initial tokens
  wire cfg_accept;  // configuration write accepted this cycle
  wire cfg_unit_ok = {{ unit_ok }};
  wire [{{ n - 1 }}:0] counted;  // enabled with a non-zero fire_count
  wire all_done = (|counted) & (&(unit_done_i | ~counted));
  wire any_fire = |u_fire_o;

  {{ mode_mod }} mode_fsm (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .cc_start_i(cc_start_i),
    .all_done_i(all_done),
    .any_fire_i(any_fire),
    .mem_idle_i(mem_idle_i),
    .cfg_we_i(cfg_we_i),
    .unit_ok_i(cfg_unit_ok),
    .mode_o(mode_o),
    .active_o(active),
    .init_o(init),
    .cfg_accept_o(cfg_accept),
    .cc_done_o(cc_done_o),
    .wdog_o(wdog_o),
    .cfg_err_o(cfg_err_o)
  );

  // read-back of word cfg_word_i of unit cfg_unit_i (0 for a unit that does not exist)
  wire [{{ cr_bits - 1 }}:0] rd_cr = cfg_unit_ok ? unit_cfg_o[{cfg_unit_i, {{ cr_shift }}'d0} +: {{ cr_bits }}] : {{ cr_bits }}'d0;
  assign cfg_rdata_o = rd_cr[{cfg_word_i, 5'd0} +: 32];

  // per-slot error terms
  wire [{{ n * n_in - 1 }}:0] pop_err;
  wire [{{ n * n_in - 1 }}:0] push_err;
  assign dbg_pop_empty_err_o = |pop_err;
  assign dbg_push_full_err_o = |push_err;

  // lane segments entering position 0: nothing drives them
  wire [{{ l - 1 }}:0] seg_f_p0 = {{ l }}'d0;
  wire [{{ l * w - 1 }}:0] seg_d_p0 = {{ l * w }}'d0;
  // ready of the segments leaving the last position: nobody downstream
  wire [{{ l - 1 }}:0] rdy_p{{ n }} = {{ ones_l }};
{% for pos in positions %}
  // ===========================================================================
  // position {{ pos.p }}: {{ pos.kind }} (slice {{ pos.slice }}, unit {{ pos.unit }})
  // ===========================================================================
  {{ cr_mod }} cr_p{{ pos.p }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .we_i(cfg_accept & (cfg_unit_i == {{ pw }}'d{{ pos.p }})),
    .word_i(cfg_word_i),
    .wdata_i(cfg_wdata_i),
{%- for word in pos.words %}
    .w{{ word.i }}_o(unit_cfg_o[{{ word.hi }}:{{ word.lo }}]){% if !word.last %},{% endif %}
{%- endfor %}
  );
  wire en_p{{ pos.p }} = unit_cfg_o[{{ pos.en_bit }}];
  assign counted[{{ pos.p }}] = en_p{{ pos.p }} & (|unit_cfg_o[{{ pos.fire_hi }}:{{ pos.fire_lo }}]);
  wire [{{ w - 1 }}:0] imm_p{{ pos.p }} = {{ pos.imm_expr }};
  wire [{{ w - 1 }}:0] init_val_p{{ pos.p }} = {{ pos.init_val_expr }};
  wire [{{ l - 1 }}:0] drive_p{{ pos.p }};  // one-hot: lane this unit drives
{%- for lane in pos.lanes %}
  assign drive_p{{ pos.p }}[{{ lane.l }}] = en_p{{ pos.p }} & (unit_cfg_o[{{ pos.out_hi }}:{{ pos.out_lo }}] == {{ out_w }}'d{{ lane.code }});
{%- endfor %}
{% for slot in pos.slots %}
{%- match slot.fifo %}
{%- when Some with (f) %}
  // operand {{ slot.k }}: {{ f.what }}, {{ f.depth }} entries
  wire [{{ src_w - 1 }}:0] src_p{{ pos.p }}_{{ slot.k }} = unit_cfg_o[{{ slot.src_hi }}:{{ slot.src_lo }}];
  wire [{{ l - 1 }}:0] sel_p{{ pos.p }}_{{ slot.k }};  // consumes the incoming segment of lane l
{%- for lane in pos.lanes %}
  assign sel_p{{ pos.p }}_{{ slot.k }}[{{ lane.l }}] = en_p{{ pos.p }} & (src_p{{ pos.p }}_{{ slot.k }} == {{ src_w }}'d{{ lane.code }});
{%- endfor %}
  wire self_p{{ pos.p }}_{{ slot.k }} = en_p{{ pos.p }} & (src_p{{ pos.p }}_{{ slot.k }} == {{ src_w }}'d{{ src_self }});
  wire imm_sel_p{{ pos.p }}_{{ slot.k }} = en_p{{ pos.p }} & (src_p{{ pos.p }}_{{ slot.k }} == {{ src_w }}'d{{ src_imm }});
  wire fsrc_p{{ pos.p }}_{{ slot.k }} = (|sel_p{{ pos.p }}_{{ slot.k }}) | self_p{{ pos.p }}_{{ slot.k }};
  reg [{{ w - 1 }}:0] lane_d_p{{ pos.p }}_{{ slot.k }};
  always @(*) begin
    case (src_p{{ pos.p }}_{{ slot.k }})
{%- for lane in pos.lanes %}
      {{ src_w }}'d{{ lane.code }}: lane_d_p{{ pos.p }}_{{ slot.k }} = seg_d_p{{ pos.p }}[{{ lane.hi }}:{{ lane.lo }}];
{%- endfor %}
      default: lane_d_p{{ pos.p }}_{{ slot.k }} = {{ w }}'d0;
    endcase
  end
  wire push_p{{ pos.p }}_{{ slot.k }} = (|(sel_p{{ pos.p }}_{{ slot.k }} & seg_f_p{{ pos.p }})) | (self_p{{ pos.p }}_{{ slot.k }} & u_fire_o[{{ pos.p }}]);
  wire [{{ w - 1 }}:0] push_d_p{{ pos.p }}_{{ slot.k }} = self_p{{ pos.p }}_{{ slot.k }} ? u_out_data_i[{{ pos.data_hi }}:{{ pos.data_lo }}] : lane_d_p{{ pos.p }}_{{ slot.k }};
  wire f_v_p{{ pos.p }}_{{ slot.k }};
  wire f_full_p{{ pos.p }}_{{ slot.k }};
  wire [{{ w - 1 }}:0] f_d_p{{ pos.p }}_{{ slot.k }};
  wire [{{ f.c - 1 }}:0] f_cnt_p{{ pos.p }}_{{ slot.k }};
{%- if f.peek.is_some() %}
  wire [{{ w - 1 }}:0] f_peek_p{{ pos.p }};  // look-ahead entry
{%- endif %}
  {{ f.module }} fifo_p{{ pos.p }}_{{ slot.k }} (
    .clk_i(clk_i),
    .rst_i(rst_i),
    .init_i(init),
    .init_cnt_i(en_p{{ pos.p }} ? unit_cfg_o[{{ slot.cnt_hi }}:{{ slot.cnt_lo }}] : {{ cnt_w }}'d0),
    .init_val_i(init_val_p{{ pos.p }}),
    .v_i(push_p{{ pos.p }}_{{ slot.k }}),
    .data_i(push_d_p{{ pos.p }}_{{ slot.k }}),
    .yumi_i(active & fsrc_p{{ pos.p }}_{{ slot.k }} & u_in_yumi_i[{{ slot.s }}]),
    .v_o(f_v_p{{ pos.p }}_{{ slot.k }}),
    .data_o(f_d_p{{ pos.p }}_{{ slot.k }}),
    .status__full_o(f_full_p{{ pos.p }}_{{ slot.k }}),
{%- match f.peek %}
{%- when Some with (pk) %}
    .count_o(f_cnt_p{{ pos.p }}_{{ slot.k }}),
    .peek_idx_i({1'b0, lsu_peek_idx_i[{{ pk.idx_hi }}:{{ pk.idx_lo }}]}),
    .peek_data_o(f_peek_p{{ pos.p }})
  );
  assign lsu_peek_data_o[{{ pk.data_hi }}:{{ pk.data_lo }}] = active ? f_peek_p{{ pos.p }} : {{ w }}'d0;
  assign lsu_addr_count_o[{{ pk.cnt_hi }}:{{ pk.cnt_lo }}] = active ? f_cnt_p{{ pos.p }}_{{ slot.k }} : {{ f.c }}'d0;
{%- when None %}
    .count_o(f_cnt_p{{ pos.p }}_{{ slot.k }})
  );
{%- endmatch %}
  assign u_in_v_o[{{ slot.s }}] = fsrc_p{{ pos.p }}_{{ slot.k }} ? (active & f_v_p{{ pos.p }}_{{ slot.k }}) : 1'b1;
  assign u_in_data_o[{{ slot.data_hi }}:{{ slot.data_lo }}] = (fsrc_p{{ pos.p }}_{{ slot.k }} & active & f_v_p{{ pos.p }}_{{ slot.k }}) ? f_d_p{{ pos.p }}_{{ slot.k }}
                                  : (imm_sel_p{{ pos.p }}_{{ slot.k }} ? imm_p{{ pos.p }} : {{ w }}'d0);
  assign dbg_fifo_count_o[{{ slot.cnt_out_hi }}:{{ slot.cnt_out_lo }}] = {{ slot.cnt_out_expr }};
  assign pop_err[{{ slot.s }}] = u_in_yumi_i[{{ slot.s }}] & fsrc_p{{ pos.p }}_{{ slot.k }} & ~u_in_v_o[{{ slot.s }}];
  assign push_err[{{ slot.s }}] = push_p{{ pos.p }}_{{ slot.k }} & f_full_p{{ pos.p }}_{{ slot.k }};
{%- when None %}
  // operand {{ slot.k }}: no FIFO at an LSU; always valid, reads 0
  assign u_in_v_o[{{ slot.s }}] = 1'b1;
  assign u_in_data_o[{{ slot.data_hi }}:{{ slot.data_lo }}] = {{ w }}'d0;
  assign dbg_fifo_count_o[{{ slot.cnt_out_hi }}:{{ slot.cnt_out_lo }}] = {{ cw }}'d0;
  assign pop_err[{{ slot.s }}] = 1'b0;
  assign push_err[{{ slot.s }}] = 1'b0;
{%- endmatch %}
{% endfor %}
  // backward ready: a segment is ready when its consumers here have room and it
  // either ends here (this unit drives the lane) or the rest of it is ready
{%- if pos.p > 0 %}
  wire [{{ l - 1 }}:0] cons_full_p{{ pos.p }} = {{ pos.cons_full_expr }};
  wire [{{ l - 1 }}:0] rdy_p{{ pos.p }} = ~cons_full_p{{ pos.p }} & (drive_p{{ pos.p }} | rdy_p{{ pos.p + 1 }});
{%- endif %}
  wire self_ok_p{{ pos.p }} = {{ pos.self_ok_expr }};
  wire lane_ok_p{{ pos.p }} = ~((|drive_p{{ pos.p }}) & u_out_lane_en_i[{{ pos.p }}]) | (|(drive_p{{ pos.p }} & rdy_p{{ pos.p + 1 }}));
  assign u_out_ready_o[{{ pos.p }}] = active & en_p{{ pos.p }} & lane_ok_p{{ pos.p }} & self_ok_p{{ pos.p }};
  assign u_fire_o[{{ pos.p }}] = u_out_v_i[{{ pos.p }}] & u_out_ready_o[{{ pos.p }}];

  // forward: the unit's result replaces the incoming segment on the lane it drives
  wire [{{ l - 1 }}:0] seg_f_p{{ pos.p + 1 }};
{%- if !pos.last %}
  wire [{{ l * w - 1 }}:0] seg_d_p{{ pos.p + 1 }};
{%- endif %}
{%- for lane in pos.lanes %}
  assign seg_f_p{{ pos.p + 1 }}[{{ lane.l }}] = drive_p{{ pos.p }}[{{ lane.l }}] ? (u_fire_o[{{ pos.p }}] & u_out_lane_en_i[{{ pos.p }}]) : seg_f_p{{ pos.p }}[{{ lane.l }}];
{%- if !pos.last %}
  assign seg_d_p{{ pos.p + 1 }}[{{ lane.hi }}:{{ lane.lo }}] = drive_p{{ pos.p }}[{{ lane.l }}] ? u_out_data_i[{{ pos.data_hi }}:{{ pos.data_lo }}] : seg_d_p{{ pos.p }}[{{ lane.hi }}:{{ lane.lo }}];
{%- endif %}
  assign dbg_seg_fire_o[{{ lane.seg_bit }}] = seg_f_p{{ pos.p + 1 }}[{{ lane.l }}];
{%- endfor %}
{% endfor %}
{%- if unused_yumi.len() > 0 %}
  // operand slots without a FIFO ignore their yumi bit
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_yumi = &{1'b0{% for s in unused_yumi %}, u_in_yumi_i[{{ s }}]{% endfor %}};
  /* verilator lint_on UNUSEDSIGNAL */
{%- endif %}
endmodule
