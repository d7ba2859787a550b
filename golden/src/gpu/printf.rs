//! Device `printf` (`vprintf` calls): a C format string applied to the argument
//! buffer the kernel built, as the CUDA runtime does.
//!
//! The buffer holds the arguments back to back, each aligned to its size (CUDA's
//! `vprintf` ABI): `int`/`unsigned`/`char` 4 bytes; `long`, `long long`, pointers
//! (`%p`, `%s`) and `double` (`float` is promoted) 8 bytes. Conversions: `%d %i %u %x
//! %X %o %c %s %p %f %F %e %E %g %G %%`, length modifiers `h hh l ll z`, flags `- 0 +
//! space #`, width and precision as numbers (`*` is not supported and prints as
//! written).

/// Reads an argument's bytes or a string from device memory.
pub trait ArgSource {
    /// `len` bytes at generic address `addr`, or `None` if unmapped.
    fn bytes(&mut self, addr: u64, len: usize) -> Option<Vec<u8>>;
}

/// Longest string read for one `%s` (and for the format itself).
pub const MAX_STRING: usize = 4096;

/// The NUL-terminated string at `addr` (at most [`MAX_STRING`] bytes).
pub fn read_string(src: &mut dyn ArgSource, addr: u64) -> Option<String> {
    let mut out = Vec::new();
    while out.len() < MAX_STRING {
        let b = src.bytes(addr + out.len() as u64, 1)?[0];
        if b == 0 {
            break;
        }
        out.push(b);
    }
    Some(String::from_utf8_lossy(&out).into_owned())
}

/// Widths and precisions above this are clamped to it (a mutated kernel's `%999999999d`
/// must not allocate a gigabyte per call).
pub const MAX_FIELD: usize = 4096;

struct Spec {
    minus: bool,
    zero: bool,
    plus: bool,
    space: bool,
    alt: bool,
    width: usize,
    prec: Option<usize>,
    long: bool,
}

/// Format `fmt` with the arguments at generic address `args`.
pub fn format(fmt: &str, args: u64, src: &mut dyn ArgSource) -> Result<String, String> {
    format_counted(fmt, args, src).map(|(s, _)| s)
}

/// [`format`], also returning how many arguments were read (`printf`'s return value
/// on the device).
pub fn format_counted(fmt: &str, args: u64, src: &mut dyn ArgSource) -> Result<(String, u32), String> {
    let mut count = 0u32;
    let f = fmt.as_bytes();
    let mut out = String::new();
    let mut off = 0u64;
    let mut i = 0;
    let mut next = |size: u64, src: &mut dyn ArgSource| -> Result<u64, String> {
        count += 1;
        off = off.div_ceil(size) * size;
        let b = src.bytes(args + off, size as usize).ok_or_else(|| format!("printf argument at {:#x} is not readable", args + off))?;
        off += size;
        let mut v = [0u8; 8];
        v[..b.len()].copy_from_slice(&b);
        Ok(u64::from_le_bytes(v))
    };
    while i < f.len() {
        if f[i] != b'%' {
            let start = i;
            while i < f.len() && f[i] != b'%' {
                i += 1;
            }
            out.push_str(&fmt[start..i]);
            continue;
        }
        let start = i;
        i += 1;
        let mut s = Spec { minus: false, zero: false, plus: false, space: false, alt: false, width: 0, prec: None, long: false };
        while i < f.len() && b"-0+ #".contains(&f[i]) {
            match f[i] {
                b'-' => s.minus = true,
                b'0' => s.zero = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                _ => s.alt = true,
            }
            i += 1;
        }
        while i < f.len() && f[i].is_ascii_digit() {
            s.width = (s.width * 10 + (f[i] - b'0') as usize).min(MAX_FIELD);
            i += 1;
        }
        if i < f.len() && f[i] == b'.' {
            i += 1;
            let mut p = 0;
            while i < f.len() && f[i].is_ascii_digit() {
                p = (p * 10 + (f[i] - b'0') as usize).min(MAX_FIELD);
                i += 1;
            }
            s.prec = Some(p);
        }
        while i < f.len() && b"hlzjt".contains(&f[i]) {
            if matches!(f[i], b'l' | b'z' | b'j' | b't') {
                s.long = true;
            }
            i += 1;
        }
        let Some(&conv) = f.get(i) else {
            out.push_str(&fmt[start..]);
            break;
        };
        i += 1;
        let isz = if s.long { 8 } else { 4 };
        let body = match conv {
            b'%' => {
                out.push('%');
                continue;
            }
            b'd' | b'i' => {
                let v = next(isz, src)?;
                let v = if s.long { v as i64 } else { v as u32 as i32 as i64 };
                let digits = with_prec(v.unsigned_abs().to_string(), s.prec);
                let sign = s.sign(v < 0);
                pad(&s, sign, &digits, s.prec.is_none())
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = next(isz, src)?;
                let v = if s.long { v } else { v as u32 as u64 };
                let (digits, prefix) = match conv {
                    b'u' => (v.to_string(), ""),
                    b'x' => (format!("{v:x}"), if s.alt && v != 0 { "0x" } else { "" }),
                    b'X' => (format!("{v:X}"), if s.alt && v != 0 { "0X" } else { "" }),
                    _ => (format!("{v:o}"), if s.alt { "0" } else { "" }),
                };
                pad(&s, prefix, &with_prec(digits, s.prec), s.prec.is_none())
            }
            b'c' => {
                let v = next(4, src)? as u8;
                pad(&s, "", &(v as char).to_string(), false)
            }
            b's' => {
                let p = next(8, src)?;
                let mut t = read_string(src, p).ok_or_else(|| format!("printf %s argument {p:#x} is not readable"))?;
                if let Some(p) = s.prec {
                    t = t.chars().take(p).collect();
                }
                pad(&s, "", &t, false)
            }
            b'p' => {
                let v = next(8, src)?;
                pad(&s, "0x", &format!("{v:x}"), false)
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' => {
                let v = f64::from_bits(next(8, src)?);
                let sign = s.sign(v.is_sign_negative() && !v.is_nan());
                let a = v.abs();
                let upper = conv.is_ascii_uppercase();
                let digits = if a.is_nan() {
                    "nan".to_string()
                } else if a.is_infinite() {
                    "inf".to_string()
                } else {
                    let p = s.prec.unwrap_or(6);
                    match conv.to_ascii_lowercase() {
                        b'f' => format!("{a:.p$}"),
                        b'e' => c_exp(a, p),
                        _ => c_general(a, p, s.alt),
                    }
                };
                let digits = if upper { digits.to_uppercase() } else { digits };
                pad(&s, sign, &digits, a.is_finite())
            }
            _ => {
                // unknown conversion: printed as written (as CUDA's printf does)
                out.push_str(&fmt[start..i]);
                continue;
            }
        };
        out.push_str(&body);
    }
    Ok((out, count))
}

