//! Random numbers: the platform's random bytes (WASI's `random_get`;
//! `/dev/urandom` on the host), and [`Rng`], a small generator seeded from
//! them or from a number, for draws that must come out the same again (a
//! quiz's `seed` argument, a test). std has neither without a crate
//! (`rand`, `getrandom`); a module that draws nothing carries none of this.
//!
//! [`Rng`] is SplitMix64: fast, a few dozen bytes, and good enough to pick
//! cards or sample lines. It is not for secrets: use [`fill`]'s bytes for
//! a token.
//!
//! ```
//! use subako_tiny::random::Rng;
//!
//! let mut cards = ["猫", "犬", "鳥", "魚", "馬"];
//! let mut rng = Rng::seeded(7);
//! rng.shuffle(&mut cards);
//! // The same seed, the same order, on every target and run.
//! let mut again = ["猫", "犬", "鳥", "魚", "馬"];
//! Rng::seeded(7).shuffle(&mut again);
//! assert_eq!(cards, again);
//!
//! // A draw the platform seeds: different on each call of the tool.
//! let die = Rng::from_platform()?.below(6) + 1;
//! assert!((1..=6).contains(&die));
//! # Ok::<(), subako_tiny::ToolError>(())
//! ```

use crate::ToolError;

/// Fills `buf` with the platform's random bytes.
///
/// # Errors
/// When the platform gives none (its errno in the message).
///
/// ```
/// let mut token = [0u8; 16];
/// subako_tiny::random::fill(&mut token)?;
/// assert_ne!(token, [0; 16]);
/// # Ok::<(), subako_tiny::ToolError>(())
/// ```
pub fn fill(buf: &mut [u8]) -> Result<(), ToolError> {
    crate::sys::random_bytes(buf).map_err(|errno| {
        ToolError::new(crate::text!(
            "the platform gave no random bytes (",
            crate::sys::RANDOM_SOURCE,
            ": errno ",
            errno,
            ")"
        ))
    })
}

/// A generator of random numbers (SplitMix64): the same seed gives the
/// same numbers, on every target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// The generator whose numbers `seed` decides.
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// assert_eq!(Rng::seeded(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    #[must_use]
    pub const fn seeded(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded with eight of the platform's random bytes.
    ///
    /// # Errors
    /// As [`fill`].
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// let (mut a, mut b) = (Rng::from_platform()?, Rng::from_platform()?);
    /// assert_ne!(a.next_u64(), b.next_u64());
    /// # Ok::<(), subako_tiny::ToolError>(())
    /// ```
    pub fn from_platform() -> Result<Rng, ToolError> {
        let mut seed = [0; 8];
        fill(&mut seed)?;
        Ok(Rng(u64::from_le_bytes(seed)))
    }

    /// The next number, any of the 2⁶⁴.
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// let mut rng = Rng::seeded(0);
    /// assert_eq!([rng.next_u64(), rng.next_u64()], [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4]);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 to `n - 1`, each as likely (0 when `n` is 0): the
    /// draws that would favour the low numbers are drawn again.
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// let mut rng = Rng::seeded(42);
    /// let rolls: Vec<u64> = (0..1000).map(|_| rng.below(6)).collect();
    /// assert!(rolls.iter().all(|&r| r < 6));
    /// assert!((0..6).all(|face| rolls.contains(&face)));
    /// ```
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // The numbers from `u64::MAX - u64::MAX % n` (2⁶⁴ mod n of them,
        // fewer than one draw in 2⁶⁴⁄n) would make the low answers likelier.
        let top = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= top {
                return x % n;
            }
        }
    }

    /// A float from 0 (inclusive) to 1 (exclusive), on a grid of 2⁻⁵³.
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// let x = Rng::seeded(1).float();
    /// assert!((0.0..1.0).contains(&x));
    /// ```
    pub fn float(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Puts `items` in a random order, every order as likely
    /// (Fisher–Yates). To draw `k` of them, shuffle and take the first `k`.
    ///
    /// ```
    /// use subako_tiny::random::Rng;
    ///
    /// let mut deck: Vec<u32> = (1..=52).collect();
    /// Rng::seeded(3).shuffle(&mut deck);
    /// let hand = &deck[..5];
    /// assert_eq!(hand.len(), 5);
    /// deck.sort_unstable();
    /// assert_eq!(deck, (1..=52).collect::<Vec<_>>());
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            if j < i && i < items.len() {
                items.swap(i, j);
            }
        }
    }
}
