//! Search tests that do not depend on playing strength: exactness against
//! a plain negamax oracle, Queen-surround tactics, a forced block, and
//! reproducibility.
//!
//! The tactical positions come from Waggle's own self-play games (the same
//! games as `bench-positions/bench.txt`), cut one and three plies before the
//! winning surround, and at moves where nearly every move lets the opponent
//! surround at once. The surrounds in three come from semi-greedy games
//! (`examples/probe_deep.rs`).

use std::sync::atomic::AtomicBool;
use waggle::engine::{evaluate, Engine, EngineOptions, Limits, Score, MATE};
use waggle::hive::game::Game;
use waggle::hive::{Move, MoveList, Outcome, Position, Rules};

/// The side to move surrounds the enemy Queen with its next move.
const WIN_IN_1: &[&str] = &[
    "Base;InProgress;Black[19];wS1;bG1 wS1/;wA1 -wS1;bQ bG1-;wQ wS1\\;bS1 \\bG1;wA1 bQ/;bA1 -bS1;wA2 -wS1;bA1 /wA2;wA3 wA1-;bS1 \\wA3;wA3 bQ\\;bA2 \\bG1;wA3 bA2/;bA3 bS1-;wQ wA2\\;bA1 \\wA2;wS2 /wA2;bA3 wQ\\;wS2 bA3\\;bS2 \\bA1;wG1 wS2\\;bS2 /wA2;wG1 \\bA1;bG2 -bS2;wG2 wA3/;bG2 wS1\\;wG2 /bA2;bB1 /bS2;wG2 /bB1;bB2 bG2-;wG3 /wG2;bB2 bG2;wG3 /bA2;bB2 wQ;wG3 wA1\\",
    "Base;InProgress;Black[19];wG1;bG1 -wG1;wA1 wG1-;bQ \\bG1;wQ \\wA1;bB1 /bG1;wA1 -bQ;bA1 /bB1;wA1 -bA1;bA2 bB1\\;wA2 wG1\\;bA2 wA2-;wA3 \\wQ;bA2 wA3/;wA2 -bQ;bA3 bB1\\;wA2 bA3\\;bG2 /bQ;wS1 \\wA1;bG2 wQ\\;wS1 -bQ;bB2 bG2-;wS2 -wS1;bB2 bG2/;wS2 -wA3;bB2 wQ;wA1 -wS2;bA1 bG1\\;wG1 bG2-;bS1 /bB2;wS2 bA2/;bA1 \\wG1;wA2 bA3-;bG3 -bB1;wG1 wS1\\;bQ /wA3;wA1 -wA3",
    "Base;InProgress;White[21];wG1;bB1 \\wG1;wQ wG1-;bS1 \\bB1;wA1 /wG1;bQ \\bS1;wA2 wA1\\;bS2 bB1/;wA2 bS2/;bQ -wA2;wA1 \\bQ;bS2 wQ-;wA3 -wA1;bA1 bS2/;wA3 /wA1;bA2 bA1\\;wS1 -wA1;bA2 \\wS1;wS2 wA2/;bA1 wA2\\;wB1 wA1/;bA2 \\wB1;wS1 \\bA2;bA3 bS2-;wG2 \\wS2;bG1 bS2\\;wG2 /bA2;bA3 wG1\\;wB1 -wS2;bB2 bG1/;wG3 wS2/;bA3 \\wG3;wS1 /bA3;bA3 wG3/;wS2 bA3-;bG2 \\bB2;wB2 wS1\\;bG2 wQ\\;wB2 wA2;bG1 bA1\\",
    "Base+MLP;InProgress;White[35];wA1;bM wA1/;wP -wA1;bS1 bM-;wQ /wP;bQ bS1-;wA2 wP\\;bS2 \\bM;wA3 wA1\\;bA1 \\bS1;wA3 bA1/;bS2 -wP;wQ /bS2;bL \\bS2;wA2 \\bL;bA2 -bA1;wM wP\\;bA2 wM\\;wA2 bL/;bA3 -bA1;bA2 wA1\\;bA3 /wM;bA2 bS2\\;bA3 wA1\\;wQ /bA2;bA3 /wQ;wM -bM;bG1 /bL;wA1 -bG1;bB1 bM\\;wA1 /bG1;bG2 -bL;wA2 bQ-;bL -wA1;wA2 \\bG2;bG3 -bL;wA2 bQ/;bG2 bG1\\;bA2 wM\\;bG1 wQ\\;wM \\bG3;bM bG1/;wB1 wA2-;bB2 -bA3;wA3 /bB2;bA1 wB1/;wB2 wB1\\;bP bM\\;wB2 wA2\\;bP bS2\\;wB2 bQ;bM wA1\\;bP wP\\;bA3 /bP;wP bS2/;bA1 -wA2;wG1 wA2\\;bA1 -bS2;wA2 \\bA1;bG1 -bS1;wG2 -wB1;bB1 bS1;wB2 bQ\\;bB1 bG1\\;wA3 -wG2;bG2 \\wA2;wG3 wG1\\;bB2 bM\\",
    "Base+MLP;InProgress;White[22];wP;bS1 -wP;wB1 wP-;bS2 \\bS1;wQ wP\\;bQ /bS2;wA1 \\wB1;bS2 wA1/;wA2 wQ\\;bM bS2-;wA2 \\bQ;bM -bS2;wB1 /bM;bM -wB1;wA3 wA1\\;bS1 wQ\\;wA3 /bQ;bA1 bS1-;wG1 wA1\\;bA1 /wP;wG1 -bS2;bA1 bS2\\;wG2 -wA3;bA1 /wP;wA1 /bA1;bA2 /bS1;wA1 /bA2;bL /bA1;wA2 -bQ;bA3 bS1-;wG2 bQ\\;bM bQ;wA1 -wB1;bM wA1;bA1 wG1\\;bS2 \\bA3;bA1 bM\\;bA3 wG1-;wB2 /wA2;bL wA3\\;wB2 wA2;bA2 /wQ",
    "Base+M;InProgress;Black[19];wM;bS1 wM/;wA1 -wM;bS2 bS1-;wQ wM\\;bQ \\bS1;wA1 bS2/;bA1 bS2\\;wA1 -bQ;bA1 /wQ;wA2 -wM;bS2 wQ\\;wA3 \\wA1;bG1 bA1\\;wA3 \\bQ;bG1 bS2/;wB1 -wA3;bA2 bS2\\;wA2 bA2\\;bA3 bG1\\;wA1 bA3-;bG2 bA1\\;wB1 /wA3;bG2 /wM;wG1 -wA3;bM bA1\\;wA3 /bM;bB1 bS1-;wA3 bB1/;bM wA3/;wG2 /wB1;bG3 bM/;wA2 bG3/;bA2 -wA3;wA1 bB1\\;bB1 wA1;wG2 \\bQ",
    "Base+P;InProgress;White[15];wP;bS1 wP/;wA1 -wP;bS2 bS1-;wQ wP\\;bQ \\bS1;wA1 bS2/;bA1 bS2\\;wA1 bQ/;bA1 /wQ;wA2 -wP;bS2 wQ\\;wA3 wA1-;bA1 wA3/;wB1 \\wA1;bB1 bS2-;wA2 -bQ;bB1 bS2/;wB1 wA1;bA2 /bS2;wB1 bQ;bA2 /wP;wB2 -wA1;bA3 -bA2;wA2 wA1\\;bB2 bB1\\;wG1 /wB2;bA3 bA2\\",
];

