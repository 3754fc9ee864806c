//! Static evaluation of a Hive position, from the side to move's view.
//!
//! Terms (weights and units in [`EvalWeights`]):
//!
//! * **Queen surround**: a growing penalty for each occupied cell around a
//!   Queen, plus extra for enemy pieces there that cannot leave and a credit
//!   for own pieces there that can (they may free the cell later).
//! * **Queen escape**: how many slides the Queen has.
//! * **Mobility**: each piece that is free to move (on top, not pinned by
//!   the One Hive rule, owner's Queen placed, and for sliders at least one
//!   slide) scores per insect; pinned or trapped pieces pay a penalty.
//! * **Stacks**: Beetles (and Mosquitoes) on top of the hive, more on the
//!   enemy Queen.
//! * **Attackers**: free Ants, Beetles and Grasshoppers within two cells of
//!   the enemy Queen; free Beetles next to her (they can climb on her),
//!   free Grasshoppers that can jump next to her, and her empty cells a
//!   slider can enter when the side has a free Ant.
//! * **Hand**: pieces not yet placed keep options open, and so do cells to
//!   place them on (counted up to six).
//! * **Expansions**: a free Pillbug next to its Queen guards her.
//! * **Tempo**.
//!
//! The piece terms are counted on bitmasks of piece ids (top pieces, free
//! ones, pinned ones), visiting only the pieces a term asks about; one
//! articulation-point pass; the placement cells are counted as moves are
//! made. No move generation.

use super::params::{EvalWeights, SPAWN_CELLS_MAX};
use super::{Score, MATE_BOUND};
use crate::hive::position::queen_of;
use crate::hive::{Bug, ByColor, Color, Hex, Piece, Position};

/// Evaluates `pos` with the weights the engine plays its game type with
/// ([`EvalWeights::for_game_type`]).
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, EvalWeights::for_game_type(pos.game_type()))
}

/// Evaluates `pos` with the given weights, in centi-liberties for the side to
/// move: within ±[`MAX_EVAL`], so that no weights, however large, make an
/// evaluation read as a mate score.
pub fn evaluate_with(pos: &Position, w: &EvalWeights) -> Score {
    let mut features = Features::default();
    features.extract(pos);
    features
        .score(w, pos.side_to_move())
        .clamp(-MAX_EVAL, MAX_EVAL)
}

/// The largest evaluation, below every mate score ([`MATE_BOUND`]).
pub const MAX_EVAL: Score = MATE_BOUND - 1;

/// The raw counts the evaluation weighs, per colour. Kept separate from the
/// weights so that the tuner can fit them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    /// Occupied cells around the Queen (`None` when she is in hand).
    pub queen_occupied: ByColor<Option<u8>>,
    /// Enemy pieces around the Queen that cannot move away.
    pub stuck_enemy_at_queen: ByColor<i32>,
    /// Own pieces around the Queen that can move away.
    pub free_own_at_queen: ByColor<i32>,
    /// Slides the Queen has (0 if pinned or covered).
    pub queen_slides: ByColor<i32>,
    /// Free pieces per bug.
    pub mobile: ByColor<[i32; 8]>,
    /// Pieces in hand per bug.
    pub in_hand: ByColor<[i32; 8]>,
    /// Pinned or trapped ground pieces per bug.
    pub pinned: ByColor<[i32; 8]>,
    /// Beetles and Mosquitoes on top of a stack.
    pub beetle_on_top: ByColor<i32>,
    /// Beetles and Mosquitoes on top of the enemy Queen.
    pub beetle_on_queen: ByColor<i32>,
    /// Free Pillbug next to the own Queen.
    pub pillbug_guard: ByColor<i32>,
    /// Free Ants, Beetles, Grasshoppers within two cells of the enemy Queen.
    pub attackers: ByColor<i32>,
    /// Cells the side could place on, up to [`SPAWN_CELLS_MAX`] (0 when it
    /// holds nothing).
    pub spawn_cells: ByColor<i32>,
    /// Free Grasshoppers that can jump next to the enemy Queen.
    pub hoppers_in: ByColor<i32>,
    /// Cells next to the enemy Queen a slider can enter, if the side has a
    /// free Ant.
    pub ant_open_liberties: ByColor<i32>,
    /// Free Beetles (and Mosquitoes on top) next to the enemy Queen.
    pub beetles_by_queen: ByColor<i32>,
}

