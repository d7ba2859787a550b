//! What a registered block is to the commands: an entry that loads its config
//! ([`BlockEntry`]) and a block-independent handle on a loaded config ([`Loaded`]).
//! The list of blocks is [`crate::blocks::BLOCKS`]; nothing here names one.

use std::path::Path;

use golden::block::{self, Block, ConfigFile, SimArgs, SimError, SimFlag, SimOutcome, Simulate};
use golden::config::ConfigError;
use hdl_gen::design::{Design, GenError, Generated};
use verif::run::{Cosim, CosimFailure, CosimRequest, CosimSummary};

/// One registered block: its config table and how to load a file of it.
pub struct BlockEntry {
    pub table: &'static str,
    pub title: &'static str,
    /// Generates Verilog (and co-simulates it).
    pub rtl: bool,
    load: LoadFn,
}

/// Parses and validates one file's text as a block's config.
type LoadFn = fn(&Path, &str) -> Result<Box<dyn Loaded>, ConfigError>;

impl BlockEntry {
    /// Parse and validate `text` (the file at `path`) as this block's config.
    pub fn load(&self, path: &Path, text: &str) -> Result<Box<dyn Loaded>, ConfigError> {
        (self.load)(path, text)
    }
}

impl BlockEntry {
    /// A block with RTL: generator, co-simulation and golden-model runs.
    pub const fn rtl<B: Cosim + Simulate>() -> BlockEntry {
        BlockEntry { table: B::TABLE, title: B::TITLE, rtl: true, load: load_rtl::<B> }
    }

    /// A golden model without RTL of its own (the GPU model).
    pub const fn model<B: Simulate>() -> BlockEntry {
        BlockEntry { table: B::TABLE, title: B::TITLE, rtl: false, load: load_model::<B> }
    }
}

fn load_rtl<B: Cosim + Simulate>(path: &Path, text: &str) -> Result<Box<dyn Loaded>, ConfigError> {
    Ok(Box::new(Rtl::<B>(block::parse::<B>(path, text)?)))
}

fn load_model<B: Simulate>(path: &Path, text: &str) -> Result<Box<dyn Loaded>, ConfigError> {
    Ok(Box::new(ModelOnly::<B>(block::parse::<B>(path, text)?)))
}

/// A loaded config of some registered block, as the commands use it.
pub trait Loaded {
    fn path(&self) -> &Path;
    /// The preset name.
    fn name(&self) -> &str;
    fn table(&self) -> &'static str;
    fn title(&self) -> &'static str;
    /// Every design of the preset, or `None` for a block without RTL.
    fn generate(&self) -> Option<Result<Generated, GenError>>;
    /// Co-simulate one design of this preset.
    fn cosim(&self, design: &Design, req: &CosimRequest) -> Result<CosimSummary, CosimFailure>;
    /// Run the golden model alone (`gpuforge sim`); unused flags are refused first.
    fn simulate(&self, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError>;
    /// The optional `sim` flags the block uses (to refuse others before running).
    fn sim_flags(&self) -> &'static [SimFlag];
}

struct Rtl<B: Block>(ConfigFile<B::Config>);
struct ModelOnly<B: Block>(ConfigFile<B::Config>);

impl<B: Cosim + Simulate> Loaded for Rtl<B> {
    fn path(&self) -> &Path {
        &self.0.path
    }
    fn name(&self) -> &str {
        &self.0.name
    }
    fn table(&self) -> &'static str {
        B::TABLE
    }
    fn title(&self) -> &'static str {
        B::TITLE
    }
    fn generate(&self) -> Option<Result<Generated, GenError>> {
        Some(B::generate(&self.0))
    }
    fn cosim(&self, design: &Design, req: &CosimRequest) -> Result<CosimSummary, CosimFailure> {
        verif::run::cosim::<B>(&self.0, design, req)
    }
    fn simulate(&self, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        block::check_sim_flags::<B>(args)?;
        B::simulate(&self.0, args)
    }
    fn sim_flags(&self) -> &'static [SimFlag] {
        B::FLAGS
    }
}

impl<B: Simulate> Loaded for ModelOnly<B> {
    fn path(&self) -> &Path {
        &self.0.path
    }
    fn name(&self) -> &str {
        &self.0.name
    }
    fn table(&self) -> &'static str {
        B::TABLE
    }
    fn title(&self) -> &'static str {
        B::TITLE
    }
    fn generate(&self) -> Option<Result<Generated, GenError>> {
        None
    }
    fn cosim(&self, design: &Design, _: &CosimRequest) -> Result<CosimSummary, CosimFailure> {
        Err(verif::lockstep::CosimError::Setup(format!("{}: {} has no RTL to co-simulate", design.manifest.top, B::TITLE)).into())
    }
    fn simulate(&self, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError> {
        block::check_sim_flags::<B>(args)?;
        B::simulate(&self.0, args)
    }
    fn sim_flags(&self) -> &'static [SimFlag] {
        B::FLAGS
    }
}
