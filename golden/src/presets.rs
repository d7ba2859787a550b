//! The shipped presets (`configs/<block>/<name>.toml`): the one way tests, benches and
//! examples reach them, so no preset text is ever retyped.

use std::path::{Path, PathBuf};

use crate::block::{self, Block, ConfigFile};
use crate::config::ConfigError;

/// The `configs/` directory of this checkout.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("configs")
}

/// Every preset file, sorted by path.
pub fn all() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in std::fs::read_dir(dir()).into_iter().flatten().flatten() {
        if d.path().is_dir() {
            for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
                if f.path().extension().is_some_and(|x| x == "toml") {
                    v.push(f.path());
                }
            }
        }
    }
    v.sort();
    v
}

/// Every preset of block `B` (the files whose block table is `B::TABLE`).
pub fn of<B: Block>() -> Vec<PathBuf> {
    all().into_iter().filter(|p| std::fs::read_to_string(p).is_ok_and(|t| block::detect(p, &t, &[B::TABLE]).is_ok())).collect()
}

/// The file of preset `name` (`gpucc_small`, `noc_macro_4x4`, `tiny`, ...).
///
/// # Panics
/// When there is no such preset (a fixture accessor: the message lists them all).
pub fn path(name: &str) -> PathBuf {
    let want = format!("{name}.toml");
    all().into_iter().find(|p| p.file_name().is_some_and(|f| f == want.as_str())).unwrap_or_else(|| {
        let names: Vec<String> = all().iter().filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().to_string())).collect();
        panic!("no preset `{name}` in {} (presets: {})", dir().display(), names.join(", "))
    })
}

/// The text of preset `name`.
pub fn text(name: &str) -> String {
    let p = path(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Preset `name`, loaded and validated as block `B`.
pub fn load<B: Block>(name: &str) -> Result<ConfigFile<B::Config>, ConfigError> {
    block::load::<B>(&path(name))
}
