//! Warp-instruction occupancy of one resident threadblock (tfb_bdib.md §1.1: the warp
//! instructions issued and not yet completed, per TB), for the barrier studies S3 and
//! S13 (§4.4, §6).
//!
//! An instruction is in flight in the cycles `[issue, done)`: an ALU instruction (and a
//! parameter load) until its result is ready, a load, atomic or shared-memory access
//! until its data returns, anything else (branch, barrier, fence, exit, store: the
//! LD/ST unit takes a store) in its issue cycle only (our choice). An instruction held
//! in the issue hook's buffer (TFB's BDIB) is in flight from its drain, when it
//! executes, not while it waits in the buffer (our choice: the buffer holds it
//! unexecuted, operands unread).
//!
//! Event-driven and exact, so the SM may sleep through idle cycles: the in-flight
//! warp-cycles before cycle `t` are `A(t) = sum over issues i < t of (t - i) - sum over
//! completions d <= t of (t - d)`. Running sums give both terms for every event already
//! recorded; a completion known at issue (`d` in the future: ALU latencies) is also
//! kept in a ring indexed by `d mod R` (R above the longest such latency), which
//! corrects the sums for the completions with `d > t`.
//!
//! Barrier windows (S13, Fig. 5.13): from the first warp's arrival at a barrier to the
//! threadblock's resumption, `during = sum of A over windows / window cycles`. The lost
//! occupancy window of a barrier (S3, Fig. 5.2): from the first arrival until the
//! in-flight count is back to its level just before it (at an issue after the
//! resumption; our choice: capped at the resumption + [`RAMP_CAP`] or the
//! threadblock's retirement, tfb_bdib.md §4.4).

/// The lost occupancy window ends at most this many cycles after the resumption
/// (tfb_bdib.md §4.4 `t_ramp`).
pub const RAMP_CAP: u64 = 1000;

const NONE: u64 = u64::MAX;

/// Sums over threadblocks (per SM, then per GPU).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct OccupancySums {
    /// In-flight warp-cycles over each threadblock's residency, and the residency cycles.
    pub inst_cycles: u64,
    pub cta_cycles: u64,
    /// The same inside barrier windows.
    pub barrier_inst_cycles: u64,
    pub barrier_cycles: u64,
    /// Lost occupancy windows: their cycles and how many.
    pub lost_window_cycles: u64,
    pub windows: u64,
}

impl OccupancySums {
    pub fn add(&mut self, o: &OccupancySums) {
        self.inst_cycles += o.inst_cycles;
        self.cta_cycles += o.cta_cycles;
        self.barrier_inst_cycles += o.barrier_inst_cycles;
        self.barrier_cycles += o.barrier_cycles;
        self.lost_window_cycles += o.lost_window_cycles;
        self.windows += o.windows;
    }
}

/// The in-flight count of one threadblock, cycle by cycle from its launch (S3, Fig. 5.2;
/// `[stats] occupancy_trace`), with the first arrival and the resumption of each
/// barrier window.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OccupancyTrace {
    pub sm: u32,
    pub cta: u64,
    /// The cycle of `in_flight[0]`.
    pub start: u64,
    pub in_flight: Vec<u32>,
    pub arrivals: Vec<u64>,
    pub resumes: Vec<u64>,
    /// Cycles to record.
    #[serde(skip)]
    pub cycles: u64,
}

impl OccupancyTrace {
    /// The trace as CSV: `cycle,in_flight,event` (event: `arrival` or `resume` where a
    /// barrier window opens or closes).
    pub fn csv(&self) -> String {
        let mut s = String::from("cycle,in_flight,event\n");
        for (i, n) in self.in_flight.iter().enumerate() {
            let t = self.start + i as u64;
            let ev = if self.arrivals.contains(&t) {
                "arrival"
            } else if self.resumes.contains(&t) {
                "resume"
            } else {
                ""
            };
            s.push_str(&format!("{t},{n},{ev}\n"));
        }
        s
    }
}

/// One threadblock's in-flight accounting.
#[derive(Debug, Clone)]
pub struct CtaOccupancy {
    launched: u64,
    issued: u64,
    issued_sum: u64,
    done: u64,
    done_sum: u64,
    /// (completion cycle, instructions) of completions registered ahead, by cycle mod R.
    ring: Vec<(u64, u32)>,
    /// The barrier window: its first arrival (`NONE`: closed), `A` then, the in-flight
    /// count just before it, and its end once known (`NONE`: not yet released).
    from: u64,
    area_from: u64,
    level: u64,
    close_at: u64,
    /// After the window closed: ramping up until the count is back at `level`.
    ramping: bool,
    ramp_from: u64,
    pub sums: OccupancySums,
    /// Recording this threadblock's trace (off: `None`, one test per event).
    pub trace: Option<Box<OccupancyTrace>>,
}

impl Default for CtaOccupancy {
    fn default() -> Self {
        CtaOccupancy::new(0)
    }
}

impl CtaOccupancy {
    /// `horizon`: the longest completion latency registered ahead.
    pub fn new(horizon: u32) -> Self {
        let r = (horizon as usize + 1).next_power_of_two();
        CtaOccupancy {
            launched: 0,
            issued: 0,
            issued_sum: 0,
            done: 0,
            done_sum: 0,
            ring: vec![(NONE, 0); r],
            from: NONE,
            area_from: 0,
            level: 0,
            close_at: NONE,
            ramping: false,
            ramp_from: 0,
            sums: OccupancySums::default(),
            trace: None,
        }
    }