impl Features {
    /// Counts the features of `pos` (overwriting `self`).
    pub fn extract(&mut self, pos: &Position) {
        *self = Features::default();
        let pinned = pos.cut_pieces();
        let queens = ByColor([pos.queen(Color::White), pos.queen(Color::Black)]);
        for color in Color::ALL {
            let mut holding = false;
            for bug in Bug::ALL {
                let n = pos.in_hand(color, bug);
                holding |= n > 0;
                self.in_hand[color][bug.index()] = i32::from(n);
            }
            if holding {
                self.spawn_cells[color] = pos.placement_count(color, SPAWN_CELLS_MAX) as i32;
            }
        }
        // The pieces as bitmasks by id: a top piece on the ground stands
        // alone in its cell (height 1), one off the ground is on a stack.
        let top = pos.top_pieces();
        let alone = top & pos.ground_pieces();
        let stacked = top & !alone;
        let mut queen_down = 0u32;
        for color in Color::ALL {
            if queens[color].is_some() {
                queen_down |= color.piece_mask();
            }
        }
        // Free: the owner's Queen is down, and the piece is on a stack or
        // holds no part of the hive together, and a slider alone in its
        // cell has a slide.
        let mut free = queen_down & (stacked | (alone & !pinned));
        let sliders = Bug::Queen.piece_mask()
            | Bug::Spider.piece_mask()
            | Bug::Ant.piece_mask()
            | Bug::Pillbug.piece_mask();
        for piece in Piece::in_mask(free & alone & sliders) {
            if pos.slide_count(pos.cell_of(piece.index())) == 0 {
                free &= !(1 << piece.index());
            }
        }
        tally(free, &mut self.mobile);
        tally(alone & !free, &mut self.pinned);
        for piece in Piece::in_mask(stacked) {
            self.beetle_on_top[piece.color()] += 1;
        }
        for color in Color::ALL {
            let own = color.piece_mask();
            let free_own = free & own;
            if let Some(q) = queens[color] {
                if free_own & alone & (1 << queen_of(color).index()) != 0 {
                    self.queen_slides[color] = pos.slide_count(q) as i32;
                }
                // A Pillbug next to her guards her unless the One Hive
                // rule pins it (it throws without sliding).
                for pillbug in Piece::in_mask(own & Bug::Pillbug.piece_mask() & alone & !pinned) {
                    if q.is_adjacent(pos.cell_of(pillbug.index())) {
                        self.pillbug_guard[color] += 1;
                    }
                }
            }
            let Some(q) = queens[color.opponent()] else {
                continue;
            };
            let attackers =
                Bug::Ant.piece_mask() | Bug::Beetle.piece_mask() | Bug::Grasshopper.piece_mask();
            for piece in Piece::in_mask(free_own & attackers) {
                let hex = pos.cell_of(piece.index());
                if q.within_two(hex) {
                    self.attackers[color] += 1;
                }
                if piece.bug() == Bug::Grasshopper && hops_next_to(pos, hex, q) {
                    self.hoppers_in[color] += 1;
                }
            }
            let climbers = Bug::Beetle.piece_mask() | (Bug::Mosquito.piece_mask() & stacked);
            for piece in Piece::in_mask(free_own & climbers) {
                if q.is_adjacent(pos.cell_of(piece.index())) {
                    self.beetles_by_queen[color] += 1;
                }
            }
            if pos.height(q) > 1 && pos.top(q).is_some_and(|p| p.color() == color) {
                self.beetle_on_queen[color] = 1;
            }
        }
        for color in Color::ALL {
            let Some(q) = queens[color] else { continue };
            let mut occupied = 0u8;
            let enemy_ant = self.mobile[color.opponent()][Bug::Ant.index()] > 0;
            for n in q.neighbors() {
                let Some(top) = pos.top(n) else {
                    if enemy_ant && pos.slide_count(n) > 0 {
                        self.ant_open_liberties[color.opponent()] += 1;
                    }
                    continue;
                };
                occupied += 1;
                let free = is_free(pos, pinned, n, top, queens[top.color()].is_some());
                if top.color() == color {
                    if free {
                        self.free_own_at_queen[color] += 1;
                    }
                } else if !free {
                    self.stuck_enemy_at_queen[color] += 1;
                }
            }
            self.queen_occupied[color] = Some(occupied);
        }
    }

