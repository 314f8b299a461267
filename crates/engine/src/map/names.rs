//! Names of provinces and powers as the order reader looks them up: folded keys, suggestions.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ids::{PowerId, ProvinceId};

mod fold;

pub use fold::{ShortKey, name_key, push_name_key};

/// The text with its first letter in upper case ("bul" → "Bul").
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The second spelling of a German name without umlaut marks ("München" → "munchen").
fn plain_key(text: &str) -> Option<String> {
    if !text.chars().any(|c| matches!(c, 'ä' | 'ö' | 'ü' | 'Ä' | 'Ö' | 'Ü')) {
        return None;
    }
    let plain: String = text
        .chars()
        .map(|c| match c {
            'ä' | 'Ä' => 'a',
            'ö' | 'Ö' => 'o',
            'ü' | 'Ü' => 'u',
            other => other,
        })
        .collect();
    Some(name_key(&plain))
}

/// A quick hash of the short folded names the reader looks up for every word. The table holds
/// only the variant's own names, so no writer of orders chooses what collides.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl KeyHasher {
    fn mix(&mut self, word: u64) {
        const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(MIX);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes at a time, little-endian; the last ones padded with zeros.
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.mix(u64::from(byte));
    }

    fn write_u64(&mut self, word: u64) {
        self.mix(word);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// Tables keyed by folded names.
type KeyMap<V> = HashMap<String, V, BuildHasherDefault<KeyHasher>>;

/// What a folded key says of provinces.
#[derive(Clone, Debug, Default)]
struct ProvinceKey {
    /// The province it names, its name as written, and the most words a name folding to it has.
    named: Option<(ProvinceId, String, usize)>,
    /// The key of a name of several words starts with it (and is longer).
    longer: bool,
}

/// A folded key of at most eight bytes as one number (keys hold no zero byte, so no two
/// keys give the same number).
pub(crate) fn packed(key: &str) -> Option<u64> {
    let bytes = key.as_bytes();
    let mut word = [0; 8];
    word.get_mut(..bytes.len())?.copy_from_slice(bytes);
    Some(u64::from_le_bytes(word))
}

/// The key a number made by [`packed`] holds.
pub(crate) fn unpacked(number: u64) -> Option<String> {
    let bytes: Vec<u8> = number.to_le_bytes().into_iter().take_while(|&b| b != 0).collect();
    String::from_utf8(bytes).ok()
}

/// What [`NameIndex::province_step`] answers for one key.
type Step = (Option<(ProvinceId, usize)>, bool);

/// Every name of a variant, folded, pointing to the province or power it names.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    provinces: KeyMap<ProvinceKey>,
    /// The answers of `province_step` for the short keys (most words of an order), looked up
    /// as numbers.
    short_steps: HashMap<u64, Step, BuildHasherDefault<KeyHasher>>,
    powers: KeyMap<(PowerId, String)>,
    longest_province_name: usize,
}

/// Two things claim the same name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NameClash {
    pub key: String,
}

impl NameIndex {
    /// Adds a province name; a name already taken by another province is a clash.
    pub(crate) fn add_province(&mut self, name: &str, id: ProvinceId) -> Result<(), NameClash> {
        let keys = std::iter::once(name_key(name)).chain(plain_key(name));
        for key in keys {
            if key.is_empty() {
                continue;
            }
            let words = name
                .split(|c: char| c.is_whitespace() || c == '-')
                .filter(|w| !w.is_empty())
                .count();
            self.longest_province_name = self.longest_province_name.max(words);
            if words > 1 {
                for (end, _) in key.char_indices() {
                    self.provinces.entry(key[..end].to_string()).or_default().longer = true;
                    self.note_short_step(&key[..end]);
                }
            }
            let entry = self.provinces.entry(key.clone()).or_default();
            match &mut entry.named {
                Some((other, ..)) if *other != id => return Err(NameClash { key }),
                Some(named) => named.2 = named.2.max(words),
                None => entry.named = Some((id, name.to_string(), words)),
            }
            self.note_short_step(&key);
        }
        Ok(())
    }

