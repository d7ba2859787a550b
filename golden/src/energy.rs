//! The event-energy model every study that reports energy or performance per watt shares
//! (issue 8 item 5): a model counts events (instructions, cache and DRAM accesses, router
//! and link flit traversals, ...), an [`EnergyTable`] gives each event's energy in pJ with
//! its published source, and [`account`] turns counts and run time into an
//! [`EnergyReport`]: energy per event, per part of the chip, static energy and mean power.
//!
//! The paper's tools (GPUWattch for the cores, DSENT for the NoC, CACTI for SRAMs) are
//! circuit models we do not have; the table is their event-level summary, so results are
//! meant for comparisons between configurations on the same table (the studies' ratios),
//! not as absolute watts. Every constant is a config field (`[energy]` in a GPU config),
//! so a user with calibrated numbers puts them in.
//!
//! Defaults and their sources (README "Energy model"):
//! - ALU operations, per 32-bit lane: Horowitz, "Computing's energy problem", ISSCC 2014,
//!   45 nm: integer add 0.1 pJ, float add 0.9 pJ, float multiply 3.7 pJ; an FMA as add +
//!   multiply (4.6 pJ); fp64 as 4x fp32 (the multiplier's area grows with the mantissa
//!   squared: our choice); SFU as 4 fp32 FMAs (a quadratic interpolation: our choice).
//! - SRAM reads, per 64 bits (same source): 8 KB 10 pJ, 32 KB 20 pJ, 1 MB 100 pJ. A 128-B
//!   L1 line (32 KB class) 16 x 20 = 320 pJ; an LLC line (1 MB class) 16 x 100 = 1600 pJ;
//!   a warp's shared-memory access (32 lanes x 32 bits, banks of the 8 KB class)
//!   16 x 10 = 160 pJ; a thread instruction's register operands (3 reads + 1 write of 32
//!   bits from an 8 KB-class bank) 4 x 5 = 20 pJ.
//! - Front end per warp instruction (instruction-cache read, decode, scoreboard, schedule):
//!   one 64-bit 8 KB read (10 pJ) and as much again for decode and scheduling: 20 pJ (our
//!   choice).
//! - DRAM: 11.8 nJ per activation of a 4 KB row and 4 pJ per bit read or written (TOM,
//!   seed 001 section 5.1, stacked DRAM; GDDR5 parts spend about 3x more per bit). An
//!   activation is scaled by the config's row size.
//! - NoC: 0.15 pJ per bit per router traversal (buffer write and read, crossbar) and 0.1 pJ
//!   per bit per link traversal (a 1 mm link): our choice, the order of published 45 nm
//!   estimates; the paper used DSENT.
//! - Static power: 1 W per SM and 0.5 W per memory partition (our choice, the order of a
//!   Fermi-class SM's leakage).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::config::FieldError;

/// Energy per event (pJ) and static power (W): a config's `[energy]` table, every key
/// optional (defaults in the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EnergyTable {
    /// Front end per warp instruction (fetch, decode, scoreboard, schedule).
    pub warp_inst_pj: f64,
    /// Register-file operands per thread instruction.
    pub thread_inst_pj: f64,
    /// One lane's integer operation.
    pub int_op_pj: f64,
    /// One lane's fp32 operation (an FMA).
    pub fp32_op_pj: f64,
    /// One lane's fp64 operation.
    pub fp64_op_pj: f64,
    /// One lane's special-function operation.
    pub sfu_op_pj: f64,
    /// One L1 data-cache access of a line (read, write or atomic).
    pub l1_access_pj: f64,
    /// One warp-wide shared-memory access (each extra conflict cycle counts again).
    pub shmem_access_pj: f64,
    /// One LLC access of a line (read, write, atomic or fill).
    pub llc_access_pj: f64,
    /// One DRAM row activation of a 4 KB row (scaled by the row size).
    pub dram_activate_pj: f64,
    /// One bit read from or written to DRAM.
    pub dram_bit_pj: f64,
    /// One bit through one router.
    pub router_bit_pj: f64,
    /// One bit over one link.
    pub link_bit_pj: f64,
    /// Static power of one SM, W.
    pub sm_static_w: f64,
    /// Static power of one memory partition (LLC slice and DRAM channel), W.
    pub mem_static_w: f64,
}

impl Default for EnergyTable {
    fn default() -> Self {
        EnergyTable {
            warp_inst_pj: 20.0,
            thread_inst_pj: 20.0,
            int_op_pj: 0.1,
            fp32_op_pj: 4.6,
            fp64_op_pj: 18.4,
            sfu_op_pj: 18.4,
            l1_access_pj: 320.0,
            shmem_access_pj: 160.0,
            llc_access_pj: 1600.0,
            dram_activate_pj: 11_800.0,
            dram_bit_pj: 4.0,
            router_bit_pj: 0.15,
            link_bit_pj: 0.1,
            sm_static_w: 1.0,
            mem_static_w: 0.5,
        }
    }
}

