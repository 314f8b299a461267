//! The railroad rule: one army a phase rides its power's railroad and stops at the first supply
//! centre on the way that its power does not own. The resolver decides the ride; this module
//! tells it to read centre ownership.

use super::{MovementPhase, MovementSetup, RuleModule, RuleName};

/// See the module's description.
pub(super) struct Railroad;

impl RuleModule for Railroad {
    fn name(&self) -> RuleName {
        RuleName::Railroad
    }

    fn movement_setup(&self, _phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        setup.railroad_owners = true;
    }
}
