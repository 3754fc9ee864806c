//! The hex grid: cells, directions and cell sets.
//!
//! Hive has no board, but a hive of at most 28 pieces (Base+MLP) never spans more
//! than 29 cells in any direction, counting the empty cells around it. Waggle
//! therefore keeps every cell on a 32 × 32 torus: a [`Hex`] is an index
//! `q + 32·r (mod 1024)` in axial coordinates, and the six neighbours are fixed
//! index offsets. The map `(q, r) ↦ q + 32·r mod 1024` is a group homomorphism,
//! so moving around the torus is exact addition; two distinct cells of one hive
//! can only alias when they are at least 32 steps apart, which never happens.
//!
//! Hexes are pointy-topped, as in UHP:
//!
//! ```text
//!          NW (0,-1)   NE (+1,-1)
//!               \       /
//!   W (-1,0) ---  cell  --- E (+1,0)
//!               /       \
//!         SW (-1,+1)   SE (0,+1)
//! ```
//!
//! [`Direction`]s run clockwise from NW, which is also the order in which the
//! canonical MoveString scan looks for a reference piece (UHP.md §4.4). The two
//! cells flanking a step in direction `d` are the neighbours in directions
//! `d - 1` and `d + 1`.

/// Width and height of the torus.
pub const GRID_SIDE: u16 = 32;
/// Number of cells on the torus.
pub const CELLS: usize = (GRID_SIDE as usize) * (GRID_SIDE as usize);
const MASK: u16 = (CELLS as u16) - 1;

/// One cell of the (wrapped) hex grid.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct Hex(u16);

impl Hex {
    /// The cell where White's first piece goes. It sits in the middle of the
    /// torus only to make debug output readable; any cell would do.
    pub const ORIGIN: Hex = Hex(16 + 16 * GRID_SIDE);

    /// The cell with this index, if the index is on the grid.
    pub const fn new(index: u16) -> Option<Hex> {
        if (index as usize) < CELLS {
            Some(Hex(index))
        } else {
            None
        }
    }

    /// The cell at axial offset `(q, r)` from [`Hex::ORIGIN`].
    pub const fn from_axial(q: i32, r: i32) -> Hex {
        let idx = (Hex::ORIGIN.0 as i32 + q + r * GRID_SIDE as i32).rem_euclid(CELLS as i32);
        Hex(idx as u16)
    }

    /// The index of this cell, `0..CELLS`. (Masked, though every cell is
    /// on the grid already, so that indexing an array of `CELLS` needs no
    /// bounds check.)
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & MASK) as usize
    }

    /// The neighbouring cell in direction `dir`.
    #[inline(always)]
    pub const fn neighbor(self, dir: Direction) -> Hex {
        Hex(self.0.wrapping_add(dir.offset()) & MASK)
    }

    /// The neighbouring cell in the direction with index `d` (`0..6`, as
    /// [`Direction::index`]): for loops over a mask of direction bits,
    /// without turning each bit back into a [`Direction`].
    #[inline(always)]
    pub fn neighbor_at(self, d: usize) -> Hex {
        debug_assert!(d < 6);
        Hex(self.0.wrapping_add(ADJACENT_OFFSETS[d & 7]) & MASK)
    }

    /// All six neighbours, in [`Direction::ALL`] order.
    #[inline(always)]
    pub fn neighbors(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbor(d))
    }

    /// Whether `other` is one of the six neighbours of this cell.
    #[inline(always)]
    pub fn is_adjacent(self, other: Hex) -> bool {
        // The index difference of two neighbours is one of six offsets.
        self.bit_toward(other) != 0
    }

    /// Whether `other` is this cell or at most two steps from it (the 19
    /// cells of the radius-2 ball).
    #[inline(always)]
    pub fn within_two(self, other: Hex) -> bool {
        let diff = usize::from(other.0.wrapping_sub(self.0) & MASK);
        WITHIN_TWO_DIFF[diff / 64] >> (diff % 64) & 1 != 0
    }

    /// `1 << d` when `other` is this cell's neighbour in direction `d`, else
    /// 0: one table lookup by index difference, for masking a lifted piece's
    /// cell out of an occupancy ring.
    #[inline(always)]
    pub fn bit_toward(self, other: Hex) -> u8 {
        DIRECTION_BIT_OF_DIFF[usize::from(other.0.wrapping_sub(self.0) & MASK)]
    }

    /// The direction from this cell to an adjacent `other`, if adjacent.
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::ALL
            .iter()
            .copied()
            .find(|&d| self.neighbor(d) == other)
    }
}

