//! The reference enumerator (seed 000's axioms, every `rf` and `co`
//! choice filtered by consistency) as an [`Explorer`]: exact and
//! exponential, the oracle DPOR is tested against.

use crate::explorer::{model_check, Coverage, ExploreError, Explorer, Limits, Observer, Summary};
use warpsafe_interp::Launch;
use warpsafe_ir::Kernel;

pub struct Reference;

impl Explorer for Reference {
    fn name(&self) -> &'static str {
        "reference"
    }

    fn describe(&self) -> &'static str {
        "reference enumerator (every rf and co choice; exact, exponential in the threads)"
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
            warpsafe_mc::reference::explore_with,
            kernel,
            launch,
            limits,
            observer,
        )
    }
}
