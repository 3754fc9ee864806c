//! The transposition table, shared by all search threads.
//!
//! # Layout
//!
//! The table is a power-of-two-free array of clusters; a position's cluster is
//! `(hash · clusters) >> 64` (Lemire's multiply-shift, so any size works). A
//! cluster holds [`CLUSTER`] entries of 16 bytes, one 64-byte cache line (the
//! clusters start up to three entries into the allocation, at a line):
//!
//! ```text
//! Entry = { check: u64, data: u64 },   check = hash ^ data
//!
//! data bit  63      58 57  56 55       48 47              32 31  27 26            0
//!          +----------+------+-----------+------------------+------+---------------+
//!          | age (6)  |bound |  depth u8 |   score i16      | 0    | move (27)     |
//!          +----------+------+-----------+------------------+------+---------------+
//!
//! move bit  26 25 24     20 19        10 9          0
//!          +-----+---------+------------+------------+
//!          |kind | piece(5)|  from (10) |   to (10)  |   kind: 0 none, 1 place,
//!          +-----+---------+------------+------------+         2 move, 3 pass
//! ```
//!
//! `bound` is 1 for an upper bound, 2 for a lower bound, 3 for an exact score
//! (0 marks an empty entry). Mate scores are stored relative to the node
//! (distance from the node, not the root) and converted back on probe.
//!
//! # Races
//!
//! Threads read and write entries with relaxed atomic loads and stores and no
//! locks, on purpose (Hyatt and Mann's "lockless transposition table"): two
//! threads may write the same entry at once and leave a `check` from one and
//! a `data` from the other. Storing `hash ^ data` instead of the hash makes
//! such a torn entry fail the key test on the next probe, so it reads as a
//! miss. A wrong-but-consistent entry can still appear on a 64-bit key
//! collision; the search therefore uses a stored move only after finding it in
//! the freshly generated legal moves, and a bad score costs accuracy, never
//! legality.
//!
//! # Replacement
//!
//! A store goes to the entry of the same position if the cluster has one,
//! else to the entry with the lowest `depth - 4 · age distance`, so deep
//! results of the current search survive and old searches make room.

use super::Score;
use crate::hive::{Hex, Move, Piece};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per cluster.
pub const CLUSTER: usize = 4;

/// A cache line: one cluster's bytes.
const LINE: usize = 16 * CLUSTER;

/// How a stored score bounds the true score.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Bound {
    /// The true score is at most the stored score (fail low).
    Upper = 1,
    /// The true score is at least the stored score (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

