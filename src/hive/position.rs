//! The position: stacks on the hex grid, pieces in hand, side to move, the
//! Zobrist hash, make/unmake and threefold-repetition bookkeeping.
//!
//! Stacks are linked lists threaded through the pieces: `top[cell]` is the piece
//! on top of a cell, `below[piece]` the piece under it, and `height[cell]` the
//! number of pieces in the cell. Make and unmake are exact inverses, so the
//! only thing an undo record needs to keep is what a move destroys: the
//! previous "last moved piece" and the previous hash.
//!
//! Repetition: every position of the game is counted in a small counting
//! filter indexed by the low bits of its hash. A position can only have
//! occurred three times when its bucket holds at least three, and only then is
//! the history scanned for exact matches, so the check is O(1) per move in
//! practice and undo takes the count back.

use super::hex::{Direction, Hex, HexSet, CELLS};
use super::piece::{Bug, ByColor, Color, GameType, Piece, ID_SLOTS, NUM_PIECES};
use super::zobrist;
use std::fmt;

/// Marker for "no piece" in the compact per-cell and per-piece arrays.
const NO_PIECE: u8 = 0xFF;

/// For each 6-bit mask of occupied neighbours, the number of separate runs
/// of occupied cells around the ring. A cell whose occupied neighbours form
/// at most one run can never split the hive (the run stays connected through
/// itself); only cells with two or more runs need the global test.
pub(super) const RING_RUNS: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut runs = 0;
        let mut d = 0;
        while d < 6 {
            let here = mask & (1 << d) != 0;
            let prev = mask & (1 << ((d + 5) % 6)) != 0;
            if here && !prev {
                runs += 1;
            }
            d += 1;
        }
        if mask == 63 {
            runs = 1;
        }
        table[mask] = runs;
        mask += 1;
    }
    table
};

/// For each 6-bit ring mask: the edges of the cell graph at a cell with
/// those occupied neighbours, less the triangles it is a corner of (pairs
/// of occupied neighbours in adjacent directions, which touch each other).
/// When a cell is occupied or emptied, the hive's edges less its triangles
/// change by exactly this much.
const RING_EDGES_LESS_TRIANGLES: [i16; 64] = {
    let mut table = [0i16; 64];
    let mut mask = 0;
    while mask < 64 {
        let turned = ((mask << 1) | (mask >> 5)) & 63;
        let edges = (mask as u32).count_ones();
        let triangles = ((mask & turned) as u32).count_ones();
        table[mask] = edges as i16 - triangles as i16;
        mask += 1;
    }
    table
};

/// Size of the repetition counting filter (a power of two).
const REP_FILTER: usize = 4096;

/// One move (a ply).
///
/// A Pillbug throwing a neighbour is written as a `Move` of the thrown piece,
/// exactly as UHP writes it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Move {
    /// A piece from hand enters play at `to` (always on the ground).
    Place {
        /// The piece placed: always the next of its bug type in number order.
        piece: Piece,
        /// Destination cell.
        to: Hex,
    },
    /// A piece on the board moves from `from` to `to` (on top of whatever
    /// stack is there).
    Move {
        /// The piece that moves (for a Pillbug throw, the thrown piece).
        piece: Piece,
        /// Source cell.
        from: Hex,
        /// Destination cell.
        to: Hex,
    },
    /// The side to move has no legal move.
    Pass,
}

impl Move {
    /// The piece that is placed or moved, if any.
    pub fn piece(self) -> Option<Piece> {
        match self {
            Move::Place { piece, .. } | Move::Move { piece, .. } => Some(piece),
            Move::Pass => None,
        }
    }

    /// The destination cell, if any.
    pub fn to(self) -> Option<Hex> {
        match self {
            Move::Place { to, .. } | Move::Move { to, .. } => Some(to),
            Move::Pass => None,
        }
    }
}

/// The result of a finished game.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Outcome {
    /// The given side won.
    Win(Color),
    /// Both Queens surrounded by the same move, or threefold repetition.
    Draw,
}

impl Outcome {
    /// The result when these Queens are surrounded: both is a draw, one
    /// loses, neither leaves the game going.
    fn of_surrounds(white: bool, black: bool) -> Option<Outcome> {
        match (white, black) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(Color::Black)),
            (false, true) => Some(Outcome::Win(Color::White)),
            (false, false) => None,
        }
    }
}

