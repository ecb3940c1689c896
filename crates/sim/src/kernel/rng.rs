//! The one seeded random source of a simulation (SplitMix64). Everything random upstream —
//! backoff jitter, watch timeouts, resync jitter (semantics §9.3) — draws from here, so a seed
//! replays a run exactly.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in [0, 1), like Go's `rand.Float64()`.
    pub fn float64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let xs: Vec<f64> = (0..5).map(|_| a.float64()).collect();
        let ys: Vec<f64> = (0..5).map(|_| b.float64()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        assert_ne!(Rng::new(8).float64(), xs[0]);
    }
}
