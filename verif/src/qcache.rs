//! The Q-cache rate monitor in lockstep: the port map of `qc_rate_monitor` (golden
//! `RateMonitor` ports to frames) and the bench of its one design kind.

use golden::model::Stimulus;
use golden::qcache::check::MonitorChecker;
use golden::qcache::config::QcacheConfig;
use golden::qcache::monitor::{MonitorInputs, MonitorOutputs, RateMonitor};
use golden::qcache::traffic::{EventTraffic, TrafficParams};
use golden::qcache::Qcache;
use hdl_gen::qcache::QcacheDesign;

use crate::bench::{expect_fields, expect_width, ModelBench, PortMap};
use crate::frame::{Frame, Layout, Slot};
use crate::lockstep::Bench;
use crate::run::{BenchOptions, Cosim};

/// Frame slots of every `qc_rate_monitor` port, resolved once.
#[derive(Debug, Clone)]
pub struct Ports {
    rst: Slot,
    kbegin: Slot,
    kend: Slot,
    ev_prod: Slot,
    ev_prod_dom: Slot,
    ev_cons: Slot,
    ev_cons_dom: Slot,
    ev_spill: Slot,
    req_ready: Slot,
    rsp_v: Slot,
    rsp_ack: Slot,
    rsp_dom: Slot,
    req_v: Slot,
    req_target: Slot,
    req_role: Slot,
    req_dir: Slot,
    req_ratio: Slot,
    req_restore: Slot,
    state: Slot,
    produced: Slot,
    consumed: Slot,
    spilled: Slot,
    cyc_p: Slot,
    cyc_c: Slot,
    q: Slot,
    q_max: Slot,
    qmax_valid: Slot,
    prod_mask: Slot,
    cons_mask: Slot,
    throttled: Slot,
    nbanks: usize,
}

impl Ports {
    pub fn new(l: &Layout, nbanks: usize) -> Ports {
        Ports {
            rst: l.input("rst_i"),
            kbegin: l.input("kbegin_i"),
            kend: l.input("kend_i"),
            ev_prod: l.input("ev_prod_i"),
            ev_prod_dom: l.input("ev_prod_dom_i"),
            ev_cons: l.input("ev_cons_i"),
            ev_cons_dom: l.input("ev_cons_dom_i"),
            ev_spill: l.input("ev_spill_i"),
            req_ready: l.input("req_ready_i"),
            rsp_v: l.input("rsp_v_i"),
            rsp_ack: l.input("rsp_ack_i"),
            rsp_dom: l.input("rsp_dom_i"),
            req_v: l.output("req_v_o"),
            req_target: l.output("req_target_o"),
            req_role: l.output("req_role_o"),
            req_dir: l.output("req_dir_o"),
            req_ratio: l.output("req_ratio_q44_o"),
            req_restore: l.output("req_restore_o"),
            state: l.output("state_o"),
            produced: l.output("produced_o"),
            consumed: l.output("consumed_o"),
            spilled: l.output("spilled_o"),
            cyc_p: l.output("cyc_p_o"),
            cyc_c: l.output("cyc_c_o"),
            q: l.output("q_o"),
            q_max: l.output("q_max_o"),
            qmax_valid: l.output("qmax_valid_o"),
            prod_mask: l.output("prod_mask_o"),
            cons_mask: l.output("cons_mask_o"),
            throttled: l.output("throttled_o"),
            nbanks,
        }
    }
}

impl PortMap<RateMonitor> for Ports {
    fn pack_inputs(&self, i: &MonitorInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set(&self.kbegin, i.kbegin as u64);
        f.set(&self.kend, i.kend as u64);
        let banks = self.ev_prod.last_mask();
        f.set_flags(&self.ev_prod, i.ev_prod & banks);
        f.set_flags(&self.ev_cons, i.ev_cons & banks);
        f.set_flags(&self.ev_spill, i.ev_spill & banks);
        f.set_fields(&self.ev_prod_dom, i.ev_prod_dom[..self.nbanks].iter().map(|d| u64::from(*d)));
        f.set_fields(&self.ev_cons_dom, i.ev_cons_dom[..self.nbanks].iter().map(|d| u64::from(*d)));
        f.set(&self.req_ready, i.req_ready as u64);
        f.set(&self.rsp_v, i.rsp_valid as u64);
        f.set(&self.rsp_ack, i.rsp_ack as u64);
        f.set(&self.rsp_dom, i.rsp_dom as u64);
    }

