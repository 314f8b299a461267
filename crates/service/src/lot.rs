//! Assigning powers from the players' preference lists (seed 000 §1: equal wishes are decided by
//! lot). The lot is a seeded, documented generator, so anyone can re-check an assignment from the
//! published seed: players are put in the order of the lot, then each takes the first power of
//! their list still free; players whose list is used up get the free powers in the order of the
//! lot.

/// SplitMix64: the lot's generator (public algorithm, stable across versions).
struct Lot(u64);

impl Lot {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The powers of `players` (each with a preference list of power keys), in the players' order.
/// `powers` are the variant's powers; there must be at most as many players as powers.
pub fn assign(seed: u64, players: &[Vec<String>], powers: &[String]) -> Vec<String> {
    let mut lot = Lot(seed);
    // A Fisher–Yates shuffle of the players by the lot.
    let mut order: Vec<usize> = (0..players.len()).collect();
    for i in (1..order.len()).rev() {
        let j = (lot.next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    let mut free: Vec<String> = powers.to_vec();
    let mut result = vec![String::new(); players.len()];
    let mut unplaced = Vec::new();
    for &p in &order {
        match players[p]
            .iter()
            .find(|want| free.iter().any(|f| f.eq_ignore_ascii_case(want)))
        {
            Some(want) => {
                let k = free.iter().position(|f| f.eq_ignore_ascii_case(want)).unwrap_or(0);
                result[p] = free.remove(k);
            }
            None => unplaced.push(p),
        }
    }
    for p in unplaced {
        if !free.is_empty() {
            result[p] = free.remove(0);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn powers() -> Vec<String> {
        ["AUSTRIA", "ENGLAND", "FRANCE"].map(String::from).to_vec()
    }

    #[test]
    fn different_wishes_are_all_granted() {
        let players = vec![vec!["FRANCE".to_string()], vec!["ENGLAND".to_string()], vec![]];
        assert_eq!(assign(7, &players, &powers()), ["FRANCE", "ENGLAND", "AUSTRIA"]);
    }

    #[test]
    fn equal_wishes_are_decided_by_the_lot_reproducibly() {
        let players = vec![vec!["FRANCE".to_string()], vec!["FRANCE".to_string()]];
        let winners: std::collections::BTreeSet<usize> = (0..64)
            .map(|seed| {
                assign(seed, &players, &powers())
                    .iter()
                    .position(|p| p == "FRANCE")
                    .unwrap_or(9)
            })
            .collect();
        assert_eq!(winners.len(), 2, "either player can win the lot");
        assert_eq!(assign(42, &players, &powers()), assign(42, &players, &powers()));
    }
}
