//! Verilog of the reply plane: `macro_ovl_ctrl_*`, one `macro_hinge_*_x<X>y<Y>` per
//! router (its ROM rows folded into a case on the live configuration), one
//! `macro_mc_ni_*_mc<i>` per MC, `macro_gom_*` and the mesh top
//! `macro_reply_mesh_*`. Behaviour is that of `golden::noc::{overlay_ctrl,
//! hinge_router, mc_ni, gom, reply_mesh}`; the mesh top's ports are listed by
//! [`ports`].
//!
//! Our choice: these modules are written by this generator directly as Verilog text
//! (every state element a synchronously reset `_r` register), not as rust-hdl leaves:
//! their shape (latches x live configurations, groups, MC/GOM constants) comes from
//! the config throughout.

use std::fmt::Write;

use golden::noc::config::{clog2, NocConfig, TW};
use golden::noc::gom::{GOMCFG_CYCLE, SNAPSHOT_CYCLE, SWAP_CYCLE};
use golden::noc::link::gomcfg_flits;
use golden::noc::route_rom::{RomRow, Source, E, L, N, S, W};

use crate::manifest::Port;

pub fn ctrl_name(p: &str) -> String {
    format!("macro_ovl_ctrl_{p}")
}
pub fn hinge_name(p: &str, x: u32, y: u32) -> String {
    format!("macro_hinge_{p}_x{x}y{y}")
}
pub fn ni_name(p: &str, i: usize) -> String {
    format!("macro_mc_ni_{p}_mc{i}")
}
pub fn gom_name(p: &str) -> String {
    format!("macro_gom_{p}")
}
pub fn mesh_name(p: &str) -> String {
    format!("macro_reply_mesh_{p}")
}

/// Width of the live-configuration code: 0 none, 1 GOM row, 2+g group g.
fn live_w(c: &NocConfig) -> u32 {
    clog2(c.g() as u32 + 2)
}

fn sched_w(c: &NocConfig) -> u32 {
    2 * (c.sw() + 1) + 2
}

/// Header width of a link (everything above the 64-bit payload).
pub fn hdr_w(c: &NocConfig) -> u32 {
    c.link_w() - 64
}

/// Ports of the mesh top, in declaration order.
pub fn ports(c: &NocConfig) -> Vec<Port> {
    let nn = c.nodes() as u32;
    let m = c.m() as u32;
    let h = hdr_w(c);
    vec![
        Port::clock("clk_i"),
        Port::reset("rst_i"),
        Port::input("mc_reply_v_i", m, "per MC: reply flit offered by L2/DRAM").fields(m),
        Port::input("mc_reply_hdr_i", m * h, "per MC: link bits above the payload {valid(ignored), type, head, tail, src(ignored), dst_y, dst_x}").fields(m),
        Port::input("mc_reply_data_i", m * 64, "per MC: 64-bit payload").fields(m),
        Port::output("mc_reply_ready_o", m, "per MC: reply queue has room (transfer = v & ready)").fields(m),
        Port::output("eject_hdr_o", nn * h, "per node: ejected flit header, valid in the MSB (STATUS at the GOM node goes to the GOM)").fields(nn),
        Port::output("eject_data_o", nn * 64, "per node: ejected flit payload").fields(nn),
        Port::output("dbg_link_hdr_o", nn * 4 * h, "per node, direction E,W,N,S: bypass output header").fields(nn * 4),
        Port::output("dbg_link_data_o", nn * 4 * 64, "per node, direction: bypass output payload").fields(nn * 4),
        Port::output("dbg_inj_hdr_o", nn * h, "per node: local injection on a transfer (header)").fields(nn),
        Port::output("dbg_inj_data_o", nn * 64, "per node: local injection payload").fields(nn),
        Port::output("dbg_grant_o", nn, "per node: loc_in_grant").fields(nn),
        Port::output("dbg_latch_state_o", nn * 10, "per node: 2 bits per latch E,W,N,S,L (0 idle, 1 captured, 2 turning)").fields(nn),
        Port::output("dbg_drop_o", nn * 5, "per node: per-latch drop pulse").fields(nn),
        Port::output("dbg_overrun_o", nn, "per node: capture into a CAPTURED latch").fields(nn),
        Port::output("dbg_collision_o", nn, "per node: two latches eject in one cycle").fields(nn),
        Port::output("dbg_sched_o", nn * sched_w(c), "per node: {prologue, reconf, ovl_b, ovl_a}").fields(nn),
        Port::output("dbg_ecyc_o", 16, "epoch-relative cycle of router (0,0)"),
    ]
}

