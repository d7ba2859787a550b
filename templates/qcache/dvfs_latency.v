{#- The actuators' transition latency, included by gpu_actuator.v and cpu_dvfs.v: `lat`
    cycles for a change of `steps` P-states (spec §1.8: 15 us + 10 us per step, capped at
    45 us, at the config's clock). -#}
reg  [LW-1:0] lat;
  always @(*) begin
    case (steps)
{%- for l in lat %}
      3'd{{ loop.index0 }}: lat = {{ lw }}'d{{ l }};
{%- endfor %}
      default: lat = {LW{1'b0}};
    endcase
  end
