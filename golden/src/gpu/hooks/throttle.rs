//! `[hooks.throttle]`: static core throttling. The actuators a Q-cache rate monitor
//! drives (qcache.md §1.8: CTA drain and a lower SM clock), held fixed for the whole
//! run: a sensitivity-study knob ("these SMs at half clock") and the example of a block
//! joining through [`super::BLOCKS`].
//!
//! ```toml
//! [hooks.throttle]
//! sms = [0, 1]        # which SMs (default: every SM)
//! clock = [1, 2]      # run 1 of every 2 cycles (default [1, 1])
//! dispatch = true     # new CTAs may start on them (default true)
//! ```

use serde::Deserialize;

use crate::config::{check_range, FieldError};
use crate::gpu::config::GpuConfig;

use super::{params, CoreControl, HookBlock, HookSet, L2Hook, SmThrottle};

pub const BLOCK: HookBlock = HookBlock { name: "throttle", attach };

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default)]
    sms: Option<Vec<u32>>,
    #[serde(default)]
    clock: Option<[u16; 2]>,
    #[serde(default)]
    dispatch: Option<bool>,
}

/// Sets the throttles once, in cycle 0.
struct StaticThrottle {
    sms: Vec<usize>,
    throttle: SmThrottle,
}

impl L2Hook for StaticThrottle {
    fn cycle(&mut self, _now: u64, ctl: &mut dyn CoreControl) -> u64 {
        for &i in &self.sms {
            ctl.set_throttle(i, self.throttle);
        }
        u64::MAX
    }
}

fn attach(cfg: &GpuConfig, table: &toml::Table, set: &mut HookSet) -> Result<(), FieldError> {
    let p: Params = params("throttle", table)?;
    let sms: Vec<usize> = match p.sms {
        None => (0..cfg.sms as usize).collect(),
        Some(list) => {
            for (i, &s) in list.iter().enumerate() {
                check_range(&format!("hooks.throttle.sms[{i}]"), s, 0, cfg.sms - 1)?;
            }
            list.into_iter().map(|s| s as usize).collect()
        }
    };
    let [num, den] = p.clock.unwrap_or([1, 1]);
    check_range("hooks.throttle.clock[1]", den, 1, 1000)?;
    check_range("hooks.throttle.clock[0]", num, 1, den)?;
    let dispatch = p.dispatch.unwrap_or(true);
    if !dispatch && (0..cfg.sms as usize).all(|i| sms.contains(&i)) {
        return Err(FieldError::new("hooks.throttle.dispatch", "false on every SM leaves no SM for new CTAs", Some("true, or a subset of the SMs in hooks.throttle.sms".into())));
    }
    set.set_l2("throttle", Box::new(StaticThrottle { sms, throttle: SmThrottle { dispatch, clock_num: num, clock_den: den } }))
}
