//! What a block is to the framework: a config table, a validated config, and (for
//! `gpuforge sim`) a golden-model run.
//!
//! A block implements [`Block`] on a marker type in its own folder (`golden::gpucc::Gpucc`,
//! `golden::noc::Noc`, `golden::gpu::Gpu`); the generator (`hdl_gen::Generate`) and the
//! co-simulation (`verif::Cosim`) are implemented on the same marker in their crates, and
//! the one registry line (`src/blocks.rs` of the `gpuforge` package) lists it. This
//! module knows no block.
//!
//! Config files are TOML: a top-level `name` (the preset name, used for output
//! directories and module names) and exactly one block table (`[gpucc]`, `[noc]`, ...).
//! A block whose config spans several tables (the GPU model: `[gpu]`, `[core]`, `[l1]`,
//! ...) sets [`Block::WHOLE_FILE`] and is recognised by its [`Block::TABLE`].

use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::config::{check_name, read_text, toml_error, ConfigError, FieldError};

/// A block's configuration, as the framework sees it.
pub trait Block: 'static {
    /// The table that marks a config file as this block's (`gpucc` for `[gpucc]`).
    const TABLE: &'static str;
    /// What the block is, in one line (for listings and messages).
    const TITLE: &'static str;
    /// The block's raw config is the whole file (every top-level table), not `[TABLE]`.
    const WHOLE_FILE: bool = false;
    /// The table (or file) as written, before validation.
    type Raw: DeserializeOwned;
    /// The validated config with everything derived from it.
    type Config: Clone + fmt::Debug + serde::Serialize + Send + Sync + 'static;
    /// Check every field (naming it, with the allowed range) and derive the tables.
    fn validate(raw: Self::Raw) -> Result<Self::Config, FieldError>;
}

/// A loaded, validated config file of one block.
#[derive(Debug, Clone)]
pub struct ConfigFile<C> {
    pub path: PathBuf,
    /// Preset name (`name = "..."` at the top of the file).
    pub name: String,
    /// The file's text, byte for byte, for provenance headers and content hashes.
    pub source: String,
    pub config: C,
}

impl<C> ConfigFile<C> {
    /// The config file's name without its directory (for generated-file headers).
    pub fn file_name(&self) -> String {
        self.path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
    }
}

/// Read, parse and validate a config file of block `B`.
pub fn load<B: Block>(path: &Path) -> Result<ConfigFile<B::Config>, ConfigError> {
    parse::<B>(path, &read_text(path)?)
}

/// Parse and validate config text of block `B`; `path` is used for messages.
pub fn parse<B: Block>(path: &Path, text: &str) -> Result<ConfigFile<B::Config>, ConfigError> {
    let found = detect(path, text, &[B::TABLE])?;
    debug_assert_eq!(found, B::TABLE);
    let (name, raw) = if B::WHOLE_FILE {
        let raw: B::Raw = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        (file_name_key(path, text)?, raw)
    } else {
        let f: TableFile<B> = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        (f.name, f.raw)
    };
    check_name("name", &name).map_err(|e| e.in_file(path))?;
    let config = B::validate(raw).map_err(|e| e.in_file(path))?;
    Ok(ConfigFile { path: path.to_path_buf(), name, source: text.to_string(), config })
}

/// Which of `tables` the file has: exactly one, or an error naming them all.
pub fn detect<'t>(path: &Path, text: &str, tables: &[&'t str]) -> Result<&'t str, ConfigError> {
    let top: toml::Table = text.parse().map_err(|e| toml_error(path, text, &e))?;
    let present: Vec<&'t str> = tables.iter().copied().filter(|t| top.get(*t).is_some_and(|v| v.is_table())).collect();
    let allowed = tables.iter().map(|t| format!("[{t}]")).collect::<Vec<_>>().join(", ");
    match present.as_slice() {
        [one] => Ok(one),
        [] => Err(ConfigError { file: path.to_path_buf(), field: "<file>".into(), message: "no block table found".into(), allowed: Some(format!("exactly one of {allowed}")) }),
        more => Err(ConfigError {
            file: path.to_path_buf(),
            field: "<file>".into(),
            message: format!("more than one block table ({})", more.iter().map(|t| format!("[{t}]")).collect::<Vec<_>>().join(", ")),
            allowed: Some(format!("exactly one of {allowed}")),
        }),
    }
}

/// The `name` key of a whole-file config (its `Raw` checks the rest).
fn file_name_key(path: &Path, text: &str) -> Result<String, ConfigError> {
    let top: toml::Table = text.parse().map_err(|e| toml_error(path, text, &e))?;
    match top.get("name") {
        Some(toml::Value::String(s)) => Ok(s.clone()),
        _ => Err(ConfigError { file: path.to_path_buf(), field: "name".into(), message: "missing or not a string".into(), allowed: Some("name = \"preset_name\"".into()) }),
    }
}

/// `name = "..."` plus the block's `[TABLE]`, nothing else (unknown keys are errors
/// with their line, as with `deny_unknown_fields`).
struct TableFile<B: Block> {
    name: String,
    raw: B::Raw,
}

enum Key {
    Name,
    Table,
}

struct KeyVisitor<B>(PhantomData<B>);

impl<B: Block> KeyVisitor<B> {
    const EXPECTED: &'static [&'static str] = &["name", B::TABLE];
}