/// The side to move surrounds the enemy Queen with its second move (three plies); not all of these are forced.
const WIN_IN_2: &[&str] = &[
    "Base;InProgress;Black[18];wS1;bG1 wS1/;wA1 -wS1;bQ bG1-;wQ wS1\\;bS1 \\bG1;wA1 bQ/;bA1 -bS1;wA2 -wS1;bA1 /wA2;wA3 wA1-;bS1 \\wA3;wA3 bQ\\;bA2 \\bG1;wA3 bA2/;bA3 bS1-;wQ wA2\\;bA1 \\wA2;wS2 /wA2;bA3 wQ\\;wS2 bA3\\;bS2 \\bA1;wG1 wS2\\;bS2 /wA2;wG1 \\bA1;bG2 -bS2;wG2 wA3/;bG2 wS1\\;wG2 /bA2;bB1 /bS2;wG2 /bB1;bB2 bG2-;wG3 /wG2;bB2 bG2;wG3 /bA2",
    "Base;InProgress;Black[18];wG1;bG1 -wG1;wA1 wG1-;bQ \\bG1;wQ \\wA1;bB1 /bG1;wA1 -bQ;bA1 /bB1;wA1 -bA1;bA2 bB1\\;wA2 wG1\\;bA2 wA2-;wA3 \\wQ;bA2 wA3/;wA2 -bQ;bA3 bB1\\;wA2 bA3\\;bG2 /bQ;wS1 \\wA1;bG2 wQ\\;wS1 -bQ;bB2 bG2-;wS2 -wS1;bB2 bG2/;wS2 -wA3;bB2 wQ;wA1 -wS2;bA1 bG1\\;wG1 bG2-;bS1 /bB2;wS2 bA2/;bA1 \\wG1;wA2 bA3-;bG3 -bB1;wG1 wS1\\",
    "Base;InProgress;White[20];wG1;bB1 \\wG1;wQ wG1-;bS1 \\bB1;wA1 /wG1;bQ \\bS1;wA2 wA1\\;bS2 bB1/;wA2 bS2/;bQ -wA2;wA1 \\bQ;bS2 wQ-;wA3 -wA1;bA1 bS2/;wA3 /wA1;bA2 bA1\\;wS1 -wA1;bA2 \\wS1;wS2 wA2/;bA1 wA2\\;wB1 wA1/;bA2 \\wB1;wS1 \\bA2;bA3 bS2-;wG2 \\wS2;bG1 bS2\\;wG2 /bA2;bA3 wG1\\;wB1 -wS2;bB2 bG1/;wG3 wS2/;bA3 \\wG3;wS1 /bA3;bA3 wG3/;wS2 bA3-;bG2 \\bB2;wB2 wS1\\;bG2 wQ\\",
    "Base+MLP;InProgress;White[34];wA1;bM wA1/;wP -wA1;bS1 bM-;wQ /wP;bQ bS1-;wA2 wP\\;bS2 \\bM;wA3 wA1\\;bA1 \\bS1;wA3 bA1/;bS2 -wP;wQ /bS2;bL \\bS2;wA2 \\bL;bA2 -bA1;wM wP\\;bA2 wM\\;wA2 bL/;bA3 -bA1;bA2 wA1\\;bA3 /wM;bA2 bS2\\;bA3 wA1\\;wQ /bA2;bA3 /wQ;wM -bM;bG1 /bL;wA1 -bG1;bB1 bM\\;wA1 /bG1;bG2 -bL;wA2 bQ-;bL -wA1;wA2 \\bG2;bG3 -bL;wA2 bQ/;bG2 bG1\\;bA2 wM\\;bG1 wQ\\;wM \\bG3;bM bG1/;wB1 wA2-;bB2 -bA3;wA3 /bB2;bA1 wB1/;wB2 wB1\\;bP bM\\;wB2 wA2\\;bP bS2\\;wB2 bQ;bM wA1\\;bP wP\\;bA3 /bP;wP bS2/;bA1 -wA2;wG1 wA2\\;bA1 -bS2;wA2 \\bA1;bG1 -bS1;wG2 -wB1;bB1 bS1;wB2 bQ\\;bB1 bG1\\;wA3 -wG2;bG2 \\wA2",
    "Base+MLP;InProgress;White[21];wP;bS1 -wP;wB1 wP-;bS2 \\bS1;wQ wP\\;bQ /bS2;wA1 \\wB1;bS2 wA1/;wA2 wQ\\;bM bS2-;wA2 \\bQ;bM -bS2;wB1 /bM;bM -wB1;wA3 wA1\\;bS1 wQ\\;wA3 /bQ;bA1 bS1-;wG1 wA1\\;bA1 /wP;wG1 -bS2;bA1 bS2\\;wG2 -wA3;bA1 /wP;wA1 /bA1;bA2 /bS1;wA1 /bA2;bL /bA1;wA2 -bQ;bA3 bS1-;wG2 bQ\\;bM bQ;wA1 -wB1;bM wA1;bA1 wG1\\;bS2 \\bA3;bA1 bM\\;bA3 wG1-;wB2 /wA2;bL wA3\\",
    "Base+M;InProgress;Black[18];wM;bS1 wM/;wA1 -wM;bS2 bS1-;wQ wM\\;bQ \\bS1;wA1 bS2/;bA1 bS2\\;wA1 -bQ;bA1 /wQ;wA2 -wM;bS2 wQ\\;wA3 \\wA1;bG1 bA1\\;wA3 \\bQ;bG1 bS2/;wB1 -wA3;bA2 bS2\\;wA2 bA2\\;bA3 bG1\\;wA1 bA3-;bG2 bA1\\;wB1 /wA3;bG2 /wM;wG1 -wA3;bM bA1\\;wA3 /bM;bB1 bS1-;wA3 bB1/;bM wA3/;wG2 /wB1;bG3 bM/;wA2 bG3/;bA2 -wA3;wA1 bB1\\",
    "Base+P;InProgress;White[14];wP;bS1 wP/;wA1 -wP;bS2 bS1-;wQ wP\\;bQ \\bS1;wA1 bS2/;bA1 bS2\\;wA1 bQ/;bA1 /wQ;wA2 -wP;bS2 wQ\\;wA3 wA1-;bA1 wA3/;wB1 \\wA1;bB1 bS2-;wA2 -bQ;bB1 bS2/;wB1 wA1;bA2 /bS2;wB1 bQ;bA2 /wP;wB2 -wA1;bA3 -bA2;wA2 wA1\\;bB2 bB1\\",
];