    /// [`NameIndex::province_step`] for a key of up to eight bytes, packed as a number
    /// (little-endian, padded with zeros).
    pub(crate) fn short_province_step(&self, number: u64, words: usize) -> (Option<ProvinceId>, bool) {
        match self.short_steps.get(&number) {
            Some(&(named, longer)) => (named.filter(|e| e.1 >= words).map(|e| e.0), longer),
            None => (None, false),
        }
    }

    /// Every short key (packed as a number) with what [`NameIndex::province_step`] answers
    /// for it as the first word of a name.
    pub(crate) fn short_steps(&self) -> impl Iterator<Item = (u64, Step)> + '_ {
        self.short_steps.iter().map(|(&number, &step)| (number, step))
    }

    /// Copies what the table says of a short key into the table of short keys.
    fn note_short_step(&mut self, key: &str) {
        if let (Some(number), Some(entry)) = (packed(key), self.provinces.get(key)) {
            let named = entry.named.as_ref().map(|(id, _, words)| (*id, *words));
            self.short_steps.insert(number, (named, entry.longer));
        }
    }

    /// Adds a power name or adjective; a name already taken by another power is a clash.
    pub(crate) fn add_power(&mut self, name: &str, id: PowerId) -> Result<(), NameClash> {
        let keys = std::iter::once(name_key(name)).chain(plain_key(name));
        for key in keys {
            if key.is_empty() {
                continue;
            }
            match self.powers.get(&key) {
                Some(&(other, _)) if other != id => return Err(NameClash { key }),
                Some(_) => {}
                None => {
                    self.powers.insert(key, (id, name.to_string()));
                }
            }
        }
        Ok(())
    }

    /// The province with this folded name.
    pub fn province(&self, key: &str) -> Option<ProvinceId> {
        self.provinces.get(key)?.named.as_ref().map(|e| e.0)
    }

    /// The province with this folded name, if some name of it that folds so is written in at
    /// least `words` words: "Mid-Atlantic" may be two words, but "Swe-Den" must not read as Sweden.
    pub fn province_in_words(&self, key: &str, words: usize) -> Option<ProvinceId> {
        self.province_step(key, words).0
    }

    /// As [`NameIndex::province_in_words`], and whether the key of a longer name of several
    /// words starts with this one (if not, no more words can make a name of it).
    pub fn province_step(&self, key: &str, words: usize) -> (Option<ProvinceId>, bool) {
        if let Some(number) = packed(key) {
            return self.short_province_step(number, words);
        }
        match self.provinces.get(key) {
            Some(entry) => (entry.named.as_ref().filter(|e| e.2 >= words).map(|e| e.0), entry.longer),
            None => (None, false),
        }
    }

    /// The power with this folded name or adjective.
    pub fn power(&self, key: &str) -> Option<PowerId> {
        self.powers.get(key).map(|e| e.0)
    }

    /// The province name (as written in the variant) closest to a misspelt folded name, if one is
    /// close enough to suggest.
    pub fn suggest_province(&self, key: &str) -> Option<(&str, ProvinceId)> {
        suggest(
            self.provinces
                .iter()
                .filter_map(|(k, e)| e.named.as_ref().map(|(id, name, _)| (k.as_str(), name.as_str(), *id))),
            key,
        )
    }

    /// The power name (as written in the variant) closest to a misspelt folded name, if one is close
    /// enough to suggest.
    pub fn suggest_power(&self, key: &str) -> Option<(&str, PowerId)> {
        suggest(
            self.powers
                .iter()
                .map(|(k, (id, name))| (k.as_str(), name.as_str(), *id)),
            key,
        )
    }

    /// The largest number of words any province name has (bounds the reader's look-ahead).
    pub fn longest_province_name(&self) -> usize {
        self.longest_province_name.max(1)
    }
}