/// The overlay controller (golden `overlay_ctrl`).
pub fn ctrl(c: &NocConfig, preset: &str) -> String {
    let g = c.g() as u32;
    let lw = live_w(c);
    let gw = clog2(g);
    let p = c.reply.prologue;
    let e = c.reply.epoch;
    let k = c.reply.period;
    let iv = c.reply.interval;
    let flits = gomcfg_flits(c.g());
    let mut s = String::new();
    let _ = writeln!(s, "module {} (", ctrl_name(preset));
    let _ = writeln!(
        s,
        "  input  wire clk_i,\n  input  wire rst_i,\n  input  wire [{}:0] tpend_i,\n  output wire prologue_o,\n  output wire reconf_o,\n  output wire [{}:0] live_o,\n  output wire [1:0] slot_o,\n  output wire [1:0] final_o,\n  output wire last_period_o,\n  output wire gom_slot_o,\n  output wire [15:0] ecyc_o\n);",
        g * TW - 1,
        lw - 1
    );
    let _ = writeln!(s, "  reg [15:0] ecyc_r;\n  reg [9:0] lc_r;\n  reg [{}:0] gi_r;\n  reg [1:0] sc_r;\n  reg [{}:0] live_r;\n  reg [{}:0] t_r;", gw - 1, lw - 1, g * TW - 1);
    // current T
    let _ = writeln!(s, "  reg [9:0] tcur;\n  always @(*) begin\n    case (gi_r)");
    for j in 0..g {
        let _ = writeln!(s, "      {gw}'d{j}: tcur = t_r[{}:{}];", (j + 1) * TW - 1, j * TW);
    }
    let _ = writeln!(s, "      default: tcur = 10'd0;\n    endcase\n  end");
    let _ = writeln!(s, "  wire pro = ecyc_r < 16'd{p};");
    let _ = writeln!(s, "  wire [9:0] tlast = tcur - 10'd2;");
    let _ = writeln!(s, "  wire [9:0] lc_iv = lc_r + 10'd{iv};");
    let _ = writeln!(s, "  assign slot_o[0] = ~pro & (lc_r >= 10'd2) & (lc_r <= tlast) & (sc_r == 2'd0);");
    if iv == 2 {
        let _ = writeln!(s, "  assign slot_o[1] = ~pro & (lc_r >= 10'd3) & (lc_r <= tlast) & (sc_r == 2'd1);");
    } else {
        let _ = writeln!(s, "  assign slot_o[1] = 1'b0;");
    }
    let _ = writeln!(s, "  assign final_o = slot_o & {{2{{lc_iv > tlast}}}};");
    let _ = writeln!(s, "  assign prologue_o = pro;\n  assign reconf_o = pro ? (ecyc_r < 16'd2) : (lc_r < 10'd2);\n  assign live_o = live_r;");
    let _ = writeln!(s, "  assign last_period_o = ecyc_r >= 16'd{};", p + e - k);
    let gs: Vec<String> = GOMCFG_CYCLE.iter().take(flits as usize).map(|cy| format!("(ecyc_r == 16'd{cy})")).collect();
    let _ = writeln!(s, "  assign gom_slot_o = pro & ({});", gs.join(" | "));
    let _ = writeln!(s, "  assign ecyc_o = ecyc_r;");
    let dflt: Vec<String> = c.default_windows.iter().rev().map(|t| format!("10'd{t}")).collect();
    let _ = writeln!(s, "  always @(posedge clk_i) begin");
    let _ = writeln!(s, "    if (rst_i) begin\n      ecyc_r <= 16'd0;\n      lc_r <= 10'd0;\n      gi_r <= {gw}'d0;\n      sc_r <= 2'd0;\n      live_r <= {lw}'d0;\n      t_r <= {{{}}};\n    end else begin", dflt.join(", "));
    let gi_ext = if lw > gw { format!("{{{}'d0, gi_r}}", lw - gw) } else { "gi_r".to_string() };
    let _ = writeln!(s, "      if (pro) begin\n        if (ecyc_r == 16'd1) live_r <= {lw}'d1;\n      end else if (lc_r == 10'd1) begin\n        live_r <= {gi_ext} + {lw}'d2;\n      end");
    let _ = writeln!(s, "      if (~pro & (lc_r == 10'd1)) sc_r <= 2'd0;\n      else if (sc_r == 2'd{}) sc_r <= 2'd0;\n      else sc_r <= sc_r + 2'd1;", iv - 1);
    let _ = writeln!(s, "      if (ecyc_r == 16'd{}) begin\n        lc_r <= 10'd0;\n        gi_r <= {gw}'d0;\n      end else if (~pro) begin", p - 1);
    let _ = writeln!(
        s,
        "        if (lc_r + 10'd1 == tcur) begin\n          lc_r <= 10'd0;\n          gi_r <= (gi_r == {gw}'d{}) ? {gw}'d0 : gi_r + {gw}'d1;\n        end else begin\n          lc_r <= lc_r + 10'd1;\n        end\n      end",
        g - 1
    );
    let _ = writeln!(s, "      if (pro & (ecyc_r == 16'd{SWAP_CYCLE})) t_r <= tpend_i;");
    let _ = writeln!(s, "      ecyc_r <= (ecyc_r == 16'd{}) ? 16'd0 : ecyc_r + 16'd1;\n    end\n  end", p + e - 1);
    s += "endmodule\n";
    s
}

struct Merged {
    e_str: bool,
    e_loc: bool,
    w_str: bool,
    w_loc: bool,
    n_str: bool,
    s_str: bool,
    n_lat: u8,
    s_lat: u8,
    to_l: u8,
}

fn merge(rows: &[RomRow]) -> Merged {
    let mut m = Merged { e_str: false, e_loc: false, w_str: false, w_loc: false, n_str: false, s_str: false, n_lat: 0, s_lat: 0, to_l: 0 };
    for r in rows {
        for o in 0..5 {
            match (o, r.0[o]) {
                (E, Source::Direct(d)) => {
                    if d as usize == L {
                        m.e_loc = true
                    } else {
                        m.e_str = true
                    }
                }
                (W, Source::Direct(d)) => {
                    if d as usize == L {
                        m.w_loc = true
                    } else {
                        m.w_str = true
                    }
                }
                (N, Source::Direct(_)) => m.n_str = true,
                (S, Source::Direct(_)) => m.s_str = true,
                (N, Source::Latch(d)) => m.n_lat |= 1 << d,
                (S, Source::Latch(d)) => m.s_lat |= 1 << d,
                (L, Source::Latch(d)) => m.to_l |= 1 << d,
                _ => {}
            }
        }
    }
    m
}

