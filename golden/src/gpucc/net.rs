//! Golden model of `gpucc_net`: lanes, operand FIFOs, configuration registers and
//! mode control, cycle-accurate at every port of the generated Verilog.
//!
//! Behaviour (spec §1.3–1.5, §1.9, with the choices written down in the README):
//!
//! * **Lanes.** Lane `l` is a chain of segments in increasing position order. A unit
//!   whose CR drives lane `l` ends the incoming segment at its own position and drives
//!   the next one. Operand FIFO `k` of the unit at `p` consumes the *incoming* segment
//!   of its lane at `p` (before `p`'s own drive), its own result (SELF), the CR
//!   immediate (IMM), or nothing.
//! * **Ready.** `rdy_in[p][l] = AND(!full of consumers of l at p) & (drive[p][l] | rdy_in[p+1][l])`;
//!   a unit's `u_out_ready` is `active & en & (driving & lane_en ? rdy_in[p+1][lane] : 1) & AND(!full of its SELF FIFOs)`.
//!   `full` is registered, so there is no combinational loop.
//! * **Transfer.** `u_fire = u_out_v & u_out_ready`; every FIFO selecting that segment
//!   (or SELF) pushes the data at the clock edge: atomic multicast.
//! * **Operands.** FIFO slots present `v = active & !empty` and the head (0 when not
//!   valid); IMM slots `v = 1`, data = immediate; unused slots `v = 1`, data 0.
//!   `u_in_yumi` pops a FIFO slot that is valid; a yumi on an invalid FIFO slot is
//!   ignored and flagged on `dbg_pop_empty_err`.
//! * **Mode FSM.** GPU -(cc_start)-> ARM (one cycle: clear FIFOs, preload initial
//!   tokens) -> RUN -(all counted units done)-> DRAIN -(mem_idle)-> GPU, with `cc_done`
//!   pulsed. In RUN a watchdog counts cycles without any fire; on the `watchdog`-th
//!   consecutive idle cycle the FSM aborts to GPU and pulses `wdog`.
//! * **Configuration.** Writes are accepted only in GPU mode and for `cfg_unit < N_POS`;
//!   any other write is ignored and pulses `cfg_err` in the next cycle. `cfg_rdata` is
//!   the addressed CR word (0 for an out-of-range unit).

use super::config::{GpuccConfig, UnitKind, N_IN};
use super::cr::{Cr, Src, CR_WORDS};
use super::fifo::Fifo;

/// Mode of the SM (spec §1.9); `mode_o` carries the discriminant, [`MODE_BITS`] wide.
/// This is the one definition of the mode codes: the RTL mode FSM
/// (`hdl_gen::leaf::mode`) takes them from [`Mode::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    Gpu = 0,
    Arm = 1,
    Run = 2,
    Drain = 3,
}

/// Width of `mode_o`.
pub const MODE_BITS: u32 = 2;

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Gpu, Mode::Arm, Mode::Run, Mode::Drain];

    /// The code on `mode_o`.
    pub const fn code(self) -> u64 {
        self as u64
    }

    pub fn from_code(c: u64) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.code() == c)
    }

    /// The network moves tokens in RUN and DRAIN.
    pub fn active(self) -> bool {
        matches!(self, Mode::Run | Mode::Drain)
    }
}

/// Planted bugs, for showing that co-simulation and the invariant checker catch
/// real logic errors. `None` in every production use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// SELF FIFOs are left out of `u_out_ready`: a full SELF FIFO drops tokens.
    IgnoreSelfFull,
    /// A driver does not end the incoming segment's ready chain, so a full consumer
    /// downstream of a re-driven lane stalls the wrong producer.
    ReadyThroughDriver,
    /// `cc_init` forgets the initial tokens.
    NoPreload,
    /// Configuration writes are accepted in every mode.
    CfgWriteAnyMode,
}