/// The side to move surrounds the enemy Queen with its third move (five
/// plies), whatever the defence, and no sooner: the 7th, 8th, 1st and 2nd
/// positions of `cargo run --release --example probe_deep -- win 12 1`. A
/// search that took one ply off nodes without a table move (internal
/// iterative reduction from depth 4) missed the first two at depth 5. The
/// last three come from a draft of `tactics_sweep -- in3` (seeds 2 and 3,
/// 16 MiB table, no contempt); their second move is quiet (it fills no cell
/// around the enemy Queen, down to one free cell, but lets a piece reach
/// that cell), and late-move pruning dropped it until it kept such threats:
/// all three were missed at depth 5. The last one comes from
/// `tactics_sweep -- 100 6 in3`: the defender, left one free cell and no
/// move, must pass. After the winning first move the defender's node,
/// without a table move, was reduced from depth 4 to 3 (internal iterative
/// reduction) and so came within reach of reverse futility pruning, whose
/// static evaluation cannot see the surround: missed at depth 5 until the
/// reduction came after the pruning.
const WIN_IN_3: &[&str] = &[
    r"Base+MLP;InProgress;Black[47];wB1;bA1 -wB1;wL wB1-;bL \bA1;wM wB1\;bM /bL;wQ wM\;bQ bL/;wL bQ\;bG1 /bM;wL bM\;bM wQ-;wP /wQ;bG2 bM/;wB2 wB1/;bG2 wQ\;wB2 wM/;bG3 -bG1;wP /bG2;bP -bL;wG1 /wP;bG3 bA1\;wB1 bQ\;bS1 -bQ;wB1 bQ-;bS1 wB1/;wA1 /wG1;bA2 bS1-;wG2 /wA1;bA2 /wQ;wS1 wB2/;bG1 wB2\;bG2 /bA2;bS2 /bP;wL bQ\;bQ -bS1;wA2 /wG2;bG1 /bA1;wA2 \bS1;bQ -wA2;wG3 wA1\;bA3 bP\;wS2 wG1\;bG1 wB2\;wA1 /bG3;bA3 wQ\;wP wS2/;bB1 -bP;wA1 -wG2;bA3 \bQ;wA1 /bA3;bB2 bA3/;wA3 /wG2;bB1 bS2;wA3 bQ\;bB1 /bS2;wA3 wP\;bM bG3\;wA1 wG3\;bB2 bA3;wQ bA2-;bG1 /bA1;wA1 bQ\;bB2 \bA3;wA3 /bQ;bS1 wS1-;wA3 /bA3;bB1 -bS2;wP wS2-;bB2 -bA3;wA3 bA3/;bG1 wB2\;wA3 \wA2;bQ -wA1;wP wS2\;bQ /wA1;wB1 wL;bS1 bG1\;wM wS1/;bB2 bA3;wM bS1/;bB2 \wA3;wB1 wA1\;bQ -wA1;wS1 wA2\;bA3 wQ\;wB2 \wM;bG1 bS1\;wB2 wM/;bB1 bS2;wG2 wP-;bB1 bS2\;wS1 wL\",
    r"Base;InProgress;Black[60];wA1;bA1 /wA1;wG1 \wA1;bA2 bA1\;wS1 -wG1;bS1 bA2-;wQ wA1-;bQ bS1\;wG2 \wS1;bG1 /bA1;wS2 wG1/;bG1 wS2\;wQ bG1-;bG2 bS1/;wB1 \wS2;bB1 /bA2;wG3 /wS1;bA3 /bB1;wB1 wS2;bA3 wQ-;wB2 wB1/;bS2 bB1\;wB2 \wB1;bG3 /bA1;wG3 /wB2;bG3 \wQ;wG3 /wS1;bB2 bA3\;wA2 /wG2;bB2 wQ\;wA2 bQ\;bA1 \bA3;wA1 /bQ;bG1 \wB2;wQ -bB2;bQ wA2/;wA3 wA2\;bG1 wB1\;wQ wG1\;bG1 /wG2;wA3 bQ\;bQ wA3/;wB2 wB1;bG1 wG3\;wB2 \wB1;bQ \wA3;wB2 -wB1;bQ wA3/;wB2 wG2/;bG1 /wG2;wB2 wG2;bG1 wB1\;wQ bG1\;bA1 wG1\;wB2 -wB1;bA3 bG3\;wB2 wG1;bA1 wA1\;wQ wB2\;bA1 wS1\;wQ bA1\;bA3 /wQ;wB2 -wB1;bG3 wG1\;wG1 wG3\;bB2 bG2-;wG1 /wG2;bQ wA3-;wB1 wS2/;bB2 bG2/;wB2 wG2/;bQ wA3\;wB2 -wS2;bG1 -wB1;wG3 \wB1;bG1 wB1-;wG1 \wB2;bA3 bB2-;wG2 wB1\;bA3 /bA1;wG2 \wG3;bQ wA3-;wG2 wB1\;bA3 bG1\;wG2 /wG1;bA3 /bA1;wG2 wB1\;bA3 /wQ;wG2 /wG1;bB2 bG2-;wG1 wB2\;bG1 /wG3;wB2 wG1;bQ wA3\;wG3 wB1\;bG1 wG3/;wB2 wS1;bB2 bG2/;wB2 /wG2;bB2 bG2-;wG3 \wB1;bA3 /bA1;wG2 /wB2;bB2 bG2\;wG2 \wS1;bB2 bG2;wG3 wB1\;bB2 bG3\;wB2 -wG2;bA3 bG1\;wQ /bA1;bA3 wQ\;wB1 \wS2;bG2 bA1\;wB2 \wG2;bG3 /wS1;wB1 wS2;bS1 \wA3;wB1 -wS2",
    r"Base+MLP;InProgress;Black[18];wL;bL /wL;wB1 \wL;bG1 /bL;wB2 wL/;bP bL\;wQ -wB1;bQ bP\;wS1 wB2/;bB1 /bG1;wA1 wB2\;bA1 /bB1;wA1 bQ-;bA1 \wQ;wA1 -bA1;bM -bG1;wA1 bQ\;bA2 /bB1;wS2 wA1\;bA2 wQ\;wL bQ/;bG2 bA1/;wS2 bG1\;bS1 /bM;wA1 wB1\;bQ wL\;wB1 wB2;bG2 /bA1;wS2 bQ\;bS2 \bA1;wP wB1\;bS2 -wB1;wG1 wS2\;bG3 \bA1;wM \wS1",
    r"Base;InProgress;White[28];wA1;bA1 -wA1;wG1 wA1\;bG1 -bA1;wS1 wG1-;bB1 /bG1;wQ /wG1;bQ bB1\;wG2 wS1\;bA2 \bA1;wA2 wA1/;bA2 bA1\;wA2 /bB1;bQ wA2\;wA1 /bQ;bA3 \bA1;wG3 wQ\;bA3 -bB1;wA1 wG2/;bA3 /wQ;wG3 -bA3;bA1 wG1\;wG1 bG1\;bQ /wA2;wA1 wA2\;bB2 -bQ;wA3 wG2\;bG1 wG1\;wA3 bQ\;bB2 bQ;wG1 -bB1;bS1 \bA2;wB1 -wG1;bS1 \bB1;wB1 /wG1;bA2 bB1/;wG1 /wB1;bA2 wQ\;wQ bG1/;bS1 \wQ;wB2 \wS1;bS2 \bS1;wA3 wG1\;bS2 \wB2;wS2 wA3\;bB2 wA2;wS2 -wG1;bG2 -bS1;wS2 wA3\;bB1 bG2\;wB1 \wG1;bS1 \bS2;wB1 -bB2;bB2 /bG2",
    r"Base+MLP;InProgress;Black[34];wP;bS1 -wP;wS1 wP-;bS2 -bS1;wS2 wS1/;bP -bS2;wQ wS2-;bQ /bP;wA1 wP\;bA1 -bP;wA1 bQ\;bM -bA1;wB1 wS1\;bA2 /bM;wL wA1-;bA2 wQ\;wL /bQ;bM wQ/;wG1 /wL;bG1 \bP;wB2 wP\;bA1 -bM;wB2 /wB1;bA3 bG1/;wM -wB2;bB1 bM/;wG2 wP\;bA1 bB1/;wG2 -wS2;bA3 bM\;wA2 wG1\;bA1 -bM;wA2 bP\;bQ \wL;wG1 /bP;bQ -wL;wA1 -wG1;bQ /wL;wA2 -bQ;bB2 bB1-;wA1 bQ\;bG2 bB1\;wA2 bB2\;bG2 bB2/;wA2 /bQ;bG3 \bB1;wM wB2;bL bG2/;wA1 -bQ;bA3 \bL;wA2 -bG1;bA3 bM\;wA2 wA1\;bL bG2\;wA2 \bG2;bG3 bB1\;wA2 bQ\;bB1 bM;wA3 -wA1;bA1 bG2/;wA3 wL\;bB1 -bM;wG2 bS1\;bA1 bG3\;wG3 /wA2;bA1 wG2\;wA1 /bQ",
    r"Base+MLP;InProgress;Black[34];wS1;bP -wS1;wA1 wS1-;bB1 -bP;wS2 wA1\;bB2 bB1\;wQ wA1/;bQ /bB2;wS2 bB2\;bQ /wS2;wG1 wS1\;bG1 /bB1;wG2 /wG1;wS1 bP/;wG3 wA1\;bB1 -wS1;wB1 wG3-;bG2 -bB1;wM wB1\;bM \bG2;wP wG3\;bQ bG1\;wM wB1;bQ /wS2;wB2 wQ/;bS1 bM/;wB2 wQ;bS2 bS1\;wL -wB2;bS2 \wB2;wL \bS2;wS1 bG2\;wM wB1/;bS1 /bM;wA2 -wL;bL -bM;wA2 wP\;bG3 bP/;wA2 bQ\;bM /bL;wA2 wG2\;bP bG3\;wA2 bQ\;wG1 /bS2;wA2 /wG3;bG3 \wM;wG1 wM/;bP /bS2;wA3 wG1-;bA1 /bM;wA1 \wG2;bA1 bP\;wA1 bG1\;bA1 wG1\;wA3 wS2\;bA2 /bP;wP wB1\;bA2 wA2\;wA3 -wG3;bA2 bM\;wA2 /bQ;bM \bL;wL -bP;bA2 \bG3;wG3 wM\;bA1 wB2\;wA3 wS2\",
    r"Base+MLP;InProgress;White[29];wB1;bS1 \wB1;wQ wB1\;bP -bS1;wQ wB1-;bA1 \bP;wM wQ-;bQ \bA1;wA1 wM/;bQ bA1/;wA1 \bQ;bM /bP;wA1 bQ\;bA1 bM\;wA2 wB1\;bS2 -bM;wA2 /bQ;bA1 wB1\;wA2 -bQ;bL bS2\;wB2 /wA2;bG1 bL\;wB2 wA2\;bG2 bM\;wG1 wM/;bA1 /bG1;wA3 \wA2;bQ wA1/;wA3 bQ\;bA1 wQ\;wA2 wA3-;bA1 wM\;wA2 wA3/;bQ \wA2;wA1 bQ/;bG2 /wB2;wG2 wA2\;bA1 wQ\;wG2 -wA1;bM wA3\;wA1 bA1\;bM wG1-;wS1 \wG1;bA2 bG1\;wA1 /bQ;bA2 wB1\;wQ wA3\;bM /wS1;wB1 bS1;bB1 bG1/;wS1 wA2/;bA2 wQ\;wM /wG2;bA1 wA2\;wP wG1/;bB1 bG1-",
    r"Base;InProgress;Black[56];wG1;bA1 \wG1;wQ wG1-;bG1 bA1/;wB1 /wG1;bA2 -bG1;wS1 wB1\;bQ bG1/;wG2 /wB1;bA2 wQ/;wS2 wG2\;bA2 -bA1;wB2 wS2\;bA2 wG1\;wQ bA2-;bG2 -bG1;wG3 /wB2;bG2 bA2\;wB1 wS1;bS1 -bA1;wQ bG2-;bG3 -bQ;wA1 -wG2;bG3 bG1\;wA1 bQ/;bB1 /bS1;wB1 /wG1;bA2 wQ/;wG2 bQ\;bG1 bG3\;wA2 -wG3;bS2 \bA2;wG1 wA1\;bQ -wA1;wA3 /wS2;bB2 /bB1;wA2 /bQ;bB2 bB1\;wQ bG2\;bA2 wQ-;wA3 \bQ;bA3 bS2-;wA2 bQ\;bA3 \bS1;wG1 \wA1;bQ /wA3;wG3 wS1\;bA3 \bA2;wQ /bA2;bS2 bA2/;wQ bA2\;bQ wA3\;wG1 /bQ;bS2 wQ\;wA3 \wA1;bQ \wG1;wA3 -bQ;bG1 wG1\;wA1 bQ/;bG1 wG2-;wA3 \wA1;bG1 wG1\;wA2 wB2\;bG3 -bS1;wA2 wA1\;bG3 bB2\;wA3 /bQ;bQ \wA3;wA1 bS2-;bG3 bA1\;wA2 \wG1;bQ -wA3;wA1 \bQ;bB2 /bB1;wA2 \wA3;bQ /wA1;wB2 wG3\;bQ wA1\;wB2 wG3;bQ /wA1;wB2 bG2\;bA3 /wQ;wG3 wQ/;bA3 wG3\;wQ -bS2;bQ -wA1;wS2 wB2\;bA2 wQ\;wG2 wA3\;bG1 bS1\;wG3 bA3\;bA3 /wQ;wG1 /bB2;bA3 \wA2;wG1 wG2/;bA3 \bS2;wQ /wS2;bA1 /wS1;wG1 /bB2;bA2 wQ\;wG1 wG2/;bA1 /wB2;wG1 wA1\;bG3 /wB1;wA2 /bQ;bG3 wB2/;wA2 -bQ;bG3 /bA1;wA2 bQ\;bQ \wA1;wA2 -bG3",
];