/// One hinge router.
pub fn hinge(c: &NocConfig, preset: &str, x: u32, y: u32) -> String {
    let id = c.node(x, y);
    let lw = c.link_w();
    let liw = live_w(c);
    let g = c.g();
    let m = c.m();
    let cw = c.cw();
    let sw1 = c.sw() + 1;
    let schw = sched_w(c);
    let rom = &c.roms[id];
    let mut s = String::new();
    let _ = writeln!(s, "module {} (", hinge_name(preset, x, y));
    let _ = writeln!(s, "  input  wire clk_i,\n  input  wire rst_i,");
    for d in ["e", "w", "n", "s"] {
        let _ = writeln!(s, "  input  wire [{}:0] byp_in_{d}_i,", lw - 1);
    }
    for d in ["e", "w", "n", "s"] {
        let _ = writeln!(s, "  output wire [{}:0] byp_out_{d}_o,", lw - 1);
    }
    let _ = writeln!(
        s,
        "  input  wire loc_in_v_i,\n  input  wire [{l}:0] loc_in_link_i,\n  output wire loc_in_grant_o,\n  output wire loc_in_status_o,\n  output wire [{l}:0] loc_out_o,\n  output wire [{l}:0] dbg_inj_o,\n  output wire [{}:0] dbg_sched_o,\n  output wire [15:0] dbg_ecyc_o,\n  output wire [9:0] dbg_latch_state_o,\n  output wire [4:0] dbg_drop_o,\n  output wire dbg_overrun_o,\n  output wire dbg_collision_o\n);",
        schw - 1,
        l = lw - 1
    );
    let _ = writeln!(s, "  // Router ({x},{y}); ROM rows (ours, spec 1.4):");
    for (i, r) in rom.iter().enumerate() {
        let what = if i < m { format!("overlay {} (MC {i})", i + 1) } else { "GOM broadcast".into() };
        let _ = writeln!(s, "  //   row {i}: 30'h{:08x}  {what}: {}", r.bits(), r.symbolic());
    }
    // controller
    let gtw = g as u32 * TW;
    let _ = writeln!(s, "  reg [{}:0] tpend_r;", gtw - 1);
    let _ = writeln!(s, "  wire pro, reconf, last_period, gom_slot;\n  wire [{}:0] live;\n  wire [1:0] slot, fin;\n  wire [15:0] ecyc;", liw - 1);
    let _ = writeln!(
        s,
        "  {} ctrl (\n    .clk_i(clk_i), .rst_i(rst_i), .tpend_i(tpend_r),\n    .prologue_o(pro), .reconf_o(reconf), .live_o(live), .slot_o(slot), .final_o(fin),\n    .last_period_o(last_period), .gom_slot_o(gom_slot), .ecyc_o(ecyc)\n  );",
        ctrl_name(preset)
    );
    // merged live configurations
    let _ = writeln!(s, "  reg e_str, e_loc, w_str, w_loc, n_str, s_str;\n  reg [4:0] n_lat, s_lat, to_l;\n  reg [{}:0] ovl_a, ovl_b;", sw1 - 1);
    let none = (1u32 << sw1) - 1;
    let _ = writeln!(s, "  always @(*) begin\n    case (live)");
    let mut codes: Vec<(u32, Merged, u32, u32)> = vec![(0, merge(&[]), none, none), (1, merge(&rom[m..m + 1]), m as u32, none)];
    for (gi, mem) in c.groups.iter().enumerate() {
        let rows: Vec<RomRow> = mem.iter().map(|&i| rom[i]).collect();
        codes.push((2 + gi as u32, merge(&rows), mem[0] as u32, mem.get(1).map_or(none, |&i| i as u32)));
    }
    for (code, mg, a, b) in &codes {
        let _ = writeln!(
            s,
            "      {liw}'d{code}: begin e_str = 1'b{}; e_loc = 1'b{}; w_str = 1'b{}; w_loc = 1'b{}; n_str = 1'b{}; s_str = 1'b{}; n_lat = 5'b{:05b}; s_lat = 5'b{:05b}; to_l = 5'b{:05b}; ovl_a = {sw1}'d{a}; ovl_b = {sw1}'d{b}; end",
            mg.e_str as u8, mg.e_loc as u8, mg.w_str as u8, mg.w_loc as u8, mg.n_str as u8, mg.s_str as u8, mg.n_lat, mg.s_lat, mg.to_l
        );
    }
    let _ = writeln!(
        s,
        "      default: begin e_str = 1'b0; e_loc = 1'b0; w_str = 1'b0; w_loc = 1'b0; n_str = 1'b0; s_str = 1'b0; n_lat = 5'd0; s_lat = 5'd0; to_l = 5'd0; ovl_a = {sw1}'d{none}; ovl_b = {sw1}'d{none}; end\n    endcase\n  end"
    );
    let _ = writeln!(s, "  wire [4:0] uses = n_lat | s_lat | to_l;");
    let _ = writeln!(s, "  assign dbg_sched_o = {{pro, reconf, ovl_b, ovl_a}};\n  assign dbg_ecyc_o = ecyc;");
    // grant
    let grant = match c.mc_at(id) {
        Some(i) => {
            let (gi, ph) = c.group_of[i];
            let _ = writeln!(s, "  wire mine = (live == {liw}'d{}) & slot[{ph}];", gi + 2);
            let _ = writeln!(s, "  assign loc_in_status_o = mine & fin[{ph}] & last_period;");
            "mine".to_string()
        }
        None => {
            let _ = writeln!(s, "  assign loc_in_status_o = 1'b0;");
            if id == c.gom_node() {
                "gom_slot".into()
            } else {
                "1'b0".into()
            }
        }
    };
    let _ = writeln!(s, "  assign loc_in_grant_o = {grant};");
    let _ = writeln!(s, "  wire [{l}:0] inj = (loc_in_v_i & loc_in_grant_o) ? {{1'b1, loc_in_link_i[{}:0]}} : {lw}'d0;", lw - 2, l = lw - 1);
    let _ = writeln!(s, "  assign dbg_inj_o = inj;");
    // latches
    for d in 0..5 {
        let _ = writeln!(s, "  reg [{}:0] lat{d}_r;\n  reg [1:0] st{d}_r;\n  reg dn{d}_r, ds{d}_r;", lw - 1);
    }
    let wires = ["byp_in_e_i", "byp_in_w_i", "byp_in_n_i", "byp_in_s_i", "inj"];
    let tb = lw - 3; // type bits [lw-2:lw-3]
    for d in 0..5 {
        let _ = writeln!(s, "  // latch {d} ({})", ["E", "W", "N", "S", "L"][d]);
        let _ = writeln!(s, "  wire cap{d} = {}[{}] & uses[{d}];", wires[d], lw - 1);
        let _ = writeln!(s, "  wire cpt{d} = (st{d}_r == 2'd1);");
        let _ = writeln!(s, "  wire cfg{d} = (lat{d}_r[{}:{}] == 2'd2);", tb + 1, tb);
        let _ = writeln!(s, "  wire [{}:0] dx{d} = lat{d}_r[{}:64];\n  wire [{}:0] dy{d} = lat{d}_r[{}:{}];", cw - 1, 64 + cw - 1, cw - 1, 64 + 2 * cw - 1, 64 + cw);
        let _ = writeln!(s, "  wire xm{d} = (dx{d} == {cw}'d{x});");
        let _ = writeln!(s, "  wire ej{d} = cpt{d} & ~cfg{d} & xm{d} & (dy{d} == {cw}'d{y}) & to_l[{d}];");
        let gt = if y + 1 == c.n { "1'b0".to_string() } else { format!("(dy{d} > {cw}'d{y})") };
        let lt = if y == 0 { "1'b0".to_string() } else { format!("(dy{d} < {cw}'d{y})") };
        let _ = writeln!(s, "  wire tn{d} = cpt{d} & (cfg{d} ? n_lat[{d}] : (~ej{d} & xm{d} & {gt} & n_lat[{d}]));");
        let _ = writeln!(s, "  wire ts{d} = cpt{d} & (cfg{d} ? s_lat[{d}] : (~ej{d} & xm{d} & {lt} & s_lat[{d}] & ~tn{d}));");
        let _ = writeln!(s, "  assign dbg_drop_o[{d}] = cpt{d} & ~cfg{d} & ~ej{d} & ~tn{d} & ~ts{d};");
        let _ = writeln!(s, "  wire trn{d} = (st{d}_r == 2'd2);");
    }
    let _ = writeln!(s, "  assign dbg_latch_state_o = {{st4_r, st3_r, st2_r, st1_r, st0_r}};");
    let _ = writeln!(s, "  assign dbg_overrun_o = (cap0 & cpt0) | (cap1 & cpt1) | (cap2 & cpt2) | (cap3 & cpt3) | (cap4 & cpt4);");
    let _ = writeln!(s, "  wire [2:0] nej = {{2'd0, ej0}} + {{2'd0, ej1}} + {{2'd0, ej2}} + {{2'd0, ej3}} + {{2'd0, ej4}};\n  assign dbg_collision_o = nej > 3'd1;");
    let _ = writeln!(
        s,
        "  assign loc_out_o = ej0 ? lat0_r : ej1 ? lat1_r : ej2 ? lat2_r : ej3 ? lat3_r : ej4 ? lat4_r : {lw}'d0;"
    );
    // bypass outputs
    let _ = writeln!(s, "  assign byp_out_e_o = e_str ? byp_in_w_i : (e_loc ? inj : {lw}'d0);");
    let _ = writeln!(s, "  assign byp_out_w_o = w_str ? byp_in_e_i : (w_loc ? inj : {lw}'d0);");
    for (o, lat, dr, sin) in [("n", "n_lat", "dn", "byp_in_s_i"), ("s", "s_lat", "ds", "byp_in_n_i")] {
        let terms: Vec<String> = (0..5).map(|d| format!("(({lat}[{d}] & trn{d} & {dr}{d}_r) ? lat{d}_r : {lw}'d0)")).collect();
        let _ = writeln!(s, "  assign byp_out_{o}_o = {o}_str ? {sin} : ({});", terms.join(" | "));
    }
    // GOMCFG write
    let _ = writeln!(s, "  wire cw0 = cpt0 & cfg0, cw1 = cpt1 & cfg1, cw2 = cpt2 & cfg2, cw3 = cpt3 & cfg3, cw4 = cpt4 & cfg4;");
    let _ = writeln!(s, "  wire [63:0] cfgp = cw0 ? lat0_r[63:0] : cw1 ? lat1_r[63:0] : cw2 ? lat2_r[63:0] : cw3 ? lat3_r[63:0] : lat4_r[63:0];");
    let _ = writeln!(s, "  wire cfg_we = cw0 | cw1 | cw2 | cw3 | cw4;");
    let dflt: Vec<String> = c.default_windows.iter().rev().map(|t| format!("10'd{t}")).collect();
    let _ = writeln!(s, "  always @(posedge clk_i) begin");
    let _ = writeln!(s, "    if (rst_i) begin\n      tpend_r <= {{{}}};", dflt.join(", "));
    for d in 0..5 {
        let _ = writeln!(s, "      lat{d}_r <= {lw}'d0; st{d}_r <= 2'd0; dn{d}_r <= 1'b0; ds{d}_r <= 1'b0;");
    }
    let _ = writeln!(s, "    end else begin");
    for j in 0..g {
        let k = j % 6;
        let _ = writeln!(s, "      if (cfg_we & (cfgp[63:60] == 4'd{})) tpend_r[{}:{}] <= cfgp[{}:{}];", j / 6, (j as u32 + 1) * TW - 1, j as u32 * TW, 59 - 10 * k, 50 - 10 * k);
    }
    for d in 0..5 {
        let _ = writeln!(
            s,
            "      if (cap{d}) begin lat{d}_r <= {}; st{d}_r <= 2'd1; dn{d}_r <= 1'b0; ds{d}_r <= 1'b0; end\n      else if (tn{d} | ts{d}) begin st{d}_r <= 2'd2; dn{d}_r <= tn{d}; ds{d}_r <= ts{d}; end\n      else begin st{d}_r <= 2'd0; dn{d}_r <= 1'b0; ds{d}_r <= 1'b0; end",
            wires[d]
        );
    }
    let _ = writeln!(s, "    end\n  end");
    // unused bits
    let mut unused = vec!["loc_in_link_i[".to_string() + &format!("{}]", lw - 1)];
    unused.extend(["slot".into(), "fin".into(), "last_period".into(), "gom_slot".into(), "cfgp".into()]);
    let _ = writeln!(s, "  /* verilator lint_off UNUSEDSIGNAL */\n  wire unused = &{{1'b0, {}}};\n  /* verilator lint_on UNUSEDSIGNAL */", unused.join(", "));
    s += "endmodule\n";
    s
}