impl<'de, B: Block> Visitor<'de> for KeyVisitor<B> {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "`name` or `{}`", B::TABLE)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        match v {
            "name" => Ok(Key::Name),
            t if t == B::TABLE => Ok(Key::Table),
            other => Err(E::unknown_field(other, Self::EXPECTED)),
        }
    }
}

struct KeySeed<B>(PhantomData<B>);

impl<'de, B: Block> de::DeserializeSeed<'de> for KeySeed<B> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_identifier(KeyVisitor::<B>(PhantomData))
    }
}

struct FileVisitor<B>(PhantomData<B>);

impl<'de, B: Block> Visitor<'de> for FileVisitor<B> {
    type Value = TableFile<B>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a config file with `name` and a [{}] table", B::TABLE)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TableFile<B>, A::Error> {
        let (mut name, mut raw) = (None, None);
        while let Some(k) = map.next_key_seed(KeySeed::<B>(PhantomData))? {
            match k {
                Key::Name => name = Some(map.next_value::<String>()?),
                Key::Table => raw = Some(map.next_value::<B::Raw>()?),
            }
        }
        let name = name.ok_or_else(|| de::Error::missing_field("name"))?;
        let raw = raw.ok_or_else(|| de::Error::missing_field(B::TABLE))?;
        Ok(TableFile { name, raw })
    }
}

impl<'de, B: Block> Deserialize<'de> for TableFile<B> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(FileVisitor::<B>(PhantomData))
    }
}

// ---------------------------------------------------------------------------
// gpuforge sim
// ---------------------------------------------------------------------------

/// The optional `gpuforge sim` flags; a block states which it uses and every other
/// given flag is refused with exit status 2, never silently ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimFlag {
    /// A launch file (the GPU model's kernels).
    Launch,
    MaxCycles,
    Sweep,
    OutDir,
    /// Run the invariant scoreboards alongside.
    Check,
    /// Write the buffers after the run (`--dump DIR`).
    Dump,
}

impl SimFlag {
    pub fn cli(self) -> &'static str {
        match self {
            SimFlag::Launch => "<launch file>",
            SimFlag::MaxCycles => "--max-cycles",
            SimFlag::Sweep => "--sweep",
            SimFlag::OutDir => "--out-dir",
            SimFlag::Check => "--check",
            SimFlag::Dump => "--dump",
        }
    }
}

/// What `gpuforge sim` was asked for.
#[derive(Default)]
pub struct SimArgs<'a> {
    pub seed: u64,
    pub check: bool,
    pub sweep: Vec<f64>,
    pub out_dir: Option<PathBuf>,
    pub launch: Option<PathBuf>,
    pub max_cycles: Option<u64>,
    /// Write every buffer here after the run (the GPU model).
    pub dump: Option<PathBuf>,
    /// Called now and then with a status line (cycles done, rate).
    pub progress: Option<&'a mut dyn FnMut(&str)>,
}

impl SimArgs<'_> {
    /// The optional flags that were given.
    pub fn given(&self) -> Vec<SimFlag> {
        let mut v = Vec::new();
        if self.launch.is_some() {
            v.push(SimFlag::Launch);
        }
        if self.max_cycles.is_some() {
            v.push(SimFlag::MaxCycles);
        }
        if !self.sweep.is_empty() {
            v.push(SimFlag::Sweep);
        }
        if self.out_dir.is_some() {
            v.push(SimFlag::OutDir);
        }
        if self.check {
            v.push(SimFlag::Check);
        }
        if self.dump.is_some() {
            v.push(SimFlag::Dump);
        }
        v
    }
}

/// A finished run: the report for people, its statistics for machines, and whether
/// every check passed.
#[derive(Debug, Clone)]
pub struct SimOutcome {
    pub text: String,
    pub json: serde_json::Value,
    /// Why the run failed its checks (None: passed).
    pub failure: Option<String>,
}

/// Why a run could not produce an outcome.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SimError {
    /// Bad input (a missing launch file, an application the config cannot hold): exit 2.
    #[error("{0}")]
    Input(String),
    /// The model broke or a tool failed: exit 1.
    #[error("{0}")]
    Failed(String),
}

/// A block whose golden model runs on its own (`gpuforge sim`).
pub trait Simulate: Block {
    /// The optional flags this block uses.
    const FLAGS: &'static [SimFlag];
    fn simulate(cfg: &ConfigFile<Self::Config>, args: &mut SimArgs<'_>) -> Result<SimOutcome, SimError>;
}

/// Refuse the flags block `B` does not use (exit status 2 at the CLI).
pub fn check_sim_flags<B: Simulate>(args: &SimArgs<'_>) -> Result<(), SimError> {
    let unused: Vec<&str> = args.given().into_iter().filter(|f| !B::FLAGS.contains(f)).map(SimFlag::cli).collect();
    if unused.is_empty() {
        return Ok(());
    }
    let allowed = if B::FLAGS.is_empty() { "none".to_string() } else { B::FLAGS.iter().map(|f| f.cli()).collect::<Vec<_>>().join(", ") };
    Err(SimError::Input(format!("{} does not take {} (allowed for [{}]: {allowed})", B::TITLE, unused.join(", "), B::TABLE)))
}

/// Serialize a report for `--json` (every report type is plain data).
pub fn to_json(v: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(v).expect("reports serialize")
}
