//! Random legal event streams for `qc_rate_monitor` (spec §5 co-simulation stimulus):
//! kernels that begin and end, a GPU producer and CPU consumers sharing an L2 of
//! `cap` lines, and core schedulers that answer rate-scaling requests.
//!
//! The stream is a small closed loop, so the monitor's requests change the rates it
//! then measures: the producer writes lines into a queue held in the L2 (PRODUCE
//! strobes), consumers read queued lines (CONSUME, only when the queue holds some),
//! and lines beyond the L2's capacity, or lines never to be read, are written back
//! (SPILL). Each kernel draws its own rates and character: bursty producers (bursts of
//! lines every period, §6.7.2), per-event jitter (an event leaves up to `jitter`
//! cycles late, §6.7.1), producer-rate modulation (§6.7.3) and an unconsumed fraction
//! (§6.7.5). An ACKed request scales the addressed side's rate by its ratio; the
//! responders NACK some requests, answer after random delays (some beyond the ACK
//! timeout) and send a few stray responses outside PENDING, which the monitor ignores.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::config::QcacheConfig;
use super::monitor::{st, MonitorInputs, MonitorOutputs, RateMonitor, Req, CONSUMER, SPEED};
use crate::model::Stimulus;

/// Knobs of the random streams.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrafficParams {
    /// Kernel length range in cycles.
    pub kernel_cycles: (u32, u32),
    /// Producer rate range, lines per cycle over all banks.
    pub prod_rate: (f64, f64),
    /// Consumer/producer rate ratio range at kernel start.
    pub cons_ratio: (f64, f64),
    /// Probability that a kernel's producer is bursty.
    pub p_bursty: f64,
    /// Probability that a kernel's producer rate is modulated.
    pub p_modulated: f64,
    /// Largest per-event jitter (cycles) of jittered kernels.
    pub jitter: u32,
    /// Probability that a request is NACKed.
    pub p_nack: f64,
    /// Probability per cycle that `req_ready_i` is low.
    pub p_not_ready: f64,
    /// Probability per cycle of a stray response.
    pub p_stray_rsp: f64,
    /// Probability per cycle of a mid-run reset.
    pub p_reset: f64,
}

impl TrafficParams {
    /// Streams sized to a config: kernels long enough for several windows.
    pub fn for_config(c: &QcacheConfig) -> TrafficParams {
        let w = c.window_cycles.max(c.min_obs_cycles) as f64;
        TrafficParams {
            kernel_cycles: ((w * 1.5) as u32, (w * 6.0) as u32),
            prod_rate: (0.05, (c.nbanks as f64).min(4.0)),
            cons_ratio: (0.2, 2.5),
            p_bursty: 0.3,
            p_modulated: 0.3,
            jitter: 30,
            p_nack: 0.2,
            p_not_ready: 0.3,
            p_stray_rsp: 0.0005,
            p_reset: 2e-6,
        }
    }
}

/// Responder state: what was handed over and when the answer goes back.
#[derive(Debug, Clone, Copy)]
struct Outstanding {
    req: Req,
    due: u64,
    ack: bool,
}

/// The random streams (a [`Stimulus`] of [`RateMonitor`]).
pub struct EventTraffic {
    rng: Xoshiro256PlusPlus,
    p: TrafficParams,
    nbanks: u32,
    ndom: u32,
    cap: f64,
    ack_timeout: u32,
    cycle: u64,
    /// Cycles left in the current kernel (0: between kernels).
    left: u64,
    gap: u64,
    kbegin_next: bool,
    // kernel character
    prod_rate: f64,
    cons_rate: f64,
    nominal: (f64, f64),
    burst: Option<(u64, u64)>,
    modulate: Option<(u64, f64)>,
    jitter: u32,
    unconsumed: f64,
    gpu: u8,
    consumers: Vec<u8>,
    // the queue in the L2
    queued: f64,
    acc_p: f64,
    acc_c: f64,
    acc_s: f64,
    /// Jittered events waiting: (due cycle, kind 0/1/2, domain).
    delayed: Vec<(u64, u8, u8)>,
    ready_last: bool,
    outstanding: Option<Outstanding>,
    /// Requests handed over, ACKs given and kernels started (for reports and tests).
    pub requests: u64,
    pub acks: u64,
    pub kernels: u64,
}

