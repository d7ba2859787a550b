//! CTA (thread block) dispatch and occupancy.
//!
//! A kernel launch becomes a [`KernelRun`]: its CTAs are handed out in linear id order
//! (x fastest), round robin over SMs starting after the SM that received the previous
//! CTA, at most one CTA per SM per cycle (our choice, as GPGPU-Sim's per-cluster
//! issue). An SM takes a CTA while it holds fewer than `ctas_per_sm`, the occupancy
//! limit from threads, registers, shared memory and the CTA-slot count.

use std::sync::Arc;

use super::config::CoreConfig;
use super::ptx::Kernel;

/// What limits the number of resident CTAs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OccupancyLimit {
    Threads,
    Registers,
    SharedMemory,
    CtaSlots,
}

impl OccupancyLimit {
    pub fn name(self) -> &'static str {
        match self {
            OccupancyLimit::Threads => "threads",
            OccupancyLimit::Registers => "registers",
            OccupancyLimit::SharedMemory => "shared memory",
            OccupancyLimit::CtaSlots => "CTA slots",
        }
    }
}

/// CTAs of one kernel that fit one SM, and the binding limit; `Err` says why not even
/// one fits.
pub fn occupancy(core: &CoreConfig, threads_per_cta: u32, regs_per_thread: u32, shared_bytes: u32) -> Result<(u32, OccupancyLimit), String> {
    let warps = threads_per_cta.div_ceil(32);
    let threads = warps * 32;
    // saturating: 255 registers x 1024 threads fits u32, but a mutated count need not
    let regs = regs_per_thread.saturating_mul(threads);
    let mut best = (core.max_ctas, OccupancyLimit::CtaSlots);
    let by_threads = core.max_threads / threads;
    if by_threads < best.0 {
        best = (by_threads, OccupancyLimit::Threads);
    }
    if let Some(by_regs) = core.registers.checked_div(regs) {
        if by_regs < best.0 {
            best = (by_regs, OccupancyLimit::Registers);
        }
    }
    if let Some(by_shared) = core.shared_bytes.checked_div(shared_bytes) {
        if by_shared < best.0 {
            best = (by_shared, OccupancyLimit::SharedMemory);
        }
    }
    if best.0 == 0 {
        let why = match best.1 {
            OccupancyLimit::Threads => format!("{threads} threads per CTA exceed the SM's {} threads", core.max_threads),
            OccupancyLimit::Registers => format!("{regs} registers per CTA ({regs_per_thread} per thread) exceed the SM's {} registers", core.registers),
            OccupancyLimit::SharedMemory => format!("{shared_bytes} B of shared memory per CTA exceed the SM's {} B", core.shared_bytes),
            OccupancyLimit::CtaSlots => "no CTA slots".to_string(),
        };
        return Err(why);
    }
    Ok(best)
}

/// A kernel launch in progress.
#[derive(Debug, Clone)]
pub struct KernelRun {
    pub kernel: Arc<Kernel>,
    /// The parameter buffer (`ld.param` reads it).
    pub params: Vec<u8>,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub threads_per_cta: u32,
    pub warps_per_cta: u32,
    /// Static plus dynamic shared memory per CTA.
    pub shared_bytes: u32,
    pub regs_per_thread: u32,
    pub ctas_per_sm: u32,
    pub limit: OccupancyLimit,
}

impl KernelRun {
    pub fn total_ctas(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }

    /// `%ctaid` of linear CTA `id`.
    pub fn ctaid(&self, id: u64) -> [u32; 3] {
        // u64: gx * gy overflows u32 for grids such as [2^30, 4, 1]
        let [gx, gy] = [self.grid[0] as u64, self.grid[1] as u64];
        [(id % gx) as u32, ((id / gx) % gy) as u32, (id / (gx * gy)) as u32]
    }
}

/// Hands out CTAs.
#[derive(Debug, Clone)]
pub struct CtaDispatcher {
    pub next: u64,
    pub total: u64,
    /// SM to try first next cycle.
    rr: usize,
}

impl CtaDispatcher {
    pub fn new(total: u64) -> Self {
        CtaDispatcher { next: 0, total, rr: 0 }
    }

    pub fn done(&self) -> bool {
        self.next >= self.total
    }

    /// Offer CTAs to SMs for this cycle: `try_launch(sm, cta_id)` launches CTA `cta_id`
    /// on `sm` and returns true if the SM had room.
    pub fn cycle(&mut self, sms: usize, mut try_launch: impl FnMut(usize, u64) -> bool) {
        if self.done() {
            return;
        }
        for k in 0..sms {
            if self.done() {
                break;
            }
            let sm = (self.rr + k) % sms;
            if try_launch(sm, self.next) {
                self.next += 1;
                self.rr = (sm + 1) % sms;
            }
        }
    }
}