impl Bound {
    /// The bound a search result `best` carries for the window it was
    /// searched with (`alpha` as it was on entry, `beta`).
    #[inline(always)]
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// What a probe finds.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct TtHit {
    /// The best (or refuting) move, not yet checked for legality.
    pub mv: Option<Move>,
    /// Score relative to the probing node (mate distances already adjusted).
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// One table slot: 16 bytes, two relaxed atomics.
#[derive(Default, Debug)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 16);

/// Encodes a move into the 27 low bits of an entry (0 = no move).
pub fn encode_move(mv: Option<Move>) -> u32 {
    match mv {
        None => 0,
        Some(Move::Pass) => 3 << 25,
        Some(Move::Place { piece, to }) => {
            (1 << 25) | ((piece.index() as u32) << 20) | to.index() as u32
        }
        Some(Move::Move { piece, from, to }) => {
            (2 << 25)
                | ((piece.index() as u32) << 20)
                | ((from.index() as u32) << 10)
                | to.index() as u32
        }
    }
}

/// Decodes [`encode_move`]'s bits; `None` for "no move" or garbage.
pub fn decode_move(bits: u32) -> Option<Move> {
    let piece = || Piece::from_index(((bits >> 20) & 31) as usize);
    let from = || Hex::new(((bits >> 10) & 1023) as u16);
    let to = || Hex::new((bits & 1023) as u16);
    match (bits >> 25) & 3 {
        1 => Some(Move::Place {
            piece: piece()?,
            to: to()?,
        }),
        2 => Some(Move::Move {
            piece: piece()?,
            from: from()?,
            to: to()?,
        }),
        3 => Some(Move::Pass),
        _ => None,
    }
}

fn pack(mv: Option<Move>, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    u64::from(encode_move(mv))
        | (u64::from(score as u16) << 32)
        | (u64::from(depth.clamp(0, 255) as u8) << 48)
        | ((bound as u64) << 56)
        | (u64::from(age & 63) << 58)
}

fn unpack(data: u64) -> Option<(Option<Move>, Score, i32, Bound, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = decode_move(data as u32 & ((1 << 27) - 1));
    let score = i32::from((data >> 32) as u16 as i16);
    let depth = i32::from((data >> 48) as u8);
    let age = ((data >> 58) & 63) as u8;
    Some((mv, score, depth, bound, age))
}

/// Mate scores count plies from the root in the search but from the node in
/// the table.
fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= super::MATE_BOUND {
        score + ply as Score
    } else if score <= -super::MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= super::MATE_BOUND {
        score - ply as Score
    } else if score <= -super::MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// The shared transposition table.
#[derive(Debug, Default)]
pub struct Tt {
    entries: Vec<Entry>,
    /// Entries before the first cluster, so that each cluster fills one
    /// 64-byte cache line: the allocation is only 16-byte aligned (glibc
    /// returned addresses 16 bytes past a line), and a cluster that
    /// straddles two lines costs a probe two cache misses.
    offset: usize,
    clusters: u64,
    age: u8,
    /// The size asked for, which may be more than the machine could give.
    requested_mb: usize,
}

/// Asks Linux to back the table's allocation with 2 MiB pages where it
/// can (transparent huge pages), before the entries are first written.
///
/// A probe lands on a random cache line of the table, so with 4 KiB pages
/// nearly every probe also misses the TLB: 64 MiB are 16,384 pages, far more
/// than the TLB holds, and 32 huge pages. It gained 4% nodes per second
/// (`waggle --threads 1 bench --movetime 1`, the default 64 MiB table, three
/// runs alternating with the build without it: +4.3%, +5.4%, +3.5%). Only
/// the 2 MiB-aligned part of the allocation is advised; where the system
/// has huge pages off, or gives none, nothing changes.
fn huge_pages(entries: &Vec<Entry>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = entries.as_ptr() as usize;
        let end = start + entries.capacity() * std::mem::size_of::<Entry>();
        let first = start.next_multiple_of(HUGE_PAGE);
        let len = end.saturating_sub(first) / HUGE_PAGE * HUGE_PAGE;
        if len > 0 {
            // SAFETY: `first..first + len` lies inside the vector's own
            // allocation and starts on a page boundary, as madvise needs.
            // MADV_HUGEPAGE changes only how the kernel backs those pages,
            // never their contents or who may use them, so no Rust
            // reference is affected. A failure (huge pages off) is ignored:
            // the table works the same on small pages.
            #[allow(unsafe_code)]
            unsafe {
                libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = entries;
}

/// Total memory of this machine in MiB, where the system tells it.
fn memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

impl Tt {
    /// A table of at most `mb` MiB (at least one cluster).
    ///
    /// The size is capped at half the machine's memory where the system says
    /// how much there is (Linux), and halved until the allocation succeeds:
    /// an option value too large for the machine costs table size, never the
    /// engine process.
    pub fn new(mb: usize) -> Tt {
        let mut tt = Tt::default();
        tt.resize(mb);
        tt
    }

    /// Makes this an empty table of at most `mb` MiB, capped and halved like
    /// [`Tt::new`].
    ///
    /// The table's own allocation is grown or shrunk in place (`realloc`)
    /// rather than freed and made anew. With glibc this keeps the table in
    /// its own memory mapping: freeing a mapped block raises glibc's mmap
    /// threshold to that block's size, so a new, smaller table would be
    /// carved from the heap instead, and after a few size changes freed
    /// tables stay resident as holes in the heap (the engine's memory grew
    /// by 8 MiB after `HashMB` went 16, 8, 16, 4, 16).
    pub fn resize(&mut self, mb: usize) {
        self.requested_mb = mb;
        let mut mb = mb
            .max(1)
            .min(memory_mb().map_or(usize::MAX, |m| (m / 2).max(1)));
        self.entries.clear();
        let clusters = loop {
            let clusters = (mb * 1024 * 1024 / (16 * CLUSTER)).max(1);
            let len = clusters * CLUSTER + CLUSTER - 1;
            if len <= self.entries.capacity() {
                self.entries.shrink_to(len);
                break clusters;
            }
            if self.entries.try_reserve_exact(len).is_ok() || mb == 1 {
                break clusters;
            }
            mb /= 2;
        };
        huge_pages(&self.entries);
        // Filled by rayon's threads, into the capacity reserved above: the
        // first write to each page is what costs (2 GiB: about 220 ms
        // instead of 335 ms on two cores).
        self.entries.par_extend(
            (0..clusters * CLUSTER + CLUSTER - 1)
                .into_par_iter()
                .map(|_| Entry::default()),
        );
        self.offset = (LINE - self.entries.as_ptr() as usize % LINE) % LINE / 16;
        self.clusters = clusters as u64;
        self.age = 0;
    }

    /// Size in MiB (rounded down to whole clusters; less than requested
    /// when the machine could not give that much).
    pub fn size_mb(&self) -> usize {
        self.entries.len() * 16 / (1024 * 1024)
    }

    /// The size in MiB this table was made for.
    pub fn requested_mb(&self) -> usize {
        self.requested_mb
    }

    /// Empties the table, in `threads` shares that rayon's threads zero
    /// side by side, so that `newgame` waits less for a large table.
    pub fn clear_with(&mut self, threads: usize) {
        let share = self.entries.len().div_ceil(threads.max(1)).max(1);
        self.entries.par_chunks_mut(share).for_each(|part| {
            for e in part {
                *e.check.get_mut() = 0;
                *e.data.get_mut() = 0;
            }
        });
        self.age = 0;
    }

    /// Starts a new search: entries from earlier searches become older.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline(always)]
    fn cluster(&self, hash: u64) -> &[Entry] {
        let i =
            ((u128::from(hash) * u128::from(self.clusters)) >> 64) as usize * CLUSTER + self.offset;
        &self.entries[i..i + CLUSTER]
    }

    /// Looks `hash` up; `ply` converts mate scores to root distance.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<TtHit> {
        for e in self.cluster(hash) {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if check ^ data == hash {
                let (mv, score, depth, bound, _) = unpack(data)?;
                return Some(TtHit {
                    mv,
                    score: score_from_tt(score, ply),
                    depth,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a search result for `hash`.
    #[inline]
    pub fn store(
        &self,
        hash: u64,
        ply: usize,
        mv: Option<Move>,
        score: Score,
        depth: i32,
        bound: Bound,
    ) {
        let cluster = self.cluster(hash);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in cluster.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            let Some((old_mv, _, old_depth, old_bound, old_age)) = unpack(data) else {
                // An empty slot: take it unless the position is stored later on.
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            if check ^ data == hash {
                // Same position: keep a deeper exact result of this search,
                // and keep the old move when the new result has none.
                if old_age == self.age
                    && old_depth > depth + 2
                    && old_bound == Bound::Exact
                    && bound != Bound::Exact
                {
                    return;
                }
                let mv = mv.or(old_mv);
                let data = pack(mv, score_to_tt(score, ply), depth, bound, self.age);
                e.data.store(data, Ordering::Relaxed);
                e.check.store(hash ^ data, Ordering::Relaxed);
                return;
            }
            let age_distance = i32::from((self.age.wrapping_sub(old_age)) & 63);
            let worth = old_depth - 4 * age_distance;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = pack(mv, score_to_tt(score, ply), depth, bound, self.age);
        let e = &cluster[victim];
        e.data.store(data, Ordering::Relaxed);
        e.check.store(hash ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries that belong to the current
    /// search (UCI's "hashfull").
    pub fn hashfull(&self) -> usize {
        self.entries
            .iter()
            .skip(self.offset)
            .take(1000)
            .filter(|e| {
                unpack(e.data.load(Ordering::Relaxed)).is_some_and(|(.., age)| age == self.age)
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MATE;

    #[test]
    fn moves_round_trip() {
        let piece = Piece::from_index(17).unwrap();
        let from = Hex::from_axial(3, -2);
        let to = Hex::from_axial(-5, 7);
        for mv in [
            None,
            Some(Move::Pass),
            Some(Move::Place { piece, to }),
            Some(Move::Move { piece, from, to }),
        ] {
            let bits = encode_move(mv);
            assert!(bits < 1 << 27);
            assert_eq!(decode_move(bits), mv);
        }
    }

    #[test]
    fn every_cluster_fills_one_cache_line() {
        let mut tt = Tt::new(3);
        for mb in [3, 1, 16, 2] {
            tt.resize(mb);
            let clusters = tt.clusters as usize;
            assert!(clusters >= mb * 1024 * 1024 / LINE - 1);
            for hash in [0, 1 << 40, u64::MAX / 3, u64::MAX] {
                let cluster = tt.cluster(hash);
                assert_eq!(cluster.len(), CLUSTER);
                assert_eq!(
                    cluster.as_ptr() as usize % LINE,
                    0,
                    "{mb} MiB, hash {hash:x}"
                );
            }
            // The last cluster lies inside the table.
            let last = tt.cluster(u64::MAX).as_ptr() as usize;
            let end = tt.entries.as_ptr() as usize + tt.entries.len() * 16;
            assert!(last + LINE <= end);
        }
    }

    #[test]
    fn entries_round_trip_with_mate_distance() {
        let tt = Tt::new(1);
        let piece = Piece::from_index(3).unwrap();
        let mv = Some(Move::Place {
            piece,
            to: Hex::ORIGIN,
        });
        for (score, bound, depth) in [
            (-1234, Bound::Upper, 0),
            (77, Bound::Exact, 9),
            (MATE - 7, Bound::Lower, 200),
            (-MATE + 9, Bound::Exact, 3),
        ] {
            let hash = 0x0123_4567_89ab_cdef_u64.wrapping_mul(score as u64 | 1);
            tt.store(hash, 4, mv, score, depth, bound);
            let hit = tt.probe(hash, 4).expect("stored");
            assert_eq!(
                (hit.mv, hit.score, hit.depth, hit.bound),
                (mv, score, depth, bound)
            );
            // Seen two plies closer to the root, a mate is two plies nearer.
            let closer = tt.probe(hash, 2).expect("stored").score;
            if score >= crate::engine::MATE_BOUND {
                assert_eq!(closer, score + 2);
            } else if score <= -crate::engine::MATE_BOUND {
                assert_eq!(closer, score - 2);
            } else {
                assert_eq!(closer, score);
            }
        }
        assert_eq!(tt.probe(42, 0), None);
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let tt = Tt::new(1);
        tt.store(99, 0, Some(Move::Pass), 5, 3, Bound::Exact);
        let e = &tt.cluster(99)[0];
        e.data
            .store(pack(None, 6, 3, Bound::Exact, 0), Ordering::Relaxed);
        assert_eq!(tt.probe(99, 0), None);
    }

    #[test]
    fn deeper_entries_survive_shallow_strangers() {
        let tt = Tt::new(1);
        let clusters = tt.clusters;
        // Hashes that land in cluster 0: the top bits decide.
        let hashes: Vec<u64> = (0..=CLUSTER as u64).map(|i| i + 1).collect();
        assert!(hashes
            .iter()
            .all(|&h| (u128::from(h) * u128::from(clusters)) >> 64 == 0));
        tt.store(hashes[0], 0, None, 1, 20, Bound::Exact);
        for &h in &hashes[1..] {
            tt.store(h, 0, None, 1, 1, Bound::Exact);
        }
        assert_eq!(tt.probe(hashes[0], 0).map(|h| h.depth), Some(20));
    }

    #[test]
    fn resizing_gives_an_empty_table_of_the_new_size() {
        let mut tt = Tt::new(4);
        for (mb, before) in [(2, 4), (8, 2), (1, 8), (4, 1)] {
            let hashes: Vec<u64> = (1..=1000u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            for &h in &hashes {
                tt.store(h, 0, Some(Move::Pass), 7, 5, Bound::Exact);
            }
            assert!(hashes.iter().any(|&h| tt.probe(h, 0).is_some()));
            assert_eq!((tt.size_mb(), tt.requested_mb()), (before, before));
            tt.resize(mb);
            assert_eq!((tt.size_mb(), tt.requested_mb()), (mb, mb));
            assert_eq!(tt.clusters as usize * CLUSTER * 16, mb << 20);
            assert!(hashes.iter().all(|&h| tt.probe(h, 0).is_none()));
        }
    }

    #[test]
    fn clearing_with_threads_empties_every_share() {
        // 3 and 7 shares leave a short last one.
        let mut tt = Tt::new(4);
        for threads in [1, 2, 3, 7] {
            let hashes: Vec<u64> = (1..=20_000u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            for &h in &hashes {
                tt.store(h, 0, Some(Move::Pass), 7, 5, Bound::Exact);
            }
            let kept = hashes.iter().filter(|&&h| tt.probe(h, 0).is_some()).count();
            assert!(kept > 10_000, "{kept} entries kept");
            tt.clear_with(threads);
            assert!(
                tt.entries
                    .iter()
                    .all(|e| e.check.load(Ordering::Relaxed) == 0
                        && e.data.load(Ordering::Relaxed) == 0),
                "{threads} threads"
            );
        }
    }
}