impl EventTraffic {
    pub fn new(c: &QcacheConfig, seed: u64, p: TrafficParams) -> EventTraffic {
        EventTraffic {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            p,
            nbanks: c.nbanks,
            ndom: c.ndom,
            cap: c.cap_lines as f64,
            ack_timeout: c.ack_timeout,
            cycle: 0,
            left: 0,
            gap: 3,
            kbegin_next: false,
            prod_rate: 0.0,
            cons_rate: 0.0,
            nominal: (0.0, 0.0),
            burst: None,
            modulate: None,
            jitter: 0,
            unconsumed: 0.0,
            gpu: (c.ndom - 1) as u8,
            consumers: vec![0],
            queued: 0.0,
            acc_p: 0.0,
            acc_c: 0.0,
            acc_s: 0.0,
            delayed: Vec::new(),
            ready_last: false,
            outstanding: None,
            requests: 0,
            acks: 0,
            kernels: 0,
        }
    }

    fn start_kernel(&mut self) {
        let r = &mut self.rng;
        let p = &self.p;
        self.left = r.random_range(p.kernel_cycles.0 as u64..=p.kernel_cycles.1 as u64);
        self.prod_rate = r.random_range(p.prod_rate.0..=p.prod_rate.1);
        self.cons_rate = self.prod_rate * r.random_range(p.cons_ratio.0..=p.cons_ratio.1);
        self.nominal = (self.prod_rate, self.cons_rate);
        self.burst = r.random_bool(p.p_bursty).then(|| {
            let period = r.random_range(200..=5000u64);
            (period, r.random_range(period / 8..=period / 2))
        });
        self.modulate = r.random_bool(p.p_modulated).then(|| (r.random_range(2000..=60_000u64), [0.5, 0.75, 1.25, 1.5][r.random_range(0..4usize)]));
        self.jitter = if r.random_bool(0.5) { r.random_range(0..=p.jitter) } else { 0 };
        self.unconsumed = match r.random_range(0..10u32) {
            0 | 1 => r.random_range(0.0..0.6),
            2 => r.random_range(0.6..0.95),
            _ => 0.0,
        };
        // a few kernels have no consumer at all (DETECT times out)
        if r.random_bool(0.05) {
            self.cons_rate = 0.0;
        }
        let ncpu = self.ndom - 1;
        let k = r.random_range(1..=ncpu);
        self.consumers = (0..k as u8).collect();
        self.queued = if r.random_bool(0.2) { self.cap * 0.1 } else { 0.0 };
        self.kernels += 1;
    }

    /// Scale the addressed side's rate by an ACKed request.
    fn actuate(&mut self, q: &Req) {
        if q.restore {
            self.prod_rate = self.nominal.0;
            return;
        }
        let f = q.ratio_q44.max(0x10) as f64 / 16.0;
        let f = if q.dir == SPEED { f } else { 1.0 / f };
        if q.role == CONSUMER {
            self.cons_rate = (self.cons_rate * f).clamp(0.01, self.nbanks as f64);
        } else {
            self.prod_rate = (self.prod_rate * f).clamp(0.01, self.nbanks as f64);
        }
    }

    /// Per-cycle event counts of the current kernel (producer, consumer, spill).
    fn rates(&mut self) -> (f64, f64, f64) {
        let mut p = self.prod_rate;
        if let Some((period, on)) = self.burst {
            p = if self.cycle % period < on { (p * period as f64 / on as f64).min(self.nbanks as f64) } else { 0.0 };
        }
        if let Some((period, f)) = self.modulate {
            if (self.cycle / period) % 2 == 1 {
                p = (p * f).min(self.nbanks as f64);
            }
        }
        let c = if self.queued >= 1.0 { (self.cons_rate * (1.0 - self.unconsumed)).min(self.queued) } else { 0.0 };
        // lines that no consumer will read, and lines beyond the capacity, are written back
        let over = (self.queued + p - c - self.cap).max(0.0);
        let s = (over + p * self.unconsumed).min(self.nbanks as f64);
        (p, c, s)
    }

    fn draw(acc: &mut f64, rate: f64, max: u32) -> u32 {
        *acc += rate;
        let n = (acc.floor() as u32).min(max);
        *acc -= n as f64;
        n
    }
}

