//! The Verilated model behind the shim's C ABI, loaded with libloading.

use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;

use libloading::Library;

use crate::frame::{Frame, Layout};
use crate::verilator::{Built, SHIM_ABI};

type NewFn = unsafe extern "C" fn() -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type CycleFn = unsafe extern "C" fn(*mut c_void, *const u64, *mut u64);
type TraceOpenFn = unsafe extern "C" fn(*mut c_void, *const c_char) -> i32;
type U32Fn = unsafe extern "C" fn() -> u32;
type StrFn = unsafe extern "C" fn() -> *const c_char;

/// One instance of the RTL model.
pub struct Rtl {
    handle: *mut c_void,
    new: NewFn,
    free: FreeFn,
    cycle: CycleFn,
    trace_open: TraceOpenFn,
    trace_close: FreeFn,
    /// Whether the model can write a VCD (Verilated with `--trace`).
    pub has_trace: bool,
    pub layout: Layout,
    /// What it was loaded from (to load its traced twin).
    built: Built,
    // keep the library loaded while function pointers are alive
    _lib: Library,
}

/// Loading problems: a stale or foreign library.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(pub String);

impl Rtl {
    pub fn load(built: &Built) -> Result<Rtl, LoadError> {
        // SAFETY: the library is one we built from our own shim; its symbols have the
        // signatures declared above (checked by the ABI number below).
        unsafe {
            let lib = Library::new(&built.lib).map_err(|e| LoadError(format!("{}: {e}", built.lib.display())))?;
            fn sym<T: Copy>(lib: &Library, name: &[u8], path: &Path) -> Result<T, LoadError> {
                // SAFETY: see above
                unsafe { lib.get::<T>(name).map(|s| *s) }.map_err(|e| LoadError(format!("{}: {e}", path.display())))
            }
            let p = &built.lib;
            let abi: U32Fn = sym(&lib, b"gf_abi", p)?;
            if abi() != SHIM_ABI {
                return Err(LoadError(format!("{}: shim ABI {} but this gpuforge expects {SHIM_ABI}", p.display(), abi())));
            }
            let hash: StrFn = sym(&lib, b"gf_design_hash", p)?;
            let h = CStr::from_ptr(hash()).to_string_lossy().to_string();
            if h != built.content_hash {
                return Err(LoadError(format!("{}: built from design {h}, expected {}", p.display(), built.content_hash)));
            }
            let inw: U32Fn = sym(&lib, b"gf_in_words", p)?;
            let outw: U32Fn = sym(&lib, b"gf_out_words", p)?;
            if inw() as usize != built.layout.in_words || outw() as usize != built.layout.out_words {
                return Err(LoadError(format!("{}: frame sizes differ from the manifest", p.display())));
            }
            let traced: U32Fn = sym(&lib, b"gf_traced", p)?;
            let new: NewFn = sym(&lib, b"gf_new", p)?;
            let rtl = Rtl {
                handle: new(),
                new,
                free: sym(&lib, b"gf_free", p)?,
                cycle: sym(&lib, b"gf_cycle", p)?,
                trace_open: sym(&lib, b"gf_trace_open", p)?,
                trace_close: sym(&lib, b"gf_trace_close", p)?,
                has_trace: traced() == 1,
                layout: built.layout.clone(),
                built: built.clone(),
                _lib: lib,
            };
            Ok(rtl)
        }
    }

    /// One clock cycle: drive `inp`, return the pre-edge outputs in `out`, clock.
    #[inline]
    pub fn cycle(&mut self, inp: &Frame, out: &mut Frame) {
        assert_eq!(inp.words.len(), self.layout.in_words);
        assert_eq!(out.words.len(), self.layout.out_words);
        // SAFETY: handle is live; the frames have the sizes the shim was built for.
        unsafe { (self.cycle)(self.handle, inp.words.as_ptr(), out.words.as_mut_ptr()) }
    }

    /// Start writing a VCD of every following cycle.
    pub fn trace_open(&mut self, path: &Path) -> Result<(), LoadError> {
        let c = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| LoadError(e.to_string()))?;
        // SAFETY: live handle, NUL-terminated path.
        let r = unsafe { (self.trace_open)(self.handle, c.as_ptr()) };
        match r {
            0 => Ok(()),
            -2 => Err(LoadError(format!("{}: built without --trace, cannot write VCD {} (load `Rtl::traced`)", self.layout.top, path.display()))),
            _ => Err(LoadError(format!("cannot open VCD {}", path.display()))),
        }
    }

    /// A fresh instance of this model that can write a VCD: the same library when it
    /// was built with `--trace`, else its traced twin (built once, then cached).
    pub fn traced(&self) -> Result<Rtl, String> {
        let built = self.built.traced().map_err(|e| e.to_string())?;
        Rtl::load(&built).map_err(|e| e.to_string())
    }

    pub fn trace_close(&mut self) {
        // SAFETY: live handle.
        unsafe { (self.trace_close)(self.handle) }
    }

    /// Replace the model by a fresh one (state as after power-up, before reset).
    pub fn renew(&mut self) {
        // SAFETY: the old handle is freed once and replaced.
        unsafe {
            (self.free)(self.handle);
            self.handle = (self.new)();
        }
    }
}

impl Drop for Rtl {
    fn drop(&mut self) {
        // SAFETY: freed exactly once.
        unsafe { (self.free)(self.handle) }
    }
}
