//! splitmix64 exactly as corpus/LAUNCH_SPEC.md writes it.

/// corpus/LAUNCH_SPEC.md, "splitmix64 of x, in wrapping u64 arithmetic":
/// ```text
/// z = x * 0x9E3779B97F4A7C15
/// z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
/// z = (z ^ (z >> 27)) * 0x94D049BB133111EB
/// z = z ^ (z >> 31)
/// ```
/// Note the first step MULTIPLIES by the golden-ratio constant (the usual
/// splitmix64 adds it); the spec text is followed literally, so
/// `splitmix64(0) == 0`.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values computed independently with python3 from the spec's formula:
    /// python3 -c "
    /// M=(1<<64)-1
    /// def sm(x):
    ///     z=(x*0x9E3779B97F4A7C15)&M
    ///     z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M
    ///     z=((z^(z>>27))*0x94D049BB133111EB)&M
    ///     return z^(z>>31)
    /// for x in [0,1,2,3,0xffffffffffffffff,0x123456789abcdef0]: print(hex(x), hex(sm(x)))"
    #[test]
    fn matches_python_reference() {
        assert_eq!(splitmix64(0), 0);
        assert_eq!(splitmix64(1), 0xe220a8397b1dcdaf);
        assert_eq!(splitmix64(2), 0x6e789e6aa1b965f4);
        assert_eq!(splitmix64(3), 0x06c45d188009454f);
        assert_eq!(splitmix64(u64::MAX), 0x336503c6b835bec0);
        assert_eq!(splitmix64(0x123456789abcdef0), 0xf4901308ee3f1d75);
    }

    /// The common splitmix64 (which ADDS 0x9E3779B97F4A7C15 first) gives
    /// 0xe220a8397b1dcdaf for state 0; ours must not be that variant.
    #[test]
    fn is_not_the_additive_variant() {
        assert_ne!(splitmix64(0), 0xe220a8397b1dcdaf);
        assert_eq!(splitmix64(1), 0xe220a8397b1dcdaf);
    }
}
