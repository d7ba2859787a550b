//! Buffers as files: NumPy `.npy` (format version 1.0) and raw little-endian element
//! files, for `gpuforge sim --dump DIR` and for a launch file's `[[check.expect]]`.
//!
//! A version 1.0 `.npy` file is the magic `\x93NUMPY`, the version bytes 1 and 0, a
//! little-endian u16 header length, and an ASCII header — a Python dict literal with
//! `descr`, `fortran_order` and `shape`, padded with spaces and ended by `\n` so the
//! data starts at a multiple of 64 bytes — followed by the elements (NumPy's
//! `format.py`, "The .npy format"). We write 1-D arrays; we read 1-D (or any C-order
//! shape whose product is the buffer length) of the buffer's own element type.

use std::path::{Path, PathBuf};

use super::host::{Elem, HostBuffer, HostBuffers};

const MAGIC: &[u8] = b"\x93NUMPY";

/// NumPy's type string for an element type (little-endian).
pub fn descr(elem: Elem) -> &'static str {
    match elem {
        Elem::U8 => "|u1",
        Elem::U32 => "<u4",
        Elem::I32 => "<i4",
        Elem::U64 => "<u8",
        Elem::I64 => "<i8",
        Elem::F32 => "<f4",
        Elem::F64 => "<f8",
    }
}

/// `buf` as a version 1.0 `.npy` file of shape `(len,)`.
pub fn encode(buf: &HostBuffer) -> Vec<u8> {
    let dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}", descr(buf.elem), buf.len());
    // magic (6) + version (2) + length (2) + dict + padding + '\n' = a multiple of 64
    let unpadded = MAGIC.len() + 4 + dict.len() + 1;
    let pad = unpadded.div_ceil(64) * 64 - unpadded;
    let header = format!("{dict}{}\n", " ".repeat(pad));
    let mut out = Vec::with_capacity(unpadded + pad + buf.data.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&buf.data);
    out
}

/// A parsed `.npy` header and where its data starts.
#[derive(Debug, Clone, PartialEq)]
pub struct NpyHeader {
    pub descr: String,
    pub fortran_order: bool,
    pub shape: Vec<u64>,
    pub data_offset: usize,
}

/// Parse the header of a `.npy` file (versions 1.0, 2.0 and 3.0).
pub fn parse_header(bytes: &[u8]) -> Result<NpyHeader, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    let (len, start): (usize, usize) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12),
        v => return Err(format!(".npy format version {v} is not supported")),
    };
    let end = start.checked_add(len).filter(|e| *e <= bytes.len()).ok_or("the .npy header is truncated")?;
    let text = std::str::from_utf8(&bytes[start..end]).map_err(|_| "the .npy header is not text")?;
    let value = |key: &str| -> Result<&str, String> {
        let k = format!("'{key}':");
        let at = text.find(&k).ok_or_else(|| format!("the .npy header has no '{key}'"))?;
        Ok(text[at + k.len()..].trim_start())
    };
    let d = value("descr")?;
    let descr = d.strip_prefix('\'').and_then(|r| r.split('\'').next()).ok_or("the .npy 'descr' is not a string")?.to_string();
    let fortran_order = value("fortran_order")?.starts_with("True");
    let s = value("shape")?;
    let inner = s.strip_prefix('(').and_then(|r| r.split(')').next()).ok_or("the .npy 'shape' is not a tuple")?;
    let shape = inner
        .split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(|x| x.trim_end_matches('L').parse::<u64>().map_err(|_| format!("the .npy shape has a bad dimension `{x}`")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(NpyHeader { descr, fortran_order, shape, data_offset: end })
}

/// Whether a NumPy type string means `elem` on a little-endian host.
fn descr_matches(d: &str, elem: Elem) -> bool {
    let want = descr(elem);
    d == want || (d.len() == want.len() && matches!(d.as_bytes()[0], b'<' | b'=' | b'|') && d[1..] == want[1..])
}

/// The expected contents of buffer `name` (`len` elements of `elem`) from `path`: a
/// `.npy` file of that element type and size, or (any other extension) raw
/// little-endian elements. Errors are (message, allowed).
pub fn read_expected(path: &Path, name: &str, elem: Elem, len: usize) -> Result<HostBuffer, (String, String)> {
    let want_bytes = len as u64 * elem.bytes() as u64;
    // the data plus a header (NumPy pads it to 64 bytes; allow far more)
    let bytes = super::host::read_input_file(path, want_bytes + (1 << 20)).map_err(|m| (m, format!("an existing .npy or raw .bin file of the buffer's {want_bytes} bytes")))?;
    let data = if path.extension().is_some_and(|x| x == "npy") {
        let h = parse_header(&bytes).map_err(|m| (format!("{}: {m}", path.display()), "a NumPy .npy file".to_string()))?;
        if !descr_matches(&h.descr, elem) || h.fortran_order {
            return Err((
                format!("{}: dtype '{}'{} does not match buffer `{name}` ({elem:?})", path.display(), h.descr, if h.fortran_order { " in Fortran order" } else { "" }),
                format!("dtype '{}', C order", descr(elem)),
            ));
        }
        let n: u64 = h.shape.iter().try_fold(1u64, |a, d| a.checked_mul(*d)).unwrap_or(u64::MAX);
        let have = (bytes.len() - h.data_offset) as u64;
        if n != len as u64 || have != want_bytes {
            return Err((format!("{}: shape {:?} ({have} data bytes) for buffer `{name}` of {len} elements", path.display(), h.shape), format!("{len} elements")));
        }
        bytes[h.data_offset..].to_vec()
    } else {
        if bytes.len() as u64 != want_bytes {
            return Err((
                format!("{}: {} bytes for buffer `{name}` of {len} {elem:?} elements", path.display(), bytes.len()),
                format!("{want_bytes} bytes of raw little-endian elements"),
            ));
        }
        bytes
    };
    Ok(HostBuffer { name: name.to_string(), elem, data })
}

/// Write every buffer to `dir` as `<name>.bin` (raw little-endian) and `<name>.npy`;
/// returns the files written.
pub fn dump(dir: &Path, buffers: &HostBuffers) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut files = Vec::new();
    for b in buffers.values() {
        let raw = dir.join(format!("{}.bin", b.name));
        std::fs::write(&raw, &b.data)?;
        let npy = dir.join(format!("{}.npy", b.name));
        std::fs::write(&npy, encode(b))?;
        files.push(raw);
        files.push(npy);
    }
    Ok(files)
}
