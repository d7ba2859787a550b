//! A bounded pool of worker threads for independent jobs whose results the calling
//! thread takes as they finish: a study's runs ([`crate::study::exec`]) and the designs
//! `gpuforge lint` and `gpuforge synth` check. A job that panics panics the caller once
//! the other jobs are done (jobs that must not, like a study's runs, catch their own).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Run `job` on every item, at most `jobs` at a time on scoped threads (items taken in
/// order), and hand each result to `done` on the calling thread as it finishes, in
/// completion order, with the item's index. Returns when every item is done.
pub fn run<T: Sync, R: Send>(items: &[T], jobs: usize, job: impl Fn(&T) -> R + Sync, mut done: impl FnMut(usize, R)) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(items.len()) {
            let tx = tx.clone();
            let (next, job) = (&next, &job);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, job(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            done(i, r);
        }
    });
}

/// The jobs a command's `--jobs` asks for: that many (0 is bad input, exit 2), or by
/// default this machine's available parallelism.
pub fn jobs(asked: Option<usize>) -> Result<usize, crate::outcome::Fail> {
    match asked {
        Some(0) => Err(crate::outcome::Fail::Input("--jobs 0: allowed 1 or more".into())),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Results taken in completion order, released in item order: [`Ordered::put`] returns
/// the results that are now next in line (so output stays in a fixed order while the
/// jobs finish in any order).
pub struct Ordered<R> {
    slots: Vec<Option<R>>,
    next: usize,
}

impl<R> Ordered<R> {
    pub fn new(len: usize) -> Self {
        Ordered { slots: (0..len).map(|_| None).collect(), next: 0 }
    }

    /// Store result `i`; return `(index, result)` of every result now next in order.
    pub fn put(&mut self, i: usize, r: R) -> Vec<(usize, R)> {
        self.slots[i] = Some(r);
        let mut out = Vec::new();
        while let Some(r) = self.slots.get_mut(self.next).and_then(Option::take) {
            out.push((self.next, r));
            self.next += 1;
        }
        out
    }
}