/// The index differences of two cells at most two steps apart (the sums of
/// two neighbour offsets), as a bit set.
const WITHIN_TWO_DIFF: [u64; CELLS / 64] = {
    let mut bits = [0u64; CELLS / 64];
    let mut i = 0;
    while i < 6 {
        let mut j = 0;
        while j < 6 {
            let d = (ADJACENT_OFFSETS[i].wrapping_add(ADJACENT_OFFSETS[j]) & MASK) as usize;
            bits[d / 64] |= 1 << (d % 64);
            j += 1;
        }
        i += 1;
    }
    bits
};

/// For each index difference, `1 << d` if it is the offset of direction
/// `d`, else 0 (see [`Hex::bit_toward`]).
const DIRECTION_BIT_OF_DIFF: [u8; CELLS] = {
    let mut bits = [0u8; CELLS];
    let mut d = 0;
    while d < 6 {
        bits[ADJACENT_OFFSETS[d] as usize] = 1 << d;
        d += 1;
    }
    bits
};

/// The index offsets of the six neighbours, reduced to the grid, by
/// direction index; padded to eight, so that an index masked with 7 needs no
/// bounds check.
const ADJACENT_OFFSETS: [u16; 8] = {
    let mut offsets = [0u16; 8];
    let mut i = 0;
    while i < 6 {
        offsets[i] = Direction::ALL[i].offset() & MASK;
        i += 1;
    }
    offsets
};

/// One of the six directions of the pointy-topped hex grid, clockwise from NW.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[repr(u8)]
pub enum Direction {
    /// Upper left, axial (0, −1).
    NorthWest = 0,
    /// Upper right, axial (+1, −1).
    NorthEast = 1,
    /// Right, axial (+1, 0).
    East = 2,
    /// Lower right, axial (0, +1).
    SouthEast = 3,
    /// Lower left, axial (−1, +1).
    SouthWest = 4,
    /// Left, axial (−1, 0).
    West = 5,
}

impl Direction {
    /// All directions, clockwise from NW.
    pub const ALL: [Direction; 6] = [
        Direction::NorthWest,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::SouthWest,
        Direction::West,
    ];

    /// Index offset on the torus (as a wrapping `u16`).
    #[inline(always)]
    const fn offset(self) -> u16 {
        // q + 32 r, written as wrapping u16 additions.
        match self {
            Direction::NorthWest => 0u16.wrapping_sub(GRID_SIDE),
            Direction::NorthEast => 0u16.wrapping_sub(GRID_SIDE - 1),
            Direction::East => 1,
            Direction::SouthEast => GRID_SIDE,
            Direction::SouthWest => GRID_SIDE - 1,
            Direction::West => 0u16.wrapping_sub(1),
        }
    }

    /// The direction with this index (taken modulo 6).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i % 6]
    }

    /// Index of this direction in [`Direction::ALL`].
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The next direction counter-clockwise (the left flank of a step).
    #[inline(always)]
    pub const fn ccw(self) -> Direction {
        use Direction::*;
        match self {
            NorthWest => West,
            NorthEast => NorthWest,
            East => NorthEast,
            SouthEast => East,
            SouthWest => SouthEast,
            West => SouthWest,
        }
    }

    /// The next direction clockwise (the right flank of a step).
    #[inline(always)]
    pub const fn cw(self) -> Direction {
        use Direction::*;
        match self {
            NorthWest => NorthEast,
            NorthEast => East,
            East => SouthEast,
            SouthEast => SouthWest,
            SouthWest => West,
            West => NorthWest,
        }
    }

    /// The opposite direction.
    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        use Direction::*;
        match self {
            NorthWest => SouthEast,
            NorthEast => SouthWest,
            East => West,
            SouthEast => NorthWest,
            SouthWest => NorthEast,
            West => East,
        }
    }
}

/// A set of cells, one bit per cell of the torus (128 bytes).
#[derive(Clone, Copy, Eq, PartialEq)]
pub struct HexSet {
    words: [u64; CELLS / 64],
}

impl Default for HexSet {
    fn default() -> Self {
        HexSet::new()
    }
}

impl std::fmt::Debug for HexSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl HexSet {
    /// The empty set.
    #[inline(always)]
    pub const fn new() -> HexSet {
        HexSet {
            words: [0; CELLS / 64],
        }
    }

    /// Whether `hex` is in the set.
    #[inline(always)]
    pub fn contains(&self, hex: Hex) -> bool {
        let i = hex.index();
        self.words[i >> 6] & (1u64 << (i & 63)) != 0
    }

    /// Adds `hex`; returns whether it was new.
    #[inline(always)]
    pub fn insert(&mut self, hex: Hex) -> bool {
        let i = hex.index();
        let bit = 1u64 << (i & 63);
        let was = self.words[i >> 6] & bit;
        self.words[i >> 6] |= bit;
        was == 0
    }