/// MC network interface of MC `i`.
pub fn mc_ni(c: &NocConfig, preset: &str, i: usize) -> String {
    let lw = c.link_w();
    let q = c.reply.reply_queue;
    let aw = clog2(q);
    let cw_ = aw + 1;
    let cw = c.cw();
    let sw = c.sw();
    let src_lo = 64 + 2 * cw;
    let mut s = String::new();
    let _ = writeln!(s, "module {} (", ni_name(preset, i));
    let _ = writeln!(
        s,
        "  input  wire clk_i,\n  input  wire rst_i,\n  input  wire push_v_i,\n  input  wire [{l}:0] push_link_i,\n  output wire ready_o,\n  input  wire grant_i,\n  input  wire status_i,\n  output wire loc_in_v_o,\n  output wire [{l}:0] loc_in_link_o\n);",
        l = lw - 1
    );
    let _ = writeln!(s, "  // MC {i} at ({}, {}); reply queue of {q} flits; STATUS to the GOM at ({}, {}).", c.mcs[i].0, c.mcs[i].1, c.gom.0, c.gom.1);
    let _ = writeln!(s, "  reg [{}:0] mem_r [0:{}];\n  reg [{}:0] head_r, tail_r;\n  reg [{}:0] count_r;\n  reg [15:0] arr_r;\n  reg [23:0] occ_r;", lw - 2, q - 1, aw - 1, cw_ - 1);
    let _ = writeln!(s, "  assign ready_o = count_r < {cw_}'d{q};");
    let _ = writeln!(s, "  wire empty = (count_r == {cw_}'d0);");
    let hdr = format!(
        "{{1'b1, 2'd1, 1'b1, 1'b1, {sw}'d{i}, {cw}'d{gy}, {cw}'d{gx}, 4'h1, 4'd{i}, arr_r, occ_r, 16'h0}}",
        gy = c.gom.1,
        gx = c.gom.0
    );
    let _ = writeln!(s, "  wire [{}:0] status_link = {hdr};", lw - 1);
    let _ = writeln!(s, "  assign loc_in_v_o = status_i | ~empty;");
    let _ = writeln!(s, "  assign loc_in_link_o = status_i ? status_link : (empty ? {lw}'d0 : {{1'b1, mem_r[head_r]}});");
    let _ = writeln!(s, "  wire xfer = loc_in_v_o & grant_i;\n  wire pop = xfer & ~status_i;\n  wire st_sent = xfer & status_i;\n  wire push = push_v_i & ready_o;");
    let _ = writeln!(
        s,
        "  wire [{}:0] push_word = {{push_link_i[{}:{}], {sw}'d{i}, push_link_i[{}:0]}};",
        lw - 2,
        lw - 2,
        src_lo + sw,
        src_lo - 1
    );
    let _ = writeln!(s, "  wire [16:0] arr_sum = {{1'b0, arr_r}} + {{16'd0, push}};\n  wire [24:0] occ_sum = {{1'b0, occ_r}} + {{{}'d0, count_r}};", 25 - cw_);
    let _ = writeln!(s, "  always @(posedge clk_i) begin\n    if (push) mem_r[tail_r] <= push_word;\n  end");
    let _ = writeln!(
        s,
        "  always @(posedge clk_i) begin\n    if (rst_i) begin\n      head_r <= {aw}'d0;\n      tail_r <= {aw}'d0;\n      count_r <= {cw_}'d0;\n      arr_r <= 16'd0;\n      occ_r <= 24'd0;\n    end else begin\n      if (pop) head_r <= head_r + {aw}'d1;\n      if (push) tail_r <= tail_r + {aw}'d1;\n      if (push & ~pop) count_r <= count_r + {cw_}'d1;\n      else if (pop & ~push) count_r <= count_r - {cw_}'d1;\n      if (st_sent) begin\n        arr_r <= {{15'd0, push}};\n        occ_r <= {{{}'d0, count_r}};\n      end else begin\n        arr_r <= arr_sum[16] ? 16'hffff : arr_sum[15:0];\n        occ_r <= occ_sum[24] ? 24'hffffff : occ_sum[23:0];\n      end\n    end\n  end",
        24 - cw_
    );
    let _ = writeln!(s, "  /* verilator lint_off UNUSEDSIGNAL */\n  wire unused = &{{1'b0, push_link_i[{}], push_link_i[{}:{}]}};\n  /* verilator lint_on UNUSEDSIGNAL */", lw - 1, src_lo + sw - 1, src_lo);
    s += "endmodule\n";
    s
}

