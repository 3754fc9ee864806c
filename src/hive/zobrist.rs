//! Zobrist keys, generated at compile time from a fixed seed.
//!
//! Keys are indexed by piece kind (colour × bug, 16 kinds) and cell, so two
//! pieces of the same kind are interchangeable: a position where `wS1` and
//! `wS2` have swapped cells hashes the same, as the rules see it the same.
//! A piece at stack level `l > 0` uses the ground key rotated by `8·l` and
//! mixed with a per-level key; only Beetles and Mosquitoes ever climb.
//!
//! The generator is SplitMix64 with a fixed seed, so hashes (and with them the
//! bench node count) are identical on every machine and every run. Changing the
//! seed or the layout changes every hash: do it on purpose and say so in the
//! commit.

use super::hex::CELLS;

const SEED: u64 = 0x5741_4747_4c45_2026; // "WAGGLE" 2026

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Number of piece kinds (colour × bug).
pub const KINDS: usize = 16;

struct Keys {
    piece: [[u64; CELLS]; KINDS],
    level: [u64; 8],
    side: u64,
    last_moved: [u64; 28],
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        piece: [[0; CELLS]; KINDS],
        level: [0; 8],
        side: 0,
        last_moved: [0; 28],
    };
    let mut state = SEED;
    let mut k = 0;
    while k < KINDS {
        let mut c = 0;
        while c < CELLS {
            let (s, v) = splitmix(state);
            state = s;
            keys.piece[k][c] = v;
            c += 1;
        }
        k += 1;
    }
    let mut l = 0;
    while l < 8 {
        let (s, v) = splitmix(state);
        state = s;
        keys.level[l] = v;
        l += 1;
    }
    let (s, v) = splitmix(state);
    state = s;
    keys.side = v;
    let mut p = 0;
    while p < 28 {
        let (s, v) = splitmix(state);
        state = s;
        keys.last_moved[p] = v;
        p += 1;
    }
    keys
}

static KEYS: Keys = make_keys();

/// Key of a piece of kind `kind` at cell index `cell` and stack level `level`
/// (0 = on the ground).
#[inline(always)]
pub fn piece_key(kind: usize, cell: usize, level: usize) -> u64 {
    let k = KEYS.piece[kind][cell];
    if level == 0 {
        k
    } else {
        k.rotate_left(8 * level as u32) ^ KEYS.level[level & 7]
    }
}

/// Key toggled on every ply: set when Black is to move.
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}

/// Key of "this piece moved last" (used only in games with the Pillbug, where
/// it changes the legal moves).
#[inline(always)]
pub fn last_moved_key(piece: usize) -> u64 {
    KEYS.last_moved[piece]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = Vec::new();
        for k in 0..KINDS {
            for c in 0..CELLS {
                for l in 0..7 {
                    all.push(piece_key(k, c, l));
                }
            }
        }
        all.push(side_key());
        all.extend((0..28).map(last_moved_key));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    #[test]
    fn keys_are_stable() {
        // Golden values: a change here changes every hash and the bench.
        assert_eq!(piece_key(0, 0, 0), KEYS.piece[0][0]);
        assert_ne!(piece_key(0, 0, 0), 0);
        let again = make_keys();
        assert_eq!(again.piece[15][1023], KEYS.piece[15][1023]);
        assert_eq!(again.side, side_key());
    }
}
