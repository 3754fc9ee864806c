//! Colours, insects, individual pieces and game types.
//!
//! Every piece of a game has a fixed [`Piece`] id in `0..28`:
//! `colour * 14 + slot`, where the slot follows Mzinga's listing order
//! `Q S1 S2 B1 B2 G1 G2 G3 A1 A2 A3 M L P`. Pieces of one bug type enter play in
//! number order, so "the next Spider to place" is always well defined.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A side.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `w` or `b`, as in MoveStrings.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `White` or `Black`, as in TurnStrings.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ids of this colour's pieces, as a bitmask (bit = [`Piece::index`]).
    #[inline(always)]
    pub const fn piece_mask(self) -> u32 {
        let side = (1u32 << PIECES_PER_SIDE) - 1;
        match self {
            Color::White => side,
            Color::Black => side << PIECES_PER_SIDE,
        }
    }
}

/// Per-colour data, indexed by [`Color`].
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c as usize]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// An insect type.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Bug {
    /// Queen Bee: one slide.
    Queen = 0,
    /// Spider: exactly three slides.
    Spider = 1,
    /// Beetle: one step, may climb.
    Beetle = 2,
    /// Grasshopper: jumps in a straight line.
    Grasshopper = 3,
    /// Soldier Ant: any number of slides.
    Ant = 4,
    /// Mosquito (expansion): copies its neighbours.
    Mosquito = 5,
    /// Ladybug (expansion): two steps on top, one down.
    Ladybug = 6,
    /// Pillbug (expansion): one slide, or moves a neighbour over itself.
    Pillbug = 7,
}

impl Bug {
    /// All bug types in slot order.
    pub const ALL: [Bug; 8] = [
        Bug::Queen,
        Bug::Spider,
        Bug::Beetle,
        Bug::Grasshopper,
        Bug::Ant,
        Bug::Mosquito,
        Bug::Ladybug,
        Bug::Pillbug,
    ];

    /// How many of this bug each side has.
    pub const fn count(self) -> u8 {
        match self {
            Bug::Queen | Bug::Mosquito | Bug::Ladybug | Bug::Pillbug => 1,
            Bug::Spider | Bug::Beetle => 2,
            Bug::Grasshopper | Bug::Ant => 3,
        }
    }

    /// The slot of this bug's first piece.
    pub const fn first_slot(self) -> u8 {
        match self {
            Bug::Queen => 0,
            Bug::Spider => 1,
            Bug::Beetle => 3,
            Bug::Grasshopper => 5,
            Bug::Ant => 8,
            Bug::Mosquito => 11,
            Bug::Ladybug => 12,
            Bug::Pillbug => 13,
        }
    }

    /// The upper-case letter used in MoveStrings.
    pub const fn letter(self) -> char {
        match self {
            Bug::Queen => 'Q',
            Bug::Spider => 'S',
            Bug::Beetle => 'B',
            Bug::Grasshopper => 'G',
            Bug::Ant => 'A',
            Bug::Mosquito => 'M',
            Bug::Ladybug => 'L',
            Bug::Pillbug => 'P',
        }
    }

    /// The insect's name in the rules, e.g. `Queen Bee`, `Soldier Ant`.
    pub const fn name(self) -> &'static str {
        match self {
            Bug::Queen => "Queen Bee",
            Bug::Spider => "Spider",
            Bug::Beetle => "Beetle",
            Bug::Grasshopper => "Grasshopper",
            Bug::Ant => "Soldier Ant",
            Bug::Mosquito => "Mosquito",
            Bug::Ladybug => "Ladybug",
            Bug::Pillbug => "Pillbug",
        }
    }

    /// The bug with this letter (either case).
    pub fn from_letter(c: char) -> Option<Bug> {
        Bug::ALL
            .into_iter()
            .find(|b| b.letter() == c.to_ascii_uppercase())
    }

    /// Index in `0..8`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this bug belongs to an expansion.
    pub const fn is_expansion(self) -> bool {
        matches!(self, Bug::Mosquito | Bug::Ladybug | Bug::Pillbug)
    }

    /// The ids of both colours' pieces of this bug, as a bitmask (bit =
    /// [`Piece::index`]).
    #[inline(always)]
    pub const fn piece_mask(self) -> u32 {
        let slots = ((1u32 << self.count()) - 1) << self.first_slot();
        slots | slots << PIECES_PER_SIDE
    }
}