    fn pack_outputs(&self, o: &MonitorOutputs, f: &mut Frame) {
        f.set(&self.req_v, o.req_valid as u64);
        f.set(&self.req_target, o.req.target as u64);
        f.set(&self.req_role, o.req.role as u64);
        f.set(&self.req_dir, o.req.dir as u64);
        f.set(&self.req_ratio, o.req.ratio_q44 as u64);
        f.set(&self.req_restore, o.req.restore as u64);
        f.set(&self.state, o.state as u64);
        f.set(&self.produced, o.produced);
        f.set(&self.consumed, o.consumed);
        f.set(&self.spilled, o.spilled);
        f.set(&self.cyc_p, o.cyc_p);
        f.set(&self.cyc_c, o.cyc_c);
        f.set(&self.q, o.q);
        f.set(&self.q_max, o.q_max);
        f.set(&self.qmax_valid, o.qmax_valid as u64);
        f.set(&self.prod_mask, o.prod_mask as u64);
        f.set(&self.cons_mask, o.cons_mask as u64);
        f.set(&self.throttled, o.throttled as u64);
    }
}

/// Golden `qc_rate_monitor` driven by a stimulus, optionally watched by the scoreboard.
pub type MonitorBench<S> = ModelBench<RateMonitor, Ports, S, MonitorChecker>;

/// The bench of `qc_rate_monitor` for `cfg` with stimulus `stim` (scoreboard on).
pub fn monitor_bench<S: Stimulus<RateMonitor>>(cfg: &QcacheConfig, layout: &Layout, stim: S) -> Result<MonitorBench<S>, String> {
    expect_fields(layout, "ev_prod_i", cfg.nbanks as usize)?;
    expect_width(layout, "q_o", cfg.cnt_w)?;
    expect_width(layout, "req_target_o", cfg.ndom)?;
    Ok(ModelBench::new(RateMonitor::new(cfg), stim, Some(MonitorChecker::new(cfg)), Ports::new(layout, cfg.nbanks as usize)))
}

