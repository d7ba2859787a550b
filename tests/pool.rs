//! Tests of `src/pool.rs`: every item runs exactly once whatever the job count, results
//! reach the caller with their item's index, and `Ordered` releases them in item order.

use std::sync::atomic::{AtomicUsize, Ordering};

use gpuforge::pool::{self, Ordered};

#[test]
fn every_item_runs_once_and_its_result_comes_back_with_its_index() {
    let items: Vec<u64> = (0..37).map(|i| i * 7 + 1).collect();
    for jobs in [0, 1, 2, 5, 100] {
        let calls = AtomicUsize::new(0);
        let mut got = vec![None; items.len()];
        pool::run(
            &items,
            jobs,
            |x| {
                calls.fetch_add(1, Ordering::Relaxed);
                x * x
            },
            |i, r| {
                assert!(got[i].is_none(), "jobs {jobs}: item {i} reported twice");
                got[i] = Some(r);
            },
        );
        assert_eq!(calls.load(Ordering::Relaxed), items.len(), "jobs {jobs}");
        let want: Vec<Option<u64>> = items.iter().map(|x| Some(x * x)).collect();
        assert_eq!(got, want, "jobs {jobs}");
    }
    pool::run(&[] as &[u8], 4, |_| unreachable!("no item"), |_, ()| unreachable!("no result"));
}

#[test]
fn jobs_run_at_the_same_time_up_to_the_bound() {
    // each job waits (10 s at most) until two have been running at once: a pool that ran
    // its jobs one after another would time out and fail, one that ran more than two at
    // once would show it in `most`
    let running = AtomicUsize::new(0);
    let most = AtomicUsize::new(0);
    pool::run(
        &[0u8; 6],
        2,
        |_| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            let t = std::time::Instant::now();
            while most.load(Ordering::SeqCst) < 2 && t.elapsed() < std::time::Duration::from_secs(10) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            running.fetch_sub(1, Ordering::SeqCst);
        },
        |_, ()| {},
    );
    assert_eq!(most.load(Ordering::SeqCst), 2, "two jobs at once, never more");
}

#[test]
fn ordered_releases_results_in_item_order() {
    let mut o = Ordered::new(5);
    assert!(o.put(2, 'c').is_empty());
    assert!(o.put(1, 'b').is_empty());
    assert_eq!(o.put(0, 'a'), vec![(0, 'a'), (1, 'b'), (2, 'c')]);
    assert!(o.put(4, 'e').is_empty());
    assert_eq!(o.put(3, 'd'), vec![(3, 'd'), (4, 'e')]);
}
