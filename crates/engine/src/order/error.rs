//! Why an order line could not be read or is not a legal order.

/// A rejected order: what is wrong, where in the line, and a suggestion when a name was misspelt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} (at byte {position})")]
pub struct OrderError {
    /// What is wrong.
    pub kind: OrderErrorKind,
    /// Byte offset of the offending word in the line.
    pub position: usize,
    /// A name the writer probably meant ("did you mean …").
    pub suggestion: Option<String>,
}

impl OrderError {
    pub(crate) fn new(kind: OrderErrorKind, position: usize) -> Self {
        OrderError {
            kind,
            position,
            suggestion: None,
        }
    }

    pub(crate) fn with_suggestion(mut self, suggestion: Option<String>) -> Self {
        self.suggestion = suggestion;
        self
    }
}

/// The reasons an order is rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderErrorKind {
    /// Nothing to read.
    #[error("empty order")]
    Empty,
    /// A character no order contains.
    #[error("unexpected character `{0}`")]
    UnexpectedCharacter(char),
    /// A word that names no province of the map.
    #[error("unknown province `{0}`")]
    UnknownProvince(String),
    /// A word before `:` that names no power.
    #[error("unknown power `{0}`")]
    UnknownPower(String),
    /// Something else than what the grammar needs here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What would fit.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// Words after a complete order.
    #[error("unexpected `{0}` after the order")]
    TrailingText(String),
    /// A coast word that is not a coast, or a coast the province does not have.
    #[error("`{0}` has no such coast")]
    UnknownCoast(String),
    /// No unit type given and none can be told from the map or position.
    #[error("say whether the unit in {0} is an army (A) or a fleet (F)")]
    MissingUnitType(String),
    /// A fleet on a split-coast province without the coast, where the position does not tell it.
    #[error("name the coast of {0} (e.g. {0}/nc)")]
    CoastNeeded(String),
    /// A unit type that cannot stand in that place.
    #[error("{unit} cannot be in {place}")]
    ImpossibleUnit {
        /// "an army" / "a fleet".
        unit: &'static str,
        /// The place.
        place: String,
    },
    /// A move to the province the unit is in.
    #[error("{0} cannot move to its own province")]
    MoveToOwnProvince(String),
    /// A destination the unit cannot reach (not adjacent, no convoy route).
    #[error("{unit} cannot reach {to}")]
    Unreachable {
        /// The unit as written.
        unit: String,
        /// The destination.
        to: String,
    },
    /// A fleet move into a split-coast province where several coasts are reachable and none was named.
    #[error("{unit} can reach more than one coast of {to}: name the coast")]
    AmbiguousCoast {
        /// The unit.
        unit: String,
        /// The province.
        to: String,
    },
    /// A named coast the fleet cannot reach.
    #[error("{unit} cannot reach {to}, but another coast of that province")]
    WrongCoast {
        /// The unit.
        unit: String,
        /// The coast named.
        to: String,
    },
    /// Only armies go by convoy.
    #[error("only armies can be convoyed")]
    FleetConvoyed,
    /// Only fleets at sea (or in a port the variant names) convoy.
    #[error("{0} cannot convoy: only fleets at sea convoy")]
    CannotConvoy(String),
    /// No chain of seas joins the two provinces.
    #[error("no convoy route can join {from} and {to}")]
    NoConvoyRoute {
        /// Origin.
        from: String,
        /// Destination.
        to: String,
    },
    /// A support into a province the supporter could not move to.
    #[error("{unit} cannot support into {to}: it could not move there itself")]
    CannotSupport {
        /// The supporter.
        unit: String,
        /// The province.
        to: String,
    },
    /// A unit supporting itself, or a move into its own province.
    #[error("{0} cannot support itself")]
    SupportSelf(String),
    /// A support of a move that the supported unit could never make.
    #[error("{unit} could never move to {to}, so this support is void")]
    ImpossibleSupportedMove {
        /// The supported unit.
        unit: String,
        /// Its destination.
        to: String,
    },
    /// No unit stands there.
    #[error("there is no unit in {0}")]
    NoUnit(String),
    /// The unit there is of the other type.
    #[error("the unit in {place} is {actual}, not {given}")]
    WrongUnitType {
        /// The place.
        place: String,
        /// What is there.
        actual: &'static str,
        /// What the order says.
        given: &'static str,
    },
    /// The unit belongs to another power.
    #[error("the unit in {place} belongs to {owner}, not {power}")]
    NotYourUnit {
        /// The place.
        place: String,
        /// Its owner.
        owner: String,
        /// The power that ordered it.
        power: String,
    },
    /// An order of a kind this phase does not take.
    #[error("{order} orders are not taken in the {phase} phase")]
    WrongPhase {
        /// The kind of order.
        order: &'static str,
        /// The kind of phase.
        phase: &'static str,
    },
    /// A retreat for a unit that was not dislodged.
    #[error("the unit in {0} was not dislodged")]
    NotDislodged(String),
    /// A retreat to a place the unit may not go.
    #[error("{unit} cannot retreat to {to}")]
    BadRetreat {
        /// The unit.
        unit: String,
        /// The destination.
        to: String,
    },
    /// A build outside the power's home centres or on a non-centre.
    #[error("cannot build in {place}: {reason}")]
    BadBuild {
        /// The place.
        place: String,
        /// Why not.
        reason: &'static str,
    },
    /// A condition on an advance retreat order other than the power that dislodges the unit.
    #[error("a retreat condition may only name the power that dislodges the unit (not other units' retreats): `{0}`")]
    ConditionNotAllowed(String),
    /// A word in a power-wide retreat rule that is not a rule.
    #[error("unknown retreat rule `{0}`: use supply centres, home centres, alphabetical or disband")]
    UnknownRetreatRule(String),
    /// A canal permission given by a unit that holds no canal.
    #[error("only the unit holding a canal province can permit a passage (not in {0})")]
    NotACanal(String),
    /// A canal permission for a move that does not pass that canal.
    #[error("{unit} to {to} does not pass through this canal")]
    NotThroughCanal {
        /// The fleet.
        unit: String,
        /// Its destination.
        to: String,
    },
    /// A railroad move between provinces that no railroad joins.
    #[error("no railroad joins {unit} and {to}")]
    NotOnRailroad {
        /// The army.
        unit: String,
        /// Its destination.
        to: String,
    },
    /// A railroad move by a unit that may not ride it (a fleet, or another power's army).
    #[error("{0} may not ride this railroad: only the armies of its power")]
    RailroadNotYours(String),
    /// Orders under a heading for a phase already played.
    #[error("the phase {0} is over")]
    PhaseOver(String),
    /// Orders under a heading for a phase the variant's calendar never has.
    #[error("there is no phase {0} in this variant")]
    NoSuchPhase(String),
    /// An order for another power's units in a power's own orders.
    #[error("{sender} cannot give orders for {power}")]
    NotYourOrder {
        /// The power sending the orders.
        sender: String,
        /// The power the order is for.
        power: String,
    },
    /// An order for a country the sender may never control (Hegemony 1.1.7): not given.
    #[error("{sender} can never control {country}: the order is not given (rule 1.1.7)")]
    NeverControls {
        /// The player.
        sender: String,
        /// The country.
        country: String,
    },
    /// A condition on a winter's steps (`blocked`, `supplied`) outside a winter with steps
    /// (Hegemony 4.4).
    #[error("`blocked` and `supplied` name a winter's steps: they are taken in winters of Hegemony (4.4)")]
    NoConditionsHere,
    /// A conditional order read without a position to decide it on.
    #[error("a conditional order is read against the game's position (give the state)")]
    ConditionNeedsPosition,
    /// A condition on orders rather than results.
    #[error("a condition names results, never orders: another player's orders are secret until they are carried out")]
    ConditionOnOrders,
    /// A condition on the results of the order's own phase or a later one.
    #[error("a condition names the result of an earlier phase; {0} is not over before this order is carried out")]
    ConditionOnLaterPhase(String),
    /// A condition on results no longer kept (older than the last game year) or of a winter.
    #[error("the results of {0} are not kept (conditions name the moves and retreats of the last game year)")]
    ResultsNotKept(String),
    /// A condition on the last movement phase where none was played yet.
    #[error("no movement phase was played before this one: there is no result to name")]
    NoEarlierResults,
    /// A condition `owned by` on a place that is no supply centre.
    #[error("{0} is no supply centre")]
    NotACentre(String),
    /// A conditional line with an order for another country than the sender's (or two).
    #[error("a conditional order is for one's own country only, not for {0}")]
    ConditionalForOther(String),
    /// A condition `<sea> blocked` for a place that is no overseas centre.
    #[error("{0} is no overseas centre")]
    NoOverseasCentre(String),
    /// A conditional order whose conditions did not hold and that has no `ELSE` order.
    #[error("not carried out: its condition did not hold")]
    ConditionNotMet,
    /// A declaration of friendship towards the declaring country itself.
    #[error("{0} cannot declare itself friendly towards itself")]
    FriendlyToItself(String),
    /// A retreat in advance for a country other than the sender's own (a neutral he controls).
    #[error("retreats of {0} are ordered in its retreat phase, not in advance")]
    AdvanceRetreatForOther(String),
    /// An order for a neutral country under joint control that was not carried out as its
    /// order, told to its sender alone (Hegemony 1.1.4).
    #[error("not carried out: no set of orders for {0} had more than half of the influence there (rule 1.1.4)")]
    JointOrdersNotCarried(String),
    /// An order for a neutral country under joint control that was carried out as its order,
    /// published under the country's name only (Hegemony 1.1.4.7).
    #[error("carried out as {0}'s order")]
    JointOrdersCarried(String),
    /// A waive or build without a power to give it.
    #[error("say which power gives this order (e.g. `France: …`)")]
    PowerNeeded,
    /// A leader's order where no leader of the ordering power stands.
    #[error("no leader of this power stands in {0}")]
    NoLeader(String),
    /// A leader told to lead a unit he may not lead (Hegemony 3.1.7: the order is void for both).
    #[error("{leader} leads {leads} only")]
    CannotLead {
        /// The leader's name.
        leader: String,
        /// `armies` or `fleets`.
        leads: &'static str,
    },
    /// A leader alone given an order only units can carry out (3.1.4.2: no support, no convoy).
    #[error("a leader alone cannot {0}")]
    LeaderCannot(&'static str),
    /// A garrison at home given an order other than hold (Hegemony 5.1.4.2).
    #[error("the garrison in {0} may only hold")]
    GarrisonHoldsOnly(String),
    /// Political factors from a country that has none (a neutral), or none at all.
    #[error("{0} has no political factors to give")]
    NoPoliticalFactors(String),
    /// Political factors for a country no one can activate (research D-21: a `0` country).
    #[error("{0} cannot be activated: political factors cannot be given to it")]
    CannotActivate(String),
    /// A choice where the power has none open (Hegemony 5.1.7: the scenario's first phase only).
    #[error("this power has no choice to make (choices are made in the scenario's first phase)")]
    NoChoiceOpen,
    /// A choice naming a piece none of the power's options holds.
    #[error("{0} is none of the pieces this power may choose")]
    NotAnOption(String),
    /// A move, retreat or support into a province that is shut in this position (Hegemony
    /// 5.1.5: Switzerland without the passage).
    #[error("{0} is impassable: no passage is open there")]
    Shut(String),
    /// A leader's move into a sea without a fleet of his country there (3.1.2.4).
    #[error("a leader can enter {0} only onto a fleet of his country that stays there")]
    LeaderAtSea(String),
}
