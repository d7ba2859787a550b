//! Mutation fuzzing of the real `gpuforge` binary (issue 9, item 5): the shipped
//! configs, launch files and PTX files, mutated deterministically (seeded), must never
//! make a command panic (exit 101), abort (134, e.g. a failed allocation), die by a
//! signal, or run past a timeout. Bad input may exit 2 and an unfinished or failed run
//! exit 1; both are fine here.
//!
//! Bounded in time: a fixed number of mutants per file (about 360 runs), each with a
//! small cycle limit and a per-run timeout, on two worker threads.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How one run ended, for the harness.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    /// Exit 0, 1 or 2.
    Fine(i32),
    /// Exit 101 (a Rust panic) or any other status.
    BadStatus(i32),
    /// Killed by a signal (abort, segfault, OOM killer).
    Signal(i32),
    /// Still running at the timeout (killed by the harness).
    Timeout,
}

/// Run `cmd` with a timeout and classify the ending.
fn judge(mut cmd: Command, timeout: Duration) -> (Verdict, String) {
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break Some(s);
        }
        if t0.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // a timed-out child's own children may hold the pipe open: do not wait for them
    let err: String = if status.is_some() { reader.join().unwrap_or_default().chars().take(600).collect() } else { String::new() };
    let v = match status {
        None => Verdict::Timeout,
        Some(s) => match s.code() {
            Some(c @ 0..=2) => Verdict::Fine(c),
            Some(c) => Verdict::BadStatus(c),
            None => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    Verdict::Signal(s.signal().unwrap_or(-1))
                }
                #[cfg(not(unix))]
                Verdict::Signal(-1)
            }
        },
    };
    (v, err)
}

/// SplitMix64: a small deterministic generator (seeded per file and mutant).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Values numbers are replaced by: zero, negative, the 32-bit and 64-bit edges, huge,
/// not-a-number, and a huge length.
const SPECIALS: &[&str] = &["0", "-1", "2147483648", "4294967296", "9223372036854775808", "1e300", "nan", "4000000000000"];

/// Byte ranges of the whitespace-separated words of `text`.
fn words(text: &str) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                v.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        v.push((s, text.len()));
    }
    v
}

/// The digits (with sign, point, exponent) inside a word, if it holds a number.
fn number_in(word: &str) -> Option<(usize, usize)> {
    let s = word.find(|c: char| c.is_ascii_digit())?;
    let s = if s > 0 && word.as_bytes()[s - 1] == b'-' { s - 1 } else { s };
    let e = word[s..].find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+' | 'x' | 'a'..='f'))).map_or(word.len(), |e| s + e);
    Some((s, e))
}