/// The GOM: status registers, 10-step restoring dividers, largest remainder.
pub fn gom(c: &NocConfig, preset: &str) -> String {
    let lw = c.link_w();
    let m = c.m();
    let g = c.g();
    let k = c.reply.period;
    let tmin = c.reply.t_min;
    let budget = k - g as u32 * tmin;
    let flits = gomcfg_flits(g);
    let mut s = String::new();
    let _ = writeln!(s, "module {} (", gom_name(preset));
    let _ = writeln!(
        s,
        "  input  wire clk_i,\n  input  wire rst_i,\n  input  wire [15:0] ecyc_i,\n  input  wire [{l}:0] status_i,\n  output wire inj_v_o,\n  output wire [{l}:0] inj_link_o\n);",
        l = lw - 1
    );
    let _ = writeln!(s, "  // w_i = {}*arr + {}*occ; W_g = max over the group; T_g = {tmin} + floor({budget}*W_g/sum W) + largest-remainder share of K = {k}.", c.reply.alpha, c.reply.gamma);
    for i in 0..m {
        let _ = writeln!(s, "  reg [15:0] arr{i}_r;\n  reg [23:0] occ{i}_r;");
    }
    let tb = lw - 3;
    let _ = writeln!(s, "  wire st_v = status_i[{}] & (status_i[{}:{}] == 2'd1);\n  wire [3:0] st_mc = status_i[59:56];", lw - 1, tb + 1, tb);
    // weights
    for i in 0..m {
        let _ = writeln!(s, "  wire [31:0] w{i} = ({{16'd0, arr{i}_r}} * 32'd{}) + ({{8'd0, occ{i}_r}} * 32'd{});", c.reply.alpha, c.reply.gamma);
    }
    for (gi, mem) in c.groups.iter().enumerate() {
        if mem.len() == 1 {
            let _ = writeln!(s, "  wire [31:0] wg{gi} = w{};", mem[0]);
        } else {
            let _ = writeln!(s, "  wire [31:0] wg{gi} = (w{a} > w{b}) ? w{a} : w{b};", a = mem[0], b = mem[1]);
        }
    }
    let allz: Vec<String> = (0..g).map(|gi| format!("(wg{gi} == 32'd0)")).collect();
    let _ = writeln!(s, "  wire allz = {};", allz.join(" & "));
    for gi in 0..g {
        let _ = writeln!(s, "  wire [31:0] we{gi} = allz ? 32'd1 : wg{gi};");
    }
    let sum: Vec<String> = (0..g).map(|gi| format!("{{3'd0, we{gi}}}")).collect();
    let _ = writeln!(s, "  wire [34:0] wsum = {};", sum.join(" + "));
    // divider state
    let _ = writeln!(s, "  reg [34:0] den_r;\n  reg [3:0] step_r;");
    for gi in 0..g {
        let _ = writeln!(s, "  reg [44:0] rem{gi}_r;\n  reg [9:0] q{gi}_r;\n  reg [9:0] t{gi}_r;");
        let _ = writeln!(s, "  wire [44:0] dsh{gi} = {{10'd0, den_r}} << step_r;\n  wire ge{gi} = rem{gi}_r >= dsh{gi};");
    }
    // remainder distribution
    let tq: Vec<String> = (0..g).map(|gi| format!("{{1'b0, q{gi}_r}}")).collect();
    let _ = writeln!(s, "  wire [10:0] qsum = {};", tq.join(" + "));
    let _ = writeln!(s, "  wire [10:0] left = 11'd{} - qsum;", budget);
    for gi in 0..g {
        let terms: Vec<String> = (0..g)
            .filter(|&h| h != gi)
            .map(|h| if h < gi { format!("{{3'd0, (rem{h}_r >= rem{gi}_r)}}") } else { format!("{{3'd0, (rem{h}_r > rem{gi}_r)}}") })
            .collect();
        let rank = if terms.is_empty() { "4'd0".to_string() } else { terms.join(" + ") };
        let _ = writeln!(s, "  wire [3:0] rank{gi} = {rank};");
    }
    let sc = SNAPSHOT_CYCLE;
    let _ = writeln!(s, "  always @(posedge clk_i) begin\n    if (rst_i) begin\n      den_r <= 35'd1;\n      step_r <= 4'd0;");
    for i in 0..m {
        let _ = writeln!(s, "      arr{i}_r <= 16'd0; occ{i}_r <= 24'd0;");
    }
    for (gi, t) in c.default_windows.iter().enumerate() {
        let _ = writeln!(s, "      rem{gi}_r <= 45'd0; q{gi}_r <= 10'd0; t{gi}_r <= 10'd{t};");
    }
    let _ = writeln!(s, "    end else begin");
    let _ = writeln!(s, "      if (ecyc_i == 16'd{sc}) begin\n        den_r <= wsum;\n        step_r <= 4'd9;");
    for gi in 0..g {
        let _ = writeln!(s, "        rem{gi}_r <= {{13'd0, we{gi}}} * 45'd{budget}; q{gi}_r <= 10'd0;");
    }
    for i in 0..m {
        let _ = writeln!(s, "        arr{i}_r <= 16'd0; occ{i}_r <= 24'd0;");
    }
    let _ = writeln!(s, "      end else begin");
    for i in 0..m {
        let _ = writeln!(s, "        if (st_v & (st_mc == 4'd{i})) begin arr{i}_r <= status_i[55:40]; occ{i}_r <= status_i[39:16]; end");
    }
    let _ = writeln!(s, "        if ((ecyc_i > 16'd{sc}) & (ecyc_i <= 16'd{})) begin", sc + 10);
    for gi in 0..g {
        let _ = writeln!(s, "          if (ge{gi}) begin rem{gi}_r <= rem{gi}_r - dsh{gi}; q{gi}_r <= q{gi}_r | (10'd1 << step_r); end");
    }
    let _ = writeln!(s, "          if (step_r != 4'd0) step_r <= step_r - 4'd1;\n        end");
    let _ = writeln!(s, "        if (ecyc_i == 16'd{}) begin", sc + 11);
    for gi in 0..g {
        let _ = writeln!(s, "          t{gi}_r <= 10'd{tmin} + q{gi}_r + {{9'd0, ({{7'd0, rank{gi}}} < left)}};");
    }
    let _ = writeln!(s, "        end\n      end\n    end\n  end");
    // injection
    let mut tv: Vec<String> = (0..g).map(|gi| format!("t{gi}_r")).collect();
    while tv.len() % 6 != 0 {
        tv.push("10'd0".into());
    }
    let _ = writeln!(s, "  wire f0 = (ecyc_i == 16'd{});", GOMCFG_CYCLE[0]);
    let f1 = if flits > 1 { format!("(ecyc_i == 16'd{})", GOMCFG_CYCLE[1]) } else { "1'b0".into() };
    let _ = writeln!(s, "  wire f1 = {f1};");
    let _ = writeln!(s, "  wire [63:0] p0 = {{4'd0, {}}};", tv[0..6].join(", "));
    if flits > 1 {
        let _ = writeln!(s, "  wire [63:0] p1 = {{4'd1, {}}};", tv[6..12].join(", "));
    } else {
        let _ = writeln!(s, "  wire [63:0] p1 = 64'd0;");
    }
    let _ = writeln!(s, "  assign inj_v_o = f0 | f1;");
    let _ = writeln!(s, "  assign inj_link_o = inj_v_o ? {{1'b1, 2'd2, 1'b1, 1'b1, {}'d0, f1 ? p1 : p0}} : {lw}'d0;", lw - 5 - 64);
    let _ = writeln!(
        s,
        "  /* verilator lint_off UNUSEDSIGNAL */\n  wire unused = &{{1'b0, status_i[{}:{}], status_i[63:60], status_i[15:0]}};\n  /* verilator lint_on UNUSEDSIGNAL */",
        tb - 1,
        64
    );
    s += "endmodule\n";
    s
}

