//! The canal rule: a fleet passes through a canal province between two waters only with the
//! leave of the unit holding it (an `SC` order names the passage; without one, a unit lets the
//! one fleet of its own power pass). The resolver decides the passages; this module hands it
//! the permissions given by the orders carried out.

use super::{MovementPhase, MovementSetup, RuleModule, RuleName};

/// See the module's description.
pub(super) struct Canal;

impl RuleModule for Canal {
    fn name(&self) -> RuleName {
        RuleName::Canal
    }

    /// The permissions of the orders carried out: a replaced order's permission is gone.
    fn movement_setup(&self, phase: &MovementPhase<'_>, setup: &mut MovementSetup) {
        let lines = phase.lines.iter().zip(phase.carried);
        setup.permissions.extend(
            lines
                .filter(|&(_, &carried)| carried)
                .filter_map(|(line, _)| line.permission),
        );
    }
}