/// Number of pieces per side with every expansion.
pub const PIECES_PER_SIDE: usize = 14;
/// Number of piece ids.
pub const NUM_PIECES: usize = 2 * PIECES_PER_SIDE;

/// Length of the tables indexed by piece id: the 28 ids padded to 32, so
/// that an id (always below 32, as [`Piece::index`] and the bits of a 32-bit
/// mask are) indexes them without a bounds check.
pub const ID_SLOTS: usize = 32;

/// The bug of each slot.
const SLOT_BUG: [Bug; PIECES_PER_SIDE] = [
    Bug::Queen,
    Bug::Spider,
    Bug::Spider,
    Bug::Beetle,
    Bug::Beetle,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Ant,
    Bug::Ant,
    Bug::Ant,
    Bug::Mosquito,
    Bug::Ladybug,
    Bug::Pillbug,
];

/// The bug of each piece id (padded to [`ID_SLOTS`]), so that no modulo is
/// needed.
const ID_BUG: [Bug; ID_SLOTS] = {
    let mut t = [Bug::Queen; ID_SLOTS];
    let mut i = 0;
    while i < 2 * PIECES_PER_SIDE {
        t[i] = SLOT_BUG[i % PIECES_PER_SIDE];
        i += 1;
    }
    t
};

/// [`Piece::kind_index`] by piece id: colour · 8 + bug (padded to
/// [`ID_SLOTS`]).
const KIND_INDEX: [u8; ID_SLOTS] = {
    let mut t = [0u8; ID_SLOTS];
    let mut i = 0;
    while i < 2 * PIECES_PER_SIDE {
        t[i] = ((i / PIECES_PER_SIDE) * 8 + SLOT_BUG[i % PIECES_PER_SIDE] as usize) as u8;
        i += 1;
    }
    t
};

/// One physical piece, such as `wS2`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The `number`-th (1-based) piece of `bug` for `color`, if it exists.
    pub const fn new(color: Color, bug: Bug, number: u8) -> Option<Piece> {
        if number == 0 || number > bug.count() {
            return None;
        }
        Some(Piece(
            color as u8 * PIECES_PER_SIDE as u8 + bug.first_slot() + number - 1,
        ))
    }

    /// The piece with this id (`0..28`).
    pub const fn from_index(i: usize) -> Option<Piece> {
        if i < NUM_PIECES {
            Some(Piece(i as u8))
        } else {
            None
        }
    }

    /// The id of this piece, `0..28`. (Masked to [`ID_SLOTS`], though every
    /// id is below 28 already, so that tables of that length need no bounds
    /// check.)
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize & (ID_SLOTS - 1)
    }

    /// The pieces whose ids are the bits of `mask` (bit = [`Piece::index`]),
    /// lowest id first.
    #[inline(always)]
    pub fn in_mask(mut mask: u32) -> impl Iterator<Item = Piece> {
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Piece::from_index(i)
        })
    }

    /// The owner.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self.0 as usize) < PIECES_PER_SIDE {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The insect.
    #[inline(always)]
    pub const fn bug(self) -> Bug {
        ID_BUG[self.index()]
    }

    /// The piece's number among its colour's pieces of the same bug (1-based).
    pub const fn number(self) -> u8 {
        (self.0 as usize % PIECES_PER_SIDE) as u8 - self.bug().first_slot() + 1
    }

    /// Index of (colour, bug) in `0..16`, used for hashing and move
    /// ordering (a table lookup: move ordering asks for every move).
    #[inline(always)]
    pub const fn kind_index(self) -> usize {
        KIND_INDEX[self.index()] as usize
    }
}