impl Stimulus<RateMonitor> for EventTraffic {
    fn drive(&mut self, m: &RateMonitor, prev: &MonitorOutputs, i: &mut MonitorInputs) {
        self.cycle += 1;
        let nb = self.nbanks as usize;
        i.rst = self.rng.random_bool(self.p.p_reset);
        i.kbegin = false;
        i.kend = false;
        i.ev_prod = 0;
        i.ev_cons = 0;
        i.ev_spill = 0;
        i.rsp_valid = false;
        i.rsp_ack = false;
        i.rsp_dom = 0;
        // the request was handed over at the last edge
        if prev.req_valid && self.ready_last {
            self.requests += 1;
            let q = prev.req;
            let delay = if self.rng.random_bool(0.05) { self.ack_timeout as u64 + 10 } else { self.rng.random_range(2..=300u64) };
            let ack = q.restore || !self.rng.random_bool(self.p.p_nack);
            self.outstanding = Some(Outstanding { req: q, due: self.cycle + delay, ack });
        }
        if let Some(o) = self.outstanding {
            if self.cycle >= o.due {
                i.rsp_valid = true;
                i.rsp_ack = o.ack;
                i.rsp_dom = o.req.target.trailing_zeros().min(self.ndom - 1) as u8;
                if o.ack {
                    self.acks += 1;
                    self.actuate(&o.req);
                }
                self.outstanding = None;
            }
        } else if self.rng.random_bool(self.p.p_stray_rsp) {
            i.rsp_valid = true;
            i.rsp_ack = self.rng.random_bool(0.5);
        }
        i.req_ready = !self.rng.random_bool(self.p.p_not_ready);
        self.ready_last = i.req_ready;

        // kernels
        if self.left == 0 {
            if self.kbegin_next {
                self.kbegin_next = false;
                i.kbegin = true;
                self.start_kernel();
            } else if self.gap > 0 {
                self.gap -= 1;
            } else {
                self.kbegin_next = true;
                self.gap = self.rng.random_range(2..=200u64);
            }
            // occasionally a stray kernel end while disabled
            i.kend = m.r.state == st::DISABLED && self.rng.random_bool(0.001);
        } else {
            self.left -= 1;
            if self.left == 0 {
                i.kend = true;
            }
            let (p, c, s) = self.rates();
            let np = Self::draw(&mut self.acc_p, p, self.nbanks);
            let nc = Self::draw(&mut self.acc_c, c, self.nbanks);
            let ns = Self::draw(&mut self.acc_s, s, self.nbanks);
            self.queued = (self.queued + np as f64 - nc as f64 - ns as f64).max(0.0);
            for (kind, n) in [(0u8, np), (1, nc), (2, ns)] {
                for _ in 0..n {
                    let dom = match kind {
                        0 if self.rng.random_bool(0.02) => self.rng.random_range(0..self.ndom) as u8,
                        0 => self.gpu,
                        1 => self.consumers[self.rng.random_range(0..self.consumers.len())],
                        _ => 0,
                    };
                    let j = if self.jitter > 0 { self.rng.random_range(0..=self.jitter) as u64 } else { 0 };
                    self.delayed.push((self.cycle + j, kind, dom));
                }
            }
        }
        // events due now go to free banks (one strobe per bank and kind per cycle)
        let cycle = self.cycle;
        let mut used = [0u64; 3];
        let mut k = 0;
        while k < self.delayed.len() {
            let (due, kind, dom) = self.delayed[k];
            let free = !used[kind as usize] & if nb == 64 { u64::MAX } else { (1u64 << nb) - 1 };
            if due <= cycle && free != 0 {
                let b = free.trailing_zeros() as usize;
                used[kind as usize] |= 1 << b;
                match kind {
                    0 => i.ev_prod_dom[b] = dom,
                    1 => i.ev_cons_dom[b] = dom,
                    _ => {}
                }
                self.delayed.swap_remove(k);
            } else {
                k += 1;
            }
        }
        if self.left == 0 && !i.kbegin {
            self.delayed.clear(); // a kernel's late events end with it
        }
        i.ev_prod = used[0];
        i.ev_cons = used[1];
        i.ev_spill = used[2];
        if i.rst {
            self.outstanding = None;
        }
    }
}