/// Inputs of one cycle (all `*_i` ports except the clock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetInputs {
    pub rst: bool,
    pub cc_start: bool,
    pub unit_done: Vec<bool>,
    pub mem_idle: bool,
    pub cfg_we: bool,
    pub cfg_unit: u32,
    pub cfg_word: u32,
    pub cfg_wdata: u32,
    pub u_out_v: Vec<bool>,
    pub u_out_lane_en: Vec<bool>,
    pub u_out_data: Vec<u64>,
    /// Index `p * 3 + k`.
    pub u_in_yumi: Vec<bool>,
    pub lsu_peek_idx: Vec<u32>,
}

impl NetInputs {
    /// All inputs low.
    pub fn new(cfg: &GpuccConfig) -> Self {
        let n = cfg.n_pos();
        NetInputs {
            rst: false,
            cc_start: false,
            unit_done: vec![false; n],
            mem_idle: false,
            cfg_we: false,
            cfg_unit: 0,
            cfg_word: 0,
            cfg_wdata: 0,
            u_out_v: vec![false; n],
            u_out_lane_en: vec![false; n],
            u_out_data: vec![0; n],
            u_in_yumi: vec![false; n * N_IN],
            lsu_peek_idx: vec![0; cfg.n_lsu()],
        }
    }
}

/// Outputs of one cycle (all `*_o` ports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetOutputs {
    pub mode: Mode,
    pub cc_done: bool,
    pub wdog: bool,
    pub cfg_rdata: u32,
    pub cfg_err: bool,
    pub unit_cfg: Vec<[u32; CR_WORDS]>,
    pub u_out_ready: Vec<bool>,
    pub u_fire: Vec<bool>,
    /// Index `p * 3 + k`.
    pub u_in_v: Vec<bool>,
    pub u_in_data: Vec<u64>,
    pub lsu_peek_data: Vec<u64>,
    pub lsu_addr_count: Vec<u32>,
    /// Index `p * 3 + k`; 0 for a slot without a FIFO.
    pub fifo_count: Vec<u32>,
    /// Index `l * N_POS + p`: the segment of lane `l` leaving position `p` fires.
    pub seg_fire: Vec<bool>,
    pub pop_empty_err: bool,
    pub push_full_err: bool,
}

impl NetOutputs {
    pub fn new(cfg: &GpuccConfig) -> Self {
        let n = cfg.n_pos();
        NetOutputs {
            mode: Mode::Gpu,
            cc_done: false,
            wdog: false,
            cfg_rdata: 0,
            cfg_err: false,
            unit_cfg: vec![[0; CR_WORDS]; n],
            u_out_ready: vec![false; n],
            u_fire: vec![false; n],
            u_in_v: vec![false; n * N_IN],
            u_in_data: vec![0; n * N_IN],
            lsu_peek_data: vec![0; cfg.n_lsu()],
            lsu_addr_count: vec![0; cfg.n_lsu()],
            fifo_count: vec![0; n * N_IN],
            seg_fire: vec![false; cfg.n_lanes() * n],
            pop_empty_err: false,
            push_full_err: false,
        }
    }
}

/// A CR as the network uses it, decoded once per write.
#[derive(Debug, Clone, Copy, Default)]
pub struct PosCfg {
    pub en: bool,
    pub drive: Option<u8>,
    pub src: [Src; N_IN],
    pub init_cnt: [u32; N_IN],
    pub imm: u64,
    pub init_val: u64,
    /// `en && fire_count != 0`: this unit must report done before DRAIN.
    pub counted: bool,
}

impl PosCfg {
    fn decode(words: [u32; CR_WORDS], kind: UnitKind, lanes: u32, mask: u64) -> PosCfg {
        let cr = Cr::from_words(words);
        if !cr.en {
            return PosCfg { imm: cr.imm as u64 & mask, init_val: cr.init_val as u64 & mask, ..PosCfg::default() };
        }
        let mut src = [Src::Unused; N_IN];
        for (k, s) in src.iter_mut().enumerate() {
            *s = if kind == UnitKind::Lsu && k == 2 { Src::Unused } else { cr.src(k, lanes) };
        }
        PosCfg { en: true, drive: cr.drive_lane(lanes), src, init_cnt: cr.init_cnt, imm: cr.imm as u64 & mask, init_val: cr.init_val as u64 & mask, counted: cr.fire_count != 0 }
    }