/// One deterministic mutant of `text`: delete, duplicate or replace a word, set a number
/// to a special value, or truncate.
fn mutate(text: &str, rng: &mut Rng) -> (String, String) {
    let w = words(text);
    if w.is_empty() {
        return (String::new(), "empty".into());
    }
    let kind = rng.below(10);
    let (s, e) = w[rng.below(w.len())];
    match kind {
        0 => (format!("{}{}", &text[..s], &text[e..]), format!("delete `{}`", &text[s..e])),
        1 => (format!("{}{} {}", &text[..e], &text[s..e], &text[e..]), format!("duplicate `{}`", &text[s..e])),
        2 => {
            let (s2, e2) = w[rng.below(w.len())];
            (format!("{}{}{}", &text[..s], &text[s2..e2], &text[e..]), format!("replace `{}` by `{}`", &text[s..e], &text[s2..e2]))
        }
        3 => {
            let mut cut = rng.below(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            (text[..cut].to_string(), format!("truncate at byte {cut}"))
        }
        _ => {
            // a number: pick among the words holding one
            let nums: Vec<(usize, usize)> = w.iter().filter_map(|&(s, e)| number_in(&text[s..e]).map(|(a, b)| (s + a, s + b))).collect();
            if nums.is_empty() {
                return (text.to_string(), "unchanged".into());
            }
            let (a, b) = nums[rng.below(nums.len())];
            let v = SPECIALS[rng.below(SPECIALS.len())];
            (format!("{}{v}{}", &text[..a], &text[b..]), format!("number `{}` -> {v}", &text[a..b]))
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            v.extend(files(&p, ext));
        } else if p.extension().is_some_and(|x| x == ext) {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// One fuzz case: a description and the command to run.
struct Case {
    what: String,
    cmd: Command,
}

fn gpuforge(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gpuforge"));
    c.current_dir(root()).args(args);
    c
}

const CYCLES: &str = "3000";

/// Mutants of every shipped config, launch file and PTX file, as commands.
fn cases(scratch: &Path, per_file: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let mut n = 0;
    let mut fresh = |tag: &str| {
        n += 1;
        let d = scratch.join(format!("{tag}{n}"));
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    // configs: simulate (GPU configs with a small launch), and generate the RTL ones
    for cfg in files(&root().join("configs"), "toml") {
        let text = std::fs::read_to_string(&cfg).unwrap();
        let mut rng = Rng(0xC0F1 ^ text.len() as u64);
        for _ in 0..per_file {
            let (m, how) = mutate(&text, &mut rng);
            let d = fresh("cfg");
            let p = d.join(cfg.file_name().unwrap());
            std::fs::write(&p, &m).unwrap();
            let ps = p.to_str().unwrap().to_string();
            let what = format!("{} ({how})", cfg.strip_prefix(root()).unwrap().display());
            let cmd = if text.contains("[gpu]") {
                gpuforge(&["sim", &ps, "workloads/vecadd/vecadd.toml", "--max-cycles", CYCLES])
            } else if text.contains("[gpucc]") {
                gpuforge(&["sim", &ps, "--max-cycles", CYCLES])
            } else {
                gpuforge(&["sim", &ps])
            };
            out.push(Case { what: format!("sim {what}"), cmd });
            if !text.contains("[gpu]") && (text.contains("[gpucc]") || text.contains("mesh = 4")) {
                let o = d.join("rtl");
                out.push(Case { what: format!("gen {what}"), cmd: gpuforge(&["gen", &ps, "--out", o.to_str().unwrap()]) });
            }
        }
    }
    // launch files and PTX: a copy of the workload's directory with one file mutated
    let launches = files(&root().join("workloads"), "toml");
    for src in launches.iter().chain(files(&root().join("workloads"), "ptx").iter()) {
        let text = std::fs::read_to_string(src).unwrap();
        let mut rng = Rng(0x1A0C ^ text.len() as u64);
        // a PTX file runs under the first launch file of its directory that names it
        let launch = if src.extension().is_some_and(|x| x == "toml") {
            Some(src.clone())
        } else {
            let name = src.file_name().unwrap().to_str().unwrap().to_string();
            launches.iter().find(|l| l.parent() == src.parent() && std::fs::read_to_string(l).unwrap().contains(&name)).cloned()
        };
        let Some(launch) = launch else { continue };
        for _ in 0..per_file {
            let (m, how) = mutate(&text, &mut rng);
            let d = fresh("wl");
            // the directory's files only: a workload directory may hold subdirectories
            // (workloads/micro_llc/spec), whose launch files are cases of their own
            for e in std::fs::read_dir(src.parent().unwrap()).unwrap().flatten() {
                if e.path().is_file() {
                    std::fs::copy(e.path(), d.join(e.file_name())).unwrap();
                }
            }
            std::fs::write(d.join(src.file_name().unwrap()), &m).unwrap();
            let l = d.join(launch.file_name().unwrap());
            let cmd = gpuforge(&["sim", "configs/gpu/tiny.toml", l.to_str().unwrap(), "--max-cycles", CYCLES]);
            out.push(Case { what: format!("sim {} ({how})", src.strip_prefix(root()).unwrap().display()), cmd });
        }
    }
    out
}

/// Run the cases on `workers` threads; the failures, described, and how many runs
/// exited 0, 1 and 2.
fn run_all(cases: Vec<Case>, workers: usize, timeout: Duration) -> (Vec<String>, [usize; 3]) {
    let queue = std::sync::Mutex::new(cases);
    let failures = std::sync::Mutex::new(Vec::new());
    let fine = std::sync::Mutex::new([0usize; 3]);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let Some(c) = queue.lock().unwrap().pop() else { break };
                let (v, err) = judge(c.cmd, timeout);
                match v {
                    Verdict::Fine(code) => fine.lock().unwrap()[code as usize] += 1,
                    v => failures.lock().unwrap().push(format!("{:?}: {}\n  stderr: {err}", v, c.what)),
                }
            });
        }
    });
    (failures.into_inner().unwrap(), fine.into_inner().unwrap())
}

