//! Functional state of the memory spaces: device (global) memory and the generic
//! address windows of `.shared` and `.local`.
//!
//! Our choice: caches and DRAM are timing-only; data lives here. Device memory is one
//! flat byte array starting at [`GLOBAL_BASE`] (buffers are laid out from there, 256 B
//! aligned), so address 0 and small integers fault like a null pointer would. Generic
//! addresses of shared and local storage live in two windows far above device memory:
//! `cvta.shared` adds [`SHARED_WINDOW`], `cvta.local` adds [`LOCAL_WINDOW`].

/// First device-memory address handed to buffers.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// Device address of the module image: the initialized `.global`/`.const` variables
/// of the running kernel's module, below the buffers (the host never allocates there).
pub const MODULE_BASE: u64 = 0x0800_0000;
/// Size limit of the module image (it must end before [`GLOBAL_BASE`]).
pub const MODULE_BYTES: u64 = GLOBAL_BASE - MODULE_BASE;
/// Alignment of buffers in device memory.
pub const BUFFER_ALIGN: u64 = 256;

/// The first offset at or past `end` that is `skew` past a multiple of `align`
/// ([`GLOBAL_BASE`] is a multiple of every alignment a launch may ask for).
pub fn place(end: u64, align: u64, skew: u64) -> u64 {
    end.saturating_sub(skew).div_ceil(align) * align + skew
}
/// Generic address of shared-memory offset 0.
pub const SHARED_WINDOW: u64 = 0x7f00_0000_0000;
/// Generic address of local-memory offset 0.
pub const LOCAL_WINDOW: u64 = 0x7e00_0000_0000;
/// Size of each window.
pub const WINDOW_BYTES: u64 = 1 << 32;

/// The space a generic address falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenericTarget {
    Global(u64),
    Shared(u64),
    Local(u64),
}

pub fn resolve_generic(addr: u64) -> GenericTarget {
    if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr) {
        GenericTarget::Shared(addr - SHARED_WINDOW)
    } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&addr) {
        GenericTarget::Local(addr - LOCAL_WINDOW)
    } else {
        GenericTarget::Global(addr)
    }
}

/// Device memory: all buffers of a launch, back to back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceMemory {
    data: Vec<u8>,
    /// Module variables at [`MODULE_BASE`], and the module file they came from.
    module: Vec<u8>,
    module_file: Option<std::path::PathBuf>,
    /// Device `printf` output, in execution order (bounded by [`PRINTF_LOG_BYTES`]).
    printf: String,
    /// Buffers bound to texture references, by name, and the running kernel's
    /// textures by index ([`Self::select_textures`]).
    textures: std::collections::BTreeMap<String, TexBinding>,
    active_textures: Vec<(String, Option<TexBinding>)>,
}

/// A buffer bound to a texture reference: `elems` texels of `channels` 32-bit
/// components from device address `addr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TexBinding {
    pub addr: u64,
    pub elems: u64,
    pub channels: u32,
}

/// Most bytes of device `printf` output kept (later output is dropped, noted once).
pub const PRINTF_LOG_BYTES: usize = 1 << 20;

impl DeviceMemory {
    pub fn new() -> Self {
        DeviceMemory { data: Vec::new(), module: Vec::new(), module_file: None, printf: String::new(), textures: Default::default(), active_textures: Vec::new() }
    }

    /// Bind texture reference `name` to a buffer (the launch file's
    /// `textures = { name = "buffer" }`).
    pub fn bind_texture(&mut self, name: &str, b: TexBinding) {
        self.textures.insert(name.to_string(), b);
    }

    /// Resolve a kernel's texture references (in its index order) before it runs.
    pub fn select_textures(&mut self, names: &[String]) {
        self.active_textures = names.iter().map(|n| (n.clone(), self.textures.get(n).copied())).collect();
    }

    /// Texture `index` of the running kernel: its name and binding (`None` if unbound).
    pub fn texture(&self, index: u32) -> Option<(&str, Option<TexBinding>)> {
        self.active_textures.get(index as usize).map(|(n, b)| (n.as_str(), *b))
    }