    /// Removes `hex`.
    #[inline(always)]
    pub fn remove(&mut self, hex: Hex) {
        let i = hex.index();
        self.words[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Adds every cell of `other`.
    #[inline(always)]
    pub fn extend(&mut self, other: &HexSet) {
        for (w, o) in self.words.iter_mut().zip(other.words.iter()) {
            *w |= o;
        }
    }

    /// Calls `f` on each cell of `self` that is in neither `a` nor `b`, in
    /// index order.
    #[inline(always)]
    pub fn for_each_without(&self, a: &HexSet, b: &HexSet, mut f: impl FnMut(Hex)) {
        for wi in 0..self.words.len() {
            let mut w = self.words[wi] & !a.words[wi] & !b.words[wi];
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                f(Hex((wi * 64 + bit) as u16));
            }
        }
    }

    /// Number of cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The cells of the set in index order.
    pub fn iter(&self) -> impl Iterator<Item = Hex> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(Hex((wi * 64 + b) as u16))
                }
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_is_being_a_neighbour() {
        for a in 0..CELLS as u16 {
            let a = Hex(a);
            let ring = a.neighbors();
            for b in 0..CELLS as u16 {
                let b = Hex(b);
                assert_eq!(a.is_adjacent(b), ring.contains(&b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn neighbors_are_mutual_and_flanks_touch_both_ends() {
        let h = Hex::from_axial(3, -7);
        for d in Direction::ALL {
            let n = h.neighbor(d);
            assert_eq!(n.neighbor(d.opposite()), h);
            // Clockwise is the next in `Direction::ALL`.
            assert_eq!(d.cw().index(), (d.index() + 1) % 6);
            assert_eq!(d.ccw().index(), (d.index() + 5) % 6);
            assert_eq!(d.opposite().index(), (d.index() + 3) % 6);
            for flank in [h.neighbor(d.ccw()), h.neighbor(d.cw())] {
                assert!(flank.is_adjacent(h));
                assert!(flank.is_adjacent(n));
            }
        }
        assert_eq!(h.neighbor(Direction::East), Hex::from_axial(4, -7));
        assert_eq!(h.neighbor(Direction::NorthEast), Hex::from_axial(4, -8));
        assert_eq!(h.neighbor(Direction::SouthWest), Hex::from_axial(2, -6));
    }

    #[test]
    fn neighbor_at_is_the_neighbor_in_that_direction() {
        for h in [
            Hex::ORIGIN,
            Hex::from_axial(5, -3),
            Hex::from_axial(-16, 15),
        ] {
            for d in Direction::ALL {
                assert_eq!(h.neighbor_at(d.index()), h.neighbor(d), "{h:?} {d:?}");
            }
        }
    }

    #[test]
    fn within_two_is_the_radius_two_ball() {
        let h = Hex::from_axial(5, -3);
        let mut ball = std::collections::HashSet::new();
        for n in h.neighbors() {
            ball.extend(n.neighbors());
        }
        assert_eq!(ball.len(), 19);
        for q in -6..=6 {
            for r in -6..=6 {
                let other = Hex::from_axial(5 + q, -3 + r);
                assert_eq!(h.within_two(other), ball.contains(&other), "{q} {r}");
            }
        }
    }

    #[test]
    fn bit_toward_names_the_direction_of_a_neighbour_only() {
        let h = Hex::from_axial(-7, 12);
        for d in Direction::ALL {
            assert_eq!(h.bit_toward(h.neighbor(d)), 1 << d.index());
            assert_eq!(h.neighbor(d).bit_toward(h), 1 << d.opposite().index());
        }
        for q in -4..=4 {
            for r in -4..=4 {
                let other = Hex::from_axial(-7 + q, 12 + r);
                let expected = h.direction_to(other).map_or(0, |d| 1 << d.index());
                assert_eq!(h.bit_toward(other), expected, "{q} {r}");
            }
        }
    }

    #[test]
    fn wrapping_is_exact_far_from_origin() {
        let mut h = Hex::ORIGIN;
        for _ in 0..100 {
            h = h.neighbor(Direction::East);
        }
        assert_eq!(h, Hex::from_axial(100, 0));
        let six: std::collections::HashSet<_> = h.neighbors().into_iter().collect();
        assert_eq!(six.len(), 6);
    }

    #[test]
    fn hexset_basics() {
        let mut s = HexSet::new();
        assert!(s.insert(Hex::ORIGIN));
        assert!(!s.insert(Hex::ORIGIN));
        assert!(s.insert(Hex::from_axial(-16, -16)));
        assert_eq!(s.len(), 2);
        assert_eq!(s.iter().count(), 2);
        s.remove(Hex::ORIGIN);
        assert!(!s.contains(Hex::ORIGIN));
        assert_eq!(s.len(), 1);
    }
}