impl Cosim for Qcache {
    fn bench(cfg: &QcacheConfig, design: &QcacheDesign, layout: &Layout, opts: &BenchOptions) -> Result<Box<dyn Bench>, String> {
        match design {
            QcacheDesign::Monitor => {
                let b = monitor_bench(cfg, layout, EventTraffic::new(cfg, opts.seed, TrafficParams::for_config(cfg)))?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
            QcacheDesign::TransitionFilter => {
                let b = filter_bench(cfg, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
            QcacheDesign::GpuActuator => {
                let b = gpu_actuator_bench(cfg, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
            QcacheDesign::CpuDvfs => {
                let b = cpu_dvfs_bench(cfg, layout, opts.seed)?;
                Ok(Box::new(if opts.check { b } else { b.without_checker() }))
            }
        }
    }
}

impl<S: Stimulus<RateMonitor>> MonitorBench<S> {
    /// Plant a bug in the golden model.
    pub fn with_mutation(mut self, m: golden::qcache::monitor::Mutation) -> Self {
        self.model.mutation = Some(m);
        self
    }
}

// ---------------------------------------------------------------------------------
// The companion blocks of spec §5: transition filter, GPU actuator, CPU DVFS.
// ---------------------------------------------------------------------------------

use golden::invariant::Violation;
use golden::model::{Model, Scoreboard};
use golden::qcache::actuator::{ActInputs, ActOutputs, QcCpuDvfs, QcGpuActuator, GPU_PSTATES};
use golden::qcache::cpu::CPU_PSTATES;
use golden::qcache::filter::{FilterBank, FilterInputs, FilterOutputs, Transition, TransitionFilter};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The companion stimuli's random numbers (the monitor's traffic generator's Xoshiro).
#[derive(Debug, Clone)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0.random_range(0..n)
    }

    pub fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

/// Frame slots of `qc_transition_filter`.
#[derive(Debug, Clone)]
pub struct FilterPorts {
    rst: Slot,
    v: Slot,
    cur: Slot,
    next: Slot,
    req: Slot,
    dom: Slot,
    local: Slot,
    prod: Slot,
    prod_dom: Slot,
    cons: Slot,
    cons_dom: Slot,
    spill: Slot,
}

impl FilterPorts {
    pub fn new(l: &Layout) -> FilterPorts {
        FilterPorts {
            rst: l.input("rst_i"),
            v: l.input("v_i"),
            cur: l.input("cur_state_i"),
            next: l.input("next_state_i"),
            req: l.input("req_type_i"),
            dom: l.input("req_dom_i"),
            local: l.input("is_local_i"),
            prod: l.output("ev_prod_o"),
            prod_dom: l.output("ev_prod_dom_o"),
            cons: l.output("ev_cons_o"),
            cons_dom: l.output("ev_cons_dom_o"),
            spill: l.output("ev_spill_o"),
        }
    }
}

fn flags(v: &[bool]) -> u64 {
    v.iter().enumerate().fold(0, |m, (b, &x)| m | (x as u64) << b)
}

impl PortMap<FilterBank> for FilterPorts {
    fn pack_inputs(&self, i: &FilterInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set_flags(&self.v, flags(&i.v));
        f.set_fields(&self.cur, i.t.iter().map(|t| t.cur as u64));
        f.set_fields(&self.next, i.t.iter().map(|t| t.next as u64));
        f.set_fields(&self.req, i.t.iter().map(|t| t.req as u64));
        f.set_fields(&self.dom, i.t.iter().map(|t| t.dom as u64));
        f.set_flags(&self.local, flags(&i.t.iter().map(|t| t.local).collect::<Vec<_>>()));
    }

    fn pack_outputs(&self, o: &FilterOutputs, f: &mut Frame) {
        f.set_flags(&self.prod, o.ev_prod);
        f.set_flags(&self.cons, o.ev_cons);
        f.set_flags(&self.spill, o.ev_spill);
        f.set_fields(&self.prod_dom, o.ev_prod_dom.iter().map(|&d| d as u64));
        f.set_fields(&self.cons_dom, o.ev_cons_dom.iter().map(|&d| d as u64));
    }
}

/// Random line transitions on every bank: every state code (5-7 too), request kind and
/// domain, weighted toward M lines and local writes so every row of §1.2 fires often.
#[derive(Debug, Clone)]
pub struct TransitionTraffic {
    rng: Rng,
    dom_w: u32,
    /// Strobes the scoreboard saw (for coverage asserts): [prod, cons, spill].
    pub fired: [u64; 3],
}

impl TransitionTraffic {
    pub fn new(seed: u64, dom_w: u32) -> TransitionTraffic {
        TransitionTraffic { rng: Rng::new(seed), dom_w, fired: [0; 3] }
    }
}

impl golden::model::Stimulus<FilterBank> for TransitionTraffic {
    fn drive(&mut self, _m: &FilterBank, prev: &FilterOutputs, i: &mut FilterInputs) {
        for (k, v) in [prev.ev_prod, prev.ev_cons, prev.ev_spill].iter().enumerate() {
            self.fired[k] += v.count_ones() as u64;
        }
        i.rst = false;
        let r = &mut self.rng;
        for b in 0..i.v.len() {
            i.v[b] = r.pct(80);
            let cur = if r.pct(40) { 4 } else { r.below(8) as u8 };
            let next = if r.pct(40) { 4 } else { r.below(8) as u8 };
            let req = if r.pct(90) { r.below(5) as u8 } else { r.below(8) as u8 };
            i.t[b] = Transition { cur, next, req, dom: r.below(1 << self.dom_w) as u8, local: r.pct(50) };
        }
    }
}

/// The filter's scoreboard: spec §1.2's table written out as rows (state names, request
/// names), the registered strobes and domains one cycle later.
#[derive(Debug, Clone)]
pub struct FilterChecker {
    opts: TransitionFilter,
    prev: Option<FilterInputs>,
}

impl FilterChecker {
    pub fn new(opts: TransitionFilter) -> FilterChecker {
        FilterChecker { opts, prev: None }
    }

    /// (PRODUCE, CONSUME, SPILL) of one transition, from the table.
    fn table(&self, v: bool, cur: u8, next: u8, req: u8, local: bool) -> (bool, bool, bool) {
        let name = |s: u8| ["I", "S", "E", "O", "M", "I", "I", "I"][s as usize];
        let kind = |q: u8| ["READ", "WRITE", "FWD_GETS", "FWD_GETX", "WRITEBACK", "-", "-", "-"][q as usize];
        if !v {
            return (false, false, false);
        }
        let (c, n, q) = (name(cur), name(next), kind(req));
        // PRODUCE: "line goes from I, S or E to M" by a local write/atomic; O -> M by option
        let produce_from: &[&str] = if self.opts.count_o_to_m { &["I", "S", "E", "O"] } else { &["I", "S", "E"] };
        let produce = local && q == "WRITE" && n == "M" && produce_from.contains(&c);
        // CONSUME: a forwarded request of a different domain hits an M line; a local read by option
        let consume = c == "M" && ((!local && (q == "FWD_GETS" || q == "FWD_GETX")) || (local && q == "READ" && self.opts.count_local_hit_m));
        // SPILL: writeback of an M line (not O)
        let spill = c == "M" && q == "WRITEBACK";
        (produce, consume, spill)
    }
}

impl Scoreboard<FilterBank> for FilterChecker {
    fn observe(&mut self, cycle: u64, i: &FilterInputs, o: &FilterOutputs) -> Result<(), Violation> {
        if let Some(p) = self.prev.take().filter(|p| !p.rst) {
            for b in 0..p.v.len() {
                let t = &p.t[b];
                let want = self.table(p.v[b], t.cur, t.next, t.req, t.local);
                let got = (o.ev_prod >> b & 1 != 0, o.ev_cons >> b & 1 != 0, o.ev_spill >> b & 1 != 0);
                let dom_ok = o.ev_prod_dom[b] == if want.0 { t.dom } else { 0 } && o.ev_cons_dom[b] == if want.1 { t.dom } else { 0 };
                if got != want || !dom_ok {
                    return Err(Violation {
                        cycle,
                        invariant: "spec 1.2 transition table",
                        detail: format!("bank {b}: {t:?} gave (prod, cons, spill) {got:?} domains {}/{}, the table says {want:?}", o.ev_prod_dom[b], o.ev_cons_dom[b]),
                    });
                }
            }
        }
        self.prev = Some(i.clone());
        Ok(())
    }
}

/// Golden `qc_transition_filter` driven by random transitions, with the table scoreboard.
pub type FilterBench = ModelBench<FilterBank, FilterPorts, TransitionTraffic, FilterChecker>;

pub fn filter_bench(cfg: &QcacheConfig, layout: &Layout, seed: u64) -> Result<FilterBench, String> {
    expect_fields(layout, "v_i", cfg.nbanks as usize)?;
    let f = cfg.companion.filter;
    Ok(ModelBench::new(FilterBank::new(f, cfg.nbanks as usize), TransitionTraffic::new(seed, cfg.dom_w), Some(FilterChecker::new(f)), FilterPorts::new(layout)))
}

/// Frame slots of `qc_gpu_actuator` / `qc_cpu_dvfs` (the GPU's extra ports optional).
#[derive(Debug, Clone)]
pub struct ActPorts {
    rst: Slot,
    req_v: Slot,
    dir: Slot,
    ratio: Slot,
    restore: Slot,
    core_busy: Option<Slot>,
    rsp_v: Slot,
    rsp_ack: Slot,
    busy: Slot,
    pstate: Slot,
    dispatch: Option<Slot>,
    active: Option<Slot>,
}

impl ActPorts {
    pub fn new(l: &Layout) -> ActPorts {
        let gpu = l.has_input("core_busy_i");
        ActPorts {
            rst: l.input("rst_i"),
            req_v: l.input("req_v_i"),
            dir: l.input("req_dir_i"),
            ratio: l.input("req_ratio_q44_i"),
            restore: l.input("req_restore_i"),
            core_busy: gpu.then(|| l.input("core_busy_i")),
            rsp_v: l.output("rsp_v_o"),
            rsp_ack: l.output("rsp_ack_o"),
            busy: l.output("busy_o"),
            pstate: l.output("pstate_o"),
            dispatch: gpu.then(|| l.output("dispatch_o")),
            active: gpu.then(|| l.output("active_core_mask_o")),
        }
    }

    fn pack_in(&self, i: &ActInputs, f: &mut Frame) {
        f.set(&self.rst, i.rst as u64);
        f.set(&self.req_v, i.req_v as u64);
        f.set(&self.dir, i.speed as u64);
        f.set(&self.ratio, i.ratio_q44 as u64);
        f.set(&self.restore, i.restore as u64);
        if let Some(s) = &self.core_busy {
            f.set(s, i.core_busy as u64);
        }
    }

    fn pack_out(&self, o: &ActOutputs, f: &mut Frame) {
        f.set(&self.rsp_v, o.rsp_v as u64);
        f.set(&self.rsp_ack, o.rsp_ack as u64);
        f.set(&self.busy, o.busy as u64);
        f.set(&self.pstate, o.pstate as u64);
        if let (Some(d), Some(a)) = (&self.dispatch, &self.active) {
            f.set(d, o.dispatch as u64);
            f.set(a, o.active as u64);
        }
    }
}

impl PortMap<QcGpuActuator> for ActPorts {
    fn pack_inputs(&self, i: &ActInputs, f: &mut Frame) {
        self.pack_in(i, f)
    }

    fn pack_outputs(&self, o: &ActOutputs, f: &mut Frame) {
        self.pack_out(o, f)
    }
}

impl PortMap<QcCpuDvfs> for ActPorts {
    fn pack_inputs(&self, i: &ActInputs, f: &mut Frame) {
        self.pack_in(i, f)
    }

    fn pack_outputs(&self, o: &ActOutputs, f: &mut Frame) {
        self.pack_out(o, f)
    }
}

/// Random rate requests (slow and speed, ratios 0.5-16, RESTOREs, some while a
/// reconfiguration is under way) and, for the GPU, threadblocks on the cores that
/// dispatch: each core runs one at a time for 20-600 cycles.
#[derive(Debug, Clone)]
pub struct RequestTraffic {
    rng: Rng,
    tb_left: Vec<u32>,
    /// Responses seen: [ACK, NACK].
    pub answers: [u64; 2],
}

impl RequestTraffic {
    pub fn new(seed: u64, cores: u32) -> RequestTraffic {
        RequestTraffic { rng: Rng::new(seed), tb_left: vec![0; cores as usize], answers: [0; 2] }
    }

    fn drive_act(&mut self, prev: &ActOutputs, i: &mut ActInputs) {
        if prev.rsp_v {
            self.answers[!prev.rsp_ack as usize] += 1;
        }
        i.rst = false;
        let r = &mut self.rng;
        let p = if prev.busy { 1 } else { 4 };
        i.req_v = r.pct(p);
        i.restore = i.req_v && r.pct(12);
        i.speed = r.pct(45);
        i.ratio_q44 = match r.below(10) {
            0 => 0xff,
            1 => r.below(16) as u8,
            2..=5 => 0x10 + r.below(0x10) as u8,
            _ => 0x10 + r.below(0x50) as u8,
        };
        i.core_busy = 0;
        for (c, left) in self.tb_left.iter_mut().enumerate() {
            if *left > 0 {
                *left -= 1;
            } else if prev.dispatch >> c & 1 != 0 && r.pct(3) {
                *left = 20 + r.below(580) as u32;
            }
            i.core_busy |= ((*left > 0) as u32) << c;
        }
    }
}

impl golden::model::Stimulus<QcGpuActuator> for RequestTraffic {
    fn drive(&mut self, _m: &QcGpuActuator, prev: &ActOutputs, i: &mut ActInputs) {
        self.drive_act(prev, i)
    }
}

impl golden::model::Stimulus<QcCpuDvfs> for RequestTraffic {
    fn drive(&mut self, _m: &QcCpuDvfs, prev: &ActOutputs, i: &mut ActInputs) {
        self.drive_act(prev, i)
    }
}

/// The actuators' scoreboard: its own account of the setting, written from spec §1.8
/// and independent of the golden model. The choice is the brute-force minimum over
/// every setting, sorted by (|proxy − target| as an exact fraction, cores, MHz); the
/// ACK comes the cycle after the first cycle at least `max(latency, 1)` after the
/// acceptance at which the cores switched off are empty; NACK the cycle after a
/// request at the limit or during a reconfiguration (RESTORE excepted).
#[derive(Debug, Clone)]
pub struct ActChecker {
    /// Candidate settings (cores, MHz) and the nominal one.
    settings: Vec<(u32, u32)>,
    nominal: (u32, u32),
    /// P-state table (MHz) and transition cycles per step.
    table: Vec<u32>,
    lat: Vec<u64>,
    /// The setting in effect, the one under way and the cycle its countdown ends.
    cur: (u32, u32),
    flight: Option<((u32, u32), u64)>,
    /// The response due next cycle.
    due: Option<bool>,
    prev: Option<ActInputs>,
    /// Responses checked: [ACK, NACK], and ACKs that waited for a drain.
    pub seen: [u64; 3],
}

impl ActChecker {
    pub fn gpu(cores: u32, lat: Vec<u64>) -> ActChecker {
        let settings = (1..=cores).flat_map(|c| GPU_PSTATES.iter().map(move |&f| (c, f))).collect();
        let nominal = (cores, GPU_PSTATES[GPU_PSTATES.len() - 1]);
        ActChecker { settings, nominal, table: GPU_PSTATES.to_vec(), lat, cur: nominal, flight: None, due: None, prev: None, seen: [0; 3] }
    }

    pub fn cpu(nominal_mhz: u32, lat: Vec<u64>) -> ActChecker {
        let settings = CPU_PSTATES.iter().map(|&f| (1, f)).collect();
        ActChecker { settings, nominal: (1, nominal_mhz), table: CPU_PSTATES.to_vec(), lat, cur: (1, nominal_mhz), flight: None, due: None, prev: None, seen: [0; 3] }
    }

    fn pidx(&self, mhz: u32) -> usize {
        self.table.iter().position(|&f| f == mhz).expect("a P-state")
    }

    /// The brute-force choice: strictly in the direction, closest to the target
    /// (compared as fractions: target = cur·16/r or cur·r/16), fewer cores, lower MHz.
    fn choose(&self, speed: bool, ratio: u8) -> Option<(u32, u32)> {
        let r = (ratio as i128).max(16);
        let p = (self.cur.0 * self.cur.1) as i128;
        let (tn, td) = if speed { (p * r, 16) } else { (p * 16, r) };
        let mut ok: Vec<(i128, u32, u32)> = self
            .settings
            .iter()
            .filter(|&&(c, f)| if speed { (c * f) as i128 > p } else { ((c * f) as i128) < p })
            // |s - tn/td| = |s·td - tn| / td, one denominator for every candidate
            .map(|&(c, f)| (((c * f) as i128 * td - tn).abs(), c, f))
            .collect();
        ok.sort();
        ok.first().map(|&(_, c, f)| (c, f))
    }
}

fn mask(n: u32) -> u32 {
    ((1u64 << n) - 1) as u32
}

impl<M: Model<In = ActInputs, Out = ActOutputs>> Scoreboard<M> for ActChecker {
    fn observe(&mut self, cycle: u64, i: &ActInputs, o: &ActOutputs) -> Result<(), Violation> {
        let fail = |inv: &'static str, detail: String| Err(Violation { cycle, invariant: inv, detail });
        if let Some(p) = self.prev.take() {
            if p.rst {
                self.cur = self.nominal;
                self.flight = None;
                self.due = None;
            } else {
                // the previous cycle: its countdown and drain, then its request
                let mut done = false;
                if let Some((to, ends)) = self.flight {
                    let off = mask(self.nominal.0) & !mask(to.0);
                    if cycle > ends && p.core_busy & off == 0 {
                        self.cur = to;
                        self.flight = None;
                        done = true;
                    }
                }
                let mut nack = false;
                if p.req_v {
                    let to = if p.restore {
                        Some(self.nominal)
                    } else if self.flight.is_some() {
                        None
                    } else {
                        self.choose(p.speed, p.ratio_q44)
                    };
                    match to {
                        None => nack = true,
                        Some(to) => {
                            let steps = self.pidx(to.1).abs_diff(self.pidx(self.cur.1));
                            self.flight = Some((to, cycle - 1 + self.lat[steps].max(1)));
                        }
                    }
                }
                self.due = if nack { Some(false) } else { done.then_some(true) };
            }
        }
        self.prev = Some(*i);
        let want_p = self.pidx(self.cur.1) as u8;
        if (o.rsp_v, o.rsp_ack) != (self.due.is_some(), self.due == Some(true)) {
            return fail(
                "spec 1.8 response",
                format!("response (v {}, ack {}), the scoreboard expects {:?} (setting {:?}, under way {:?})", o.rsp_v, o.rsp_ack, self.due, self.cur, self.flight),
            );
        }
        if o.pstate != want_p || o.busy != self.flight.is_some() {
            return fail("spec 1.8 setting", format!("P-state {} busy {}, the scoreboard expects {want_p} ({} MHz) busy {}", o.pstate, o.busy, self.cur.1, self.flight.is_some()));
        }
        if self.settings.len() > self.table.len() {
            let disp = self.flight.map_or(self.cur.0, |(to, _)| to.0);
            if o.active != mask(self.cur.0) || o.dispatch != mask(disp) {
                return fail(
                    "spec 1.8 cores",
                    format!("active {:#x} dispatch {:#x}, the scoreboard expects {} cores active, {disp} dispatching", o.active, o.dispatch, self.cur.0),
                );
            }
        }
        if let Some(a) = self.due {
            self.seen[!a as usize] += 1;
        }
        Ok(())
    }
}

/// Golden `qc_gpu_actuator` driven by random requests and threadblocks, with the scoreboard.
pub type GpuActBench = ModelBench<QcGpuActuator, ActPorts, RequestTraffic, ActChecker>;
/// Golden `qc_cpu_dvfs` driven by random requests, with the scoreboard.
pub type CpuDvfsBench = ModelBench<QcCpuDvfs, ActPorts, RequestTraffic, ActChecker>;

pub fn gpu_actuator_bench(cfg: &QcacheConfig, layout: &Layout, seed: u64) -> Result<GpuActBench, String> {
    let k = &cfg.companion;
    expect_width(layout, "core_busy_i", k.gpu_cores)?;
    let m = QcGpuActuator::new(k.gpu_cores, k.gpu_lat.clone());
    Ok(ModelBench::new(m, RequestTraffic::new(seed, k.gpu_cores), Some(ActChecker::gpu(k.gpu_cores, k.gpu_lat.clone())), ActPorts::new(layout)))
}

pub fn cpu_dvfs_bench(cfg: &QcacheConfig, layout: &Layout, seed: u64) -> Result<CpuDvfsBench, String> {
    let k = &cfg.companion;
    let m = QcCpuDvfs::new(k.cpu_nominal, k.cpu_lat.clone());
    Ok(ModelBench::new(m, RequestTraffic::new(seed, 0), Some(ActChecker::cpu(k.cpu_mhz, k.cpu_lat.clone())), ActPorts::new(layout)))
}
