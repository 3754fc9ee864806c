//! Legal move generation for all eight insects.
//!
//! The generator follows `shared/spec/RULES.md` and Mzinga's rulings (which the
//! reference perft counts assume):
//!
//! * placements touch a friendly top piece and no enemy top piece; no Queen on
//!   a player's first turn under the tournament opening; only the Queen on turn
//!   4 when she is still in hand;
//! * nothing moves before its owner's Queen is down, a covered piece never
//!   moves, and the piece moved on the previous ply (by either side) may not
//!   move or be moved by a Pillbug;
//! * One Hive: ground pieces that are cut vertices of the hive are pinned
//!   (read off the ring of neighbours where the hive encloses no empty cell,
//!   else by a search over the cell graph from the piece's cell), slides
//!   must keep contact, and gates follow the height rule
//!   `min(L, R) > max(h, d)` blocks;
//! * `pass` only when nothing else is legal.
//!
//! Every (piece, destination) pair appears once, even when a Mosquito copies
//! two insects that reach the same cell or a Pillbug and a Mosquito could both
//! throw the same piece to the same cell.

use super::hex::{Direction, Hex, HexSet, CELLS};
use super::piece::{Bug, Color, Piece};
use super::position::{Move, Position, RING_RUNS};
use arrayvec::ArrayVec;

/// Upper bound on the legal moves of any position.
///
/// A connected group of `n` cells has at most `2n + 4` empty cells around it,
/// so with `n ≤ 28` stacks any piece has at most 60 ground destinations plus
/// 28 stack tops. A side has 14 pieces, each contributing either placements
/// of its bug type (≤ 60 cells) or its own destinations (≤ 88), and Pillbug
/// throws of enemy pieces add at most 2 throwers × 6 neighbours × 5 cells:
/// 14 × 88 + 60 = 1292 < 1536.
pub const MAX_MOVES: usize = 1536;

/// A fixed-capacity list of moves (no heap allocation).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// For each 6-bit mask of occupied neighbours (bit `d` for direction `d`),
/// the mask of directions a ground piece can slide to: the destination is
/// empty and exactly one of the two flanking cells is occupied (one flank
/// keeps contact with the hive, two flanks make a gate).
const SLIDES: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut out = 0u8;
        let mut d = 0;
        while d < 6 {
            let to = mask & (1 << d) != 0;
            let l = mask & (1 << ((d + 5) % 6)) != 0;
            let r = mask & (1 << ((d + 1) % 6)) != 0;
            if !to && (l != r) {
                out |= 1 << d;
            }
            d += 1;
        }
        table[mask] = out;
        mask += 1;
    }
    table
};

/// Which ground pieces are pinned (the only link between parts of the
/// hive): answered locally where the ring of neighbours decides it (a cell
/// with one run of neighbours never is; one with two or more always is
/// where the hive encloses no empty cell), and by a search over the
/// incrementally kept cell graph otherwise.
struct Pins<'a> {
    pos: &'a Position,
}

impl Pins<'_> {
    #[inline(always)]
    fn is_pinned(&self, hex: Hex) -> bool {
        if RING_RUNS[usize::from(self.pos.ring(hex))] <= 1 {
            return false;
        }
        if self.pos.encloses_empty_cells() {
            return self.pos.splits_hive(hex);
        }
        debug_assert!(self.pos.splits_hive(hex), "{:?}", self.pos);
        true
    }
}

/// The occupied neighbours of `hex` as a ring mask, with the cell `lifted`
/// (where the moving piece stood) counted as empty.
#[inline(always)]
fn ring_without(pos: &Position, lifted: Hex, hex: Hex) -> usize {
    usize::from(pos.ring(hex) & !hex.bit_toward(lifted))
}

/// Ground slides from `hex` with the moving piece lifted off `lifted`.
#[inline(always)]
fn for_each_slide(pos: &Position, lifted: Hex, hex: Hex, mut f: impl FnMut(Hex)) {
    let mut dirs = SLIDES[ring_without(pos, lifted, hex)];
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        f(hex.neighbor_at(d));
    }
}

/// Heights of the board with one cell emptied (the moving piece lifted).
struct Heights<'a> {
    height: &'a [u8; CELLS],
    lifted: Hex,
    lifted_height: u8,
}