/// Most moves let the opponent surround the side to move's Queen at once; a few parry the threat.
const BLOCKS: &[&str] = &[
    "Base;InProgress;White[16];wS1;bG1 wS1/;wA1 -wS1;bQ bG1-;wQ wS1\\;bS1 \\bG1;wA1 bQ/;bA1 -bS1;wA2 -wS1;bA1 /wA2;wA3 wA1-;bS1 \\wA3;wA3 bQ\\;bA2 \\bG1;wA3 bA2/;bA3 bS1-;wQ wA2\\;bA1 \\wA2;wS2 /wA2;bA3 wQ\\;wS2 bA3\\;bS2 \\bA1;wG1 wS2\\;bS2 /wA2;wG1 \\bA1;bG2 -bS2;wG2 wA3/;bG2 wS1\\;wG2 /bA2;bB1 /bS2",
    "Base;InProgress;Black[17];wG1;bB1 \\wG1;wQ wG1-;bS1 \\bB1;wA1 /wG1;bQ \\bS1;wA2 wA1\\;bS2 bB1/;wA2 bS2/;bQ -wA2;wA1 \\bQ;bS2 wQ-;wA3 -wA1;bA1 bS2/;wA3 /wA1;bA2 bA1\\;wS1 -wA1;bA2 \\wS1;wS2 wA2/;bA1 wA2\\;wB1 wA1/;bA2 \\wB1;wS1 \\bA2;bA3 bS2-;wG2 \\wS2;bG1 bS2\\;wG2 /bA2;bA3 wG1\\;wB1 -wS2;bB2 bG1/;wG3 wS2/;bA3 \\wG3;wS1 /bA3",
    "Base+MLP;InProgress;White[27];wA1;bM wA1/;wP -wA1;bS1 bM-;wQ /wP;bQ bS1-;wA2 wP\\;bS2 \\bM;wA3 wA1\\;bA1 \\bS1;wA3 bA1/;bS2 -wP;wQ /bS2;bL \\bS2;wA2 \\bL;bA2 -bA1;wM wP\\;bA2 wM\\;wA2 bL/;bA3 -bA1;bA2 wA1\\;bA3 /wM;bA2 bS2\\;bA3 wA1\\;wQ /bA2;bA3 /wQ;wM -bM;bG1 /bL;wA1 -bG1;bB1 bM\\;wA1 /bG1;bG2 -bL;wA2 bQ-;bL -wA1;wA2 \\bG2;bG3 -bL;wA2 bQ/;bG2 bG1\\;bA2 wM\\;bG1 wQ\\;wM \\bG3;bM bG1/;wB1 wA2-;bB2 -bA3;wA3 /bB2;bA1 wB1/;wB2 wB1\\;bP bM\\;wB2 wA2\\;bP bS2\\;wB2 bQ;bM wA1\\",
];

