//! Host-side data of a launch: element types and the named buffers a launch file fills
//! and a Rust reference reads and checks (the launch and the references both speak it).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;

/// Element type of a buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Elem {
    U8,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

impl Elem {
    pub fn bytes(self) -> usize {
        match self {
            Elem::U8 => 1,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::U64 | Elem::I64 | Elem::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }

    /// Encode `v` as this element type (little-endian).
    pub fn encode(self, v: f64, out: &mut Vec<u8>) {
        match self {
            Elem::U8 => out.push(v as u8),
            Elem::U32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
            Elem::I32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            Elem::U64 => out.extend_from_slice(&(v as u64).to_le_bytes()),
            Elem::I64 => out.extend_from_slice(&(v as i64).to_le_bytes()),
            Elem::F32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
            Elem::F64 => out.extend_from_slice(&v.to_le_bytes()),
        }
    }

    /// Decode element `i` of `data` as f64 (for comparisons and messages).
    pub fn decode(self, data: &[u8], i: usize) -> f64 {
        let b = &data[i * self.bytes()..(i + 1) * self.bytes()];
        match self {
            Elem::U8 => b[0] as f64,
            Elem::U32 => u32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
            Elem::I32 => i32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
            Elem::U64 => u64::from_le_bytes(b.try_into().expect("8 bytes")) as f64,
            Elem::I64 => i64::from_le_bytes(b.try_into().expect("8 bytes")) as f64,
            Elem::F32 => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
            Elem::F64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
        }
    }
}

/// Host-side contents of one buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct HostBuffer {
    pub name: String,
    pub elem: Elem,
    pub data: Vec<u8>,
}

impl HostBuffer {
    pub fn len(&self) -> usize {
        self.data.len() / self.elem.bytes()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn get(&self, i: usize) -> f64 {
        self.elem.decode(&self.data, i)
    }

    pub fn f32s(&self) -> Vec<f32> {
        self.data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
    }

    pub fn u32s(&self) -> Vec<u32> {
        self.data.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect()
    }

    pub fn from_f32(name: &str, v: &[f32]) -> Self {
        HostBuffer { name: name.into(), elem: Elem::F32, data: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
    }

    pub fn from_u32(name: &str, v: &[u32]) -> Self {
        HostBuffer { name: name.into(), elem: Elem::U32, data: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
    }

    pub fn from_i32(name: &str, v: &[i32]) -> Self {
        HostBuffer { name: name.into(), elem: Elem::I32, data: v.iter().flat_map(|x| x.to_le_bytes()).collect() }
    }
}

/// All buffers of a launch, by name.
pub type HostBuffers = BTreeMap<String, HostBuffer>;

/// Read a file a launch names (a buffer's `init.path`, an expected file): a regular
/// file of at most `max` bytes. A device or a pipe (`/dev/zero`) would never end and a
/// huge file would exhaust the machine, so both are errors naming the size or the kind.
pub fn read_input_file(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", path.display()));
    }
    if meta.len() > max {
        return Err(format!("{} is {} bytes, more than the {max} allowed", path.display(), meta.len()));
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path).and_then(|f| f.take(max + 1).read_to_end(&mut data)).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if data.len() as u64 > max {
        return Err(format!("{} grew past the {max} bytes allowed while being read", path.display()));
    }
    Ok(data)
}
