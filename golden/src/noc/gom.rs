//! Global Overlay Manager (spec §1.9): collects each MC's STATUS once per epoch,
//! computes the next window set in integer arithmetic, and injects the GOMCFG
//! broadcast in prologue cycles 23 (and 25 when G > 6).
//!
//! The RTL computes the same numbers with a sequential divider inside the 21-cycle
//! compute budget; only the broadcast flits are architecturally visible, and they are
//! what the co-simulation compares.

use super::config::NocConfig;
use super::link::{gomcfg_payload, Flit, LinkFmt, T_GOMCFG};
pub use super::window::window_lengths;

/// Prologue cycle of GOMCFG flit `i` (0 or 1).
pub const GOMCFG_CYCLE: [u32; 2] = [23, 25];
/// Prologue cycle at which the GOM snapshots the statuses and starts computing.
pub const SNAPSHOT_CYCLE: u32 = 2;
/// End of this prologue cycle: every router copies T-pending into T.
pub const SWAP_CYCLE: u32 = 29;

/// Group weights from per-MC statuses: `w_i = alpha*arr_i + gamma*occ_i`,
/// `W_g = max over members`.
pub fn group_weights(c: &NocConfig, arr: &[u32], occ: &[u32]) -> Vec<u64> {
    c.groups.iter().map(|mem| mem.iter().map(|&i| c.reply.alpha as u64 * arr[i] as u64 + c.reply.gamma as u64 * occ[i] as u64).max().unwrap_or(0)).collect()
}

/// The GOM block.
#[derive(Debug, Clone)]
pub struct Gom {
    fmt: LinkFmt,
    /// Latest STATUS per MC this epoch (cleared at the snapshot).
    pub arr: Vec<u32>,
    pub occ: Vec<u32>,
    /// Result of the last computation (broadcast in this prologue).
    pub result: Vec<u32>,
    g: usize,
    pub mutation: Option<GomMutation>,
    n_arr: Vec<u32>,
    n_occ: Vec<u32>,
    n_result: Option<Vec<u32>>,
    cfg: NocConfig,
}

/// Planted GOM bugs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GomMutation {
    /// The remainder is not distributed: ΣT < K.
    NoRemainder,
}

impl Gom {
    pub fn new(c: &NocConfig) -> Gom {
        Gom {
            fmt: LinkFmt::new(c),
            arr: vec![0; c.m()],
            occ: vec![0; c.m()],
            result: c.default_windows.clone(),
            g: c.g(),
            mutation: None,
            n_arr: vec![0; c.m()],
            n_occ: vec![0; c.m()],
            n_result: None,
            cfg: c.clone(),
        }
    }

    pub fn reset(&mut self) {
        self.arr.iter_mut().for_each(|x| *x = 0);
        self.occ.iter_mut().for_each(|x| *x = 0);
        self.result = self.cfg.default_windows.clone();
    }

    /// Compute the window set from statuses.
    pub fn compute(&self, arr: &[u32], occ: &[u32]) -> Vec<u32> {
        let w = group_weights(&self.cfg, arr, occ);
        let mut t = window_lengths(&w, self.cfg.reply.period, self.cfg.reply.t_min);
        if self.mutation == Some(GomMutation::NoRemainder) {
            let wsum: u64 = if w.iter().all(|&x| x == 0) { t.len() as u64 } else { w.iter().sum() };
            let ww: Vec<u64> = if w.iter().all(|&x| x == 0) { vec![1; t.len()] } else { w.clone() };
            let budget = (self.cfg.reply.period - t.len() as u32 * self.cfg.reply.t_min) as u64;
            t = ww.iter().map(|&x| self.cfg.reply.t_min + (budget * x / wsum) as u32).collect();
        }
        t
    }

    /// The injection this cycle (`ecyc` = epoch-relative cycle), as a link value with
    /// the valid bit set, or 0.
    pub fn inject(&self, ecyc: u32) -> u128 {
        for (i, &cy) in GOMCFG_CYCLE.iter().enumerate() {
            if ecyc == cy && (i as u32) < super::link::gomcfg_flits(self.g) {
                let f = Flit { valid: true, ty: T_GOMCFG, head: true, tail: true, src: 0, dst_x: 0, dst_y: 0, payload: gomcfg_payload(i as u32, &self.result) };
                return self.fmt.pack(&f);
            }
        }
        0
    }

    /// Evaluate: a STATUS flit ejected at the GOM node this cycle (`status`, 0 if none).
    pub fn eval(&mut self, ecyc: u32, status: u128) {
        self.n_arr.clone_from(&self.arr);
        self.n_occ.clone_from(&self.occ);
        self.n_result = None;
        if ecyc == SNAPSHOT_CYCLE {
            self.n_result = Some(self.compute(&self.arr, &self.occ));
            self.n_arr.iter_mut().for_each(|x| *x = 0);
            self.n_occ.iter_mut().for_each(|x| *x = 0);
        }
        if self.fmt.is_valid(status) {
            let (mc, arr, occ) = super::link::status_fields(status as u64);
            let mc = mc as usize;
            if mc < self.n_arr.len() {
                self.n_arr[mc] = arr;
                self.n_occ[mc] = occ;
            }
        }
    }

    pub fn commit(&mut self) {
        std::mem::swap(&mut self.arr, &mut self.n_arr);
        std::mem::swap(&mut self.occ, &mut self.n_occ);
        if let Some(r) = self.n_result.take() {
            self.result = r;
        }
    }
}