/// The candidate with the smallest edit distance, if that distance is small for the word's length;
/// ties are broken by the name itself so the answer never depends on hash order.
fn suggest<'a, T: Copy>(candidates: impl Iterator<Item = (&'a str, &'a str, T)>, key: &str) -> Option<(&'a str, T)> {
    // Nothing is suggested for very long words: no name is that long, and comparing costs time.
    if key.is_empty() || key.len() > 64 {
        return None;
    }
    let limit = match key.chars().count() {
        0..=3 => 1,
        4..=7 => 2,
        _ => 3,
    };
    candidates
        .filter(|(folded, _, _)| folded.len().abs_diff(key.len()) <= limit)
        .map(|(folded, name, value)| (strsim::damerau_levenshtein(key, folded), folded, name, value))
        .filter(|&(distance, ..)| distance <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, _, name, value)| (name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_fold_case_punctuation_and_umlauts() {
        assert_eq!(name_key("St. Petersburg"), "stpetersburg");
        assert_eq!(name_key("Mid-Atlantic Ocean"), "midatlanticocean");
        assert_eq!(name_key("München"), "muenchen");
        assert_eq!(name_key("Preußen"), "preussen");
        assert_eq!(plain_key("München").as_deref(), Some("munchen"));
        assert_eq!(plain_key("Munich"), None);
    }

    #[test]
    fn suggestions_pick_the_nearest_name_within_reach() {
        let mut index = NameIndex::default();
        index.add_province("Munich", ProvinceId(1)).expect("new name");
        index.add_province("Moscow", ProvinceId(2)).expect("new name");
        assert_eq!(index.suggest_province("munic").map(|s| s.1), Some(ProvinceId(1)));
        assert_eq!(index.suggest_province("zzzzzz"), None);
    }

    #[test]
    fn names_hash_apart() {
        let hash = |text: &str| {
            let mut h = KeyHasher::default();
            std::hash::Hash::hash(text, &mut h);
            h.finish()
        };
        assert_ne!(hash("par"), hash("bur"));
        assert_ne!(hash("midatlanticocean"), hash("midatlanticoceam"));
        assert_eq!(hash("kiel"), hash("kiel"));
    }

    #[test]
    fn keys_tell_whether_longer_names_start_with_them() {
        let mut index = NameIndex::default();
        index.add_province("North Sea", ProvinceId(1)).expect("new name");
        index.add_province("Nor", ProvinceId(2)).expect("new name");
        assert_eq!(index.province_step("nor", 1), (Some(ProvinceId(2)), true));
        assert_eq!(index.province_step("north", 2), (None, true));
        assert_eq!(index.province_step("northsea", 2), (Some(ProvinceId(1)), false));
        assert_eq!(index.province_step("northsea", 3), (None, false));
        assert_eq!(index.province_step("nth", 1), (None, false));
        assert_eq!(index.province("north"), None);
        assert_eq!(index.suggest_province("nort").map(|s| s.1), Some(ProvinceId(2)));
    }

    #[test]
    fn a_name_can_belong_to_only_one_province() {
        let mut index = NameIndex::default();
        index.add_province("Rome", ProvinceId(1)).expect("new name");
        assert!(index.add_province("rome", ProvinceId(2)).is_err());
        assert!(index.add_province("Rome", ProvinceId(1)).is_ok());
    }

    #[test]
    fn short_keys_are_answered_as_the_full_table_answers() {
        for name in crate::variant::builtin_names() {
            let variant = crate::variant::builtin(name).expect("built in").expect("loads");
            let names = variant.map.names();
            let mut short = 0;
            for (key, entry) in &names.provinces {
                for words in 1..4 {
                    let full = (entry.named.as_ref().filter(|e| e.2 >= words).map(|e| e.0), entry.longer);
                    assert_eq!(names.province_step(key, words), full, "{name}: {key} in {words} words");
                }
                short += usize::from(packed(key).is_some());
            }
            assert!(short * 3 > names.provinces.len(), "{name}: few short keys");
            assert_eq!(names.province_step("zzzz", 1), (None, false));
        }
    }
}
