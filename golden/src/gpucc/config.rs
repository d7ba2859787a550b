//! GPU-CC configuration (spec §3.1, §4.1) and the tables derived from it.

use serde::Deserialize;

use crate::config::{check_one_of, check_range, FieldError};

/// Kind of unit at a chain position (spec §1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitKind {
    /// A core (SP): three operand FIFOs.
    Core,
    /// A load-store unit: address FIFO (slot 0, with look-ahead) and store-data FIFO (slot 1).
    Lsu,
}

/// Functional-unit timing of the golden model (spec §1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimingMode {
    /// The paper's rule literally: latency 1, result on the lane in the firing cycle.
    Strict,
    /// Result queue of depth LAT+1, integer latency `lat_int`, fp latency `lat_fp`.
    Pipelined,
}

/// Raw `[gpucc]` table as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGpucc {
    slices: u32,
    slice: Vec<UnitKind>,
    lanes: u32,
    data_width: u32,
    core_fifo_depth: u32,
    lsu_addr_depth: u32,
    lsu_data_depth: u32,
    #[serde(default = "default_watchdog")]
    watchdog: u32,
    #[serde(default)]
    timing: RawTiming,
    #[serde(default)]
    lsu: RawLsu,
    #[serde(default)]
    memory: RawMemory,
    #[serde(default)]
    app: Option<RawApp>,
}

