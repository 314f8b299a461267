//! Helpers shared by the unit tests of several modules.

/// The standard variant, built in.
pub(crate) fn standard() -> crate::Variant {
    crate::variant::builtin("standard")
        .expect("standard is built in")
        .expect("standard loads")
}

/// A small deterministic random source (xorshift) for tests that compare two ways on many
/// random inputs.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A number below `n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    /// One of `from`, which must not be empty.
    pub(crate) fn pick<'a, T: AsRef<str>>(&mut self, from: &'a [T]) -> &'a str {
        from[self.below(from.len())].as_ref()
    }
}