    /// The weighted sum for `us`.
    pub fn score(&self, w: &EvalWeights, us: Color) -> Score {
        let them = us.opponent();
        // Every term is linear but the Queen's: weigh the difference
        // between the sides once instead of each side apart.
        let diff = |f: &ByColor<i32>| f[us] - f[them];
        let surround = |c: Color| {
            self.queen_occupied[c].map_or(0, |n| w.queen_surround[usize::from(n.min(5))])
        };
        let mut s = surround(them) - surround(us) + w.tempo;
        s -= w.stuck_enemy_at_queen * diff(&self.stuck_enemy_at_queen);
        s += w.free_own_at_queen * diff(&self.free_own_at_queen);
        s += w.queen_slide * diff(&self.queen_slides);
        for b in 0..8 {
            s += w.mobile[b] * (self.mobile[us][b] - self.mobile[them][b]);
            s += w.in_hand[b] * (self.in_hand[us][b] - self.in_hand[them][b]);
            s -= w.pinned[b] * (self.pinned[us][b] - self.pinned[them][b]);
        }
        s += w.beetle_on_top * diff(&self.beetle_on_top);
        s += w.beetle_on_queen * diff(&self.beetle_on_queen);
        s += w.pillbug_guard * diff(&self.pillbug_guard);
        s += w.attacker_near_queen * diff(&self.attackers);
        s += w.spawn_cell * diff(&self.spawn_cells);
        s += w.hopper_in * diff(&self.hoppers_in);
        s += w.ant_open_liberty * diff(&self.ant_open_liberties);
        s += w.beetle_by_queen * diff(&self.beetles_by_queen);
        s
    }
}

impl Features {
    /// The features as a vector matching [`EvalWeights::to_vec`], so that
    /// `score(w, us) == dot(w.to_vec(), to_vec(us))`.
    pub fn to_vec(&self, us: Color) -> Vec<i32> {
        let them = us.opponent();
        let mut v = vec![0; EvalWeights::LEN];
        for (c, sign) in [(us, 1), (them, -1)] {
            if let Some(n) = self.queen_occupied[c] {
                v[usize::from(n.min(5))] -= sign;
            }
            v[6] -= sign * self.stuck_enemy_at_queen[c];
            v[7] += sign * self.free_own_at_queen[c];
            v[8] += sign * self.queen_slides[c];
            for b in 0..8 {
                v[9 + b] += sign * self.mobile[c][b];
                v[17 + b] += sign * self.in_hand[c][b];
                v[25 + b] -= sign * self.pinned[c][b];
            }
            v[33] += sign * self.beetle_on_top[c];
            v[34] += sign * self.beetle_on_queen[c];
            v[35] += sign * self.pillbug_guard[c];
            v[36] += sign * self.attackers[c];
            v[37] += sign * self.spawn_cells[c];
            v[38] += sign * self.hoppers_in[c];
            v[39] += sign * self.ant_open_liberties[c];
            v[40] += sign * self.beetles_by_queen[c];
        }
        v[EvalWeights::TEMPO] = 1;
        v
    }
}

/// Whether `top`, the piece on top of `hex`, could move away (ignoring
/// trapped sliders); `pinned` is [`Position::cut_pieces`].
#[inline(always)]
fn is_free(pos: &Position, pinned: u32, hex: Hex, top: Piece, queen_down: bool) -> bool {
    queen_down && (pos.height(hex) > 1 || !is_cut(pinned, top))
}

/// Adds one to `counts` for each piece in `mask` (bit = [`Piece::index`]),
/// by its colour and bug. Adding bit by bit beats a popcount per bug: the
/// release build targets plain x86-64, whose popcount is a dozen
/// instructions.
#[inline(always)]
fn tally(mask: u32, counts: &mut ByColor<[i32; 8]>) {
    for piece in Piece::in_mask(mask) {
        // (colour, bug) as one index, `colour * 8 + bug`.
        let kind = piece.kind_index();
        counts.0[kind >> 3][kind & 7] += 1;
    }
}

/// Whether a Grasshopper at `from` can jump (over at least one piece) onto
/// an empty cell next to `queen`.
fn hops_next_to(pos: &Position, from: Hex, queen: Hex) -> bool {
    let mut next_to = false;
    pos.grasshopper_jumps(from, |to| next_to |= queen.is_adjacent(to));
    next_to
}