    /// Append device `printf` output (kept up to [`PRINTF_LOG_BYTES`]).
    pub fn log_printf(&mut self, text: &str) {
        if self.printf.len() + text.len() <= PRINTF_LOG_BYTES {
            self.printf.push_str(text);
        } else if !self.printf.ends_with("[printf output truncated]\n") {
            self.printf.push_str("\n[printf output truncated]\n");
        }
    }

    /// Device `printf` output so far.
    pub fn printf_output(&self) -> &str {
        &self.printf
    }

    /// Place a module's `.global`/`.const` image at [`MODULE_BASE`], unless that
    /// module's image is already there (kernels of one module share their variables
    /// across launches, as on hardware).
    pub fn install_module(&mut self, file: &std::path::Path, image: &[u8]) {
        if self.module_file.as_deref() != Some(file) {
            self.module = image.to_vec();
            self.module_file = Some(file.to_path_buf());
        }
    }

    /// Reserve `bytes` (aligned to [`BUFFER_ALIGN`]) and return the buffer's address.
    pub fn alloc(&mut self, bytes: u64) -> u64 {
        self.alloc_at(bytes, BUFFER_ALIGN, 0)
    }

    /// Reserve `bytes` at the first address past the buffers so far that is `skew`
    /// bytes past a multiple of `align` (a power of two, at most [`GLOBAL_BASE`]).
    pub fn alloc_at(&mut self, bytes: u64, align: u64, skew: u64) -> u64 {
        let off = place(self.data.len() as u64, align, skew);
        let end = off + bytes.max(1);
        self.data.resize(end as usize, 0);
        GLOBAL_BASE + off
    }

    /// One past the last allocated address.
    pub fn end(&self) -> u64 {
        GLOBAL_BASE + self.data.len() as u64
    }

    #[inline]
    fn range(&self, addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let off = addr.checked_sub(GLOBAL_BASE)? as usize;
        let end = off.checked_add(len)?;
        (end <= self.data.len()).then_some(off..end)
    }

    #[inline]
    fn module_range(&self, addr: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let off = addr.checked_sub(MODULE_BASE)? as usize;
        let end = off.checked_add(len)?;
        (end <= self.module.len()).then_some(off..end)
    }

    #[inline(always)]
    pub fn read(&self, addr: u64, len: usize) -> Option<&[u8]> {
        match self.range(addr, len) {
            Some(r) => Some(&self.data[r]),
            None => self.read_module(addr, len),
        }
    }

    /// [`Self::read`] below the buffers: the module image (rarely used: kept out of the
    /// buffer path).
    #[cold]
    #[inline(never)]
    fn read_module(&self, addr: u64, len: usize) -> Option<&[u8]> {
        let r = self.module_range(addr, len)?;
        Some(&self.module[r])
    }

    #[inline(always)]
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> Option<()> {
        match self.range(addr, bytes.len()) {
            Some(r) => {
                self.data[r].copy_from_slice(bytes);
                Some(())
            }
            None => self.write_module(addr, bytes),
        }
    }

    /// `len` bytes at `addr` to write in place, when they lie in one region (the
    /// buffers or the module image); what [`Self::write`] would write, byte for byte.
    pub fn slice_mut(&mut self, addr: u64, len: usize) -> Option<&mut [u8]> {
        match self.range(addr, len) {
            Some(r) => Some(&mut self.data[r]),
            None => {
                let r = self.module_range(addr, len)?;
                Some(&mut self.module[r])
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn write_module(&mut self, addr: u64, bytes: &[u8]) -> Option<()> {
        let r = self.module_range(addr, bytes.len())?;
        self.module[r].copy_from_slice(bytes);
        Some(())
    }

    pub fn bytes(&self, addr: u64, len: usize) -> Option<&[u8]> {
        self.read(addr, len)
    }
}

/// Read `len` (1, 2, 4 or 8) little-endian bytes as a u64.
#[inline(always)]
pub fn load_le(b: &[u8]) -> u64 {
    match b.len() {
        1 => b[0] as u64,
        2 => u16::from_le_bytes([b[0], b[1]]) as u64,
        4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64,
        _ => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    }
}

/// Write the low `out.len()` bytes of `v`, little-endian.
#[inline(always)]
pub fn store_le(v: u64, out: &mut [u8]) {
    let b = v.to_le_bytes();
    out.copy_from_slice(&b[..out.len()]);
}