/// What a move destroys, kept to undo it.
#[derive(Copy, Clone, Debug)]
struct Undo {
    mv: Move,
    last_moved: u8,
    hash: u64,
    spawn_cells: ByColor<u16>,
}

/// Rule switches that are not part of the game type.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Rules {
    /// No Queen on a player's first turn (UHP default).
    pub tournament_opening: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            tournament_opening: true,
        }
    }
}

/// A Hive position together with the history of the game that led to it.
#[derive(Clone)]
pub struct Position {
    game_type: GameType,
    rules: Rules,
    top: [u8; CELLS],
    height: [u8; CELLS],
    /// For each cell, how many of its six neighbours have a White top piece
    /// (low byte) and a Black top piece (high byte). Kept incrementally; it
    /// answers placement legality and Queen surrounds without a scan.
    touching: [u16; CELLS],
    /// For each colour, the empty cells next to one of its top pieces and to
    /// no enemy top piece (where it may place from its second piece on),
    /// kept with `touching`: the evaluation counts them at every node.
    spawn_cells: ByColor<u16>,
    /// For each cell, its occupied neighbours as a ring mask (bit `d` for
    /// direction `d`). Kept incrementally; the slide tables of the move
    /// generator are indexed by it.
    ring: [u8; CELLS],
    /// The ground piece of each occupied cell (stale for empty cells). Ground
    /// pieces name the cells of the hive in the bitmasks below.
    bottom: [u8; CELLS],
    /// For each ground piece, the ground pieces of the occupied cells next to
    /// its cell: the hive's cell graph as bitmasks, kept incrementally.
    links: [u32; ID_SLOTS],
    /// The ground pieces, one per occupied cell.
    grounded: u32,
    /// The cell graph's edges less its triangles (three cells that touch
    /// each other), kept as cells are occupied and emptied: see
    /// [`Position::encloses_empty_cells`].
    edges_less_triangles: i16,
    below: [u8; ID_SLOTS],
    hex_of: [Hex; ID_SLOTS],
    /// Bit `i` set when piece `i` is on the board.
    on_board: u32,
    occupied: HexSet,
    /// Pieces of each bug type each side has placed so far.
    placed: ByColor<[u8; 8]>,
    ply: u32,
    hash: u64,
    last_moved: u8,
    history: Vec<Undo>,
    rep: Box<[u16; REP_FILTER]>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("game_type", &self.game_type)
            .field("ply", &self.ply)
            .field("hash", &format_args!("{:016x}", self.hash))
            .field(
                "pieces",
                &self
                    .pieces_on_board()
                    .map(|p| (p, self.hex_of[p.index()]))
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Position {
    /// The start position of a game.
    pub fn new(game_type: GameType, rules: Rules) -> Position {
        let mut pos = Position {
            game_type,
            rules,
            top: [NO_PIECE; CELLS],
            height: [0; CELLS],
            touching: [0; CELLS],
            spawn_cells: ByColor([0; 2]),
            ring: [0; CELLS],
            bottom: [NO_PIECE; CELLS],
            links: [0; ID_SLOTS],
            grounded: 0,
            edges_less_triangles: 0,
            below: [NO_PIECE; ID_SLOTS],
            hex_of: [Hex::ORIGIN; ID_SLOTS],
            on_board: 0,
            occupied: HexSet::new(),
            placed: ByColor([[0; 8]; 2]),
            ply: 0,
            hash: 0,
            last_moved: NO_PIECE,
            history: Vec::with_capacity(256),
            rep: Box::new([0; REP_FILTER]),
        };
        pos.hash = pos.compute_hash();
        pos.rep[pos.hash as usize & (REP_FILTER - 1)] = 1;
        pos
    }

    /// The game type.
    #[inline(always)]
    pub fn game_type(&self) -> GameType {
        self.game_type
    }

    /// The rule switches.
    #[inline(always)]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rule switches (they only affect moves generated from now on).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Plies played so far (a pass counts).
    #[inline(always)]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        if self.ply & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The side to move's turn number, 1-based (UHP's `n` in `White[n]`).
    #[inline(always)]
    pub fn turn(&self) -> u32 {
        self.ply / 2 + 1
    }

    /// The Zobrist hash of the position (pieces, stacks, side to move and, in
    /// games with the Pillbug, the piece that moved last).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The top piece of a cell.
    #[inline(always)]
    pub fn top(&self, hex: Hex) -> Option<Piece> {
        Piece::from_index(self.top[hex.index()] as usize)
    }

    /// Number of pieces stacked in a cell.
    #[inline(always)]
    pub fn height(&self, hex: Hex) -> u8 {
        self.height[hex.index()]
    }

    /// Stack heights of every cell, indexed by [`Hex::index`].
    #[inline(always)]
    pub fn heights(&self) -> &[u8; CELLS] {
        &self.height
    }

    /// The cell of piece id `i` (meaningful only while it is on the board).
    #[inline(always)]
    pub fn cell_of(&self, i: usize) -> Hex {
        self.hex_of[i]
    }

    /// The id of the top piece of a cell, or `0xFF` when empty.
    #[inline(always)]
    pub(super) fn top_id(&self, hex: Hex) -> u8 {
        self.top[hex.index()]
    }

    /// Whether a cell holds at least one piece.
    #[inline(always)]
    pub fn is_occupied(&self, hex: Hex) -> bool {
        self.height[hex.index()] != 0
    }

    /// The set of occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> &HexSet {
        &self.occupied
    }

    /// The cell of a piece on the board.
    #[inline(always)]
    pub fn hex_of(&self, piece: Piece) -> Option<Hex> {
        if self.is_on_board(piece) {
            Some(self.hex_of[piece.index()])
        } else {
            None
        }
    }

    /// Whether a piece is on the board.
    #[inline(always)]
    pub fn is_on_board(&self, piece: Piece) -> bool {
        self.on_board & (1 << piece.index()) != 0
    }

    /// The piece directly below `piece`, if it sits on a stack.
    #[inline(always)]
    pub fn below(&self, piece: Piece) -> Option<Piece> {
        Piece::from_index(self.below[piece.index()] as usize)
    }

    /// The pieces of a cell's stack, top first (nothing for an empty cell).
    pub fn stack(&self, hex: Hex) -> impl Iterator<Item = Piece> + '_ {
        std::iter::successors(self.top(hex), move |&p| self.below(p))
    }