#[test]
fn mutated_inputs_never_crash_or_hang_gpuforge() {
    let scratch = std::env::temp_dir().join(format!("gpuforge-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let t0 = Instant::now();
    let cases = cases(&scratch, 6);
    let n = cases.len();
    assert!(n >= 300, "only {n} fuzz cases");
    let (failures, fine) = run_all(cases, 2, Duration::from_secs(30));
    eprintln!("{n} mutants in {:.1}s: exit 0/1/2 = {fine:?}", t0.elapsed().as_secs_f64());
    // the mutants reach the model, not only the parsers: some run to the end
    assert!(fine[0] + fine[1] >= n / 10, "exit 0/1/2 = {fine:?}");
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{} of {n} mutants crashed or hung gpuforge:\n{}", failures.len(), failures.join("\n"));
}

/// The harness itself catches what it is for: a panic's exit status, an abort, a
/// timeout (planted with stand-in children, not with gpuforge).
#[test]
fn the_harness_catches_panics_aborts_and_hangs() {
    let sh = |script: &str| {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    };
    assert_eq!(judge(sh("exit 2"), Duration::from_secs(10)).0, Verdict::Fine(2));
    assert_eq!(judge(sh("echo boom >&2; exit 101"), Duration::from_secs(10)), (Verdict::BadStatus(101), "boom\n".to_string()));
    assert_eq!(judge(sh("kill -ABRT $$"), Duration::from_secs(10)).0, Verdict::Signal(6));
    let t0 = Instant::now();
    assert_eq!(judge(sh("sleep 30"), Duration::from_millis(300)).0, Verdict::Timeout);
    assert_eq!(judge(sh("exec sleep 30"), Duration::from_millis(300)).0, Verdict::Timeout);
    assert!(t0.elapsed() < Duration::from_secs(10), "the timeout kills the child");
    // and run_all reports them
    let cases = vec![Case { what: "abort".into(), cmd: sh("kill -ABRT $$") }, Case { what: "ok".into(), cmd: sh("exit 1") }];
    let (f, fine) = run_all(cases, 2, Duration::from_secs(10));
    assert_eq!(fine, [0, 1, 0]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].starts_with("Signal(6): abort"), "{f:?}");
}

#[test]
fn mutations_are_deterministic_and_varied() {
    let text = "name = \"x\"\n[gpu]\nsms = 4\nclock_mhz = 1000\n";
    let a: Vec<String> = (0..40).map(|i| mutate(text, &mut Rng(i)).0).collect();
    let b: Vec<String> = (0..40).map(|i| mutate(text, &mut Rng(i)).0).collect();
    assert_eq!(a, b);
    assert!(a.iter().any(|m| m.contains("sms = 4294967296") || m.contains("sms = -1") || m.contains("sms = 0") || m.contains("sms = nan")), "{a:?}");
    assert!(a.iter().any(|m| m.len() < text.len()), "some mutant is shorter");
}
