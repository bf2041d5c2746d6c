//! The order a learner sees a question's options in: a permutation derived from the learner's
//! seed (kept in `progress.json`) and the question, so it is the same on every launch but the
//! letter of the right answer carries no information. Grading maps back to the file's index.
//!
//! The hash and generator are written out here (FNV-1a, SplitMix64) rather than taken from std,
//! whose hashers may change between Rust releases and would reshuffle every learner's options.

use std::hash::{BuildHasher, Hasher};

/// A seed for a new learner, from the process's random hasher keys (no extra crate needed).
pub fn random_seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(super::now_ms());
    h.finish()
}

/// `order[position] = index into the file's choices` for a question with `n` options.
pub fn order(seed: u64, lesson_id: &str, question_id: &str, n: usize) -> Vec<usize> {
    let mut state =
        seed ^ fnv1a(lesson_id.as_bytes()).rotate_left(17) ^ fnv1a(question_id.as_bytes());
    let mut out: Vec<usize> = (0..n).collect();
    // Fisher-Yates, from the end.
    for i in (1..n).rev() {
        let bound = u64::try_from(i + 1).unwrap_or(u64::MAX);
        let j = usize::try_from(splitmix64(&mut state) % bound).unwrap_or(0);
        out.swap(i, j);
    }
    out
}

/// Where file index `index` is shown (its position in `order`).
pub fn position_of(order: &[usize], index: usize) -> Option<usize> {
    order.iter().position(|&i| i == index)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PINNED: [usize; 4] = [0, 3, 2, 1];

    #[test]
    fn an_order_is_a_permutation_and_stable() {
        for n in 0..9 {
            let mut o = order(42, "l", "q", n);
            assert_eq!(o, order(42, "l", "q", n), "same inputs, same order");
            o.sort_unstable();
            assert_eq!(o, (0..n).collect::<Vec<_>>());
        }
        // Pinned: a change here would reshuffle every learner's options.
        assert_eq!(order(1, "pageable-memory", "why-no-direct-dma", 4), PINNED);
    }

    #[test]
    fn every_position_is_equally_likely_over_seeds() {
        // For a 4-option question, each file index lands at each position ~1/4 of the time.
        let seeds = 4000u64;
        let mut counts = [[0u32; 4]; 4];
        for seed in 0..seeds {
            let o = order(seed.wrapping_mul(0x9e37_79b9), "lesson", "question", 4);
            for (pos, &idx) in o.iter().enumerate() {
                counts[idx][pos] += 1;
            }
        }
        for row in counts {
            for c in row {
                let share = f64::from(c) / seeds as f64;
                assert!((share - 0.25).abs() < 0.03, "{counts:?}");
            }
        }
    }

    #[test]
    fn random_seeds_differ() {
        assert_ne!(random_seed(), random_seed());
    }
}
