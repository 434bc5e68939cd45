//! The DPOR model checker (seed 000 §4, GenMC's TruSt) as an
//! [`Explorer`]: every consistent execution under scoped RC11 once.

use crate::collect::Collector;
use crate::explorer::{model_check, Coverage, ExploreError, Explorer, Limits, Observer, Summary};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;

pub struct Dpor;

impl Explorer for Dpor {
    fn name(&self) -> &'static str {
        "dpor"
    }

    fn describe(&self) -> &'static str {
        "DPOR under scoped RC11 (each consistent execution once)"
    }

    fn coverage(&self) -> Coverage {
        Coverage::Exhaustive
    }

    fn explore(
        &self,
        kernel: &Kernel,
        launch: &Launch,
        limits: &Limits,
        observer: &mut dyn Observer,
    ) -> Result<Summary, ExploreError> {
        model_check(
            warpsafe_mc::dpor::explore_with,
            kernel,
            launch,
            limits,
            observer,
        )
    }

    fn explore_collecting(
        &self,
        kernel: &Kernel,
        launch: &Launch,
        limits: &Limits,
        collector: &mut Collector<'_>,
    ) -> Result<Summary, ExploreError> {
        let stats =
            warpsafe_mc::dpor::explore_forked(kernel, launch, &limits.model_checker(), collector)?;
        Ok(Summary::Executions(stats))
    }
}
