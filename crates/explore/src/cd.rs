//! Conflict-directed delay bounding (seed 003, GKLEE's CD) as an
//! [`Explorer`]: the canonical schedule at the launch's real size, then
//! the schedules with up to `K` delays where atomics conflicted, under
//! sequential consistency. Bounded: a clean search is no proof.

use crate::explorer::{Coverage, ExploreError, Explorer, Limits, Observer, Run, Summary};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;
use warpsafe_sched::{search, Launched, RunConfig, SearchConfig};

pub struct DelayBounded;

/// What the engine line says.
pub const DESCRIPTION: &str = "schedule explorer: the canonical schedule (block by block, thread by thread to each barrier) and, where atomics conflict, schedules with delays, under sequential consistency (seed 003)";

impl Explorer for DelayBounded {
    fn name(&self) -> &'static str {
        "cd"
    }

    fn describe(&self) -> &'static str {
        DESCRIPTION
    }

    fn coverage(&self) -> Coverage {
        Coverage::Bounded
    }

    fn explore(
        &self,
        kernel: &Kernel,
        launch: &Launch,
        limits: &Limits,
        observer: &mut dyn Observer,
    ) -> Result<Summary, ExploreError> {
        let config = RunConfig {
            max_steps: limits.max_steps,
            max_threads: limits.max_threads as u64,
            deadline: limits.deadline,
            ..RunConfig::default()
        };
        let launched = Launched::new(kernel, launch, config)?;
        let search_config = SearchConfig {
            delays: limits.delays,
            max_schedules: limits.max_runs.max(1),
            deadline: limits.deadline,
        };
        let searched = search(&launched, &search_config, &mut |run| match observer
            .run(Run::Schedule(run))
        {
            warpsafe_mc::Flow::Continue => warpsafe_sched::Flow::Continue,
            warpsafe_mc::Flow::Stop => warpsafe_sched::Flow::Stop,
        })?;
        Ok(Summary::Schedules(searched))
    }
}