    fn uses_fifo(&self, k: usize) -> bool {
        matches!(self.src[k], Src::Lane(_) | Src::SelfLoop)
    }
}

/// Registered state of the network.
#[derive(Debug, Clone)]
struct State {
    mode: Mode,
    cc_done: bool,
    wdog: bool,
    cfg_err: bool,
    wdog_cnt: u32,
    cr: Vec<[u32; CR_WORDS]>,
    fifos: Vec<Option<Fifo>>,
}

/// What `commit` will apply, computed by `eval`.
#[derive(Debug, Clone, Default)]
struct Pending {
    rst: bool,
    pops: Vec<bool>,
    pushes: Vec<Option<u64>>,
    cfg_write: Option<(usize, usize, u32)>,
    cfg_err: bool,
    mode: Option<Mode>,
    cc_done: bool,
    wdog: bool,
    wdog_cnt: u32,
    init: bool,
}

/// The GPU-CC lane network golden model.
#[derive(Debug, Clone)]
pub struct CcNet {
    cfg: std::sync::Arc<GpuccConfig>,
    n: usize,
    lanes: usize,
    lanes_u32: u32,
    mask: u64,
    watchdog: u32,
    kinds: Vec<UnitKind>,
    lsu_pos: Vec<usize>,
    s: State,
    dec: Vec<PosCfg>,
    next: Pending,
    // scratch, reused every cycle
    drv_rdy: Vec<bool>,
    self_ok: Vec<bool>,
    ready_fresh: bool,
    rdy: Vec<bool>,
    seg_v: Vec<bool>,
    seg_d: Vec<u64>,
    pub mutation: Option<Mutation>,
}

impl CcNet {
    /// A network in its post-reset state.
    pub fn new(cfg: &GpuccConfig) -> Self {
        let n = cfg.n_pos();
        let fifos = (0..n * N_IN).map(|s| cfg.fifo_depth(s / N_IN, s % N_IN).map(Fifo::new)).collect();
        let mut net = CcNet {
            cfg: std::sync::Arc::new(cfg.clone()),
            n,
            lanes: cfg.n_lanes(),
            lanes_u32: cfg.lanes,
            mask: cfg.data_mask(),
            watchdog: cfg.watchdog,
            kinds: cfg.kinds.clone(),
            lsu_pos: cfg.lsu_pos.clone(),
            s: State { mode: Mode::Gpu, cc_done: false, wdog: false, cfg_err: false, wdog_cnt: 0, cr: vec![[0; CR_WORDS]; n], fifos },
            dec: vec![PosCfg::default(); n],
            next: Pending { pops: vec![false; n * N_IN], pushes: vec![None; n * N_IN], ..Pending::default() },
            drv_rdy: vec![false; n],
            self_ok: vec![false; n],
            ready_fresh: false,
            rdy: vec![true; cfg.n_lanes()],
            seg_v: vec![false; cfg.n_lanes()],
            seg_d: vec![0; cfg.n_lanes()],
            mutation: None,
        };
        net.redecode_all();
        net
    }

    fn redecode_all(&mut self) {
        for p in 0..self.n {
            self.dec[p] = PosCfg::decode(self.s.cr[p], self.kinds[p], self.lanes_u32, self.mask);
        }
    }

    /// Current mode (registered).
    pub fn mode(&self) -> Mode {
        self.s.mode
    }

    /// The decoded CR of position `p`.
    pub fn pos_cfg(&self, p: usize) -> &PosCfg {
        &self.dec[p]
    }

    /// Raw CR words of position `p`.
    pub fn cr_words(&self, p: usize) -> [u32; CR_WORDS] {
        self.s.cr[p]
    }