/// Whether `piece` is in `pinned` ([`Position::cut_pieces`]).
#[inline(always)]
fn is_cut(pinned: u32, piece: Piece) -> bool {
    pinned & (1 << piece.index()) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hive::game::Game;
    use crate::hive::Rules;

    fn pos(s: &str) -> Position {
        Game::from_game_string(s, Rules::default(), true)
            .expect("valid GameString")
            .position()
            .clone()
    }

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        for gt in [crate::hive::GameType::BASE, crate::hive::GameType::MLP] {
            let p = Position::new(gt, Rules::default());
            assert_eq!(evaluate(&p), EvalWeights::for_game_type(gt).tempo, "{gt}");
        }
    }

    #[test]
    fn no_weights_make_an_evaluation_a_mate_score() {
        // The start position scores its tempo weight alone.
        let p = Position::new(crate::hive::GameType::MLP, Rules::default());
        for (tempo, want) in [(1_000_000, MAX_EVAL), (-1_000_000, -MAX_EVAL), (77, 77)] {
            let w = EvalWeights {
                tempo,
                ..EvalWeights::DEFAULT
            };
            assert_eq!(evaluate_with(&p, &w), want, "{tempo}");
        }
    }

    #[test]
    fn a_crowded_queen_is_bad_for_her_owner() {
        // From a self-play game: the side to move surrounds the enemy Queen
        // next move.
        let p = pos("Base;InProgress;Black[19];wS1;bG1 wS1/;wA1 -wS1;bQ bG1-;wQ wS1\\;bS1 \\bG1;wA1 bQ/;bA1 -bS1;wA2 -wS1;bA1 /wA2;wA3 wA1-;bS1 \\wA3;wA3 bQ\\;bA2 \\bG1;wA3 bA2/;bA3 bS1-;wQ wA2\\;bA1 \\wA2;wS2 /wA2;bA3 wQ\\;wS2 bA3\\;bS2 \\bA1;wG1 wS2\\;bS2 /wA2;wG1 \\bA1;bG2 -bS2;wG2 wA3/;bG2 wS1\\;wG2 /bA2;bB1 /bS2;wG2 /bB1;bB2 bG2-;wG3 /wG2;bB2 bG2;wG3 /bA2;bB2 wQ;wG3 wA1\\");
        let mut f = Features::default();
        f.extract(&p);
        let us = p.side_to_move();
        let theirs = f.queen_occupied[us.opponent()].expect("placed");
        let ours = f.queen_occupied[us].expect("placed");
        assert_eq!(theirs, 5);
        assert!(ours < theirs);
        assert!(evaluate(&p) > 0);
    }

    #[test]
    fn a_free_beetle_next_to_the_enemy_queen_counts_for_its_owner() {
        // White's Beetle went over wG1 onto bG1, next to the Black Queen
        // (it could climb on her now); Black's Grasshopper is covered.
        let p = pos("Base;InProgress;White[6];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wB1 \\wG1;bA1 bQ-;wB1 wG1;bA2 bA1-;wB1 bG1;bA3 bA2-");
        let mut f = Features::default();
        f.extract(&p);
        assert_eq!(f.beetles_by_queen, ByColor([1, 0]));
        assert_eq!(f.hoppers_in, ByColor([0, 0]));
        let mut w = EvalWeights::DEFAULT;
        let before = evaluate_with(&p, &w);
        w.beetle_by_queen += 10;
        assert_eq!(evaluate_with(&p, &w), before + 10);
    }

    #[test]
    fn the_score_is_antisymmetric_but_for_tempo() {
        let p = pos("Base+MLP;InProgress;White[27];wA1;bM wA1/;wP -wA1;bS1 bM-;wQ /wP;bQ bS1-;wA2 wP\\;bS2 \\bM;wA3 wA1\\;bA1 \\bS1;wA3 bA1/;bS2 -wP;wQ /bS2;bL \\bS2;wA2 \\bL;bA2 -bA1;wM wP\\;bA2 wM\\;wA2 bL/;bA3 -bA1;bA2 wA1\\;bA3 /wM;bA2 bS2\\;bA3 wA1\\;wQ /bA2;bA3 /wQ;wM -bM;bG1 /bL;wA1 -bG1;bB1 bM\\;wA1 /bG1;bG2 -bL;wA2 bQ-;bL -wA1;wA2 \\bG2;bG3 -bL;wA2 bQ/;bG2 bG1\\;bA2 wM\\;bG1 wQ\\;wM \\bG3;bM bG1/;wB1 wA2-;bB2 -bA3;wA3 /bB2;bA1 wB1/;wB2 wB1\\;bP bM\\;wB2 wA2\\;bP bS2\\;wB2 bQ;bM wA1\\");
        let mut f = Features::default();
        f.extract(&p);
        let w = EvalWeights::DEFAULT;
        assert_eq!(
            f.score(&w, Color::White) + f.score(&w, Color::Black),
            2 * w.tempo
        );
        // The tuner's linear form agrees with the evaluation.
        let wv = w.to_vec();
        assert_eq!(EvalWeights::from_vec(&wv), Some(w.clone()));
        for us in Color::ALL {
            let dot: i32 = f.to_vec(us).iter().zip(&wv).map(|(a, b)| a * b).sum();
            assert_eq!(dot, f.score(&w, us));
        }
    }
}