/// Black to move; `bQ bG1-` brings the position after the fourth move back
/// a third time, a draw; the position is about level.
const THIRD_REPETITION: &str = r"Base;InProgress;Black[6];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wQ \wG1;bQ bG1/;wQ -wG1;bQ bG1-;wQ \wG1;bQ bG1/;wQ -wG1";

#[test]
fn contempt_decides_whether_a_level_position_is_repeated() {
    for (contempt, wants_draw) in [(-1000, true), (1000, false), (25, false)] {
        let mut e = Engine::new(EngineOptions {
            threads: 1,
            hash_mb: 4,
            repetition_draw: true,
            contempt,
        });
        for depth in [1, 3, 4] {
            let mut game =
                Game::from_game_string(THIRD_REPETITION, Rules::default(), true).expect("legal");
            let r = search_depth(&mut e, game.position(), depth);
            game.play(r.best_move).expect("a legal answer");
            assert_eq!(
                game.outcome() == Some(Outcome::Draw),
                wants_draw,
                "contempt {contempt}, depth {depth}: {:?} (score {})",
                r.best_move,
                r.score
            );
            if wants_draw {
                // The draw costs the side to move `contempt` (here a gain).
                assert_eq!(r.score, -contempt, "depth {depth}");
            }
        }
    }
}