    /// Registered occupancy of FIFO `k` at `p` (None if the slot has no FIFO).
    pub fn fifo_count(&self, p: usize, k: usize) -> Option<u32> {
        self.s.fifos[p * N_IN + k].as_ref().map(Fifo::count)
    }

    /// Whether operand slot `(p, k)` presents a valid token this cycle. Depends only
    /// on registered state, so stimulus may consult it before driving `u_in_yumi`.
    pub fn in_valid(&self, p: usize, k: usize) -> bool {
        let d = &self.dec[p];
        if d.uses_fifo(k) {
            self.s.mode.active() && self.s.fifos[p * N_IN + k].as_ref().is_some_and(|f| !f.empty())
        } else {
            true
        }
    }

    /// Compute the per-position ready terms from registered state (the backward
    /// ready chain and the SELF FIFO room). Nothing here depends on this cycle's
    /// inputs except through `lane_en`, which [`CcNet::out_ready`] applies.
    pub fn compute_ready(&mut self) {
        if self.ready_fresh {
            return;
        }
        let n = self.n;
        let mutation = self.mutation;
        for r in self.rdy.iter_mut() {
            *r = true;
        }
        for p in (0..n).rev() {
            let d = &self.dec[p];
            self.drv_rdy[p] = match d.drive {
                Some(l) => self.rdy[l as usize],
                None => true,
            };
            if let Some(l) = d.drive {
                if mutation != Some(Mutation::ReadyThroughDriver) {
                    self.rdy[l as usize] = true;
                }
            }
            for k in 0..N_IN {
                if let Src::Lane(l) = d.src[k] {
                    if self.s.fifos[p * N_IN + k].as_ref().is_some_and(Fifo::full) {
                        self.rdy[l as usize] = false;
                    }
                }
            }
        }

        for p in 0..n {
            let d = &self.dec[p];
            let mut ok = true;
            if mutation != Some(Mutation::IgnoreSelfFull) {
                for k in 0..N_IN {
                    if d.src[k] == Src::SelfLoop && self.s.fifos[p * N_IN + k].as_ref().is_some_and(Fifo::full) {
                        ok = false;
                    }
                }
            }
            self.self_ok[p] = ok;
        }
        self.ready_fresh = true;
    }

    /// `u_out_ready[p]` this cycle for a given `lane_en`, from registered state only
    /// (valid and yumi do not enter it). Lets a unit model decide its pops from its
    /// own fire in the same cycle, as the hardware does combinationally.
    pub fn out_ready(&mut self, p: usize, lane_en: bool) -> bool {
        self.compute_ready();
        let d = &self.dec[p];
        let lane_ok = !(d.drive.is_some() && lane_en) || self.drv_rdy[p];
        self.s.mode.active() && d.en && lane_ok && self.self_ok[p]
    }

    /// Operand slot `(p, k)` as presented this cycle: `(valid, data)`, from
    /// registered state only.
    pub fn operand(&self, p: usize, k: usize) -> (bool, u64) {
        let d = &self.dec[p];
        match d.src[k] {
            Src::Lane(_) | Src::SelfLoop => {
                let f = self.s.fifos[p * N_IN + k].as_ref().expect("LSU slot 2 is never a FIFO source");
                let v = self.s.mode.active() && !f.empty();
                (v, if v { f.head(d.init_val) } else { 0 })
            }
            Src::Imm => (true, d.imm),
            Src::Unused => (true, 0),
        }
    }

    /// LSU `j` look-ahead: entry `idx` of its address FIFO and the FIFO's occupancy,
    /// as `lsu_peek_data_o`/`lsu_addr_count_o` would show them (0 outside RUN/DRAIN).
    pub fn peek(&self, j: usize, idx: u32) -> (u64, u32) {
        let p = self.lsu_pos[j];
        let f = self.s.fifos[p * N_IN].as_ref().expect("LSU address FIFO");
        if self.s.mode.active() {
            (f.peek(idx, self.dec[p].init_val), f.count())
        } else {
            (0, 0)
        }
    }