    /// Whether `piece` is the top piece of its cell.
    #[inline(always)]
    pub fn is_top(&self, piece: Piece) -> bool {
        self.is_on_board(piece)
            && self.top[self.hex_of[piece.index()].index()] == piece.index() as u8
    }

    /// All pieces on the board.
    pub fn pieces_on_board(&self) -> impl Iterator<Item = Piece> + '_ {
        Piece::in_mask(self.on_board)
    }

    /// Bitmask (by piece id) of the pieces on the board.
    #[inline(always)]
    pub fn on_board_mask(&self) -> u32 {
        self.on_board
    }

    /// Bitmask (by piece id) of the pieces at the bottom of their cells, one
    /// per occupied cell.
    #[inline(always)]
    pub fn ground_pieces(&self) -> u32 {
        self.grounded
    }

    /// Bitmask (by piece id) of the pieces on top of their cells (nothing
    /// above them), one per occupied cell.
    #[inline(always)]
    pub fn top_pieces(&self) -> u32 {
        let covered = Piece::in_mask(self.on_board & !self.grounded)
            .fold(0u32, |covered, climber| {
                covered | 1 << self.below[climber.index()]
            });
        self.on_board & !covered
    }

    /// The piece moved (or placed) on the previous ply, if it may not move now.
    #[inline(always)]
    pub fn last_moved(&self) -> Option<Piece> {
        Piece::from_index(self.last_moved as usize)
    }

    /// How many pieces of `bug` `color` still has in hand.
    #[inline(always)]
    pub fn in_hand(&self, color: Color, bug: Bug) -> u8 {
        if self.game_type.has(bug) {
            bug.count() - self.placed[color][bug.index()]
        } else {
            0
        }
    }

    /// The next piece of `bug` that `color` would place, if any is left.
    #[inline(always)]
    pub fn next_in_hand(&self, color: Color, bug: Bug) -> Option<Piece> {
        if self.in_hand(color, bug) > 0 {
            Piece::new(color, bug, self.placed[color][bug.index()] + 1)
        } else {
            None
        }
    }

    /// The cell of `color`'s Queen, if she is on the board.
    #[inline(always)]
    pub fn queen(&self, color: Color) -> Option<Hex> {
        self.hex_of(queen_of(color))
    }

    /// Number of occupied cells around `hex`.
    #[inline(always)]
    pub fn occupied_neighbors(&self, hex: Hex) -> usize {
        let t = self.touching[hex.index()];
        ((t & 0xFF) + (t >> 8)) as usize
    }

    /// The occupied neighbours of `hex`: bit `d` set when the neighbour in
    /// direction `d` holds a piece.
    #[inline(always)]
    pub fn ring(&self, hex: Hex) -> u8 {
        self.ring[hex.index()]
    }

    /// Number of neighbours of `hex` whose top piece belongs to `color`.
    #[inline(always)]
    pub fn neighbors_topped_by(&self, hex: Hex, color: Color) -> usize {
        ((self.touching[hex.index()] >> (8 * color.index())) & 0xFF) as usize
    }

    /// Adds or removes one unit of the top piece's colour in the neighbour
    /// counts around `hex`. With `SPAWN`, also keeps the spawn cell counts:
    /// an empty cell changes sides only when this colour's count there
    /// leaves or reaches zero (`unmake` restores the counts instead).
    #[inline(always)]
    fn touch<const SPAWN: bool>(&mut self, hex: Hex, top: u8, add: bool) {
        if top == NO_PIECE {
            return;
        }
        let side = usize::from(top as usize >= NUM_PIECES / 2);
        let unit: u16 = 1 << (8 * side);
        let mut spawn = [0i32; 2];
        for n in hex.neighbors() {
            let i = n.index();
            let old = self.touching[i];
            let new = if add { old + unit } else { old - unit };
            self.touching[i] = new;
            if SPAWN {
                // This colour's count before an add, after a removal.
                let low = if add { old } else { new };
                if (low >> (8 * side)) & 0xFF == 0 && self.height[i] == 0 {
                    let sign = if add { 1 } else { -1 };
                    if (low >> (8 * (1 - side))) & 0xFF == 0 {
                        spawn[side] += sign;
                    } else {
                        spawn[1 - side] -= sign;
                    }
                }
            }
        }
        if SPAWN {
            self.add_spawn(spawn);
        }
    }

    /// Adds `delta` to the spawn cell counts of White and Black.
    #[inline(always)]
    fn add_spawn(&mut self, delta: [i32; 2]) {
        for (count, d) in self.spawn_cells.0.iter_mut().zip(delta) {
            *count = (i32::from(*count) + d) as u16;
        }
    }

    /// Whether `hex` is empty, next to a `color` top piece and to no enemy
    /// top piece: where `color` may place from the second ply on.
    #[inline(always)]
    pub fn is_spawn_cell(&self, hex: Hex, color: Color) -> bool {
        !self.is_occupied(hex)
            && self.neighbors_topped_by(hex, color) > 0
            && self.neighbors_topped_by(hex, color.opponent()) == 0
    }

    /// The number of cells where [`Position::is_spawn_cell`] holds for
    /// `color`, kept as moves are made.
    #[inline(always)]
    pub fn spawn_cell_count(&self, color: Color) -> usize {
        usize::from(self.spawn_cells[color])
    }

    /// The empty cells around `color`'s Queen (`None` while she is in
    /// hand): her liberties, 0 when she is surrounded.
    #[inline(always)]
    pub fn queen_free_cells(&self, color: Color) -> Option<usize> {
        self.queen(color).map(|q| 6 - self.occupied_neighbors(q))
    }

    /// Whether `color`'s Queen is surrounded on all six sides.
    #[inline(always)]
    pub fn queen_surrounded(&self, color: Color) -> bool {
        self.queen_free_cells(color) == Some(0)
    }

    /// The result by Queen surround alone (repetition is the game's business,
    /// see [`Position::is_threefold`]).
    pub fn surround_outcome(&self) -> Option<Outcome> {
        Outcome::of_surrounds(
            self.queen_surrounded(Color::White),
            self.queen_surrounded(Color::Black),
        )
    }

    /// The result by Queen surround that `mv` would give: what
    /// [`Position::surround_outcome`] says after [`Position::make`], without
    /// playing the move. A piece that leaves a cell empties it unless it
    /// stood on a stack; a Queen that moves (or is thrown) is asked about
    /// at her new cell.
    pub fn surround_outcome_after(&self, mv: Move) -> Option<Outcome> {
        let (piece, emptied, to) = match mv {
            Move::Pass => return self.surround_outcome(),
            Move::Place { piece, to } => (piece, None, to),
            Move::Move { piece, from, to } => (piece, (self.height(from) == 1).then_some(from), to),
        };
        let surrounded = |color: Color| {
            let queen = if piece.bug() == Bug::Queen && piece.color() == color {
                Some(to)
            } else {
                self.queen(color)
            };
            queen.is_some_and(|q| {
                let mut ring = self.ring(q) | q.bit_toward(to);
                if let Some(e) = emptied {
                    ring &= !q.bit_toward(e);
                }
                ring == 0x3F
            })
        };
        Outcome::of_surrounds(surrounded(Color::White), surrounded(Color::Black))
    }

    /// How many times the current position has occurred in this game,
    /// including now.
    pub fn repetitions(&self) -> usize {
        if self.rep[self.hash as usize & (REP_FILTER - 1)] < 2 {
            return 1;
        }
        1 + self.history.iter().filter(|u| u.hash == self.hash).count()
    }

    /// Whether the current position has occurred at least twice before.
    pub fn is_threefold(&self) -> bool {
        self.rep[self.hash as usize & (REP_FILTER - 1)] >= 3 && self.repetitions() >= 3
    }

    /// Whether the current position occurred before in this game at or after
    /// ply `since` (a cheap filter test first).
    pub fn repeated_since(&self, since: u32) -> bool {
        if self.rep[self.hash as usize & (REP_FILTER - 1)] < 2 {
            return false;
        }
        let since = since as usize;
        self.history.iter().skip(since).any(|u| u.hash == self.hash)
    }

    /// Reserves room for `additional` more moves in the game history, so a
    /// search of that depth never reallocates inside its tree walk.
    pub fn reserve_history(&mut self, additional: usize) {
        self.history.reserve(additional);
    }

    /// Recomputes the hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for p in self.pieces_on_board() {
            let hex = self.hex_of[p.index()];
            h ^= zobrist::piece_key(p.kind_index(), hex.index(), self.level_of(p));
        }
        if self.side_to_move() == Color::Black {
            h ^= zobrist::side_key();
        }
        if self.game_type.pillbug && self.last_moved != NO_PIECE {
            h ^= zobrist::last_moved_key(self.last_moved as usize);
        }
        h
    }

    /// Stack level of a piece on the board (0 = ground).
    fn level_of(&self, piece: Piece) -> usize {
        let mut level = 0;
        let mut b = self.below[piece.index()];
        while b != NO_PIECE {
            level += 1;
            b = self.below[b as usize];
        }
        level
    }

    #[inline(always)]
    fn put<const SPAWN: bool>(&mut self, piece: Piece, to: Hex) {
        let i = piece.index();
        let c = to.index();
        let level = self.height[c] as usize;
        let old_top = self.top[c];
        if SPAWN && level == 0 {
            let (w, b) = spawn_sides(self.touching[c]);
            self.add_spawn([-w, -b]);
        }
        if old_top == NO_PIECE || (old_top < 14) != (i < 14) {
            self.touch::<SPAWN>(to, old_top, false);
            self.touch::<SPAWN>(to, i as u8, true);
        }
        if level == 0 {
            self.link(to, i);
        }
        self.below[i] = old_top;
        self.top[c] = i as u8;
        self.height[c] += 1;
        self.hex_of[i] = to;
        self.occupied.insert(to);
        self.hash ^= zobrist::piece_key(piece.kind_index(), c, level);
    }

    #[inline(always)]
    fn lift<const SPAWN: bool>(&mut self, piece: Piece, from: Hex) {
        let i = piece.index();
        let c = from.index();
        debug_assert_eq!(self.top[c], i as u8);
        self.height[c] -= 1;
        let level = self.height[c] as usize;
        let new_top = self.below[i];
        if new_top == NO_PIECE || (new_top < 14) != (i < 14) {
            self.touch::<SPAWN>(from, i as u8, false);
            self.touch::<SPAWN>(from, new_top, true);
        }
        self.top[c] = new_top;
        self.below[i] = NO_PIECE;
        if self.height[c] == 0 {
            if SPAWN {
                let (w, b) = spawn_sides(self.touching[c]);
                self.add_spawn([w, b]);
            }
            self.occupied.remove(from);
            self.flip_ring(from);
            self.edges_less_triangles -=
                RING_EDGES_LESS_TRIANGLES[usize::from(self.ring[from.index()])];
            self.unlink(i);
        }
        self.hash ^= zobrist::piece_key(piece.kind_index(), c, level);
    }

    /// Flips `hex` in the rings of its neighbours (it became occupied or
    /// empty).
    #[inline(always)]
    fn flip_ring(&mut self, hex: Hex) {
        for d in Direction::ALL {
            self.ring[hex.neighbor(d).index()] ^= 1 << d.opposite().index();
        }
    }

    /// Ground piece `i` now occupies the empty cell `hex`.
    #[inline(always)]
    fn link(&mut self, hex: Hex, i: usize) {
        self.flip_ring(hex);
        self.edges_less_triangles += RING_EDGES_LESS_TRIANGLES[usize::from(self.ring[hex.index()])];
        self.bottom[hex.index()] = i as u8;
        let mut mine = 0;
        for n in hex.neighbors() {
            if self.height[n.index()] != 0 {
                let m = self.bottom[n.index()] as usize;
                mine |= 1 << m;
                self.links[m] |= 1 << i;
            }
        }
        self.links[i] = mine;
        self.grounded |= 1 << i;
    }

    /// Ground piece `i` left its cell, which is now empty.
    #[inline(always)]
    fn unlink(&mut self, i: usize) {
        let mut others = self.links[i];
        while others != 0 {
            let m = others.trailing_zeros() as usize;
            others &= others - 1;
            self.links[m] &= !(1 << i);
        }
        self.links[i] = 0;
        self.grounded &= !(1 << i);
    }

    /// Whether the occupied cell `hex` is the only link between two parts of
    /// the hive, so that emptying it would split the hive. A search over the
    /// cell graph from one neighbour that stops as soon as it has reached all
    /// the others.
    #[inline]
    pub fn splits_hive(&self, hex: Hex) -> bool {
        let v = self.bottom[hex.index()] as usize;
        let targets = self.links[v];
        if targets & targets.wrapping_sub(1) == 0 {
            return false; // at most one neighbour
        }
        let rest = self.grounded & !(1 << v);
        let mut reach = targets & targets.wrapping_neg();
        let mut frontier = reach;
        while frontier != 0 {
            let b = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = self.links[b] & rest & !reach;
            reach |= new;
            frontier |= new;
            if reach & targets == targets {
                return false;
            }
        }
        true
    }

    /// The cells that hold the hive together: every cell whose emptying
    /// would split the hive. Read off each cell's ring of neighbours where
    /// the hive encloses no empty cell ([`Position::encloses_empty_cells`]),
    /// else one iterative Hopcroft–Tarjan pass over the cell graph, linear
    /// in the number of cells.
    pub fn articulation_points(&self) -> HexSet {
        let mut out = HexSet::new();
        let mut cut = self.cut_pieces();
        while cut != 0 {
            let i = cut.trailing_zeros() as usize;
            cut &= cut - 1;
            out.insert(self.hex_of[i]);
        }
        out
    }

    /// Whether the hive encloses an empty region: a ring of cells around
    /// one or more empty cells.
    ///
    /// Counted by Euler's formula. The cell graph is a piece of the
    /// triangular lattice, drawn in the plane, so a connected one with V
    /// cells, E edges and T triangles (three cells that touch each other)
    /// has 1 + E − V − T faces besides the triangles and the outside: one
    /// around each enclosed empty region.
    ///
    /// Where it encloses none, a cell holds the hive together exactly when
    /// its neighbours form two runs or more around it: every empty cell
    /// around it is then outside, and a line from one gap between runs to
    /// another through the empty outside separates the runs.
    #[inline]
    pub fn encloses_empty_cells(&self) -> bool {
        self.grounded != 0
            && 1 + i32::from(self.edges_less_triangles) != self.grounded.count_ones() as i32
    }

    /// [`Position::articulation_points`] as a bit set of the ground pieces
    /// standing on them (bit = [`Piece::index`]), for callers that look
    /// pieces up rather than cells.
    pub fn cut_pieces(&self) -> u32 {
        if self.grounded.count_ones() < 3 {
            return 0;
        }
        if self.encloses_empty_cells() {
            return self.cut_pieces_by_search();
        }
        let mut split = 0u32;
        let mut rest = self.grounded;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let runs = RING_RUNS[usize::from(self.ring[self.hex_of[i].index()])];
            split |= u32::from(runs > 1) << i;
        }
        debug_assert_eq!(split, self.cut_pieces_by_search(), "{self:?}");
        split
    }

    /// [`Position::cut_pieces`] by one iterative Hopcroft–Tarjan pass over
    /// the cell graph (three cells or more).
    fn cut_pieces_by_search(&self) -> u32 {
        // Vertices are ground piece ids. In a depth-first search of an
        // undirected graph every edge off the tree joins a vertex to one of
        // its ancestors, and when a vertex is reached its visited neighbours
        // other than its parent are exactly those ancestors: so its low
        // value starts from them, and later edges to visited vertices lead
        // to descendants, which change nothing.
        let mut disc = [0u8; ID_SLOTS];
        let mut low = [0u8; ID_SLOTS];
        // The depth-first path: its vertices, and the neighbours each has
        // yet to try.
        let mut path = [0u8; ID_SLOTS];
        let mut todo = [0u32; ID_SLOTS];
        let root = self.grounded.trailing_zeros() as usize;
        let mut visited = 1u32 << root;
        path[0] = root as u8;
        todo[0] = self.links[root];
        let mut sp = 1;
        disc[root] = 1;
        low[root] = 1;
        let mut time = 1u8;
        let mut root_children = 0;
        let mut cut = 0u32;
        while sp > 0 {
            let v = path[sp - 1] as usize;
            let fresh = todo[sp - 1] & !visited;
            if fresh != 0 {
                let u = fresh.trailing_zeros() as usize;
                todo[sp - 1] = fresh & (fresh - 1);
                time += 1;
                disc[u] = time;
                let mut l = time;
                let mut ancestors = self.links[u] & visited & !(1 << v);
                while ancestors != 0 {
                    let a = ancestors.trailing_zeros() as usize;
                    ancestors &= ancestors - 1;
                    l = l.min(disc[a]);
                }
                low[u] = l;
                visited |= 1 << u;
                root_children += u32::from(sp == 1);
                path[sp] = u as u8;
                todo[sp] = self.links[u];
                sp += 1;
            } else {
                sp -= 1;
                if sp > 0 {
                    let p = path[sp - 1] as usize;
                    low[p] = low[p].min(low[v]);
                    // Always true at the root, which is settled below.
                    cut |= u32::from(low[v] >= disc[p]) << p;
                }
            }
        }
        // The root holds the hive together when it has two subtrees.
        if root_children < 2 {
            cut &= !(1 << root);
        }
        cut
    }

    #[inline(always)]
    fn set_last_moved(&mut self, piece: u8) {
        if self.game_type.pillbug {
            if self.last_moved != NO_PIECE {
                self.hash ^= zobrist::last_moved_key(self.last_moved as usize);
            }
            if piece != NO_PIECE {
                self.hash ^= zobrist::last_moved_key(piece as usize);
            }
        }
        self.last_moved = piece;
    }

    /// Plays a move without checking that it is legal (the search's and
    /// perft's entry point). Use [`Position::play`] for untrusted input.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        self.history.push(Undo {
            mv,
            last_moved: self.last_moved,
            hash: self.hash,
            spawn_cells: self.spawn_cells,
        });
        match mv {
            Move::Place { piece, to } => {
                self.on_board |= 1 << piece.index();
                self.placed[piece.color()][piece.bug().index()] += 1;
                self.put::<true>(piece, to);
                self.set_last_moved(piece.index() as u8);
            }
            Move::Move { piece, from, to } => {
                self.lift::<true>(piece, from);
                self.put::<true>(piece, to);
                self.set_last_moved(piece.index() as u8);
            }
            Move::Pass => self.set_last_moved(NO_PIECE),
        }
        self.ply += 1;
        self.hash ^= zobrist::side_key();
        self.rep[self.hash as usize & (REP_FILTER - 1)] += 1;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    #[inline]
    pub fn unmake(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        self.rep[self.hash as usize & (REP_FILTER - 1)] -= 1;
        self.ply -= 1;
        match undo.mv {
            Move::Place { piece, to } => {
                self.lift::<false>(piece, to);
                self.on_board &= !(1 << piece.index());
                self.placed[piece.color()][piece.bug().index()] -= 1;
            }
            Move::Move { piece, from, to } => {
                self.lift::<false>(piece, to);
                self.put::<false>(piece, from);
            }
            Move::Pass => {}
        }
        self.last_moved = undo.last_moved;
        self.hash = undo.hash;
        self.spawn_cells = undo.spawn_cells;
        #[cfg(debug_assertions)]
        self.assert_consistent();
        Some(undo.mv)
    }

    /// Plays a move after checking it against the legal moves.
    ///
    /// # Errors
    /// [`IllegalMove`] when the move is not legal here; the position is then
    /// unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let mut moves = super::movegen::MoveList::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            self.make(mv);
            Ok(())
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// Checks every internal invariant; panics on a violation. Run on every
    /// make and unmake in debug builds.
    pub fn assert_consistent(&self) {
        assert_eq!(self.hash, self.compute_hash(), "incremental hash drifted");
        let mut counted = [0u8; CELLS];
        for p in self.pieces_on_board() {
            counted[self.hex_of[p.index()].index()] += 1;
        }
        for (c, &count) in counted.iter().enumerate() {
            assert_eq!(count, self.height[c], "stack height at cell {c}");
            let hex = Hex::new(c as u16).expect("cell index on the grid");
            assert_eq!(self.occupied.contains(hex), self.height[c] > 0);
            if self.height[c] > 0 {
                let t = self.top[c] as usize;
                assert!(t < NUM_PIECES && self.hex_of[t] == hex);
            } else {
                assert_eq!(self.top[c], NO_PIECE);
            }
        }
        for c in 0..CELLS {
            let hex = Hex::new(c as u16).expect("cell index on the grid");
            for color in Color::ALL {
                let n = hex
                    .neighbors()
                    .iter()
                    .filter(|&&m| self.top(m).is_some_and(|t| t.color() == color))
                    .count();
                assert_eq!(n, self.neighbors_topped_by(hex, color), "touching counts");
            }
            let ring = Direction::ALL
                .iter()
                .filter(|&&d| self.is_occupied(hex.neighbor(d)))
                .fold(0u8, |m, d| m | 1 << d.index());
            assert_eq!(ring, self.ring(hex), "occupancy ring");
        }
        for color in Color::ALL {
            let spawn = (0..CELLS)
                .filter_map(|c| Hex::new(c as u16))
                .filter(|&h| self.is_spawn_cell(h, color))
                .count();
            assert_eq!(spawn, self.spawn_cell_count(color), "spawn cell count");
        }
        let mut grounded = 0u32;
        for hex in self.occupied.iter() {
            let b = self.bottom[hex.index()] as usize;
            assert!(b < NUM_PIECES && self.hex_of[b] == hex && self.below[b] == NO_PIECE);
            grounded |= 1 << b;
            let mut links = 0u32;
            for n in hex.neighbors() {
                if self.is_occupied(n) {
                    links |= 1 << self.bottom[n.index()];
                }
            }
            assert_eq!(links, self.links[b], "cell graph links");
        }
        assert_eq!(grounded, self.grounded, "ground pieces");
        for color in Color::ALL {
            for bug in self.game_type.bugs() {
                let on = (1..=bug.count())
                    .filter(|&n| Piece::new(color, bug, n).is_some_and(|p| self.is_on_board(p)))
                    .count() as u8;
                assert_eq!(on, self.placed[color][bug.index()], "{color:?} {bug:?}");
            }
        }
        assert!(self.is_connected(), "the hive is split");
    }

    /// Whether the occupied cells form one connected group.
    pub fn is_connected(&self) -> bool {
        let Some(start) = self.occupied.iter().next() else {
            return true;
        };
        let mut seen = HexSet::new();
        let mut stack = vec![start];
        seen.insert(start);
        while let Some(h) = stack.pop() {
            for n in h.neighbors() {
                if self.is_occupied(n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
        seen.len() == self.occupied.len()
    }
}

/// Whether an empty cell with the neighbour counts `touching` (White's in
/// the low byte, Black's in the high byte) is a spawn cell of White and of
/// Black, as 0 or 1: next to the side's top pieces and to none of the
/// enemy's.
#[inline(always)]
fn spawn_sides(touching: u16) -> (i32, i32) {
    let white = touching & 0xFF != 0;
    let black = touching >> 8 != 0;
    (i32::from(white && !black), i32::from(black && !white))
}

/// The Queen of a colour.
#[inline(always)]
pub fn queen_of(color: Color) -> Piece {
    match Piece::new(color, Bug::Queen, 1) {
        Some(p) => p,
        None => unreachable!("every side has one Queen"),
    }
}

/// A move that is not legal in the position it was tried in.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct IllegalMove(pub Move);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the position the move can't be written as a MoveString;
        // `notation::explain_illegal` gives the full reason.
        match self.0 {
            Move::Place { piece, .. } => write!(f, "{piece} can't be placed there"),
            Move::Move { piece, .. } => write!(f, "{piece} can't move there"),
            Move::Pass => f.write_str("you can't pass while you have a legal move"),
        }
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move>() <= 6);
    }
}