/// The mesh top.
pub fn mesh(c: &NocConfig, preset: &str) -> String {
    let n = c.n;
    let lw = c.link_w();
    let h = hdr_w(c);
    let schw = sched_w(c);
    let gid = c.gom_node();
    let mut s = String::new();
    let ps = ports(c);
    let _ = writeln!(s, "module {} (", mesh_name(preset));
    for (i, p) in ps.iter().enumerate() {
        let dir = if p.dir == crate::manifest::Dir::Input { "input " } else { "output" };
        let rng = if p.width > 1 { format!("[{}:0] ", p.width - 1) } else { String::new() };
        let _ = writeln!(s, "  {dir} wire {rng}{}{}  // {}", p.name, if i + 1 < ps.len() { "," } else { "" }, p.doc);
    }
    let _ = writeln!(s, ");");
    let _ = writeln!(s, "  // {n}x{n} hinge-router mesh; node id = y*{n} + x; MCs {:?}; GOM at {:?}.", c.mcs, c.gom);
    for y in 0..n {
        for x in 0..n {
            let _ = writeln!(s, "  wire [{l}:0] e_x{x}y{y}, w_x{x}y{y}, n_x{x}y{y}, s_x{x}y{y}, lo_x{x}y{y}, li_x{x}y{y};", l = lw - 1);
            let _ = writeln!(s, "  wire lv_x{x}y{y}, gr_x{x}y{y}, stt_x{x}y{y};\n  wire [15:0] ec_x{x}y{y};");
        }
    }
    let (gx, gy) = c.gom;
    let _ = writeln!(s, "  wire [15:0] ecyc_gom = ec_x{gx}y{gy};\n  assign dbg_ecyc_o = ec_x0y0;");
    let zero = format!("{lw}'d0");
    for y in 0..n {
        for x in 0..n {
            let id = c.node(x, y) as u32;
            let bin_e = if x + 1 < n { format!("w_x{}y{y}", x + 1) } else { zero.clone() };
            let bin_w = if x > 0 { format!("e_x{}y{y}", x - 1) } else { zero.clone() };
            let bin_n = if y + 1 < n { format!("s_x{x}y{}", y + 1) } else { zero.clone() };
            let bin_s = if y > 0 { format!("n_x{x}y{}", y - 1) } else { zero.clone() };
            let ecyc = format!("ec_x{x}y{y}");
            let _ = writeln!(
                s,
                "  {} r_x{x}y{y} (\n    .clk_i(clk_i), .rst_i(rst_i),\n    .byp_in_e_i({bin_e}), .byp_in_w_i({bin_w}), .byp_in_n_i({bin_n}), .byp_in_s_i({bin_s}),\n    .byp_out_e_o(e_x{x}y{y}), .byp_out_w_o(w_x{x}y{y}), .byp_out_n_o(n_x{x}y{y}), .byp_out_s_o(s_x{x}y{y}),\n    .loc_in_v_i(lv_x{x}y{y}), .loc_in_link_i(li_x{x}y{y}), .loc_in_grant_o(gr_x{x}y{y}), .loc_in_status_o(stt_x{x}y{y}),\n    .loc_out_o(lo_x{x}y{y}), .dbg_inj_o({{dbg_inj_hdr_o[{ih}:{il}], dbg_inj_data_o[{dh}:{dl}]}}),\n    .dbg_sched_o(dbg_sched_o[{sh}:{sl}]), .dbg_ecyc_o({ecyc}),\n    .dbg_latch_state_o(dbg_latch_state_o[{lh}:{ll}]), .dbg_drop_o(dbg_drop_o[{drh}:{drl}]),\n    .dbg_overrun_o(dbg_overrun_o[{id}]), .dbg_collision_o(dbg_collision_o[{id}])\n  );",
                hinge_name(preset, x, y),
                ih = (id + 1) * h - 1,
                il = id * h,
                dh = (id + 1) * 64 - 1,
                dl = id * 64,
                sh = (id + 1) * schw - 1,
                sl = id * schw,
                lh = id * 10 + 9,
                ll = id * 10,
                drh = id * 5 + 4,
                drl = id * 5,
            );
            let _ = writeln!(s, "  assign dbg_grant_o[{id}] = gr_x{x}y{y};");
            for (k, dn) in ["e", "w", "n", "s"].iter().enumerate() {
                let f = id * 4 + k as u32;
                let _ = writeln!(s, "  assign dbg_link_hdr_o[{}:{}] = {dn}_x{x}y{y}[{}:64];", (f + 1) * h - 1, f * h, lw - 1);
                let _ = writeln!(s, "  assign dbg_link_data_o[{}:{}] = {dn}_x{x}y{y}[63:0];", (f + 1) * 64 - 1, f * 64);
            }
            let ej = if id as usize == gid {
                format!("(lo_x{x}y{y}[{}:{}] == 2'd1) ? {lw}'d0 : lo_x{x}y{y}", lw - 2, lw - 3)
            } else {
                format!("lo_x{x}y{y}")
            };
            let _ = writeln!(s, "  assign {{eject_hdr_o[{}:{}], eject_data_o[{}:{}]}} = {ej};", (id + 1) * h - 1, id * h, (id + 1) * 64 - 1, id * 64);
            if let Some(i) = c.mc_at(id as usize) {
                let _ = writeln!(
                    s,
                    "  {} ni_mc{i} (\n    .clk_i(clk_i), .rst_i(rst_i), .push_v_i(mc_reply_v_i[{i}]),\n    .push_link_i({{mc_reply_hdr_i[{}:{}], mc_reply_data_i[{}:{}]}}), .ready_o(mc_reply_ready_o[{i}]),\n    .grant_i(gr_x{x}y{y}), .status_i(stt_x{x}y{y}), .loc_in_v_o(lv_x{x}y{y}), .loc_in_link_o(li_x{x}y{y})\n  );",
                    ni_name(preset, i),
                    (i as u32 + 1) * h - 1,
                    i as u32 * h,
                    (i as u32 + 1) * 64 - 1,
                    i as u32 * 64
                );
            } else if id as usize == gid {
                let _ = writeln!(
                    s,
                    "  {} gom (\n    .clk_i(clk_i), .rst_i(rst_i), .ecyc_i(ecyc_gom), .status_i(lo_x{x}y{y}),\n    .inj_v_o(lv_x{x}y{y}), .inj_link_o(li_x{x}y{y})\n  );",
                    gom_name(preset)
                );
            } else {
                let _ = writeln!(s, "  assign lv_x{x}y{y} = 1'b0;\n  assign li_x{x}y{y} = {lw}'d0;");
            }
        }
    }
    // unused: status outputs of non-MC routers, edge outputs
    let mut un: Vec<String> = Vec::new();
    for y in 0..n {
        for x in 0..n {
            if c.mc_at(c.node(x, y)).is_none() {
                un.push(format!("stt_x{x}y{y}"));
            }
            if (x, y) != (0, 0) && (x, y) != c.gom {
                un.push(format!("ec_x{x}y{y}"));
            }
            if x + 1 == n {
                un.push(format!("e_x{x}y{y}"));
            }
            if x == 0 {
                un.push(format!("w_x{x}y{y}"));
            }
            if y + 1 == n {
                un.push(format!("n_x{x}y{y}"));
            }
            if y == 0 {
                un.push(format!("s_x{x}y{y}"));
            }
        }
    }
    let _ = writeln!(s, "  /* verilator lint_off UNUSEDSIGNAL */\n  wire unused = &{{1'b0, {}}};\n  /* verilator lint_on UNUSEDSIGNAL */", un.join(", "));
    s += "endmodule\n";
    s
}