    /// Evaluate one cycle: outputs from registered state and `inp`; next state kept
    /// for [`CcNet::commit`].
    pub fn eval(&mut self, inp: &NetInputs, out: &mut NetOutputs) {
        let n = self.n;
        let mode = self.s.mode;
        let active = mode.active();
        let mask = self.mask;
        let mutation = self.mutation;

        self.compute_ready();

        // ---- unit handshakes ----
        let mut any_fire = false;
        for p in 0..n {
            let d = &self.dec[p];
            let lane_ok = !(d.drive.is_some() && inp.u_out_lane_en[p]) || self.drv_rdy[p];
            let ready = active && d.en && lane_ok && self.self_ok[p];
            out.u_out_ready[p] = ready;
            let fire = ready && inp.u_out_v[p];
            out.u_fire[p] = fire;
            any_fire |= fire;
        }

        // ---- forward segments and pushes ----
        let mut push_full_err = false;
        for v in self.seg_v.iter_mut() {
            *v = false;
        }
        for p in 0..n {
            let d = &self.dec[p];
            for k in 0..N_IN {
                let s = p * N_IN + k;
                let push = match d.src[k] {
                    Src::Lane(l) if self.seg_v[l as usize] => Some(self.seg_d[l as usize]),
                    Src::SelfLoop if out.u_fire[p] => Some(inp.u_out_data[p] & mask),
                    _ => None,
                };
                if push.is_some() && self.s.fifos[s].as_ref().is_some_and(Fifo::full) {
                    push_full_err = true;
                }
                self.next.pushes[s] = push;
            }
            if let Some(l) = d.drive {
                self.seg_v[l as usize] = out.u_fire[p] && inp.u_out_lane_en[p];
                self.seg_d[l as usize] = inp.u_out_data[p] & mask;
            }
            for l in 0..self.lanes {
                out.seg_fire[l * n + p] = self.seg_v[l];
            }
        }

        // ---- operands to the units, pops ----
        let mut pop_empty_err = false;
        for p in 0..n {
            let d = &self.dec[p];
            for k in 0..N_IN {
                let s = p * N_IN + k;
                out.fifo_count[s] = self.s.fifos[s].as_ref().map_or(0, Fifo::count);
                let (v, data) = self.operand(p, k);
                out.u_in_v[s] = v;
                out.u_in_data[s] = data;
                let fifo_slot = d.uses_fifo(k);
                let yumi = inp.u_in_yumi[s];
                self.next.pops[s] = yumi && fifo_slot && v;
                if yumi && fifo_slot && !v {
                    pop_empty_err = true;
                }
            }
        }
        out.pop_empty_err = pop_empty_err;
        out.push_full_err = push_full_err;

        // ---- LSU look-ahead ----
        for j in 0..self.lsu_pos.len() {
            let (d, c) = self.peek(j, inp.lsu_peek_idx[j]);
            out.lsu_peek_data[j] = d;
            out.lsu_addr_count[j] = c;
        }

        // ---- configuration port and mode ----
        let unit = inp.cfg_unit as usize;
        out.cfg_rdata = if unit < n { self.s.cr[unit][(inp.cfg_word & 3) as usize] } else { 0 };
        out.unit_cfg.copy_from_slice(&self.s.cr);
        out.mode = mode;
        out.cc_done = self.s.cc_done;
        out.wdog = self.s.wdog;
        out.cfg_err = self.s.cfg_err;

        let nx = &mut self.next;
        nx.rst = inp.rst;
        let write_ok = (mode == Mode::Gpu || mutation == Some(Mutation::CfgWriteAnyMode)) && unit < n;
        nx.cfg_write = (inp.cfg_we && write_ok).then_some((unit, (inp.cfg_word & 3) as usize, inp.cfg_wdata));
        nx.cfg_err = inp.cfg_we && !write_ok;
        nx.cc_done = false;
        nx.wdog = false;
        nx.init = false;
        nx.mode = None;
        nx.wdog_cnt = self.s.wdog_cnt;
        match mode {
            Mode::Gpu => {
                if inp.cc_start {
                    nx.mode = Some(Mode::Arm);
                }
            }
            Mode::Arm => {
                nx.init = true;
                nx.mode = Some(Mode::Run);
                nx.wdog_cnt = 0;
            }
            Mode::Run => {
                let mut any_counted = false;
                let mut all_done = true;
                for p in 0..n {
                    if self.dec[p].counted {
                        any_counted = true;
                        all_done &= inp.unit_done[p];
                    }
                }
                if any_counted && all_done {
                    nx.mode = Some(Mode::Drain);
                    nx.wdog_cnt = 0;
                } else if any_fire {
                    nx.wdog_cnt = 0;
                } else if self.s.wdog_cnt + 1 >= self.watchdog {
                    nx.mode = Some(Mode::Gpu);
                    nx.wdog = true;
                    nx.wdog_cnt = 0;
                } else {
                    nx.wdog_cnt = self.s.wdog_cnt + 1;
                }
            }
            Mode::Drain => {
                if inp.mem_idle {
                    nx.mode = Some(Mode::Gpu);
                    nx.cc_done = true;
                }
            }
        }
    }