/// Integer digits with at least `prec` digits.
#[doc(hidden)]
pub fn with_prec(d: String, prec: Option<usize>) -> String {
    match prec {
        Some(0) if d == "0" => String::new(),
        Some(p) if d.len() < p => format!("{}{d}", "0".repeat(p - d.len())),
        _ => d,
    }
}

/// `sign`/prefix and digits padded to the width (zeros after the sign when `0` and
/// `zero_ok`, else spaces; left-aligned with `-`).
impl Spec {
    /// The sign a signed conversion prints: `-`, or `+` / space under those flags.
    fn sign(&self, negative: bool) -> &'static str {
        if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        }
    }
}

fn pad(s: &Spec, sign: &str, digits: &str, zero_ok: bool) -> String {
    let len = sign.len() + digits.chars().count();
    if len >= s.width {
        return format!("{sign}{digits}");
    }
    let fill = s.width - len;
    if s.minus {
        format!("{sign}{digits}{}", " ".repeat(fill))
    } else if s.zero && zero_ok {
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{sign}{digits}", " ".repeat(fill))
    }
}

/// C `%e`: `d.ddde+XX` (at least two exponent digits).
#[doc(hidden)]
pub fn c_exp(a: f64, p: usize) -> String {
    let r = format!("{a:.p$e}");
    let (m, e) = r.split_once('e').expect("Rust's {:e} has an exponent");
    let e: i32 = e.parse().expect("an integer exponent");
    format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// C `%g`: `%e` if the exponent is below -4 or at least the precision, else `%f`,
/// trailing zeros removed unless `#`.
#[doc(hidden)]
pub fn c_general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let e_form = c_exp(a, p - 1);
    let x: i32 = e_form.split_once('e').map(|(_, e)| e.parse().expect("exponent")).unwrap_or(0);
    let strip = |t: String| -> String {
        if alt || !t.contains('.') {
            return t;
        }
        let (m, rest) = match t.find('e') {
            Some(k) => (t[..k].to_string(), t[k..].to_string()),
            None => (t.clone(), String::new()),
        };
        let m = m.trim_end_matches('0').trim_end_matches('.').to_string();
        m + &rest
    };
    if x < -4 || x >= p as i32 {
        strip(e_form)
    } else {
        let q = (p as i32 - 1 - x).max(0) as usize;
        strip(format!("{a:.q$}"))
    }
}