fn position(game_string: &str) -> Position {
    Game::from_game_string(game_string, Rules::default(), true)
        .expect("test GameStrings are legal")
        .position()
        .clone()
}

/// An engine whose draws score 0 (no contempt), as the exactness checks'
/// plain negamax scores them.
fn engine(threads: usize, pruning: bool) -> Engine {
    let mut e = Engine::new(EngineOptions {
        threads,
        hash_mb: 4,
        repetition_draw: true,
        contempt: 0,
    });
    e.set_pruning(pruning);
    e
}

fn search_depth(e: &mut Engine, pos: &Position, depth: u32) -> waggle::engine::SearchResult {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    e.search(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// Plain negamax with the engine's rules for the end of the game and for
/// repetitions on the search path: the oracle.
fn negamax(pos: &mut Position, depth: u32, ply: i32, root_ply: u32) -> Score {
    if let Some(outcome) = pos.surround_outcome() {
        return match outcome {
            Outcome::Draw => 0,
            Outcome::Win(c) if c == pos.side_to_move() => MATE - ply,
            Outcome::Win(_) => -MATE + ply,
        };
    }
    if ply > 0 && (pos.repeated_since(root_ply) || pos.is_threefold()) {
        return 0;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut best = -MATE - 1;
    for &m in &moves {
        pos.make(m);
        best = best.max(-negamax(pos, depth - 1, ply + 1, root_ply));
        pos.unmake();
    }
    best
}

/// Whether the side to move can surround the enemy Queen right now.
fn can_win_at_once(pos: &mut Position) -> bool {
    let us = pos.side_to_move();
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    moves.iter().any(|&m| {
        pos.make(m);
        let won = pos.surround_outcome() == Some(Outcome::Win(us));
        pos.unmake();
        won
    })
}

#[test]
fn exact_search_matches_plain_negamax() {
    // Early and middlegame positions, small enough for a full-width oracle.
    let cases = [
        ("Base;InProgress;White[3];wG1;bG1 -wG1;wA1 wG1-;bQ \\bG1", 3),
        (BLOCKS[0], 2),
        (WIN_IN_2[0], 2),
        (WIN_IN_1[6], 2),
        (
            "Base+MLP;InProgress;White[4];wP;bS1 -wP;wB1 wP-;bS2 \\bS1;wQ wP\\;bQ /bS2",
            3,
        ),
    ];
    for (gs, max_depth) in cases {
        let pos = position(gs);
        for depth in 1..=max_depth {
            let mut p = pos.clone();
            let root_ply = p.ply();
            let expected = negamax(&mut p, depth, 0, root_ply);
            for threads in [1, 2] {
                let mut e = engine(threads, false);
                let got = search_depth(&mut e, &pos, depth);
                assert_eq!(
                    got.score, expected,
                    "{gs} depth {depth} threads {threads}: best {:?}",
                    got.best_move
                );
            }
        }
    }
}

#[test]
fn parallel_exact_search_agrees_with_one_thread() {
    // Deep enough that the workers defer each other's moves inside the tree
    // (simplified ABDADA) and give up iterations another worker completed.
    let cases = [
        BLOCKS[0],
        "Base+MLP;InProgress;White[4];wP;bS1 -wP;wB1 wP-;bS2 \\bS1;wQ wP\\;bQ /bS2",
    ];
    for gs in cases {
        let pos = position(gs);
        let one = search_depth(&mut engine(1, false), &pos, 5).score;
        for threads in [2, 3] {
            let many = search_depth(&mut engine(threads, false), &pos, 5).score;
            assert_eq!(many, one, "{gs}, {threads} threads");
        }
    }
}

#[test]
fn the_deepest_completed_depth_is_reported_whichever_thread_completed_it() {
    // With two threads the helper often completes the last depth first and
    // ends the search while the main thread is still inside that iteration;
    // that depth must still be reported, and match the answer. The helper
    // runs a ply ahead, so a depth the main thread completes after the
    // helper completed a deeper one is not reported: depths only increase.
    let pos = position("Base+MLP;InProgress;White[4];wP;bS1 -wP;wB1 wP-;bS2 \\bS1;wQ wP\\;bQ /bS2");
    let mut e = engine(2, true);
    for _ in 0..8 {
        let mut depths = Vec::new();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let result = e.search(&pos, &limits, &AtomicBool::new(false), &mut |info| {
            depths.push(info.depth)
        });
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        assert_eq!(depths.last(), Some(&6), "{depths:?}");
        assert_eq!(result.depth, 6);
        e.new_game();
    }
}

#[test]
fn new_game_allocates_the_table_outside_the_search() {
    let mut e = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 4,
        ..EngineOptions::default()
    });
    e.new_game();
    assert!(!e.prepare_tables(), "new_game allocated the table already");
    e.options.hash_mb = 8;
    assert!(e.prepare_tables(), "a new size means a new table");
    assert!(!e.prepare_tables());
}

#[test]
fn surround_in_one_is_found_and_scored() {
    for gs in WIN_IN_1 {
        let mut pos = position(gs);
        assert!(can_win_at_once(&mut pos), "{gs}");
        for pruning in [false, true] {
            let mut e = engine(1, pruning);
            let r = search_depth(&mut e, &pos, 2);
            assert_eq!(r.score, MATE - 1, "{gs}");
            let us = pos.side_to_move();
            pos.make(r.best_move);
            assert_eq!(pos.surround_outcome(), Some(Outcome::Win(us)), "{gs}");
            pos.unmake();
        }
    }
}

#[test]
fn surround_in_two_is_found_with_its_distance() {
    let mut forced = 0;
    for gs in WIN_IN_2 {
        let mut pos = position(gs);
        let mut exact = engine(1, false);
        let truth = search_depth(&mut exact, &pos, 3).score;
        if truth != MATE - 3 {
            // Not forced in this line of the game (the loser erred).
            continue;
        }
        forced += 1;
        assert!(!can_win_at_once(&mut pos), "{gs}: a win in one, not two");
        let mut e = engine(1, true);
        let r = search_depth(&mut e, &pos, 4);
        assert_eq!(r.score, MATE - 3, "{gs}");
        // After the first move of the win, every defence loses at once.
        pos.make(r.best_move);
        let mut replies = MoveList::new();
        pos.generate_moves(&mut replies);
        for &reply in &replies {
            pos.make(reply);
            assert!(
                pos.surround_outcome().is_some() || can_win_at_once(&mut pos),
                "{gs}: {reply:?} defends"
            );
            pos.unmake();
        }
    }
    assert!(
        forced >= 2,
        "too few forced wins in two among the test positions"
    );
}

#[test]
fn a_surround_on_the_move_at_the_horizon_counts_as_the_win() {
    // A forced surround in two (three plies) lies one ply beyond a
    // depth-2 search: the exact search sees only the evaluation there, the
    // engine's win check at the leaves sees the win and its distance.
    let mut checked = 0;
    for gs in WIN_IN_2 {
        let pos = position(gs);
        if search_depth(&mut engine(1, false), &pos, 3).score != MATE - 3 {
            continue;
        }
        checked += 1;
        let exact = search_depth(&mut engine(1, false), &pos, 2);
        assert!(exact.score < MATE - 3, "{gs}: {}", exact.score);
        let r = search_depth(&mut engine(1, true), &pos, 2);
        assert_eq!(r.score, MATE - 3, "{gs}");
    }
    assert!(
        checked >= 2,
        "too few forced wins in two among the test positions"
    );
}

/// Slow in a debug build (the exact depth-5 searches), so it runs with the
/// deep checks: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn surround_in_three_is_found_at_the_depth_it_needs() {
    for gs in WIN_IN_3 {
        let mut pos = position(gs);
        // The exact search proves the win and its distance, and that no
        // shorter one exists.
        let truth = search_depth(&mut engine(1, false), &pos, 5);
        assert_eq!(truth.score, MATE - 5, "{gs}");
        // At depth 7 the nodes from depth 6 down also run the singular
        // extension and its multi-cut: the distance must not change.
        for depth in [5, 7] {
            let r = search_depth(&mut engine(1, true), &pos, depth);
            assert_eq!(r.score, MATE - 5, "{gs}, depth {depth}");
            // After the engine's move every defence still loses in four
            // plies.
            pos.make(r.best_move);
            let after = search_depth(&mut engine(1, false), &pos, 4);
            assert_eq!(
                after.score,
                -MATE + 4,
                "{gs}, depth {depth}: {:?} does not win",
                r.best_move
            );
            pos.unmake();
        }
    }
}