/// The largest energy per event a table may hold, pJ (1 mJ: far beyond any single event).
pub const MAX_EVENT_PJ: f64 = 1e9;
/// The largest static power per unit, W.
pub const MAX_STATIC_W: f64 = 1e4;

impl EnergyTable {
    /// The table's fields as (name, value), in declaration order.
    pub fn fields(&self) -> [(&'static str, f64); 15] {
        [
            ("warp_inst_pj", self.warp_inst_pj),
            ("thread_inst_pj", self.thread_inst_pj),
            ("int_op_pj", self.int_op_pj),
            ("fp32_op_pj", self.fp32_op_pj),
            ("fp64_op_pj", self.fp64_op_pj),
            ("sfu_op_pj", self.sfu_op_pj),
            ("l1_access_pj", self.l1_access_pj),
            ("shmem_access_pj", self.shmem_access_pj),
            ("llc_access_pj", self.llc_access_pj),
            ("dram_activate_pj", self.dram_activate_pj),
            ("dram_bit_pj", self.dram_bit_pj),
            ("router_bit_pj", self.router_bit_pj),
            ("link_bit_pj", self.link_bit_pj),
            ("sm_static_w", self.sm_static_w),
            ("mem_static_w", self.mem_static_w),
        ]
    }

    /// Every value finite and in range; `table` is the config table's name for messages.
    pub fn validate(&self, table: &str) -> Result<(), FieldError> {
        for (name, v) in self.fields() {
            let max = if name.ends_with("_w") { MAX_STATIC_W } else { MAX_EVENT_PJ };
            if !v.is_finite() || !(0.0..=max).contains(&v) {
                return Err(FieldError::new(format!("{table}.{name}"), format!("{v} is out of range"), Some(format!("0..={max:e} (a finite, non-negative number)"))));
            }
        }
        Ok(())
    }
}

/// Where an event's energy is spent (the breakdown the papers plot).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Front end, register file and functional units.
    Core,
    /// L1 data caches and shared memory.
    L1,
    /// Routers and links.
    Noc,
    /// Last-level cache.
    Llc,
    /// DRAM.
    Dram,
    /// Processor cores beside the GPU (the Q-cache system's CPU consumers), reported
    /// by the block that models them ([`crate::gpu::hooks::L2Hook::energy`]).
    Cpu,
}

/// One kind of event: how many happened and what each costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventEnergy {
    pub event: &'static str,
    pub part: Part,
    pub count: f64,
    pub pj_each: f64,
    pub nj: f64,
}

/// A run's energy.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EnergyReport {
    /// Dynamic energy by event.
    pub events: Vec<EventEnergy>,
    /// Dynamic energy by part of the chip, nJ.
    pub parts: BTreeMap<Part, f64>,
    pub dynamic_nj: f64,
    /// Static power times run time.
    pub static_nj: f64,
    pub total_nj: f64,
    /// Run time, seconds.
    pub seconds: f64,
    /// Mean power, W (total energy over run time; 0 for an empty run).
    pub mean_power_w: f64,
}

/// An event count for [`account`]: (name, part, count, pJ each). Counts are `f64`
/// because some are estimates (lane operations by class).
pub type Event = (&'static str, Part, f64, f64);

/// The energy of `events` plus `static_w` watts over `seconds`.
pub fn account(events: &[Event], static_w: f64, seconds: f64) -> EnergyReport {
    let mut r = EnergyReport { seconds, ..Default::default() };
    r.add(events, static_w * seconds * 1e9);
    r
}

impl EnergyReport {
    /// Add `events` and `static_nj` of static energy that a block beside the GPU spends
    /// (its cores' cycles and leakage): totals, parts and mean power follow.
    pub fn add(&mut self, events: &[Event], static_nj: f64) {
        for &(event, part, count, pj_each) in events {
            let nj = count * pj_each / 1000.0;
            *self.parts.entry(part).or_insert(0.0) += nj;
            self.dynamic_nj += nj;
            self.events.push(EventEnergy { event, part, count, pj_each, nj });
        }
        self.static_nj += static_nj;
        self.total_nj = self.dynamic_nj + self.static_nj;
        self.mean_power_w = if self.seconds > 0.0 { self.total_nj * 1e-9 / self.seconds } else { 0.0 };
    }

    /// One line for a run summary: total, dynamic and static, mean power, parts' shares.
    pub fn summary(&self) -> String {
        let shares = self
            .parts
            .iter()
            .map(|(p, nj)| {
                format!(
                    "{} {:.1}%",
                    serde_json::to_value(p).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
                    100.0 * nj / self.total_nj.max(f64::MIN_POSITIVE)
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "{:.3} uJ ({:.3} dynamic, {:.3} static), mean power {:.2} W; {shares}, static {:.1}%",
            self.total_nj / 1000.0,
            self.dynamic_nj / 1000.0,
            self.static_nj / 1000.0,
            self.mean_power_w,
            100.0 * self.static_nj / self.total_nj.max(f64::MIN_POSITIVE)
        )
    }
}