impl Heights<'_> {
    #[inline(always)]
    fn at(&self, hex: Hex) -> u8 {
        if hex == self.lifted {
            self.lifted_height
        } else {
            self.height[hex.index()]
        }
    }

    /// Whether a step from `from` (where `h` pieces remain under the mover)
    /// in direction `d` is allowed by the height gate and keeps contact.
    #[inline(always)]
    fn can_step(&self, from: Hex, h: u8, d: Direction) -> bool {
        let dest = self.at(from.neighbor(d));
        let l = self.at(from.neighbor(d.ccw()));
        let r = self.at(from.neighbor(d.cw()));
        if h == 0 && dest == 0 {
            (l == 0) != (r == 0)
        } else {
            l.min(r) <= h.max(dest)
        }
    }
}

impl Position {
    /// Generates every legal move of the side to move into `moves` (cleared
    /// first). The list is `[Pass]` when nothing else is legal. The game being
    /// over is not checked here: see [`Position::surround_outcome`].
    pub fn generate_moves(&self, moves: &mut MoveList) {
        moves.clear();
        let color = self.side_to_move();
        self.generate_placements(color, moves);
        if self.queen(color).is_some() {
            self.generate_movements(color, moves);
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    /// Whether `mv` is certainly legal, checked without generating the
    /// other moves: the search tries the table's move before it generates
    /// the rest. `true` means [`Position::generate_moves`] lists `mv`.
    /// `false` means either illegal or not checked here: a pass, and a
    /// piece moved by a Pillbug (or a Mosquito copying one) rather than by
    /// itself, are left to the full move list.
    pub fn confirms_legal(&self, mv: Move) -> bool {
        let color = self.side_to_move();
        match mv {
            Move::Pass => false,
            Move::Place { piece, to } => {
                piece.color() == color
                    && self.placeable_pieces(color).contains(&piece)
                    && self.is_placement_cell(color, to)
            }
            Move::Move { piece, from, to } => {
                if from == to || self.cannot_reach(piece, from, to) {
                    return false;
                }
                let Some(h) = self.free_to_move(piece, from) else {
                    return false;
                };
                self.reaches(piece, from, h, to)
            }
        }
    }

    /// Whether `piece` at `from` certainly cannot get to `to` by its own
    /// move, judged from the cells alone: steppers reach only their
    /// neighbours, and a piece that only slides enters `to` only where it
    /// could slide out of it.
    #[inline(always)]
    fn cannot_reach(&self, piece: Piece, from: Hex, to: Hex) -> bool {
        let bug = piece.bug();
        let steps = matches!(bug, Bug::Queen | Bug::Beetle | Bug::Pillbug);
        let slides = matches!(bug, Bug::Queen | Bug::Pillbug | Bug::Spider | Bug::Ant);
        steps && !from.is_adjacent(to)
            || slides && self.height(from) == 1 && SLIDES[ring_without(self, from, to)] == 0
    }

    /// Whether `piece` at `from` (`h` high, free to move) gets to `to` by
    /// its own move; an Ant's search stops once it arrives.
    #[inline(always)]
    fn reaches(&self, piece: Piece, from: Hex, h: u8, to: Hex) -> bool {
        if piece.bug() == Bug::Ant {
            return ant_reaches(self, from, to);
        }
        let mut reaches = false;
        self.for_each_destination(piece, from, h, |dest| reaches |= dest == to);
        reaches
    }

    /// Whether the side to move has a move that leaves its own Queen no
    /// fewer free cells than she has now: a placement away from her, a
    /// move that does not end on one of her free cells or that leaves one
    /// (a piece stepping round her), a step of the Queen to a cell as free.
    /// Throws and a forced pass are not looked at, so `false` can also
    /// mean "only by a throw or a pass"; `true` when her side has not
    /// placed her. The search asks where she is down to two free cells: a
    /// side without such a move is in zugzwang, one enemy move from losing.
    pub fn has_move_sparing_own_queen(&self) -> bool {
        let color = self.side_to_move();
        let Some(q) = self.queen(color) else {
            return true;
        };
        if !self.placeable_pieces(color).is_empty()
            && self
                .placement_cells(color)
                .iter()
                .any(|&c| !q.is_adjacent(c))
        {
            return true;
        }
        let free_now = 6 - self.occupied_neighbors(q);
        let mut own = self.on_board_mask() & color.piece_mask();
        while own != 0 {
            let i = own.trailing_zeros() as usize;
            own &= own - 1;
            let piece = piece_at(i);
            let from = self.cell_of(i);
            let Some(h) = self.free_to_move(piece, from) else {
                continue;
            };
            let mut spares = false;
            if piece.bug() == Bug::Queen {
                self.for_each_destination(piece, from, h, |to| {
                    // `from` empties: it was counted next to `to`.
                    let around = self.occupied_neighbors(to) - usize::from(from.is_adjacent(to));
                    spares |= 6 - around >= free_now;
                });
            } else {
                let frees_one = h == 1 && q.is_adjacent(from);
                self.for_each_destination(piece, from, h, |to| {
                    spares |= frees_one || !q.is_adjacent(to) || self.is_occupied(to);
                });
            }
            if spares {
                return true;
            }
        }
        false
    }

    /// Whether `color` may place a piece on `to` (one of
    /// [`Position::placement_cells`], ignoring what is in hand).
    #[inline(always)]
    fn is_placement_cell(&self, color: Color, to: Hex) -> bool {
        match self.ply() {
            0 => to == Hex::ORIGIN,
            1 => self
                .occupied()
                .iter()
                .next()
                .is_some_and(|first| first.is_adjacent(to)),
            _ => self.is_spawn_cell(to, color),
        }
    }

    /// The height of `from` when `piece`, the side to move's, stands on top
    /// there and may move by itself now (its Queen placed, not moved by a
    /// Pillbug last turn, not pinned by the One Hive rule).
    #[inline(always)]
    fn free_to_move(&self, piece: Piece, from: Hex) -> Option<u8> {
        if piece.color() != self.side_to_move()
            || self.queen(piece.color()).is_none()
            || self.hex_of(piece) != Some(from)
            || !self.is_top(piece)
            || Some(piece) == self.last_moved()
        {
            return None;
        }
        let h = self.height(from);
        if h == 1 && (Pins { pos: self }).is_pinned(from) {
            return None;
        }
        Some(h)
    }

    /// Writes into `moves` (cleared first) every legal move of the side to
    /// move that ends on the cell `to`: the moves of
    /// [`Position::generate_moves`] with that destination, perhaps in
    /// another order. See [`Position::find_move_onto`].
    pub fn moves_onto(&self, to: Hex, moves: &mut MoveList) {
        moves.clear();
        self.find_move_onto(to, |mv| {
            moves.push(mv);
            false
        });
    }

    /// The first legal move of the side to move that ends on the cell `to`
    /// and satisfies `wanted`, which is asked about such moves one by one
    /// (the order of [`Position::moves_onto`]) until it says yes. Only the
    /// pieces that might get there are asked ([`Position::confirms_legal`]),
    /// and the throws of a Pillbug (or Mosquito) next to `to`.
    pub fn find_move_onto(&self, to: Hex, mut wanted: impl FnMut(Move) -> bool) -> Option<Move> {
        let color = self.side_to_move();
        if self.is_placement_cell(color, to) {
            for piece in self.placeable_pieces(color) {
                let mv = Move::Place { piece, to };
                if wanted(mv) {
                    return Some(mv);
                }
            }
        }
        // Own pieces that reach `to` by their own move, so that a throw of
        // one of them there is not asked about twice.
        let mut reached = 0u32;
        for from in self.cells_topped_by(color) {
            let Some(piece) = self.top(from).filter(|_| from != to) else {
                continue;
            };
            if self.cannot_reach(piece, from, to) {
                continue;
            }
            let Some(h) = self.free_to_move(piece, from) else {
                continue;
            };
            if self.reaches(piece, from, h, to) {
                let mv = Move::Move { piece, from, to };
                if wanted(mv) {
                    return Some(mv);
                }
                reached |= 1 << piece.index();
            }
        }
        // A throw lands next to the Pillbug (or Mosquito) that throws, and
        // like every movement waits for the own Queen.
        let last = self.last_moved();
        let mut throwers: ArrayVec<Hex, 6> = ArrayVec::new();
        if self.queen(color).is_some() {
            for n in to.neighbors() {
                if let Some(t) = self.top(n) {
                    if t.color() == color && Some(t) != last && self.can_throw(t, n) {
                        throwers.push(n);
                    }
                }
            }
        }
        if !throwers.is_empty() {
            let mut throws = MoveList::new();
            self.generate_throws(&throwers, &Pins { pos: self }, &mut throws);
            for &mv in &throws {
                let Move::Move {
                    piece, to: dest, ..
                } = mv
                else {
                    continue;
                };
                if dest == to && reached & (1 << piece.index()) == 0 && wanted(mv) {
                    return Some(mv);
                }
            }
        }
        None
    }

    /// Number of legal moves (counting a forced pass as one), without
    /// writing out the placements: perft's bulk count.
    pub fn count_moves(&self) -> usize {
        let color = self.side_to_move();
        let pieces = self.placeable_pieces(color);
        let mut n = 0;
        if !pieces.is_empty() {
            n += pieces.len() * self.placement_cells(color).len();
        }
        if self.queen(color).is_some() {
            let mut moves = MoveList::new();
            self.generate_movements(color, &mut moves);
            n += moves.len();
        }
        n.max(1)
    }

    /// The pieces `color` may place now, one per bug type, in slot order.
    pub fn placeable_pieces(&self, color: Color) -> ArrayVec<Piece, 8> {
        let mut out = ArrayVec::new();
        let turn = self.turn();
        let queen_in_hand = self.in_hand(color, Bug::Queen) > 0;
        let must_place_queen = queen_in_hand && turn == 4;
        for bug in Bug::ALL {
            if must_place_queen && bug != Bug::Queen {
                continue;
            }
            if bug == Bug::Queen && turn == 1 && self.rules().tournament_opening {
                continue;
            }
            if let Some(p) = self.next_in_hand(color, bug) {
                out.push(p);
            }
        }
        out
    }

    /// The cells whose top piece is `color`'s.
    #[inline(always)]
    fn cells_topped_by(&self, color: Color) -> impl Iterator<Item = Hex> + '_ {
        let mut own = self.on_board_mask() & color.piece_mask();
        std::iter::from_fn(move || {
            while own != 0 {
                let i = own.trailing_zeros() as usize;
                own &= own - 1;
                let hex = self.cell_of(i);
                if self.top_id(hex) == i as u8 {
                    return Some(hex);
                }
            }
            None
        })
    }

    /// Empty cells where `color` may place a piece (ignoring what is in hand).
    pub fn placement_cells(&self, color: Color) -> ArrayVec<Hex, 64> {
        let mut cells = ArrayVec::new();
        match self.ply() {
            0 => cells.push(Hex::ORIGIN),
            1 => {
                // Black's first piece touches White's first piece.
                if let Some(first) = self.occupied().iter().next() {
                    for n in first.neighbors() {
                        cells.push(n);
                    }
                }
            }
            _ => {
                // Empty cells next to a friendly top piece that touch no
                // enemy top piece, each once.
                let enemy = color.opponent();
                let mut seen = HexSet::new();
                for hex in self.cells_topped_by(color) {
                    for n in hex.neighbors() {
                        if !self.is_occupied(n)
                            && self.neighbors_topped_by(n, enemy) == 0
                            && seen.insert(n)
                        {
                            cells.push(n);
                        }
                    }
                }
            }
        }
        cells
    }

    /// The number of cells [`Position::placement_cells`] lists, but at most
    /// `limit`, without building the list (the evaluation asks it at every
    /// node): from the second ply on, the count the position keeps.
    pub fn placement_count(&self, color: Color, limit: usize) -> usize {
        if self.ply() < 2 {
            return self.placement_cells(color).len().min(limit);
        }
        self.spawn_cell_count(color).min(limit)
    }

    fn generate_placements(&self, color: Color, moves: &mut MoveList) {
        let pieces = self.placeable_pieces(color);
        if pieces.is_empty() {
            return;
        }
        let cells = self.placement_cells(color);
        for &piece in &pieces {
            for &to in &cells {
                moves.push(Move::Place { piece, to });
            }
        }
    }

    fn generate_movements(&self, color: Color, moves: &mut MoveList) {
        let pinned = Pins { pos: self };
        let last = self.last_moved();
        let mut own = self.on_board_mask() & color.piece_mask();
        let mut throwers: ArrayVec<Hex, 2> = ArrayVec::new();
        while own != 0 {
            let i = own.trailing_zeros() as usize;
            own &= own - 1;
            let piece = piece_at(i);
            if Some(piece) == last || !self.is_top(piece) {
                continue;
            }
            let from = self.hex_of(piece).unwrap_or(Hex::ORIGIN);
            let h = self.height(from);
            if self.can_throw(piece, from) {
                throwers.push(from);
            }
            if h == 1 && pinned.is_pinned(from) {
                continue;
            }
            self.for_each_destination(piece, from, h, |to| {
                moves.push(Move::Move { piece, from, to })
            });
        }
        if !throwers.is_empty() {
            self.generate_throws(&throwers, &pinned, moves);
        }
    }

    /// Whether `piece`, the top piece at `from`, throws its neighbours when
    /// it is free to act (not the piece that moved last): a Pillbug on the
    /// ground, or a Mosquito on the ground next to one.
    #[inline(always)]
    fn can_throw(&self, piece: Piece, from: Hex) -> bool {
        self.height(from) == 1
            && match piece.bug() {
                Bug::Pillbug => true,
                Bug::Mosquito => from
                    .neighbors()
                    .iter()
                    .any(|&n| self.top(n).is_some_and(|t| t.bug() == Bug::Pillbug)),
                _ => false,
            }
    }

    /// Calls `f` with each cell `piece` (the top piece at `from`, `h` high,
    /// free to move) can reach by its own move, in the order the move list
    /// gets them.
    #[inline(always)]
    fn for_each_destination(&self, piece: Piece, from: Hex, h: u8, mut f: impl FnMut(Hex)) {
        let mut dests;
        let heights = Heights {
            height: self.heights(),
            lifted: from,
            lifted_height: h - 1,
        };
        match piece.bug() {
            Bug::Queen | Bug::Pillbug => {
                for_each_slide(self, from, from, &mut f);
            }
            Bug::Beetle => {
                beetle_steps(&heights, from, h - 1, &mut f);
            }
            Bug::Grasshopper => {
                self.grasshopper_jumps(from, &mut f);
            }
            Bug::Spider => {
                dests = HexSet::new();
                spider_walks(self, from, &mut dests);
                dests.iter().for_each(&mut f);
            }
            Bug::Ant => {
                dests = HexSet::new();
                ant_flood(self, from, &mut dests);
                dests.iter().for_each(&mut f);
            }
            Bug::Ladybug => {
                dests = HexSet::new();
                ladybug_walks(&heights, from, &mut dests);
                dests.iter().for_each(&mut f);
            }
            Bug::Mosquito => {
                dests = HexSet::new();
                if h > 1 {
                    beetle_steps(&heights, from, h - 1, |to| {
                        dests.insert(to);
                    });
                } else {
                    let mut kinds = 0u8;
                    for n in from.neighbors() {
                        if let Some(t) = self.top(n) {
                            kinds |= 1 << t.bug().index();
                        }
                    }
                    let has = |b: Bug| kinds & (1 << b.index()) != 0;
                    if has(Bug::Beetle) {
                        beetle_steps(&heights, from, 0, |to| {
                            dests.insert(to);
                        });
                    }
                    if has(Bug::Ant) {
                        let mut reached = HexSet::new();
                        ant_flood(self, from, &mut reached);
                        dests.extend(&reached);
                    } else {
                        if has(Bug::Queen) || has(Bug::Pillbug) {
                            for_each_slide(self, from, from, |to| {
                                dests.insert(to);
                            });
                        }
                        if has(Bug::Spider) {
                            spider_walks(self, from, &mut dests);
                        }
                    }
                    if has(Bug::Grasshopper) {
                        self.grasshopper_jumps(from, |to| {
                            dests.insert(to);
                        });
                    }
                    if has(Bug::Ladybug) {
                        ladybug_walks(&heights, from, &mut dests);
                    }
                }
                dests.remove(from);
                dests.iter().for_each(&mut f);
            }
        }
    }

    /// Number of ground slides a piece at `from` could make (its own cell
    /// lifted), ignoring pins: a cheap mobility measure for the evaluation.
    /// It equals a Queen's or Pillbug's slide count when she is free to move.
    #[inline(always)]
    pub fn slide_count(&self, from: Hex) -> u32 {
        SLIDES[usize::from(self.ring(from))].count_ones()
    }

    /// Pillbug (or Mosquito-as-Pillbug) specials: lift an adjacent unstacked,
    /// unpinned piece that did not move last turn over the thrower onto an
    /// empty cell next to it, with the height gate on the lift and the drop.
    fn generate_throws(&self, throwers: &[Hex], pinned: &Pins<'_>, moves: &mut MoveList) {
        let first_new = moves.len();
        let color = self.side_to_move();
        let last = self.last_moved();
        let h = self.heights();
        for &t in throwers {
            let ht = h[t.index()];
            for d in Direction::ALL {
                let n = t.neighbor(d);
                if h[n.index()] != 1 || pinned.is_pinned(n) {
                    continue;
                }
                let Some(piece) = self.top(n) else { continue };
                if Some(piece) == last {
                    continue;
                }
                // Lift: from n (nothing left under it) onto the thrower.
                let l = h[t.neighbor(d.ccw()).index()];
                let r = h[t.neighbor(d.cw()).index()];
                if l.min(r) > ht {
                    continue;
                }
                for e in Direction::ALL {
                    let to = t.neighbor(e);
                    if h[to.index()] != 0 {
                        continue;
                    }
                    // Drop: from the top of the thrower down to the ground. The
                    // lifted cell n has height 1, which never decides this test.
                    let l = h[t.neighbor(e.ccw()).index()];
                    let r = h[t.neighbor(e.cw()).index()];
                    if l.min(r) > ht {
                        continue;
                    }
                    let mv = Move::Move { piece, from: n, to };
                    let duplicate = if piece.color() == color {
                        moves.contains(&mv)
                    } else {
                        moves[first_new..].contains(&mv)
                    };
                    if !duplicate {
                        moves.push(mv);
                    }
                }
            }
        }
    }

    /// Straight-line jumps over at least one occupied cell (also what the
    /// evaluation asks of a free Grasshopper).
    #[inline(always)]
    pub(crate) fn grasshopper_jumps(&self, from: Hex, mut f: impl FnMut(Hex)) {
        for d in Direction::ALL {
            let mut to = from.neighbor(d);
            if !self.is_occupied(to) {
                continue;
            }
            while self.is_occupied(to) {
                to = to.neighbor(d);
            }
            f(to);
        }
    }
}

#[inline(always)]
fn piece_at(i: usize) -> Piece {
    match Piece::from_index(i) {
        Some(p) => p,
        None => unreachable!("piece ids come from a 28-bit mask"),
    }
}

/// One Beetle step in each direction that the height gate allows.
#[inline(always)]
fn beetle_steps(heights: &Heights<'_>, from: Hex, h: u8, mut f: impl FnMut(Hex)) {
    for d in Direction::ALL {
        if heights.can_step(from, h, d) {
            f(from.neighbor(d));
        }
    }
}

/// Adds every cell an Ant at `from` reaches by sliding (excluding its
/// start) to `reached`, which must start empty: it doubles as the set of
/// cells seen.
pub(super) fn ant_flood(pos: &Position, from: Hex, reached: &mut HexSet) {
    debug_assert!(reached.is_empty());
    ant_search(pos, from, None, reached);
    reached.remove(from);
}

/// Whether an Ant at `from` can get to `to`.
fn ant_reaches(pos: &Position, from: Hex, to: Hex) -> bool {
    ant_search(pos, from, Some(to), &mut HexSet::new())
}

/// The flood behind [`ant_flood`] and [`ant_reaches`]: adds `from` and the
/// cells an Ant there reaches to `reached`, and stops once it reaches
/// `goal` (returning whether it did).
#[inline(always)]
fn ant_search(pos: &Position, from: Hex, goal: Option<Hex>, reached: &mut HexSet) -> bool {
    reached.insert(from);
    // At most 60 empty cells touch a hive of 28 stacks (see MAX_MOVES).
    let mut queue = [from; 64];
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let cell = queue[head];
        head += 1;
        let mut found = false;
        for_each_slide(pos, from, cell, |to| {
            found |= Some(to) == goal;
            if reached.insert(to) && tail < queue.len() {
                queue[tail] = to;
                tail += 1;
            }
        });
        if found {
            return true;
        }
    }
    false
}

/// Destinations of exactly three slides that never revisit a cell.
fn spider_walks(pos: &Position, from: Hex, dests: &mut HexSet) {
    for_each_slide(pos, from, from, |a| {
        for_each_slide(pos, from, a, |b| {
            if b == from {
                return;
            }
            for_each_slide(pos, from, b, |c| {
                if c != a && c != from {
                    dests.insert(c);
                }
            });
        });
    });
}

/// Two steps on top of the hive, then one step down to an empty cell.
fn ladybug_walks(heights: &Heights<'_>, from: Hex, dests: &mut HexSet) {
    for d1 in Direction::ALL {
        let a = from.neighbor(d1);
        let ha = heights.at(a);
        if ha == 0 || !heights.can_step(from, 0, d1) {
            continue;
        }
        for d2 in Direction::ALL {
            let b = a.neighbor(d2);
            let hb = heights.at(b);
            if hb == 0 || !heights.can_step(a, ha, d2) {
                continue;
            }
            for d3 in Direction::ALL {
                let c = b.neighbor(d3);
                if c == from || heights.at(c) != 0 || !heights.can_step(b, hb, d3) {
                    continue;
                }
                dests.insert(c);
            }
        }
    }
}