impl fmt::Display for Piece {
    /// The UHP piece name, e.g. `wQ`, `bA3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bug = self.bug();
        write!(f, "{}{}", self.color().letter(), bug.letter())?;
        if bug.count() > 1 {
            write!(f, "{}", self.number())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Which expansion pieces are in the game.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct GameType {
    /// Mosquito in play.
    pub mosquito: bool,
    /// Ladybug in play.
    pub ladybug: bool,
    /// Pillbug in play.
    pub pillbug: bool,
}

impl GameType {
    /// The five-insect base game.
    pub const BASE: GameType = GameType {
        mosquito: false,
        ladybug: false,
        pillbug: false,
    };
    /// All three expansions.
    pub const MLP: GameType = GameType {
        mosquito: true,
        ladybug: true,
        pillbug: true,
    };

    /// Whether `bug` is part of this game.
    #[inline(always)]
    pub const fn has(self, bug: Bug) -> bool {
        match bug {
            Bug::Mosquito => self.mosquito,
            Bug::Ladybug => self.ladybug,
            Bug::Pillbug => self.pillbug,
            _ => true,
        }
    }

    /// The bug types of this game in slot order.
    pub fn bugs(self) -> impl Iterator<Item = Bug> {
        Bug::ALL.into_iter().filter(move |&b| self.has(b))
    }

    /// Parses one of the eight canonical GameTypeStrings (`Base`, `Base+M`, …,
    /// `Base+MLP`); anything else is rejected.
    pub fn parse(s: &str) -> Option<GameType> {
        let rest = s.strip_prefix("Base")?;
        if rest.is_empty() {
            return Some(GameType::BASE);
        }
        let letters = rest.strip_prefix('+')?;
        let gt = GameType {
            mosquito: letters.contains('M'),
            ladybug: letters.contains('L'),
            pillbug: letters.contains('P'),
        };
        // Only the canonical order, each letter once, at least one letter.
        if !letters.is_empty() && gt.to_string() == s {
            Some(gt)
        } else {
            None
        }
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        if self.mosquito || self.ladybug || self.pillbug {
            f.write_str("+")?;
            if self.mosquito {
                f.write_str("M")?;
            }
            if self.ladybug {
                f.write_str("L")?;
            }
            if self.pillbug {
                f.write_str("P")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_index_is_colour_then_bug() {
        let mut seen = [0; 16];
        for i in 0..NUM_PIECES {
            let p = Piece::from_index(i).unwrap();
            assert_eq!(p.kind_index(), p.color() as usize * 8 + p.bug() as usize);
            seen[p.kind_index()] += 1;
        }
        // Every (colour, bug) pair has its own index.
        assert!(seen.iter().all(|&n| n >= 1));
    }

    #[test]
    fn piece_ids_round_trip() {
        for i in 0..NUM_PIECES {
            let p = Piece::from_index(i).unwrap();
            assert_eq!(Piece::new(p.color(), p.bug(), p.number()), Some(p));
        }
        assert_eq!(
            Piece::new(Color::Black, Bug::Ant, 3).unwrap().to_string(),
            "bA3"
        );
        assert_eq!(
            Piece::new(Color::White, Bug::Queen, 1).unwrap().to_string(),
            "wQ"
        );
        assert!(Piece::new(Color::White, Bug::Queen, 2).is_none());
    }

    #[test]
    fn game_types_are_canonical() {
        for s in [
            "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP",
        ] {
            assert_eq!(GameType::parse(s).unwrap().to_string(), s);
        }
        for s in [
            "Base+", "Base+PLM", "Base+MM", "base", " Base", "Base+X", "Base+ML ",
        ] {
            assert!(GameType::parse(s).is_none(), "{s}");
        }
    }
}