    /// Make the state computed by the last [`CcNet::eval`] current (the clock edge).
    pub fn commit(&mut self) {
        self.ready_fresh = false;
        let nx = &self.next;
        if nx.rst {
            self.s.mode = Mode::Gpu;
            self.s.cc_done = false;
            self.s.wdog = false;
            self.s.cfg_err = false;
            self.s.wdog_cnt = 0;
            for w in self.s.cr.iter_mut() {
                *w = [0; CR_WORDS];
            }
            for f in self.s.fifos.iter_mut().flatten() {
                f.reset();
            }
            self.redecode_all();
            return;
        }
        if nx.init {
            let no_preload = self.mutation == Some(Mutation::NoPreload);
            for p in 0..self.n {
                let d = self.dec[p];
                for k in 0..N_IN {
                    if let Some(f) = self.s.fifos[p * N_IN + k].as_mut() {
                        f.init(if d.en && !no_preload { d.init_cnt[k] } else { 0 });
                    }
                }
            }
        } else {
            for (s, f) in self.s.fifos.iter_mut().enumerate() {
                if let Some(f) = f {
                    let pop = nx.pops[s];
                    let push = nx.pushes[s];
                    if pop || push.is_some() {
                        f.clock(pop, push);
                    }
                }
            }
        }
        if let Some((u, w, v)) = nx.cfg_write {
            self.s.cr[u][w] = v;
            self.dec[u] = PosCfg::decode(self.s.cr[u], self.kinds[u], self.lanes_u32, self.mask);
        }
        self.s.cfg_err = nx.cfg_err;
        self.s.cc_done = nx.cc_done;
        self.s.wdog = nx.wdog;
        self.s.wdog_cnt = nx.wdog_cnt;
        if let Some(m) = nx.mode {
            self.s.mode = m;
        }
    }

    /// `eval` then `commit`.
    pub fn step(&mut self, inp: &NetInputs, out: &mut NetOutputs) {
        self.eval(inp, out);
        self.commit();
    }
}

/// The network as a clocked model for any bench: [`CcNet::eval`] computes outputs and
/// the next state, [`CcNet::commit`] makes it current.
impl crate::model::Model for CcNet {
    type In = NetInputs;
    type Out = NetOutputs;

    fn idle_inputs(&self) -> NetInputs {
        NetInputs::new(&self.cfg)
    }

    fn new_outputs(&self) -> NetOutputs {
        NetOutputs::new(&self.cfg)
    }

    fn eval(&mut self, inputs: &NetInputs, outputs: &mut NetOutputs) {
        CcNet::eval(self, inputs, outputs)
    }

    fn commit(&mut self, _inputs: &NetInputs) {
        CcNet::commit(self)
    }

    fn assert_reset(inputs: &mut NetInputs) {
        inputs.rst = true;
    }
}