#[test]
fn the_only_defences_against_a_surround_are_found() {
    for gs in BLOCKS {
        let mut pos = position(gs);
        assert!(!can_win_at_once(&mut pos), "{gs}");
        // Count the moves that lose at once: most of them.
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let losing = |pos: &mut Position, m: Move| {
            pos.make(m);
            let lost = pos.surround_outcome().is_none() && can_win_at_once(pos);
            pos.unmake();
            lost
        };
        let n_losing = moves.iter().filter(|&&m| losing(&mut pos, m)).count();
        assert!(n_losing * 2 > moves.len(), "{gs}: not a real threat");
        // Depth 7 with pruning also runs the singular extension (nodes
        // from depth 6), whose multi-cut must not let a move that loses at
        // once fail high. That deep, some of these positions are lost
        // anyway (the first in six plies), so only the move is checked.
        for (pruning, depth) in [(false, 3), (true, 3), (true, 7)] {
            let mut e = engine(1, pruning);
            let r = search_depth(&mut e, &pos, depth);
            if depth == 3 {
                assert!(r.score > -MATE + 100, "{gs}: {}", r.score);
            }
            assert!(
                !losing(&mut pos, r.best_move),
                "{gs}: {:?} loses",
                r.best_move
            );
        }
    }
}

#[test]
fn fixed_depth_search_is_reproducible() {
    for gs in [BLOCKS[1], WIN_IN_2[3]] {
        let pos = position(gs);
        let mut e = engine(1, true);
        let first = search_depth(&mut e, &pos, 5);
        e.new_game();
        let second = search_depth(&mut e, &pos, 5);
        let mut fresh = engine(1, true);
        let third = search_depth(&mut fresh, &pos, 5);
        assert_eq!(first.nodes, second.nodes, "{gs}");
        assert_eq!(first.nodes, third.nodes, "{gs}");
        assert_eq!(first.best_move, second.best_move);
        assert_eq!(first.score, third.score);
    }
}