fn default_watchdog() -> u32 {
    10_000
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawTiming {
    mode: TimingMode,
    lat_int: u32,
    lat_fp: u32,
}

impl Default for RawTiming {
    fn default() -> Self {
        Self { mode: TimingMode::Pipelined, lat_int: 1, lat_fp: 4 }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawLsu {
    max_inflight: u32,
    prefetch: bool,
}

impl Default for RawLsu {
    fn default() -> Self {
        Self { max_inflight: 32, prefetch: true }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawMemory {
    line_bytes: u32,
    l1_bytes: u32,
    l1_ways: u32,
    l1_latency: u32,
    dram_latency: u32,
    dram_bytes_per_cycle: f64,
    sms: u32,
    clock_mhz: f64,
}

impl Default for RawMemory {
    fn default() -> Self {
        // Spec §1.8 / §3.1: 128 B lines, L1 20 cycles, DRAM 400 cycles, 133.9 GB/s at
        // 1215 MHz = 110 B per shader cycle shared by the GTX 470's 14 SMs; 16 KB L1.
        Self { line_bytes: 128, l1_bytes: 16 * 1024, l1_ways: 4, l1_latency: 20, dram_latency: 400, dram_bytes_per_cycle: 110.0, sms: 14, clock_mhz: 1215.0 }
    }
}

/// Application kinds the mapper knows (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AppKind {
    Conv3x3,
    Conv5x5,
    Saxpy,
    Vecadd,
    Reduce,
}

impl AppKind {
    pub const ALL: [AppKind; 5] = [AppKind::Conv3x3, AppKind::Conv5x5, AppKind::Saxpy, AppKind::Vecadd, AppKind::Reduce];

    pub fn name(self) -> &'static str {
        match self {
            AppKind::Conv3x3 => "conv3x3",
            AppKind::Conv5x5 => "conv5x5",
            AppKind::Saxpy => "saxpy",
            AppKind::Vecadd => "vecadd",
            AppKind::Reduce => "reduce",
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawApp {
    kind: AppKind,
    #[serde(default = "default_image")]
    image: u32,
    #[serde(default)]
    copies: Option<u32>,
}

fn default_image() -> u32 {
    64
}

/// Golden FU timing (spec §1.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Timing {
    pub mode: TimingMode,
    pub lat_int: u32,
    pub lat_fp: u32,
}

/// Golden LSU parameters (spec §1.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct LsuParams {
    pub max_inflight: u32,
    pub prefetch: bool,
}

/// Golden memory-side parameters (spec §1.8, §3.1).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MemoryParams {
    pub line_bytes: u32,
    pub l1_bytes: u32,
    pub l1_ways: u32,
    pub l1_latency: u32,
    pub dram_latency: u32,
    /// Whole-chip DRAM bandwidth in bytes per shader cycle, shared by `sms` SMs.
    pub dram_bytes_per_cycle: f64,
    pub sms: u32,
    pub clock_mhz: f64,
}

/// The application `gpuforge sim` runs on this config (spec §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct AppParams {
    pub kind: AppKind,
    /// Square image side in pixels (or vector length for 1-D apps).
    pub image: u32,
    /// Copies of the mapping per SM; `None` = as many as fit.
    pub copies: Option<u32>,
}

/// Supported data widths of the lane network (monomorphized in the HDL).
pub const DATA_WIDTHS: [u32; 4] = [8, 16, 32, 64];
/// Operand slots per unit (instructions have up to 3 sources).
pub const N_IN: usize = 3;
/// Largest lane count the CR source fields can encode (codes 1..=5, spec §1.5).
pub const MAX_LANES: u32 = 5;
/// Largest chain length `cfg_unit` may address.
pub const MAX_POSITIONS: u32 = 256;

/// A validated GPU-CC configuration plus its derived tables.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GpuccConfig {
    pub slices: u32,
    pub slice: Vec<UnitKind>,
    pub lanes: u32,
    pub data_width: u32,
    pub core_fifo_depth: u32,
    pub lsu_addr_depth: u32,
    pub lsu_data_depth: u32,
    pub watchdog: u32,
    pub timing: Timing,
    pub lsu: LsuParams,
    pub memory: MemoryParams,
    pub app: Option<AppParams>,
    // ---- derived ----
    /// Unit kind at every chain position, slice by slice.
    pub kinds: Vec<UnitKind>,
    /// Chain position of the j-th LSU.
    pub lsu_pos: Vec<usize>,
    /// LSU index of each position (None for cores).
    pub lsu_index: Vec<Option<usize>>,
}

pub use crate::bits::clog2;

/// Pointer and occupancy width of a FIFO of `depth` entries: one bit more than its
/// address, so counts and wrapped pointer sums fit without resizing.
pub fn fifo_count_bits(depth: u32) -> u32 {
    clog2(depth as u64) + 1
}

impl GpuccConfig {
    /// Validate a raw `[gpucc]` table (fields and derived tables; whether the
    /// configured application fits is [`super::Gpucc`]'s second step).
    pub fn validate(r: RawGpucc) -> Result<Self, FieldError> {
        check_range("gpucc.slices", r.slices, 1, 64)?;
        check_range("gpucc.slice (length)", r.slice.len() as u32, 1, 8)?;
        let n_pos = r.slices * r.slice.len() as u32;
        if n_pos > MAX_POSITIONS {
            return Err(FieldError::new(
                "gpucc.slices",
                format!("{} slices of {} units = {n_pos} positions", r.slices, r.slice.len()),
                Some(format!("at most {MAX_POSITIONS} positions")),
            ));
        }
        check_range("gpucc.lanes", r.lanes, 1, MAX_LANES)?;
        check_one_of("gpucc.data_width", r.data_width, &DATA_WIDTHS)?;
        check_range("gpucc.core_fifo_depth", r.core_fifo_depth, 2, 256)?;
        check_range("gpucc.lsu_addr_depth", r.lsu_addr_depth, 2, 1024)?;
        check_range("gpucc.lsu_data_depth", r.lsu_data_depth, 2, 256)?;
        check_range("gpucc.watchdog", r.watchdog, 1, u32::MAX)?;
        check_range("gpucc.timing.lat_int", r.timing.lat_int, 1, 64)?;
        check_range("gpucc.timing.lat_fp", r.timing.lat_fp, 1, 64)?;
        check_range("gpucc.lsu.max_inflight", r.lsu.max_inflight, 1, 1024)?;
        let m = &r.memory;
        check_one_of("gpucc.memory.line_bytes", m.line_bytes, &[32, 64, 128, 256])?;
        check_range("gpucc.memory.l1_ways", m.l1_ways, 1, 64)?;
        check_range("gpucc.memory.l1_bytes", m.l1_bytes, m.line_bytes * m.l1_ways, 1 << 24)?;
        if !m.l1_bytes.is_multiple_of(m.line_bytes * m.l1_ways) || !(m.l1_bytes / (m.line_bytes * m.l1_ways)).is_power_of_two() {
            return Err(FieldError::new(
                "gpucc.memory.l1_bytes",
                format!("{} B is not a power-of-two number of {}-way sets of {} B lines", m.l1_bytes, m.l1_ways, m.line_bytes),
                Some("line_bytes * l1_ways * 2^k".into()),
            ));
        }
        check_range("gpucc.memory.l1_latency", m.l1_latency, 1, 10_000)?;
        check_range("gpucc.memory.dram_latency", m.dram_latency, 1, 100_000)?;
        if !(m.dram_bytes_per_cycle > 0.0 && m.dram_bytes_per_cycle <= 1.0e6) {
            return Err(FieldError::new("gpucc.memory.dram_bytes_per_cycle", format!("{} is out of range", m.dram_bytes_per_cycle), Some("0 < x <= 1e6".into())));
        }
        check_range("gpucc.memory.sms", m.sms, 1, 1024)?;
        if !(m.clock_mhz > 0.0 && m.clock_mhz <= 100_000.0) {
            return Err(FieldError::new("gpucc.memory.clock_mhz", format!("{} is out of range", m.clock_mhz), Some("0 < x <= 100000".into())));
        }

        let kinds: Vec<UnitKind> = (0..r.slices).flat_map(|_| r.slice.iter().copied()).collect();
        let lsu_pos: Vec<usize> = kinds.iter().enumerate().filter(|(_, k)| **k == UnitKind::Lsu).map(|(p, _)| p).collect();
        let mut lsu_index = vec![None; kinds.len()];
        for (j, &p) in lsu_pos.iter().enumerate() {
            lsu_index[p] = Some(j);
        }
        let app = match r.app {
            None => None,
            Some(a) => {
                check_range("gpucc.app.image", a.image, 8, 8192)?;
                if let Some(c) = a.copies {
                    check_range("gpucc.app.copies", c, 1, 64)?;
                }
                Some(AppParams { kind: a.kind, image: a.image, copies: a.copies })
            }
        };
        let cfg = GpuccConfig {
            slices: r.slices,
            slice: r.slice,
            lanes: r.lanes,
            data_width: r.data_width,
            core_fifo_depth: r.core_fifo_depth,
            lsu_addr_depth: r.lsu_addr_depth,
            lsu_data_depth: r.lsu_data_depth,
            watchdog: r.watchdog,
            timing: Timing { mode: r.timing.mode, lat_int: r.timing.lat_int, lat_fp: r.timing.lat_fp },
            lsu: LsuParams { max_inflight: r.lsu.max_inflight, prefetch: r.lsu.prefetch },
            memory: MemoryParams {
                line_bytes: m.line_bytes,
                l1_bytes: m.l1_bytes,
                l1_ways: m.l1_ways,
                l1_latency: m.l1_latency,
                dram_latency: m.dram_latency,
                dram_bytes_per_cycle: m.dram_bytes_per_cycle,
                sms: m.sms,
                clock_mhz: m.clock_mhz,
            },
            app,
            kinds,
            lsu_pos,
            lsu_index,
        };
        Ok(cfg)
    }

    /// Number of chain positions (N_POS).
    pub fn n_pos(&self) -> usize {
        self.kinds.len()
    }

    /// Number of LSUs.
    pub fn n_lsu(&self) -> usize {
        self.lsu_pos.len()
    }

    pub fn n_lanes(&self) -> usize {
        self.lanes as usize
    }

    /// Depth of FIFO `k` of the unit at `p`, or None if that slot has no FIFO
    /// (slot 2 of an LSU).
    pub fn fifo_depth(&self, p: usize, k: usize) -> Option<u32> {
        match (self.kinds[p], k) {
            (UnitKind::Core, 0..=2) => Some(self.core_fifo_depth),
            (UnitKind::Lsu, 0) => Some(self.lsu_addr_depth),
            (UnitKind::Lsu, 1) => Some(self.lsu_data_depth),
            _ => None,
        }
    }

    /// Mask of a data word.
    pub fn data_mask(&self) -> u64 {
        if self.data_width == 64 {
            u64::MAX
        } else {
            (1u64 << self.data_width) - 1
        }
    }

    /// Width of `cfg_unit_i`.
    pub fn pos_width(&self) -> u32 {
        clog2(self.n_pos() as u64)
    }

    /// Width of each LSU look-ahead index (`lsu_peek_idx_i`).
    pub fn peek_idx_width(&self) -> u32 {
        clog2(self.lsu_addr_depth as u64)
    }

    /// Width of the LSU address-FIFO occupancy (`lsu_addr_count_o`).
    pub fn addr_count_width(&self) -> u32 {
        fifo_count_bits(self.lsu_addr_depth)
    }

    /// Width of each entry of `dbg_fifo_count_o`: that of the deepest FIFO present.
    pub fn fifo_count_width(&self) -> u32 {
        let deepest = (0..self.n_pos()).flat_map(|p| (0..N_IN).filter_map(move |k| self.fifo_depth(p, k))).max().unwrap_or(2);
        fifo_count_bits(deepest)
    }
}