    /// A new threadblock at `now`.
    pub fn launch(&mut self, now: u64) {
        let ring = std::mem::take(&mut self.ring);
        *self = CtaOccupancy { ring, ..CtaOccupancy::new(0) };
        self.trace = None;
        self.ring.fill((NONE, 0));
        self.launched = now;
    }

    /// Before any event at `now`: close a released window whose end has passed (no
    /// event after it is recorded yet, so `A` at its end is still exact).
    #[inline(always)]
    pub fn before(&mut self, now: u64) {
        if self.trace.is_some() {
            self.sample(now);
        }
        if self.close_at != NONE && now >= self.close_at {
            self.finish_window();
        }
        if self.ramping && now >= self.ramp_from + RAMP_CAP {
            self.end_ramp(self.ramp_from + RAMP_CAP);
        }
    }

    /// A warp instruction issues at `now`.
    #[inline(always)]
    pub fn issue(&mut self, now: u64) {
        self.issued += 1;
        self.issued_sum += now;
    }

    /// An instruction completes at `d` (>= `now`, less than the horizon ahead).
    #[inline(always)]
    pub fn complete(&mut self, now: u64, d: u64) {
        debug_assert!(d >= now && d - now < self.ring.len() as u64, "completion {d} at {now}");
        self.done += 1;
        self.done_sum += d;
        if d > now {
            let mask = self.ring.len() - 1;
            let slot = &mut self.ring[d as usize & mask];
            if slot.0 == d {
                slot.1 += 1;
            } else {
                *slot = (d, 1);
            }
        }
    }

    /// After the issues of `now`: a ramp-up ends when the count is back at its level.
    #[inline(always)]
    pub fn after_issue(&mut self, now: u64) {
        if self.ramping && now >= self.ramp_from && self.in_flight(now) >= self.level {
            self.end_ramp(now);
        }
    }

    /// Record the in-flight count of the cycles before `now` not yet recorded (the first
    /// event at `now` has not been recorded yet).
    fn sample(&mut self, now: u64) {
        let mut t = self.trace.take().expect("tracing");
        let end = now.min(t.start + t.cycles);
        for c in t.start + t.in_flight.len() as u64..end {
            t.in_flight.push(self.in_flight(c) as u32);
        }
        self.trace = Some(t);
    }

    /// Completions registered ahead of `t`: how many, and the sum of `d - t`.
    fn ahead(&self, t: u64) -> (u64, u64) {
        self.ring.iter().filter(|&&(d, _)| d != NONE && d > t).fold((0, 0), |(n, s), &(d, k)| (n + k as u64, s + k as u64 * (d - t)))
    }

    /// Instructions in flight in cycle `t` (no event after `t` recorded yet).
    pub fn in_flight(&self, t: u64) -> u64 {
        self.issued - (self.done - self.ahead(t).0)
    }

    /// `A(t)`: in-flight warp-cycles before cycle `t` (no event after `t` recorded yet).
    pub fn area(&self, t: u64) -> u64 {
        let t = t as i128;
        let issued = t * self.issued as i128 - self.issued_sum as i128;
        let done = t * self.done as i128 - self.done_sum as i128 + self.ahead(t as u64).1 as i128;
        (issued - done) as u64
    }

    /// The first warp arrives at a barrier at `now` (its `bar` already issued): a window
    /// opens unless one is open.
    pub fn open_window(&mut self, now: u64) {
        if self.from != NONE {
            return;
        }
        if self.ramping {
            // the next barrier before the count came back
            self.end_ramp(now);
        }
        self.from = now;
        if let Some(t) = self.trace.as_mut() {
            t.arrivals.push(now);
        }
        self.area_from = self.area(now);
        self.level = self.in_flight(now).saturating_sub(1);
    }

    /// The last waiting warps are released and resume at `resume`.
    pub fn close_window(&mut self, resume: u64) {
        if self.from != NONE {
            self.close_at = resume;
        }
    }

    fn finish_window(&mut self) {
        let b = self.close_at;
        self.sums.barrier_inst_cycles += self.area(b) - self.area_from;
        self.sums.barrier_cycles += b - self.from;
        if let Some(t) = self.trace.as_mut() {
            t.resumes.push(b);
        }
        self.close_at = NONE;
        self.ramping = true;
        self.ramp_from = b;
    }

    fn end_ramp(&mut self, t: u64) {
        self.sums.lost_window_cycles += t - self.from;
        self.sums.windows += 1;
        self.ramping = false;
        self.from = NONE;
    }

    /// The threadblock retires at `now`: its residency, and any window still open ends.
    pub fn retire(&mut self, now: u64) {
        self.before(now);
        if self.close_at != NONE {
            // (resumed after its last instruction: nothing issues in the rest)
            self.close_at = self.close_at.min(now);
            self.finish_window();
        }
        if self.ramping {
            self.end_ramp(now.min(self.ramp_from + RAMP_CAP));
        }
        self.sums.inst_cycles += self.area(now);
        self.sums.cta_cycles += now - self.launched;
    }
}