#[test]
fn root_moves_restrict_the_answer() {
    let pos = position(BLOCKS[0]);
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let only = vec![moves[moves.len() - 1], moves[0]];
    let mut e = engine(1, true);
    let limits = Limits {
        depth: Some(3),
        root_moves: Some(only.clone()),
        ..Limits::default()
    };
    let r = e.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(only.contains(&r.best_move));
}

#[test]
fn a_raised_stop_flag_still_answers_a_legal_move() {
    let pos = position(BLOCKS[2]);
    let stop = AtomicBool::new(true);
    let mut e = engine(2, true);
    let r = e.search(&pos, &Limits::default(), &stop, &mut |_| {});
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    assert!(moves.contains(&r.best_move));
}

#[test]
fn node_limit_is_honoured() {
    let pos = position(BLOCKS[1]);
    let mut e = engine(1, true);
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let r = e.search(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
    assert!(r.nodes < 5_000 + 2_048, "{}", r.nodes);
    assert!(r.depth >= 1);
}

/// Runs UHP commands through an in-memory server; returns the output.
fn uhp(commands: &[&str]) -> String {
    let mut server = waggle::uhp::UhpServer::new(Vec::new());
    for c in commands {
        server.handle_line(c);
    }
    String::from_utf8_lossy(server.output()).into_owned()
}

#[test]
fn bestmove_prints_one_move_unless_intermediate_moves_are_asked_for() {
    let newgame = format!("newgame {}", BLOCKS[0]);
    let quiet = uhp(&[&newgame, "options set Threads 1", "bestmove depth 3"]);
    let answer: Vec<&str> = quiet.lines().skip_while(|l| *l != "ok").collect();
    // ok (newgame), option line, ok, move, ok
    let after_options: Vec<&str> = answer.iter().skip(3).copied().collect();
    assert_eq!(after_options.len(), 2, "{quiet}");
    assert_eq!(after_options[1], "ok");
    assert!(!after_options[0].contains(';'));

    // One thread: with two, the helper runs a ply ahead and the depths it
    // overtakes are not reported.
    let chatty = uhp(&[
        &newgame,
        "options set Threads 1",
        "options set ReportIntermediateBestMoves True",
        "bestmove depth 3",
    ]);
    let lines: Vec<&str> = chatty.lines().collect();
    let intermediate = lines
        .iter()
        .filter(|l| {
            l.split(';')
                .nth(1)
                .is_some_and(|d| d.parse::<u32>().is_ok())
        })
        .count();
    assert!(intermediate >= 3, "{chatty}");
}

#[test]
fn bestmove_clock_and_nodes_answer_a_legal_move() {
    let newgame = format!("newgame {}", BLOCKS[1]);
    for limit in ["bestmove clock 2000 2000 100 100", "bestmove nodes 3000"] {
        let out = uhp(&[&newgame, "options set Threads 1", limit]);
        let lines: Vec<&str> = out.lines().collect();
        let mv = lines[lines.len() - 2];
        assert!(!mv.starts_with("err"), "{limit}: {out}");
        let check = uhp(&[&newgame, &format!("play {mv}")]);
        assert!(!check.contains("invalidmove"), "{limit}: {mv}");
    }
}
